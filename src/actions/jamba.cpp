// Reader for the jamba family (grammars/jamba.hpp): a call list, or one call object a line
// (MiniMax-M1), between <tool_calls> tags; each value is read and judged on its own
// (json_block_reader.hpp).
//
// Why C++ still: a profile file declares the syntax (`one_a_line`), but the record also
// heads Apriel's profile, which reads with this grammar under reasoning that has no
// opener; a profile file cannot yet head a profile reading another file's grammar, nor
// declare a reasoning block with no opener.
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
    {"llama.cpp", "Apriel 1.5", "Apriel 1.5, 1.6 Thinker", "apriel"},
};

namespace {
void configure_jamba(Settings& s) {
    // Hunyuan-A13B frames its answer (tool calls included) in <answer>…</answer>.
    add_content_marker(s, "<answer>");
    add_content_marker(s, "</answer>");
}

// Apriel 1.5 and 1.6 Thinker reason in plain text and end it with [BEGIN FINAL RESPONSE];
// the opener is no token of their own: 1.6's prompt ends with "Here are my reasoning
// steps:\n", 1.5 writes that line itself. So the block has no opener, only the closer
// that ends what the output started with (an opener "Here are my…" would turn any answer
// quoting it into reasoning). 1.5's template also asks for thoughts in <thinking> tags
// before calls. The answer may end with [END FINAL RESPONSE] and the turn's <|end|>.
void configure_apriel(Settings& s) {
    add_reasoning(s, {"", "[BEGIN FINAL RESPONSE]"});
    add_reasoning(s, {"<thinking>", "</thinking>"});
    for (const char* m : {"[BEGIN FINAL RESPONSE]", "[END FINAL RESPONSE]", "<|end|>"}) add_content_marker(s, m);
}
}  // namespace

constexpr ProfileSpec jamba_profiles[] = {
    {
        .name = "jamba",
        .models = "Jamba 1.5, Hunyuan-A13B, MiniMax-M1",
        .description = "<tool_calls>[{\"name\": …, \"arguments\": …}]</tool_calls>, or one call object a line (MiniMax-M1)",
        .configure = configure_jamba,
    },
    {
        .name = "apriel",
        .models = "Apriel 1.5, 1.6 Thinker",
        .description = "reasoning up to [BEGIN FINAL RESPONSE], then <tool_calls>[{\"name\": …, \"arguments\": …}]</tool_calls>",
        .configure = configure_apriel,
    },
};

constexpr TemplateSignature jamba_signatures[] = {
    {
        .family = "Jamba 1.5, MiniMax-M1, Hunyuan-A13B: <tool_calls>[{\"name\": …, \"arguments\": …}]</tool_calls>",
        .all = {"<tool_calls>", "</tool_calls>"},
        .engines = {{"vLLM", "jamba"}, {"vLLM", "hunyuan_a13b"}, {"vLLM", "minimax"}},
    },
    {
        .profile = "apriel",
        .family = "Apriel 1.5 / 1.6: <tool_calls>[…]</tool_calls> after reasoning that ends at [BEGIN FINAL RESPONSE]",
        .all = {"<tool_calls>", "</tool_calls>", "[BEGIN FINAL RESPONSE]"},
        .engines = {{"llama.cpp", "Apriel 1.5"}},
    },
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
    .profiles = jamba_profiles,
    .signatures = jamba_signatures,
};

}  // namespace toolgram::detail
