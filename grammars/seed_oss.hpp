// Seed-OSS:
//
//   <seed:tool_call>
//   <function=get_weather>
//   <parameter=city>Antwerp</parameter>
//   </function>
//   </seed:tool_call>
//
// qwen3_coder's function and parameter syntax (its rules, composed here) inside Seed's
// own wrapper, one block per call. Values are text typed from the schema; one leading and
// one trailing newline are layout. Closers the model leaves out are tolerated as in
// qwen3_coder. The wrapper is distinctive, so once `<seed:tool_call>` and `<function=NAME>`
// are seen the call commits: anything but parameters inside it is a rejected call.
// Reasoning is `<seed:think>…</seed:think>` (profile settings).
#pragma once

#include <tao/pegtl.hpp>

#include "params.hpp"
#include "qwen3_coder.hpp"

namespace toolgram::grammar::seed_oss {
using namespace tao::pegtl;

struct wrapper_open : TAO_PEGTL_STRING("<seed:tool_call>") {};
struct wrapper_close : TAO_PEGTL_STRING("</seed:tool_call>") {};
struct function : params::committed_call<qwen3_coder::function_open, qwen3_coder::parameter, qwen3_coder::function_close,
                                         sor<wrapper_close, qwen3_coder::function_start>> {};
struct block : params::wrapper<wrapper_open, function, wrapper_close> {};

}  // namespace toolgram::grammar::seed_oss
