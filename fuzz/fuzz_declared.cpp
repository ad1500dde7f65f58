// The run-time grammar under every syntax the project ships a profile file for: the first
// byte of the input picks the file (the compiled-in grammars/declared/*.json, then
// docs/profiles/*.json, corpus/declared/*.profile.json),
// the rest is the model output, parsed with every oracle of fuzz_support.hpp, with the
// file's limits and again with tight ones (so the limits' paths are reached). The
// generated harness fuzz_grammar_declared reads one syntax in depth; this one spreads
// over all of them, seeded with the corpora of the families the files reproduce.
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"

namespace {

struct Parsers {
    std::vector<toolgram::Parser> normal, tight;
};

const Parsers& parsers() {
    static const Parsers p = [] {
        Parsers out;
        std::vector<toolgram::Profile> profiles;
        for (const auto& f : toolgram::declared_profile_files()) profiles.push_back(toolgram::builtin_profile(f.name));
        for (const auto& p : toolgram_fuzz::shipped_profile_files()) profiles.push_back(p);
        for (const auto& profile : profiles) {
            out.normal.emplace_back(profile, toolgram_fuzz::tools());
            toolgram::Profile tight = profile;
            tight.settings.limits.max_depth = 4;
            tight.settings.limits.max_candidates = 3;
            tight.settings.limits.max_candidate_bytes = 256;
            tight.settings.limits.max_input_bytes = 1024;
            out.tight.emplace_back(std::move(tight), toolgram_fuzz::tools());
        }
        if (out.normal.empty()) toolgram_fuzz::fail("setup", "no shipped profile file");
        return out;
    }();
    return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const Parsers& p = parsers();
    const std::size_t which = data[0] % p.normal.size();
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    toolgram_fuzz::check_parse(p.normal[which], text);
    toolgram_fuzz::check_parse(p.tight[which], text);
    return 0;
}
