// Streaming cost: a long message (prose with a call every few kilobytes), generated
// deterministically, fed one token-sized chunk (1 to 6 bytes) at a time. Prints, per
// profile: total time, throughput, the mean cost of a chunk in the first and in the last
// twentieth of the message and their ratio (near 1 when a chunk's cost does not grow with
// what came before), the one-shot parse of the same text, and peak memory.
//
// For contrast it also times what serving engines do today, re-parsing the accumulated
// text on every chunk, on a message small enough to finish.
//
// Usage: toolgram_bench_stream [MEGABYTES]   (default 1)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace {

using Clock = std::chrono::steady_clock;

const char* words[] = {"the", "model", "answer", "weather", "city", "tomorrow", "because", "results", "search",
                       "report", "numbers", "quarter", "summary", "with", "and", "of", "a", "in", "it", "for"};

// Prose paragraphs with a call in the profile's syntax every ~8 KiB.
std::string message(std::size_t bytes, const std::string& profile_name) {
    std::mt19937 rng(42);
    std::string out;
    std::size_t next_call = 8192;
    std::size_t n = 0;
    const toolgram::Profile profile = toolgram::builtin_profile(profile_name);
    while (out.size() < bytes) {
        for (int w = 0; w < 60; ++w) {
            out += words[rng() % (sizeof words / sizeof *words)];
            out += w % 12 == 11 ? ". " : " ";
        }
        out += "\n\n";
        if (out.size() >= next_call) {
            toolgram::Call call{"", "get_weather", {{"city", "City " + std::to_string(n++)}, {"days", 3}, {"unit", "celsius"}}};
            out += toolgram::render_calls(profile, {call});
            out += "\n\n";
            next_call += 8192;
        }
    }
    return out;
}

std::vector<std::size_t> token_cuts(std::size_t size) {
    std::mt19937 rng(7);
    std::vector<std::size_t> cuts;
    for (std::size_t at = 1 + rng() % 6; at < size; at += 1 + rng() % 6) cuts.push_back(at);
    cuts.push_back(size);
    return cuts;
}

long peak_rss_kb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

std::vector<toolgram::Tool> tools() {
    return toolgram::tools_from_json(toolgram::json::parse(R"([{"name": "get_weather", "parameters": {"type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}, "unit": {"type": "string"}},
        "required": ["city"]}}])"));
}

void run(const std::string& profile_name, std::size_t bytes) {
    toolgram::Profile profile = toolgram::builtin_profile(profile_name);
    profile.settings.reasoning_start = toolgram::ReasoningStart::outside;
    const toolgram::Parser parser(profile, tools());
    const std::string text = message(bytes, profile_name == "auto" ? "hermes" : profile_name);
    const std::vector<std::size_t> cuts = token_cuts(text.size());

    // Five runs; each window's time is the least of the five, which filters out the
    // moments another process had the core (the figure is about our code's cost).
    const std::size_t twentieth = cuts.size() / 20;
    double early = 1e300, late = 1e300, total_s = 1e300;
    toolgram::Result result;
    for (int run = 0; run < 5; ++run) {
        toolgram::StreamParser sp(parser);
        double e = 0, l = 0;
        const auto t0 = Clock::now();
        std::size_t from = 0;
        for (std::size_t i = 0; i < cuts.size(); ++i) {
            const bool timed = i < twentieth || i >= cuts.size() - twentieth;
            const auto a = timed ? Clock::now() : Clock::time_point{};
            (void)sp.feed(std::string_view(text).substr(from, cuts[i] - from));
            if (timed) (i < twentieth ? e : l) += std::chrono::duration<double, std::nano>(Clock::now() - a).count();
            from = cuts[i];
        }
        auto fin = sp.finish();
        total_s = std::min(total_s, std::chrono::duration<double>(Clock::now() - t0).count());
        early = std::min(early, e / static_cast<double>(twentieth));
        late = std::min(late, l / static_cast<double>(twentieth));
        result = std::move(fin.result);
    }

    const auto p0 = Clock::now();
    const toolgram::Result one_shot = parser.parse(text);
    const double parse_s = std::chrono::duration<double>(Clock::now() - p0).count();

    std::printf("| %-12s | %6.2f MB | %8zu | %7.3f s | %6.1f MB/s | %7.0f ns | %7.0f ns | %5.2f | %7.3f s | %5zu | %6ld MB |\n",
                profile_name.c_str(), static_cast<double>(text.size()) / 1e6, cuts.size(), total_s,
                static_cast<double>(text.size()) / 1e6 / total_s, early, late, late / early, parse_s,
                result.calls.size(), peak_rss_kb() / 1024);
    (void)one_shot;
}

// Today's practice: parse the whole accumulated text again on every chunk.
void reparse(std::size_t bytes) {
    toolgram::Profile profile = toolgram::builtin_profile("hermes");
    const toolgram::Parser parser(profile, tools());
    const std::string text = message(bytes, "hermes");
    const std::vector<std::size_t> cuts = token_cuts(text.size());
    const auto t0 = Clock::now();
    for (std::size_t cut : cuts) (void)parser.parse(std::string_view(text).substr(0, cut));
    const double reparse_s = std::chrono::duration<double>(Clock::now() - t0).count();
    toolgram::StreamParser sp(parser);
    const auto s0 = Clock::now();
    std::size_t from = 0;
    for (std::size_t cut : cuts) {
        (void)sp.feed(std::string_view(text).substr(from, cut - from));
        from = cut;
    }
    (void)sp.finish();
    const double stream_s = std::chrono::duration<double>(Clock::now() - s0).count();
    std::printf("\nRe-parsing the accumulated text on every chunk (hermes, %.0f KB, %zu chunks): %.3f s; "
                "the stream: %.4f s (%.0fx less).\n",
                static_cast<double>(text.size()) / 1e3, cuts.size(), reparse_s, stream_s, reparse_s / stream_s);
}

}  // namespace

int main(int argc, char** argv) {
    const double mb = argc > 1 ? std::atof(argv[1]) : 1.0;
    const auto bytes = static_cast<std::size_t>(mb * 1e6);
    std::printf("Streaming %.1f MB of prose with a call every 8 KiB, in chunks of 1-6 bytes "
                "(early/late: mean cost of a chunk in the first and last twentieth, best of 5 runs).\n\n", mb);
    std::printf("| profile      |   input  |  chunks  |   total   |  throughput |  early/chunk | late/chunk | late/early | one-shot  | calls | peak RSS |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    const char* only = std::getenv("BENCH_PROFILE");
    for (const char* p : {"hermes", "qwen3_coder", "mistral", "kimi_k2", "deepseek_r1", "glm45", "auto"})
        if (!only || std::string(only) == p) run(p, bytes);
    if (!only) reparse(64 * 1000);
    return 0;
}
