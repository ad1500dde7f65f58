// Shapes shared by the families whose arguments are named text parameters (qwen3_coder,
// seed_oss, minimax_m2, minicpm5, step3, deepseek_v32, …); src/readers/params_reader.hpp maps them
// to their behaviours once for all of them.
//
//   WRAPPER_OPEN  CALL_OPEN  PARAM_OPEN value [PARAM_CLOSE] …  CALL_CLOSE  …  WRAPPER_CLOSE
//
// A family names its own tags and its value rule and composes these templates. Real
// outputs drop closers, so each closer is optional where the next thing can be recognised
// without it: a parameter's closer (its value ends at the family's first terminator), a
// call's closer (before the next call or the wrapper's closer), the wrapper's closer. A
// closer missing at the very end of output was cut off and is healed; a value with no
// terminator before the end of output was cut and is never accepted (`value_cut`).
//
// Two call shapes: `call` declines on anything it does not expect (for openers that other
// syntaxes share, such as `<function=`), `committed_call` raises instead, so text that is
// surely broken tool syntax becomes a rejected candidate with a reason, not prose.
#pragma once

#include <string_view>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "common/markup.hpp"
#include "common/param_value.hpp"

namespace toolgram::grammar::params {
using namespace tao::pegtl;

struct ws : star<space> {};

// An opening tag that names its call or parameter in attributes: <invoke name="NAME">,
// <parameter name="K" string="true"> (the markup attribute rules, any quoting and order).
template <typename Start>
struct attribute_open : seq<Start, plus<space>, markup::attributes, ws, one<'>'>> {};

// A value's text is the family's `value<Syntax>` (param_value.hpp): it ends where the
// structure after it shows, not at the first closer, since values may hold the markup.
// A value with no terminator before the end of output: cut there.
struct value_cut : rest_of_input {};
// A value's closer written again, blanks between (`</parameter>\n</parameter>`): where the
// value's scan found the structure to hold only after the repeats, it ended the value at the
// first and tells the state how far the repeats run; this skips them (a repair).
struct repeated_close {
    using rule_t = repeated_close;
    using subs_t = empty_list;
    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const std::size_t at = st.offset_of(in.current());
        const std::size_t to = st.repeated_closers_end();
        if (to == std::string_view::npos || to <= at || to - at > in.size(to - at)) return false;
        in.bump(to - at);
        return true;
    }
};
template <typename Open, typename Value, typename Close>
struct parameter : seq<Open, sor<Value, value_cut>, opt<Close, opt<repeated_close>>> {};

struct call_cut_off : eof {};                                  // output ended where the closer was due
template <typename Next>
struct call_close_missing : at<Next> {};                       // closer left out before Next
template <typename Close, typename Next>
struct call_end : sor<Close, call_cut_off, call_close_missing<Next>> {};

template <typename Open, typename Param, typename Close, typename Next>
struct call : seq<Open, ws, star<Param, ws>, call_end<Close, Next>> {};
// After Open, only parameters until the call's end: anything else raises with the
// message of the family's Param rule (errors::message<Param>).
template <typename Open, typename Param, typename Close, typename Next>
struct committed_call : seq<Open, ws, until<call_end<Close, Next>, must<Param>, ws>> {};

struct wrapper_cut_off : eof {};
struct wrapper_close_missing : success {};
template <typename Open, typename Call, typename Close>
struct wrapper : seq<Open, ws, plus<Call, ws>, sor<Close, wrapper_cut_off, wrapper_close_missing>> {};

}  // namespace toolgram::grammar::params

namespace tao::pegtl {
template <typename Name>
struct analyze_traits<Name, toolgram::grammar::params::repeated_close> : analyze_opt_traits<> {};
}  // namespace tao::pegtl
