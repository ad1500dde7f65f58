// String rules spelled as C++20 string literals: `str<"<tool_call>">` is the rule
// `tao::pegtl::ascii::string<'<', 't', …>`, the very type TAO_PEGTL_STRING("<tool_call>")
// gives, so rule names, error messages and coverage are unchanged. Why not the macro: it
// expands every literal to 512 character slots plus the templates that join them (some
// 1,500 lines of tokens a use), which made the preprocessed grammars 2.7 times larger and
// a quarter of the library's compile time; the literal as a template argument costs one
// instantiation per character. `istr<"…">` is the case-insensitive `ascii::istring`.
#pragma once

#include <cstddef>
#include <utility>

#include <tao/pegtl.hpp>

namespace toolgram::grammar {

// A string literal as a template argument (C++20: a class type with public members).
template <std::size_t N>
struct spelling {
    char chars[N]{};
    constexpr spelling(const char (&text)[N]) {  // NOLINT: implicit, so str<"…"> reads as a literal
        for (std::size_t i = 0; i < N; ++i) chars[i] = text[i];
    }
};

namespace spelling_detail {
template <template <char...> class Rule, spelling S, typename Indices>
struct spell;
template <template <char...> class Rule, spelling S, std::size_t... I>
struct spell<Rule, S, std::index_sequence<I...>> {
    using type = Rule<S.chars[I]...>;
};
// The terminating NUL is not part of the rule.
template <template <char...> class Rule, spelling S>
using spelled = typename spell<Rule, S, std::make_index_sequence<sizeof(S.chars) - 1>>::type;
}  // namespace spelling_detail

template <spelling S>
using str = spelling_detail::spelled<tao::pegtl::ascii::string, S>;
template <spelling S>
using istr = spelling_detail::spelled<tao::pegtl::ascii::istring, S>;

}  // namespace toolgram::grammar
