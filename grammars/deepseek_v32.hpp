// DeepSeek V3.2, V4 and V4.1 (DSML; `｜` is U+FF5C):
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
// structure after it shows that is the end (grammars/common/param_value.hpp); `</｜DSML｜invoke>` may
// be left out before the next invoke or the block's closer. An invoke may hold one JSON
// object in place of its parameters (`<｜DSML｜invoke name="f">\n{"city": "SF"}\n</｜DSML｜invoke>`:
// the form SGLang's and vLLM's V3.2 parsers read, and the body SGLang's V4.1 structural tag
// makes the model write). The block alone is a mention in prose; once an invoke opens the
// call commits, so anything but parameters (or that one object) there is a rejected call.
// Invokes without the block are read too.
//
// The tags come in dialects, one per block (a block is read in the dialect of its opener,
// so a value holding another dialect's tags is text):
//   - canonical: `<｜DSML｜tool_calls>`, `<｜DSML｜invoke`, … (V3.2, V4);
//   - spaced: DeepSeek V4.1's template puts a space before every tag name (`<｜DSML｜ calls>`,
//     `<｜DSML｜ invoke`, `<｜DSML｜ parameter`: SGLang's `deepseekv41`, its encoding_dsv41.py);
//   - drifted spellings seen in real outputs once `｜DSML｜` passed through a gateway or a
//     detokenizer that lost it: ASCII bars `<|DSML|tool_calls>`, the leading bar lost
//     `<DSML|tool_calls>` or, with the full-width bar kept, `<DSML｜tool_calls>` (ds2api's
//     fixtures, antirez's ds4 parser), both lost `<DSMLtool_calls>`. These are ordinary text, not a
//     special token, so the reader takes such an opener only where blocks stand (first on
//     its line or right after a tag): "it wrote <|DSML|invoke> by mistake" stays prose.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <type_traits>

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/lenient_value.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::deepseek_v32 {
using namespace tao::pegtl;

// A dialect: what stands between `<` (or `</`) and a tag's name, the block's two names, and
// whether an invoke may hold one JSON object in place of its parameters (DeepSeek's may;
// another family writing DSML under its own prefix says for itself: grammars/gigachat35.hpp).
struct canonical {
    using prefix = str<"｜DSML｜">;
    using name_a = str<"function_calls">;
    using name_b = str<"tool_calls">;
    static constexpr bool json_body = true;
};
struct spaced {  // DeepSeek V4.1
    using prefix = str<"｜DSML｜ ">;
    using name_a = str<"calls">;
    using name_b = str<"tool_calls">;
    static constexpr bool json_body = true;
};
struct ascii_bars {
    using prefix = str<"|DSML|">;
    using name_a = str<"function_calls">;
    using name_b = str<"tool_calls">;
    static constexpr bool json_body = true;
};
struct leading_bar_lost {
    using prefix = str<"DSML|">;
    using name_a = str<"function_calls">;
    using name_b = str<"tool_calls">;
    static constexpr bool json_body = true;
};
struct leading_bar_lost_full_width {  // `<DSML｜…`: the bar after DSML still U+FF5C
    using prefix = str<"DSML｜">;
    using name_a = str<"function_calls">;
    using name_b = str<"tool_calls">;
    static constexpr bool json_body = true;
};
struct bars_lost {
    using prefix = str<"DSML">;
    using name_a = str<"function_calls">;
    using name_b = str<"tool_calls">;
    static constexpr bool json_body = true;
};

// Pieces of the tags' spellings (strings, composed into rules and into search texts).
using lt = str<"<">;
using lt_slash = str<"</">;
using gt = str<">">;
using invoke_word = str<"invoke">;
using parameter_word = str<"parameter">;
using parameter_name_word = str<"parameter name=">;

// A tag's text, LEAD + the dialect's prefix + NAME (+ TAIL), as a Getter for the searches
// of param_value.hpp (one spelling, built once).
template <typename Lead, typename D, typename Name, typename... Tail>
struct tag_text {
    template <typename State>
    static std::array<std::string_view, 1> get(const State& st) {
        static const std::string text = [&] {
            std::string t(literal<Lead>::get(st));
            t += literal<typename D::prefix>::get(st);
            t += literal<Name>::get(st);
            ((t += literal<Tail>::get(st)), ...);
            return t;
        }();
        return {text};
    }
};

template <typename D>
struct block_name : sor<typename D::name_a, typename D::name_b> {};
template <typename D>
struct block_open : seq<lt, typename D::prefix, block_name<D>, one<'>'>> {};
template <typename D>
struct block_close : seq<lt_slash, typename D::prefix, block_name<D>, one<'>'>> {};

template <typename D>
struct invoke_start : seq<lt, typename D::prefix, invoke_word> {};
template <typename D>
struct invoke_open : params::attribute_open<invoke_start<D>> {};
template <typename D>
struct invoke_close : seq<lt_slash, typename D::prefix, invoke_word, one<'>'>> {};

template <typename D>
struct parameter_start : seq<lt, typename D::prefix, parameter_word> {};
template <typename D>
struct parameter_open : params::attribute_open<parameter_start<D>> {};
template <typename D>
struct parameter_close : seq<lt_slash, typename D::prefix, parameter_word, one<'>'>> {};

template <typename D>
struct call_next : sor<invoke_start<D>, block_close<D>> {};
template <typename D>
struct invoke_body_start
    : seq<invoke_open<D>, params::ws,
          std::conditional_t<D::json_body, sor<parameter_open<D>, invoke_close<D>, one<'{'>>,
                             sor<parameter_open<D>, invoke_close<D>>>> {};

template <typename D>
struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = parameter_open<D>;
    using close = parameter_close<D>;
    using call_close = invoke_close<D>;
    using call_next = deepseek_v32::call_next<D>;
    using open_spellings = tag_text<lt, D, parameter_name_word>;
    using close_spellings = tag_text<lt_slash, D, parameter_word, gt>;
    using call_close_spellings = tag_text<lt_slash, D, invoke_word, gt>;
    using call_next_spellings = params::spellings_of<tag_text<lt, D, invoke_word>, tag_text<lt_slash, D, typename D::name_a, gt>,
                                                     tag_text<lt_slash, D, typename D::name_b, gt>>;
    using nested = params::nested_list<
        params::nested<seq<block_open<D>, params::ws, invoke_open<D>>,
                       params::spellings_of<tag_text<lt, D, typename D::name_a, gt>, tag_text<lt, D, typename D::name_b, gt>>,
                       params::spellings_of<tag_text<lt_slash, D, typename D::name_a, gt>,
                                            tag_text<lt_slash, D, typename D::name_b, gt>>>,
        params::nested<invoke_body_start<D>, tag_text<lt, D, invoke_word>, tag_text<lt_slash, D, invoke_word, gt>>>;
};
template <typename D>
struct parameter_value : params::value<value_syntax<D>> {};
template <typename D>
struct parameter : params::parameter<parameter_open<D>, parameter_value<D>, parameter_close<D>> {};

// The invoke's end, as after parameters: its closer, or the end of output (cut), or the
// next invoke or the block's closer (the closer left out).
template <typename D>
struct invoke_end : params::call_end<invoke_close<D>, call_next<D>> {};

// One JSON object in place of the parameters: its members are the arguments, JSON values
// (the lenient reader's repairs reported).
template <typename D>
struct json_arguments : seq<at<one<'{'>>, lenient::value> {};
template <typename D>
struct json_arguments_end : seq<invoke_end<D>> {};
template <typename D>
struct json_body : seq<json_arguments<D>, params::ws, must<json_arguments_end<D>>> {};
template <typename D>
struct parameters : until<invoke_end<D>, must<parameter<D>>, params::ws> {};

template <typename D>
struct invoke
    : seq<invoke_open<D>, params::ws, std::conditional_t<D::json_body, sor<json_body<D>, parameters<D>>, parameters<D>>> {};
template <typename D>
struct wrapped : params::wrapper<block_open<D>, invoke<D>, block_close<D>> {};

template <typename D>
struct block : sor<wrapped<D>, invoke<D>> {};

}  // namespace toolgram::grammar::deepseek_v32

namespace toolgram::grammar::errors {
template <typename D>
inline constexpr const char* message<deepseek_v32::parameter<D>> =
    "<｜DSML｜parameter name=\"NAME\" string=\"true|false\">value</｜DSML｜parameter> or </｜DSML｜invoke> expected";
template <typename D>
inline constexpr const char* message<deepseek_v32::json_arguments_end<D>> =
    "</｜DSML｜invoke> expected after the invoke's JSON arguments";
}  // namespace toolgram::grammar::errors
