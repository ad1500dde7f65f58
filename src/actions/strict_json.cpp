// Actions and reader for the strict JSON format (grammars/strict_json.hpp): the whole
// trimmed output is the payload. Text after the value is ignored and reported.
#include "block_reader.hpp"
#include "grammar_def.hpp"
#include "strict_json.hpp"

namespace toolgram::detail {
namespace {

namespace sj = grammar::strict_json;

struct JsonState : BlockState {
    json payload;
    bool has_payload = false;
    std::size_t payload_end = 0;
};

template <typename Rule>
struct action : value_action<Rule> {};

template <>
struct action<sj::payload> {
    template <typename Input>
    static void apply(const Input& in, JsonState& st) {
        st.payload = st.take_root();
        st.has_payload = true;
        st.payload_end = st.offset_of(in.end());
    }
};
template <>
struct action<sj::fence_open> {
    template <typename Input>
    static void apply(const Input&, JsonState& st) {
        st.fence_opened = true;
        st.note("fenced_payload");
    }
};
template <>
struct action<sj::fence_close> {
    template <typename Input>
    static void apply(const Input& in, JsonState& st) {
        st.fence_closed = true;
        st.payload_end = st.offset_of(in.end());
    }
};
template <>
struct action<sj::trailing_text> {
    template <typename Input>
    static void apply(const Input&, JsonState& st) { st.note("trailing_text_ignored"); }
};

std::optional<Block> read_whole(ScanContext& ctx, std::size_t begin, std::size_t end) {
    const std::string_view text = ctx.text();
    if (begin >= end || (text[begin] != '{' && text[begin] != '[' && text[begin] != '`')) return std::nullopt;
    JsonState st;
    const RunResult r = run_rule_at<sj::document, action>(ctx, begin, st, end);
    if (r.failed) {
        // Only a payload that is plainly JSON-shaped counts as broken tool syntax.
        return failed_block("json", begin, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || !st.has_payload) return std::nullopt;
    settle_fence(st, text, st.payload_end);
    // The block ends with the value (or its fence); ignored text after it stays content.
    Block block;
    block.begin = begin;
    block.end = st.payload_end;
    candidates_from_payload(st.payload, candidate_from_state("json", begin, st.payload_end, st), NameRule::optional_in_prose,
                            block.candidates);
    if (block.candidates.empty()) return std::nullopt;
    return block;
}

std::string instruction(const Settings&) {
    return "When you call a tool, answer with nothing but one JSON object: {\"name\": \"TOOL_NAME\", \"arguments\": "
           "{\"PARAM\": \"VALUE\"}}. For several calls, answer with a JSON array of such objects.";
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    if (calls.size() == 1) return call_object_text(calls.front());
    std::string out = "[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]";
}
}  // namespace

extern const GrammarDef json_grammar{
    "json", "the whole output is one JSON call object, an array of them, or {\"tool_calls\": […]}",
    nullptr, nullptr, read_whole, instruction,
    render,
};

}  // namespace toolgram::detail
