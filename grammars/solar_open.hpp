// Upstage Solar Open (100B): calls in a `<|tool_calls|>` section, each with its id, name and
// JSON arguments behind tokens of their own.
//
//   <|tool_calls|><|tool_call:begin|>a1b2c3d4e5<|tool_call:name|>get_weather<|tool_call:args|>{"city": "Seoul"}<|tool_call:end|><|calls|>
//
// The id is the model's own (kept as the call's id); several calls follow one another in
// the section. `<|calls|>` ends it, but it is the token that ends the turn and servers
// usually strip it, so a section that runs to the end of output is complete, not cut; a
// section followed by more text without it is reported. Calls written without the section
// token are read too (vLLM's parser gets them so from its reasoning parser). The
// arguments are json_block's (grammars/json_block.hpp): Python-style dicts, a cut object,
// a cut-off `<|tool_call:end|>` (healed). The turn's framing around the section
// (`<|think|>…<|end|>`, `<|begin|>assistant`, `<|content|>`) is the profile's settings.
#pragma once

#include <tao/pegtl.hpp>

#include "json_block.hpp"

namespace toolgram::grammar::solar_open {
using namespace tao::pegtl;

struct sp : star<space> {};

struct section_open : TAO_PEGTL_STRING("<|tool_calls|>") {};
struct calls_end : TAO_PEGTL_STRING("<|calls|>") {};
// The end of output closes a section as well as `<|calls|>` does (see above).
struct section_close : sor<calls_end, eof> {};

struct call_begin : TAO_PEGTL_STRING("<|tool_call:begin|>") {};
struct name_token : TAO_PEGTL_STRING("<|tool_call:name|>") {};
struct args_token : TAO_PEGTL_STRING("<|tool_call:args|>") {};
using call_end = literal<TAO_PEGTL_STRING("<|tool_call:end|>")>;  // a Getter, not a rule

struct call_id : star<not_one<'<', '\r', '\n'>> {};  // may be empty: an id is then made
struct function_name : plus<not_one<'<', ' ', '\t', '\r', '\n'>> {};
struct call_header : seq<call_begin, sp, call_id, sp, name_token, sp, function_name, sp, args_token> {};
struct call : json_block::block<call_header, call_end> {};

}  // namespace toolgram::grammar::solar_open
