// Reader for the deepseek_r1 family (grammars/deepseek_r1.hpp): named json_blocks with a
// ```json fence of their own, grouped in a section.
#include "deepseek_r1.hpp"
#include "readers/deepseek_openers.hpp"
#include "readers/grammar_def.hpp"
#include "readers/named_call_reader.hpp"

namespace toolgram::detail {
namespace deepseek_r1_reader {
namespace {

namespace r1 = grammar::deepseek_r1;

template <typename Rule>
struct deepseek_r1_action : json_block_action<Rule> {};
template <> struct deepseek_r1_action<r1::function_name> : named_call::name {};
template <> struct deepseek_r1_action<r1::call_header> : named_call::header {};
// The fence is R1's own syntax, not a repair: only its state is kept (a fence cut off at
// the end of output is still healed and reported by settle_fence).
template <>
struct deepseek_r1_action<r1::code_fence_open> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.fence_opened = true; }
};
template <>
struct deepseek_r1_action<r1::code_fence_close> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.fence_closed = true; }
};

const std::vector<std::string>& openers() { return deepseek_section_openers(); }

std::vector<std::string> markers(const Settings&) { return openers(); }

std::optional<Block> read_call(ScanContext& ctx, std::size_t at) {
    return read_named_call<r1::call, r1::call_opening, deepseek_r1_action>(ctx, at, "deepseek_r1", "<｜tool▁call▁end｜>",
                                                               openers());
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_call_section<r1::section_open, r1::section_close>(ctx, at, read_call);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<｜tool▁calls▁begin｜>";
    for (std::size_t i = 0; i < calls.size(); ++i)
        out += std::string(i ? "\n" : "") + "<｜tool▁call▁begin｜>function<｜tool▁sep｜>" + calls[i].name +
               "\n```json\n" + json_text(calls[i].arguments) + "\n```<｜tool▁call▁end｜>";
    return out + "<｜tool▁calls▁end｜>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write them between <｜tool▁calls▁begin｜> and <｜tool▁calls▁end｜>, each call as "
           "function<｜tool▁sep｜> and the tool's name, then its arguments as a JSON object in a ```json block:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace deepseek_r1_reader

constexpr BlockSpec deepseek_r1_blocks[] = {
    {"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"},
    {"<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>"},
};

constexpr AliasSpec deepseek_r1_aliases[] = {
    {"vLLM", "deepseek_v3", "DeepSeek V3, DeepSeek R1"},
    {"SGLang", "deepseekv3", "DeepSeek V3, DeepSeek R1"},
    {"llama.cpp", "DeepSeek R1", "DeepSeek R1, V3"},
    {"smg", "deepseek", "DeepSeek V3, DeepSeek R1"},
};

namespace {
// R1 and V3.1 start inside <think> (the prompt opens it) and end with their EOS token.
void configure_deepseek(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<｜end▁of▁sentence｜>");
}
}  // namespace

constexpr ProfileSpec deepseek_r1_profiles[] = {
    {
        .name = "deepseek_r1",
        .models = "DeepSeek R1, R1-0528, V3-0324",
        .description = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME ```json {…}``` <｜tool▁call▁end｜>"
                       "<｜tool▁calls▁end｜>, misspelt section tokens too",
        .configure = configure_deepseek,
    },
};

constexpr TemplateSignature deepseek_r1_signatures[] = {
    {
        .family = "DeepSeek R1 / V3: <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME ```json {…}```",
        .all = {"<｜tool▁calls▁begin｜>", "<｜tool▁sep｜>", "```json"},
        .engines = {{"vLLM", "deepseek_v3"}, {"SGLang", "deepseekv3"}, {"llama.cpp", "DeepSeek R1"}},
    },
};

constexpr RuleVariant deepseek_r1_variants[] = {
    {"deepseek_r1::code_fence_open", "arguments in a ``` fence"},
};

extern const GrammarDef deepseek_r1_grammar{
    .name = "deepseek_r1",
    .summary = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\\n```json\\n{…}\\n```<｜tool▁call▁end｜>…",
    .markers = deepseek_r1_reader::markers,
    .read_at = deepseek_r1_reader::read_at,
    .instruction = deepseek_r1_reader::instruction,
    .render = deepseek_r1_reader::render,
    .blocks = deepseek_r1_blocks,
    .aliases = deepseek_r1_aliases,
    .profiles = deepseek_r1_profiles,
    .signatures = deepseek_r1_signatures,
    .variants = deepseek_r1_variants,
};

}  // namespace toolgram::detail
