// GigaChat 3 and GigaChat 3.1: one call per assistant turn, a JSON call object after a
// header that differs between the two.
//
//   GigaChat 3    <|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", "arguments": {"city": "Paris"}}
//   GigaChat 3.1  <|function_call|>{"name": "get_weather", "arguments": {"city": "Paris"}}
//
// GigaChat 3's chat template makes the call a message of its own, under the role
// `function call`: the assistant's text ends with `<|message_sep|>`, the role's name and
// `<|role_sep|>` follow, then the object. GigaChat 3.1 writes a `<|function_call|>` token
// instead. Neither has a closer: the object ends the block, and the turn's end
// (`<|message_sep|>`, or the `</s>` EOS when special tokens are kept) is taken with it.
// The role header is read without the `<|message_sep|>` before it too (vLLM and SGLang
// read it so). A header followed by anything but JSON is a mention in prose. The object
// is json_block's (grammars/common/json_block.hpp): fences, Python-style JSON, a cut object.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::gigachat {
using namespace tao::pegtl;

struct message_sep : str<"<|message_sep|>"> {};
struct role_sep : str<"<|role_sep|>"> {};
struct function_call_role : str<"function call"> {};
// GigaChat 3: the `function call` role's header, after the turn that ended before it.
struct role_header : seq<function_call_role, star<blank>, role_sep> {};
struct message_header : seq<message_sep, star<space>, role_header> {};
// GigaChat 3.1: a token of its own.
struct function_call_token : str<"<|function_call|>"> {};
struct open : sor<function_call_token, message_header, role_header> {};

struct eos : str<"</s>"> {};
struct turn_end : sor<message_sep, eos> {};
struct block : seq<json_block::open_block<open>, star<turn_end, json_block::ws>> {};

}  // namespace toolgram::grammar::gigachat
