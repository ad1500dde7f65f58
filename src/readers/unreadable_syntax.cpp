// Each grammar's blocks by their opener and closer, and the reading of a block that holds
// nothing its grammar can read.
//
// A grammar declines what is not its syntax, which is right where several share a marker
// (`<tool_call>` is hermes', qwen3_coder's, glm45's, …: the payload decides). But a block
// that no grammar of the profile reads, `[TOOL_CALL]not json at all[/TOOL_CALL]`, is still
// tool syntax that yielded no call: it must be reported, with the correction prompt, and
// leave the content. The scanners try these openers only after every grammar declined at
// the place (Parser::Impl::role_markers), so a block some grammar reads is never taken.
//
// An opener with no closer of its own (Mistral's `[TOOL_CALLS]`, Granite's `<|tool_call|>`)
// has the closer "\n": its block is the first line after it, where such families write
// their calls; taking text to the end of output would be a guess.
// Every opener must stand as blocks stand, first on its line or right after a tag, and
// its closer last on its line: prose names special tokens too ("Apertus marks calls with
// <|tools_prefix|> and <|tools_suffix|>"). Not listed: families whose opener may
// introduce a built-in tool's raw code (Llama 3.1's `<|python_tag|>`, Functionary's
// `>>>python`), and the marker format's `TOOL_CALL`, a word prose may use.
#include <algorithm>

#include "readers/block_reader.hpp"
#include "declared/declared_syntax.hpp"
#include "readers/grammar_def.hpp"

namespace toolgram::detail {
namespace {

struct Row {
    std::string_view grammar;
    std::string_view open, close;
};

constexpr Row rows[] = {
    {"tag", "<tool_call>", "</tool_call>"},
    {"hermes", "<tool_call>", "</tool_call>"},
    {"longcat", "<longcat_tool_call>", "</longcat_tool_call>"},
    {"qwen3_coder", "<tool_call>", "</tool_call>"},
    {"seed_oss", "<seed:tool_call>", "</seed:tool_call>"},
    {"glm45", "<tool_call>", "</tool_call>"},
    {"hyperclovax_seed_think", "<tool_call>", "</tool_call>"},
    {"minimax_m2", "<minimax:tool_call>", "</minimax:tool_call>"},
    {"minimax_m3", "]<]minimax[>[<tool_call>", "]<]minimax[>[</tool_call>"},
    {"step3", "<｜tool_calls_begin｜>", "<｜tool_calls_end｜>"},
    {"kimi_k2", "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"},
    {"kimi_k2", "<|tool_call_begin|>", "<|tool_call_end|>"},
    {"deepseek_r1", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"},
    {"deepseek_r1", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>"},
    {"deepseek_v31", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"},
    {"deepseek_v31", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>"},
    {"deepseek_v32", "<｜DSML｜function_calls>", "</｜DSML｜function_calls>"},
    {"deepseek_v32", "<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>"},
    {"deepseek_v32", "<｜DSML｜ calls>", "</｜DSML｜ calls>"},
    {"deepseek_v32", "<｜DSML｜ tool_calls>", "</｜DSML｜ tool_calls>"},
    {"deepseek_v32", "<|DSML|tool_calls>", "</|DSML|tool_calls>"},
    {"deepseek_v32", "<|DSML|function_calls>", "</|DSML|function_calls>"},
    {"deepseek_v32", "<DSML|tool_calls>", "</DSML|tool_calls>"},
    {"deepseek_v32", "<DSML|function_calls>", "</DSML|function_calls>"},
    {"deepseek_v32", "<DSML｜tool_calls>", "</DSML｜tool_calls>"},
    {"deepseek_v32", "<DSML｜function_calls>", "</DSML｜function_calls>"},
    {"deepseek_v32", "<DSMLtool_calls>", "</DSMLtool_calls>"},
    {"deepseek_v32", "<DSMLfunction_calls>", "</DSMLfunction_calls>"},
    {"pythonic", "<|python_start|>", "<|python_end|>"},
    {"pythonic", "<|tool_call_start|>", "<|tool_call_end|>"},
    {"pythonic", "<function_calls>", "</function_calls>"},
    {"pythonic_tagged", "<|python_start|>", "<|python_end|>"},
    {"pythonic_tagged", "<|tool_call_start|>", "<|tool_call_end|>"},
    {"pythonic_tagged", "<function_calls>", "</function_calls>"},
    {"granite", "<tool_call>", "</tool_call>"},
    {"granite", "<|tool_call|>", "\n"},
    {"granite_20b_fc", "<function_call>", "\n"},
    {"mistral", "[TOOL_CALLS]", "\n"},
    {"xlam", "[TOOL_CALLS]", "\n"},
    {"minicpm5", "<function name=", "</function>"},
    {"minicpm5", "<functionĠname=", "</function>"},
    {"minicpm5", "<functionname=", "</function>"},
    {"xml", "<tool_call>", "</tool_call>"},
    {"xml", "<function_call>", "</function_call>"},
    {"functionary_v31", "<function=", "</function>"},
    {"command_r", "<|START_ACTION|>", "<|END_ACTION|>"},
    {"jamba", "<tool_calls>", "</tool_calls>"},
    {"hy_v3", "<tool_calls>", "</tool_calls>"},
    {"hy_v3", "<tool_calls:opensource>", "</tool_calls:opensource>"},
    {"hy_v3", "<tool_call:opensource>", "</tool_call:opensource>"},
    {"hy_v3", "<tool_call:opensource>", "<end_of_tool_call:opensource>"},
    {"muse_glimmer", "<atem:function_calls>", "</atem:function_calls>"},
    {"lfm2_json", "<|tool_call_start|>", "<|tool_call_end|>"},
    {"nemotron", "<TOOLCALL>", "</TOOLCALL>"},
    {"internlm", "<|action_start|>", "<|action_end|>"},
    {"xlam", "<tool_call>", "</tool_call>"},
    {"apertus", "<|tools_prefix|>", "<|tools_suffix|>"},
    {"gemma4", "<|tool_call>", "<tool_call|>"},
    {"functiongemma", "<start_function_call>", "<end_function_call>"},
    {"gigachat", "<|function_call|>", "\n"},
    {"gigachat", "function call<|role_sep|>", "\n"},
    {"solar_open", "<|tool_call:begin|>", "<|tool_call:end|>"},
    {"solar_open", "<|tool_calls|>", "\n"},
    {"solar_open", "<|tool_call:start|>", "<|tool_call:end|>"},
    {"gigachat35", "<｜GCML｜tool_calls>", "</｜GCML｜tool_calls>"},
    {"kimi_k3", "<|open|>tools<|sep|>", "<|close|>tools<|sep|>"},
    {"kimi_k3", "<|open|>call", "<|close|>call<|sep|>"},
    {"inkling", "<|content_invoke_tool_json|>", "<|end_message|>"},
    {"inkling", "<|content_invoke_tool_text|>", "<|end_message|>"},
    {"plamo3", "<|plamo:begin_tool_requests:plamo|>", "<|plamo:end_tool_requests:plamo|>"},
    {"plamo3", "<|plamo:begin_tool_request:plamo|>", "<|plamo:end_tool_request:plamo|>"},
};

}  // namespace

std::vector<SyntaxBlock> syntax_blocks(const GrammarDef& grammar, const Settings& settings) {
    std::vector<SyntaxBlock> out;
    auto add = [&](std::string_view open, std::string_view close) {
        if (open.empty() || close.empty()) return;
        for (const auto& b : out)
            if (b.open == open && b.close == close) return;
        out.push_back({std::string(open), std::string(close)});
    };
    if (grammar.name == "tag") add(settings.tag_open, settings.tag_close);
    if (const DeclaredSyntax* declared = declared_syntax_of(grammar, settings)) {
        const DeclaredSyntax& d = *declared;
        if (d.section && !d.section->close.empty())
            for (const auto& o : d.section->open) add(o, d.section->close.front());
        if (!d.call.close.empty())
            for (const auto& o : d.call.open) add(o, d.call.close.front());
    }
    for (const Row& r : rows)
        if (r.grammar == grammar.name) add(r.open, r.close);
    return out;
}

std::optional<Block> MarkerUse::read(ScanContext& ctx, std::size_t at) const {
    if (broken) return read_unreadable(ctx, at, block.open, block.close, grammar->name);
    return grammar->read_at ? grammar->read_at(ctx, at) : std::nullopt;
}

}  // namespace toolgram::detail
