// DeepSeek R1, R1-0528, V3-0324:
//
//   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
//   ```json
//   {"city": "Paris"}
//   ```<｜tool▁call▁end｜>
//   <｜tool▁call▁begin｜>function<｜tool▁sep｜>…<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// The tokens use the full-width bar ｜ (U+FF5C) and ▁ (U+2581). The section opener is
// also seen misspelt: `<｜tool_calls_begin｜>`, `<｜tool calls begin｜>`, `<｜tool\_calls\_begin｜>`,
// `<｜tool▁calls｜>`. Inside a section the `<｜tool▁call▁begin｜>` of a call is sometimes
// left out. The ```json fence is part of the syntax (no repair is reported for it); a
// payload without it is read too. The call type before the separator is always
// `function`: that is what tells an R1 call from a V3.1 one (`NAME<｜tool▁sep｜>{…}`,
// grammars/deepseek_v31.hpp), which shares the section tokens. R1 outputs often start
// inside reasoning and end it with `</think>`: the core's headless reasoning rule.
#pragma once

#include <tao/pegtl.hpp>

#include "common/fence.hpp"
#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::deepseek_r1 {
using namespace tao::pegtl;

struct sp : star<space> {};

struct section_open : sor<str<"<｜tool▁calls▁begin｜>">, str<"<｜tool_calls_begin｜>">,
                          str<"<｜tool calls begin｜>">, str<"<｜tool\\_calls\\_begin｜>">,
                          str<"<｜tool▁calls｜>">> {};
struct section_close : sor<str<"<｜tool▁calls▁end｜>">, str<"<｜tool_calls_end｜>">,
                           str<"<｜tool calls end｜>">, str<"<｜tool\\_calls\\_end｜>">> {};

struct call_begin : str<"<｜tool▁call▁begin｜>"> {};
struct separator : str<"<｜tool▁sep｜>"> {};
using call_end = literal<str<"<｜tool▁call▁end｜>">>;  // a Getter, not a rule

struct call_type : str<"function"> {};
struct function_name : plus<not_one<'\n', '\r', '<', '`', '{'>> {};
struct call_header : seq<opt<call_begin>, sp, call_type, sp, separator, sp, function_name> {};
struct code_fence_open : fence::open {};
struct code_fence_close : fence::close {};
struct call_opening : seq<call_header, sp, opt<code_fence_open>> {};
struct call : seq<call_opening, json_block::body, opt<code_fence_close, sp>, json_block::end<call_end>> {};

}  // namespace toolgram::grammar::deepseek_r1
