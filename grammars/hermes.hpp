// Hermes 2 Pro / 3, Qwen2.5, Qwen3, QwQ, ERNIE 4.5, EXAONE, Granite 4:
//
//   <tool_call>
//   {"name": "get_weather", "arguments": {"city": "Antwerp"}}
//   </tool_call>
//
// One block per call, prose may come before and between. A json_block; the payload must
// be a call object (or a list of them), so a `<tool_call>` holding `<function=…>` is left
// to qwen3_coder and one holding `NAME\n<arg_key>` to glm45.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::hermes {

struct open : str<"<tool_call>"> {};
using close = literal<str<"</tool_call>">>;  // a Getter, not a rule
struct block : json_block::block<open, close> {};

}  // namespace toolgram::grammar::hermes
