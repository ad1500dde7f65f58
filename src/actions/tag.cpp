// Reader for the tag format (grammars/tag.hpp), on the shared json_block machinery.
//
// The payload's value becomes one candidate per call object; `<tool name="…">` takes the
// name from the attribute and the whole payload as arguments.
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"
#include "tag.hpp"

namespace toolgram::detail {
namespace tag_reader {
namespace {

namespace tg = grammar::tag;

template <typename Rule>
struct tag_action : json_block_action<Rule> {};

template <>
struct tag_action<tg::named_open> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.named = true; }
};

std::vector<std::string> markers(const Settings& s) { return {s.tag_open, "<tool ", "<tool_call>"}; }

void read_payload(const JsonBlockState& st, json& payload, Candidate& proto, CandidateList& out) {
    if (!st.named) {
        read_call_payload(st, payload, proto, out);
        return;
    }
    Candidate c = std::move(proto);
    if (const std::string* name = st.attribute("name")) {
        c.name = *name;
        c.arguments = std::move(payload);
    } else {
        c.problem = "<tool> has no name attribute";
        c.problem_offset = c.begin;
    }
    out.push_back(std::move(c));
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view rest = ctx.text().substr(at);
    const std::string closer = rest.rfind("<tool_call>", 0) == 0 ? "</tool_call>"
                               : rest.rfind("<tool ", 0) == 0    ? "</tool>"
                                                                 : ctx.settings().tag_close;
    return read_json_block<tg::block, tag_action>(ctx, at, "tag", closer, markers, read_payload);
}

std::string instruction(const Settings& s) {
    return "Write each tool call as a JSON object between " + s.tag_open + " and " + s.tag_close +
           ", with the tool's name under \"name\" and its arguments object under \"arguments\":\n" + s.tag_open +
           "{\"name\": \"TOOL_NAME\", \"arguments\": {\"PARAM\": \"VALUE\"}}" + s.tag_close +
           "\nFor several calls, write several blocks. Write nothing else inside the tags.";
}

std::string render(const std::vector<Call>& calls, const Settings& s) {
    std::string out;
    for (const auto& c : calls) out += s.tag_open + call_object_text(c) + s.tag_close + "\n";
    return out;
}

// The configured tags' block, before the fixed one below (`<tool_call>`).
std::vector<BlockSpec> settings_blocks(const Settings& s) { return {{s.tag_open, s.tag_close}}; }
}  // namespace
}  // namespace tag_reader

// Its blocks by opener and closer, besides the configured tags' (unreadable_syntax.cpp).
constexpr BlockSpec tag_blocks[] = {
    {"<tool_call>", "</tool_call>"},
};

constexpr ProfileSpec tag_profiles[] = {
    {
        .name = "tag",
        .models = "any model prompted with the tag format",
        .description = "[TOOL_CALL]{…}[/TOOL_CALL] (tags configurable), <tool name=…>, <tool_call>{…}</tool_call>",
    },
};

constexpr RuleVariant tag_variants[] = {
    {"tag::configured_block", "[TOOL_CALL] tags"},
    {"tag::named_block", "<tool name=…> tag"},
    {"tag::tool_call_block", "<tool_call> tag"},
};

extern const GrammarDef tag_grammar{
    .name = "tag",
    .summary = "JSON payload between tags: [TOOL_CALL]…[/TOOL_CALL] (configurable), <tool name=…>, <tool_call>",
    .markers = tag_reader::markers,
    .read_at = tag_reader::read_at,
    .instruction = tag_reader::instruction,
    .render = tag_reader::render,
    .blocks = tag_blocks,
    .settings_blocks = tag_reader::settings_blocks,
    .profiles = tag_profiles,
    .variants = tag_variants,
};

}  // namespace toolgram::detail
