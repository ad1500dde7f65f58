// Rule-level tests of the gigachat grammar (grammars/gigachat.hpp). Its behaviour on whole
// model outputs is pinned by the golden corpus (corpus/gigachat/) and the tests that run
// over every profile; this file holds what only the rules can show.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "gigachat.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_gigachat_test {

TEST_CASE("PEGTL analyze finds no cycle without progress in the gigachat grammar", "[grammar][analyze][gigachat]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::gigachat::block>() == 0);
}

TEST_CASE("gigachat: the header of either version opens a block, other turns do not", "[grammar][gigachat]") {
    namespace pg = tao::pegtl;
    namespace g = toolgram::grammar::gigachat;
    auto opens = [](const std::string& s) {
        pg::memory_input in(s, "test");
        return pg::parse<g::open>(in);
    };
    CHECK(opens("<|function_call|>"));
    CHECK(opens("<|message_sep|>\n\nfunction call<|role_sep|>\n"));
    CHECK(opens("function call<|role_sep|>"));
    CHECK_FALSE(opens("<|message_sep|>\n\nfunction result<|role_sep|>\n"));
    CHECK_FALSE(opens("<|message_sep|>\n\nuser<|role_sep|>\n"));
}

}  // namespace grammar_gigachat_test
