// Reader for LFM2's JSON mode (grammars/lfm2_json.hpp): a list of call objects between
// <|tool_call_start|> and <|tool_call_end|>, read by the shared json_block reader. The
// profile of LFM2's Python mode runs this grammar beside its own at the same marker, so one LFM2
// deployment is read whichever mode its system prompt asked for; each declines the other's
// payload.
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"
#include "lfm2_json.hpp"

namespace toolgram::detail {
namespace lfm2_json_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<|tool_call_start|>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::lfm2_json::block>(ctx, at, "lfm2_json", "<|tool_call_end|>", markers);
}

// All calls in one list, as LFM2 writes them in JSON mode.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|tool_call_start|>[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]<|tool_call_end|>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write a JSON list of objects, each with the function name and its arguments, between "
           "<|tool_call_start|> and <|tool_call_end|>:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "\nFor several calls, put several objects in the one list.";
}

}  // namespace
}  // namespace lfm2_json_reader

constexpr BlockSpec lfm2_json_blocks[] = {
    {"<|tool_call_start|>", "<|tool_call_end|>"},
};

constexpr AliasSpec lfm2_json_aliases[] = {
    {"llama.cpp", "LFM2 with JSON tools", "LFM2 in JSON mode"},
};

constexpr ProfileSpec lfm2_json_profiles[] = {
    {
        .name = "lfm2_json",
        .models = "LFM2, LFM2.5 (JSON mode)",
        .description = "<|tool_call_start|>[{\"name\": …, \"arguments\": …}]<|tool_call_end|> (the Python mode is pythonic's)",
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

extern const GrammarDef lfm2_json_grammar{
    .name = "lfm2_json",
    .summary = "<|tool_call_start|>[{\"name\": …, \"arguments\": …}, …]<|tool_call_end|> (LFM2's JSON mode)",
    .markers = lfm2_json_reader::markers,
    .read_at = lfm2_json_reader::read_at,
    .instruction = lfm2_json_reader::instruction,
    .render = lfm2_json_reader::render,
    .blocks = lfm2_json_blocks,
    .aliases = lfm2_json_aliases,
    .profiles = lfm2_json_profiles,
};

}  // namespace toolgram::detail
