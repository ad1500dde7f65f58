// Kimi K2, K2-Thinking:
//
//   <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>
//
// Several calls stand in one section, each `<|tool_call_begin|>…<|tool_call_end|>`. The
// call reference `functions.NAME:IDX` is the call's id; the name is what stands between
// the namespace and the index. Quirks handled: whitespace (and newlines) between any two
// tokens; section markers missing (calls written bare), or spelt `tool_call_section`;
// a reference without the `functions.` namespace or without the index; the closers cut
// off at the end of output (json_block's healing); a bare counter in place of the
// reference (`<|tool_call_begin|>0 <|tool_call_argument_begin|>`, which vLLM's kimi_k2
// parser tests read), which names no tool: the reader infers it from the arguments only
// where exactly one declared tool fits them. A call after reasoning that was never
// closed is the profile's `reasoning_ends_at_call`, not the grammar's.
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::kimi_k2 {
using namespace tao::pegtl;

struct sp : star<space> {};

struct section_open
    : sor<str<"<|tool_calls_section_begin|>">, str<"<|tool_call_section_begin|>">> {};
struct section_close
    : sor<str<"<|tool_calls_section_end|>">, str<"<|tool_call_section_end|>">> {};

struct call_begin : str<"<|tool_call_begin|>"> {};
struct argument_begin : str<"<|tool_call_argument_begin|>"> {};
using call_end = literal<str<"<|tool_call_end|>">>;  // a Getter, not a rule

struct namespace_prefix : str<"functions."> {};
struct function_name : plus<not_one<':', '<', ' ', '\t', '\r', '\n'>> {};
struct call_index : plus<digit> {};
// Digits alone up to the arguments' token: a counter, not a name (no tool is named `0`).
struct bare_counter : seq<plus<digit>, at<sp, argument_begin>> {};
struct call_ref : sor<bare_counter, seq<opt<namespace_prefix>, function_name, opt<one<':'>, call_index>>> {};
struct call_header : seq<call_begin, sp, call_ref, sp, argument_begin> {};
struct call : json_block::block<call_header, call_end> {};

}  // namespace toolgram::grammar::kimi_k2
