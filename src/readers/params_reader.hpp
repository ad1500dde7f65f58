// Shared actions and reader for XML-style families whose arguments are named text
// parameters (Qwen3-Coder, Seed-OSS, GLM, MiniMax-M2, MiniCPM 5, Step-3, DeepSeek V3.2, …).
//
// A family's grammar names its own rules; its action template maps each of them to one
// of the behaviours below (`template <> struct fam_action<fam::function_name> :
// params::call_name {}`), so the rules stay the family's and the candidate-building code
// is written once. Values stay text and are typed from the tool's schema in phase two.
// What around a value is layout is the family's (its ValueLayout, from its chat template);
// a value that is one CDATA section is unwrapped. Where a value ends when it may hold the
// syntax's own markup is decided by grammars/common/param_value.hpp with the tool's declared
// parameters (parameter_undeclared), and a value whose end stays ambiguous refuses its call.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "readers/block_reader.hpp"
#include "readers/markup_actions.hpp"
#include "common/params.hpp"

namespace toolgram::detail {

// What a family's chat template writes around a text value, so what the reader removes as
// layout: data in each family's definition (src/actions/FAMILY.cpp).
struct ValueLayout {
    // Qwen3-Coder's template writes `<parameter=K>\nV\n</parameter>`: one line break on
    // each side is layout. The other templates write values verbatim, so a value's own
    // trailing line break (a file's last line) is the value's.
    bool newline_each_side = false;
    // The engines reading dots-3 strip every blank and line break around a value, which a
    // profile file declares (`newlines: "stripped"`): all of it is layout.
    bool strip_blanks = false;
    // CDATA is the syntax's own escape (MiniCPM 5's template wraps values holding `<`, `&`
    // or a line break in it): unwrapped without a repair. Elsewhere a value written as one
    // CDATA section is unwrapped too, reported as the repair `cdata_unwrapped`.
    bool cdata_native = false;
};

struct ParamsState : BlockState {
    std::vector<Candidate> calls;
    Candidate current;
    std::string key;
    bool in_call = false;
    ValueLayout layout;
    // A name the syntax writes before the call's own (Step-3's `function<｜tool_sep｜>NAME`
    // before `<steptml:invoke name="NAME">`): the family's reader compares the two.
    std::optional<std::string> announced_name;

    void begin_call(std::string_view name, std::size_t begin);
    void set_text(std::string_view raw);         // a text value: CDATA unwrapped, or layout removed
    void set_json_value(std::string_view raw);   // a value the syntax marks as JSON
    void end_call(std::size_t end);

    // For grammars/common/param_value.hpp: a state on the same text for reading a tag's key with
    // the family's actions; whether the call's tool is known to declare no parameter `key`;
    // why the value just read has no certain end (the call is refused with it).
    ParamsState scratch() const;
    bool parameter_undeclared(std::string_view key) const;
    // Whether the tool's schema requires the parameter `key` (false when its schema is unknown).
    bool parameter_required(std::string_view key) const;
    void value_doubt(grammar::params::doubt why, std::string_view text, std::size_t offset);
    void clear_value_doubt() {
        doubt_.clear();
        held_closer_.clear();
        repeated_closers_end_ = std::string_view::npos;
    }
    // The value ended where its closer was left out: the line break a model writes between
    // a closer and the next tag (every template does) then ends the value's text, and is layout.
    void value_closer_missing(bool missing) { closer_missing_ = missing; }
    // The value just read holds its own closer with text after it (`held`: that closer's
    // spelling), so that closer is text in this call: a value that holds it, if it is not
    // the call's first, may as well be the text of the value before it (see set_text).
    void value_holds_closer(std::string_view held, std::size_t offset) {
        held_closer_ = std::string(held);
        held_offset_ = offset;
    }
    // The value's own closer came again (`</parameter>\n</parameter>`) and the structure holds
    // only after the repeats: they run to `end` and are dropped (grammar::params::
    // repeated_close), the repair `duplicate_closer` named.
    void closer_repeats_to(std::size_t end) { repeated_closers_end_ = end; }
    std::size_t repeated_closers_end() const { return repeated_closers_end_; }
    // A doubt about the value just read, made the call's problem (its reason).
    void settle_value_doubt();
    bool has_value_doubt() const { return !doubt_.empty(); }

private:
    // A value that holds its closer, weighed against the reading in which the value before
    // it runs on through it (the whole call's two readings; see set_text).
    void weigh_held_closer();
    void value_doubt_text(std::string why, std::size_t offset);

    const json* declared_ = nullptr;  // the call's tool's `properties`, when known
    const json* required_ = nullptr;  // and its `required`, when known
    std::string previous_key_;        // the call's parameter read before this one, if any
    std::string held_closer_;         // value_holds_closer
    std::size_t held_offset_ = 0;
    std::size_t repeated_closers_end_ = std::string_view::npos;  // closer_repeats_to
    std::string doubt_;
    std::size_t doubt_offset_ = 0;
    bool closer_missing_ = false;
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
struct param_json_value {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.set_json_value(in.string_view()); }
};
// A call whose body is one JSON object in place of its parameters (DeepSeek's DSML invoke,
// Kimi K3's `<|open|>json` body): its members are the arguments, as written. (A key given
// twice is the lenient reader's duplicate_key repair, which phase two refuses.)
struct json_arguments {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) {
        st.current.arguments = st.take_root();
        st.current.arguments_are_text = false;
        if (st.current.unfinished.empty()) st.current.unfinished = st.unfinished;
    }
};
struct param_value_cut {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        if (st.has_value_doubt()) {  // not cut: no end can be told from the value's own text
            st.settle_value_doubt();
            return;
        }
        st.current.problem = "output cut inside the value of parameter \"" + st.key + "\"";
        st.current.problem_offset = st.offset_of(in.begin());
        st.current.cut = true;
        st.current.cut_text = Candidate::CutText{st.key, st.current.problem_offset, st.layout.newline_each_side,
                                                 st.layout.strip_blanks};
    }
};
struct closer_repeated {  // grammar::params::repeated_close
    template <typename Input>
    static void apply(const Input&, ParamsState& st) { st.note("duplicate_closer"); }
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

// The shapes of grammars/common/params.hpp mapped to their behaviours, and markup attributes
// collected: a family's action template derives from this and maps its own rules.
template <typename Rule>
struct shape_action : attribute_action<Rule> {};
template <> struct shape_action<grammar::params::value_cut> : param_value_cut {};
template <> struct shape_action<grammar::params::repeated_close> : closer_repeated {};
template <> struct shape_action<grammar::params::call_cut_off> : cut_off {};
template <typename Next> struct shape_action<grammar::params::call_close_missing<Next>> : missing_close {};
template <> struct shape_action<grammar::params::wrapper_cut_off> : cut_off {};
template <> struct shape_action<grammar::params::wrapper_close_missing> : missing_close {};

}  // namespace params

// Runs a params rule at `at`; `closer` bounds a block that broke; `layout` is what the
// family's template writes around a value (by default a line break on each side, as
// Qwen3-Coder's does: what every family was read with before the layout was theirs).
// `Control` raises the errors (a grammar whose messages are known only at run time brings
// its own).
template <typename Rule, template <typename...> class Action,
          template <typename...> class Control = grammar::errors::control>
std::optional<Block> read_params_block(ScanContext& ctx, std::size_t at, std::string_view grammar,
                                       std::string_view closer,
                                       ValueLayout layout = {.newline_each_side = true}) {
    ParamsState st;
    st.layout = layout;
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
