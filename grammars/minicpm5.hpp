// MiniCPM 5:
//
//   <function name="get_weather"><param name="city">Antwerp</param></function>
//
// One element per call, no wrapper; several calls follow one another. Names are
// attributes; values are text typed from the schema later (one leading and one trailing
// newline are layout), or a CDATA section taken exactly as written, which may then hold
// `</param>` or anything else but `]]>`. A text value ends at `</param>`, or at the next
// `<param name=` or `</function>` when its closer was left out; `</function>` may be left
// out before the next `<function`. An opening tag that is not followed by a parameter,
// `</function>` or the end of output is a mention in prose; after that the call commits,
// so anything but parameters inside it is a rejected call.
#pragma once

#include <tao/pegtl.hpp>

#include "error_messages.hpp"
#include "markup.hpp"
#include "params.hpp"
#include "runtime_literal.hpp"

namespace toolgram::grammar::minicpm5 {
using namespace tao::pegtl;

struct function_start : TAO_PEGTL_STRING("<function") {};
struct function_close : TAO_PEGTL_STRING("</function>") {};
struct param_start : TAO_PEGTL_STRING("<param") {};
struct param_close : TAO_PEGTL_STRING("</param>") {};

struct function_open
    : seq<params::attribute_open<function_start>, at<params::ws, sor<param_start, function_close, eof>>> {};

struct param_open : params::attribute_open<param_start> {};
struct cdata_value : seq<params::ws, markup::cdata_open,
                         sor<seq<markup::cdata_text, markup::cdata_close>, params::value_cut>, params::ws> {};
struct text_value
    : text_until_first<literal<TAO_PEGTL_STRING("</param>")>, literal<TAO_PEGTL_STRING("<param name=")>,
                       literal<TAO_PEGTL_STRING("</function>")>> {};
struct param_value : sor<cdata_value, text_value> {};
struct param : params::parameter<param_open, param_value, param_close> {};

struct function : params::committed_call<function_open, param, function_close, function_start> {};
struct block : seq<function> {};

}  // namespace toolgram::grammar::minicpm5

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<minicpm5::param> =
    "<param name=\"NAME\">value</param> or </function> expected";
}  // namespace toolgram::grammar::errors
