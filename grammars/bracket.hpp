// The bracket (function-call) format: a Python list of calls, or one bare call.
//
//   [get_weather(city="Antwerp")]
//   [f(a=1, b='x'), g()]
//   get_weather(city="Antwerp")          (bare: only when it is the whole output)
//
// A list commits only once `[name(` is seen, so Markdown links, citations and literal
// lists in prose are not blocks. A list cut off at the end heals its missing `)` and `]`.
#pragma once

#include <tao/pegtl.hpp>

#include "common/lenient_value.hpp"
#include "common/python_call.hpp"

namespace toolgram::grammar::bracket {
using namespace tao::pegtl;
using lenient::ws;

struct call_separator : sor<lenient::trailing_comma, seq<lenient::value_separator, ws>, at<one<']'>>, at<eof>> {};
struct list_close : one<']'> {};
struct list_cut_off : eof {};  // the list's `]` was cut off: healed (no value to close)
struct list_end : sor<list_close, list_cut_off> {};
// A call of the list, judged on its own when its reading breaks but its `)` is followed
// by `,` or `]`: one unreadable value loses that call, not its siblings.
struct list_call_follow : seq<ws, one<',', ']'>> {};
struct list_call : python_call::alone<list_call_follow> {};
struct call_list : seq<one<'['>, ws, at<python_call::call_start>,
                       until<list_end, must<list_call>, ws, must<call_separator>>> {};

struct bare_call : seq<at<python_call::call_start>, python_call::call> {};
struct trailing_text : plus<any> {};
struct whole_output : seq<ws, sor<call_list, bare_call>, ws, opt<trailing_text>> {};

}  // namespace toolgram::grammar::bracket

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<python_call::call> = "a call name(…) expected";
template <> inline constexpr const char* message<bracket::list_call> = "a call name(…) expected";
template <> inline constexpr const char* message<bracket::call_separator> = "',' or ']' expected";
}  // namespace toolgram::grammar::errors
