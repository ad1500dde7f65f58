// Actions and reader for the marker format (grammars/marker.hpp): TOOL_CALL then an
// object. The block ends with the object, so whatever follows stays content.
#include "readers/block_reader.hpp"
#include "readers/grammar_def.hpp"
#include "marker.hpp"

namespace toolgram::detail {
namespace marker_reader {
namespace {

namespace mk = grammar::marker;

struct MarkerState : BlockState {
    json payload;
    bool has_payload = false;
};

template <typename Rule>
struct marker_action : value_action<Rule> {};

template <>
struct marker_action<mk::payload> {
    template <typename Input>
    static void apply(const Input&, MarkerState& st) {
        st.payload = st.take_root();
        st.has_payload = true;
    }
};
template <>
struct marker_action<grammar::fence::open> {
    template <typename Input>
    static void apply(const Input&, MarkerState& st) {
        st.fence_opened = true;
        st.note("fenced_payload");
    }
};
template <>
struct marker_action<grammar::fence::close> {
    template <typename Input>
    static void apply(const Input&, MarkerState& st) { st.fence_closed = true; }
};

std::vector<std::string> markers(const Settings&) { return {"TOOL_CALL"}; }

bool is_word_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    if (at > 0) {
        const char before = ctx.text()[at - 1];
        if (is_word_byte(before) || before == '[' || before == '/') return std::nullopt;
    }
    MarkerState st;
    const RunResult r = run_rule_at<mk::block, marker_action>(ctx, at, st);
    if (r.failed) {
        const std::size_t end = broken_bare_end(ctx.text(), at, r.failure);
        return failed_block("marker", at, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || !st.has_payload) return std::nullopt;
    settle_fence(st, ctx.text(), r.end);
    Block block;
    block.begin = at;
    block.end = r.end;
    candidates_from_payload(st.payload, candidate_from_state("marker", at, r.end, st), NameRule::required_in_syntax,
                            block.candidates);
    return block;
}

std::string instruction(const Settings&) {
    return "Write each tool call as the word TOOL_CALL followed by one JSON object with the tool's name under "
           "\"tool_name\" and its arguments object under \"parameters\":\nTOOL_CALL {\"tool_name\": \"TOOL_NAME\", "
           "\"parameters\": {\"PARAM\": \"VALUE\"}}";
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "TOOL_CALL " + call_object_text(c, "tool_name", "parameters") + "\n";
    return out;
}
}  // namespace
}  // namespace marker_reader

constexpr ProfileSpec marker_profiles[] = {
    {
        .name = "marker",
        .models = "any model prompted with the marker format",
        .description = "TOOL_CALL followed by a JSON object",
    },
};

constexpr RuleVariant marker_variants[] = {
    {"marker::fenced_payload", "payload inside a ``` fence"},
};

extern const GrammarDef marker_grammar{
    .name = "marker",
    .summary = "TOOL_CALL followed by a JSON object, no closing tag",
    .markers = marker_reader::markers,
    .read_at = marker_reader::read_at,
    .instruction = marker_reader::instruction,
    .render = marker_reader::render,
    .profiles = marker_profiles,
    .variants = marker_variants,
};

}  // namespace toolgram::detail
