// Rule-level tests of the cwm grammar (grammars/cwm.hpp). Its behaviour on whole
// model outputs is pinned by the golden corpus (corpus/cwm/) and the tests that run
// over every profile; this file holds what only the rules can show.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "cwm.hpp"

TEST_CASE("PEGTL analyze finds no cycle without progress in the cwm grammar", "[grammar][analyze][cwm]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::cwm::block>() == 0);
}
