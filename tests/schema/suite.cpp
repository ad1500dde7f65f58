// toolgram_schema_suite: the official JSON-Schema-Test-Suite (Debian's json-schema-test-suite,
// drafts 4, 6 and 7, the required tests and the optional format, bignum and float tests) run
// against toolgram's validator (src/validation/schema/). Registered with ctest.
//
// Every case either agrees with the suite or stands in the skip list (skipped.txt beside this
// file), each entry with its reason. A case listed one by one that agrees is an error too
// ("stale"), so the list says exactly what differs. Prints one line per draft and a total:
//
//   draft7: 520 agree, 0 disagree, 33 skipped (4 stale)
//
//   toolgram_schema_suite SUITE_TESTS_DIR SKIP_LIST      (SUITE_TESTS_DIR holds draft4/ …)
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validation/schema/schema.hpp"

namespace fs = std::filesystem;
namespace schema = toolgram::detail::schema;
using json = nlohmann::ordered_json;

namespace {

struct SkipEntry {
    std::string file, group, test, reason;
    bool used = false;
};

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Lines `FILE | GROUP | TEST | REASON`; `*` matches any group or test; # starts a comment.
std::vector<SkipEntry> read_skip_list(const fs::path& path) {
    std::vector<SkipEntry> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (trim(line).empty() || trim(line)[0] == '#') continue;
        std::vector<std::string> fields;
        std::stringstream ss(line);
        std::string field;
        while (std::getline(ss, field, '|')) fields.push_back(trim(field));
        if (fields.size() != 4) {
            std::cerr << "skip list: not FILE | GROUP | TEST | REASON: " << line << "\n";
            std::exit(2);
        }
        out.push_back({fields[0], fields[1], fields[2], fields[3]});
    }
    return out;
}

schema::Draft draft_of(const std::string& name) {
    if (name == "draft4") return schema::Draft::draft4;
    if (name == "draft6") return schema::Draft::draft6;
    return schema::Draft::draft7;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: toolgram_schema_suite SUITE_TESTS_DIR SKIP_LIST\n";
        return 2;
    }
    const fs::path root = argv[1];
    if (!fs::is_directory(root / "draft7")) {
        std::cerr << "toolgram_schema_suite: no draft7/ in " << root << " (install json-schema-test-suite)\n";
        return 2;
    }
    std::vector<SkipEntry> skips = read_skip_list(argv[2]);
    auto skip_for = [&](const std::string& file, const std::string& group, const std::string& test) -> SkipEntry* {
        for (auto& s : skips)
            if (s.file == file && (s.group == "*" || s.group == group) && (s.test == "*" || s.test == test)) return &s;
        return nullptr;
    };

    std::size_t total_agree = 0, total_disagree = 0, total_skipped = 0, total_stale = 0;
    for (const std::string draft : {"draft4", "draft6", "draft7"}) {
        std::vector<fs::path> files;
        for (const auto& entry : fs::recursive_directory_iterator(root / draft))
            if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        std::size_t agree = 0, disagree = 0, skipped = 0, stale = 0;
        for (const auto& path : files) {
            const std::string file = fs::relative(path, root).generic_string();
            std::ifstream in(path);
            const json groups = json::parse(in);
            for (const auto& group : groups) {
                const std::string group_name = group.at("description");
                schema::CompileOptions options;
                options.draft = draft_of(draft);
                const schema::Schema compiled = schema::Schema::compile(group.at("schema"), options);
                for (const auto& test : group.at("tests")) {
                    const std::string test_name = test.at("description");
                    const bool expected = test.at("valid");
                    const schema::Verdict verdict = compiled.validate(test.at("data"));
                    const bool right = verdict.pass == expected;
                    SkipEntry* skip = skip_for(file, group_name, test_name);
                    if (skip) {
                        skip->used = true;
                        ++skipped;
                        // A case listed by name must still differ, or the list is out of date.
                        if (right && skip->test != "*") {
                            ++stale;
                            std::cout << "STALE " << file << " | " << group_name << " | " << test_name
                                      << ": agrees now; remove it from the skip list\n";
                        }
                        continue;
                    }
                    if (right) {
                        ++agree;
                        continue;
                    }
                    ++disagree;
                    std::cout << "DISAGREE " << file << " | " << group_name << " | " << test_name << ": expected "
                              << (expected ? "valid" : "invalid") << ", got "
                              << (verdict.pass ? "valid" : "invalid: " + verdict.reason) << "\n";
                }
            }
        }
        std::cout << draft << ": " << agree << " agree, " << disagree << " disagree, " << skipped << " skipped"
                  << (stale ? " (" + std::to_string(stale) + " stale)" : "") << "\n";
        total_agree += agree;
        total_disagree += disagree;
        total_skipped += skipped;
        total_stale += stale;
    }
    std::size_t unused = 0;
    for (const auto& s : skips)
        if (!s.used) {
            ++unused;
            std::cout << "UNUSED skip entry: " << s.file << " | " << s.group << " | " << s.test << "\n";
        }
    std::cout << "total: " << total_agree << " agree, " << total_disagree << " disagree, " << total_skipped
              << " skipped (listed in the skip list with reasons)\n";
    return total_disagree == 0 && total_stale == 0 && unused == 0 ? 0 : 1;
}
