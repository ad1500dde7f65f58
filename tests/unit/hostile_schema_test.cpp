// Attacks through JSON Schema validation, each with its exact outcome through a Parser: what
// the model's output alone could do to toolgram while valijson (std::regex, int64 numbers,
// C-string lengths) validated it, and what a semi-trusted schema could do when a Parser is
// built. Each case asserts the call accepted or refused and the reason, never "it did not
// crash": a crash or a hang fails the test by itself.
//
// The validator's own tests are schema_test.cpp; the official test suite runs as
// toolgram.json_schema_test_suite.
#include <pthread.h>

#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace hostile_schema_test {

using toolgram::json;
using toolgram::Parser;
using toolgram::Result;
using toolgram::Tool;

namespace {

Tool tool(const std::string& name, const std::string& parameters) {
    return Tool{name, "", json::parse(parameters)};
}

// One hermes call: <tool_call>{"name": NAME, "arguments": ARGS}</tool_call>.
std::string call(const std::string& name, const std::string& arguments) {
    return "<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": " + arguments + "}\n</tool_call>";
}

std::vector<std::string> reasons(const Result& r) {
    std::vector<std::string> out;
    for (const auto& x : r.telemetry.rejected) out.push_back(x.reason);
    return out;
}

// Runs `work` on a thread with a 256 KiB stack, as servers that parse on worker threads do.
void on_small_thread(const std::function<void()>& work) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t thread;
    auto trampoline = [](void* arg) -> void* {
        (*static_cast<const std::function<void()>*>(arg))();
        return nullptr;
    };
    REQUIRE(pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&work)) == 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
}

Result parse(const Parser& parser, const std::string& text) {
    Result r;
    on_small_thread([&] { r = parser.parse(text); });
    return r;
}

}  // namespace

TEST_CASE("hostile schema: a long string under a regular expression neither overflows nor is waved through",
          "[hostile][schema]") {
    // valijson ran std::regex, which recursed once per character: 26 KB overflowed the main
    // thread's stack, 1,000 bytes a 256 KiB worker's. Every keyword that applies a regular
    // expression is tried, on a worker thread, with a 512 KiB argument (a candidate may have
    // 1 MiB).
    struct Row {
        std::string label, schema, argument, reason;
    };
    const std::string many_a(512 * 1024, 'a');
    const std::vector<Row> rows = {
        {"pattern, matching", R"({"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a|b)*$"}}})",
         "{\"s\": \"" + many_a + "\"}", ""},
        {"pattern, not matching at the very end",
         R"({"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a|b)*$"}}})",
         "{\"s\": \"" + many_a + "c\"}", R"(arguments fail the schema of t: arguments/s: must match the pattern "^(a|b)*$")"},
        {"patternProperties", R"({"type": "object", "patternProperties": {"^(a|b)*$": {"type": "integer"}}})",
         "{\"" + many_a + "\": \"x\"}", ""},  // the reason names the 1 MB key: checked below by prefix
        {"propertyNames", R"({"type": "object", "propertyNames": {"pattern": "^(a|b)*$"}})", "{\"" + many_a + "\": 1}", ""},
        {"format date", R"({"type": "object", "properties": {"s": {"format": "date"}}})", "{\"s\": \"" + many_a + "\"}",
         "arguments fail the schema of t: arguments/s: is not a valid date (RFC 3339 full-date: YYYY-MM-DD)"},
        {"format date-time", R"({"type": "object", "properties": {"s": {"format": "date-time"}}})",
         "{\"s\": \"" + many_a + "\"}",
         "arguments fail the schema of t: arguments/s: is not a valid date-time (RFC 3339: YYYY-MM-DDTHH:MM:SS with an "
         "offset, Z or +HH:MM)"},
    };
    for (const auto& row : rows) {
        DYNAMIC_SECTION(row.label) {
            const Parser parser(toolgram::builtin_profile("hermes"), {tool("t", row.schema)});
            REQUIRE(parser.tool_problems().empty());
            const Result r = parse(parser, call("t", row.argument));
            if (row.label == "patternProperties") {
                REQUIRE(r.calls.empty());
                REQUIRE(reasons(r).size() == 1);
                CHECK_THAT(reasons(r)[0], Catch::StartsWith("arguments fail the schema of t: arguments/aaaa") &&
                                              Catch::EndsWith(": expected integer, got string"));
            } else if (row.reason.empty()) {
                REQUIRE(r.calls.size() == 1);
                CHECK(r.telemetry.rejected.empty());
            } else {
                CHECK(r.calls.empty());
                CHECK(reasons(r) == std::vector<std::string>{row.reason});
            }
        }
    }
}

TEST_CASE("hostile schema: a pattern that backtracks exponentially answers at once", "[hostile][schema]") {
    // 31 bytes froze valijson for good: ^([a-zA-Z0-9]+\s?)*$ against a's and a final '!'.
    const Parser parser(toolgram::builtin_profile("hermes"),
                        {tool("t", R"({"type": "object", "properties": {"s": {"pattern": "^([a-zA-Z0-9]+\\s?)*$"}}})")});
    for (std::size_t length : {30u, 1000u, 100000u}) {
        CAPTURE(length);
        const Result r = parse(parser, call("t", "{\"s\": \"" + std::string(length, 'a') + "!\"}"));
        CHECK(r.calls.empty());
        CHECK(reasons(r) ==
              std::vector<std::string>{R"(arguments fail the schema of t: arguments/s: must match the pattern "^([a-zA-Z0-9]+\\s?)*$")"});
    }
}

TEST_CASE("hostile schema: calls the schema forbids are refused (numbers, lengths)", "[hostile][schema]") {
    const Parser parser(toolgram::builtin_profile("hermes"),
                        {tool("t", R"({"type": "object", "properties": {
                            "n": {"type": "integer", "maximum": 1000},
                            "even": {"type": "number", "multipleOf": 2},
                            "code": {"type": "string", "maxLength": 8}}})")});
    struct Row {
        std::string arguments, reason;
    };
    const std::vector<Row> rows = {
        {R"({"n": 9223372036854775808})", "arguments fail the schema of t: arguments/n: must be at most 1000, got 9223372036854775808"},
        {R"({"n": 18446744073709551615})", "arguments fail the schema of t: arguments/n: must be at most 1000, got 18446744073709551615"},
        {R"({"even": 2.5})", "arguments fail the schema of t: arguments/even: must be a multiple of 2, got 2.5"},
        {"{\"code\": \"12345678\\u0000" + std::string(100000, 'x') + "\"}",
         "arguments fail the schema of t: arguments/code: must be at most 8 characters long, got 100009"},
    };
    for (const auto& row : rows) {
        CAPTURE(row.arguments.substr(0, 40));
        const Result r = parse(parser, call("t", row.arguments));
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{row.reason});
        REQUIRE(r.error.has_value());  // the model is told, with a correction prompt
        CHECK_THAT(r.error->correction_prompt, Catch::Contains(row.reason.substr(row.reason.find("arguments/"))));
    }
    // The same bounds let the right values through.
    const Result ok = parse(parser, call("t", R"({"n": 1000, "even": 4.0, "code": "12345678"})"));
    REQUIRE(ok.calls.size() == 1);
    CHECK(ok.calls[0].arguments == json::parse(R"({"n": 1000, "even": 4.0, "code": "12345678"})"));
}

TEST_CASE("hostile schema: a schema that cannot be used refuses its tool's calls, the other tools go on",
          "[hostile][schema]") {
    // Semi-trusted schemas: multipleOf 0 was a SIGFPE on any number, a $ref cycle a stack
    // overflow while building the Parser, "type": "float" lost every call of the output.
    struct Row {
        std::string label, schema, problem;
    };
    const std::vector<Row> rows = {
        {"multipleOf 0", R"({"type": "object", "properties": {"x": {"type": "number", "multipleOf": 0}}})",
         "#/properties/x/multipleOf: multipleOf must be greater than 0, got 0"},
        {"a $ref cycle", R"({"$ref": "#"})",
         "#: $ref cycle with no keyword between that descends into the value (# → #): validation would never end"},
        {"an unknown type", R"({"type": "object", "properties": {"x": {"type": "float"}}})",
         "#/properties/x/type: unknown type \"float\" (the types are null, boolean, object, array, number, integer, string)"},
        {"a backreference", R"({"type": "object", "properties": {"x": {"pattern": "(a)\\1"}}})",
         "#/properties/x/pattern: pattern \"(a)\\1\" cannot be used: backreferences (\\1) are not supported: RE2 runs "
         "patterns in linear time"},
        {"a remote $ref", R"({"$ref": "https://example.com/schema.json"})",
         "#/$ref: $ref \"https://example.com/schema.json\" points outside this schema (remote references are not fetched)"},
        {"a fractional length", R"({"type": "object", "properties": {"x": {"maxLength": 2.5}}})",
         "#/properties/x/maxLength: maxLength must be a non-negative integer, got 2.5"},
    };
    const Tool good = tool("get_weather", R"({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})");
    for (const auto& row : rows) {
        DYNAMIC_SECTION(row.label) {
            const Parser parser(toolgram::builtin_profile("hermes"), {good, tool("bad", row.schema)});
            REQUIRE(parser.tool_problems().size() == 1);
            CHECK(parser.tool_problems()[0].tool == "bad");
            CHECK(parser.tool_problems()[0].message == row.problem);
            const Result r = parse(parser, "Two calls.\n" + call("bad", R"({"x": 3})") + "\n" +
                                               call("get_weather", R"({"city": "Oslo"})"));
            REQUIRE(r.calls.size() == 1);
            CHECK(r.calls[0].name == "get_weather");
            CHECK(r.calls[0].arguments == json{{"city", "Oslo"}});
            CHECK(reasons(r) ==
                  std::vector<std::string>{"the schema of bad cannot be used, so its calls are refused: " + row.problem});
            REQUIRE(r.telemetry.candidates.size() == 2);
            CHECK(r.telemetry.candidates[0].schema == toolgram::SchemaVerdict::fail);
            CHECK(r.telemetry.candidates[0].schema_reason ==
                  "the tool's schema cannot be used (see the refusal's reason)");
            CHECK(r.content == "Two calls.");
            CHECK_FALSE(r.error.has_value());  // not the model's fault: nothing to correct
        }
    }
}

TEST_CASE("hostile schema: a schema nested 100,000 deep is refused without recursion", "[hostile][schema]") {
    json deep = json::object();
    for (int i = 0; i < 100000; ++i) deep = json{{"items", std::move(deep)}};
    std::vector<Tool> tools;  // no initializer list: it would copy the value, and copies recurse
    tools.push_back(Tool{"deep", "", std::move(deep)});
    tools.push_back(tool("get_weather", R"({"type": "object", "properties": {"city": {"type": "string"}}})"));
    std::optional<Parser> parser;
    on_small_thread([&] { parser.emplace(toolgram::builtin_profile("hermes"), std::move(tools)); });
    REQUIRE(parser);
    REQUIRE(parser->tool_problems().size() == 1);
    CHECK_THAT(parser->tool_problems()[0].message, Catch::EndsWith(": the schema nests deeper than 128 levels"));
    const Result r = parse(*parser, call("get_weather", R"({"city": "Oslo"})"));
    CHECK(r.calls.size() == 1);
}

}  // namespace hostile_schema_test
