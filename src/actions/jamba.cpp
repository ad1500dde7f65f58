// Reader for the jamba family (grammars/jamba.hpp): a call list, or one call object a line
// (MiniMax-M1), between <tool_calls> tags; each value is read and judged on its own
// (json_block_reader.hpp).
#include "readers/grammar_def.hpp"
#include "jamba.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace jamba_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<tool_calls>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::jamba::block>(ctx, at, "jamba", "</tool_calls>", markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<tool_calls>[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]</tool_calls>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write a JSON list of objects, each with the function name and its arguments, within "
           "<tool_calls></tool_calls> tags:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace jamba_reader

constexpr BlockSpec jamba_blocks[] = {
    {"<tool_calls>", "</tool_calls>"},
};

constexpr AliasSpec jamba_aliases[] = {
    {"vLLM", "hunyuan_a13b", "Hunyuan-A13B (<tool_calls>[…]</tool_calls>)"},
    {"vLLM", "jamba", "Jamba 1.5"},
    {"vLLM", "minimax", "MiniMax-M1 (one call object a line)"},
};

extern const GrammarDef jamba_grammar{
    .name = "jamba",
    .summary = "<tool_calls>[{\"name\": …, \"arguments\": …}, …]</tool_calls>, or one call object a line",
    .markers = jamba_reader::markers,
    .read_at = jamba_reader::read_at,
    .instruction = jamba_reader::instruction,
    .render = jamba_reader::render,
    .blocks = jamba_blocks,
    .aliases = jamba_aliases,
};

}  // namespace toolgram::detail
