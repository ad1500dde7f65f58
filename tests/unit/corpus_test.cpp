// Golden corpus: every corpus/<folder>/<case>.txt is parsed and compared with
// <case>.expect.json, so a new case is one file pair and no code.
//
// The expect file says which profile, tools and settings to use, then what must come out:
// the calls exactly (ids included), and, where given, the content, the reasoning, a
// subset of telemetry, the rejection reasons (by substring, count exact) and the error.
// A folder with no case, or a .txt without its expectation, fails the suite.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

namespace fs = std::filesystem;
using toolgram::json;

namespace {

const fs::path corpus_root = fs::path(TOOLGRAM_SOURCE_DIR) / "corpus";

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

struct Case {
    fs::path text;
    fs::path expect;
};

std::vector<Case> all_cases() {
    std::vector<Case> out;
    for (const auto& dir : fs::directory_iterator(corpus_root)) {
        if (!dir.is_directory()) continue;
        for (const auto& f : fs::directory_iterator(dir.path())) {
            if (f.path().extension() != ".txt") continue;
            fs::path e = f.path();
            e.replace_extension(".expect.json");
            out.push_back({f.path(), e});
        }
    }
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.text < b.text; });
    return out;
}

toolgram::Profile profile_for(const json& spec, const fs::path& dir) {
    std::string name = spec.value("profile", "");
    if (name.empty()) {
        const auto names = toolgram::builtin_profile_names();
        name = std::find(names.begin(), names.end(), dir.filename().string()) != names.end() ? dir.filename().string() : "auto";
    }
    toolgram::Profile p = toolgram::builtin_profile(name);
    const json s = spec.value("settings", json::object());
    p.settings.tool_required = s.value("tool_required", false);
    p.settings.accept_calls_in_reasoning = s.value("accept_calls_in_reasoning", false);
    p.settings.tag_open = s.value("tag_open", p.settings.tag_open);
    p.settings.tag_close = s.value("tag_close", p.settings.tag_close);
    p.settings.fallback_max_bytes = s.value("fallback_max_bytes", p.settings.fallback_max_bytes);
    if (s.contains("intent_markers")) p.settings.intent_markers = s["intent_markers"].get<std::vector<std::string>>();
    return p;
}

std::vector<toolgram::Tool> tools_for(const json& spec) {
    const json t = spec.value("tools", json("default"));
    if (t == "none") return {};
    if (t == "default") return toolgram::tools_from_json(json::parse(slurp(corpus_root / "tools.json")));
    return toolgram::tools_from_json(t);
}

}  // namespace

TEST_CASE("every corpus folder holds cases, and every case has its expectation", "[corpus]") {
    std::size_t folders = 0;
    for (const auto& dir : fs::directory_iterator(corpus_root)) {
        if (!dir.is_directory()) continue;
        ++folders;
        std::size_t cases = 0;
        for (const auto& f : fs::directory_iterator(dir.path())) {
            if (f.path().extension() != ".txt") continue;
            ++cases;
            fs::path e = f.path();
            e.replace_extension(".expect.json");
            CAPTURE(f.path().string());
            CHECK(fs::exists(e));
        }
        CAPTURE(dir.path().string());
        CHECK(cases > 0);
    }
    CHECK(folders >= 6);
}

TEST_CASE("golden corpus: each model output parses to its expected result", "[corpus]") {
    const auto cases = all_cases();
    REQUIRE(!cases.empty());
    for (const auto& c : cases) {
        DYNAMIC_SECTION(c.text.parent_path().filename().string() << "/" << c.text.stem().string()) {
            REQUIRE(fs::exists(c.expect));
            const json spec = json::parse(slurp(c.expect));
            const json& want = spec.at("expect");
            toolgram::Parser parser(profile_for(spec, c.text.parent_path()), tools_for(spec));
            const json got = toolgram::to_json(parser.parse(slurp(c.text)));
            CAPTURE(got.dump(2));

            CHECK(got["calls"] == want.at("calls"));
            if (want.contains("content")) CHECK(got["content"] == want["content"]);
            if (want.contains("reasoning")) CHECK(got["reasoning"] == want["reasoning"]);
            if (want.contains("telemetry")) {
                for (auto it = want["telemetry"].begin(); it != want["telemetry"].end(); ++it) {
                    CAPTURE(it.key());
                    CHECK(got["telemetry"][it.key()] == *it);
                }
            }
            if (want.contains("rejected_reasons")) {
                const json& rejected = got["telemetry"]["rejected"];
                REQUIRE(rejected.size() == want["rejected_reasons"].size());
                for (std::size_t i = 0; i < rejected.size(); ++i) {
                    const std::string reason = rejected[i]["reason"];
                    const std::string part = want["rejected_reasons"][i];
                    CAPTURE(reason, part);
                    CHECK(reason.find(part) != std::string::npos);
                }
            }
            if (want.contains("error")) {
                if (want["error"].is_null()) {
                    CHECK(got["error"].is_null());
                } else {
                    REQUIRE(got["error"].is_object());
                    const std::string msg = got["error"]["message"];
                    const std::string part = want["error"].value("message_contains", "");
                    CAPTURE(msg, part);
                    CHECK(msg.find(part) != std::string::npos);
                    CHECK(!got["error"]["correction_prompt"].get<std::string>().empty());
                }
            }
        }
    }
}
