// The pythonic families: Llama 3.2 / 4 pythonic, ToolACE, LFM2, Olmo 3.
//
//   [get_weather(city='Paris', days=3), search_web(query="x")]            Llama 3.2, ToolACE
//   <|python_start|>[get_weather(city='Paris')]<|python_end|>              Llama 4
//   <|tool_call_start|>[get_weather(city='Paris')]<|tool_call_end|>        LFM2
//   <function_calls>
//   get_weather(city="Paris")
//   search_web(query="x")
//   </function_calls>                                                      Olmo 3, one call a line
//
// Calls are python_call's; the list is bracket's call_list (a list commits only once
// `[name(` is seen, so Markdown links and literal lists are not calls). Inside a wrapper
// the calls may be a list or bare calls one after another (Olmo's lines; LFM2 and Llama 4
// also drop the brackets at times). A wrapper whose closer was cut off heals; one whose
// closer never comes ends with its calls; a wrapper that holds no call is a mention and
// not syntax. The bare list has no marker of its own: `auto` reaches it through the
// bracket fallback (the same syntax), and runs only the wrapped forms (`wrapped`) as
// primaries.
#pragma once

#include <tao/pegtl.hpp>

#include "bracket.hpp"
#include "common/lenient_value.hpp"
#include "common/python_call.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::pythonic {
using namespace tao::pegtl;
using lenient::ws;

// Bare calls one after another (whitespace or newlines between): Olmo 3's lines. A line
// whose call cannot be read is judged on its own when the line ends at its `)`.
struct line_call_follow : seq<star<one<' ', '\t'>>, sor<one<'\r', '\n', '<'>, eof>> {};
struct bare_call : seq<at<python_call::call_start>, python_call::alone<line_call_follow>> {};
struct call_lines : seq<bare_call, star<ws, bare_call>> {};
struct calls : sor<bracket::call_list, call_lines> {};

struct end_cut_off : eof {};          // the output ended where the closer was due: healed
struct missing_end_tag : success {};  // no closer: the wrapper ends with its calls
template <typename Close>
struct end : sor<runtime_literal<Close>, end_cut_off, missing_end_tag> {};

template <typename Open, typename Close>
struct wrapper : seq<Open, ws, calls, ws, end<Close>> {};

struct llama4_open : str<"<|python_start|>"> {};
using llama4_close = literal<str<"<|python_end|>">>;  // a Getter, not a rule
struct llama4_block : wrapper<llama4_open, llama4_close> {};

struct lfm2_open : str<"<|tool_call_start|>"> {};
using lfm2_close = literal<str<"<|tool_call_end|>">>;
struct lfm2_block : wrapper<lfm2_open, lfm2_close> {};

struct olmo_open : str<"<function_calls>"> {};
using olmo_close = literal<str<"</function_calls>">>;
struct olmo_block : wrapper<olmo_open, olmo_close> {};

// The forms with a marker of their own, and every form.
struct wrapped : sor<llama4_block, lfm2_block, olmo_block> {};
struct block : sor<wrapped, bracket::call_list> {};

}  // namespace toolgram::grammar::pythonic
