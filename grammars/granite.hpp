// Granite 3.0 / 3.1: a JSON list of calls after a tool-call token, with no closer.
//
//   <|tool_call|>[{"name": "get_weather", "arguments": {"city": "Antwerp"}}]     (3.0)
//   <tool_call>[{"name": "get_weather", "arguments": {"city": "Antwerp"}}]       (3.1)
//
// The list ends the block. `<tool_call>` is also hermes', qwen3_coder's and glm45's opener,
// so after it only a JSON list is granite's (an object is hermes'; `<function=` and
// `NAME\n<arg_key>` are the others'); after the 3.0 token, which is granite's alone, a
// single call object is taken too. A `</tool_call>` that a model adds after the list is
// part of the block, and so is the `<|/tool_call|>` that closes each call object in
// llama.cpp's own Phi-4-mini template (`<|tool_call|>{…}<|/tool_call|>`, one pair a
// call). Truncation heals inside the list (lenient::value) when only closers are missing.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::granite {
using namespace tao::pegtl;

struct token_open : str<"<|tool_call|>"> {};
struct tag_open : str<"<tool_call>"> {};
struct tag_close : str<"</tool_call>"> {};
struct token_close : str<"<|/tool_call|>"> {};

struct list_body : seq<lenient::ws, at<one<'['>>, json_block::payload, lenient::ws> {};
struct v30 : seq<token_open, json_block::body, opt<token_close>> {};
struct v31 : seq<tag_open, list_body> {};
struct block : seq<sor<v30, v31>, opt<tag_close>> {};

}  // namespace toolgram::grammar::granite
