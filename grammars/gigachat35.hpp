// GigaChat 3.5 (GCML; `｜` is U+FF5C), after any reasoning in <think>…</think> and the answer's text:
//
//   <｜GCML｜tool_calls>
//   <｜GCML｜invoke name="get_weather">
//   <｜GCML｜parameter name="city" string="true">Kazan</｜GCML｜parameter>
//   <｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>
//   </｜GCML｜invoke>
//   </｜GCML｜tool_calls>
//
// DeepSeek's DSML markup under GigaChat's own tag prefix, so the rules are DSML's
// (grammars/deepseek_v32.hpp) in one more dialect: several invokes in one block;
// `string="true"` a text value, verbatim (typed from the schema later), `string="false"` a
// JSON value; a value ends at `</｜GCML｜parameter>`, or at the next `<｜GCML｜parameter name=`
// or `</｜GCML｜invoke>` when its closer was left out, where the structure after it shows
// that is the end (grammars/common/param_value.hpp); `</｜GCML｜invoke>` may be left out before the
// next invoke or the block's closer. The block alone is a mention in prose; once an invoke
// opens, the call commits, so anything but parameters there is a rejected call. Invokes
// without the block are read too. Unlike DeepSeek's, an invoke holds parameters only: no
// engine reads a JSON object there for GigaChat, and its template never writes one.
#pragma once

#include <tao/pegtl.hpp>

#include "deepseek_v32.hpp"
#include "common/error_messages.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::gigachat35 {
using namespace tao::pegtl;

struct gcml {  // a dialect of grammars/deepseek_v32.hpp
    using prefix = str<"｜GCML｜">;
    using name_a = str<"tool_calls">;
    using name_b = str<"tool_calls">;
    static constexpr bool json_body = false;
};

using block = deepseek_v32::block<gcml>;

}  // namespace toolgram::grammar::gigachat35

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<deepseek_v32::parameter<gigachat35::gcml>> =
    "<｜GCML｜parameter name=\"NAME\" string=\"true|false\">value</｜GCML｜parameter> or </｜GCML｜invoke> expected";
}  // namespace toolgram::grammar::errors
