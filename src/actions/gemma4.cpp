// Readers for the gemma4 family (grammars/gemma4.hpp), on the shared Gemma call reader:
// gemma4, the calls between their tokens, and gemma4_stripped, the calls an engine left
// with every special token stripped (the gemma4 profile's gated fallback).
#include "text/ascii.hpp"
#include "gemma4.hpp"
#include "readers/gemma_call_reader.hpp"
#include "readers/grammar_def.hpp"

namespace toolgram::detail {
namespace gemma4_reader {
namespace {

constexpr std::string_view open_token = "<|tool_call>", close_token = "<tool_call|>", quote_token = "<|\"|>";

std::vector<std::string> markers(const Settings&) { return {std::string(open_token)}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_gemma_block<grammar::gemma4::block>(ctx, at, "gemma4", open_token, close_token);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_gemma_calls(calls, open_token, close_token, quote_token);
}

std::string instruction(const Settings& s) {
    return "To call a tool, write <|tool_call>call:TOOL_NAME{…}<tool_call|> with the arguments as key:value pairs: "
           "keys bare, strings between <|\"|> tokens, numbers and true/false bare, lists in [ ] and objects in { }. "
           "For example:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}, {"N", 3}}}}, s);
}

// `call:` after a word's letters is the word's (`recall:`), not a call.
std::vector<std::string> stripped_markers(const Settings&) { return {"call:"}; }

std::optional<Block> read_stripped_at(ScanContext& ctx, std::size_t at) {
    if (at > 0) {
        const char before = ctx.text()[at - 1];
        if (is_alpha(before) || is_digit(before) || before == '_') return std::nullopt;
    }
    return read_json_block<grammar::gemma4::stripped_block, gemma_call_action>(ctx, at, "gemma4_stripped", "", {},
                                                                               read_gemma_payload);
}

}  // namespace
}  // namespace gemma4_reader

constexpr BlockSpec gemma4_blocks[] = {
    {"<|tool_call>", "<tool_call|>"},
};

constexpr AliasSpec gemma4_aliases[] = {
    {"vLLM", "gemma4", "Gemma 4"},
    {"SGLang", "gemma4", "Gemma 4"},
    {"llama.cpp", "peg-gemma4", "Gemma 4 (its PEG parser)"},
};

namespace {
void configure_gemma4(Settings& s) {
    // Gemma 4 sometimes writes the opener's first token twice: the doubled opener is the
    // same block (not a content marker `<|channel>`, which would also eat part of an
    // opener cut by the input limit).
    add_reasoning(s, {"<|channel><|channel>thought", "<channel|>"});
    add_reasoning(s, {"<|channel>thought", "<channel|>"});
    // Besides the turn's end, the closer Gemma 4 leaves stray after its answer.
    for (const char* m : {"<turn|>", "<|tool_response>", "<channel|>"}) add_content_marker(s, m);
}
}  // namespace

constexpr GrammarUseSpec gemma4_profile_grammars[] = {{"gemma4"}, {"gemma4_stripped", Role::fallback}};
constexpr ProfileSpec gemma4_profiles[] = {
    {
        .name = "gemma4",
        .models = "Gemma 4",
        .description = "<|tool_call>call:NAME{key:<|\"|>text<|\"|>,n:3}<tool_call|>, arguments also (key: value, …); "
                       "stripped by the engine, call:NAME{key:text} ending the output (a gated fallback)",
        // The stripped form has no token of its own: auto, which runs only a distinctive
        // profile's primaries, never reads it.
        .grammars = gemma4_profile_grammars,
        .configure = configure_gemma4,
        // Gemma 4's template writes a closed thought channel when thinking is off: a closer
        // before any opener is plain text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature gemma4_signatures[] = {
    {
        .family = "Gemma 4: <|tool_call>call:NAME{…}<tool_call|>",
        .all = {"<|tool_call>", "<tool_call|>"},
        .engines = {{"vLLM", "gemma4"}, {"SGLang", "gemma4"}},
    },
};

extern const GrammarDef gemma4_grammar{
    .name = "gemma4",
    .summary = "<|tool_call>call:NAME{key:<|\"|>text<|\"|>,n:3}<tool_call|>",
    .markers = gemma4_reader::markers,
    .read_at = gemma4_reader::read_at,
    .instruction = gemma4_reader::instruction,
    .render = gemma4_reader::render,
    .blocks = gemma4_blocks,
    .aliases = gemma4_aliases,
    .profiles = gemma4_profiles,
    .signatures = gemma4_signatures,
};
// Renders and instructs as gemma4 does: a model is never asked to write the stripped form.
extern const GrammarDef gemma4_stripped_grammar{
    .name = "gemma4_stripped",
    .summary = "call:NAME{key:text,n:3} with Gemma 4's tokens stripped by the engine (the whole rest of the output)",
    .markers = gemma4_reader::stripped_markers,
    .read_at = gemma4_reader::read_stripped_at,
    .instruction = gemma4_reader::instruction,
    .render = gemma4_reader::render,
    .files = "gemma4",
};

}  // namespace toolgram::detail
