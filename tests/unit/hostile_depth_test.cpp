// Hostile depth (issue 13): Limits::max_depth_ceiling is a nesting depth the stack is
// known to survive, and nothing deeper can be configured.
//
// Every grammar recurses once per bracket or element level, and so do the copies, dumps
// and schema checks of the value read. max_depth bounds all of them, so a profile that
// could set it to 100,000 let a 40,000-deep argument overflow the stack. Here, for every
// built-in profile and every shipped profile file: an argument nested exactly to the
// ceiling is read, on the main thread and on a worker thread with a 256 KiB stack, by the
// one-shot parse and by a stream, and the result serialised (what a caller does next);
// one level more, or 100,000 levels, is rejected with the limit named. Each run happens in
// a forked child, so an overflow fails its test instead of ending the run. Then the
// refusals: a Parser or a profile file asking for more than the ceiling, or for 0.
//
// tests/bench/stack_depth.cpp measures the stack a level costs per profile; the figures
// behind the ceiling are in README.md ("Hostile input").
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace hostile_depth_test {

using toolgram::json;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t ceiling = toolgram::Limits::max_depth_ceiling;

// The worker's stack: 256 KiB, what the ceiling is promised to fit in an optimised build.
// Unoptimised and sanitized builds have frames several times larger (tests/bench/
// stack_depth.cpp: -O0 up to 1.7 KiB a level, about 230 KiB at the ceiling, too close to
// 256 KiB to hold; AddressSanitizer up to 6 KiB a level, for XML elements), so there the
// worker gets what those builds need at the ceiling, with room to spare.
#if defined(__SANITIZE_ADDRESS__)
#define TOOLGRAM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOOLGRAM_TEST_ASAN 1
#endif
#endif
#if defined(TOOLGRAM_TEST_ASAN)
constexpr std::size_t worker_stack = 2048 * 1024;
#elif !defined(__OPTIMIZE__)
constexpr std::size_t worker_stack = 768 * 1024;
#else
constexpr std::size_t worker_stack = 256 * 1024;
#endif

// ---------------------------------------------------------------------------------------
// Running a parse where a stack overflow cannot end the test run.

struct Isolated {
    bool exited_normally = false;  // false: the child died (the signal says how) or could not run
    int signal = 0;
    std::string out;  // what fn returned
};

// Runs fn on a thread whose stack is `stack` bytes, as a server's worker pool may give it
// (glibc's default is 8 MiB, musl's 128 KiB); what it throws comes back as text.
std::string on_thread(std::size_t stack, const std::function<std::string()>& fn) {
    struct Job {
        const std::function<std::string()>* fn;
        std::string out;
    } job{&fn, {}};
    auto run = [](void* p) -> void* {
        auto* j = static_cast<Job*>(p);
        try {
            j->out = (*j->fn)();
        } catch (const std::exception& e) {
            j->out = std::string("exception: ") + e.what();
        }
        return nullptr;
    };
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack);
    pthread_t thread;
    const int started = pthread_create(&thread, &attr, run, &job);
    pthread_attr_destroy(&attr);
    if (started != 0) return "thread not started";
    pthread_join(thread, nullptr);
    return job.out;
}

// Runs fn in a forked child, on its main thread (stack 0) or on a thread with a stack of
// `stack` bytes, and brings back what it returned.
Isolated run_isolated(std::size_t stack, const std::function<std::string()>& fn) {
    Isolated out;
    int fds[2];
    if (pipe(fds) != 0) return out;
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return out;
    }
    if (pid == 0) {
        close(fds[0]);
        const std::string s = stack ? on_thread(stack, fn) : fn();
        std::size_t done = 0;
        while (done < s.size()) {
            const ssize_t n = write(fds[1], s.data() + done, s.size() - done);
            if (n <= 0) _exit(2);
            done += static_cast<std::size_t>(n);
        }
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    char chunk[65536];
    for (;;) {
        const ssize_t n = read(fds[0], chunk, sizeof chunk);
        if (n <= 0) break;
        out.out.append(chunk, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
    out.exited_normally = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return out;
}

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The one-shot parse and a stream fed 64-byte chunks, each result as a caller would pass it
// on: {"parse": to_json(…), "stream": to_json(…)}, dumped.
std::string parse_and_stream(const toolgram::Parser& parser, const std::string& text) {
    const toolgram::Result r = parser.parse(text);
    toolgram::StreamParser s(parser);
    for (std::size_t i = 0; i < text.size(); i += 64) (void)s.feed(std::string_view(text).substr(i, 64));
    const toolgram::StreamParser::Finished f = s.finish();
    (void)toolgram::to_openai_message(r).dump();
    return dumped(json{{"parse", toolgram::to_json(r)}, {"stream", toolgram::to_json(f.result)}});
}

// ---------------------------------------------------------------------------------------
// Deep arguments in each profile's syntax.

// Every profile's own syntax for calls, and the shipped profile files (the grammar
// `declared`), by name or path.
std::vector<std::string> profile_sources() {
    std::vector<std::string> out = toolgram::builtin_profile_names();
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(fs::path(TOOLGRAM_SOURCE_DIR) / "docs" / "profiles"))
        files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
    return out;
}

toolgram::Profile profile_of(const std::string& source) {
    return source.size() > 5 && source.compare(source.size() - 5, 5, ".json") == 0 ? toolgram::load_profile_file(source)
                                                                                   : toolgram::builtin_profile(source);
}

// The profile with max_depth at `depth`, and with the fallback gates open (a tool call is
// required, a fallback may be long), so that a profile whose syntax only a fallback reads
// (json, text_kv) meets the depth limit too, not the gate on a candidate's size.
toolgram::Profile at_depth(toolgram::Profile p, std::size_t depth) {
    p.settings.limits.max_depth = depth;
    p.settings.tool_required = true;
    p.settings.fallback_max_bytes = std::size_t{1} << 20;
    return p;
}

std::vector<toolgram::Tool> tools() {
    return toolgram::tools_from_json(json::parse(R"([
      {"name": "store", "parameters": {"type": "object", "properties": {"record": {"type": ["object", "array"]}},
       "required": ["record"]}}
    ])"));
}

enum class Shape { objects, arrays };

// A record nested `levels` deep: {"a": {"a": … 1}} or [[… 1]].
std::string nesting_text(Shape shape, std::size_t levels) {
    std::string s;
    s.reserve(levels * 6 + 1);
    for (std::size_t i = 0; i < levels; ++i) s += shape == Shape::arrays ? "[" : "{\"a\": ";
    s += '1';
    s.append(levels, shape == Shape::arrays ? ']' : '}');
    return s;
}

json nesting_value(Shape shape, std::size_t levels) {
    json v = 1;
    for (std::size_t i = 0; i < levels; ++i) v = shape == Shape::arrays ? json::array({std::move(v)}) : json{{"a", std::move(v)}};
    return v;
}

// One call to `store` in the profile's syntax with its record nested `levels` deep: the
// call rendered with a number for the record, and the number replaced by the nesting
// (every syntax writes a number bare, and reads JSON's brackets and quoted keys). text_kv
// has only a fallback, which render_calls does not write with: its lines are given here.
std::string deep_call(const toolgram::Profile& p, Shape shape, std::size_t levels) {
    constexpr std::string_view mark = "7777777";
    std::string text = "Action: store\nAction Input: {\"record\": 7777777}\n";
    if (p.name != "text_kv") text = toolgram::render_calls(p, {toolgram::Call{"", "store", {{"record", 7777777}}}});
    const std::size_t at = text.find(mark);
    REQUIRE(at != std::string::npos);
    REQUIRE(text.find(mark, at + 1) == std::string::npos);
    text.replace(at, mark.size(), nesting_text(shape, levels));
    return text;
}

// How many levels the profile's syntax counts outside the record (a Python call's
// parentheses, the arguments object), found where they are few: the deepest record read
// under a small limit, taken from that limit.
std::size_t levels_around_record(const toolgram::Profile& p) {
    constexpr std::size_t small = 6;
    const toolgram::Parser parser(at_depth(p, small), tools());
    std::size_t deepest = 0;
    bool found = false;
    for (std::size_t k = 0; k <= small; ++k) {
        if (parser.parse(deep_call(p, Shape::arrays, k)).calls.size() == 1) {
            deepest = k;
            found = true;
        }
    }
    REQUIRE(found);
    return small - deepest;
}

std::string shape_name(Shape s) { return s == Shape::arrays ? "arrays" : "objects"; }

std::string too_deep(std::size_t limit) { return "nesting deeper than the limit of " + std::to_string(limit) + " levels"; }

// The rejections' reasons of a result as to_json wrote it.
std::vector<std::string> reasons(const json& result) {
    std::vector<std::string> out;
    for (const auto& r : result["telemetry"]["rejected"]) out.push_back(r["reason"].get<std::string>());
    return out;
}

}  // namespace

TEST_CASE("max_depth_ceiling: an argument nested exactly to the ceiling is read on the main thread and on a 256 KiB "
          "worker stack, in every profile",
          "[limits][depth]") {
    const std::string source = GENERATE(from_range(profile_sources()));
    const Shape shape = GENERATE(Shape::objects, Shape::arrays);
    const toolgram::Profile p = at_depth(profile_of(source), ceiling);
    const std::size_t around = levels_around_record(p);
    const std::size_t levels = ceiling - around;
    const std::string text = deep_call(p, shape, levels);
    const toolgram::Parser parser(p, tools());
    const json expected_arguments = {{"record", nesting_value(shape, levels)}};
    for (const std::size_t stack : {std::size_t{0}, worker_stack}) {
        const std::string where = stack ? std::to_string(stack / 1024) + " KiB thread" : "main thread";
        DYNAMIC_SECTION(source << ", " << shape_name(shape) << ", " << where) {
            CAPTURE(around, text.substr(0, 200));
            const Isolated run = run_isolated(stack, [&] { return parse_and_stream(parser, text); });
            REQUIRE(run.signal == 0);
            REQUIRE(run.exited_normally);
            const json both = json::parse(run.out);
            const json& r = both["parse"];
            CHECK(both["stream"] == r);
            REQUIRE(r["calls"].size() == 1);
            CHECK(r["calls"][0]["name"] == "store");
            CHECK(r["calls"][0]["arguments"] == expected_arguments);
            CHECK(reasons(r).empty());
            CHECK(r["error"].is_null());
        }
    }
}

TEST_CASE("max_depth_ceiling: one level past the ceiling is rejected with the limit named, in every profile",
          "[limits][depth]") {
    const std::string source = GENERATE(from_range(profile_sources()));
    const Shape shape = GENERATE(Shape::objects, Shape::arrays);
    const toolgram::Profile p = at_depth(profile_of(source), ceiling);
    const std::string text = deep_call(p, shape, ceiling - levels_around_record(p) + 1);
    const toolgram::Parser parser(p, tools());
    DYNAMIC_SECTION(source << ", " << shape_name(shape)) {
        const Isolated run = run_isolated(worker_stack, [&] { return parse_and_stream(parser, text); });
        REQUIRE(run.signal == 0);
        REQUIRE(run.exited_normally);
        const json both = json::parse(run.out);
        const json& r = both["parse"];
        CHECK(both["stream"] == r);
        CHECK(r["calls"].empty());
        CHECK(reasons(r) == std::vector<std::string>{too_deep(ceiling)});
    }
}

TEST_CASE("max_depth_ceiling: an argument nested 100,000 deep is rejected with the limit named on a 256 KiB worker "
          "stack, in every profile",
          "[limits][depth]") {
    const std::string source = GENERATE(from_range(profile_sources()));
    const Shape shape = GENERATE(Shape::objects, Shape::arrays);
    const toolgram::Profile p = at_depth(profile_of(source), ceiling);
    const std::string text = deep_call(p, shape, 100000);
    const toolgram::Parser parser(p, tools());
    DYNAMIC_SECTION(source << ", " << shape_name(shape)) {
        const Isolated run = run_isolated(worker_stack, [&] { return parse_and_stream(parser, text); });
        REQUIRE(run.signal == 0);
        REQUIRE(run.exited_normally);
        const json both = json::parse(run.out);
        const json& r = both["parse"];
        CHECK(both["stream"] == r);
        CHECK(r["calls"].empty());
        CHECK(reasons(r) == std::vector<std::string>{too_deep(ceiling)});
    }
}

// The markup grammar recurses per element, not per bracket, and costs the most stack a
// level under AddressSanitizer. The record parameter holds elements, not text: it is read
// as "" (the elements are no object), and fails the schema; one element more and the tree
// is too deep. tool_call, arguments and record are three of the levels.
TEST_CASE("max_depth_ceiling: XML elements nested to the ceiling are read on a 256 KiB worker stack, deeper ones "
          "rejected with the limit named",
          "[limits][depth]") {
    const toolgram::Profile p = at_depth(toolgram::builtin_profile("xml"), ceiling);
    const toolgram::Parser parser(p, tools());
    auto elements = [](std::size_t levels) {
        std::string s = "<tool_call><name>store</name><arguments><record>";
        for (std::size_t i = 0; i < levels; ++i) s += "<a>";
        s += 'x';
        for (std::size_t i = 0; i < levels; ++i) s += "</a>";
        return s + "</record></arguments></tool_call>";
    };
    for (const std::size_t levels : {ceiling - 3, ceiling - 2, std::size_t{100000}}) {
        DYNAMIC_SECTION(levels << " elements in the record") {
            const std::string text = elements(levels);
            const Isolated run = run_isolated(worker_stack, [&] { return parse_and_stream(parser, text); });
            REQUIRE(run.signal == 0);
            REQUIRE(run.exited_normally);
            const json both = json::parse(run.out);
            const json& r = both["parse"];
            CHECK(both["stream"] == r);
            CHECK(r["calls"].empty());
            const json& candidates = r["telemetry"]["candidates"];
            REQUIRE(candidates.size() == 1);
            if (levels == ceiling - 3) {
                CHECK(candidates[0]["schema"] == "fail");
                CHECK(candidates[0]["repairs"] == json::array({"parameter \"record\" is not a valid object; kept as text"}));
                CHECK_THAT(candidates[0]["reason"].get<std::string>(), Catch::StartsWith("arguments fail the schema of store: "));
            } else {
                CHECK(candidates[0]["reason"] == too_deep(ceiling));
            }
        }
    }
}

TEST_CASE("max_depth_ceiling: a Parser asking for more than the ceiling, or for 0, is refused with the limit named",
          "[limits][depth]") {
    toolgram::Profile p = toolgram::builtin_profile("hermes");
    p.settings.limits.max_depth = ceiling;
    CHECK_NOTHROW(toolgram::Parser(p, tools()));
    p.settings.limits.max_depth = ceiling + 1;
    CHECK_THROWS_MATCHES(toolgram::Parser(p, tools()), std::invalid_argument,
                         Catch::Message("profile \"hermes\": limits.max_depth " + std::to_string(ceiling + 1) +
                                        " is above the ceiling of " + std::to_string(ceiling) +
                                        " (toolgram::Limits::max_depth_ceiling), the deepest nesting the stack is "
                                        "known to survive"));
    p.settings.limits.max_depth = 100000;
    CHECK_THROWS_MATCHES(toolgram::Parser(p, tools()), std::invalid_argument,
                         Catch::Message("profile \"hermes\": limits.max_depth 100000 is above the ceiling of " +
                                        std::to_string(ceiling) +
                                        " (toolgram::Limits::max_depth_ceiling), the deepest nesting the stack is "
                                        "known to survive"));
    p.settings.limits.max_depth = 0;
    CHECK_THROWS_MATCHES(
        toolgram::Parser(p, tools()), std::invalid_argument,
        Catch::Message("profile \"hermes\": limits.max_depth is 0; at least 1 is needed, as a call's arguments are a level"));
}

// The issue as reported: a profile file raised max_depth to 100,000, and a 40,000-deep
// argument then overflowed the stack. The file is refused at load, naming the field.
TEST_CASE("max_depth_ceiling: a profile file asking for more than the ceiling is refused at load, naming the field",
          "[limits][depth][profile-file]") {
    const fs::path hermes = fs::path(TOOLGRAM_SOURCE_DIR) / "docs" / "profiles" / "hermes.json";
    json file = json::parse(std::ifstream(hermes));
    file["settings"]["limits"] = {{"max_depth", ceiling}};
    CHECK(toolgram::profile_from_json(file).settings.limits.max_depth == ceiling);

    file["settings"]["limits"] = {{"max_depth", 100000}};
    CHECK_THROWS_MATCHES(toolgram::profile_from_json(file), std::invalid_argument,
                         Catch::Message("settings.limits.max_depth: 100000 is above the ceiling of " +
                                        std::to_string(ceiling) + ", the deepest nesting the stack is known to survive"));
    const fs::path path = fs::temp_directory_path() / ("toolgram-depth-" + std::to_string(::getpid()) + ".json");
    std::ofstream(path, std::ios::binary) << file.dump(2);
    CHECK_THROWS_MATCHES(toolgram::load_profile_file(path.string()), std::invalid_argument,
                         Catch::Message(path.string() + ": settings.limits.max_depth: 100000 is above the ceiling of " +
                                        std::to_string(ceiling) + ", the deepest nesting the stack is known to survive"));
    fs::remove(path);

    file["settings"]["limits"] = {{"max_depth", ceiling + 1}};
    CHECK_THROWS_MATCHES(toolgram::profile_from_json(file), std::invalid_argument,
                         Catch::Message("settings.limits.max_depth: " + std::to_string(ceiling + 1) +
                                        " is above the ceiling of " + std::to_string(ceiling) +
                                        ", the deepest nesting the stack is known to survive"));
}

// Found writing the test above: a json built in code holds 100 as a signed integer, which
// the file reader took for "not a positive whole number"; from text the same 100 is
// unsigned and was read. Both are read now, and what is not positive is still refused.
TEST_CASE("a profile's limits given as signed integers (a json built in code) are read like the same numbers from text",
          "[limits][profile-file]") {
    json file = json::parse(std::ifstream(fs::path(TOOLGRAM_SOURCE_DIR) / "docs" / "profiles" / "hermes.json"));
    file["settings"]["limits"] = {{"max_depth", 100}, {"max_candidates", 7}};
    REQUIRE(file["settings"]["limits"]["max_depth"].is_number_integer());
    REQUIRE_FALSE(file["settings"]["limits"]["max_depth"].is_number_unsigned());
    const toolgram::Profile p = toolgram::profile_from_json(file);
    CHECK(p.settings.limits.max_depth == 100);
    CHECK(p.settings.limits.max_candidates == 7);
    file["settings"]["limits"] = {{"max_candidates", -7}};
    CHECK_THROWS_MATCHES(toolgram::profile_from_json(file), std::invalid_argument,
                         Catch::Message("settings.limits.max_candidates: expected a positive whole number, got -7"));
}

}  // namespace hostile_depth_test
