// Rule-level tests of the inkling grammar (grammars/inkling.hpp). Its behaviour on whole
// model outputs is pinned by the golden corpus (corpus/inkling/) and the tests that run over
// every profile; this file holds what the corpus shows poorly: where a kind token claims a
// block and where it is named in prose, the header at the output's start, and that no
// framing token of the typed blocks reaches content or reasoning.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "inkling.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_inkling_test {

using toolgram::json;

namespace {

struct Seen {
    json calls = json::array();
    std::string content, reasoning;
    bool saw_tool_syntax = false;
    std::vector<std::string> reasons;
};

// Without tools nothing is typed from a schema and any name is accepted.
Seen parse(const std::string& profile, const std::string& text) {
    const toolgram::Parser parser(toolgram::builtin_profile(profile));
    const toolgram::Result r = parser.parse(text);
    Seen s;
    for (const auto& c : r.calls) s.calls.push_back({{"name", c.name}, {"arguments", c.arguments}});
    s.content = r.content;
    s.reasoning = r.reasoning;
    s.saw_tool_syntax = r.telemetry.saw_tool_syntax;
    for (const auto& j : r.telemetry.rejected) s.reasons.push_back(j.reason);
    return s;
}

}  // namespace

TEST_CASE("PEGTL analyze finds no cycle without progress in the inkling grammar", "[grammar][analyze][inkling]") {
    namespace ik = toolgram::grammar::inkling;
    CHECK(tao::pegtl::analyze<ik::call>() == 0);
    CHECK(tao::pegtl::analyze<ik::headed_call>() == 0);
    CHECK(tao::pegtl::analyze<ik::headless_call>() == 0);
    CHECK(tao::pegtl::analyze<ik::header_then_text>() == 0);
}

TEST_CASE("inkling: the three openings of a call block read the same call", "[grammar][inkling]") {
    const std::string payload = R"({"name":"f","args":{"a":1}})";
    const json want = json::array({{{"name", "f"}, {"arguments", {{"a", 1}}}}});
    for (const char* profile : {"inkling", "auto"}) {
        CAPTURE(profile);
        for (const std::string& text : {"<|message_model|>f<|content_invoke_tool_json|>" + payload + "<|end_message|>",
                                        "f<|content_invoke_tool_json|>" + payload + "<|end_message|>",
                                        "<|content_invoke_tool_json|>" + payload + "<|end_message|>"}) {
            CAPTURE(text);
            const Seen s = parse(profile, text);
            CHECK(s.calls == want);
            CHECK(s.content.empty());
            CHECK(s.saw_tool_syntax);
        }
    }
}

TEST_CASE("inkling: framing tokens never reach content or reasoning", "[grammar][inkling]") {
    const Seen s = parse("inkling",
                         "<|content_thinking|>plan<|end_message|><|message_model|><|content_text|>intro<|end_message|>"
                         "<|message_model|>f<|content_invoke_tool_json|>{\"name\":\"f\",\"args\":{}}<|end_message|>"
                         "<|message_model|><|content_tool_error|>boom<|end_message|>"
                         "<|message_model|><|content_text|>done<|content_model_end_sampling|>");
    CHECK(s.calls == json::array({{{"name", "f"}, {"arguments", json::object()}}}));
    CHECK(s.reasoning == "plan");
    CHECK(s.content == "introboomdone");
    CHECK(s.reasons.empty());
}

TEST_CASE("inkling: a text block before the first message is not a header", "[grammar][inkling]") {
    // The prompt ends with <|message_model|>, so plain words at the start may be a header;
    // only a name right before the kind token is one.
    const Seen prose = parse("inkling", "hello world<|end_message|>");
    CHECK(prose.content == "hello world");
    CHECK_FALSE(prose.saw_tool_syntax);
    const Seen s = parse("inkling", "Sure, checking.\n<|content_invoke_tool_json|>{\"name\":\"f\",\"args\":{}}<|end_message|>");
    CHECK(s.calls == json::array({{{"name", "f"}, {"arguments", json::object()}}}));
    CHECK(s.content == "Sure, checking.");  // the blank before a call is layout
}

TEST_CASE("inkling: a kind token claims a block where blocks stand, not in prose", "[grammar][inkling]") {
    const Seen prose = parse("inkling", "It writes <|content_invoke_tool_json|> then the JSON.");
    CHECK(prose.calls == json::array());
    CHECK_FALSE(prose.saw_tool_syntax);
    CHECK(prose.content == "It writes <|content_invoke_tool_json|> then the JSON.");

    const Seen broken = parse("inkling", "<|message_model|>f<|content_invoke_tool_json|>oops<|end_message|>after");
    CHECK(broken.calls == json::array());
    CHECK(broken.saw_tool_syntax);
    CHECK(broken.content == "after");
    REQUIRE(broken.reasons.size() == 1);
    CHECK_THAT(broken.reasons[0], Catch::Contains("holds no JSON call object"));
}

TEST_CASE("inkling: a free-text invocation and a header naming another tool are refused", "[grammar][inkling]") {
    const Seen text = parse("inkling", "<|message_model|>search<|content_invoke_tool_text|>search the web<|end_message|>");
    CHECK(text.calls == json::array());
    CHECK(text.saw_tool_syntax);
    CHECK(text.content.empty());
    REQUIRE(text.reasons.size() == 1);
    CHECK_THAT(text.reasons[0], Catch::Contains("free text"));

    // Headless too, the prompt having written the role token: neither header nor text is content.
    const Seen headless = parse("inkling", "search<|content_invoke_tool_text|>search the web<|end_message|>");
    CHECK(headless.calls == json::array());
    CHECK(headless.content.empty());
    CHECK(headless.reasons.size() == 1);

    const Seen other = parse("inkling", "<|message_model|>g<|content_invoke_tool_json|>{\"name\":\"f\",\"args\":{}}<|end_message|>");
    CHECK(other.calls == json::array());
    REQUIRE(other.reasons.size() == 1);
    CHECK(other.reasons[0] ==
          "the message header names the tool \"g\" but its call object names \"f\": which tool is called is ambiguous");
}

}  // namespace grammar_inkling_test
