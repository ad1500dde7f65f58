// Rule-level tests of the kimi_k3 grammar (grammars/kimi_k3.hpp). Its behaviour on whole
// model outputs is pinned by the golden corpus (corpus/kimi_k3/) and the tests that run
// over every profile; this file holds what only the rules and the reader can show: the
// attribute escapes, the type attribute deciding text or JSON, and the call token named in
// prose.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "call_lists.hpp"
#include "kimi_k3.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_kimi_k3_test {

using toolgram_test::calls_of;

using toolgram::json;

namespace {

// Without tools nothing is typed from a schema: the values come back as the reader left them.
std::string argument(const std::string& key, const std::string& type, const std::string& value) {
    return "<|open|>argument key=\"" + key + "\" type=\"" + type + "\"<|sep|>" + value + "<|close|>argument<|sep|>";
}

std::string channel(const std::string& tool, const std::string& arguments) {
    return "<|open|>tools<|sep|><|open|>call tool=\"" + tool + "\" index=\"1\"<|sep|>" + arguments +
           "<|close|>call<|sep|><|close|>tools<|sep|>";
}

}  // namespace

TEST_CASE("PEGTL analyze finds no cycle without progress in the kimi_k3 grammar", "[grammar][analyze][kimi_k3]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::kimi_k3::block>() == 0);
}

TEST_CASE("kimi_k3: attribute values are unescaped, string values are verbatim", "[grammar][kimi_k3]") {
    // SGLang's test_attr_unescaping_and_raw_string_args: the template escapes & and " in
    // attributes only, so a value's own &quot; is the text the model wrote.
    const std::string text = channel("a&amp;b", argument("q&quot;k", "string", "say &quot;hi&quot;"));
    for (const char* profile : {"kimi_k3", "auto"}) {
        CAPTURE(profile);
        CHECK(calls_of(profile, text) == json::parse(R"([{"name": "a&b", "arguments": {"q\"k": "say &quot;hi&quot;"}}])"));
    }
    // One pass: `&amp;quot;` was the text `&quot;`, not a quote.
    CHECK(calls_of("kimi_k3", channel("&amp;quot;", argument("k", "string", "x"))) ==
          json::parse(R"([{"name": "&quot;", "arguments": {"k": "x"}}])"));
}

TEST_CASE("kimi_k3: the type attribute says whether a value is text or JSON", "[grammar][kimi_k3]") {
    // SGLang's test_non_string_arg_json_decoding, without a schema to type the text.
    CHECK(calls_of("kimi_k3", channel("f", argument("s", "string", "42") + argument("n", "number", "42") +
                                               argument("b", "boolean", "true") + argument("z", "null", "null") +
                                               argument("o", "object", "{\"a\": [1, 2]}") +
                                               argument("bad", "object", "{not json"))) ==
          json::parse(R"([{"name": "f", "arguments": {"s": "42", "n": 42, "b": true, "z": null,
                                                       "o": {"a": [1, 2]}, "bad": "{not json"}}])"));
    // No type attribute: text, as the engines default it.
    CHECK(calls_of("kimi_k3", channel("f", "<|open|>argument key=\"s\"<|sep|>7<|close|>argument<|sep|>")) ==
          json::parse(R"([{"name": "f", "arguments": {"s": "7"}}])"));
}

TEST_CASE("kimi_k3: the call token named in prose is no call and stays in the text", "[grammar][kimi_k3]") {
    // SGLang's test_quoted_call_token_without_attributes_survives (SGLang drops the token;
    // here the prose keeps it, as written).
    const toolgram::Parser parser(toolgram::builtin_profile("kimi_k3"));
    const auto r = parser.parse("calls open with <|open|>call, then attributes");
    CHECK(r.calls.empty());
    CHECK(r.content == "calls open with <|open|>call, then attributes");
    CHECK_FALSE(r.telemetry.saw_tool_syntax);
}

}  // namespace grammar_kimi_k3_test
