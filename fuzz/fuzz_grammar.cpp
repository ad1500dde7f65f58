// The one template behind every per-grammar harness. fuzz/CMakeLists.txt reads the grammar
// names from src/readers/grammar_registry.cpp and, for each, links this file with a generated
// one-line source defining `toolgram_fuzz_grammar`; a newly registered grammar thus gets
// its harness, dictionary, seeds and replay test with no new code.
//
// One input exercises the grammar alone, four ways:
//  1. through the public pipeline, as the only primary grammar of a profile with tools;
//  2. the same with tight limits (depth 4, 3 candidates, 256 bytes a candidate, 1 KiB of
//     input), so fuzzing reaches every limit's path, not only at megabytes;
//  3. through the public pipeline, as the only (fallback) grammar, a call being required
//     so the intent gate opens; all three with every oracle of fuzz_support.hpp;
//  4. through its GrammarDef directly: read_at at each of its markers' occurrences (as the
//     scanner would, but at every occurrence, including ones the scanner skips inside an
//     earlier block) and read_whole on the trimmed input. Each block must lie inside the
//     input with its candidates and framed content, and reading again in a fresh scan
//     context must give the same block: the closer cache may make reads faster, never
//     different.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "readers/grammar_def.hpp"

extern const char* const toolgram_fuzz_grammar;  // defined by the generated source

namespace {

using toolgram::detail::Block;
using toolgram::detail::GrammarDef;
using toolgram::detail::ScanContext;
using toolgram_fuzz::fail;

// Direct reads per marker are capped so one input costs O(cap) reads, not one per byte.
constexpr std::size_t max_reads_per_marker = 64;

struct Setup {
    const GrammarDef* grammar = nullptr;
    toolgram::Settings settings;
    toolgram::Parser primary;
    toolgram::Parser tight;
    toolgram::Parser fallback;
};

toolgram::Profile with_tight_limits(toolgram::Profile p) {
    p.settings.limits.max_depth = 4;
    p.settings.limits.max_candidates = 3;
    p.settings.limits.max_candidate_bytes = 256;
    p.settings.limits.max_input_bytes = 1024;
    return p;
}

const GrammarDef& registered(std::string_view name) {
    const GrammarDef* g = toolgram::detail::find_grammar(name);
    if (!g)
        fail("setup", "grammar \"" + std::string(name) +
                          "\" is not registered under that name: a GrammarDef named NAME_grammar in "
                          "src/readers/grammar_registry.cpp must carry the name \"NAME\"");
    return *g;
}

const Setup& setup() {
    static const Setup s{
        &registered(toolgram_fuzz_grammar),
        toolgram_fuzz::settings_for_grammar(toolgram_fuzz_grammar),
        toolgram::Parser(toolgram_fuzz::single_grammar_profile(toolgram_fuzz_grammar, toolgram::Role::primary),
                         toolgram_fuzz::tools()),
        toolgram::Parser(
            with_tight_limits(toolgram_fuzz::single_grammar_profile(toolgram_fuzz_grammar, toolgram::Role::primary)),
            toolgram_fuzz::tools()),
        toolgram::Parser(toolgram_fuzz::single_grammar_profile(toolgram_fuzz_grammar, toolgram::Role::fallback),
                         toolgram_fuzz::tools()),
    };
    return s;
}

void check_block(const Block& b, std::size_t size, std::string_view how) {
    const std::string where = std::string(how) + " of grammar " + toolgram_fuzz_grammar;
    if (b.begin > b.end || b.end > size) fail("block", "a block from " + where + " lies outside the input");
    for (const auto& c : b.candidates) {
        if (c.begin > c.end || c.end > size) fail("block", "a candidate from " + where + " lies outside the input");
        if (c.grammar.empty()) fail("block", "a candidate from " + where + " names no grammar");
        if (!c.problem.empty() && c.problem_offset > size)
            fail("block", "a problem from " + where + " is placed past the input");
    }
    std::size_t pos = b.begin;
    for (const auto& [from, to] : b.content()) {
        if (from < pos || from > to || to > b.end)
            fail("block", "framed content from " + where + " is unsorted or outside its block");
        pos = to;
    }
}

// What a block says, for comparing two reads of the same place.
std::string describe(const std::optional<Block>& b) {
    if (!b) return "none";
    std::string out = std::to_string(b->begin) + "-" + std::to_string(b->end) + ":";
    for (const auto& c : b->candidates) {
        // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "[" + string.
        out += '[';
        out += std::to_string(c.begin) + "-" + std::to_string(c.end) + " " + c.name + " " +
               c.arguments.dump(-1, ' ', false, toolgram::json::error_handler_t::replace) + " " + c.problem + "@" +
               std::to_string(c.problem_offset) + (c.healed ? " healed" : "") + (c.cut ? " cut" : "") + "]";
    }
    for (const auto& [from, to] : b->content()) {
        out += '{';
        out += std::to_string(from) + "-" + std::to_string(to) + "}";
    }
    return out;
}

void read_directly(const Setup& s, std::string_view text) {
    const GrammarDef& g = *s.grammar;
    ScanContext shared(text, s.settings);
    if (g.markers && g.read_at) {
        for (const std::string& marker : g.markers(s.settings)) {
            if (marker.empty()) continue;
            std::size_t reads = 0;
            for (std::size_t at = text.find(marker); at != std::string_view::npos && reads < max_reads_per_marker;
                 at = text.find(marker, at + 1), ++reads) {
                const std::optional<Block> b = g.read_at(shared, at);
                if (b) check_block(*b, text.size(), "read_at");
                ScanContext fresh(text, s.settings);
                if (describe(b) != describe(g.read_at(fresh, at)))
                    fail("cache", std::string("read_at of grammar ") + toolgram_fuzz_grammar + " at " +
                                      std::to_string(at) + " differs with a fresh scan context");
            }
        }
    }
    if (g.read_whole) {
        std::size_t begin = 0, end = text.size();
        while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
        while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
        if (begin < end) {
            const std::optional<Block> b = g.read_whole(shared, begin, end);
            if (b) check_block(*b, text.size(), "read_whole");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Setup& s = setup();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    toolgram_fuzz::check_parse(s.primary, text);
    toolgram_fuzz::check_parse(s.tight, text);
    toolgram_fuzz::check_parse(s.fallback, text);
    read_directly(s, text);
    return 0;
}
