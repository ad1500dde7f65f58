// The lenient value grammar: strict JSON plus what models write instead of it.
//
// Every payload grammar (tag, marker, strict JSON, the model families, the Python call
// syntax) reads its arguments with these rules, so a repair learnt once works everywhere.
// Accepted beyond JSON: single-quoted strings, Python True/False/None, trailing commas,
// unquoted keys, raw control characters inside strings, `//` and `/* */` comments,
// vertical tab, form feed and Unicode spaces (NBSP, U+2000–U+200A, U+3000, the BOM…) as
// whitespace, Python escapes (\x41, \'), tuples read as arrays (`(x)` alone is x, as in
// Python), a comma left out between members or items where nothing else can be missing,
// and, in Python syntax only (the Python call grammars), integer keys and digit
// separators (`{2: 1_000}`). Which of these a value needed is recorded by the actions in
// src/value/value_reader.hpp, never silently.
//
// Shape of the rules. A container commits once its opening bracket is seen: everything
// after it sits under must<>, so a malformed value raises at the exact byte where it went
// wrong instead of backtracking. That gives linear time (no input byte is re-read by an
// alternative) and an error position for the correction prompt. Where the input *ends*
// with every value complete and only closers missing, `healed_end` matches instead of the
// closer; where it ends inside a value, the raise happens at end of input and the caller
// classifies it as a cut (never accepted). Nesting is bounded at run time by
// `depth_limited`, which refuses to recurse past the caller's limit. A block grammar that
// knows its own closer (`</tool_call>`) gives it to the state (`block_closer`): where it
// stands in place of a value's closer, with every value complete, it ends the value as
// the end of output would (`{"a": {"b": 1}\n</tool_call>`), reported as a repair.
#pragma once

#include <cstring>
#include <string_view>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "common/error_messages.hpp"
#include "common/rule_listener.hpp"
#include "common/runtime_literal.hpp"  // note_wanted_at_end

namespace toolgram::grammar::lenient {

namespace pegtl = tao::pegtl;
using namespace pegtl;

// ---------------------------------------------------------------------------------------
// Whitespace and comments.

struct line_comment : seq<two<'/'>, until<eolf>> {};
struct block_comment_end : string<'*', '/'> {};

// A block comment that the output ends in (`{} /* foo`): the output was cut there, and
// the comment is healed as a value that lacks only closers is. Not where the block's own
// closer follows in the text: there the comment swallowed it, and that is broken syntax.
struct comment_cut_off {
    using rule_t = comment_cut_off;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        if constexpr (requires { st.block_closer_follows(in.current()); }) {
            if (st.block_closer_follows(in.current())) return false;
        }
        in.bump(in.size(in.size()));
        return true;
    }
};
struct comment_body : sor<until<block_comment_end>, comment_cut_off> {};
struct block_comment : seq<string<'/', '*'>, must<comment_body>> {};
struct comment : sor<line_comment, block_comment> {};
struct json_space : one<' ', '\t', '\n', '\r'> {};
struct other_space : one<'\v', '\f'> {};  // whitespace to C, not to JSON: a repair
// Unicode's spaces (Zs) and the byte order mark, in UTF-8: models emit them between
// tokens (a NBSP after a colon, U+3000 in CJK text, a BOM at the start). A repair.
struct unicode_space
    : sor<string<'\xC2', '\xA0'>,                                                     // U+00A0
          seq<string<'\xE2', '\x80'>, one<'\x80', '\x81', '\x82', '\x83', '\x84', '\x85', '\x86', '\x87',
                                          '\x88', '\x89', '\x8A', '\xAF'>>,            // U+2000–U+200A, U+202F
          string<'\xE2', '\x81', '\x9F'>,                                             // U+205F
          string<'\xE3', '\x80', '\x80'>,                                             // U+3000
          string<'\xE1', '\x9A', '\x80'>,                                             // U+1680
          string<'\xEF', '\xBB', '\xBF'>> {};                                          // U+FEFF
struct ws : star<sor<plus<json_space>, other_space, unicode_space, comment>> {};

// Python syntax only: the Python call grammars set `python_syntax` on their state, and
// these rules read what Python allows and JSON does not (integer keys, `1_000`).
struct python_only {
    using rule_t = python_only;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput&, State& st) {
        if constexpr (requires { st.python_syntax; }) return st.python_syntax;
        return false;
    }
};

// The block's closer (`st.block_closer`) stands here, and no ',' promised more: a value's
// closer left out just before it. Consumes nothing; the value ends as at the end of output.
struct block_closer_ahead {
    using rule_t = block_closer_ahead;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        if constexpr (requires { st.block_closer; st.after_separator; }) {
            const std::string_view lit = st.block_closer;
            if (lit.empty() || st.after_separator) return false;
            if (in.size(lit.size()) < lit.size()) {
                note_wanted_at_end(in, lit);
                return false;
            }
            return std::memcmp(in.current(), lit.data(), lit.size()) == 0;
        }
        return false;
    }
};

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
            errors::raise_at(errors::nesting_too_deep, in, st);
            return false;
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

// An integer with leading zeros (`0789`) is octal to some readers and decimal to others:
// the actions keep its text for phase two to decide with the schema (value_reader.hpp).
struct digit_run : plus<digit> {};
// Python's digit separators, `1_000`: one '_' between two digits.
struct digit_group : seq<python_only, one<'_'>, plus<digit>> {};
struct digits : seq<digit_run, star<digit_group>> {};
struct fraction : seq<one<'.'>, opt<digits>> {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, must<digit_run>, star<digit_group>> {};
struct number_body
    : seq<opt<one<'-', '+'>>, sor<seq<digits, opt<fraction>>, seq<one<'.'>, digits>>, opt<exponent>> {};
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
// A Python integer key, `{2: "b"}`: its decimal text becomes the key, as json.dumps
// writes it. Python refuses leading zeros (`{01: x}`), and so does this rule.
struct int_key_digits
    : seq<opt<one<'-'>>, sor<seq<range<'1', '9'>, star<opt<one<'_'>>, digit>>, one<'0'>>,
          not_at<sor<identifier_other, one<'.'>>>> {};
struct int_key : seq<python_only, int_key_digits> {};
struct key : sor<key_string, bare_key, int_key> {};
struct name_separator : one<':'> {};
struct member : seq<key, ws, must<name_separator>, ws, must<value>> {};
struct trailing_comma : seq<one<','>, ws, at<one<'}', ']', ')'>>> {};
struct value_separator : one<','> {};

// A comma left out between two members, `{"a": 2\n"b": 3}`: only where the next key and
// its ':' stand whole, so a comma is all that can be missing. Looks ahead only (the key
// is read again as the member); no rule in it raises.
struct key_ahead
    : sor<seq<one<'"'>, star<dq_char>, one<'"'>>, seq<one<'\''>, star<sq_char>, one<'\''>>, identifier,
          seq<python_only, int_key_digits>> {};
struct missing_member_comma : at<key_ahead, star<one<' ', '\t'>>, one<':'>> {};
// A comma left out between two items, `[{} {}]`, `[1\n2]`. Not where the text reads as
// something else in Python, whose syntax models mix in: two strings side by side are one
// string there ("a" "b"), and an item followed by `[` or `(` is a subscript or a call,
// by a sign an operation; those stay errors. Looks ahead only.
struct missing_item_comma {
    using rule_t = missing_item_comma;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        if (in.size(1) < 1) return false;
        const char c = *in.current();
        const bool starts_value = c == '{' || c == '"' || c == '\'' || (c >= '0' && c <= '9') ||
                                  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!starts_value) return false;
        if constexpr (requires { st.last_was_string; })
            if ((c == '"' || c == '\'') && st.last_was_string) return false;
        return true;
    }
};

// The block's closer where this container's closer was due (block_closer_ahead).
struct closed_at_block_end : block_closer_ahead {};

struct member_end
    : sor<trailing_comma, seq<value_separator, ws>, at<one<'}'>>, at<eof>, block_closer_ahead, missing_member_comma> {};
struct object_close : one<'}'> {};
struct object_end : sor<object_close, healed_end, closed_at_block_end> {};
struct object_open : one<'{'> {};
struct object_body : seq<ws, until<object_end, must<member>, ws, must<member_end>>> {};
struct object : seq<object_open, depth_limited<object_body>> {};

struct element_end
    : sor<trailing_comma, seq<value_separator, ws>, at<one<']'>>, at<eof>, block_closer_ahead, missing_item_comma> {};
struct array_close : one<']'> {};
struct array_end : sor<array_close, healed_end, closed_at_block_end> {};
struct array_open : one<'['> {};
struct array_body : seq<ws, until<array_end, must<value>, ws, must<element_end>>> {};
struct array : seq<array_open, depth_limited<array_body>> {};

// A Python tuple, read as an array: `(1, 2)`, `(1,)`, `()`. Without a comma, `(x)` is a
// parenthesised value in Python, so it reads as x (the actions decide at the closer).
struct tuple_end_sep : sor<trailing_comma, seq<value_separator, ws>, at<one<')'>>, at<eof>, block_closer_ahead> {};
struct tuple_close : one<')'> {};
struct tuple_end : sor<tuple_close, healed_end, closed_at_block_end> {};
struct tuple_open : one<'('> {};
struct tuple_body : seq<ws, until<tuple_end, must<value>, ws, must<tuple_end_sep>>> {};
struct tuple : seq<tuple_open, depth_limited<tuple_body>> {};

// Strict JSON, read in one pass where the state has a reader for it (ValueBuilder's,
// src/value/strict_value.hpp): only for the outermost value (depth 0) and only when actions
// run. It declines, consuming nothing, at the first thing strict JSON does not allow or
// where the text's end would decide; the rules below then read the value from its start.
// So it changes how fast a value is read, never what it reads. Off while a coverage run
// listens, which counts the rules below.
struct strict_value {
    using rule_t = strict_value;
    using subs_t = empty_list;

    template <apply_mode A, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        if constexpr (A == apply_mode::action && requires { st.read_strict(in.current(), in.end()); }) {
            if (st.depth != 0 || rule_listener) return false;
            const std::size_t n = st.read_strict(in.current(), in.end());
            if (n == 0) return false;
            in.bump(n);
            return true;
        }
        return false;
    }
};

struct value : sor<strict_value, string_value, number, object, array, tuple, literal> {};

// One value with the whitespace and comments around it; what follows is the caller's.
struct padded_value : seq<ws, value, ws> {};

}  // namespace toolgram::grammar::lenient

namespace toolgram::grammar {
// Byte-level rules stay out of coverage counts (rule_listener.hpp): they fire for every
// character of a string, which a parse should not pay for, and the string rules above
// them already say what a value looked like.
template <> inline constexpr bool listened_rule<lenient::escape_sequence> = false;
template <> inline constexpr bool listened_rule<lenient::strict_value> = false;
template <> inline constexpr bool listened_rule<lenient::dq_char> = false;
template <> inline constexpr bool listened_rule<lenient::sq_char> = false;
template <> inline constexpr bool listened_rule<lenient::dq_plain> = false;
template <> inline constexpr bool listened_rule<lenient::sq_plain> = false;
}  // namespace toolgram::grammar

namespace tao::pegtl {
// For analyze<>: a run consumes at least one byte.
template <typename Name, char Quote>
struct analyze_traits<Name, toolgram::grammar::lenient::plain_run<Quote>> : analyze_any_traits<> {};
// For analyze<>: these look ahead or test the state, and consume nothing.
template <typename Name>
struct analyze_traits<Name, toolgram::grammar::lenient::python_only> : analyze_opt_traits<> {};
// For analyze<>: a strict value consumes at least one byte when it matches.
template <typename Name>
struct analyze_traits<Name, toolgram::grammar::lenient::strict_value> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, toolgram::grammar::lenient::block_closer_ahead> : analyze_opt_traits<> {};
template <typename Name>
struct analyze_traits<Name, toolgram::grammar::lenient::missing_item_comma> : analyze_opt_traits<> {};
// For analyze<>: the rest of a comment, possibly empty.
template <typename Name>
struct analyze_traits<Name, toolgram::grammar::lenient::comment_cut_off> : analyze_opt_traits<> {};
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
template <> inline constexpr const char* message<lenient::comment_body> = "unterminated comment";
}  // namespace toolgram::grammar::errors
