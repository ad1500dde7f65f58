// The costliest chunk of a stream: a message holding one call whose string argument is
// long (a file's content, as perfbench's code64k), streamed in 4-byte chunks (about a
// token each), every chunk timed in CPU time with the page faults it took. Each chunk's
// time is the least over the runs, so what remains is the chunk's own work (a read of
// the whole block, a buffer grown into fresh memory), not the machine's noise. Prints,
// per profile, the costliest chunk (where it fell and its bytes) and the next one, and
// finish()'s time.
//
//   build/tests/bench/toolgram_costliest_chunk                  # 64 and 128 KB, 7 runs
//   build/tests/bench/toolgram_costliest_chunk 128 15 hermes glm45
//
// The argument is code dense in quotes and newlines (three escapes a line), the costly
// case for a JSON family. Profiles: those perfbench sets against llama.cpp, or the ones
// named.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace {

using toolgram::json;

double cpu_us() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

long minor_faults() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}

std::string printable(std::string s) {
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80) c = '.';
    return s;
}

void measure(const std::string& profile, std::size_t kb, int runs) {
    std::string code;
    for (int i = 0; code.size() < kb * 1024; ++i)
        code += "    total = total + values[" + std::to_string(i) + "] * 2  # \"keep\" it\n";
    toolgram::Profile p = toolgram::builtin_profile(profile);
    p.settings.reasoning_start = toolgram::ReasoningStart::outside;
    const auto tools = toolgram::tools_from_json(json::parse(
        R"([{"type":"function","function":{"name":"write_file","parameters":{"type":"object","properties":)"
        R"({"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}}}])"));
    const toolgram::Parser parser(p, tools);
    const std::string text =
        "Here is the whole module.\n" +
        toolgram::render_calls(p, {toolgram::Call{"", "write_file", json{{"path", "a.py"}, {"content", code}}}});
    constexpr std::size_t chunk = 4;
    const std::size_t n = (text.size() + chunk - 1) / chunk;
    std::vector<double> least(n, 1e300);
    std::vector<long> faults(n, 0);
    double finish_least = 1e300;
    std::size_t calls = 0;
    for (int run = 0; run < runs; ++run) {
        toolgram::StreamParser stream(parser);
        for (std::size_t i = 0; i < n; ++i) {
            const long f0 = minor_faults();
            const double t0 = cpu_us();
            (void)stream.feed(std::string_view(text).substr(i * chunk, chunk));
            least[i] = std::min(least[i], cpu_us() - t0);
            faults[i] = minor_faults() - f0;
        }
        const double t0 = cpu_us();
        calls = stream.finish().result.calls.size();
        finish_least = std::min(finish_least, cpu_us() - t0);
    }
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + 2, order.end(),
                      [&](std::size_t a, std::size_t b) { return least[a] > least[b]; });
    std::printf("| %s | %zu | %zu |", profile.c_str(), kb, calls);
    for (int k = 0; k < 2; ++k) {
        const std::size_t i = order[static_cast<std::size_t>(k)];
        std::printf(" %.0f (at %zu of %zu B, `%s`, %ld faults) |", least[i], i * chunk, text.size(),
                    printable(text.substr(i * chunk, chunk)).c_str(), faults[i]);
    }
    std::printf(" %.0f |\n", finish_least);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> sizes = {64, 128};
    int runs = 7;
    if (argc > 1) sizes = {static_cast<std::size_t>(std::atoi(argv[1]))};
    if (argc > 2) runs = std::max(1, std::atoi(argv[2]));
    std::vector<std::string> profiles = {"hermes", "qwen3_coder", "kimi_k2", "deepseek_v31", "mistral", "glm45", "minimax_m2"};
    if (argc > 3) profiles.assign(argv + 3, argv + argc);
    std::printf("Costliest chunk of a stream, 4-byte chunks, least CPU time over %d runs, µs.\n\n", runs);
    std::printf("| profile | argument KB | calls | costliest chunk µs | next µs | finish() µs |\n|---|---:|---:|---|---|---:|\n");
    for (const std::size_t kb : sizes)
        for (const auto& p : profiles) measure(p, kb, runs);
}
