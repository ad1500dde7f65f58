// The lenient value grammar: strict JSON plus what models write instead of it.
//
// Every payload grammar (tag, marker, strict JSON, the model families, the Python call
// syntax) reads its arguments with these rules, so a repair learnt once works everywhere.
// Accepted beyond JSON: single-quoted strings, Python True/False/None, trailing commas,
// unquoted keys, raw control characters inside strings, `//` and `/* */` comments,
// vertical tab and form feed as whitespace,
// Python escapes (\x41, \'), and tuples read as arrays. Which of these a value needed is
// recorded by the actions in src/lenient_value.cpp, never silently.
//
// Shape of the rules. A container commits once its opening bracket is seen: everything
// after it sits under must<>, so a malformed value raises at the exact byte where it went
// wrong instead of backtracking. That gives linear time (no input byte is re-read by an
// alternative) and an error position for the correction prompt. Where the input *ends*
// with every value complete and only closers missing, `healed_end` matches instead of the
// closer; where it ends inside a value, the raise happens at end of input and the caller
// classifies it as a cut (never accepted). Nesting is bounded at run time by
// `depth_limited`, which refuses to recurse past the caller's limit.
#pragma once

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "error_messages.hpp"

namespace toolgram::grammar::lenient {

namespace pegtl = tao::pegtl;
using namespace pegtl;

// ---------------------------------------------------------------------------------------
// Whitespace and comments.

struct line_comment : seq<two<'/'>, until<eolf>> {};
struct block_comment_end : string<'*', '/'> {};
struct block_comment : seq<string<'/', '*'>, must<until<block_comment_end>>> {};
struct comment : sor<line_comment, block_comment> {};
struct json_space : one<' ', '\t', '\n', '\r'> {};
struct other_space : one<'\v', '\f'> {};  // whitespace to C, not to JSON: a repair
struct ws : star<sor<plus<json_space>, other_space, comment>> {};

// ---------------------------------------------------------------------------------------
// Depth guard: a run-time nesting limit. The state carries `depth` and `max_depth`; past
// the limit the rule raises (the caller reports "nesting deeper than N").

template <typename Rule>
struct depth_limited {
    using rule_t = depth_limited;
    using subs_t = type_list<Rule>;

    template <apply_mode A, rewind_mode M, template <typename...> class Action,
              template <typename...> class Control, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        if (st.depth >= st.max_depth) {
            throw parse_error(errors::nesting_too_deep, in);
        }
        ++st.depth;
        struct leave {
            State& s;
            ~leave() { --s.depth; }
        } guard{st};
        return Control<Rule>::template match<A, M, Action, Control>(in, st);
    }
};

// ---------------------------------------------------------------------------------------
// Strings. The content rules match raw bytes; the actions decode escapes.

struct escape_sequence : seq<one<'\\'>, any> {};  // decoded (and judged) by the action
// Plain characters are taken a run at a time: one rule match per run, not per byte.
// A run of one or more characters other than Quote and the backslash, in one step
// (plus<not_one<Quote, '\\'>> makes a rule call per byte). Like that rule it asks the
// input for a byte past a run that reaches the end, so a stream learns the end was read.
template <char Quote>
struct plain_run {
    using rule_t = plain_run;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename... States>
    [[nodiscard]] static bool match(ParseInput& in, States&&...) {
        const std::size_t left = in.size(1);
        const char* const p = in.current();
        std::size_t n = 0;
        while (n < left && p[n] != Quote && p[n] != '\\') ++n;
        if (n == 0) return false;
        in.bump(n);
        if (n == left) (void)in.size(1);
        return true;
    }
};
struct dq_plain : plain_run<'"'> {};
struct sq_plain : plain_run<'\''> {};
struct dq_char : sor<escape_sequence, dq_plain> {};
struct sq_char : sor<escape_sequence, sq_plain> {};
struct dq_content : star<dq_char> {};
struct sq_content : star<sq_char> {};
struct dq_close : one<'"'> {};
struct sq_close : one<'\''> {};
struct dq_string : seq<one<'"'>, must<dq_content, dq_close>> {};
struct sq_string : seq<one<'\''>, must<sq_content, sq_close>> {};
struct string_value : sor<dq_string, sq_string> {};

// ---------------------------------------------------------------------------------------
// Numbers. A number must not touch the end of input: "12" at the very end may be "123"
// cut short, so it raises there and the caller reports a value cut mid-number.

struct digit_run : plus<digit> {};
struct fraction : seq<one<'.'>, star<digit>> {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, must<digit_run>> {};
struct number_body
    : seq<opt<one<'-', '+'>>, sor<seq<digit_run, opt<fraction>>, seq<one<'.'>, digit_run>>, opt<exponent>> {};
struct number_not_cut : not_at<eof> {};
struct number : seq<at<opt<one<'-', '+'>>, opt<one<'.'>>, digit>, number_body, must<number_not_cut>> {};

// ---------------------------------------------------------------------------------------
// Literals, JSON's and Python's spelling. A literal must end at a word boundary.

struct word_end : not_at<identifier_other> {};
struct json_true : seq<string<'t', 'r', 'u', 'e'>, word_end> {};
struct json_false : seq<string<'f', 'a', 'l', 's', 'e'>, word_end> {};
struct json_null : seq<string<'n', 'u', 'l', 'l'>, word_end> {};
struct py_true : seq<string<'T', 'r', 'u', 'e'>, word_end> {};
struct py_false : seq<string<'F', 'a', 'l', 's', 'e'>, word_end> {};
struct py_none : seq<string<'N', 'o', 'n', 'e'>, word_end> {};
struct literal : sor<json_true, json_false, json_null, py_true, py_false, py_none> {};

// ---------------------------------------------------------------------------------------
// Containers.

struct value;

// Input that ends where a closer was due: supplied by healing, reported by the action.
struct healed_end : eof {};

struct bare_key : identifier {};
struct key_string : sor<dq_string, sq_string> {};
struct key : sor<key_string, bare_key> {};
struct name_separator : one<':'> {};
struct member : seq<key, ws, must<name_separator>, ws, must<value>> {};
struct trailing_comma : seq<one<','>, ws, at<one<'}', ']', ')'>>> {};
struct value_separator : one<','> {};
struct member_end : sor<trailing_comma, seq<value_separator, ws>, at<one<'}'>>, at<eof>> {};
struct object_close : one<'}'> {};
struct object_end : sor<object_close, healed_end> {};
struct object_open : one<'{'> {};
struct object_body : seq<ws, until<object_end, must<member>, ws, must<member_end>>> {};
struct object : seq<object_open, depth_limited<object_body>> {};

struct element_end : sor<trailing_comma, seq<value_separator, ws>, at<one<']'>>, at<eof>> {};
struct array_close : one<']'> {};
struct array_end : sor<array_close, healed_end> {};
struct array_open : one<'['> {};
struct array_body : seq<ws, until<array_end, must<value>, ws, must<element_end>>> {};
struct array : seq<array_open, depth_limited<array_body>> {};

// A Python tuple, read as an array. `(x)` is a parenthesised value in Python, but a model
// writing arguments never means that, so one element is still a one-element array.
struct tuple_end_sep : sor<trailing_comma, seq<value_separator, ws>, at<one<')'>>, at<eof>> {};
struct tuple_close : one<')'> {};
struct tuple_end : sor<tuple_close, healed_end> {};
struct tuple_open : one<'('> {};
struct tuple_body : seq<ws, until<tuple_end, must<value>, ws, must<tuple_end_sep>>> {};
struct tuple : seq<tuple_open, depth_limited<tuple_body>> {};

struct value : sor<string_value, number, object, array, tuple, literal> {};

// One value with the whitespace and comments around it; what follows is the caller's.
struct padded_value : seq<ws, value, ws> {};

}  // namespace toolgram::grammar::lenient

namespace toolgram::grammar {
// Byte-level rules stay out of coverage counts (rule_listener.hpp): they fire for every
// character of a string, which a parse should not pay for, and the string rules above
// them already say what a value looked like.
template <> inline constexpr bool listened_rule<lenient::escape_sequence> = false;
template <> inline constexpr bool listened_rule<lenient::dq_char> = false;
template <> inline constexpr bool listened_rule<lenient::sq_char> = false;
template <> inline constexpr bool listened_rule<lenient::dq_plain> = false;
template <> inline constexpr bool listened_rule<lenient::sq_plain> = false;
}  // namespace toolgram::grammar

namespace tao::pegtl {
// For analyze<>: a run consumes at least one byte.
template <typename Name, char Quote>
struct analyze_traits<Name, toolgram::grammar::lenient::plain_run<Quote>> : analyze_any_traits<> {};
// For analyze<>: the guard matches exactly what its rule matches.
template <typename Name, typename Rule>
struct analyze_traits<Name, toolgram::grammar::lenient::depth_limited<Rule>> : analyze_traits<Name, typename seq<Rule>::rule_t> {};
}  // namespace tao::pegtl

namespace toolgram::grammar::errors {
// Error messages for the rules above, kept beside the grammar (see error_messages.hpp).
template <> inline constexpr const char* message<lenient::dq_content> = "unterminated string";
template <> inline constexpr const char* message<lenient::sq_content> = "unterminated string";
template <> inline constexpr const char* message<lenient::dq_close> = "unterminated string";
template <> inline constexpr const char* message<lenient::sq_close> = "unterminated string";
template <> inline constexpr const char* message<lenient::number_not_cut> = "number at end of input";
template <> inline constexpr const char* message<lenient::digit_run> = "digit_run expected in exponent";
template <> inline constexpr const char* message<lenient::name_separator> = "':' expected after key";
template <> inline constexpr const char* message<lenient::value> = "value expected";
template <> inline constexpr const char* message<lenient::member> = "key expected";
template <> inline constexpr const char* message<lenient::member_end> = "',' or '}' expected";
template <> inline constexpr const char* message<lenient::element_end> = "',' or ']' expected";
template <> inline constexpr const char* message<lenient::tuple_end_sep> = "',' or ')' expected";
template <> inline constexpr const char* message<lenient::until<lenient::block_comment_end>> =
    "unterminated comment";
}  // namespace toolgram::grammar::errors
