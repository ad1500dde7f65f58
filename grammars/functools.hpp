// FireFunction v2 and Phi-4-mini: a JSON list of calls straight after `functools`.
//
//    functools[{"name": "get_weather", "arguments": {"city": "Antwerp"}}, {…}]
//
// FireFunction puts a space before `functools` (it stays outside the block, as content
// whitespace); Phi-4-mini does not. There is no closer: the list ends the block, and a
// list cut by the end of output heals when only closers are missing. `functools` not
// followed by `[` is not a call.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::functools {
using namespace tao::pegtl;

struct open : seq<str<"functools">, at<one<'['>>> {};
struct block : json_block::open_block<open> {};

}  // namespace toolgram::grammar::functools
