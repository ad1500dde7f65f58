// PEGTL's analyze over the JSON-block family grammars still written in C++ (granite's
// lists without a closer, functools' list glued to its word, command_r's fenced Action:): no rule
// may loop without consuming input. The families declared as data read with the grammar
// `declared`, analysed in profile_file_test.cpp. One file for these families, so adding
// them touched no shared test.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "command_r.hpp"
#include "functools.hpp"
#include "granite.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace json_families_analyze_test {

TEST_CASE("PEGTL analyze finds no cycle without progress in the JSON-block family grammars", "[grammar][analyze]") {
    namespace g = toolgram::grammar;
    namespace pg = tao::pegtl;
    CHECK(pg::analyze<g::granite::block>() == 0);
    CHECK(pg::analyze<g::functools::block>() == 0);
    CHECK(pg::analyze<g::command_r::block>() == 0);
}

}  // namespace json_families_analyze_test
