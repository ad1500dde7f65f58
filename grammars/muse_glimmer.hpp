// muse_glimmer: Muse Glimmer (meta-models/Muse-Glimmer-30B). Harmony-like messages, each
// addressed to a recipient, with Anthropic-style ATEM markup in those addressed to a tool:
//
//    to=self<|message|>Let me check.<|eom|><|start|>assistant to=get_weather<|message|><atem:function_calls>
//   <atem:invoke name="get_weather">
//   <atem:parameter name="city">Paris</atem:parameter>
//   </atem:invoke>
//   </atem:function_calls><|eom|><|start|>assistant to=user<|message|>It is sunny.<|eot|>
//
// The recipient picks the channel: `self` is reasoning, `user` (or none, a bare
// `<|message|>`) the answer, anything else a tool. Those are the profile's reasoning
// delimiters and content markers; this grammar reads only the messages to a tool. The
// prompt ends with `<|start|>assistant`, so the first message opens at ` to=…`: a block
// starts at `<|start|>assistant` where it is written, else at `to=`. The recipient selects the
// channel only: the engines name each call by its invoke (vLLM muse_glimmer, SGLang muse),
// and one message may hold several invokes.
//
// The body is the ATEM block: `<atem:function_calls>` with one `<atem:invoke>` per call,
// names in attributes, each value the text between its parameter tags, written verbatim
// by the template (strings as they are, lists and objects as JSON: typed from the schema
// later). The template says the output "is not expected to be valid XML", so a value may
// hold the tags: where it ends is param_value.hpp's decision, as for minimax_m2. The
// closers of the invoke and of the block may be left out; the message ends with `<|eom|>`
// (more messages follow) or `<|eot|>` (the turn's end, the server's stop token, so often
// stripped: the end of output ends it too).
//
// A message to a tool whose body is no ATEM block (JSON written under a constraint, a cut
// after the header) is still tool syntax: the reader rejects it with the reason. ATEM
// markup with no header before it is read too (an engine that drops special tokens drops
// the framing with them); the reader refuses it when the output is framed, since then it
// stands in reasoning or in the answer, where the engines never take it as a call.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::muse_glimmer {
using namespace tao::pegtl;

// Message framing.
struct start : str<"<|start|>"> {};
struct message : str<"<|message|>"> {};
struct eom : str<"<|eom|>"> {};
struct eot : str<"<|eot|>"> {};
struct message_end : sor<eom, eot> {};

// `to=NAME<|message|>`: the characters vLLM's header pattern allows in a recipient. `self`
// and `user` address no tool, so their headers are not this grammar's.
struct recipient_char : sor<alnum, one<'_', '.', '-'>> {};
struct prose_recipient : seq<sor<str<"self">, str<"user">>, not_at<recipient_char>> {};
struct recipient : plus<recipient_char> {};
struct tool_header : seq<str<"to=">, not_at<prose_recipient>, recipient, message> {};
// `<|start|>assistant ` before it belongs to the message: the block starts there, so that
// reasoning left unclosed before it ends before the framing, not after it.
struct role : str<"assistant"> {};
struct message_start : seq<start, role, star<blank>> {};
struct header : seq<opt<message_start>, tool_header> {};

// The ATEM block.
struct block_open : str<"<atem:function_calls>"> {};
struct block_close : str<"</atem:function_calls>"> {};

struct invoke_start : str<"<atem:invoke"> {};
struct invoke_open : params::attribute_open<invoke_start> {};
struct invoke_close : str<"</atem:invoke>"> {};

struct parameter_start : str<"<atem:parameter"> {};
struct parameter_open : params::attribute_open<parameter_start> {};
struct parameter_close : str<"</atem:parameter>"> {};

// What may follow an invoke whose closer was left out: the next invoke, the block's
// closer, the message's end or the next message.
struct call_next : sor<invoke_start, block_close, message_end, start> {};

struct invoke_body_start : seq<invoke_open, params::ws, sor<parameter_open, invoke_close>> {};
struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = parameter_open;
    using close = parameter_close;
    using call_close = invoke_close;
    using call_next = muse_glimmer::call_next;
    using open_spellings = params::spellings<str<"<atem:parameter name=">>;
    using close_spellings = params::spellings<str<"</atem:parameter>">>;
    using call_close_spellings = params::spellings<str<"</atem:invoke>">>;
    using call_next_spellings =
        params::spellings<str<"<atem:invoke">, str<"</atem:function_calls>">,
                          str<"<|eom|>">, str<"<|eot|>">, str<"<|start|>">>;
    using nested = params::nested_list<
        params::nested<seq<block_open, params::ws, invoke_open>, params::spellings<str<"<atem:function_calls>">>,
                       params::spellings<str<"</atem:function_calls>">>>,
        params::nested<invoke_body_start, params::spellings<str<"<atem:invoke">>,
                       params::spellings<str<"</atem:invoke>">>>>;
};
struct parameter_value : params::value<value_syntax> {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

// After an invoke's opening tag the call commits: anything but parameters before its end
// is a rejected call with the message below.
struct invoke : params::committed_call<invoke_open, parameter, invoke_close, call_next> {};
struct section : params::wrapper<block_open, invoke, block_close> {};
// Invokes with no <atem:function_calls> around them (vLLM and SGLang look for invokes alone).
struct bare_invokes : plus<invoke, params::ws> {};
struct atem : sor<section, bare_invokes> {};
struct body : seq<atem, star<params::ws, atem>> {};

// Markup with no header before it. A bare invoke there may be a mention in prose
// (`one <atem:invoke name="…"> each`, or openers listed side by side): it is a call only
// when a parameter or its own closer follows the opener, so it declines instead of
// committing (its parameter rule has no message).
struct loose_parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};
struct loose_invoke
    : seq<invoke_open, params::ws,
          sor<invoke_close, seq<plus<loose_parameter, params::ws>, params::call_end<invoke_close, call_next>>>> {};
struct unframed : sor<section, plus<loose_invoke, params::ws>> {};

// A message to a tool: its header, the ATEM body, and the message's end when it is there.
struct tool_message : seq<header, params::ws, body, opt<params::ws, message_end>> {};

// Both forms a block takes (for analyze; the reader picks one by its marker).
struct block : sor<tool_message, unframed> {};

}  // namespace toolgram::grammar::muse_glimmer

namespace toolgram::grammar {
template <> inline constexpr bool listened_rule<muse_glimmer::recipient_char> = false;  // one per character
}  // namespace toolgram::grammar

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<muse_glimmer::parameter> =
    "<atem:parameter name=\"NAME\">value</atem:parameter> or </atem:invoke> expected";
}  // namespace toolgram::grammar::errors
