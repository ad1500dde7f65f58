// Rule-level tests of the solar_open grammar (grammars/solar_open.hpp). Its behaviour on
// whole model outputs is pinned by the golden corpus (corpus/solar_open/) and the tests
// that run over every profile; this file holds what only the rules can show.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "solar_open.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_solar_open_test {

TEST_CASE("PEGTL analyze finds no cycle without progress in the solar_open grammar", "[grammar][analyze][solar_open]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::solar_open::call>() == 0);
    CHECK(tao::pegtl::analyze<toolgram::grammar::solar_open::section_close>() == 0);
    CHECK(tao::pegtl::analyze<toolgram::grammar::solar_open::v2_call>() == 0);
}

TEST_CASE("solar_open: a call header holds an id (perhaps empty), then the name", "[grammar][solar_open]") {
    namespace pg = tao::pegtl;
    namespace so = toolgram::grammar::solar_open;
    auto header = [](const std::string& s) {
        pg::memory_input in(s, "test");
        return pg::parse<pg::seq<so::call_header, pg::eof>>(in);
    };
    CHECK(header("<|tool_call:begin|>a1b2c3d4e5<|tool_call:name|>get_weather<|tool_call:args|>"));
    CHECK(header("<|tool_call:begin|><|tool_call:name|>get_weather<|tool_call:args|>"));
    CHECK_FALSE(header("<|tool_call:begin|>0<|tool_call:name|><|tool_call:args|>"));
    CHECK_FALSE(header("<|tool_call:begin|>0<|tool_call:args|>"));
}

}  // namespace grammar_solar_open_test
