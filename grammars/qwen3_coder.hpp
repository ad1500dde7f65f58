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
// `</parameter>`, `<parameter=`, `</function>` comes first. A value with no terminator
// before the end of output was cut and is never accepted.
#pragma once

#include <tao/pegtl.hpp>

#include "runtime_literal.hpp"

namespace toolgram::grammar::qwen3_coder {
using namespace tao::pegtl;
using tao::pegtl::opt;  // a using-declaration: valijson brings a global `opt` into view

struct ws : star<space> {};
struct tag_text : plus<not_one<'>', '<', '\n', '\r'>> {};

struct function_name : tag_text {};
struct function_open : seq<TAO_PEGTL_STRING("<function="), function_name, one<'>'>> {};

struct parameter_name : tag_text {};
struct parameter_open : seq<TAO_PEGTL_STRING("<parameter="), parameter_name, one<'>'>> {};
struct parameter_value
    : text_until_first<literal<TAO_PEGTL_STRING("</parameter>")>, literal<TAO_PEGTL_STRING("<parameter=")>,
                       literal<TAO_PEGTL_STRING("</function>")>> {};
struct parameter_value_cut : until<eof> {};
struct parameter_close : TAO_PEGTL_STRING("</parameter>") {};
struct parameter : seq<parameter_open, sor<parameter_value, parameter_value_cut>, opt<parameter_close>> {};

struct wrapper_close : TAO_PEGTL_STRING("</tool_call>") {};
struct function_close : TAO_PEGTL_STRING("</function>") {};
struct function_cut_off : eof {};
struct function_close_missing : at<wrapper_close> {};
struct function_end : sor<function_close, function_cut_off, function_close_missing> {};
struct function : seq<function_open, ws, star<parameter, ws>, function_end> {};

struct wrapper_open : TAO_PEGTL_STRING("<tool_call>") {};
struct wrapper_cut_off : eof {};
struct wrapper_close_missing : success {};
struct wrapped : seq<wrapper_open, ws, plus<function, ws>, sor<wrapper_close, wrapper_cut_off, wrapper_close_missing>> {};

struct block : sor<wrapped, function> {};

}  // namespace toolgram::grammar::qwen3_coder
