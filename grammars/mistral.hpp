// Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral:
//
//   [TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2c3d4e"}]   (old)
//   [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}                                           (new)
//   [TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}
//   [TOOL_CALLS]get_weather{"city": "Paris"}                                                 (v11+, stripped)
//
// The new forms repeat `[TOOL_CALLS]` for each call. The last is what tokenizer v11+
// models (Small 3.x, Magistral, Devstral) leave where the engine strips special tokens
// but `[TOOL_CALLS]` ([ARGS] and [CALL_ID] are special tokens too; vLLM's mistral parser
// tests read it so): the name runs up to the arguments' `{`, which must follow it
// directly. Where [CALL_ID] was stripped as well, the call id is fused to the name
// (`get_weatherA1b2C3d4E{…}`); the reader splits it only where the tool list decides. No closer: the payload ends the block
// (json_block's open_block), read with the lenient value grammar, so `]` and `[` inside
// JSON strings end nothing. The old form's list is read as call objects (their "id" is
// the call's id); in the new forms the header names the call and carries the id.
// Reasoning is `[THINK]…[/THINK]` (a profile setting).
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::mistral {
using namespace tao::pegtl;

struct sp : star<blank> {};

struct tool_calls : str<"[TOOL_CALLS]"> {};
struct call_id_token : str<"[CALL_ID]"> {};
struct args_token : str<"[ARGS]"> {};

struct function_name : plus<not_one<'[', ']', '{', '}', '"', '\'', '`', ' ', '\t', '\r', '\n'>> {};
struct call_id : plus<not_one<'[', ']', ' ', '\t', '\r', '\n'>> {};
struct args_form : seq<sp, opt<call_id_token, sp, call_id, sp>, args_token> {};
struct bare_args : at<one<'{'>> {};  // [ARGS] stripped: the arguments follow the name directly
struct call_header : seq<function_name, sor<args_form, bare_args>> {};
// A header the output ends after (`[TOOL_CALLS]get_weather`, `…[CALL_ID]a1b2c3d4e`): a
// call cut before its arguments.
struct cut_header : seq<tool_calls, sp, function_name, sp, opt<call_id_token, sp, opt<call_id>, sp>, opt<args_token>> {};
struct header : seq<tool_calls, sp, opt<call_header>> {};
struct named_header : seq<tool_calls, sp, call_header> {};  // the new forms' header alone
struct block : json_block::open_block<header> {};

}  // namespace toolgram::grammar::mistral
