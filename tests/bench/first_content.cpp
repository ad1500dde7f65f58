// How soon a stream sends content: every corpus case (corpus/FOLDER/CASE.txt under its
// case's profile, tools and settings) streamed in 4-byte chunks, about a token each, with
// reasoning_start as the profile gives it ("after") and with it forced to guess where the
// case does not set it, as every profile had it before issue 28 ("before"). For each case
// whose result has content: the bytes fed before the first content event (held), and the
// time to the first content byte at 50 tokens a second (20 ms a chunk), the pace of a
// served model, since the parser's own time per chunk is microseconds. Cases whose first
// content comes only with finish() count as held in full.
//
//   build/tests/bench/toolgram_first_content            # a table per profile, then totals
//   build/tests/bench/toolgram_first_content hermes     # "after" with hermes at outside too (what if)
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "corpus_cases.hpp"

namespace {

using namespace toolgram_test;

constexpr std::size_t chunk = 4;
constexpr double ms_per_chunk = 20.0;

struct Figures {
    std::size_t cases = 0;
    std::size_t before_end = 0;  // first content before finish()
    std::size_t held = 0;        // bytes fed before the first content event, summed
    std::size_t bytes = 0;       // the cases' sizes, summed
    std::vector<double> ms;      // time to the first content byte, per case
    void add(std::size_t fed, std::size_t size, bool early) {
        ++cases;
        before_end += early ? 1 : 0;
        held += fed;
        bytes += size;
        ms.push_back(static_cast<double>((fed + chunk - 1) / chunk) * ms_per_chunk);
    }
    double median() const {
        if (ms.empty()) return 0;
        std::vector<double> v = ms;
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    }
    double mean() const {
        double t = 0;
        for (double m : ms) t += m;
        return ms.empty() ? 0 : t / static_cast<double>(ms.size());
    }
};

// Bytes fed before the first content event, and whether it came before finish().
std::pair<std::size_t, bool> first_content(const toolgram::Parser& parser, const std::string& text) {
    toolgram::StreamParser sp(parser);
    for (std::size_t at = 0; at < text.size(); at += chunk) {
        const std::size_t n = std::min(chunk, text.size() - at);
        for (const auto& e : sp.feed(std::string_view(text).substr(at, n)))
            if (e.kind == toolgram::StreamEvent::Kind::content) return {at + n, true};
    }
    static_cast<void>(sp.finish());
    return {text.size(), false};
}

void row(const std::string& name, const Figures& b, const Figures& a) {
    auto pct = [](std::size_t x, std::size_t of) { return of ? 100.0 * static_cast<double>(x) / static_cast<double>(of) : 0.0; };
    std::printf("| %s | %zu | %zu / %zu | %zu / %zu | %.0f%% / %.0f%% | %.0f / %.0f | %.0f / %.0f |\n", name.c_str(), b.cases,
                b.before_end, a.before_end, b.held, a.held, pct(b.held, b.bytes), pct(a.held, a.bytes), b.median(), a.median(),
                b.mean(), a.mean());
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> what_if(argv + 1, argv + argc);  // profiles taken as outside in "after"
    std::map<std::string, std::pair<Figures, Figures>> by_profile;
    Figures before_all, after_all, before_changed, after_changed;
    for (const auto& c : all_cases()) {
        const json spec = json::parse(slurp(c.expect));
        toolgram::Profile profile = profile_for(spec, c.text.parent_path());
        const bool set_by_case = spec.value("settings", json::object()).contains("reasoning_start");
        if (!set_by_case && std::find(what_if.begin(), what_if.end(), profile.name) != what_if.end())
            profile.settings.reasoning_start = toolgram::ReasoningStart::outside;
        const std::string text = slurp(c.text);
        const auto tools = tools_for(spec);
        const toolgram::Parser after = parser_with(profile, tools);
        toolgram::Profile guessing = profile;
        if (!set_by_case) guessing.settings.reasoning_start = toolgram::ReasoningStart::guess;
        const toolgram::Parser before = parser_with(guessing, tools);
        if (before.parse(text).content.empty() || after.parse(text).content.empty()) continue;
        const auto [fb, eb] = first_content(before, text);
        const auto [fa, ea] = first_content(after, text);
        auto& [b, a] = by_profile[profile.name];
        b.add(fb, text.size(), eb);
        a.add(fa, text.size(), ea);
        before_all.add(fb, text.size(), eb);
        after_all.add(fa, text.size(), ea);
        if (profile.settings.reasoning_start != guessing.settings.reasoning_start) {
            before_changed.add(fb, text.size(), eb);
            after_changed.add(fa, text.size(), ea);
        }
    }
    std::printf("Cases with content, streamed in %zu-byte chunks at %.0f ms each; before / after.\n\n", chunk, ms_per_chunk);
    std::printf("| profile | cases | content before the end | bytes held | held, of the bytes | first content, median ms | mean ms |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (const auto& [name, f] : by_profile) row(name, f.first, f.second);
    row("profiles whose default changed", before_changed, after_changed);
    row("all", before_all, after_all);
    return 0;
}
