// LongCat-Flash: hermes' JSON call object inside LongCat's own tags.
//
//   <longcat_tool_call>
//   {"name": "get_weather", "arguments": {"city": "Antwerp"}}
//   </longcat_tool_call>
//
// One block per call; prose may come before and between; LongCat-Flash-Thinking reasons in
// <longcat_think>…</longcat_think> first (a profile setting). A json_block, so fences
// inside the tags, a closer cut off at the end and stray text before the closer are
// handled there.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::longcat {

struct open : str<"<longcat_tool_call>"> {};
using close = literal<str<"</longcat_tool_call>">>;  // a Getter, not a rule
struct block : json_block::block<open, close> {};

}  // namespace toolgram::grammar::longcat
