// Reader for GigaChat 3.5 (grammars/gigachat35.hpp): DeepSeek V3.2's DSML reader
// (deepseek_v32_reader.hpp) in the GCML dialect.
#include "actions/deepseek_v32_reader.hpp"
#include "gigachat35.hpp"
#include "readers/grammar_def.hpp"

namespace toolgram::detail {
namespace gigachat35_reader {
namespace {

using gcml = grammar::gigachat35::gcml;

std::vector<std::string> markers(const Settings&) {
    std::vector<std::string> out;
    dsml::add_markers<gcml>(out);
    return out;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) { return dsml::read_block<gcml>(ctx, at, "gigachat35"); }

// As GigaChat 3.5's template writes calls (deepseek_v32_reader.hpp).
std::string render(const std::vector<Call>& calls, const Settings&) {
    return dsml::render<gcml>(calls, "tool_calls", "");
}

std::string instruction(const Settings&) { return dsml::instruction<gcml>("tool_calls", ""); }

}  // namespace
}  // namespace gigachat35_reader

constexpr BlockSpec gigachat35_blocks[] = {
    {"<｜GCML｜tool_calls>", "</｜GCML｜tool_calls>"},
};

constexpr AliasSpec gigachat35_aliases[] = {
    {"vLLM", "gigachat35", "GigaChat 3.5 (GCML)"},
    {"SGLang", "gigachat35", "GigaChat 3.5"},
};

namespace {
// GigaChat 3.5 reasons in <think>…</think> (its template opens <think> in the prompt when
// reasoning is on) and keeps GigaChat 3's turn separator.
void configure_gigachat35(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<|message_sep|>");
}

void configure_gigachat_own(Settings& s) { add_content_marker(s, "</s>"); }
}  // namespace

constexpr ProfileSpec gigachat35_profiles[] = {
    {
        .name = "gigachat35",
        .models = "GigaChat 3.5",
        .description = "<｜GCML｜tool_calls><｜GCML｜invoke name=NAME><｜GCML｜parameter name=K string=true|false>V</｜GCML｜parameter>"
                       "</｜GCML｜invoke></｜GCML｜tool_calls>; reasoning <think>…</think>",
        .configure = configure_gigachat35,
        .configure_own = configure_gigachat_own,
    },
};

constexpr TemplateSignature gigachat35_signatures[] = {
    {
        .family = "GigaChat 3.5: <｜GCML｜tool_calls><｜GCML｜invoke name=…>",
        .all = {"｜GCML｜"},
        .engines = {{"vLLM", "gigachat35"}, {"SGLang", "gigachat35"}},
    },
};

extern const GrammarDef gigachat35_grammar{
    .name = "gigachat35",
    .summary = "<｜GCML｜tool_calls><｜GCML｜invoke name=NAME><｜GCML｜parameter name=K string=true|false>V"
        "</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>",
    .markers = gigachat35_reader::markers,
    .read_at = gigachat35_reader::read_at,
    .instruction = gigachat35_reader::instruction,
    .render = gigachat35_reader::render,
    .blocks = gigachat35_blocks,
    .aliases = gigachat35_aliases,
    .profiles = gigachat35_profiles,
    .signatures = gigachat35_signatures,
};

}  // namespace toolgram::detail
