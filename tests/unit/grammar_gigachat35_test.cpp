// Rule-level tests of the gigachat35 grammar (grammars/gigachat35.hpp). Its behaviour on
// whole model outputs is pinned by the golden corpus (corpus/gigachat35/) and the tests
// that run over every profile; this file holds what only the rules can show.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "gigachat35.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_gigachat35_test {

TEST_CASE("PEGTL analyze finds no cycle without progress in the gigachat35 grammar", "[grammar][analyze][gigachat35]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::gigachat35::block>() == 0);
}

}  // namespace grammar_gigachat35_test
