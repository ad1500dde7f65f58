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
// Values are text (typed from the schema later); the template writes a line break on each
// side of a value, and those two are layout (the reader's ValueLayout). Real outputs drop
// the <tool_call> wrapper, drop or add newlines, and leave out `</parameter>` before the
// next parameter; a value may hold the syntax's own tags (a file holding `</parameter>`,
// an example call), so it ends where the structure after a candidate end shows it is one
// (grammars/common/param_value.hpp: a closer then the next parameter or the call's real closer;
// a declared parameter's opener or the call's real closer where the closer was left out),
// and an example `<tool_call>…</tool_call>` or `<function=…>…</function>` inside it is
// skipped. `</function>` may be left out before the next `<function=` or `</tool_call>`.
// A value with no end before the end of output was cut and is never accepted.
// `<function=NAME>` is also Functionary v3.1's opener (with a JSON body), so a function
// that holds anything but parameters is declined, not rejected. The `<function=…>` rules
// are shared with seed_oss.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::qwen3_coder {
using namespace tao::pegtl;

struct tag_text : plus<not_one<'>', '<', '\n', '\r'>> {};

struct function_start : str<"<function="> {};
struct function_name : tag_text {};
struct function_open : seq<function_start, function_name, one<'>'>> {};
struct function_close : str<"</function>"> {};

struct parameter_name : tag_text {};
struct parameter_open : seq<str<"<parameter=">, parameter_name, one<'>'>> {};
struct parameter_close : str<"</parameter>"> {};

struct wrapper_open : str<"<tool_call>"> {};
struct wrapper_close : str<"</tool_call>"> {};

// The tags a value may hold and how to tell them from the real ones (param_value.hpp);
// `Wrapper…` are the family's block tags (Seed-OSS composes these rules in its own).
struct function_body_start : seq<function_open, params::ws, sor<parameter_open, function_close>> {};
template <typename WrapperOpen, typename WrapperClose, typename WrapperOpenS, typename WrapperCloseS>
struct value_syntax_in {
    using open = parameter_open;
    using close = parameter_close;
    using call_close = function_close;
    using call_next = sor<WrapperClose, function_start, WrapperOpen>;
    using open_spellings = params::spellings<str<"<parameter=">>;
    using close_spellings = params::spellings<str<"</parameter>">>;
    using call_close_spellings = params::spellings<str<"</function>">>;
    using call_next_spellings = params::spellings<WrapperCloseS, str<"<function=">, WrapperOpenS>;
    using nested = params::nested_list<
        params::nested<seq<WrapperOpen, params::ws, function_open>, params::spellings<WrapperOpenS>,
                       params::spellings<WrapperCloseS>>,
        params::nested<function_body_start, params::spellings<str<"<function=">>,
                       params::spellings<str<"</function>">>>>;
};
using value_syntax = value_syntax_in<wrapper_open, wrapper_close, str<"<tool_call>">,
                                     str<"</tool_call>">>;  // a Syntax, not a rule

struct parameter_value : params::value<value_syntax> {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

struct function : params::call<function_open, parameter, function_close, sor<wrapper_close, function_start>> {};
struct wrapped : params::wrapper<wrapper_open, function, wrapper_close> {};

// Qwen3-Coder often leaves out the `<tool_call>` opener and still writes the closer
// (ollama#16686, ollama#18530): a `</tool_call>` right after an unwrapped call closes that
// call's missing wrapper, tool syntax rather than prose.
struct orphan_wrapper_close : seq<params::ws, wrapper_close> {};
struct unwrapped : seq<function, opt<orphan_wrapper_close>> {};

struct block : sor<wrapped, unwrapped> {};

}  // namespace toolgram::grammar::qwen3_coder

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<qwen3_coder::parameter> =
    "<parameter=NAME>value</parameter> or </function> expected";
}  // namespace toolgram::grammar::errors
