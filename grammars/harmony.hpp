// gpt-oss (the harmony format):
//
//   <|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>
//   <|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city":"Paris"}<|call|>
//
// A call is a message with a recipient: `to=functions.NAME` after the channel, or after
// the role before the channel. The content type (`<|constrain|>json`, ` json`, or none)
// sits before `<|message|>`. Servers stop on `<|call|>` and often leave it out: the end
// of output is a cut-off closer (json_block's healing). A recipient outside `functions.`
// (the built-in `browser.search`, `python`) is read as written and the tool list judges
// it. The other messages are not tool syntax: reasoning `<|channel|>analysis<|message|>…<|end|>`
// and the answer `<|channel|>final<|message|>…` are the profile's reasoning delimiters and
// content markers.
#pragma once

#include <tao/pegtl.hpp>

#include "json_block.hpp"

namespace toolgram::grammar::harmony {
using namespace tao::pegtl;

struct sp : star<space> {};

struct start : TAO_PEGTL_STRING("<|start|>") {};
struct channel : TAO_PEGTL_STRING("<|channel|>") {};
struct constrain : TAO_PEGTL_STRING("<|constrain|>") {};
struct message : TAO_PEGTL_STRING("<|message|>") {};
using call_end = literal<TAO_PEGTL_STRING("<|call|>")>;  // a Getter, not a rule

struct role : plus<identifier_other> {};
struct channel_name : plus<identifier_other> {};
struct namespace_prefix : TAO_PEGTL_STRING("functions.") {};
struct function_name : plus<not_one<' ', '\t', '\r', '\n', '<'>> {};
struct recipient : seq<TAO_PEGTL_STRING("to="), opt<namespace_prefix>, function_name> {};
struct content_type : seq<opt<constrain>, star<not_one<' ', '\t', '\r', '\n', '<'>>> {};
struct header_end : seq<sp, opt<content_type>, sp, message> {};

struct channel_first : seq<channel, channel_name, sp, recipient, header_end> {};
struct recipient_first : seq<start, role, sp, recipient, sp, channel, channel_name, header_end> {};
struct call_header : sor<channel_first, recipient_first> {};
struct call : json_block::block<call_header, call_end> {};

}  // namespace toolgram::grammar::harmony
