// Jamba 1.5, Hunyuan-A13B, Apriel, MiniMax-M1: calls as JSON between <tool_calls> tags.
//
//   <tool_calls>[{"name": "get_weather", "arguments": {"city": "Antwerp"}}, {…}]</tool_calls>
//
//   <tool_calls>                                                     (MiniMax-M1)
//   {"name": "get_weather", "arguments": {"city": "Antwerp"}}
//   {"name": "search_web", "arguments": {"query": "Antwerp events"}}
//   </tool_calls>
//
// Either one list or one JSON value a line (`call_lines`: values separated by whitespace),
// each read on its own, so one broken line does not sink the calls before it, nor those on
// the lines after it (json_block's further_value reads on at the next line opening a value
// in its first column; vLLM's minimax parser tests keep both neighbours of a broken line).
// A broken first value still refuses the block whole. The rest is
// json_block's: a fenced payload, a closer cut off at the end (healed), stray text before
// the closer, a missing closer.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::jamba {
using namespace tao::pegtl;

struct open : str<"<tool_calls>"> {};
using close = literal<str<"</tool_calls>">>;  // a Getter, not a rule

struct call_lines : seq<json_block::payload, star<lenient::ws, json_block::further_value>> {};
struct body : seq<lenient::ws, sor<json_block::fenced_payload, call_lines>, lenient::ws> {};
struct block : seq<open, body, json_block::end<close>> {};

}  // namespace toolgram::grammar::jamba
