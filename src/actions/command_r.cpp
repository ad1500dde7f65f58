// Reader for the command_r family (grammars/command_r.hpp): <|START_ACTION|> call lists
// with tool_call_id, tool_name and parameters (the shared key aliases read them, so the
// id becomes the call's), and Command R+'s fenced `Action:` list.
#include "command_r.hpp"
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace command_r_reader {
namespace {

namespace cr = grammar::command_r;

// Named for the family, not `action`: GCC gives an instantiation that takes a class
// template from an unnamed namespace as a template template argument weak, external
// linkage, so the linker may merge it with another file's `action` one (seen here: this
// file's specialisation silently replaced by tag.cpp's).
template <typename Rule>
struct command_r_action : json_block_action<Rule> {};

template <>
struct command_r_action<cr::plus_fence_open> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.fence_opened = true; }
};

std::vector<std::string> markers(const Settings&) { return {"<|START_ACTION|>", "Action:"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const bool plus = ctx.text().compare(at, 7, "Action:") == 0;
    if (plus && at > 0 && ctx.text()[at - 1] != '\n' && ctx.text()[at - 1] != ' ' && ctx.text()[at - 1] != '\t')
        return std::nullopt;  // a label mid-word is not a label
    return read_json_block<cr::block, command_r_action>(ctx, at, "command_r", plus ? "" : "<|END_ACTION|>",
                                              markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|START_ACTION|>[";
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const std::string id = calls[i].id.empty() ? std::to_string(i) : calls[i].id;
        out += std::string(i ? "," : "") + "\n    {\"tool_call_id\": " + json(id).dump() +
               ", \"tool_name\": " + json(calls[i].name).dump() + ", \"parameters\": " + json_text(calls[i].arguments) +
               "}";
    }
    return out + "\n]<|END_ACTION|>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write <|START_ACTION|>, a JSON list of objects each with a tool_call_id, the "
           "tool_name and its parameters, then <|END_ACTION|>:\n" +
           render({Call{"0", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace command_r_reader

constexpr BlockSpec command_r_blocks[] = {
    {"<|START_ACTION|>", "<|END_ACTION|>"},
};

constexpr AliasSpec command_r_aliases[] = {
    {"vLLM", "cohere_command3", "Command A, Command R7B"},
    {"vLLM", "cohere_command4", "Command A Plus, Command A Vision"},
    {"SGLang", "cohere_command4", "Command A, Command A Plus"},
    {"llama.cpp", "Command R7B", "Command R7B, Command A"},
    {"smg", "cohere", "Command A, Command R7B"},
};

namespace {
void configure_command_r(Settings& s) {
    add_reasoning(s, {"<|START_THINKING|>", "<|END_THINKING|>"});
    add_content_marker(s, "<|START_RESPONSE|>");
    add_content_marker(s, "<|END_RESPONSE|>");
    add_content_marker(s, "<|END_OF_TURN_TOKEN|>");
    add_content_marker(s, "<|CHATBOT_TOKEN|>");  // R+ opens its turn with it
    add_content_marker(s, "<|START_TEXT|>");     // Command A frames its answer in these
    add_content_marker(s, "<|END_TEXT|>");
}
}  // namespace

constexpr ProfileSpec command_r_profiles[] = {
    {
        .name = "command_r",
        .models = "Command R7B, Command A, Command R+",
        .description = "<|START_ACTION|>[{\"tool_call_id\": …, \"tool_name\": …, \"parameters\": …}]<|END_ACTION|>; "
                       "R+: Action: ```json […]```",
        .configure = configure_command_r,
    },
};

constexpr TemplateSignature command_r_signatures[] = {
    {
        .family = "Command R7B, Command A: <|START_ACTION|>[{\"tool_name\": …, \"parameters\": …}]<|END_ACTION|>",
        .all = {"<|START_ACTION|>"},
        .engines = {{"vLLM", "cohere_command3"}, {"vLLM", "cohere_command4"}, {"SGLang", "cohere_command4"},
                    {"llama.cpp", "Command R7B"}},
    },
    {
        .family = "Command R+: Action: ```json [{\"tool_name\": …, \"parameters\": …}]```",
        .all = {"<|CHATBOT_TOKEN|>", "Action:", "```json"},
    },
};

constexpr RuleVariant command_r_variants[] = {
    {"command_r::action_block", "<|START_ACTION|> block"},
    {"command_r::plus_block", "Action: ```json block (R+)"},
};

extern const GrammarDef command_r_grammar{
    .name = "command_r",
    .summary = "<|START_ACTION|>[{\"tool_call_id\": …, \"tool_name\": …, \"parameters\": …}]<|END_ACTION|>; R+'s Action: ```json […]```",
    .markers = command_r_reader::markers,
    .read_at = command_r_reader::read_at,
    .instruction = command_r_reader::instruction,
    .render = command_r_reader::render,
    .blocks = command_r_blocks,
    .aliases = command_r_aliases,
    .profiles = command_r_profiles,
    .signatures = command_r_signatures,
    .variants = command_r_variants,
};

}  // namespace toolgram::detail
