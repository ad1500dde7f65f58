// Issue 29's schema-side bounds: what a schema, a name or a value can make toolgram do past
// the size of the input. An enum is looked up, not scanned (its meaning kept: 1 == 1.0,
// objects by value); `format: ipv6` and the formats that reach it read an address once; a
// pattern past max_pattern_bytes is refused before RE2 sees it; messages quote at most
// max_quoted_bytes of a name or of schema text, and a rejection at most
// Rejection::max_text_bytes of the input; numbers past 64 bits are refused where they meet
// a bound they equal only as doubles. The times are checked in toolgram_validate_bench's
// scaling table (tests/bench/validate.cpp), never here.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "validation/schema/formats.hpp"
#include "validation/schema/pattern.hpp"
#include "validation/schema/schema.hpp"
#include "toolgram/toolgram.hpp"
#include "text/utf8.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace schema_bounds_test {

namespace schema = toolgram::detail::schema;
using json = nlohmann::ordered_json;
using toolgram::Parser;
using toolgram::Result;
using toolgram::Tool;

namespace {

std::string verdict(const std::string& schema_text, const std::string& value_text) {
    const schema::Schema compiled = schema::Schema::compile(json::parse(schema_text));
    if (!compiled.usable()) return "unusable: " + compiled.error();
    const schema::Verdict v = compiled.validate(json::parse(value_text));
    return v.pass ? "pass" : v.reason;
}

std::string hermes_call(const std::string& name, const std::string& arguments) {
    return "<tool_call>{\"name\": \"" + name + "\", \"arguments\": " + arguments + "}</tool_call>";
}

}  // namespace

TEST_CASE("schema bounds: an enum keeps JSON equality when it is looked up", "[schema][bounds]") {
    const std::string e = R"({"enum": [1, {"a": 1, "b": [2.0, "x"]}, "x", null, [1, "a"], -0.0, 2.5]})";
    CHECK(verdict(e, "1.0") == "pass");
    CHECK(verdict(e, R"({"b": [2, "x"], "a": 1.0})") == "pass");  // members in any order, numbers by value
    CHECK(verdict(e, "null") == "pass");
    CHECK(verdict(e, "[1.0, \"a\"]") == "pass");
    CHECK(verdict(e, "0") == "pass");
    CHECK(verdict(e, "2.50") == "pass");
    CHECK(verdict(e, "\"1\"") ==
          "arguments: must be one of 1, {\"a\":1,\"b\":[2.0,\"x\"]}, \"x\", null, [1,\"a\"], 0, 2.5, got \"1\"");
    CHECK(verdict(e, R"({"a": 1})") ==
          "arguments: must be one of 1, {\"a\":1,\"b\":[2.0,\"x\"]}, \"x\", null, [1,\"a\"], 0, 2.5, got {\"a\":1}");
    CHECK(verdict(e, "[\"a\", 1]") ==
          "arguments: must be one of 1, {\"a\":1,\"b\":[2.0,\"x\"]}, \"x\", null, [1,\"a\"], 0, 2.5, got [\"a\",1]");
    CHECK(verdict(e, "true") ==
          "arguments: must be one of 1, {\"a\":1,\"b\":[2.0,\"x\"]}, \"x\", null, [1,\"a\"], 0, 2.5, got true");
    // The strings "1" and "s1:1" cannot meet a number's or another string's key.
    CHECK(verdict(R"({"enum": ["s1:1", "d1"]})", "\"1\"") == "arguments: must be one of \"s1:1\", \"d1\", got \"1\"");
    CHECK(verdict(R"({"enum": ["d1"]})", "1") == "arguments: must be one of \"d1\", got 1");
    // A message lists the first members only, however many there are.
    json many = json::array();
    for (int i = 0; i < 100000; ++i) many.push_back("v" + std::to_string(i));
    const std::string reason = verdict(json{{"enum", many}}.dump(), "\"w\"");
    CHECK(reason.size() < 300);
    CHECK(reason.substr(0, 37) == "arguments: must be one of \"v0\", \"v1\",");
    CHECK(verdict(json{{"enum", many}}.dump(), "\"v99999\"") == "pass");
}

TEST_CASE("schema bounds: ipv6 and the formats that reach it", "[schema][bounds][format]") {
    using schema::Format;
    struct Row {
        Format format;
        std::string text;
        bool valid;
    };
    const std::vector<Row> rows = {
        {Format::ipv6, "::", true},
        {Format::ipv6, "::1", true},
        {Format::ipv6, "1::", true},
        {Format::ipv6, "1:2:3:4:5:6:7:8", true},
        {Format::ipv6, "1:2:3:4:5:6:7:8:9", false},
        {Format::ipv6, "1:2:3:4:5:6:7:", false},
        {Format::ipv6, ":1:2:3:4:5:6:7", false},
        {Format::ipv6, "1::2::3", false},
        {Format::ipv6, "::ffff:192.168.0.1", true},
        {Format::ipv6, "::192.168.0.1", true},
        {Format::ipv6, "1:2:3:4:5:6:1.2.3.4", true},
        {Format::ipv6, "1:2:3:4:5::1.2.3.4", true},
        {Format::ipv6, "1:2:3:4:5:6:7:1.2.3.4", false},
        {Format::ipv6, "1.2.3.4::1", false},
        {Format::ipv6, "::1.2.3.4:1", false},
        {Format::ipv6, "::256.1.1.1", false},
        {Format::ipv6, "0000:0000:0000:0000:0000:0000:255.255.255.255", true},  // 45 bytes, the longest
        {Format::ipv6, "0000:0000:0000:0000:0000:0000:255.255.255.2555", false},
        {Format::ipv6, "12345::", false},
        {Format::email, "a@[IPv6:1::2]", true},
        {Format::email, "a@[IPv6:1:1:1:1:1:1:1:1:1]", false},
        {Format::uri, "http://[1::2]/x", true},
        {Format::uri, "http://[1:1:1:1:1:1:1:1:1]/", false},
    };
    for (const auto& row : rows) {
        CAPTURE(row.text);
        CHECK(schema::matches_format(row.format, row.text) == row.valid);
    }
    // A megabyte of groups is refused (it once took seconds per string).
    std::string groups;
    for (int i = 0; i < 500000; ++i) groups += "1:";
    CHECK_FALSE(schema::matches_format(Format::ipv6, groups + "1"));
    CHECK_FALSE(schema::matches_format(Format::email, "a@[IPv6:" + groups + "1]"));
    CHECK_FALSE(schema::matches_format(Format::uri, "http://[" + groups + "1]/"));
}

TEST_CASE("schema bounds: a pattern past max_pattern_bytes is refused before it is compiled", "[schema][bounds][pattern]") {
    REQUIRE(schema::max_pattern_bytes == 4096);
    const std::string at_limit(4096, 'a'), past(4097, 'a');
    CHECK(verdict(json{{"pattern", at_limit}}.dump(), json(at_limit).dump()) == "pass");
    CHECK(verdict(json{{"pattern", past}}.dump(), "\"a\"") ==
          "unusable: #/pattern: pattern \"" + std::string(97, 'a') +
              "...\" cannot be used: the pattern is 4097 bytes long, past toolgram's limit of 4096");
    // patternProperties go the same way.
    CHECK(verdict(json{{"patternProperties", {{past, true}}}}.dump(), "{}") ==
          "unusable: #/patternProperties/" + std::string(78, 'a') + "...: pattern \"" + std::string(97, 'a') +
              "...\" cannot be used: the pattern is 4097 bytes long, past toolgram's limit of 4096");
    // `format: regex` values are the model's: the same limit, as a failed format.
    std::string long_regex;
    for (int i = 0; i < 2049; ++i) long_regex += "\\S";  // 4098 bytes
    CHECK(verdict(R"({"format": "regex"})", json(long_regex.substr(0, 4096)).dump()) == "pass");
    CHECK(verdict(R"({"format": "regex"})", json(long_regex).dump()) ==
          "arguments: is not a valid regular expression (ECMA-262, as RE2 can run it)");
}

TEST_CASE("schema bounds: an unusable schema's message quotes at most 100 bytes of its text and names",
          "[schema][bounds][hostile]") {
    REQUIRE(toolgram::detail::max_quoted_bytes == 100);
    // A broken pattern of a megabyte: refused by its length, quoted by its first bytes.
    CHECK(verdict(json{{"properties", {{"p", {{"pattern", std::string(1 << 20, '(')}}}}}}.dump(), "{}") ==
          "unusable: #/properties/p/pattern: pattern \"" + std::string(97, '(') +
              "...\" cannot be used: the pattern is 1048576 bytes long, past toolgram's limit of 4096");
    // A property name of 64 KiB in the pointer, in a tool whose name is 1,000 bytes.
    const std::string long_key(1 << 16, 'n');
    const json schema = {{"type", "object"}, {"properties", {{long_key, {{"type", "float"}}}}}};
    const std::string problem = "#/properties/" + std::string(85, 'n') +
                                "...: unknown type \"float\" (the types are null, boolean, object, array, number, integer, string)";
    const std::string tool_name(1000, 'b');
    const Parser parser(toolgram::builtin_profile("hermes"), {Tool{tool_name, "", schema}});
    REQUIRE(parser.tool_problems().size() == 1);
    CHECK(parser.tool_problems()[0].message == problem);
    std::string text;
    for (int i = 0; i < 200; ++i) text += hermes_call(tool_name, R"({"p": "x"})") + "\n";
    const Result r = parser.parse(text);
    CHECK(r.calls.empty());
    REQUIRE(r.telemetry.rejected.size() == 200);
    const std::string reason =
        "the schema of " + std::string(97, 'b') + "... cannot be used, so its calls are refused: " + problem;
    CHECK(r.telemetry.rejected[0].reason == reason);
    CHECK(r.telemetry.rejected[199].reason == reason);
    CHECK(r.telemetry.candidates[0].schema_reason == "the tool's schema cannot be used (see the refusal's reason)");
    // The problem once per call (the refusal, and the candidate's copy of it): it was in
    // schema_reason and schema_validation too.
    const std::string out = toolgram::to_json(r).dump();
    std::size_t copies = 0;
    const std::string quoted = problem.substr(0, problem.find('"'));  // as it stands in JSON, unescaped
    for (std::size_t at = out.find(quoted); at != std::string::npos; at = out.find(quoted, at + 1)) ++copies;
    CHECK(copies == 2 * 200);
    CHECK(r.telemetry.rejected[0].name == std::string(97, 'b') + "...");
    // Nothing in the result quotes the key whole (it was 4 copies of it a call).
    CHECK(toolgram::to_json(r).dump().find(std::string(200, 'n')) == std::string::npos);
}

TEST_CASE("schema bounds: an unknown tool name is quoted not echoed and a rejection's text is bounded",
          "[schema][bounds][hostile]") {
    REQUIRE(Result{}.telemetry.rejected.empty());
    REQUIRE(toolgram::Rejection::max_text_bytes == 64 * 1024);
    const Parser parser(toolgram::builtin_profile("hermes"),
                        {Tool{"get_weather", "", json::parse(R"({"type": "object"})")}});
    const std::string name = "\xC3\xA9" + std::string((1 << 19) - 2, 'n');  // a character first: cuts fall on boundaries
    const std::string call = hermes_call(name, "{}");
    const std::string text = "Before. " + call + " After.";
    const Result r = parser.parse(text);
    CHECK(r.calls.empty());
    REQUIRE(r.telemetry.rejected.size() == 1);
    const toolgram::Rejection& j = r.telemetry.rejected[0];
    CHECK(j.reason == "unknown tool \"\xC3\xA9" + std::string(95, 'n') + "...\"");
    CHECK(j.name == "\xC3\xA9" + std::string(95, 'n') + "...");
    CHECK(j.begin == 8);
    CHECK(j.end == 8 + call.size());  // the span is whole
    CHECK(j.text == call.substr(0, toolgram::Rejection::max_text_bytes));
    REQUIRE(r.telemetry.candidates.size() == 1);
    CHECK(r.telemetry.candidates[0].reason == j.reason);
    // In JSON: the model's name once (raw_name), every other field bounded.
    const std::string out = toolgram::to_json(r).dump();
    CHECK(out.size() < text.size() + 2 * toolgram::Rejection::max_text_bytes);
}

TEST_CASE("schema bounds: numbers past 64 bits are refused where they equal a bound only as doubles",
          "[schema][bounds][numbers]") {
    const std::string tail = ": a number past 64 bits is held as the nearest double, and these are equal as doubles";
    // The issue's three: each once passed or failed as its nearest double decided.
    CHECK(verdict(R"({"maximum": 18446744073709551616})", "18446744073709551617") ==
          "arguments: cannot be compared exactly with maximum 18446744073709551616, got 18446744073709551616" + tail);
    CHECK(verdict(R"({"minimum": -9223372036854775808})", "-9223372036854775809") ==
          "arguments: cannot be compared exactly with minimum -9223372036854775808, got -9223372036854775808" + tail);
    CHECK(verdict(R"({"multipleOf": 1.5})", "123456789012345678901234567890") ==
          "arguments: whether it is a multiple of 1.5 cannot be decided exactly, got 1.2345678901234568e+29: a number "
          "past 64 bits is held as the nearest double");
    // The bound's side too: -2^63 is past -9223372036854775809, which rounds to it.
    CHECK(verdict(R"({"maximum": -9223372036854775809})", "-9223372036854775808") ==
          "arguments: cannot be compared exactly with maximum -9223372036854775808, got -9223372036854775808" + tail);
    CHECK(verdict(R"({"exclusiveMaximum": 18446744073709551616})", "18446744073709551615") == "pass");  // uint64: exact
    CHECK(verdict(R"({"exclusiveMinimum": 18446744073709551616})", "18446744073709551617") ==
          "arguments: cannot be compared exactly with exclusiveMinimum 18446744073709551616, got 18446744073709551616" +
              tail);
    CHECK(verdict(R"({"const": 18446744073709551616})", "18446744073709551617") ==
          "arguments: cannot be compared exactly with const 18446744073709551616, got 18446744073709551616" + tail);
    CHECK(verdict(R"({"enum": [[18446744073709551616], 1]})", "[18446744073709551617]") ==
          "arguments: cannot be compared exactly with an enum member [1.8446744073709552e+19], got "
          "[1.8446744073709552e+19]" + tail);
    // Where the doubles differ, the literals do too, and the order is exact: decided.
    CHECK(verdict(R"({"maximum": 1000})", "18446744073709551617") ==
          "arguments: must be at most 1000, got 18446744073709551616");
    CHECK(verdict(R"({"minimum": -9223372036854775807})", "-9223372036854775809") ==
          "arguments: must be at least -9223372036854775807, got -9223372036854775808");
    CHECK(verdict(R"({"maximum": 1e30})", "18446744073709551617") == "pass");
    CHECK(verdict(R"({"enum": [1e30]})", "18446744073709551617") ==
          "arguments: must be one of 1e+30, got 18446744073709551616");
    CHECK(verdict(R"({"multipleOf": 18446744073709551616})", "3") == "arguments: must be a multiple of "
                                                                      "18446744073709551616, got 3");
    CHECK(verdict(R"({"multipleOf": 3})", "18446744073709551615") == "pass");  // uint64: exact
}

}  // namespace schema_bounds_test
