// xLAM (Salesforce):
//
//   [{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": …, "arguments": …}]
//   ```json
//   [{"name": "get_weather", "arguments": {"city": "Paris"}}]
//   ```
//   <think>…</think>[{"name": …, "arguments": …}]
//   [TOOL_CALLS][{"name": …, "arguments": …}]
//   <tool_call>[{"name": …, "arguments": …}]</tool_call>
//   {"tool_calls": [{"name": …, "arguments": …}]}                      (xLAM-1)
//
// A bare JSON array of call objects: no marker of its own, so an array is read only when
// it starts like one (`[{`) and its first element is a call; an array of anything else is
// plain JSON in an answer. Fences and reasoning are the combinator's (a fence that only
// wraps the calls goes with them; a fence introduced as an example is not a call).
// `[TOOL_CALLS]` is taken only when a JSON array follows it (Mistral's `NAME[ARGS]` form
// is not this family's). Inside `<tool_call>…</tool_call>` the payload is tool syntax
// whatever it holds; the wrapper left empty (no call) is syntax holding none
// (src/readers/unreadable_syntax.cpp), removed from content. The payload is json_block's: lenient JSON, healed when only
// closers are missing at the end of output, refused when a value was cut.
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::xlam {
using namespace tao::pegtl;
using lenient::ws;

struct array_head : seq<one<'['>, ws, one<'{'>> {};
struct array_block : seq<at<array_head>, json_block::payload> {};

struct tool_calls_object_head : seq<one<'{'>, ws, str<"\"tool_calls\"">, ws, one<':'>> {};
struct tool_calls_object : seq<at<tool_calls_object_head>, json_block::payload> {};

struct tool_calls_open : seq<str<"[TOOL_CALLS]">, ws, at<one<'['>>> {};
struct tool_calls_block : json_block::open_block<tool_calls_open> {};

struct tag_open : str<"<tool_call>"> {};
using tag_close = literal<str<"</tool_call>">>;  // a Getter, not a rule
struct tag_block : json_block::block<tag_open, tag_close> {};

struct block : sor<tool_calls_block, tag_block, array_block, tool_calls_object> {};

}  // namespace toolgram::grammar::xlam
