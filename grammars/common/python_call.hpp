// Python call syntax, shared by the bracket format and the pythonic model families:
//
//   get_weather(city="Antwerp", days=3)      ns.tool(flag=True, tags=['a', 'b'])
//
// Argument values are Python literals, read with the lenient value grammar (which knows
// single quotes, True/False/None, tuples, nesting). Keyword arguments only make sense for
// a tool call; a positional argument is matched so it can be reported, not guessed at.
// Once `name(` is seen the call commits: a malformed argument raises at its byte.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "common/lenient_value.hpp"

namespace toolgram::grammar::python_call {
using namespace tao::pegtl;
using lenient::ws;

struct function_name : list<identifier, one<'.'>> {};
struct call_start : seq<function_name, ws, one<'('>> {};  // lookahead only, under at<>

struct keyword : identifier {};
struct keyword_equals : one<'='> {};
struct keyword_argument : seq<keyword, ws, keyword_equals, ws, must<lenient::value>> {};
struct positional_slot : success {};
struct positional_argument : seq<positional_slot, lenient::value> {};
struct argument : sor<keyword_argument, positional_argument> {};

struct argument_end : sor<lenient::trailing_comma, seq<lenient::value_separator, ws>, at<one<')'>>, at<eof>> {};
struct arguments_open : one<'('> {};
struct arguments_close : one<')'> {};
struct arguments_end : sor<arguments_close, lenient::healed_end> {};
struct arguments_body : seq<ws, until<arguments_end, must<argument>, ws, must<argument_end>>> {};
struct call : seq<function_name, ws, arguments_open, lenient::depth_limited<arguments_body>> {};

// Where a call ends, found without reading its values: from the `(` after its name, the
// matching `)`, over brackets and Python string literals (either quote, tripled or not,
// backslash escapes; a prefix such as b'' or r'' is a letter before the quote). Null when
// there is none: a quote or bracket left open, a bracket closed by the wrong one, or
// nesting past `limit`.
template <typename ParseInput>
const char* call_extent(ParseInput& in, std::size_t limit) {
    const char* p = in.current();
    const char* const e = in.end();
    while (p < e && *p != '(') ++p;  // the name and blanks: `call` raises only after its `(`
    std::string expect(1, ')');
    for (p += p < e ? 1 : 0; p < e; ++p) {
        const char c = *p;
        if (c == '"' || c == '\'') {
            const bool triple = e - p >= 3 && p[1] == c && p[2] == c;
            p += triple ? 3 : 1;
            for (; p < e; ++p) {
                if (*p == '\\') {  // an escape: the next byte is text
                    if (++p >= e) break;
                    continue;
                }
                if (*p == c && (!triple || (e - p >= 3 && p[1] == c && p[2] == c))) break;
            }
            if (p >= e) break;
            if (triple) p += 2;
        } else if (c == '(' || c == '[' || c == '{') {
            if (expect.size() >= limit) return nullptr;
            expect.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
        } else if (c == ')' || c == ']' || c == '}') {
            if (c != expect.back()) return nullptr;
            expect.pop_back();
            if (expect.empty()) return p + 1;
        }
    }
    (void)in.size(static_cast<std::size_t>(e - in.current()) + 1);  // the answer waited on the end
    return nullptr;
}

// One call of a list (or a line), judged on its own: a call whose reading raises (a value
// no reader knows, `b'z'`) is skipped whole when the syntax around it is intact, its
// matching `)` found (call_extent) and `Follow` after it (`,` or `]` in a list), and the
// state records it as a broken call, with the error (`broken_call`), after undoing what
// the failed reading built (`checkpoint`, `rollback`). Anything else raises as before:
// a cut, a bracket left open, a missing separator sink the list, whose syntax is broken.
template <typename Follow>
struct alone {
    using rule_t = alone;
    using subs_t = type_list<call>;

    template <apply_mode A, rewind_mode, template <typename...> class Action, template <typename...> class Control,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const auto saved = st.checkpoint();
        // The call raised at `where` for `why`, and `in` is back at its name: skipped whole
        // when its syntax around it stands, else false (the raise stands).
        const auto skip = [&](const char* where, std::string_view why) {
            const char* begin = in.current();
            const char* end = call_extent(in, st.max_depth);
            if (!end) return false;
            auto m = in.template mark<rewind_mode::required>();
            in.bump(static_cast<std::size_t>(end - begin));
            if (!Control<at<Follow>>::template match<apply_mode::nothing, rewind_mode::required, Action, Control>(in, st))
                return m(false);
            st.rollback(saved);
            if constexpr (A == apply_mode::action) st.broken_call(begin, end, where, why);
            return m(true);
        };
        try {
            bool matched;
            {
                auto m = in.template mark<rewind_mode::required>();
                matched = m(Control<call>::template match<A, rewind_mode::required, Action, Control>(in, st));
            }
            if (!st.raised) return matched;
        } catch (const parse_error& e) {
            if (!skip(in.at(e.positions().front()), e.message())) throw;
            return true;
        }
        const auto raised = std::exchange(st.raised, {});
        if (skip(raised.at, raised.message)) return true;
        st.raised = raised;  // the call's raise stands
        return false;
    }
};

}  // namespace toolgram::grammar::python_call

namespace tao::pegtl {
template <typename Name, typename Follow>
struct analyze_traits<Name, toolgram::grammar::python_call::alone<Follow>>
    : analyze_seq_traits<toolgram::grammar::python_call::call> {};
}  // namespace tao::pegtl

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<python_call::argument> = "argument expected";
template <> inline constexpr const char* message<python_call::argument_end> = "',' or ')' expected";
}  // namespace toolgram::grammar::errors
