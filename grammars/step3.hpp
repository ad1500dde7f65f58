// Step-3:
//
//   <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
//   <steptml:parameter name="city">Antwerp</steptml:parameter></steptml:invoke><｜tool_call_end｜>
//   <｜tool_calls_end｜>
//
// (`｜` is U+FF5C.) One section, one call token pair per call; whitespace and newlines may
// stand between any two tokens. Names are attributes; values are text typed from the
// schema later. `<｜tool_calls_begin｜>` is also a misspelling DeepSeek R1 is seen to write,
// so a section whose call is not `function<｜tool_sep｜><steptml:invoke …>` is declined;
// after the invoke's opening tag the call commits, so anything but parameters there is a
// rejected call. A value ends at `</steptml:parameter>`, or at the next
// `<steptml:parameter name=` or `</steptml:invoke>` when its closer was left out, where the
// structure after it shows that is the end (grammars/common/param_value.hpp); the invoke's, the
// call's and the section's closers may each be left out. A call without
// the section tokens is read too. The name may be written after the separator as well,
// `function<｜tool_sep｜>edit_file\n<steptml:invoke name="edit_file">` (vLLM's step3
// parser tests): the reader refuses a call whose two names differ, as which one is meant
// cannot be told.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::step3 {
using namespace tao::pegtl;

struct calls_begin : str<"<｜tool_calls_begin｜>"> {};
struct calls_end : str<"<｜tool_calls_end｜>"> {};
struct call_begin : str<"<｜tool_call_begin｜>"> {};
struct call_end : str<"<｜tool_call_end｜>"> {};
struct tool_sep : str<"<｜tool_sep｜>"> {};
struct call_type : str<"function"> {};
struct repeated_name : plus<not_one<'<', ' ', '\t', '\r', '\n'>> {};
struct call_open : seq<call_begin, params::ws, call_type, params::ws, tool_sep, opt<params::ws, repeated_name>> {};

struct invoke_start : str<"<steptml:invoke"> {};
struct invoke_open : params::attribute_open<invoke_start> {};
struct invoke_close : str<"</steptml:invoke>"> {};

struct parameter_start : str<"<steptml:parameter"> {};
struct parameter_open : params::attribute_open<parameter_start> {};
struct parameter_close : str<"</steptml:parameter>"> {};

struct invoke_body_start : seq<invoke_open, params::ws, sor<parameter_open, invoke_close>> {};
struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = parameter_open;
    using close = parameter_close;
    using call_close = invoke_close;
    using call_next = sor<call_end, calls_end, call_begin>;
    using open_spellings = params::spellings<str<"<steptml:parameter name=">>;
    using close_spellings = params::spellings<str<"</steptml:parameter>">>;
    using call_close_spellings = params::spellings<str<"</steptml:invoke>">>;
    using call_next_spellings =
        params::spellings<str<"<｜tool_call_end｜>">, str<"<｜tool_calls_end｜>">,
                          str<"<｜tool_call_begin｜>">>;
    using nested = params::nested_list<
        params::nested<seq<calls_begin, params::ws, call_open>, params::spellings<str<"<｜tool_calls_begin｜>">>,
                       params::spellings<str<"<｜tool_calls_end｜>">>>,
        params::nested<seq<call_open, params::ws, invoke_open>, params::spellings<str<"<｜tool_call_begin｜>">>,
                       params::spellings<str<"<｜tool_call_end｜>">>>,
        params::nested<invoke_body_start, params::spellings<str<"<steptml:invoke">>,
                       params::spellings<str<"</steptml:invoke>">>>>;
};
struct parameter_value : params::value<value_syntax> {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

struct invoke
    : params::committed_call<invoke_open, parameter, invoke_close, sor<call_end, calls_end, call_begin>> {};
struct tool_call : params::wrapper<call_open, invoke, call_end> {};
struct section : params::wrapper<calls_begin, tool_call, calls_end> {};

struct block : sor<section, tool_call> {};

// A call's header and then the end of output (`…function<｜tool_sep｜>edit_file`): a call
// cut before its invoke.
struct cut_header : seq<opt<calls_begin, params::ws>, call_begin, params::ws,
                        opt<call_type, params::ws, opt<tool_sep, opt<params::ws, repeated_name>>>, params::ws, eof> {};

}  // namespace toolgram::grammar::step3

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<step3::parameter> =
    "<steptml:parameter name=\"NAME\">value</steptml:parameter> or </steptml:invoke> expected";
}  // namespace toolgram::grammar::errors
