// MiniCPM 5:
//
//   <function name="get_weather"><param name="city">Antwerp</param></function>
//
// One element per call, no wrapper; several calls follow one another. Names are
// attributes; values are text typed from the schema later, written verbatim by the
// template, or a CDATA section (the template's escape for values holding `<`, `&` or a
// line break) taken exactly as written, which may then hold `</param>` or anything else
// but `]]>`. A value ends at `</param>`, or at the next `<param name=` or `</function>`
// when its closer was left out, where the structure after it shows that is the end
// (grammars/common/param_value.hpp); `</function>` may be left out before the next `<function`. An opening tag that is not followed by a parameter,
// `</function>` or the end of output is a mention in prose; after that the call commits,
// so anything but parameters inside it is a rejected call.
//
// MiniCPM 5's byte-level tokenizer spells a space `Ġ` (U+0120); a decoder that misses it
// leaves that character where the space between a tag's name and its attributes belongs
// (`<functionĠname="get_weather">`, `<paramĠname="city">`), and some outputs lose the space
// altogether (`<functionname="get_weather">`): vLLM's minicpm5 parser tests read both.
// Only that place is read so (each reported as a repair); a `Ġ` anywhere else, in a value
// or in prose, is the text's own.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/markup.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::minicpm5 {
using namespace tao::pegtl;

struct function_start : str<"<function"> {};
struct function_close : str<"</function>"> {};
struct param_start : str<"<param"> {};
struct param_close : str<"</param>"> {};

// What stands between a tag's name and its first attribute.
struct byte_level_space : str<"Ġ"> {};
struct space_lost : at<str<"name=">> {};
struct tag_space : sor<plus<space>, byte_level_space, space_lost> {};
template <typename Start>
struct tag_open : seq<Start, tag_space, markup::attributes, params::ws, one<'>'>> {};

struct function_open : seq<tag_open<function_start>, at<params::ws, sor<param_start, function_close, eof>>> {};

struct param_open : tag_open<param_start> {};

struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = param_open;
    using close = param_close;
    using call_close = function_close;
    using call_next = function_start;
    using open_spellings = params::spellings<str<"<param name=">, str<"<paramĠname=">,
                                             str<"<paramname=">>;
    using close_spellings = params::spellings<str<"</param>">>;
    using call_close_spellings = params::spellings<str<"</function>">>;
    using call_next_spellings = params::spellings<str<"<function">>;
    using nested = params::nested_list<params::nested<function_open, params::spellings<str<"<function">>,
                                                      params::spellings<str<"</function>">>>>;
};
struct param_value : params::value<value_syntax> {};
struct param : params::parameter<param_open, param_value, param_close> {};

struct function : params::committed_call<function_open, param, function_close, function_start> {};
struct block : seq<function> {};

}  // namespace toolgram::grammar::minicpm5

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<minicpm5::param> =
    "<param name=\"NAME\">value</param> or </function> expected";
}  // namespace toolgram::grammar::errors
