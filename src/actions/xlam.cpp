// Reader for the xlam family (grammars/xlam.hpp): a JSON array of call objects, bare, in
// a fence, after reasoning or after [TOOL_CALLS]; read by json_block's reader with a
// payload interpreter that takes an array only when its first element is a call.
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"
#include "xlam.hpp"

namespace toolgram::detail {
namespace xlam_reader {
namespace {

// xLAM always writes the arguments key (`"arguments": {}` for none), so a list of
// objects with a "name" and no arguments is data (people, products), not calls.
bool is_call_object(const json& v) {
    Candidate probe;
    return read_call_object(v, probe) && probe.has_arguments;
}

template <typename Rule>
struct xlam_action : json_block_action<Rule> {};
// The wrapper makes its payload tool syntax: read as calls whatever it holds.
template <>
struct xlam_action<grammar::xlam::tag_open> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.named = true; }
};

void read_xlam_payload(const JsonBlockState& st, json& payload, Candidate& proto, CandidateList& out) {
    const bool calls = st.named || (payload.is_array() ? !payload.empty() && is_call_object(payload.front())
                                                       : payload.is_object() && payload.contains("tool_calls"));
    if (calls) candidates_from_payload(payload, proto, NameRule::required_in_syntax, out);
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const bool wrapped = ctx.text().compare(at, 11, "<tool_call>") == 0;
    std::optional<Block> b = read_json_block<grammar::xlam::block, xlam_action>(ctx, at, "xlam", wrapped ? "</tool_call>" : "",
                                                                           std::vector<std::string>{"<tool_call>"}, read_xlam_payload);
    if (!b || b->candidates.empty()) return std::nullopt;
    // A bare payload that broke before it showed a call's arguments key is not shown to
    // be a call: an array or object of other JSON in an answer. (A failed block is one
    // nameless candidate whose problem lies past the opening bracket; the payload
    // reader's own problems sit at the block's start.)
    const Candidate& first = b->candidates.front();
    const bool failed = b->candidates.size() == 1 && !first.problem.empty() && first.problem_offset > at;
    if (failed && !wrapped && ctx.text().compare(at, 12, "[TOOL_CALLS]") != 0) {
        const std::string_view seen = ctx.text().substr(at, first.problem_offset - at);
        if (seen.find("\"arguments\"") == std::string_view::npos && seen.find("\"parameters\"") == std::string_view::npos)
            return std::nullopt;
    }
    return b;
}

std::vector<std::string> markers(const Settings&) { return {"[TOOL_CALLS]", "<tool_call>", "[", "{\"tool_calls\""}; }

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]";
}

std::string instruction(const Settings& s) {
    return "If you decide to call tools, reply with nothing but a JSON array of calls, each with the tool's name and "
           "its arguments, in this format:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace xlam_reader

constexpr BlockSpec xlam_blocks[] = {
    {"[TOOL_CALLS]", "\n"},
    {"<tool_call>", "</tool_call>"},
};

constexpr AliasSpec xlam_aliases[] = {
    {"vLLM", "xlam", "xLAM"},
};

constexpr ProfileSpec xlam_profiles[] = {
    {
        .name = "xlam",
        .models = "xLAM",
        .description = "[{\"name\": …, \"arguments\": …}], bare, fenced, after </think> or [TOOL_CALLS]",
        .distinctive = false,
    },
};

constexpr TemplateSignature xlam_signatures[] = {
    {
        .family = "xLAM: [{\"name\": …, \"arguments\": …}], as its prompt shows with \"tool_call_name\"",
        .all = {"\"name\": \"tool_call_name\""},
        .engines = {{"vLLM", "xlam"}},
    },
};

constexpr RuleVariant xlam_variants[] = {
    {"xlam::array_block", "bare JSON list of calls"},
    {"xlam::tool_calls_object", "{\"tool_calls\": […]} object"},
    {"xlam::tool_calls_block", "[TOOL_CALLS] list"},
};

extern const GrammarDef xlam_grammar{
    .name = "xlam",
    .summary = "a JSON array [{\"name\": …, \"arguments\": …}], bare, fenced, in <tool_call>, after </think> or [TOOL_CALLS]",
    .markers = xlam_reader::markers,
    .read_at = xlam_reader::read_at,
    .instruction = xlam_reader::instruction,
    .render = xlam_reader::render,
    .blocks = xlam_blocks,
    .aliases = xlam_aliases,
    .profiles = xlam_profiles,
    .signatures = xlam_signatures,
    .variants = xlam_variants,
};

}  // namespace toolgram::detail
