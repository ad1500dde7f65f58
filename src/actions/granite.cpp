// Reader for the granite family (grammars/granite.hpp): a call list after <|tool_call|>
// (3.0) or <tool_call> (3.1), ending with the list.
#include "readers/grammar_def.hpp"
#include "granite.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace granite_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<|tool_call|>", "<tool_call>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    // No closer to look for: a block that breaks ends where it broke (or at the end, if cut).
    return read_json_block<grammar::granite::block>(ctx, at, "granite", "", markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|tool_call|>[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]";
}

std::string instruction(const Settings& s) {
    return "To call tools, write <|tool_call|> followed by a JSON list of objects, each with the function name "
           "and its arguments, and nothing after the list:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace granite_reader

constexpr BlockSpec granite_blocks[] = {
    {"<tool_call>", "</tool_call>"},
    {"<|tool_call|>", "\n"},
};

constexpr AliasSpec granite_aliases[] = {
    {"vLLM", "granite", "Granite 3.0-3.3"},
    {"llama.cpp", "Granite", "Granite 3.x"},
};

extern const GrammarDef granite_grammar{
    .name = "granite",
    .summary = "<|tool_call|>[{\"name\": …, \"arguments\": …}] (3.0) or <tool_call>[…] (3.1), no closer; "
        "<|tool_call|>{…}<|/tool_call|> (llama.cpp's Phi-4-mini template)",
    .markers = granite_reader::markers,
    .read_at = granite_reader::read_at,
    .instruction = granite_reader::instruction,
    .render = granite_reader::render,
    .blocks = granite_blocks,
    .aliases = granite_aliases,
};

}  // namespace toolgram::detail
