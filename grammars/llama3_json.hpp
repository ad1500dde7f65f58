// Llama 3.1 / 3.2 / 3.3 / 4 in JSON mode:
//
//   {"name": "get_weather", "parameters": {"city": "Paris"}}
//   <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}
//   {"name": "a", "parameters": {…}}; {"name": "b", "parameters": {…}}
//   Let me check. {"type": "function", "name": "get_weather", "parameters": {…}}
//   <|python_tag|>brave_search.call(query="Paris weather")          (Llama 3.1 built-in tools)
//
// A call object, optionally after `<|python_tag|>`; several calls joined by `;`; often
// the whole output, sometimes mid-prose. Without the tag the syntax has no marker of its
// own, so a bare object must *start* like a call (`{"name":` or `{"type":`) before it is
// read at all, and the reader then checks that it is one (a name and Llama's
// "parameters"; "arguments" too where the objects open the output); plain JSON in an
// answer is left alone. After the tag any object is
// taken as a call attempt. Objects are read with the lenient value grammar, so a call cut
// off with only closers missing heals, and one cut inside a value is refused.
//
// Llama 3.1's built-in tools (brave_search, wolfram_alpha, code_interpreter, and the
// `python` llama.cpp's template writes) are called the Python way after the tag: the tool
// is the name before `.call`, its arguments keyword arguments with Python literal values.
// Meta's own format; llama.cpp reads it under "Llama 3.x with builtin tools". One call,
// no list: the tag followed by raw code (code_interpreter's other form) stays text.
#pragma once

#include <tao/pegtl.hpp>

#include "common/lenient_value.hpp"
#include "common/python_call.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::llama3_json {
using namespace tao::pegtl;
using lenient::ws;

struct python_tag : str<"<|python_tag|>"> {};

// How a call object starts: `{"name":` or `{"type":` (lookahead only, under at<>).
struct head_key : sor<str<"\"name\"">, str<"\"type\"">> {};
struct call_head : seq<one<'{'>, ws, head_key, ws, one<':'>> {};

struct call_object : seq<at<one<'{'>>, lenient::value> {};
struct separator : seq<ws, one<';'>, ws> {};
struct next_call : seq<separator, at<call_head>, call_object> {};
struct trailing_separator : seq<ws, one<';'>> {};
struct calls : seq<call_object, star<next_call>, opt<trailing_separator>> {};

struct tagged : seq<python_tag, ws, calls> {};

// `NAME.call(k=v, …)` after the tag. `.call` is not part of the name, and a name with a
// namespace (`a.b.call(`) is no built-in call: the head is checked before anything is read.
struct builtin_name : identifier {};
struct builtin_suffix : str<".call"> {};
struct builtin_head : seq<identifier, builtin_suffix, ws, one<'('>> {};  // lookahead only, under at<>
struct builtin_call : seq<builtin_name, builtin_suffix, ws, python_call::arguments_open,
                          lenient::depth_limited<python_call::arguments_body>> {};
struct builtin : seq<python_tag, ws, at<builtin_head>, builtin_call> {};
struct bare : seq<at<call_head>, calls> {};
struct block : sor<tagged, bare> {};

}  // namespace toolgram::grammar::llama3_json
