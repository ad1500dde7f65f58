// Reader for granite-20b-functioncalling (grammars/granite_20b_fc.hpp): one call object
// after each <function_call>, no closer.
#include "readers/grammar_def.hpp"
#include "granite_20b_fc.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace granite_20b_fc_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<function_call>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::granite_20b_fc::block>(ctx, at, "granite_20b_fc", "", markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += (out.empty() ? "" : " ") + std::string("<function_call> ") + call_object_text(c);
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write <function_call> followed by a JSON object with the function name and its "
           "arguments; for several calls, start each with its own <function_call>:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace granite_20b_fc_reader

constexpr BlockSpec granite_20b_fc_blocks[] = {
    {"<function_call>", "\n"},
};

constexpr AliasSpec granite_20b_fc_aliases[] = {
    {"vLLM", "granite-20b-fc", "granite-20b-functioncalling"},
};

namespace {
void configure_granite_20b_fc(Settings& s) { add_content_marker(s, "<|endoftext|>"); }
}  // namespace

constexpr ProfileSpec granite_20b_fc_profiles[] = {
    {
        .name = "granite_20b_fc",
        .models = "granite-20b-functioncalling",
        .description = "<function_call> {\"name\": …, \"arguments\": …} per call, no closer",
        .configure = configure_granite_20b_fc,
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature granite_20b_fc_signatures[] = {
    {
        .family = "granite-20b-functioncalling: <function_call> {\"name\": …, \"arguments\": …}",
        .all = {"<function_call>"},
        .none = {"</function_call>"},
        .engines = {{"vLLM", "granite-20b-fc"}},
    },
};

extern const GrammarDef granite_20b_fc_grammar{
    .name = "granite_20b_fc",
    .summary = "<function_call> {\"name\": …, \"arguments\": …} per call, no closer",
    .markers = granite_20b_fc_reader::markers,
    .read_at = granite_20b_fc_reader::read_at,
    .instruction = granite_20b_fc_reader::instruction,
    .render = granite_20b_fc_reader::render,
    .blocks = granite_20b_fc_blocks,
    .aliases = granite_20b_fc_aliases,
    .profiles = granite_20b_fc_profiles,
    .signatures = granite_20b_fc_signatures,
};

}  // namespace toolgram::detail
