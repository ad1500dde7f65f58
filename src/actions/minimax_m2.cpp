// Reader for the minimax_m2 family (grammars/minimax_m2.hpp): invokes with named text
// parameters inside <minimax:tool_call>.
#include "readers/grammar_def.hpp"
#include "minimax_m2.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {
namespace minimax_m2_reader {
namespace {

namespace m = grammar::minimax_m2;

template <typename Rule>
struct minimax_m2_action : params::shape_action<Rule> {};
template <> struct minimax_m2_action<m::invoke_start> : params::tag_begin {};
template <> struct minimax_m2_action<m::invoke_open> : params::call_name_attribute {};
template <> struct minimax_m2_action<m::parameter_start> : params::tag_begin {};
template <> struct minimax_m2_action<m::parameter_open> : params::param_key_attribute {};
template <> struct minimax_m2_action<m::parameter_value> : params::param_value {};
template <> struct minimax_m2_action<m::invoke> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {"<minimax:tool_call>"}; }

// MiniMax-M2's template writes `<parameter name="K">` + value + `</parameter>`: verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<m::block, minimax_m2_action>(ctx, at, "minimax_m2", "</minimax:tool_call>", layout);
}

// As MiniMax-M2 writes calls: one block, one invoke per call, a line per element;
// strings as they are, anything else as JSON.
std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_params_calls(calls, {"<minimax:tool_call>\n", "</minimax:tool_call>\n", "<invoke name=\"", "\">\n", "</invoke>\n", "<parameter name=\"", "\">", "</parameter>\n"});
}

std::string instruction(const Settings& s) {
    return "To call functions, reply with one <minimax:tool_call> block holding one <invoke> per call and one "
           "<parameter> per argument:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) + "Write objects and arrays as JSON inside the parameter.";
}

}  // namespace
}  // namespace minimax_m2_reader

constexpr BlockSpec minimax_m2_blocks[] = {
    {"<minimax:tool_call>", "</minimax:tool_call>"},
};

constexpr AliasSpec minimax_m2_aliases[] = {
    {"vLLM", "minimax_m2", "MiniMax-M2"},
    {"SGLang", "minimax-m2", "MiniMax-M2"},
    {"llama.cpp", "MiniMax-M2", "MiniMax-M2"},
};

constexpr ProfileSpec minimax_m2_profiles[] = {
    {
        .name = "minimax_m2",
        .models = "MiniMax-M2",
        .description = "<minimax:tool_call><invoke name=NAME><parameter name=K>V</parameter></invoke>…</minimax:tool_call>",
    },
};

constexpr TemplateSignature minimax_m2_signatures[] = {
    {
        .family = "MiniMax-M2: <minimax:tool_call><invoke name=…><parameter name=…>",
        .all = {"<minimax:tool_call>", "<invoke name="},
        .engines = {{"vLLM", "minimax_m2"}, {"SGLang", "minimax-m2"}, {"llama.cpp", "MiniMax-M2"}},
    },
};

constexpr RuleVariant minimax_m2_variants[] = {
    {"minimax_m2::parameter>minimax_m2::parameter_close", "</parameter> missing (left out, or the value was cut)", true},
};

extern const GrammarDef minimax_m2_grammar{
    .name = "minimax_m2",
    .summary = "<minimax:tool_call><invoke name=NAME><parameter name=K>V</parameter></invoke></minimax:tool_call>",
    .markers = minimax_m2_reader::markers,
    .read_at = minimax_m2_reader::read_at,
    .instruction = minimax_m2_reader::instruction,
    .render = minimax_m2_reader::render,
    .blocks = minimax_m2_blocks,
    .aliases = minimax_m2_aliases,
    .profiles = minimax_m2_profiles,
    .signatures = minimax_m2_signatures,
    .variants = minimax_m2_variants,
};

}  // namespace toolgram::detail
