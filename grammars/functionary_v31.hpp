// Functionary v3.1, and Llama 3.1's function tags:
//
//   <function=get_weather>{"city": "Paris"}</function>
//   <function name="get_weather">{"city": "Paris"}</function>
//
// One element per call, the name in the opening tag (after `=`, or as its name
// attribute: Hermes 2 Pro's legacy form, which llama.cpp reads too), the arguments a JSON
// object (a json_block, so whitespace, a fence, a cut-off closer and stray text are
// handled there). qwen3_coder also opens calls with `<function=NAME>`, and MiniCPM 5 with
// `<function name="NAME">`, but both put parameters inside: a payload that is not JSON is
// not this family's, and the other reader gets its turn.
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/params.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::functionary_v31 {
using namespace tao::pegtl;

struct function_name : plus<not_one<'>', '<', '\n', '\r'>> {};
struct name_header : seq<str<"<function=">, function_name, one<'>'>> {};
struct tag_start : str<"<function"> {};
struct attribute_header : params::attribute_open<tag_start> {};  // <function name="NAME" …>
struct call_header : sor<name_header, attribute_header> {};
using call_end = literal<str<"</function>">>;  // a Getter, not a rule
struct call : json_block::block<call_header, call_end> {};

}  // namespace toolgram::grammar::functionary_v31
