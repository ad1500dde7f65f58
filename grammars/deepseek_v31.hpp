// DeepSeek V3.1:
//
//   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// The section tokens are R1's (grammars/deepseek_r1.hpp), misspellings included; the
// call is the name, the separator, and the arguments object. A call whose payload is not
// a JSON object straight after the separator (R1's `function<｜tool▁sep｜>NAME\n```json`)
// is not this family's. Inside a section `<｜tool▁call▁begin｜>` is sometimes left out;
// a ```json fence around the arguments is tolerated (and reported) as in any json_block.
#pragma once

#include <tao/pegtl.hpp>

#include "deepseek_r1.hpp"
#include "common/json_block.hpp"

namespace toolgram::grammar::deepseek_v31 {
using namespace tao::pegtl;

struct sp : star<space> {};

struct section_open : deepseek_r1::section_open {};
struct section_close : deepseek_r1::section_close {};
struct call_begin : deepseek_r1::call_begin {};
struct separator : deepseek_r1::separator {};
using call_end = deepseek_r1::call_end;

struct function_name : plus<not_one<'\n', '\r', '<', '`', '{'>> {};
struct call_header : seq<opt<call_begin>, sp, function_name, separator> {};
struct call : seq<call_header, json_block::body, json_block::end<call_end>> {};

}  // namespace toolgram::grammar::deepseek_v31
