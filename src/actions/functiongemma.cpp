// Reader for the functiongemma family (grammars/functiongemma.hpp), on the shared Gemma
// call reader.
#include "functiongemma.hpp"
#include "readers/gemma_call_reader.hpp"
#include "readers/grammar_def.hpp"

namespace toolgram::detail {
namespace functiongemma_reader {
namespace {

constexpr std::string_view open_token = "<start_function_call>", close_token = "<end_function_call>",
                           quote_token = "<escape>";

std::vector<std::string> markers(const Settings&) { return {std::string(open_token)}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_gemma_block<grammar::functiongemma::block>(ctx, at, "functiongemma", open_token, close_token);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_gemma_calls(calls, open_token, close_token, quote_token);
}

std::string instruction(const Settings& s) {
    return "To call a function, write <start_function_call>call:FUNCTION_NAME{…}<end_function_call> with the "
           "arguments as key:value pairs: keys bare, strings between <escape> tokens, numbers and true/false bare. "
           "For example:\n" +
           render({Call{"", "FUNCTION_NAME", {{"PARAM", "VALUE"}, {"N", 3}}}}, s);
}

}  // namespace
}  // namespace functiongemma_reader

constexpr BlockSpec functiongemma_blocks[] = {
    {"<start_function_call>", "<end_function_call>"},
};

constexpr AliasSpec functiongemma_aliases[] = {
    {"vLLM", "functiongemma", "FunctionGemma"},
};

namespace {
void configure_functiongemma(Settings& s) {
    for (const char* m : {"<end_of_turn>", "<start_function_response>"}) add_content_marker(s, m);
}
}  // namespace

constexpr ProfileSpec functiongemma_profiles[] = {
    {
        .name = "functiongemma",
        .models = "FunctionGemma",
        .description = "<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>",
        .configure = configure_functiongemma,
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature functiongemma_signatures[] = {
    {
        .family = "FunctionGemma: <start_function_call>call:NAME{…}<end_function_call>",
        .all = {"<start_function_call>"},
        .engines = {{"vLLM", "functiongemma"}},
    },
};

extern const GrammarDef functiongemma_grammar{
    .name = "functiongemma",
    .summary = "<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>",
    .markers = functiongemma_reader::markers,
    .read_at = functiongemma_reader::read_at,
    .instruction = functiongemma_reader::instruction,
    .render = functiongemma_reader::render,
    .blocks = functiongemma_blocks,
    .aliases = functiongemma_aliases,
    .profiles = functiongemma_profiles,
    .signatures = functiongemma_signatures,
};

}  // namespace toolgram::detail
