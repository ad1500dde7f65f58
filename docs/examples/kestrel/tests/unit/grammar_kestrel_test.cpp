// Rule-level tests of the kestrel grammar (grammars/kestrel.hpp). Its behaviour on whole
// model outputs is pinned by the golden corpus (corpus/kestrel/) and the tests that run
// over every profile; this file holds what only the rules can show.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "kestrel.hpp"
#include "toolgram/toolgram.hpp"

using toolgram::json;

namespace {

// Without tools nothing is typed from a schema: the values come back as the text read.
json calls_of(const std::string& text) {
    const toolgram::Parser parser(toolgram::builtin_profile("kestrel"));
    json out = json::array();
    for (const auto& c : parser.parse(text).calls) out.push_back({{"name", c.name}, {"arguments", c.arguments}});
    return out;
}

}  // namespace

TEST_CASE("PEGTL analyze finds no cycle without progress in the kestrel grammar", "[grammar][analyze][kestrel]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::kestrel::block>() == 0);
}

TEST_CASE("kestrel: the opener is a call only when its line ends after >>", "[grammar][kestrel]") {
    CHECK(calls_of("Write <<call f>> and then the arguments.") == json::array());
    CHECK(calls_of("<<call f>>\na = 1\n<</call>>") == json::parse(R"([{"name": "f", "arguments": {"a": "1"}}])"));
    CHECK(calls_of("<<call f>><</call>>") == json::parse(R"([{"name": "f", "arguments": {}}])"));
    CHECK(calls_of("<<call f>>  \r\na = 1\r\n<</call>>") == json::parse(R"([{"name": "f", "arguments": {"a": "1"}}])"));
}

TEST_CASE("kestrel: a bare value is its line trimmed, a quoted one a JSON string", "[grammar][kestrel]") {
    CHECK(calls_of("<<call f>>\na =   two words  \nb = \"  kept\\n\\\"as is\\\"  \"\n<</call>>") ==
          json::parse(R"([{"name": "f", "arguments": {"a": "two words", "b": "  kept\n\"as is\"  "}}])"));
    // An unfinished quote is not a JSON string: the line is taken as written.
    CHECK(calls_of("<<call f>>\na = \"half\n<</call>>") == json::parse(R"([{"name": "f", "arguments": {"a": "\"half"}}])"));
    // A value with no line break and no closer after it may have been cut: never taken.
    CHECK(calls_of("<<call f>>\na = 12") == json::array());
}

TEST_CASE("kestrel: strings that need quotes survive render -> parse", "[grammar][kestrel]") {
    const toolgram::Profile profile = toolgram::builtin_profile("kestrel");
    const json args = {{"padded", " x "}, {"empty", ""}, {"lines", "a\nb\r\nc"}, {"quoted", "\"q\" tail"},
                       {"closer", "a <</call>> b"}, {"tab", "\tx"}};
    const std::string text = toolgram::render_calls(profile, {toolgram::Call{"", "f", args}});
    CAPTURE(text);
    CHECK(calls_of(text) == json::array({{{"name", "f"}, {"arguments", args}}}));
}
