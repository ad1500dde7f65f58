// Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral:
//
//   [TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2c3d4e"}]   (old)
//   [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}                                           (new)
//   [TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}
//
// The new forms repeat `[TOOL_CALLS]` for each call. No closer: the payload ends the block
// (json_block's open_block), read with the lenient value grammar, so `]` and `[` inside
// JSON strings end nothing. The old form's list is read as call objects (their "id" is
// the call's id); in the new forms the header names the call and carries the id.
// Reasoning is `[THINK]…[/THINK]` (a profile setting).
#pragma once

#include <tao/pegtl.hpp>

#include "json_block.hpp"

namespace toolgram::grammar::mistral {
using namespace tao::pegtl;

struct sp : star<blank> {};

struct tool_calls : TAO_PEGTL_STRING("[TOOL_CALLS]") {};
struct call_id_token : TAO_PEGTL_STRING("[CALL_ID]") {};
struct args_token : TAO_PEGTL_STRING("[ARGS]") {};

struct function_name : plus<not_one<'[', ']', '{', '}', '"', '\'', '`', ' ', '\t', '\r', '\n'>> {};
struct call_id : plus<not_one<'[', ']', ' ', '\t', '\r', '\n'>> {};
struct call_header : seq<function_name, sp, opt<call_id_token, sp, call_id, sp>, args_token> {};
struct header : seq<tool_calls, sp, opt<call_header>> {};
struct named_header : seq<tool_calls, sp, call_header> {};  // the new forms' header alone
struct block : json_block::open_block<header> {};

}  // namespace toolgram::grammar::mistral
