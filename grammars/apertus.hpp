// Apertus (Swiss AI):
//
//   <|tools_prefix|>[{"get_weather": {"city": "Paris"}}, {"search_web": {"query": "x"}}]<|tools_suffix|>
//
// A json_block between <|tools_prefix|> and <|tools_suffix|> whose payload names each
// call by its key: `{NAME: ARGS}`, one object per call in a list (a lone object is taken
// too). The payload interpreter is the reader's; fences, a cut-off closer (healed), stray
// text before the closer, and a missing closer are json_block's. Reasoning is
// <|inner_prefix|>…<|inner_suffix|>.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::apertus {

struct open : str<"<|tools_prefix|>"> {};
using close = literal<str<"<|tools_suffix|>">>;  // a Getter, not a rule
struct block : json_block::block<open, close> {};

}  // namespace toolgram::grammar::apertus
