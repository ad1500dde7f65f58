// Seed-OSS:
//
//   <seed:tool_call>
//   <function=get_weather>
//   <parameter=city>Antwerp</parameter>
//   </function>
//   </seed:tool_call>
//
// qwen3_coder's function and parameter syntax (its rules, composed here) inside Seed's
// own wrapper, one block per call. Values are text typed from the schema, written verbatim
// by Seed's template (`<parameter=K>V</parameter>`), so no line break around one is layout.
// Where a value ends, when it holds the syntax's own tags, is decided as in qwen3_coder
// with Seed's wrapper; closers the model leaves out are tolerated as there. The wrapper is distinctive, so once `<seed:tool_call>` and `<function=NAME>`
// are seen the call commits: anything but parameters inside it is a rejected call.
// Reasoning is `<seed:think>…</seed:think>` (profile settings).
#pragma once

#include <tao/pegtl.hpp>

#include "common/params.hpp"
#include "qwen3_coder.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::seed_oss {
using namespace tao::pegtl;

struct wrapper_open : str<"<seed:tool_call>"> {};
struct wrapper_close : str<"</seed:tool_call>"> {};
using value_syntax = qwen3_coder::value_syntax_in<wrapper_open, wrapper_close, str<"<seed:tool_call>">,
                                                  str<"</seed:tool_call>">>;  // a Syntax, not a rule
struct parameter_value : params::value<value_syntax> {};
struct parameter : params::parameter<qwen3_coder::parameter_open, parameter_value, qwen3_coder::parameter_close> {};
struct function : params::committed_call<qwen3_coder::function_open, parameter, qwen3_coder::function_close,
                                         sor<wrapper_close, qwen3_coder::function_start>> {};
struct block : params::wrapper<wrapper_open, function, wrapper_close> {};

}  // namespace toolgram::grammar::seed_oss

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<seed_oss::parameter> = message<qwen3_coder::parameter>;
}  // namespace toolgram::grammar::errors
