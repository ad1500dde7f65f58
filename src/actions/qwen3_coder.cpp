// Reader for the qwen3_coder family (grammars/qwen3_coder.hpp): named text parameters.
#include "readers/grammar_def.hpp"
#include "readers/params_reader.hpp"
#include "qwen3_coder.hpp"

namespace toolgram::detail {
namespace qwen3_coder_reader {
namespace {

namespace q = grammar::qwen3_coder;

template <typename Rule>
struct qwen3_coder_action : params::shape_action<Rule> {};
template <> struct qwen3_coder_action<q::function_name> : params::call_name {};
template <> struct qwen3_coder_action<q::parameter_name> : params::param_key {};
template <> struct qwen3_coder_action<q::parameter_value> : params::param_value {};
template <> struct qwen3_coder_action<q::function> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {"<tool_call>", "<function="}; }

// Qwen3-Coder's template writes `<parameter=K>\nV\n</parameter>`: a line break on each side.
constexpr ValueLayout layout{.newline_each_side = true};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<q::block, qwen3_coder_action>(ctx, at, "qwen3_coder", "</tool_call>", layout);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_params_calls(calls, {"", "", "<tool_call>\n<function=", ">\n", "</function>\n</tool_call>\n", "<parameter=", ">\n", "\n</parameter>\n"});
}

std::string instruction(const Settings& s) {
    return "To call a function, reply in this exact format, one <parameter> per argument:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "Write objects and arrays as JSON inside the parameter.";
}

}  // namespace
}  // namespace qwen3_coder_reader

constexpr BlockSpec qwen3_coder_blocks[] = {
    {"<tool_call>", "</tool_call>"},
};

constexpr AliasSpec qwen3_coder_aliases[] = {
    {"vLLM", "mimo", "Xiaomi MiMo"},
    {"vLLM", "qwen3_coder", "Qwen3-Coder, Qwen3.5, Qwen3.6"},
    {"vLLM", "qwen3_xml", "Qwen3-Coder, Qwen3.5, Qwen3.6"},
    {"vLLM", "step3p5", "Step 3.5 Flash, Step 3.7"},
    {"SGLang", "mimo", "Xiaomi MiMo"},
    {"SGLang", "qwen3_coder", "Qwen3-Coder"},
    {"SGLang", "step3p5", "Step 3.5 Flash"},
    {"llama.cpp", "Qwen3 Coder", "Qwen3-Coder, Qwen3.5, Nemotron 3, Step 3.5"},
    {"llama.cpp", "Xiaomi MiMo", "Xiaomi MiMo"},
    {"smg", "qwen_coder", "Qwen3-Coder, Qwen3.5, Qwen3.6"},
    {"smg", "qwen_xml", "Qwen3-Coder, Nemotron Nano (XML)"},
};

constexpr ProfileSpec qwen3_coder_profiles[] = {
    {
        .name = "qwen3_coder",
        .models = "Qwen3-Coder, Qwen3.5/3.6, Nemotron 3 Nano, MiMo, Step 3.5",
        .description = "<tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>",
    },
};

constexpr TemplateSignature qwen3_coder_signatures[] = {
    {
        .family = "Qwen3-Coder, Qwen3.5, Nemotron 3 Nano, Step 3.5: <tool_call><function=NAME><parameter=K>",
        .all = {"<tool_call>", "<function=", "<parameter="},
        .engines = {{"vLLM", "qwen3_coder"}, {"vLLM", "qwen3_xml"}, {"SGLang", "qwen3_coder"},
                    {"llama.cpp", "Qwen3 Coder"}},
    },
};

constexpr RuleVariant qwen3_coder_variants[] = {
    {"qwen3_coder::parameter>qwen3_coder::parameter_close", "</parameter> missing (left out, or the value was cut)", true},
    {"qwen3_coder::block>qwen3_coder::unwrapped", "<function=…> without the <tool_call> wrapper"},
    {"qwen3_coder::orphan_wrapper_close", "</tool_call> after a call written without its <tool_call>"},
};

extern const GrammarDef qwen3_coder_grammar{
    .name = "qwen3_coder",
    .summary = "<tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>",
    .markers = qwen3_coder_reader::markers,
    .read_at = qwen3_coder_reader::read_at,
    .instruction = qwen3_coder_reader::instruction,
    .render = qwen3_coder_reader::render,
    .blocks = qwen3_coder_blocks,
    .aliases = qwen3_coder_aliases,
    .profiles = qwen3_coder_profiles,
    .signatures = qwen3_coder_signatures,
    .variants = qwen3_coder_variants,
};

}  // namespace toolgram::detail
