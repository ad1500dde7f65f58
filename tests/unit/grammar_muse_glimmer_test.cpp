// Rule-level tests of the muse_glimmer grammar (grammars/muse_glimmer.hpp). Its behaviour on
// whole model outputs is pinned by the golden corpus (corpus/muse_glimmer/) and the tests that
// run over every profile; this file holds what only the rules can show: which headers address
// a tool, and the recipient header beside harmony's, which also writes `to=`.
#include <catch2/catch.hpp>
#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "call_lists.hpp"
#include "muse_glimmer.hpp"
#include "toolgram/chat_template.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_muse_glimmer_test {

using toolgram_test::calls_of;

using toolgram::json;

namespace {

namespace mg = toolgram::grammar::muse_glimmer;

template <typename Rule>
bool matches(const std::string& text) {
    tao::pegtl::memory_input in(text, "test");
    return tao::pegtl::parse<tao::pegtl::seq<Rule, tao::pegtl::eof>>(in);
}

// Without tools nothing is typed from a schema: the values come back as the text read.
const std::string atem = "<atem:function_calls>\n<atem:invoke name=\"f\">\n<atem:parameter name=\"a\">1</atem:parameter>\n"
                         "</atem:invoke>\n</atem:function_calls>";

}  // namespace

TEST_CASE("PEGTL analyze finds no cycle without progress in the muse_glimmer grammar", "[grammar][analyze][muse_glimmer]") {
    CHECK(tao::pegtl::analyze<mg::block>() == 0);
}

TEST_CASE("muse_glimmer: a header addresses a tool unless its recipient is self or user", "[grammar][muse_glimmer]") {
    CHECK(matches<mg::tool_header>("to=get_weather<|message|>"));
    CHECK(matches<mg::tool_header>("to=read.read<|message|>"));
    CHECK(matches<mg::tool_header>("to=selfie<|message|>"));  // a tool whose name starts with self
    CHECK(matches<mg::tool_header>("to=user_lookup<|message|>"));
    CHECK_FALSE(matches<mg::tool_header>("to=self<|message|>"));
    CHECK_FALSE(matches<mg::tool_header>("to=user<|message|>"));
    CHECK_FALSE(matches<mg::tool_header>("to=5 and more"));
    CHECK_FALSE(matches<mg::tool_header>("to=f <|message|>"));  // vLLM's header has no space there
}

TEST_CASE("muse_glimmer: the message to a tool gives the calls, named by their invokes", "[grammar][muse_glimmer]") {
    const json want = json::parse(R"([{"name": "f", "arguments": {"a": "1"}}])");
    for (const char* profile : {"muse_glimmer", "auto"}) {
        CAPTURE(profile);
        CHECK(calls_of(profile, " to=f<|message|>" + atem + "<|eom|>") == want);
        CHECK(calls_of(profile, "<|start|>assistant to=ns.f<|message|>" + atem + "<|eot|>") == want);
        // Markup with no framing at all: the special tokens were dropped upstream.
        CHECK(calls_of(profile, atem) == want);
        // In a framed output, markup outside a message to a tool is not a call.
        CHECK(calls_of(profile, " to=user<|message|>Like this: " + atem + "<|eot|>") == json::array());
        CHECK(calls_of(profile, " to=self<|message|>Maybe " + atem + "<|eom|>") == json::array());
    }
}

TEST_CASE("muse_glimmer: harmony's recipients stay harmony's under auto", "[grammar][muse_glimmer]") {
    const std::string harmony = "<|channel|>commentary to=functions.f<|message|>{\"a\": 1}<|call|>";
    CHECK(calls_of("auto", harmony) == json::parse(R"([{"name": "f", "arguments": {"a": 1}}])"));
    CHECK(calls_of("muse_glimmer", harmony) == json::array());
}

TEST_CASE("muse_glimmer: a template that renders calls as ATEM messages names the profile", "[grammar][muse_glimmer]") {
    // The shape Muse Glimmer's template renders an earlier call in (a sketch, not its text).
    const std::string tmpl =
        "{%- for message in messages -%}{%- if message.tool_calls -%}{%- for tc in message.tool_calls -%}"
        "{{- '<|start|>assistant to=' + tc.function.name + '<|message|><atem:function_calls>\\n<atem:invoke name=\"' + "
        "tc.function.name + '\">\\n' -}}{%- for k, v in tc.function.arguments.items() -%}"
        "{{- '<atem:parameter name=\"' + k + '\">' + v | string + '</atem:parameter>\\n' -}}{%- endfor -%}"
        "{{- '</atem:invoke>\\n</atem:function_calls><|eom|>' -}}{%- endfor -%}{%- endif -%}{%- endfor -%}";
    const toolgram::TemplateMatch m = toolgram::match_chat_template(tmpl);
    CHECK(m.verdict == toolgram::TemplateMatch::Verdict::matched);
    CHECK(m.profile == "muse_glimmer");
}

TEST_CASE("muse_glimmer: with no framing, an invoke opener alone is a mention", "[grammar][muse_glimmer]") {
    // Openers side by side, or one in a sentence: no parameter and no closer follows.
    CHECK(calls_of("muse_glimmer", "<atem:invoke name=\"a\"><atem:invoke name=\"b\">") == json::array());
    CHECK(calls_of("muse_glimmer", "Write one <atem:invoke name=\"f\"> per call.") == json::array());
    CHECK(calls_of("muse_glimmer", "<atem:invoke name=\"f\"></atem:invoke>") ==
          json::parse(R"([{"name": "f", "arguments": {}}])"));
}

}  // namespace grammar_muse_glimmer_test
