// MiniMax-M2:
//
//   <minimax:tool_call>
//   <invoke name="get_weather">
//   <parameter name="city">Antwerp</parameter>
//   </invoke>
//   <invoke name="search_web">
//   …
//   </invoke>
//   </minimax:tool_call>
//
// Several invokes per block. Names are attributes; values are text (JSON for arrays and
// objects), typed from the schema later, written verbatim by the template. A value ends at
// `</parameter>`, or at the next `<parameter name=` or `</invoke>` when its closer was left
// out, where the structure after it shows that is the end (grammars/common/param_value.hpp: a value
// may hold these tags, or an example invoke); `</invoke>` may be left out before the next
// `<invoke` or the block's closer. The wrapper alone is a mention (prose); once an invoke opens inside it
// the call commits, so anything but parameters there is a rejected call.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::minimax_m2 {
using namespace tao::pegtl;

struct block_open : str<"<minimax:tool_call>"> {};
struct block_close : str<"</minimax:tool_call>"> {};

struct invoke_start : str<"<invoke"> {};
struct invoke_open : params::attribute_open<invoke_start> {};
struct invoke_close : str<"</invoke>"> {};

struct parameter_start : str<"<parameter"> {};
struct parameter_open : params::attribute_open<parameter_start> {};
struct parameter_close : str<"</parameter>"> {};

struct invoke_body_start : seq<invoke_open, params::ws, sor<parameter_open, invoke_close>> {};
struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = parameter_open;
    using close = parameter_close;
    using call_close = invoke_close;
    using call_next = sor<invoke_start, block_close>;
    using open_spellings = params::spellings<str<"<parameter name=">>;
    using close_spellings = params::spellings<str<"</parameter>">>;
    using call_close_spellings = params::spellings<str<"</invoke>">>;
    using call_next_spellings = params::spellings<str<"<invoke">, str<"</minimax:tool_call>">>;
    using nested = params::nested_list<
        params::nested<seq<block_open, params::ws, invoke_open>, params::spellings<str<"<minimax:tool_call>">>,
                       params::spellings<str<"</minimax:tool_call>">>>,
        params::nested<invoke_body_start, params::spellings<str<"<invoke">>,
                       params::spellings<str<"</invoke>">>>>;
};
struct parameter_value : params::value<value_syntax> {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

struct invoke : params::committed_call<invoke_open, parameter, invoke_close, sor<invoke_start, block_close>> {};
struct block : params::wrapper<block_open, invoke, block_close> {};

}  // namespace toolgram::grammar::minimax_m2

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<minimax_m2::parameter> =
    "<parameter name=\"NAME\">value</parameter> or </invoke> expected";
}  // namespace toolgram::grammar::errors
