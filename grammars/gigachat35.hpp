// GigaChat 3.5 (GCML; `｜` is U+FF5C), after any reasoning in <think>…</think> and the answer's text:
//
//   <｜GCML｜tool_calls>
//   <｜GCML｜invoke name="get_weather">
//   <｜GCML｜parameter name="city" string="true">Kazan</｜GCML｜parameter>
//   <｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>
//   </｜GCML｜invoke>
//   </｜GCML｜tool_calls>
//
// The markup of DeepSeek's DSML (grammars/deepseek_v32.hpp) under GigaChat's own tag
// prefix: several invokes in one block; `string="true"` a text value, verbatim (typed
// from the schema later), `string="false"` a JSON value. A value ends at
// `</｜GCML｜parameter>`, or at the next `<｜GCML｜parameter name=` or `</｜GCML｜invoke>` when its
// closer was left out, where the structure after it shows that is the end
// (grammars/param_value.hpp); `</｜GCML｜invoke>` may be left out before the next invoke or
// the block's closer. The block alone is a mention in prose; once an invoke opens, the
// call commits, so anything but parameters there is a rejected call. Invokes without the
// block are read too.
#pragma once

#include <tao/pegtl.hpp>

#include "error_messages.hpp"
#include "params.hpp"
#include "runtime_literal.hpp"

namespace toolgram::grammar::gigachat35 {
using namespace tao::pegtl;

struct block_open : TAO_PEGTL_STRING("<｜GCML｜tool_calls>") {};
struct block_close : TAO_PEGTL_STRING("</｜GCML｜tool_calls>") {};

struct invoke_start : TAO_PEGTL_STRING("<｜GCML｜invoke") {};
struct invoke_open : params::attribute_open<invoke_start> {};
struct invoke_close : TAO_PEGTL_STRING("</｜GCML｜invoke>") {};

struct parameter_start : TAO_PEGTL_STRING("<｜GCML｜parameter") {};
struct parameter_open : params::attribute_open<parameter_start> {};
struct parameter_close : TAO_PEGTL_STRING("</｜GCML｜parameter>") {};

struct invoke_body_start : seq<invoke_open, params::ws, sor<parameter_open, invoke_close>> {};
struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = parameter_open;
    using close = parameter_close;
    using call_close = invoke_close;
    using call_next = sor<invoke_start, block_close>;
    using open_spellings = params::spellings<TAO_PEGTL_STRING("<｜GCML｜parameter name=")>;
    using close_spellings = params::spellings<TAO_PEGTL_STRING("</｜GCML｜parameter>")>;
    using call_close_spellings = params::spellings<TAO_PEGTL_STRING("</｜GCML｜invoke>")>;
    // The block's closer spelled whole: a bare `</｜GCML｜` also begins every parameter's
    // closer, so a value holding `</｜GCML｜parameter>\n</｜GCML｜invoke>` then more text would
    // end its call there (deepseek_v32 had the same defect).
    using call_next_spellings =
        params::spellings<TAO_PEGTL_STRING("<｜GCML｜invoke"), TAO_PEGTL_STRING("</｜GCML｜tool_calls>")>;
    using nested = params::nested_list<
        params::nested<seq<block_open, params::ws, invoke_open>, params::spellings<TAO_PEGTL_STRING("<｜GCML｜tool_calls>")>,
                       params::spellings<TAO_PEGTL_STRING("</｜GCML｜tool_calls>")>>,
        params::nested<invoke_body_start, params::spellings<TAO_PEGTL_STRING("<｜GCML｜invoke")>,
                       params::spellings<TAO_PEGTL_STRING("</｜GCML｜invoke>")>>>;
};
struct parameter_value : params::value<value_syntax> {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

struct invoke : params::committed_call<invoke_open, parameter, invoke_close, sor<invoke_start, block_close>> {};
struct wrapped : params::wrapper<block_open, invoke, block_close> {};

struct block : sor<wrapped, invoke> {};

}  // namespace toolgram::grammar::gigachat35

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<gigachat35::parameter> =
    "<｜GCML｜parameter name=\"NAME\" string=\"true|false\">value</｜GCML｜parameter> or </｜GCML｜invoke> expected";
}  // namespace toolgram::grammar::errors
