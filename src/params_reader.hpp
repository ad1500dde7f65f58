// Shared actions and reader for XML-style families whose arguments are named text
// parameters (qwen3_coder, seed_oss, glm45, minimax_m2, minicpm5, step3, deepseek_v32, …).
//
// A family's grammar names its own rules; its action template maps each of them to one
// of the behaviours below (`template <> struct action<fam::function_name> :
// params::call_name {}`), so the rules stay the family's and the candidate-building code
// is written once. Values stay text and are typed from the tool's schema in phase two;
// one leading and one trailing newline around a value are layout, not value.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "block_reader.hpp"
#include "markup_actions.hpp"
#include "params.hpp"

namespace toolgram::detail {

struct ParamsState : BlockState {
    std::vector<Candidate> calls;
    Candidate current;
    std::string key;
    bool in_call = false;

    void begin_call(std::string_view name, std::size_t begin);
    void set_text(std::string_view raw);         // a text value, layout newlines removed
    void set_json_value(std::string_view raw);   // a value the syntax marks as JSON
    void end_call(std::size_t end);
};

// One leading and one trailing newline (\n or \r\n) are layout around a value.
std::string_view strip_layout_newlines(std::string_view s);
std::string trim_text(std::string_view s);

namespace params {

struct call_name {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.begin_call(in.string_view(), st.offset_of(in.begin())); }
};
struct call_id {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.current.id = trim_text(in.string_view()); }
};
struct param_key {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.key = trim_text(in.string_view()); }
};
struct param_value {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.set_text(in.string_view()); }
};
struct param_raw_value {  // a value taken as written (CDATA): no layout to remove
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { set_argument(st.current, st.key, in.string()); }
};
struct param_json_value {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.set_json_value(in.string_view()); }
};
struct param_value_cut {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        st.current.problem = "output cut inside the value of parameter \"" + st.key + "\"";
        st.current.problem_offset = st.offset_of(in.begin());
        st.current.cut = true;
    }
};
struct call_end {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.end_call(st.offset_of(in.end())); }
};
struct cut_off {  // the output ended where a closer was due
    template <typename Input>
    static void apply(const Input&, ParamsState& st) {
        st.healed = true;
        st.note("missing_end_tag");
    }
};
struct missing_close {  // a closer the model left out, with more text after it
    template <typename Input>
    static void apply(const Input&, ParamsState& st) { st.note("missing_end_tag"); }
};

// Tags that carry names as attributes (<invoke name="NAME">, <parameter name="K" …>): the
// family's rule for the tag's start clears the attributes collected so far (tag_begin),
// its rule for the whole opening tag reads them (markup attributes, collected by
// attribute_action).
struct tag_begin {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) { st.clear_attributes(); }
};
struct call_name_attribute {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* name = st.attribute("name");
        st.begin_call(name ? std::string_view(*name) : std::string_view{}, st.offset_of(in.begin()));
    }
};
struct param_key_attribute {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) {
        const std::string* name = st.attribute("name");
        st.key = name ? trim_text(*name) : std::string{};
    }
};

// The shapes of grammars/params.hpp mapped to their behaviours, and markup attributes
// collected: a family's action template derives from this and maps its own rules.
template <typename Rule>
struct shape_action : attribute_action<Rule> {};
template <> struct shape_action<grammar::params::value_cut> : param_value_cut {};
template <> struct shape_action<grammar::params::call_cut_off> : cut_off {};
template <typename Next> struct shape_action<grammar::params::call_close_missing<Next>> : missing_close {};
template <> struct shape_action<grammar::params::wrapper_cut_off> : cut_off {};
template <> struct shape_action<grammar::params::wrapper_close_missing> : missing_close {};

}  // namespace params

// Runs a params rule at `at`; `closer` bounds a block that broke.
// `Control` raises the errors (a grammar whose messages are known only at run time brings
// its own).
template <typename Rule, template <typename...> class Action,
          template <typename...> class Control = grammar::errors::control>
std::optional<Block> read_params_block(ScanContext& ctx, std::size_t at, std::string_view grammar,
                                       std::string_view closer) {
    ParamsState st;
    const RunResult r = run_rule_at<Rule, Action, Control>(ctx, at, st);
    if (r.failed) return failed_block_to_closer(ctx, grammar, at, r.failure, closer);
    if (!r.matched || st.calls.empty()) return std::nullopt;
    Block block;
    block.begin = at;
    block.end = r.end;
    for (auto& c : st.calls) {
        c.grammar = std::string(grammar);
        c.repairs |= st.repairs;
        c.healed = c.healed || st.healed;
        for (const auto& n : st.notes) c.notes.push_back(n);
        block.candidates.push_back(std::move(c));
    }
    return block;
}

// Writes a value as a parameter's text: strings as they are, anything else as JSON.
std::string parameter_text(const json& value);

// Where a named-parameter syntax puts its tokens, for writing calls as its models do:
// SECTION_OPEN ( CALL_OPEN name CALL_NAME_END ( PARAM_OPEN key PARAM_KEY_END value PARAM_CLOSE )* CALL_CLOSE )* SECTION_CLOSE
struct ParamsLayout {
    std::string_view section_open, section_close;
    std::string_view call_open, call_name_end, call_close;
    std::string_view param_open, param_key_end, param_close;
};
std::string render_params_calls(const std::vector<Call>& calls, const ParamsLayout& layout);

}  // namespace toolgram::detail
