// Reader for the deepseek_v32 family (grammars/deepseek_v32.hpp): DSML invokes whose
// parameters say whether their value is text or JSON, in each dialect of the tags (V3.2/V4,
// V4.1's spaced tags, the drifted spellings), one dialect per block.
#include "actions/deepseek_v32_reader.hpp"
#include "readers/grammar_def.hpp"

namespace toolgram::detail {
namespace deepseek_v32_reader {
namespace {

namespace d = grammar::deepseek_v32;

std::vector<std::string> markers(const Settings&) {
    std::vector<std::string> out;
    dsml::add_markers<d::canonical>(out);
    dsml::add_markers<d::spaced>(out);
    dsml::add_markers<d::ascii_bars>(out);
    dsml::add_markers<d::leading_bar_lost>(out);
    dsml::add_markers<d::leading_bar_lost_full_width>(out);
    dsml::add_markers<d::bars_lost>(out);
    return out;
}

// A drifted spelling is ordinary text, which prose may hold ("it wrote <|DSML|invoke> by
// mistake"): its opener counts only where blocks stand, first on its line (after blanks)
// or right after another tag, as read_unreadable asks of any text opener.
bool stands_as_block(std::string_view text, std::size_t at) {
    std::size_t before = at;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t' || text[before - 1] == '\r')) --before;
    return before == 0 || text[before - 1] == '\n' || text[before - 1] == '>';
}

template <typename D>
std::optional<Block> read_dialect(ScanContext& ctx, std::size_t at, bool drifted) {
    if (drifted && !stands_as_block(ctx.text(), at)) return std::nullopt;
    auto block = dsml::read_block<D>(ctx, at, "deepseek_v32");
    // Read as the tags they stand for, and said: the model's own token was not written.
    if (drifted && block)
        for (auto& c : block->candidates) c.notes.push_back("dsml_spelling_drifted");
    return block;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view rest = ctx.text().substr(at);
    auto starts = [&](std::string_view s) { return rest.substr(0, s.size()) == s; };
    // Longest first: the spaced prefix extends the canonical one; `<DSML|` and `<DSML｜`
    // extend `<DSML`, which would otherwise take them and find no tag name after it.
    if (starts("<｜DSML｜ ")) return read_dialect<d::spaced>(ctx, at, false);
    if (starts("<｜DSML｜")) return read_dialect<d::canonical>(ctx, at, false);
    if (starts("<|DSML|")) return read_dialect<d::ascii_bars>(ctx, at, true);
    if (starts("<DSML|")) return read_dialect<d::leading_bar_lost>(ctx, at, true);
    if (starts("<DSML｜")) return read_dialect<d::leading_bar_lost_full_width>(ctx, at, true);
    if (starts("<DSML")) return read_dialect<d::bars_lost>(ctx, at, true);
    return std::nullopt;
}

// As DeepSeek V3.2 writes calls (deepseek_v32_reader.hpp).
std::string render(const std::vector<Call>& calls, const Settings&) {
    return dsml::render<d::canonical>(calls, "function_calls", "\n");
}

std::string instruction(const Settings&) { return dsml::instruction<d::canonical>("function_calls", "\n"); }

}  // namespace
}  // namespace deepseek_v32_reader

constexpr BlockSpec deepseek_v32_blocks[] = {
    {"<｜DSML｜function_calls>", "</｜DSML｜function_calls>"},
    {"<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>"},
    {"<｜DSML｜ calls>", "</｜DSML｜ calls>"},
    {"<｜DSML｜ tool_calls>", "</｜DSML｜ tool_calls>"},
    {"<|DSML|tool_calls>", "</|DSML|tool_calls>"},
    {"<|DSML|function_calls>", "</|DSML|function_calls>"},
    {"<DSML|tool_calls>", "</DSML|tool_calls>"},
    {"<DSML|function_calls>", "</DSML|function_calls>"},
    {"<DSML｜tool_calls>", "</DSML｜tool_calls>"},
    {"<DSML｜function_calls>", "</DSML｜function_calls>"},
    {"<DSMLtool_calls>", "</DSMLtool_calls>"},
    {"<DSMLfunction_calls>", "</DSMLfunction_calls>"},
};

constexpr AliasSpec deepseek_v32_aliases[] = {
    {"vLLM", "deepseek_v32", "DeepSeek V3.2"},
    {"vLLM", "deepseek_v4", "DeepSeek V4 (DSML, <｜DSML｜tool_calls>)"},
    {"vLLM", "deepseek_v41", "DeepSeek V4.1 (spaced DSML, <｜DSML｜ calls>)"},
    {"SGLang", "deepseekv32", "DeepSeek V3.2"},
    {"SGLang", "deepseekv4", "DeepSeek V4"},
    {"SGLang", "deepseekv41", "DeepSeek V4.1 (spaced DSML, <｜DSML｜ calls>)"},
};

constexpr GrammarUseSpec deepseek_v32_profile_grammars[] = {{"deepseek_v32"}, {"xml"}};
constexpr GrammarUseSpec deepseek_v32_in_auto[] = {{"deepseek_v32"}};
constexpr ProfileSpec deepseek_v32_profiles[] = {
    {
        .name = "deepseek_v32",
        .models = "DeepSeek V3.2, V4, V4.1",
        .description = "<｜DSML｜function_calls|tool_calls><｜DSML｜invoke name=NAME><｜DSML｜parameter name=K string=true|false>V"
                       "</｜DSML｜parameter></｜DSML｜invoke> or a JSON object in the invoke; V4.1's <｜DSML｜ calls>; drifted "
                       "<|DSML|…>, <DSML|…>, <DSML｜…>, <DSML…>; the prefix lost, <invoke name=NAME>… as xml reads it",
        // DeepSeek also writes its invoke with no DSML prefix at all (`<invoke name="read">
        // <parameter name="filePath">…`, opencode#34676), which `auto` reads through `xml`:
        // the family's profile reads it too. `auto` runs xml on its own.
        .grammars = deepseek_v32_profile_grammars,
        .in_auto = deepseek_v32_in_auto,
    },
};

constexpr TemplateSignature deepseek_v32_signatures[] = {
    {
        .family = "DeepSeek V3.2 / V4: <｜DSML｜function_calls><｜DSML｜invoke name=…>",
        .all = {"｜DSML｜"},
        .engines = {{"vLLM", "deepseek_v32"}, {"vLLM", "deepseek_v4"}, {"SGLang", "deepseekv32"},
                    {"SGLang", "deepseekv4"}},
    },
};

constexpr RuleVariant deepseek_v32_variants[] = {
    {"deepseek_v32::parameter>deepseek_v32::parameter_close", "parameter closer missing (left out, or the value was cut)", true},
    {"deepseek_v32::block>deepseek_v32::invoke", "invoke without the function_calls wrapper"},
    {"deepseek_v32::json_arguments", "one JSON object in the invoke in place of parameters"},
};

extern const GrammarDef deepseek_v32_grammar{
    .name = "deepseek_v32",
    .summary = "<｜DSML｜function_calls><｜DSML｜invoke name=NAME><｜DSML｜parameter name=K string=true|false>V"
        "</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls> (V4: tool_calls; V4.1: <｜DSML｜ calls>, "
        "<｜DSML｜ invoke …>; drifted <|DSML|…>, <DSML|…>, <DSML｜…>, <DSMLtool_calls>; or a JSON object in the invoke)",
    .markers = deepseek_v32_reader::markers,
    .read_at = deepseek_v32_reader::read_at,
    .instruction = deepseek_v32_reader::instruction,
    .render = deepseek_v32_reader::render,
    .blocks = deepseek_v32_blocks,
    .aliases = deepseek_v32_aliases,
    .profiles = deepseek_v32_profiles,
    .signatures = deepseek_v32_signatures,
    .variants = deepseek_v32_variants,
};

}  // namespace toolgram::detail
