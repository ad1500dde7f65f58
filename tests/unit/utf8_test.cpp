// Output JSON is valid UTF-8 whatever bytes the model wrote: the replacement of invalid
// sequences (src/text/utf8.hpp) and its use in results, calls and OpenAI messages.
#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"
#include "text/utf8.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace utf8_test {

using toolgram::json;
using toolgram::detail::is_valid_utf8;
using toolgram::detail::make_valid_utf8;
using toolgram::detail::to_valid_utf8;

namespace {

const std::string fffd = "\xEF\xBF\xBD";

std::vector<toolgram::Tool> search_tool() {
    return toolgram::tools_from_json(json::parse(R"([{"name": "search", "parameters": {"type": "object",
        "properties": {"q": {"type": "string"}}, "required": ["q"]}}])"));
}

}  // namespace

TEST_CASE("to_valid_utf8 replaces each maximal invalid subsequence with one U+FFFD", "[utf8]") {
    struct Row {
        std::string in, out;
    };
    const auto row = GENERATE_REF(values<Row>({
        {"plain ascii", "plain ascii"},
        {"caf\xC3\xA9 \xE6\x9D\xB1 \xF0\x9F\x98\x80", "caf\xC3\xA9 \xE6\x9D\xB1 \xF0\x9F\x98\x80"},
        {"a\xFF" "b", "a" + fffd + "b"},                     // never a lead byte
        {"\x80\x80", fffd + fffd},                         // lone continuation bytes, one each
        {"caf\xC3", "caf" + fffd},                          // cut at the end of input
        {"\xE6\x9D" "x", fffd + "x"},                       // cut two-of-three: one replacement
        {"\xC0\xAF", fffd + fffd},                          // overlong '/': C0 never leads
        {"\xE0\x80\xAF", fffd + fffd + fffd},               // overlong: E0 needs A0..BF next
        {"\xED\xA0\x80", fffd + fffd + fffd},               // a UTF-16 surrogate, encoded
        {"\xF4\x90\x80\x80", fffd + fffd + fffd + fffd},    // past U+10FFFF
        {std::string("nul\0ok", 6), std::string("nul\0ok", 6)},  // NUL is valid UTF-8
    }));
    CAPTURE(row.in);
    CHECK(to_valid_utf8(row.in) == row.out);
    CHECK(is_valid_utf8(row.out));
    CHECK(is_valid_utf8(row.in) == (row.in == row.out));
    // The check reads ASCII eight bytes at a time: the same verdict wherever the sequence
    // falls against those words, and with ASCII after it up to and past a word's end.
    for (std::size_t before = 0; before <= 17; ++before)
        for (std::size_t after : {0, 1, 7, 8, 9}) {
            const std::string in = std::string(before, 'a') + row.in + std::string(after, 'z');
            CAPTURE(before, after);
            CHECK(is_valid_utf8(in) == (row.in == row.out));
            CHECK(to_valid_utf8(in) == std::string(before, 'a') + row.out + std::string(after, 'z'));
        }
}

// Whole characters only: the prefix stops where a character is ill-formed or cut, after
// ASCII runs long enough to be taken a word at a time.
TEST_CASE("valid_utf8_prefix: the longest prefix of whole well-formed characters", "[utf8]") {
    using toolgram::detail::valid_utf8_prefix;
    const std::string ascii = "0123456789abcdefghij";
    CHECK(valid_utf8_prefix("") == 0);
    CHECK(valid_utf8_prefix(ascii) == ascii.size());
    CHECK(valid_utf8_prefix(ascii + "caf\xC3\xA9") == ascii.size() + 5);
    CHECK(valid_utf8_prefix(ascii + "\xC3") == ascii.size());           // cut by the end
    CHECK(valid_utf8_prefix(ascii + "\xC3(" + ascii) == ascii.size());  // ill-formed
    CHECK(valid_utf8_prefix(ascii + "\xED\xA0\x80") == ascii.size());  // a surrogate
    CHECK(valid_utf8_prefix(ascii + "\xF0\x9F\x98\x80" + ascii) == 2 * ascii.size() + 4);
    // Every position of an invalid byte in and around the word-sized steps.
    for (std::size_t at = 0; at < 20; ++at) {
        std::string s(24, 'x');
        s[at] = '\xFF';
        INFO(at);
        CHECK(valid_utf8_prefix(s) == at);
        CHECK_FALSE(is_valid_utf8(s));
    }
}

TEST_CASE("make_valid_utf8 fixes strings and keys at any depth and keeps key order", "[utf8]") {
    json v = json::parse(R"({"b": 1, "a": [1, {"z": "x"}]})");
    v["a"][1]["z"] = "bad\xFF";
    v["k\xFE"] = "v";
    CHECK(make_valid_utf8(v));
    CHECK(v.dump() == R"({"b":1,"a":[1,{"z":"bad)" + fffd + R"("}],"k)" + fffd + R"(":"v"})");
    CHECK_FALSE(make_valid_utf8(v));
}

TEST_CASE("invalid UTF-8 in the input: results dump as JSON without the replace handler", "[utf8][combinator]") {
    const toolgram::Parser parser(toolgram::builtin_profile("hermes"), search_tool());
    const std::string text = "Caf\xE9 \xFF\n<tool_call>{\"name\": \"search\", \"id\": \"i\xC3\", "
                             "\"arguments\": {\"q\": \"x\xFFy\", \"k\xFE\": 1}}</tool_call>";
    const toolgram::Result r = parser.parse(text);
    INFO(toolgram::to_json(r).dump(2, ' ', false, json::error_handler_t::replace));
    // The key with the invalid byte is undeclared, which the schema allows.
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].arguments == json{{"q", "x" + fffd + "y"}, {"k" + fffd, 1}});
    CHECK(r.calls[0].id == "i" + fffd);
    CHECK(r.telemetry.repairs == std::vector<std::string>{"invalid_utf8_replaced"});
    // Content keeps the model's bytes; JSON out replaces them.
    CHECK(r.content == "Caf\xE9 \xFF");
    const json j = toolgram::to_json(r);
    CHECK(j["content"] == "Caf" + fffd + " " + fffd);
    CHECK_NOTHROW(j.dump());
    CHECK(json::parse(j.dump()) == j);
    const json m = toolgram::to_openai_message(r);
    CHECK_NOTHROW(m.dump());
    CHECK(m["content"] == "Caf" + fffd + " " + fffd);
    CHECK(json::parse(m["tool_calls"][0]["function"]["arguments"].get<std::string>()) == r.calls[0].arguments);
}

TEST_CASE("invalid UTF-8 in a tool name or a reasoning block still dumps", "[utf8][combinator]") {
    const toolgram::Parser parser(toolgram::builtin_profile("hermes"));  // no tools: names as written
    const toolgram::Result r =
        parser.parse("<think>hm\xC3</think><tool_call>{\"name\": \"f\xFF\", \"arguments\": {}}</tool_call>");
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].name == "f" + fffd);
    const json j = toolgram::to_json(r);
    CHECK_NOTHROW(j.dump());
    CHECK(j["reasoning"] == "hm" + fffd);
    CHECK(j["telemetry"]["candidates"][0]["raw_name"] == "f" + fffd);
}

}  // namespace utf8_test
