// The strict JSON format: the whole trimmed output is one JSON value.
//
//   {"tool": "get_weather", "arguments": {"city": "Antwerp"}}
//   [{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]
//   {"tool_calls": [ … ]}
//   {"type": "function", "function": {"name": …, "arguments": "{\"city\": …}"}}
//
// "Strict" names where the JSON must stand (alone), not how it is spelt: the payload is
// read with the lenient value grammar like every other payload, and a ``` fence around
// the whole answer is tolerated. Text after the value is ignored and reported.
#pragma once

#include <tao/pegtl.hpp>

#include "common/fence.hpp"
#include "common/lenient_value.hpp"

namespace toolgram::grammar::strict_json {
using namespace tao::pegtl;
using lenient::ws;

struct payload : seq<at<one<'{', '['>>, lenient::value> {};
struct fence_open : fence::open {};
struct fence_close : fence::close {};
struct trailing_text : plus<any> {};
struct document : seq<ws, opt<fence_open, ws>, payload, ws, opt<fence_close, ws>, opt<trailing_text>> {};

}  // namespace toolgram::grammar::strict_json
