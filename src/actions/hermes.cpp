// Reader for the hermes family (grammars/hermes.hpp): json_block with <tool_call> tags.
#include "readers/grammar_def.hpp"
#include "hermes.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace hermes_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<tool_call>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::hermes::block>(ctx, at, "hermes", "</tool_call>", markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "<tool_call>\n" + call_object_text(c) + "\n</tool_call>\n";
    return out;
}

std::string instruction(const Settings& s) {
    return "For each tool call, return a JSON object with the function name and arguments within <tool_call></tool_call> "
           "XML tags:\n" + render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace hermes_reader

constexpr BlockSpec hermes_blocks[] = {
    {"<tool_call>", "</tool_call>"},
};

constexpr AliasSpec hermes_aliases[] = {
    {"vLLM", "ernie45", "ERNIE 4.5"},
    {"vLLM", "granite4", "Granite 4.0, 4.1"},
    {"vLLM", "hermes", "Hermes 2 Pro, Hermes 3, Qwen 2.5, Qwen 3, QwQ"},
    {"SGLang", "hermes", "Hermes 2 Pro, Hermes 3"},
    {"SGLang", "nanbeige", "Nanbeige 4 (<tool_call>{JSON}</tool_call>)"},
    {"SGLang", "qwen", "Qwen 2.5, Qwen 3"},
    {"SGLang", "qwen25", "Qwen 2.5"},
    {"SGLang", "trinity", "Trinity"},
    {"llama.cpp", "EXAONE MoE", "K-EXAONE (<tool_call>{JSON}</tool_call>)"},
    {"llama.cpp", "Hermes 2 Pro", "Hermes 2 Pro, Qwen 2.5, Qwen 3"},
};

constexpr GrammarUseSpec hermes_profile_grammars[] = {{"hermes"}, {"functionary_v31"}};
constexpr GrammarUseSpec hermes_in_auto[] = {{"hermes"}};
constexpr ProfileSpec hermes_profiles[] = {
    {
        .name = "hermes",
        .models = "Hermes 2 Pro / 3, Qwen2.5, Qwen3, QwQ, ERNIE 4.5, EXAONE, Granite 4",
        .description = "<tool_call>{\"name\": …, \"arguments\": …}</tool_call>, one block per call",
        // Hermes 2 Pro's legacy <function=NAME>{…}</function> and <function name="NAME">{…}</function>
        // too, with Functionary v3.1's grammar; `auto` runs that grammar under its own profile.
        .grammars = hermes_profile_grammars,
        .in_auto = hermes_in_auto,
    },
};

constexpr TemplateSignature hermes_signatures[] = {
    {
        .family = "Hermes 2 Pro / 3, Qwen 2.5 / 3, QwQ, Granite 4, MiMo-VL: <tool_call>{JSON}</tool_call>",
        .all = {"<tool_call>", "</tool_call>"},
        .none = {"<function=", "<arg_key>", "<tool_calls>", "<minimax:tool_call>", "]<]minimax[>["},
        .engines = {{"vLLM", "hermes"}, {"vLLM", "granite4"}, {"SGLang", "hermes"}, {"SGLang", "qwen25"},
                    {"llama.cpp", "Hermes 2 Pro"}},
    },
};

extern const GrammarDef hermes_grammar{
    .name = "hermes",
    .summary = "<tool_call>{\"name\": …, \"arguments\": …}</tool_call>, one block per call",
    .markers = hermes_reader::markers,
    .read_at = hermes_reader::read_at,
    .instruction = hermes_reader::instruction,
    .render = hermes_reader::render,
    .blocks = hermes_blocks,
    .aliases = hermes_aliases,
    .profiles = hermes_profiles,
    .signatures = hermes_signatures,
};

}  // namespace toolgram::detail
