// Reader for the seed_oss family (grammars/seed_oss.hpp): Qwen3-Coder's named text
// parameters inside <seed:tool_call>.
#include "readers/grammar_def.hpp"
#include "readers/params_reader.hpp"
#include "seed_oss.hpp"

namespace toolgram::detail {
namespace seed_oss_reader {
namespace {

namespace q = grammar::qwen3_coder;
namespace s = grammar::seed_oss;

template <typename Rule>
struct seed_oss_action : params::shape_action<Rule> {};
template <> struct seed_oss_action<q::function_name> : params::call_name {};
template <> struct seed_oss_action<q::parameter_name> : params::param_key {};
template <> struct seed_oss_action<s::parameter_value> : params::param_value {};
template <> struct seed_oss_action<s::function> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {"<seed:tool_call>"}; }

// Seed-OSS's template writes `<parameter=K>` + value + `</parameter>`: values verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<s::block, seed_oss_action>(ctx, at, "seed_oss", "</seed:tool_call>", layout);
}

// As Seed-OSS's chat template writes calls: one block per call, values inline.
std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_params_calls(calls, {"", "", "<seed:tool_call>\n<function=", ">\n", "</function>\n</seed:tool_call>\n", "<parameter=", ">", "</parameter>\n"});
}

std::string instruction(const Settings& st) {
    return "To call a function, reply in this exact format, one <parameter> per argument:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, st) +
           "Write objects and arrays as JSON inside the parameter. Several calls: one <seed:tool_call> block each.";
}

}  // namespace
}  // namespace seed_oss_reader

constexpr BlockSpec seed_oss_blocks[] = {
    {"<seed:tool_call>", "</seed:tool_call>"},
};

constexpr AliasSpec seed_oss_aliases[] = {
    {"vLLM", "seed_oss", "Seed-OSS"},
    {"llama.cpp", "Seed-OSS", "Seed-OSS"},
};

namespace {
void configure_seed_oss(Settings& s) { add_reasoning(s, {"<seed:think>", "</seed:think>"}); }
}  // namespace

constexpr ProfileSpec seed_oss_profiles[] = {
    {
        .name = "seed_oss",
        .models = "Seed-OSS",
        .description = "<seed:tool_call><function=NAME><parameter=K>V</parameter></function></seed:tool_call>; <seed:think>",
        .configure = configure_seed_oss,
        // Seed-OSS's template writes <seed:think> closed or not at all: a closer before any
        // opener is plain text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature seed_oss_signatures[] = {
    {
        .family = "Seed-OSS: <seed:tool_call><function=NAME><parameter=K>",
        .all = {"<seed:tool_call>", "<function="},
        .engines = {{"vLLM", "seed_oss"}, {"llama.cpp", "Seed-OSS"}},
    },
};

extern const GrammarDef seed_oss_grammar{
    .name = "seed_oss",
    .summary = "<seed:tool_call><function=NAME><parameter=K>V</parameter></function></seed:tool_call>",
    .markers = seed_oss_reader::markers,
    .read_at = seed_oss_reader::read_at,
    .instruction = seed_oss_reader::instruction,
    .render = seed_oss_reader::render,
    .blocks = seed_oss_blocks,
    .aliases = seed_oss_aliases,
    .profiles = seed_oss_profiles,
    .signatures = seed_oss_signatures,
};

}  // namespace toolgram::detail
