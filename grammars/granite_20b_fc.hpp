// granite-20b-functioncalling: each call a JSON object after its own <function_call>
// token, with no closer.
//
//   <function_call> {"name": "get_weather", "arguments": {"city": "Antwerp"}} <function_call> {"name": …}
//
// The object ends the block; the next `<function_call>` opens the next. A
// `</function_call>` that a model adds straight after the object is part of the block. A
// `<function_call>` followed by anything but JSON is a mention in prose. (The xml grammar
// declines unclosed `<function_call>` elements with a JSON body, so `auto` reaches this
// one.)
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::granite_20b_fc {
using namespace tao::pegtl;

struct open : str<"<function_call>"> {};
struct close : str<"</function_call>"> {};
struct block : seq<json_block::open_block<open>, opt<close>> {};

}  // namespace toolgram::grammar::granite_20b_fc
