// Kimi K3 ("XTML": `<|open|>`, `<|close|>` and `<|sep|>` are special tokens of their own):
//
//   <|open|>tools<|sep|>
//   <|open|>call tool="get_weather" index="1"<|sep|>
//   <|open|>argument key="city" type="string"<|sep|>Antwerp<|close|>argument<|sep|>
//   <|open|>argument key="days" type="number"<|sep|>3<|close|>argument<|sep|>
//   <|close|>call<|sep|>
//   <|close|>tools<|sep|>
//
// (the template writes no line breaks; models and the engines' tests add none either, but
// whitespace between the elements is layout). The tools channel comes after the response
// channel (`<|open|>response<|sep|>…<|close|>response<|sep|>`, framing: the profile's
// content markers) and holds one call per tool call. The name is the call's `tool`
// attribute, a key the argument's `key` attribute; attribute values escape `&` and `"` as
// `&amp;` and `&quot;` (the reader undoes that). `type="string"` marks a text value,
// written verbatim (typed from the schema later, as every text value is); any other type
// (`number`, `boolean`, `null`, `object`, `array`) a JSON value. In place of its
// arguments a call may hold one JSON object, `<|open|>json type="object"<|sep|>{…}
// <|close|>json<|sep|>`, which the template writes for arguments given as a JSON string.
//
// A value ends at `<|close|>argument<|sep|>`, or where its closer was left out, as the
// structure after it shows (grammars/common/param_value.hpp); `<|close|>call<|sep|>` may be left
// out before the next call or the channel's closer, and what the end of output cut off
// is healed. The channel alone (`<|open|>tools<|sep|>` with no call after it) is declined
// here and reported as tool syntax without a call (src/readers/unreadable_syntax.cpp); once a
// call's opener stands whole, the call commits: anything but arguments (or that one
// object) before its closer is a rejected call with the message below. A call without
// the channel around it is read too: the tokens are the model's own, never prose.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/lenient_value.hpp"
#include "common/markup.hpp"
#include "common/params.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::kimi_k3 {
using namespace tao::pegtl;

struct sep : str<"<|sep|>"> {};

struct tools_open : str<"<|open|>tools<|sep|>"> {};
struct tools_close : str<"<|close|>tools<|sep|>"> {};

// An element's opener: the token, its name, its attributes (`tool="…" index="1"`), `<|sep|>`.
template <typename Start>
struct element_open : seq<Start, plus<space>, markup::attributes, params::ws, sep> {};

struct call_start : str<"<|open|>call"> {};
struct call_open : element_open<call_start> {};
struct call_close : str<"<|close|>call<|sep|>"> {};

struct argument_start : str<"<|open|>argument"> {};
struct argument_open : element_open<argument_start> {};
struct argument_close : str<"<|close|>argument<|sep|>"> {};

// The arguments as one JSON object (its `type="object"` attribute is not needed to read it).
struct json_start : str<"<|open|>json"> {};
struct json_open : seq<json_start, opt<plus<space>, markup::attributes>, params::ws, sep> {};
struct json_close : str<"<|close|>json<|sep|>"> {};

// What may follow a call: the next call, or the channel's closer.
struct call_next : sor<call_start, tools_close> {};
// A call's opener followed by what a call holds: an example call inside a value, not a mention.
struct call_body_start : seq<call_open, params::ws, sor<argument_open, json_open, call_close>> {};

struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = argument_open;
    using close = argument_close;
    using call_close = kimi_k3::call_close;
    using call_next = kimi_k3::call_next;
    using open_spellings = params::spellings<str<"<|open|>argument">>;
    using close_spellings = params::spellings<str<"<|close|>argument<|sep|>">>;
    using call_close_spellings = params::spellings<str<"<|close|>call<|sep|>">>;
    using call_next_spellings =
        params::spellings<str<"<|open|>call">, str<"<|close|>tools<|sep|>">>;
    using nested = params::nested_list<
        params::nested<seq<tools_open, params::ws, call_open>, params::spellings<str<"<|open|>tools<|sep|>">>,
                       params::spellings<str<"<|close|>tools<|sep|>">>>,
        params::nested<call_body_start, params::spellings<str<"<|open|>call">>,
                       params::spellings<str<"<|close|>call<|sep|>">>>>;
};
struct argument_value : params::value<value_syntax> {};
struct argument : params::parameter<argument_open, argument_value, argument_close> {};

// The call's end: its closer, the end of output (cut off: healed), or the next call or the
// channel's closer (the closer left out).
struct call_end : params::call_end<call_close, call_next> {};

// One JSON object in place of the arguments: its members are the arguments, JSON values
// (the lenient reader's repairs reported). Its closer may be cut off by the end of output.
struct json_arguments : seq<at<one<'{'>>, lenient::value> {};
struct json_arguments_end : sor<seq<json_close, params::ws, call_end>, params::call_cut_off> {};
struct json_body : seq<json_open, params::ws, json_arguments, params::ws, must<json_arguments_end>> {};
struct arguments : until<call_end, must<argument>, params::ws> {};

struct call : seq<call_open, params::ws, sor<json_body, arguments>> {};
struct wrapped : params::wrapper<tools_open, call, tools_close> {};

struct block : sor<wrapped, call> {};

}  // namespace toolgram::grammar::kimi_k3

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<kimi_k3::argument> =
    "<|open|>argument key=\"NAME\" type=\"TYPE\"<|sep|>value<|close|>argument<|sep|> or <|close|>call<|sep|> expected";
template <> inline constexpr const char* message<kimi_k3::json_arguments_end> =
    "<|close|>json<|sep|> then <|close|>call<|sep|> expected after the call's JSON arguments";
}  // namespace toolgram::grammar::errors
