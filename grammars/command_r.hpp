// Command R7B and Command A, and Command R+'s older form.
//
//   <|START_ACTION|>[
//       {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Antwerp"}}
//   ]<|END_ACTION|>
//
//   Action: ```json                                                     (Command R+)
//   [
//       {"tool_name": "get_weather", "parameters": {"city": "Antwerp"}}
//   ]
//   ```
//
// The action block is a json_block (a cut-off <|END_ACTION|> heals, stray text, missing
// closer). Command R+'s `Action:` must be followed by a fenced JSON payload; `Action: NAME`
// (ReAct) is left to the text_kv grammar, which shares the label. Reasoning
// (<|START_THINKING|>…<|END_THINKING|>) and the response tokens are profile settings.
#pragma once

#include "common/fence.hpp"
#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::command_r {
using namespace tao::pegtl;

struct action_open : str<"<|START_ACTION|>"> {};
using action_close = literal<str<"<|END_ACTION|>">>;  // a Getter, not a rule
struct action_block : json_block::block<action_open, action_close> {};

struct plus_label : str<"Action:"> {};
struct plus_fence_open : fence::open {};  // the fence is R+'s syntax here, not a repair
struct plus_block
    : seq<plus_label, star<space>, plus_fence_open, lenient::ws, json_block::payload, lenient::ws, opt<fence::close>> {};

struct block : sor<action_block, plus_block> {};

}  // namespace toolgram::grammar::command_r
