// Reader for the functools family (grammars/functools.hpp): a call list after `functools`.
//
// Why C++ and not a profile file (grammars/declared/): the opener is a word that counts
// only with `[` right after it; a file's opener is a token, after which whitespace and any
// JSON value may follow, so prose such as "functools [1, 2]" would be read as a broken
// call and its text taken out of the content.
#include "functools.hpp"
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace functools_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"functools["}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::functools::block>(ctx, at, "functools", "", markers);
}

// FireFunction's spelling: a space, then the list.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = " functools[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]";
}

std::string instruction(const Settings& s) {
    return "To call functions, write functools followed by a JSON list of objects, each with the function name "
           "and its arguments:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s).substr(1);
}

}  // namespace
}  // namespace functools_reader

constexpr AliasSpec functools_aliases[] = {
    {"vLLM", "phi4_mini_json", "Phi-4-mini"},
    {"llama.cpp", "FireFunction v2", "FireFunction v2"},
};

constexpr ProfileSpec functools_profiles[] = {
    {
        .name = "functools",
        .models = "FireFunction v2, Phi-4-mini",
        .description = " functools[{\"name\": …, \"arguments\": …}, …]",
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature functools_signatures[] = {
    {
        .family = "FireFunction v2, Phi-4-mini: functools[{\"name\": …, \"arguments\": …}]",
        .all = {"functools["},
        .engines = {{"vLLM", "phi4_mini_json"}, {"llama.cpp", "FireFunction v2"}},
    },
    {
        .family = "Phi-4-mini (tools listed in <|tool|>…<|/tool|>)",
        .all = {"<|tool|>", "<|/tool|>"},
        .none = {"<|tool_call|>"},
        .engines = {{"vLLM", "phi4_mini_json"}},
        .note = "the template lists the tools but renders no call; Phi-4-mini writes functools[…], which vLLM's "
                "phi4_mini_json parser reads",
    },
};

extern const GrammarDef functools_grammar{
    .name = "functools",
    .summary = "functools[{\"name\": …, \"arguments\": …}, …], no closer",
    .markers = functools_reader::markers,
    .read_at = functools_reader::read_at,
    .instruction = functools_reader::instruction,
    .render = functools_reader::render,
    .aliases = functools_aliases,
    .profiles = functools_profiles,
    .signatures = functools_signatures,
};

}  // namespace toolgram::detail
