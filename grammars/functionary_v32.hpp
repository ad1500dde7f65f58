// Functionary v3.2:
//
//   >>>all
//   Let me look that up.
//   >>>get_weather
//   {"city": "Paris"}>>>get_weather
//   {"city": "Rome"}
//
// The output is a run of messages, each `>>>RECIPIENT\n` and a body: recipient `all` is
// text for the user (content: the header goes, the text stays), any other recipient is a
// call and its body a JSON object (read with json_block's open_block: the payload ends
// it). The prompt ends with the first `>>>`, so an output can start headless, at
// `get_weather\n{…}` or `all\n…`; a headless call needs its `{` straight after the
// newline, which is what tells it from prose. `>>>` not followed by a recipient line
// (a Python prompt in an answer) is text.
//
//   >>>python
//   import math
//   print(math.factorial(12))
//
// A message to `python` whose body does not open a JSON object is the code itself: the
// call `python` with {"code": body}, Functionary's code interpreter (llama.cpp reads it so
// when a `python` tool is declared; whether one is, phase two's allow-list decides). The
// code runs to the next message, as `all` text does, or to the end of the output.
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::functionary_v32 {
using namespace tao::pegtl;

struct prefix : str<">>>"> {};
struct line_end : seq<opt<one<'\r'>>, one<'\n'>> {};
struct recipient : plus<identifier_other> {};

struct text_recipient : seq<str<"all">, line_end> {};
struct text_header : seq<prefix, text_recipient> {};
struct headless_text_header : text_recipient {};

struct code_recipient : seq<str<"python">, line_end> {};
struct json_body_ahead : seq<star<one<' ', '\t', '\r', '\n'>>, one<'{'>> {};  // lookahead only
struct code_header : seq<prefix, code_recipient, not_at<json_body_ahead>> {};
struct headless_code_header : seq<code_recipient, not_at<json_body_ahead>> {};

struct call_header : seq<prefix, recipient, line_end> {};
struct headless_call_header : seq<recipient, line_end, at<one<'{'>>> {};
struct call : json_block::open_block<call_header> {};
struct headless_call : json_block::open_block<headless_call_header> {};

}  // namespace toolgram::grammar::functionary_v32
