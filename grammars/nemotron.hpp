// Nemotron Nano v2: a JSON list of calls between <TOOLCALL> tags, after <think> reasoning.
//
//   <TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Antwerp"}}]</TOOLCALL>
//
// Several calls share one list. A json_block: fences, a cut-off closer, stray text before
// the closer and a missing closer are handled there.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::nemotron {

struct open : str<"<TOOLCALL>"> {};
using close = literal<str<"</TOOLCALL>">>;  // a Getter, not a rule
struct block : json_block::block<open, close> {};

}  // namespace toolgram::grammar::nemotron
