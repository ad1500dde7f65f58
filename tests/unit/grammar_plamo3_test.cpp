// Rule-level tests of the plamo3 grammar (grammars/plamo3.hpp). Its behaviour on whole
// model outputs is pinned by the golden corpus (corpus/plamo3/) and the tests that run
// over every profile; this file holds what only the rules can show.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "plamo3.hpp"

TEST_CASE("PEGTL analyze finds no cycle without progress in the plamo3 grammar", "[grammar][analyze][plamo3]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::plamo3::call>() == 0);
}
