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
// arguments are json_block's (grammars/common/json_block.hpp): Python-style dicts, a cut object,
// a cut-off `<|tool_call:end|>` (healed). The turn's framing around the section
// (`<|think|>…<|end|>`, `<|begin|>assistant`, `<|content|>`) is the profile's settings.
//
// Solar Open 2 writes each call with the name on the opener's line and named text
// arguments, as GLM does (grammars/glm45.hpp):
//
//   <|tool_call:start|>get_weather
//   <|tool_arg:start|>city<|tool_arg:value|>Seoul<|tool_arg:end|>
//   <|tool_call:end|>
//
// Values are text, typed from the schema later. A value ends at `<|tool_arg:end|>`, or at
// the next `<|tool_arg:start|>` or `<|tool_call:end|>` when its closer was left out, where
// the structure after it shows that is the end (grammars/common/param_value.hpp); the call's
// closer may be left out before the next call. Once the name stands, the call commits:
// anything but arguments before its closer is a rejected call. Its reasoning,
// `<|think:start|>…<|think:end|>` (the prompt opens it), is the profile's.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/json_block.hpp"
#include "common/params.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::solar_open {
using namespace tao::pegtl;

struct sp : star<space> {};

struct section_open : str<"<|tool_calls|>"> {};
struct calls_end : str<"<|calls|>"> {};
// The end of output closes a section as well as `<|calls|>` does (see above).
struct section_close : sor<calls_end, eof> {};

struct call_begin : str<"<|tool_call:begin|>"> {};
struct name_token : str<"<|tool_call:name|>"> {};
struct args_token : str<"<|tool_call:args|>"> {};
using call_end = literal<str<"<|tool_call:end|>">>;  // a Getter, not a rule

struct call_id : star<not_one<'<', '\r', '\n'>> {};  // may be empty: an id is then made
struct function_name : plus<not_one<'<', ' ', '\t', '\r', '\n'>> {};
struct call_header : seq<call_begin, sp, call_id, sp, name_token, sp, function_name, sp, args_token> {};
struct call : json_block::block<call_header, call_end> {};

// Solar Open 2.
struct v2_call_start : str<"<|tool_call:start|>"> {};
struct v2_call_end : str<"<|tool_call:end|>"> {};
struct arg_start : str<"<|tool_arg:start|>"> {};
struct arg_value : str<"<|tool_arg:value|>"> {};
struct arg_end : str<"<|tool_arg:end|>"> {};

struct arg_name : plus<not_one<'<', '\r', '\n'>> {};
struct argument_open : seq<arg_start, arg_name, arg_value> {};
// The name is the rest of the opener's line; what only a call can hold comes next, so
// prose that names the token ("<|tool_call:start|> marks a call") is declined.
struct v2_name : plus<not_one<'<', ' ', '\t', '\r', '\n'>> {};
struct v2_call_open : seq<v2_call_start, v2_name, params::ws, at<sor<arg_start, v2_call_end, eof>>> {};

struct v2_value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = argument_open;
    using close = arg_end;
    using call_close = v2_call_end;
    using call_next = v2_call_start;
    using open_spellings = params::spellings<str<"<|tool_arg:start|>">>;
    using close_spellings = params::spellings<str<"<|tool_arg:end|>">>;
    using call_close_spellings = params::spellings<str<"<|tool_call:end|>">>;
    using call_next_spellings = params::spellings<str<"<|tool_call:start|>">>;
    using nested = params::nested_list<params::nested<v2_call_open, params::spellings<str<"<|tool_call:start|>">>,
                                                      params::spellings<str<"<|tool_call:end|>">>>>;
};
struct v2_value_text : params::value<v2_value_syntax> {};
struct v2_argument : params::parameter<argument_open, v2_value_text, arg_end> {};
struct v2_call : params::committed_call<v2_call_open, v2_argument, v2_call_end, v2_call_start> {};

}  // namespace toolgram::grammar::solar_open

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<solar_open::v2_argument> =
    "<|tool_arg:start|>NAME<|tool_arg:value|>value<|tool_arg:end|> or <|tool_call:end|> expected";
}  // namespace toolgram::grammar::errors
