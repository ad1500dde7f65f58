// Reader for the functionary_v31 family (grammars/functionary_v31.hpp): a named json_block,
// named after `<function=` or by the tag's name attribute.
#include "functionary_v31.hpp"
#include "readers/grammar_def.hpp"
#include "readers/named_call_reader.hpp"

namespace toolgram::detail {
namespace functionary_v31_reader {
namespace {

namespace f = grammar::functionary_v31;

template <typename Rule>
struct functionary_v31_action : json_block_action<Rule> {};
template <> struct functionary_v31_action<f::function_name> : named_call::name {};
template <>
struct functionary_v31_action<f::tag_start> {  // the attributes read are this tag's only
    template <typename Input>
    static void apply(const Input&, BlockState& st) { st.clear_attributes(); }
};
template <> struct functionary_v31_action<f::call_header> : named_call::header {};

std::vector<std::string> markers(const Settings&) { return {"<function=", "<function "}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_named_call<f::call, f::call_header, functionary_v31_action>(ctx, at, "functionary_v31", "</function>",
                                                            markers);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "<function=" + c.name + ">" + json_text(c.arguments) + "</function>";
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a function, write the function's name in the opening tag and its arguments as a JSON object, "
           "one element per call:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace functionary_v31_reader

constexpr BlockSpec functionary_v31_blocks[] = {
    {"<function=", "</function>"},
};

constexpr AliasSpec functionary_v31_aliases[] = {
    {"llama.cpp", "Functionary v3.1 Llama 3.1", "Functionary v3.1"},
};

constexpr ProfileSpec functionary_v31_profiles[] = {
    {
        .name = "functionary_v31",
        .models = "Functionary v3.1, Llama 3.1 function tags",
        .description = "<function=NAME>{…}</function>",
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature functionary_v31_signatures[] = {
    {
        .family = "Functionary v3.1 (Llama 3.1): <function=NAME>{…}</function>",
        .all = {"<function=", "<|start_header_id|>"},
        .none = {"<tool_call>"},
        .engines = {{"llama.cpp", "Functionary v3.1 Llama 3.1"}},
    },
};

extern const GrammarDef functionary_v31_grammar{
    .name = "functionary_v31",
    .summary = "<function=NAME>{…}</function> or <function name=NAME>{…}</function>",
    .markers = functionary_v31_reader::markers,
    .read_at = functionary_v31_reader::read_at,
    .instruction = functionary_v31_reader::instruction,
    .render = functionary_v31_reader::render,
    .blocks = functionary_v31_blocks,
    .aliases = functionary_v31_aliases,
    .profiles = functionary_v31_profiles,
    .signatures = functionary_v31_signatures,
};

}  // namespace toolgram::detail
