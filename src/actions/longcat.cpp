// Reader for the longcat family (grammars/longcat.hpp): json_block with <longcat_tool_call> tags.
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"
#include "longcat.hpp"

namespace toolgram::detail {
namespace longcat_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<longcat_tool_call>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::longcat::block>(ctx, at, "longcat", "</longcat_tool_call>", markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "<longcat_tool_call>\n" + call_object_text(c) + "\n</longcat_tool_call>\n";
    return out;
}

std::string instruction(const Settings& s) {
    std::string example = render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
    example.pop_back();  // render ends each block with a newline
    return "For each tool call, return a JSON object with the function name and arguments within "
           "<longcat_tool_call></longcat_tool_call> tags:\n" +
           example;
}

}  // namespace
}  // namespace longcat_reader

constexpr BlockSpec longcat_blocks[] = {
    {"<longcat_tool_call>", "</longcat_tool_call>"},
};

constexpr AliasSpec longcat_aliases[] = {
    {"vLLM", "longcat", "LongCat-Flash"},
};

namespace {
void configure_longcat(Settings& s) { add_reasoning(s, {"<longcat_think>", "</longcat_think>"}); }
}  // namespace

constexpr ProfileSpec longcat_profiles[] = {
    {
        .name = "longcat",
        .models = "LongCat-Flash",
        .description = "<longcat_tool_call>{\"name\": …, \"arguments\": …}</longcat_tool_call>, one block per call",
        .configure = configure_longcat,
    },
};

constexpr TemplateSignature longcat_signatures[] = {
    {
        .family = "LongCat-Flash: <longcat_tool_call>{JSON}</longcat_tool_call>",
        .all = {"<longcat_tool_call>"},
        .engines = {{"vLLM", "longcat"}},
    },
};

extern const GrammarDef longcat_grammar{
    .name = "longcat",
    .summary = "<longcat_tool_call>{\"name\": …, \"arguments\": …}</longcat_tool_call>, one block per call",
    .markers = longcat_reader::markers,
    .read_at = longcat_reader::read_at,
    .instruction = longcat_reader::instruction,
    .render = longcat_reader::render,
    .blocks = longcat_blocks,
    .aliases = longcat_aliases,
    .profiles = longcat_profiles,
    .signatures = longcat_signatures,
};

}  // namespace toolgram::detail
