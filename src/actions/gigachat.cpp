// Reader for GigaChat 3 and 3.1 (grammars/gigachat.hpp): a JSON call object after the
// `function call` role header or the `<|function_call|>` token, read by the shared
// json_block reader.
#include "gigachat.hpp"
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {
namespace gigachat_reader {
namespace {

// GigaChat 3's block starts at the `<|message_sep|>` that ends the turn before the call
// (so the separator does not stay in the content); a `<|message_sep|>` followed by
// anything else is declined at once. The role header alone is a marker too.
std::vector<std::string> markers(const Settings&) {
    return {"<|function_call|>", "<|message_sep|>", "function call<|role_sep|>"};
}

// A call that breaks is bounded by the turn's end, where the call message closes. Without
// one, the call still runs on to the end of output (or to the next call): it is the last
// thing in its turn, so what follows the break is the refused call's text, not content
// (json_block alone would end it where the JSON broke and leave the rest in the content).
std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    constexpr std::string_view turn_end = "<|message_sep|>";
    std::optional<Block> b =
        read_json_block<grammar::gigachat::block>(ctx, at, "gigachat", turn_end, markers);
    if (!b || b->candidates.size() != 1 || b->candidates.front().problem.empty()) return b;
    const std::string_view text = ctx.text();
    if (b->end >= text.size() || text.substr(0, b->end).ends_with(turn_end)) return b;
    std::size_t end = ctx.find("<|function_call|>", b->end);
    if (end == std::string_view::npos) {
        end = text.size();
        note_end(text);  // a block to the end grows with the text
    }
    b->end = end;
    b->candidates.front().end = end;
    return b;
}

// GigaChat 3.1's form. The models write one call per turn; several calls are rendered
// one after another, each with its own token, which the grammar reads back.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "<|function_call|>" + call_object_text(c);
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write <|function_call|> followed by a JSON object with the function name and its "
           "arguments, and end your turn there:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace gigachat_reader

constexpr BlockSpec gigachat_blocks[] = {
    {"<|function_call|>", "\n"},
    {"function call<|role_sep|>", "\n"},
};

constexpr AliasSpec gigachat_aliases[] = {
    {"vLLM", "gigachat3", "GigaChat 3, GigaChat 3.1"},
    {"SGLang", "gigachat3", "GigaChat 3, GigaChat 3.1"},
};

namespace {
// GigaChat 3 ends every turn with <|message_sep|>; kept special tokens end the output with
// the EOS </s>, which is ordinary markup elsewhere, so only GigaChat's own profile strips it.
void configure_gigachat(Settings& s) { add_content_marker(s, "<|message_sep|>"); }

void configure_gigachat_own(Settings& s) { add_content_marker(s, "</s>"); }
}  // namespace

constexpr ProfileSpec gigachat_profiles[] = {
    {
        .name = "gigachat",
        .models = "GigaChat 3, GigaChat 3.1",
        .description = "<|message_sep|>function call<|role_sep|>{\"name\": …, \"arguments\": …} (3) or <|function_call|>{…} (3.1), "
                       "one call per turn",
        .configure = configure_gigachat,
        .configure_own = configure_gigachat_own,
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature gigachat_signatures[] = {
    // GigaChat 3.5's template keeps 3.x's roles (and names the `function call` role in
    // its prompt) but writes calls as GCML: a template writing ｜GCML｜ is GigaChat 3.5's.
    {
        .family = "GigaChat 3: a 'function call' role after <|role_sep|>",
        .all = {"<|role_sep|>", "function call"},
        .none = {"<|function_call|>", "｜GCML｜"},
        .engines = {{"vLLM", "gigachat3"}, {"SGLang", "gigachat3"}},
    },
    {
        .family = "GigaChat 3.1: <|function_call|> after <|role_sep|>",
        .all = {"<|role_sep|>", "<|function_call|>"},
        .none = {"｜GCML｜"},
        .engines = {{"vLLM", "gigachat3"}, {"SGLang", "gigachat3"}},
    },
};

extern const GrammarDef gigachat_grammar{
    .name = "gigachat",
    .summary = "<|function_call|>{\"name\": …, \"arguments\": …} (3.1) or <|message_sep|>function call<|role_sep|>{…} (3)",
    .markers = gigachat_reader::markers,
    .read_at = gigachat_reader::read_at,
    .instruction = gigachat_reader::instruction,
    .render = gigachat_reader::render,
    .blocks = gigachat_blocks,
    .aliases = gigachat_aliases,
    .profiles = gigachat_profiles,
    .signatures = gigachat_signatures,
};

}  // namespace toolgram::detail
