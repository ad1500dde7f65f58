// Reader for the deepseek_v31 family (grammars/deepseek_v31.hpp): named json_blocks in
// R1's section.
#include "deepseek_v31.hpp"
#include "readers/deepseek_openers.hpp"
#include "readers/grammar_def.hpp"
#include "readers/named_call_reader.hpp"

namespace toolgram::detail {
namespace deepseek_v31_reader {
namespace {

namespace v31 = grammar::deepseek_v31;

template <typename Rule>
struct deepseek_v31_action : json_block_action<Rule> {};
template <> struct deepseek_v31_action<v31::function_name> : named_call::name {};
template <> struct deepseek_v31_action<v31::call_header> : named_call::header {};

const std::vector<std::string>& openers() { return deepseek_section_openers(); }

std::vector<std::string> markers(const Settings&) { return openers(); }

std::optional<Block> read_call(ScanContext& ctx, std::size_t at) {
    return read_named_call<v31::call, v31::call_header, deepseek_v31_action>(ctx, at, "deepseek_v31", "<｜tool▁call▁end｜>",
                                                                openers());
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_call_section<v31::section_open, v31::section_close>(ctx, at, read_call);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<｜tool▁calls▁begin｜>";
    for (const auto& c : calls)
        out += "<｜tool▁call▁begin｜>" + c.name + "<｜tool▁sep｜>" + json_text(c.arguments) + "<｜tool▁call▁end｜>";
    return out + "<｜tool▁calls▁end｜>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write them between <｜tool▁calls▁begin｜> and <｜tool▁calls▁end｜>, each call as the "
           "tool's name, <｜tool▁sep｜>, and its arguments as a JSON object:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace deepseek_v31_reader

constexpr BlockSpec deepseek_v31_blocks[] = {
    {"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"},
    {"<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>"},
};

constexpr AliasSpec deepseek_v31_aliases[] = {
    {"vLLM", "deepseek_v31", "DeepSeek V3.1"},
    {"SGLang", "deepseekv31", "DeepSeek V3.1"},
    {"llama.cpp", "DeepSeek V3.1", "DeepSeek V3.1"},
    {"smg", "deepseek31", "DeepSeek V3.1"},
};

namespace {
// R1 and V3.1 start inside <think> (the prompt opens it) and end with their EOS token.
void configure_deepseek(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<｜end▁of▁sentence｜>");
}
}  // namespace

constexpr ProfileSpec deepseek_v31_profiles[] = {
    {
        .name = "deepseek_v31",
        .models = "DeepSeek V3.1",
        .description = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        .configure = configure_deepseek,
    },
};

constexpr TemplateSignature deepseek_v31_signatures[] = {
    {
        .family = "DeepSeek V3.1: <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…} (no ```json fence)",
        .all = {"<｜tool▁calls▁begin｜>", "<｜tool▁sep｜>"},
        .none = {"```json"},
        .engines = {{"vLLM", "deepseek_v31"}, {"SGLang", "deepseekv31"}, {"llama.cpp", "DeepSeek V3.1"}},
    },
};

extern const GrammarDef deepseek_v31_grammar{
    .name = "deepseek_v31",
    .summary = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    .markers = deepseek_v31_reader::markers,
    .read_at = deepseek_v31_reader::read_at,
    .instruction = deepseek_v31_reader::instruction,
    .render = deepseek_v31_reader::render,
    .blocks = deepseek_v31_blocks,
    .aliases = deepseek_v31_aliases,
    .profiles = deepseek_v31_profiles,
    .signatures = deepseek_v31_signatures,
};

}  // namespace toolgram::detail
