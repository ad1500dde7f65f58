// Rule-level tests of the hy_v3 grammar (grammars/hy_v3.hpp). Its behaviour on whole model
// outputs is pinned by the golden corpus (corpus/hy_v3/) and the tests that run over every
// profile; this file holds what only the rules can show: the section against Jamba's, which
// shares its opener, and HY-V4's suffixed tags.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "call_lists.hpp"
#include "hy_v3.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_hy_v3_test {

using toolgram_test::calls_of;

using toolgram::json;


TEST_CASE("PEGTL analyze finds no cycle without progress in the hy_v3 grammar", "[grammar][analyze][hy_v3]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::hy_v3::block>() == 0);
}

TEST_CASE("hy_v3: <tool_calls> is Hunyuan's only with a call after it, else Jamba's or prose", "[grammar][hy_v3]") {
    const json want = json::parse(R"([{"name": "f", "arguments": {"a": "1"}}])");
    const std::string hy3 = "<tool_calls>\n<tool_call>f<tool_sep>\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n"
                            "</tool_call>\n</tool_calls>";
    const std::string jamba = R"(<tool_calls>[{"name": "f", "arguments": {"a": "1"}}]</tool_calls>)";
    for (const char* profile : {"hy_v3", "auto"}) {
        CAPTURE(profile);
        CHECK(calls_of(profile, hy3) == want);
    }
    CHECK(calls_of("hy_v3", jamba) == json::array());
    CHECK(calls_of("auto", jamba) == want);
    CHECK(calls_of("jamba", hy3) == json::array());
    CHECK(calls_of("hy_v3", "Wrap them in <tool_calls> and </tool_calls>.") == json::array());
    // The name without <tool_sep> is not Hy3's call (HY-V4 drops the separator, with its own tags).
    CHECK(calls_of("hy_v3", "<tool_calls><tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call></tool_calls>") ==
          json::array());
}

TEST_CASE("hy_v3: HY-V4 writes the tags with the :opensource suffix and no separator", "[grammar][hy_v3]") {
    CHECK(calls_of("hy_v3",
                   "<tool_calls:opensource><tool_call:opensource>f<arg_key:opensource>a</arg_key:opensource>"
                   "<arg_value:opensource>1</arg_value:opensource></tool_call:opensource>"
                   "<tool_call:opensource>g</tool_call:opensource></tool_calls:opensource>") ==
          json::parse(R"([{"name": "f", "arguments": {"a": "1"}}, {"name": "g", "arguments": {}}])"));
}

}  // namespace grammar_hy_v3_test
