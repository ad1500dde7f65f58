// Reader for the internlm family (grammars/internlm.hpp): a plugin action holding one
// {"name", "parameters"} object.
#include "readers/grammar_def.hpp"
#include "internlm.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace internlm_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<|action_start|>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::internlm::block>(ctx, at, "internlm", "<|action_end|>", markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls)
        out += "<|action_start|><|plugin|>\n" + call_object_text(c, "name", "parameters") + "<|action_end|>\n";
    return out;
}

std::string instruction(const Settings& s) {
    std::string example = render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
    example.pop_back();  // render ends each block with a newline
    return "To call a tool, write <|action_start|><|plugin|>, then on a new line a JSON object with the tool's "
           "name and its parameters, then <|action_end|>:\n" +
           example;
}

}  // namespace
}  // namespace internlm_reader

constexpr BlockSpec internlm_blocks[] = {
    {"<|action_start|>", "<|action_end|>"},
};

constexpr AliasSpec internlm_aliases[] = {
    {"vLLM", "internlm", "InternLM 2.5"},
    {"SGLang", "interns1", "Intern-S1"},
};

constexpr ProfileSpec internlm_profiles[] = {
    {
        .name = "internlm",
        .models = "InternLM 2.5, Intern-S1",
        .description = "<|action_start|><|plugin|>\\n{\"name\": …, \"parameters\": …}<|action_end|>",
    },
};

constexpr TemplateSignature internlm_signatures[] = {
    {
        .family = "InternLM 2.5, Intern-S1: <|action_start|><|plugin|>{…}<|action_end|>",
        .all = {"<|action_start|>", "<|plugin|>"},
        .engines = {{"vLLM", "internlm"}, {"SGLang", "interns1"}},
    },
};

extern const GrammarDef internlm_grammar{
    .name = "internlm",
    .summary = "<|action_start|><|plugin|>\\n{\"name\": …, \"parameters\": …}<|action_end|>",
    .markers = internlm_reader::markers,
    .read_at = internlm_reader::read_at,
    .instruction = internlm_reader::instruction,
    .render = internlm_reader::render,
    .blocks = internlm_blocks,
    .aliases = internlm_aliases,
    .profiles = internlm_profiles,
    .signatures = internlm_signatures,
};

}  // namespace toolgram::detail
