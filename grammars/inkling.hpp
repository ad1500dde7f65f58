// inkling: Inkling (vLLM's and SGLang's `inkling` parsers).
//
//   <|message_model|>get_weather<|content_invoke_tool_json|>{"name":"get_weather","args":{"city":"SF"}}<|end_message|>
//
// Inkling writes a turn as typed blocks, each a special token naming its kind and ended
// by <|end_message|> (or <|content_model_end_sampling|> where sampling stopped): thinking
// (<|content_thinking|>), text (<|content_text|>), a tool call as JSON
// (<|content_invoke_tool_json|>), a tool call as free text (<|content_invoke_tool_text|>)
// and a tool error (<|content_tool_error|>). Each block after the first opens with
// <|message_model|>; between it and the kind token the model may write the tool's name, a
// header the engines treat as metadata. The prompt ends with <|message_model|>, so an
// output may start with that header bare: `get_weather<|content_invoke_tool_json|>{…}`.
//
// The call's payload is one object, its arguments under "args" (an alias every call
// object reader knows, src/readers/block_reader.cpp). These rules read the JSON call block in its
// three openings (headed, headless at the output's start, bare kind token); the reader
// (src/actions/inkling.cpp) compares header and payload names and refuses the blocks that
// hold no JSON call. Reasoning and the framing tokens are the profile's settings.
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::inkling {
using namespace tao::pegtl;

struct message_model : str<"<|message_model|>"> {};
struct invoke_json : str<"<|content_invoke_tool_json|>"> {};
struct invoke_text : str<"<|content_invoke_tool_text|>"> {};
using end_message = literal<str<"<|end_message|>">>;                  // Getters, not rules
using end_sampling = literal<str<"<|content_model_end_sampling|>">>;

struct blanks : star<one<' ', '\t', '\r', '\n'>> {};
// The header's name runs to the next token; no space, so a sentence is never a header.
struct header_name : plus<not_one<'<', '{', ' ', '\t', '\r', '\n'>> {};
struct header : seq<message_model, blanks, opt<header_name>, blanks> {};
struct headless_header : seq<header_name, blanks> {};

// Either closer ends the block; then json_block's ways of coping with a missing one.
// Stray text is skipped only to <|end_message|>: the reader forbids the skip when it
// would swallow the opener of another block.
struct block_end : sor<runtime_literal<end_message>, runtime_literal<end_sampling>, json_block::end_cut_off,
                 literal_prefix_at_end<end_message>, literal_prefix_at_end<end_sampling>, skip_to_literal<end_message>,
                 json_block::missing_end_tag> {};

struct call : seq<invoke_json, json_block::body, block_end> {};
struct headed_call : seq<header, call> {};
struct headless_call : seq<headless_header, call> {};

// What a reader checks before it claims a block that holds no JSON call: a header and the
// kind token that follows it.
struct header_then_json : seq<header, invoke_json> {};
struct header_then_text : seq<header, invoke_text> {};

}  // namespace toolgram::grammar::inkling
