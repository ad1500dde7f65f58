// lfm2_json: LFM2 and LFM2.5 in JSON mode (their chat template's "Output function calls as
// JSON" system prompt; llama.cpp's "LFM2 with JSON tools", SGLang's lfm2 parser):
//
//   <|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]<|tool_call_end|>
//
// A list of call objects (or, at times, one bare object) between the same two markers the
// Python mode writes its call list in (`<|tool_call_start|>[get_weather(city='Paris')]…`,
// read by the pythonic grammar). The payload decides between them: a block is JSON mode only
// when a `{` opens the payload, or the list's first element; anything else after the opener
// is declined here, so `[name(` goes to pythonic and prose mentioning the marker stays prose.
// After that the block commits, and the rest is json_block's (grammars/common/json_block.hpp): each
// call object judged on its own, a closer cut off at the end (healed), stray text before the
// closer, a missing closer. `"parameters"` in place of `"arguments"` is read as SGLang reads it.
#pragma once

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::lfm2_json {
using namespace tao::pegtl;

struct open : str<"<|tool_call_start|>"> {};
using close = literal<str<"<|tool_call_end|>">>;  // a Getter, not a rule

// `{` or `[{` ahead (spaces allowed): JSON mode. `[get_weather(` is the Python mode's.
struct json_payload_ahead : at<lenient::ws, sor<one<'{'>, seq<one<'['>, lenient::ws, one<'{'>>>> {};
struct json_open : seq<open, json_payload_ahead> {};
struct block : json_block::block<json_open, close> {};

}  // namespace toolgram::grammar::lfm2_json
