// gpt-oss (the harmony format):
//
//   <|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>
//   <|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city":"Paris"}<|call|>
//    to=functions.get_weather<|channel|>commentary json<|message|>{"city":"Paris"}<|call|>
//
// A call is a message with a recipient: `to=functions.NAME` after the channel, or after
// the role before the channel; the third form is the second with `<|start|>assistant` in
// the prompt (engines end the generation prompt there), so the output opens with the
// recipient (`headless_header`, read only at the output's start). The content type
// (`<|constrain|>json`, ` json`, `code`, or none) sits before `<|message|>`.
//
// Servers stop on `<|call|>` and strip it, as they strip every stop token: a message
// whose body is complete at the end of output is whole (`call_end_stripped`), not healed;
// only a body cut inside its JSON heals (lenient::value).
//
// A recipient outside `functions.` (the built-in `browser.search`, `python`,
// `container.exec`) is read as written, namespace and all, and the tool list judges it.
// A message body that is not JSON (`<|constrain|>code`, a shell command) is read by the
// reader as raw text up to the message's end, so it is reported, never left in content.
// The other messages are not tool syntax: reasoning `<|channel|>analysis<|message|>…<|end|>`
// and the answer `<|channel|>final<|message|>…` are the profile's reasoning delimiters and
// content markers; a header abandoned before its `<|message|>` (gpt-oss-20b writes
// `<|channel|>commentary to=assistant` before its real header) is framing (`stray_header`).
#pragma once

#include <tao/pegtl.hpp>

#include "common/json_block.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::harmony {
using namespace tao::pegtl;

struct sp : star<space> {};

struct start : str<"<|start|>"> {};
struct channel : str<"<|channel|>"> {};
struct constrain : str<"<|constrain|>"> {};
struct message : str<"<|message|>"> {};
using call_end = literal<str<"<|call|>">>;  // a Getter, not a rule

struct role : plus<identifier_other> {};
struct channel_name : plus<identifier_other> {};
struct namespace_prefix : str<"functions."> {};
struct function_name : plus<not_one<' ', '\t', '\r', '\n', '<'>> {};
struct recipient : seq<str<"to=">, opt<namespace_prefix>, function_name> {};
struct content_type : seq<opt<constrain>, star<not_one<' ', '\t', '\r', '\n', '<'>>> {};
struct header_end : seq<sp, opt<content_type>, sp, message> {};

struct channel_first : seq<channel, channel_name, sp, recipient, header_end> {};
struct recipient_first : seq<start, role, sp, recipient, sp, channel, channel_name, header_end> {};
struct call_header : sor<channel_first, recipient_first> {};
struct headless_header : seq<sp, recipient, sp, channel, channel_name, header_end> {};

struct call_end_stripped : eof {};  // the server stripped <|call|>: the message is whole
struct end : sor<runtime_literal<call_end>, call_end_stripped, literal_prefix_at_end<call_end>,
                 skip_to_literal<call_end>, json_block::missing_end_tag> {};
struct call : seq<call_header, json_block::body, end> {};
struct headless_call : seq<headless_header, json_block::body, end> {};

// A header abandoned for another: `<|channel|>commentary to=assistant` (or with no
// recipient) straight before the next `<|channel|>`. Addressed to no tool: framing.
struct assistant_recipient : str<"to=assistant"> {};
struct stray_header : seq<channel, channel_name, sp, opt<assistant_recipient, sp>, at<channel>> {};

}  // namespace toolgram::grammar::harmony
