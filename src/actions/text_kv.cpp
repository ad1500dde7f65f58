// Actions and reader for the text key-value format (grammars/text_kv.hpp):
// `function.name:` / `function.arguments:` and ReAct's `Action:` / `Action Input:`.
#include "readers/block_reader.hpp"
#include "readers/grammar_def.hpp"
#include "text_kv.hpp"

namespace toolgram::detail {
namespace text_kv_reader {
namespace {

namespace kv = grammar::text_kv;

struct KvState : BlockState {
    std::string name;
    std::string status;  // a history record's outcome: the block echoes a call already made
    bool status_seen = false;
    json arguments;
    bool has_arguments = false;
};

template <typename Rule>
struct text_kv_action : value_action<Rule> {};

template <>
struct text_kv_action<kv::name_text> {
    template <typename Input>
    static void apply(const Input& in, KvState& st) {
        std::string_view s = in.string_view();
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
        st.name.assign(s);
    }
};
template <>
struct text_kv_action<kv::arguments_value> {
    template <typename Input>
    static void apply(const Input&, KvState& st) {
        st.arguments = st.take_root();
        st.has_arguments = true;
    }
};
template <>
struct text_kv_action<grammar::fence::open> {
    template <typename Input>
    static void apply(const Input&, KvState& st) {
        st.fence_opened = true;
        st.note("fenced_payload");
    }
};
template <>
struct text_kv_action<grammar::fence::close> {
    template <typename Input>
    static void apply(const Input&, KvState& st) { st.fence_closed = true; }
};
template <>
struct text_kv_action<kv::status_line> {
    // On the whole line, which matches or not as one: an action on its value would fire
    // for a line that then fails (one longer than the limit).
    template <typename Input>
    static void apply(const Input& in, KvState& st) {
        std::string_view s = in.string_view().substr(std::string_view("status:").size());
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
        st.status.assign(s);
        st.status_seen = true;
    }
};
template <>
struct text_kv_action<kv::history_open> {
    template <typename Input>
    static void apply(const Input&, KvState& st) { st.note("history_marker"); }
};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    if (at > 0 && ctx.text()[at - 1] != '\n' && ctx.text()[at - 1] != ' ' && ctx.text()[at - 1] != '\t') {
        return std::nullopt;  // a label mid-word is not a label
    }
    KvState st;
    const RunResult r = run_rule_at<kv::block, text_kv_action>(ctx, at, st);
    if (r.failed) {
        const std::size_t end = broken_block_end(ctx.text().size(), r.failure);
        return failed_block("text_kv", at, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || !st.has_arguments) return std::nullopt;
    settle_fence(st, ctx.text(), r.end);
    Block block;
    block.begin = at;
    block.end = r.end;
    Candidate c = candidate_from_state("text_kv", at, r.end, st);
    c.name = st.name;
    c.arguments = std::move(st.arguments);
    if (st.status_seen)
        c.echo = "an echo of the call history (status: " + st.status + "), a record of a call already made, not a new call";
    block.candidates.push_back(std::move(c));
    return block;
}

std::vector<std::string> markers(const Settings&) {
    return {"function.name:", "Action:", "[TOOL_CALL_HISTORY]"};
}

std::string instruction(const Settings&) {
    return "Write a tool call as two lines:\nfunction.name: TOOL_NAME\nfunction.arguments: {\"PARAM\": \"VALUE\"}";
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "function.name: " + c.name + "\nfunction.arguments: " + json_text(c.arguments) + "\n";
    return out;
}
}  // namespace
}  // namespace text_kv_reader

constexpr GrammarUseSpec text_kv_profile_grammars[] = {{"text_kv", Role::fallback}};
constexpr ProfileSpec text_kv_profiles[] = {
    {
        .name = "text_kv",
        .models = "ReAct-style agents, echoed call history",
        .description = "function.name:/function.arguments: or Action:/Action Input: (gated: always a fallback)",
        .grammars = text_kv_profile_grammars,
        .distinctive = false,
    },
};

constexpr RuleVariant text_kv_variants[] = {
    {"text_kv::react_pair", "Action: / Action Input: pair"},
    {"text_kv::function_pair", "function.name: / function.arguments: pair"},
};

extern const GrammarDef text_kv_grammar{
    .name = "text_kv",
    .summary = "labelled lines: function.name:/function.arguments:, Action:/Action Input:",
    .markers = text_kv_reader::markers,
    .read_at = text_kv_reader::read_at,
    .instruction = text_kv_reader::instruction,
    .render = text_kv_reader::render,
    .profiles = text_kv_profiles,
    .variants = text_kv_variants,
};

}  // namespace toolgram::detail
