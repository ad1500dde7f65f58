// InternLM 2.5 and Intern-S1: a plugin action holding one JSON call object.
//
//   <|action_start|><|plugin|>
//   {"name": "get_weather", "parameters": {"city": "Antwerp"}}<|action_end|>
//
// The arguments are under `parameters` (the shared key aliases read it). Some versions
// put a space (or a newline) after <|action_start|>. An action for another executor
// (<|action_start|><|interpreter|> with Python code) is not a tool call and is declined.
// The rest is json_block's: fences, a cut-off <|action_end|>, stray text, a missing closer.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::internlm {
using namespace tao::pegtl;

struct action_start : str<"<|action_start|>"> {};
struct plugin : str<"<|plugin|>"> {};
struct open : seq<action_start, star<space>, plugin> {};
using close = literal<str<"<|action_end|>">>;  // a Getter, not a rule
struct block : json_block::block<open, close> {};

}  // namespace toolgram::grammar::internlm
