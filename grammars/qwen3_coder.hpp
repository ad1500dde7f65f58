// Qwen3-Coder, Qwen3.5/3.6, Nemotron 3 Nano, MiMo, Step 3.5:
//
//   <tool_call>
//   <function=get_weather>
//   <parameter=city>
//   Antwerp
//   </parameter>
//   </function>
//   </tool_call>
//
// Values are text (typed from the schema later); one leading and one trailing newline
// are layout. Real outputs drop the <tool_call> wrapper, drop or add newlines, and leave
// out `</parameter>` before the next parameter: a value ends at whichever of
// `</parameter>`, `<parameter=`, `</function>` comes first; `</function>` may be left out
// before the next `<function=` or `</tool_call>`. A value with no terminator before the
// end of output was cut and is never accepted. `<function=NAME>` is also Functionary
// v3.1's opener (with a JSON body), so a function that holds anything but parameters is
// declined, not rejected. The `<function=…>` rules are shared with seed_oss.
#pragma once

#include <tao/pegtl.hpp>

#include "error_messages.hpp"
#include "params.hpp"
#include "runtime_literal.hpp"

namespace toolgram::grammar::qwen3_coder {
using namespace tao::pegtl;

struct tag_text : plus<not_one<'>', '<', '\n', '\r'>> {};

struct function_start : TAO_PEGTL_STRING("<function=") {};
struct function_name : tag_text {};
struct function_open : seq<function_start, function_name, one<'>'>> {};
struct function_close : TAO_PEGTL_STRING("</function>") {};

struct parameter_name : tag_text {};
struct parameter_open : seq<TAO_PEGTL_STRING("<parameter="), parameter_name, one<'>'>> {};
struct parameter_value
    : text_until_first<literal<TAO_PEGTL_STRING("</parameter>")>, literal<TAO_PEGTL_STRING("<parameter=")>,
                       literal<TAO_PEGTL_STRING("</function>")>> {};
struct parameter_close : TAO_PEGTL_STRING("</parameter>") {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

struct wrapper_open : TAO_PEGTL_STRING("<tool_call>") {};
struct wrapper_close : TAO_PEGTL_STRING("</tool_call>") {};
struct function : params::call<function_open, parameter, function_close, sor<wrapper_close, function_start>> {};
struct wrapped : params::wrapper<wrapper_open, function, wrapper_close> {};

struct block : sor<wrapped, function> {};

}  // namespace toolgram::grammar::qwen3_coder

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<qwen3_coder::parameter> =
    "<parameter=NAME>value</parameter> or </function> expected";
}  // namespace toolgram::grammar::errors
