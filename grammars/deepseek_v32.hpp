// DeepSeek V3.2 and V4 (DSML; `｜` is U+FF5C):
//
//   <｜DSML｜function_calls>
//   <｜DSML｜invoke name="get_weather">
//   <｜DSML｜parameter name="city" string="true">Antwerp</｜DSML｜parameter>
//   <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
//   </｜DSML｜invoke>
//   </｜DSML｜function_calls>
//
// V4 names the block `tool_calls`. Several invokes per block. `string="true"` marks a text
// value (typed from the schema later, so a zip code stays a string); `string="false"` a
// JSON value (the reader decides per parameter from the attribute); text is written
// verbatim by the template. A value ends at `</｜DSML｜parameter>`, or at the next
// `<｜DSML｜parameter name=` or `</｜DSML｜invoke>` when its closer was left out, where the
// structure after it shows that is the end (grammars/param_value.hpp); `</｜DSML｜invoke>` may be left out before the next invoke or
// the block's closer. The block alone is a mention in prose; once an invoke opens the
// call commits, so anything but parameters there is a rejected call. Invokes without the
// block are read too.
#pragma once

#include <tao/pegtl.hpp>

#include "error_messages.hpp"
#include "params.hpp"
#include "runtime_literal.hpp"

namespace toolgram::grammar::deepseek_v32 {
using namespace tao::pegtl;

struct block_name : sor<TAO_PEGTL_STRING("function_calls"), TAO_PEGTL_STRING("tool_calls")> {};
struct block_open : seq<TAO_PEGTL_STRING("<｜DSML｜"), block_name, one<'>'>> {};
struct block_close : seq<TAO_PEGTL_STRING("</｜DSML｜"), block_name, one<'>'>> {};

struct invoke_start : TAO_PEGTL_STRING("<｜DSML｜invoke") {};
struct invoke_open : params::attribute_open<invoke_start> {};
struct invoke_close : TAO_PEGTL_STRING("</｜DSML｜invoke>") {};

struct parameter_start : TAO_PEGTL_STRING("<｜DSML｜parameter") {};
struct parameter_open : params::attribute_open<parameter_start> {};
struct parameter_close : TAO_PEGTL_STRING("</｜DSML｜parameter>") {};

struct invoke_body_start : seq<invoke_open, params::ws, sor<parameter_open, invoke_close>> {};
struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = parameter_open;
    using close = parameter_close;
    using call_close = invoke_close;
    using call_next = sor<invoke_start, block_close>;
    using open_spellings = params::spellings<TAO_PEGTL_STRING("<｜DSML｜parameter name=")>;
    using close_spellings = params::spellings<TAO_PEGTL_STRING("</｜DSML｜parameter>")>;
    using call_close_spellings = params::spellings<TAO_PEGTL_STRING("</｜DSML｜invoke>")>;
    using call_next_spellings = params::spellings<TAO_PEGTL_STRING("<｜DSML｜invoke"), TAO_PEGTL_STRING("</｜DSML｜")>;
    using nested = params::nested_list<
        params::nested<seq<block_open, params::ws, invoke_open>,
                       params::spellings<TAO_PEGTL_STRING("<｜DSML｜function_calls>"), TAO_PEGTL_STRING("<｜DSML｜tool_calls>")>,
                       params::spellings<TAO_PEGTL_STRING("</｜DSML｜function_calls>"), TAO_PEGTL_STRING("</｜DSML｜tool_calls>")>>,
        params::nested<invoke_body_start, params::spellings<TAO_PEGTL_STRING("<｜DSML｜invoke")>,
                       params::spellings<TAO_PEGTL_STRING("</｜DSML｜invoke>")>>>;
};
struct parameter_value : params::value<value_syntax> {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

struct invoke : params::committed_call<invoke_open, parameter, invoke_close, sor<invoke_start, block_close>> {};
struct wrapped : params::wrapper<block_open, invoke, block_close> {};

struct block : sor<wrapped, invoke> {};

}  // namespace toolgram::grammar::deepseek_v32

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<deepseek_v32::parameter> =
    "<｜DSML｜parameter name=\"NAME\" string=\"true|false\">value</｜DSML｜parameter> or </｜DSML｜invoke> expected";
}  // namespace toolgram::grammar::errors
