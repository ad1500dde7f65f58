// PLaMo 3 (Preferred Networks): calls in a tool-requests section, each call's name and
// JSON arguments behind tokens of their own.
//
//   <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"city": "Tokyo"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>
//
// As vLLM's `plamo3` parser and SGLang's plamo3 detector read it. The tokens are not
// single vocabulary entries (each encodes as several), so a model may break them only as
// it breaks any text; both engines take the spellings above exactly. Whitespace between
// two tokens of a call is layout (SGLang's reading; vLLM wants none, and refuses nothing
// toolgram reads here that it would read differently). `<|plamo:constrain|>json` and
// `<|plamo:msg|>` before the arguments are each optional (SGLang drops whatever stands
// before `<|plamo:msg|>`; vLLM writes both). Empty arguments are `{}` (SGLang). Calls
// written without the section are read too (SGLang's `has_tool_call`). The arguments are
// json_block's (grammars/common/json_block.hpp): Python-style dicts and a cut object are repairs,
// `<|plamo:end_tool_arguments:plamo|>` cut off at the end of output is healed. The
// request's own closer `<|plamo:end_tool_request:plamo|>` follows the arguments' closer
// (src/actions/plamo3.cpp checks it). Reasoning (`<|plamo:begin_think:plamo|>` …
// `<|plamo:end_think:plamo|>`) and the end of turn (`<|plamo:tag|>`) are the profile's.
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::plamo3 {
using namespace tao::pegtl;

struct sp : star<space> {};

struct section_open : str<"<|plamo:begin_tool_requests:plamo|>"> {};
// The section's closer, or a part of it where the output ends (its calls were complete).
struct section_close
    : sor<str<"<|plamo:end_tool_requests:plamo|>">,
          literal_prefix_at_end<literal<str<"<|plamo:end_tool_requests:plamo|>">>>> {};

struct request_begin : str<"<|plamo:begin_tool_request:plamo|>"> {};
struct request_end : str<"<|plamo:end_tool_request:plamo|>"> {};
struct name_begin : str<"<|plamo:begin_tool_name:plamo|>"> {};
struct name_end : str<"<|plamo:end_tool_name:plamo|>"> {};
struct arguments_begin : str<"<|plamo:begin_tool_arguments:plamo|>"> {};
struct constrain_json : str<"<|plamo:constrain|>json"> {};
struct msg : str<"<|plamo:msg|>"> {};
struct arguments_end : str<"<|plamo:end_tool_arguments:plamo|>"> {};
using arguments_closer = literal<str<"<|plamo:end_tool_arguments:plamo|>">>;  // a Getter, not a rule

// Everything between the name's tokens on one line; surrounding blanks are layout
// (trimmed by the reader), so a name cannot run into the next token.
struct function_name : plus<not_one<'<', '\r', '\n'>> {};
struct call_header
    : seq<request_begin, sp, name_begin, sp, function_name, name_end, sp, arguments_begin, sp,
          opt<constrain_json, sp>, opt<msg>> {};
// `<|plamo:msg|><|plamo:end_tool_arguments:plamo|>`: a call with no arguments.
struct empty_arguments : seq<sp, arguments_end> {};
struct call : sor<json_block::block<call_header, arguments_closer>, seq<call_header, empty_arguments>> {};

}  // namespace toolgram::grammar::plamo3
