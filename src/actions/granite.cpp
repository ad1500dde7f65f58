// Reader for the granite family (grammars/granite.hpp): a call list after <|tool_call|>
// (3.0) or <tool_call> (3.1), ending with the list.
//
// Why C++ and not a profile file (grammars/declared/): its two openers take different
// payloads — after <tool_call>, which Hermes, Qwen3-Coder and GLM share, only a list is
// Granite's, after <|tool_call|> an object too — each with closers of its own it may add;
// a file gives one payload rule for all the spellings of its opener.
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

namespace {
void configure_granite(Settings& s) { add_content_marker(s, "<|end_of_text|>"); }

// Granite 3.3 frames its answer in <response>…</response> after its <think> block.
void configure_granite_own(Settings& s) {
    add_content_marker(s, "<response>");
    add_content_marker(s, "</response>");
}
}  // namespace

constexpr ProfileSpec granite_profiles[] = {
    {
        .name = "granite",
        .models = "Granite 3.0 / 3.1 / 3.3",
        .description = "<|tool_call|>[{\"name\": …, \"arguments\": …}] (3.0) or <tool_call>[…] (3.1), no closer",
        .configure = configure_granite,
        .configure_own = configure_granite_own,
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature granite_signatures[] = {
    {
        .family = "Granite 3.x: <|tool_call|>[{\"name\": …, \"arguments\": …}] (no closer)",
        .all = {"<|tool_call|>"},
        .none = {"<|/tool_call|>"},
        .engines = {{"vLLM", "granite"}, {"llama.cpp", "Granite"}},
    },
    // Granite 3.0's token with a closer of its own, which the granite grammar reads.
    {
        .family = "Phi-4-mini as llama.cpp's own template writes it: <|tool_call|>{…}<|/tool_call|>",
        .all = {"<|tool_call|>", "<|/tool_call|>"},
        .note = "no engine parser is named for it (llama.cpp reads it with the parser it derives from the template); "
                "granite reads Granite 3.0's <|tool_call|>{…} and the <|/tool_call|> after it",
    },
};

constexpr RuleVariant granite_variants[] = {
    {"granite::v30", "3.0 <|tool_call|> token"},
    {"granite::v31", "3.1 <tool_call>[…] list"},
    {"granite::block>granite::tag_close", "</tool_call> after the list"},
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
    .profiles = granite_profiles,
    .signatures = granite_signatures,
    .variants = granite_variants,
};

}  // namespace toolgram::detail
