// hy_v3: Tencent Hy3 (HY-V3; vLLM's hy_v3, SGLang's hunyuan) and HY-V4 (vLLM's hy_v4):
//
//   <tool_calls>
//   <tool_call>get_weather<tool_sep>
//   <arg_key>city</arg_key>
//   <arg_value>Beijing</arg_value>
//   </tool_call>
//   </tool_calls>                                                        Hy3
//
//   <tool_calls:opensource><tool_call:opensource>get_weather<arg_key:opensource>city
//   </arg_key:opensource><arg_value:opensource>Beijing</arg_value:opensource>
//   </tool_call:opensource></tool_calls:opensource>                      HY-V4 (one line)
//
//   <tool_call:opensource>get_weather<tool_sep:opensource>{"city": "Paris"}
//   <end_of_tool_call:opensource>                                        Hy3, JSON body
//
// GLM-4.5's call (a bare name, then <arg_key>/<arg_value> pairs, values text typed from the
// schema later; grammars/glm45.hpp) inside a <tool_calls> section that holds every call of
// the turn, with `<tool_sep>` between the name and the arguments. Hy3 writes a line per
// element, or none (vLLM's tests have both). HY-V4's checkpoint writes the same tags with
// the suffix `:opensource` on each (vLLM reads it from the vocabulary; the released
// checkpoint's is the one read here), no `<tool_sep>` and no line breaks. Hy3's released
// checkpoint writes the suffix on every tag too (llama.cpp's tencent-Hy3 template formats
// each token with ':opensource'), `<tool_sep:opensource>` included, so in the suffixed
// spelling the separator is optional. Hy3's MLX checkpoints (rapid-mlx's hy_v3 parser and
// tests) also write a call with no section around it, its arguments either as pairs or as
// one JSON object after the separator, ending at `<end_of_tool_call:opensource>`: read
// as one block per call. Hy3's tags are GLM's, so its rules are glm45's; the shapes of the
// call and the section are params.hpp's.
//
// `<tool_calls>` is also Jamba's and MiniMax-M1's opener: the payload decides. A section
// is Hunyuan's only when a call's opener, its name and `<tool_sep>` (HY-V4: the name, then
// an argument or the call's closer) follow it; a JSON payload or prose is declined. After
// that the call commits: anything but arguments before `</tool_call>` makes a rejected call.
// A value ends at `</arg_value>`, or, its closer left out, where the structure after it
// shows (grammars/common/param_value.hpp); `</tool_call>` may be left out before the next call or
// the section's closer; closers cut off by the end of output heal; a value cut is refused.
// The suffixed tokens are the checkpoint's own, never prose: a call stands without its
// section.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "glm45.hpp"
#include "common/lenient_value.hpp"
#include "common/params.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::hy_v3 {
using namespace tao::pegtl;

struct tool_sep : str<"<tool_sep>"> {};
struct section_open : str<"<tool_calls>"> {};
struct section_close : str<"</tool_calls>"> {};

// HY-V4's tags: Hy3's with the checkpoint's suffix.
struct v4_section_open : str<"<tool_calls:opensource>"> {};
struct v4_section_close : str<"</tool_calls:opensource>"> {};
struct v4_open : str<"<tool_call:opensource>"> {};
struct v4_close : str<"</tool_call:opensource>"> {};
struct v4_sep : str<"<tool_sep:opensource>"> {};
// The MLX checkpoints' call closer (rapid-mlx): `</tool_call:opensource>`'s equal.
struct v4_end_of_call : str<"<end_of_tool_call:opensource>"> {};
struct v4_call_close : sor<v4_close, v4_end_of_call> {};
struct v4_key_open : str<"<arg_key:opensource>"> {};
struct v4_key_close : str<"</arg_key:opensource>"> {};
struct v4_value_open : str<"<arg_value:opensource>"> {};
struct v4_value_close : str<"</arg_value:opensource>"> {};
struct v4_argument_open : glm45::pair_open<v4_key_open, v4_key_close, v4_value_open> {};

// Hy3: the name, then `<tool_sep>`. The call commits there.
struct call_open : seq<glm45::open, glm45::name_line_break, glm45::call_name, params::ws, tool_sep> {};
// HY-V4: no separator; the name must be followed by an argument or the call's closer.
// Hy3 writes the separator, then a line break (its template) or the JSON body.
struct v4_call_head : seq<v4_open, glm45::name_line_break, glm45::call_name, params::ws> {};
struct v4_pairs_ahead : at<sor<v4_key_open, v4_call_close, eof>> {};
struct v4_call_open : seq<v4_call_head, opt<v4_sep, params::ws>, v4_pairs_ahead> {};

struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = glm45::argument_open;
    using close = glm45::value_close;
    using call_close = glm45::close;
    using call_next = sor<glm45::open, section_close>;
    using open_spellings = params::spellings<str<"<arg_key>">>;
    using close_spellings = params::spellings<str<"</arg_value>">>;
    using call_close_spellings = params::spellings<str<"</tool_call>">>;
    using call_next_spellings = params::spellings<str<"<tool_call>">, str<"</tool_calls>">>;
    using nested = params::nested_list<
        params::nested<seq<section_open, params::ws, call_open>, params::spellings<str<"<tool_calls>">>,
                       params::spellings<str<"</tool_calls>">>>,
        params::nested<call_open, params::spellings<str<"<tool_call>">>,
                       params::spellings<str<"</tool_call>">>>>;
};
struct v4_value_syntax {
    using open = v4_argument_open;
    using close = v4_value_close;
    using call_close = v4_call_close;
    using call_next = sor<v4_open, v4_section_close>;
    using open_spellings = params::spellings<str<"<arg_key:opensource>">>;
    using close_spellings = params::spellings<str<"</arg_value:opensource>">>;
    using call_close_spellings =
        params::spellings<str<"</tool_call:opensource>">, str<"<end_of_tool_call:opensource>">>;
    using call_next_spellings = params::spellings<str<"<tool_call:opensource>">,
                                                  str<"</tool_calls:opensource>">>;
    using nested = params::nested_list<
        params::nested<seq<v4_section_open, params::ws, v4_call_open>,
                       params::spellings<str<"<tool_calls:opensource>">>,
                       params::spellings<str<"</tool_calls:opensource>">>>,
        params::nested<v4_call_open, params::spellings<str<"<tool_call:opensource>">>,
                       params::spellings<str<"</tool_call:opensource>">, str<"<end_of_tool_call:opensource>">>>>;
};

struct value_text : params::value<value_syntax> {};
struct argument : params::parameter<glm45::argument_open, value_text, glm45::value_close> {};
struct call : params::committed_call<call_open, argument, glm45::close, sor<glm45::open, section_close>> {};
struct section : params::wrapper<section_open, call, section_close> {};

struct v4_value_text : params::value<v4_value_syntax> {};
struct v4_argument : params::parameter<v4_argument_open, v4_value_text, v4_value_close> {};
struct v4_call_next : sor<v4_open, v4_section_close> {};
struct v4_call_end : params::call_end<v4_call_close, v4_call_next> {};
struct v4_pairs : seq<v4_pairs_ahead, params::ws, until<v4_call_end, must<v4_argument>, params::ws>> {};
// One JSON object after the separator in place of the pairs: its members are the
// arguments, JSON values (the lenient reader's repairs reported); then the call's closer,
// which the end of output may cut off.
struct v4_json_arguments : seq<at<one<'{'>>, lenient::value> {};
struct v4_json_end : v4_call_end {};
struct v4_json_body : seq<v4_sep, params::ws, v4_json_arguments, params::ws, must<v4_json_end>> {};
// The head (opener and name) is read once, then either body: its action runs once.
struct v4_call : seq<v4_call_head, sor<v4_json_body, seq<opt<v4_sep, params::ws>, v4_pairs>>> {};
struct v4_section : params::wrapper<v4_section_open, v4_call, v4_section_close> {};

struct block : sor<section, v4_section, v4_call> {};

}  // namespace toolgram::grammar::hy_v3

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<hy_v3::argument> =
    "<arg_key>NAME</arg_key><arg_value>value</arg_value> or </tool_call> expected";
template <> inline constexpr const char* message<hy_v3::v4_argument> =
    "<arg_key:opensource>NAME</arg_key:opensource><arg_value:opensource>value</arg_value:opensource> or "
    "</tool_call:opensource> expected";
template <> inline constexpr const char* message<hy_v3::v4_json_end> =
    "<end_of_tool_call:opensource> expected after the call's JSON arguments";
}  // namespace toolgram::grammar::errors
