// GLM-4.5, 4.6, 4.7, 5:
//
//   <tool_call>get_weather
//   <arg_key>city</arg_key>
//   <arg_value>Antwerp</arg_value>
//   </tool_call>
//
// One block per call; GLM-4.7 and later write the same with no newlines at all. The name
// is the text straight after `<tool_call>`; each argument is a key element and a value
// element. Values are text (JSON for arrays and objects), typed from the schema later.
// `<tool_call>` is also the opener of hermes, qwen3_coder and Granite 3.1, so a block
// whose opener is not followed at once by a bare name and then `<arg_key>`, `</tool_call>`
// or the end of output is declined (a JSON payload, `<function=`, prose). After that the call
// commits: anything but arguments before `</tool_call>` is a rejected call. Values are
// written verbatim by the template. A value ends at `</arg_value>`, or at the next
// `<arg_key>` or `</tool_call>` when its closer was left out, where the structure after it
// shows that is the end (grammars/common/param_value.hpp: a value may hold these tags, or an
// example call); `</tool_call>` may be left out before the next `<tool_call>`.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::glm45 {
using namespace tao::pegtl;

struct open : str<"<tool_call>"> {};
struct close : str<"</tool_call>"> {};

struct name_char : sor<alnum, one<'_', '-', '.', ':'>> {};
struct call_name : seq<sor<alpha, one<'_'>>, star<name_char>> {};

struct key_open : str<"<arg_key>"> {};
struct key_close : str<"</arg_key>"> {};
struct key_text : plus<not_one<'<'>> {};
struct value_open : str<"<arg_value>"> {};
struct value_close : str<"</arg_value>"> {};
// GLM's argument pair, a key then its value's opener with any blanks between, over the
// spellings of its tags: a family that writes the same pair with other tags (HY-V4's
// `<arg_key:opensource>`) takes this rule, and its key action, instead of writing its own.
template <typename KeyOpen, typename KeyClose, typename ValueOpen>
struct pair_open : seq<KeyOpen, key_text, KeyClose, params::ws, ValueOpen> {};
struct argument_open : pair_open<key_open, key_close, value_open> {};

// The name straight after the opener (prose puts a space there: "<tool_call> and
// </tool_call> tags"), then what only a GLM call can hold next.
struct name_line_break : opt<opt<one<'\r'>>, one<'\n'>> {};
struct call_open : seq<open, name_line_break, call_name, params::ws, at<sor<key_open, close, eof>>> {};

struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = argument_open;
    using close = value_close;
    using call_close = glm45::close;
    using call_next = glm45::open;
    using open_spellings = params::spellings<str<"<arg_key>">>;
    using close_spellings = params::spellings<str<"</arg_value>">>;
    using call_close_spellings = params::spellings<str<"</tool_call>">>;
    using call_next_spellings = params::spellings<str<"<tool_call>">>;
    using nested = params::nested_list<params::nested<call_open, params::spellings<str<"<tool_call>">>,
                                                      params::spellings<str<"</tool_call>">>>>;
};
struct value_text : params::value<value_syntax> {};
struct argument : params::parameter<argument_open, value_text, value_close> {};
struct call : params::committed_call<call_open, argument, close, open> {};

struct block : seq<call> {};

}  // namespace toolgram::grammar::glm45

namespace toolgram::grammar {
template <> inline constexpr bool listened_rule<glm45::name_char> = false;  // one per character
}  // namespace toolgram::grammar

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<glm45::argument> =
    "<arg_key>NAME</arg_key><arg_value>value</arg_value> or </tool_call> expected";
}  // namespace toolgram::grammar::errors
