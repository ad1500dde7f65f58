// The lfm2_json grammar (grammars/declared/lfm2_json.json). Its behaviour on whole model
// outputs is pinned by the golden corpus (corpus/lfm2_json/, and LFM2's cases in
// corpus/pythonic/) and the tests that run over every profile; this file holds which payload
// each of LFM2's two modes takes, under each profile.
#include <catch2/catch.hpp>

#include "call_lists.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_lfm2_json_test {

using toolgram_test::calls_of;

using toolgram::json;


TEST_CASE("lfm2_json: the payload decides between LFM2's JSON and Python modes", "[grammar][lfm2_json]") {
    const std::string json_mode = R"(<|tool_call_start|>[{"name": "f", "arguments": {"a": 1}}]<|tool_call_end|>)";
    const std::string python_mode = "<|tool_call_start|>[f(a=1)]<|tool_call_end|>";
    const json want = json::parse(R"([{"name": "f", "arguments": {"a": 1}}])");
    for (const char* profile : {"lfm2_json", "pythonic", "auto"}) {
        CAPTURE(profile);
        CHECK(calls_of(profile, json_mode) == want);
    }
    for (const char* profile : {"pythonic", "auto"}) {
        CAPTURE(profile);
        CHECK(calls_of(profile, python_mode) == want);
    }
    // The JSON-mode profile does not read the Python mode as JSON: it reports tool syntax it
    // does not read, leaving nothing in content (auto and pythonic read it, above).
    CHECK(calls_of("lfm2_json", python_mode) == json::array());
    const toolgram::Result r = toolgram::Parser(toolgram::builtin_profile("lfm2_json")).parse(python_mode);
    CHECK(r.telemetry.saw_tool_syntax);
    CHECK(r.content.empty());
    REQUIRE(r.telemetry.rejected.size() == 1);
    CHECK(r.telemetry.rejected[0].reason ==
          "nothing between <|tool_call_start|> and <|tool_call_end|> reads as a call in this syntax");
    // One bare object, and spaces before the list, are JSON mode too.
    CHECK(calls_of("lfm2_json", R"(<|tool_call_start|>{"name": "f", "arguments": {"a": 1}}<|tool_call_end|>)") == want);
    CHECK(calls_of("lfm2_json", R"(<|tool_call_start|> [ {"name": "f", "parameters": {"a": 1}}]<|tool_call_end|>)") ==
          want);
}

}  // namespace grammar_lfm2_json_test
