// toolgram_bench: the speed suite (Google Benchmark). Every input is generated at run time
// (bench_inputs.hpp, hostile_cases.hpp); every reference point is measured in the same
// benchmark as the figure it is compared with, interleaved with it, so a ratio holds even
// when other processes take the core for a while.
//
//   prose/PROFILE      10 MB of prose with no tool syntax: MB/s, and the time of memchr
//                      over the same bytes (x_memchr: our time / memchr's)
//   calls/PROFILE      200 calls in the profile's own syntax: MB/s, calls/s, the time of
//                      nlohmann::json::parse over the same argument payloads (x_json), and
//                      `auto` on the same output (x_auto: auto's time / the profile's)
//   mixed/PROFILE      a realistic 12 KB output (reasoning, prose, three calls): µs a parse, x_auto
//   long_value/PROFILE one call whose string argument is 64 KB of text (a file's content): µs a
//                      parse, and nlohmann::json::parse of the same arguments (x_json)
//   hostile/CASE       each hostile case at 1 MiB under auto (tool_required on)
//   tools/construct/N, tools/parse/N   a parser for 1, 10, 100 tools with real schemas
//   stream/PROFILE     1 MB fed in 1-6 byte chunks: ns a chunk early (first 5%) and late (last 5%)
//   stream/reparse     re-parsing the accumulated text on every chunk (64 KB), for contrast
//   stream_long/PROFILE one call with a 128 KB string argument fed 4 bytes at a time: ms, the
//                      costliest chunk, exceptions thrown, and the share of the argument sent
//                      at 25/50/90% of the message
//
// Figures are counters: each is the best (least time) of the iterations Google Benchmark
// ran, which filters out the moments another process had the core. Peak heap per parse
// (heap/input) and allocations (allocs/MB) are counted by replacing operator new, in one
// parse outside the timed loop.
//
//   toolgram_bench [--markdown FILE] [google benchmark flags]
//
// --markdown writes the tables and the targets, each marked met or not met
// (scripts/bench runs this).
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "bench_inputs.hpp"
#include "hostile_cases.hpp"
#include "report.hpp"
#include "toolgram/toolgram.hpp"
#include "validation/toolset.hpp"

// ---------------------------------------------------------------------------------------
// Heap accounting: bytes live (as malloc sized them) and allocations, while switched on.

namespace heap {
bool on = false;
long long live = 0, peak = 0, allocs = 0;
}  // namespace heap

void* operator new(std::size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    if (heap::on) {
        heap::live += static_cast<long long>(malloc_usable_size(p));
        heap::peak = std::max(heap::peak, heap::live);
        ++heap::allocs;
    }
    return p;
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept {
    if (p && heap::on) heap::live -= static_cast<long long>(malloc_usable_size(p));
    std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }

// ---------------------------------------------------------------------------------------
// Exceptions thrown, counted: the C++ runtime's __cxa_throw, wrapped (every throw in the
// library goes through it), so a streaming row can say how many a message cost.

namespace throws {
long long count = 0;
}  // namespace throws

// (The compiler declares it with the type_info as void*.)
extern "C" [[noreturn]] void __cxa_throw(void* object, void* type, void (*destroy)(void*)) {
    using Throw = void (*)(void*, void*, void (*)(void*));
    static const Throw real = reinterpret_cast<Throw>(dlsym(RTLD_NEXT, "__cxa_throw"));
    ++throws::count;
    real(object, type, destroy);
    __builtin_unreachable();
}

namespace {

namespace tb = toolgram::bench;
using toolgram::Parser;
using toolgram::Profile;
using toolgram::Result;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Times one call of f (and the destruction of what it returns).
template <typename F>
double timed(F&& f) {
    const auto t0 = Clock::now();
    {
        auto r = f();
        benchmark::DoNotOptimize(r);
    }
    return seconds_since(t0);
}

// Peak heap bytes and allocations of one call of f, result included.
template <typename F>
std::pair<double, double> heap_use(F&& f) {
    heap::live = heap::peak = heap::allocs = 0;
    heap::on = true;
    {
        auto r = f();
        benchmark::DoNotOptimize(r);
    }
    heap::on = false;
    return {static_cast<double>(heap::peak), static_cast<double>(heap::allocs)};
}

// The same as counters per input byte; returns the allocations.
template <typename F>
double count_heap(benchmark::State& state, std::size_t input_bytes, F&& f) {
    const auto [peak, allocs] = heap_use(f);
    const double bytes = static_cast<double>(input_bytes);
    state.counters["heap/input"] = peak / bytes;
    state.counters["allocs/MB"] = allocs / (bytes / 1e6);
    return allocs;
}

Parser make_parser(const std::string& profile, std::size_t tools = 5, bool tool_required = false) {
    Profile p = toolgram::builtin_profile(profile);
    p.settings.tool_required = tool_required;
    return Parser(p, tb::corpus_tools(tools));
}

// Auto is compared with a profile only where both read the same calls from the output.
bool same_calls(const Result& a, const Result& b) {
    return a.calls.size() == b.calls.size() &&
           std::equal(a.calls.begin(), a.calls.end(), b.calls.begin(),
                      [](const auto& x, const auto& y) { return x.name == y.name && x.arguments == y.arguments; });
}

const std::string& prose_10mb() {
    static const std::string text = tb::prose(10'000'000);
    return text;
}

void prose(benchmark::State& state, std::string profile) {
    const Parser parser = make_parser(profile);
    const std::string& text = prose_10mb();
    double best = 1e300, best_memchr = 1e300, best_copy = 1e300;
    std::size_t calls = 0;
    for (auto _ : state) {
        const double t = timed([&] { return parser.parse(text); });
        best = std::min(best, t);
        state.SetIterationTime(t);
        best_memchr = std::min(best_memchr, timed([&] { return std::memchr(text.data(), '\0', text.size()); }));
        // A parse returns the prose as its content: copying the bytes once is its floor.
        best_copy = std::min(best_copy, timed([&] { return std::string(text); }));
    }
    calls = parser.parse(text).calls.size();
    const double mb = static_cast<double>(text.size()) / 1e6;
    state.counters["MB/s"] = mb / best;
    state.counters["memchr_MB/s"] = mb / best_memchr;
    state.counters["x_memchr"] = best / best_memchr;
    state.counters["copy_x_memchr"] = best_copy / best_memchr;
    state.counters["calls"] = static_cast<double>(calls);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
    // Allocations must not grow with the bytes: the same prose at a tenth of the size.
    static const std::string tenth = tb::prose(1'000'000);
    const double allocs_tenth = count_heap(state, tenth.size(), [&] { return parser.parse(tenth); });
    state.counters["allocs_1MB"] = allocs_tenth;
    state.counters["allocs_10MB"] = count_heap(state, text.size(), [&] { return parser.parse(text); });
}

void calls(benchmark::State& state, std::string profile) {
    const Parser parser = make_parser(profile);
    const Parser auto_parser = make_parser("auto");
    const std::string text = tb::call_dense(parser.profile(), tb::dense_calls);
    const std::vector<std::string> payloads = tb::argument_payloads(tb::dense_calls);
    // Where the time goes: the JSON Schema validation of the same arguments (src/validation/schema/,
    // as the judge runs it), timed alone.
    const toolgram::detail::ToolSet toolset(parser.tools());
    std::vector<std::pair<int, toolgram::json>> validations;
    for (const auto& c : tb::calls(tb::dense_calls))
        validations.emplace_back(toolset.resolve(c.name).index, c.arguments);
    double best = 1e300, best_auto = 1e300, best_json = 1e300, best_validate = 1e300;
    for (auto _ : state) {
        const double t = timed([&] { return parser.parse(text); });
        best = std::min(best, t);
        state.SetIterationTime(t);
        best_auto = std::min(best_auto, timed([&] { return auto_parser.parse(text); }));
        best_json = std::min(best_json, timed([&] {
                                 std::size_t n = 0;
                                 for (const auto& p : payloads) n += nlohmann::json::parse(p).size();
                                 return n;
                             }));
        best_validate = std::min(best_validate, timed([&] {
                                     std::size_t n = 0;
                                     for (const auto& [tool, args] : validations) n += toolset.validate(tool, args, false).pass;
                                     return n;
                                 }));
    }
    const Result r = parser.parse(text), ra = auto_parser.parse(text);
    state.counters["MB/s"] = static_cast<double>(text.size()) / 1e6 / best;
    state.counters["calls/s"] = static_cast<double>(r.calls.size()) / best;
    state.counters["x_json"] = best / best_json;
    state.counters["x_auto"] = best_auto / best;
    state.counters["validate_x_json"] = best_validate / best_json;
    state.counters["calls"] = static_cast<double>(r.calls.size());
    state.counters["auto_calls"] = static_cast<double>(ra.calls.size());
    state.counters["auto_same"] = r.calls.size() == tb::dense_calls && same_calls(r, ra);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * r.calls.size()));
    count_heap(state, text.size(), [&] { return parser.parse(text); });
    // The floor for holding the arguments: nlohmann's documents of the same payloads.
    state.counters["json_heap/input"] = heap_use([&] {
                                            std::vector<nlohmann::json> docs;
                                            for (const auto& p : payloads) docs.push_back(nlohmann::json::parse(p));
                                            return docs.size();
                                        }).first /
                                        static_cast<double>(text.size());
}

void mixed(benchmark::State& state, std::string profile) {
    const Parser parser = make_parser(profile);
    const Parser auto_parser = make_parser("auto");
    const std::string text = tb::mixed(parser.profile());
    double best = 1e300, best_auto = 1e300;
    for (auto _ : state) {
        const double t = timed([&] { return parser.parse(text); });
        best = std::min(best, t);
        state.SetIterationTime(t);
        best_auto = std::min(best_auto, timed([&] { return auto_parser.parse(text); }));
    }
    const Result r = parser.parse(text), ra = auto_parser.parse(text);
    state.counters["us"] = best * 1e6;
    state.counters["MB/s"] = static_cast<double>(text.size()) / 1e6 / best;
    state.counters["x_auto"] = best_auto / best;
    state.counters["calls"] = static_cast<double>(r.calls.size());
    state.counters["auto_calls"] = static_cast<double>(ra.calls.size());
    state.counters["auto_same"] = r.calls.size() == 3 && same_calls(r, ra);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
    count_heap(state, text.size(), [&] { return parser.parse(text); });
}

void long_value(benchmark::State& state, std::string profile) {
    const Parser parser = make_parser(profile);
    std::string body;
    while (body.size() < 64'000) body += tb::prose(1000, static_cast<unsigned>(body.size())) + "\n";
    const toolgram::Call call{"", "run_sql", {{"query", body}}};
    const std::string text = toolgram::render_calls(parser.profile(), {call});
    const std::string payload = call.arguments.dump();
    double best = 1e300, best_json = 1e300;
    for (auto _ : state) {
        const double t = timed([&] { return parser.parse(text); });
        best = std::min(best, t);
        state.SetIterationTime(t);
        best_json = std::min(best_json, timed([&] { return nlohmann::json::parse(payload).size(); }));
    }
    const Result r = parser.parse(text);
    state.counters["us"] = best * 1e6;
    state.counters["MB/s"] = static_cast<double>(text.size()) / 1e6 / best;
    state.counters["x_json"] = best / best_json;
    state.counters["same"] = r.calls.size() == 1 && r.calls[0].arguments == call.arguments;
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
    count_heap(state, text.size(), [&] { return parser.parse(text); });
}

void hostile(benchmark::State& state, const tb::Case* c) {
    const Parser parser = make_parser("auto", 5, true);
    const std::string text = c->make(parser.profile(), tb::MiB);
    double best = 1e300;
    for (auto _ : state) {
        const double t = timed([&] { return parser.parse(text); });
        best = std::min(best, t);
        state.SetIterationTime(t);
    }
    state.counters["MB/s"] = static_cast<double>(text.size()) / 1e6 / best;
    state.counters["ms"] = best * 1e3;
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
    count_heap(state, text.size(), [&] { return parser.parse(text); });
}

void tools_construct(benchmark::State& state) {
    const Profile p = toolgram::builtin_profile("auto");
    const auto tools = tb::corpus_tools(static_cast<std::size_t>(state.range(0)));
    double best = 1e300;
    for (auto _ : state) {
        const double t = timed([&] { return std::make_unique<Parser>(p, tools); });
        best = std::min(best, t);
        state.SetIterationTime(t);
    }
    state.counters["us"] = best * 1e6;
}

void tools_parse(benchmark::State& state) {
    const Parser parser = make_parser("auto", static_cast<std::size_t>(state.range(0)));
    const std::string text = tb::mixed(toolgram::builtin_profile("hermes"));
    double best = 1e300;
    for (auto _ : state) {
        const double t = timed([&] { return parser.parse(text); });
        best = std::min(best, t);
        state.SetIterationTime(t);
    }
    state.counters["us"] = best * 1e6;
    state.counters["calls"] = static_cast<double>(parser.parse(text).calls.size());
}

// Streams `text` cut at `cuts` through a new StreamParser and finishes; returns the time.
double stream_through(const Parser& parser, const std::string& text, const std::vector<std::size_t>& cuts) {
    const auto t0 = Clock::now();
    toolgram::StreamParser sp(parser);
    std::size_t from = 0;
    for (std::size_t cut : cuts) {
        benchmark::DoNotOptimize(sp.feed(std::string_view(text).substr(from, cut - from)));
        from = cut;
    }
    benchmark::DoNotOptimize(sp.finish());
    return seconds_since(t0);
}

// One streamed message, a chunk at a time, outside the timed loops: the costliest chunk
// (the least over a few runs, as the other figures), the exceptions thrown, and how much
// of the calls' arguments JSON the client held when a quarter, half and nine tenths of the
// message had arrived (as a share of what it holds at the end).
struct StreamCost {
    double worst_us = 0, throws = 0;
    double delivered[3] = {0, 0, 0};
};
StreamCost stream_cost(const Parser& parser, const std::string& text, const std::vector<std::size_t>& cuts) {
    StreamCost out;
    out.worst_us = 1e300;
    for (int run = 0; run < 3; ++run) {
        toolgram::StreamParser sp(parser);
        const long long throws_before = throws::count;
        double worst = 0, args = 0;
        double at[3] = {-1, -1, -1};
        const double marks[3] = {0.25, 0.5, 0.9};
        std::size_t from = 0;
        for (std::size_t cut : cuts) {
            const auto t0 = Clock::now();
            const auto events = sp.feed(std::string_view(text).substr(from, cut - from));
            worst = std::max(worst, std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
            for (const auto& e : events)
                if (e.kind == toolgram::StreamEvent::Kind::call_arguments) args += static_cast<double>(e.text.size());
            from = cut;
            for (int k = 0; k < 3; ++k)
                if (at[k] < 0 && static_cast<double>(cut) >= marks[k] * static_cast<double>(text.size())) at[k] = args;
        }
        for (const auto& e : sp.finish().events)
            if (e.kind == toolgram::StreamEvent::Kind::call_arguments) args += static_cast<double>(e.text.size());
        out.worst_us = std::min(out.worst_us, worst);
        out.throws = static_cast<double>(throws::count - throws_before);
        for (int k = 0; k < 3; ++k) out.delivered[k] = args > 0 ? std::max(at[k], 0.0) / args : 0;
    }
    return out;
}

// One call whose string argument is 128 KB of code (quotes, backslashes, tabs and newlines
// to escape), after a sentence, fed 4 bytes at a time as a server's tokens arrive: the
// whole stream's time, its costliest chunk, the exceptions thrown, and the share of the
// argument the client held at a quarter, half and nine tenths of the message.
void stream_long(benchmark::State& state, std::string profile) {
    // As a server knows it: the prompt did not open a reasoning block.
    Profile p = toolgram::builtin_profile(profile);
    p.settings.reasoning_start = toolgram::ReasoningStart::outside;
    const Parser parser(p, tb::corpus_tools());
    std::string code;
    for (int i = 0; code.size() < 128'000; ++i)
        code += "    if (line_" + std::to_string(i) + " == \"end\") {\n\t\treturn path + \"\\\\tmp\";  // \u00e9t\u00e9\n    }\n";
    const toolgram::Call call{"", "run_sql", {{"query", code}}};
    const std::string text = "I will run the query now.\n" + toolgram::render_calls(parser.profile(), {call});
    std::vector<std::size_t> cuts;
    for (std::size_t at = 4; at < text.size(); at += 4) cuts.push_back(at);
    cuts.push_back(text.size());
    double best = 1e300;
    for (auto _ : state) {
        const double t = stream_through(parser, text, cuts);
        best = std::min(best, t);
        state.SetIterationTime(t);
    }
    const StreamCost cost = stream_cost(parser, text, cuts);
    state.counters["ms"] = best * 1e3;
    state.counters["worst_us"] = cost.worst_us;
    state.counters["throws"] = cost.throws;
    state.counters["at25"] = cost.delivered[0];
    state.counters["at50"] = cost.delivered[1];
    state.counters["at90"] = cost.delivered[2];
    state.counters["same"] = parser.parse(text).calls.size() == 1 ? 1 : 0;
}

// 1 MB fed a token-sized chunk at a time; the mean cost of a chunk in the first and the
// last twentieth, each the least over the iterations.
void stream(benchmark::State& state, std::string profile) {
    Profile p = toolgram::builtin_profile(profile);
    p.settings.reasoning_start = toolgram::ReasoningStart::outside;
    const Parser parser(p, tb::corpus_tools());
    const std::string text =
        tb::streamed_message(toolgram::builtin_profile(profile == "auto" ? "hermes" : profile), 1'000'000);
    const std::vector<std::size_t> cuts = tb::token_cuts(text.size());
    const std::size_t twentieth = cuts.size() / 20;
    double early = 1e300, late = 1e300, best = 1e300;
    std::size_t calls = 0;
    for (auto _ : state) {
        toolgram::StreamParser sp(parser);
        double e = 0, l = 0;
        const auto t0 = Clock::now();
        std::size_t from = 0;
        for (std::size_t i = 0; i < cuts.size(); ++i) {
            const bool window = i < twentieth || i >= cuts.size() - twentieth;
            const auto a = window ? Clock::now() : Clock::time_point{};
            benchmark::DoNotOptimize(sp.feed(std::string_view(text).substr(from, cuts[i] - from)));
            if (window) (i < twentieth ? e : l) += std::chrono::duration<double, std::nano>(Clock::now() - a).count();
            from = cuts[i];
        }
        calls = sp.finish().result.calls.size();
        const double t = seconds_since(t0);
        best = std::min(best, t);
        state.SetIterationTime(t);
        early = std::min(early, e / static_cast<double>(twentieth));
        late = std::min(late, l / static_cast<double>(twentieth));
    }
    const StreamCost cost = stream_cost(parser, text, cuts);
    state.counters["worst_us"] = cost.worst_us;
    state.counters["throws"] = cost.throws;
    state.counters["MB/s"] = static_cast<double>(text.size()) / 1e6 / best;
    state.counters["chunks"] = static_cast<double>(cuts.size());
    state.counters["early_ns"] = early;
    state.counters["late_ns"] = late;
    state.counters["late/early"] = late / early;
    state.counters["calls"] = static_cast<double>(calls);
}

// Today's practice in serving engines: parse the whole accumulated text again per chunk.
void stream_reparse(benchmark::State& state) {
    const Parser parser = make_parser("hermes");
    const std::string text = tb::streamed_message(parser.profile(), 64'000);
    const std::vector<std::size_t> cuts = tb::token_cuts(text.size());
    double best_reparse = 1e300, best_stream = 1e300;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        for (std::size_t cut : cuts) benchmark::DoNotOptimize(parser.parse(std::string_view(text).substr(0, cut)));
        const double reparse = seconds_since(t0);
        state.SetIterationTime(reparse);
        best_reparse = std::min(best_reparse, reparse);
        best_stream = std::min(best_stream, stream_through(parser, text, cuts));
    }
    state.counters["chunks"] = static_cast<double>(cuts.size());
    state.counters["reparse_s"] = best_reparse;
    state.counters["stream_s"] = best_stream;
    state.counters["x_stream"] = best_reparse / best_stream;
}

void register_all() {
    const std::vector<std::string> profiles = toolgram::builtin_profile_names();
    for (const auto& p : profiles)
        benchmark::RegisterBenchmark(("prose/" + p).c_str(), prose, p)->UseManualTime()->Unit(benchmark::kMillisecond);
    for (const auto& p : profiles) {
        if (p == "auto" || p == "text_kv") continue;  // auto has no syntax of its own; text_kv cannot render
        benchmark::RegisterBenchmark(("calls/" + p).c_str(), calls, p)->UseManualTime()->Unit(benchmark::kMicrosecond);
    }
    for (const auto& p : profiles) {
        if (p == "auto" || p == "text_kv") continue;
        benchmark::RegisterBenchmark(("mixed/" + p).c_str(), mixed, p)->UseManualTime()->Unit(benchmark::kMicrosecond);
    }
    for (const char* p : {"qwen3_coder", "glm45", "minimax_m2", "deepseek_v32", "hermes", "mistral"})
        benchmark::RegisterBenchmark((std::string("long_value/") + p).c_str(), long_value, std::string(p))
            ->UseManualTime()->Unit(benchmark::kMicrosecond);
    for (const auto& c : tb::cases())
        benchmark::RegisterBenchmark(("hostile/" + c.name).c_str(), hostile, &c)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("tools/construct", tools_construct)->Arg(1)->Arg(10)->Arg(100)->UseManualTime()->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("tools/parse", tools_parse)->Arg(1)->Arg(10)->Arg(100)->UseManualTime()->Unit(benchmark::kMicrosecond);
    for (const char* p : {"hermes", "qwen3_coder", "mistral", "kimi_k2", "deepseek_r1", "glm45", "auto"})
        benchmark::RegisterBenchmark((std::string("stream/") + p).c_str(), stream, std::string(p))
            ->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
    for (const char* p : {"hermes", "qwen3_coder", "kimi_k2", "deepseek_v31", "mistral", "glm45", "minimax_m2"})
        benchmark::RegisterBenchmark((std::string("stream_long/") + p).c_str(), stream_long, std::string(p))
            ->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("stream/reparse", stream_reparse)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
    std::string markdown;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--markdown") == 0 && i + 1 < argc) markdown = argv[++i];
        else args.push_back(argv[i]);
    }
    int n = static_cast<int>(args.size());
    benchmark::Initialize(&n, args.data());
    if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 2;
    register_all();
    tb::MarkdownReporter reporter(markdown);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return reporter.write() ? 0 : 1;
}
