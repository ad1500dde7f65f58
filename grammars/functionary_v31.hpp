// Functionary v3.1, and Llama 3.1's function tags:
//
//   <function=get_weather>{"city": "Paris"}</function>
//
// One element per call, the name in the opening tag, the arguments a JSON object (a
// json_block, so whitespace, a fence, a cut-off closer and stray text are handled there).
// qwen3_coder also opens calls with `<function=NAME>` but puts `<parameter=K>` inside:
// a payload that is not JSON is not this family's, and the other reader gets its turn.
#pragma once

#include <tao/pegtl.hpp>

#include "json_block.hpp"

namespace toolgram::grammar::functionary_v31 {
using namespace tao::pegtl;

struct function_name : plus<not_one<'>', '<', '\n', '\r'>> {};
struct call_header : seq<TAO_PEGTL_STRING("<function="), function_name, one<'>'>> {};
using call_end = literal<TAO_PEGTL_STRING("</function>")>;  // a Getter, not a rule
struct call : json_block::block<call_header, call_end> {};

}  // namespace toolgram::grammar::functionary_v31
