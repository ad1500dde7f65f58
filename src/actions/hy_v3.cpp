// Reader for the hy_v3 family (grammars/hy_v3.hpp): GLM-style calls, a bare name and
// <arg_key>/<arg_value> pairs, inside Hunyuan's <tool_calls> section (Hy3), or the same with
// the `:opensource` tag suffix (Hy3's and HY-V4's checkpoints), where a call may also stand
// alone and hold one JSON object. Text values are typed from the tool's schema in phase two,
// as GLM's are; a JSON body's members are JSON already.
#include "readers/grammar_def.hpp"
#include "hy_v3.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {
namespace hy_v3_reader {
namespace {

namespace g = grammar::hy_v3;

template <typename Rule>
struct hy_v3_action : params::shape_action<Rule> {};
template <> struct hy_v3_action<grammar::glm45::call_name> : params::call_name {};
template <> struct hy_v3_action<grammar::glm45::key_text> : params::param_key {};
template <> struct hy_v3_action<g::value_text> : params::param_value {};
template <> struct hy_v3_action<g::v4_value_text> : params::param_value {};
template <> struct hy_v3_action<g::call> : params::call_end {};
template <> struct hy_v3_action<g::v4_call> : params::call_end {};
template <> struct hy_v3_action<g::v4_json_arguments> : params::json_arguments {};

constexpr std::string_view v4_open = "<tool_calls:opensource>";
constexpr std::string_view v4_call_open = "<tool_call:opensource>";

std::vector<std::string> markers(const Settings&) {
    return {"<tool_calls>", std::string(v4_open), std::string(v4_call_open)};
}

// A call standing alone ends at whichever of its two closers comes first (the context's
// cached searches: linear however many calls there are). Quiet: once one is found, text
// that arrives later cannot put the other before it; with neither found the reader's own
// search for the closer tells a stream's end watch.
std::string_view lone_call_closer(ScanContext& ctx, std::size_t at) {
    constexpr std::string_view close = "</tool_call:opensource>", end = "<end_of_tool_call:opensource>";
    const std::size_t c = ctx.find_quiet(close, at), e = ctx.find_quiet(end, at);
    return e < c ? end : close;
}

// Hy3's template writes `<arg_value>` + value + `</arg_value>`: values verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view text = ctx.text();
    const std::string_view closer = text.compare(at, v4_open.size(), v4_open) == 0        ? "</tool_calls:opensource>"
                                    : text.compare(at, v4_call_open.size(), v4_call_open) == 0 ? lone_call_closer(ctx, at)
                                                                                           : "</tool_calls>";
    return read_params_block<g::block, hy_v3_action>(ctx, at, "hy_v3", closer, layout);
}

// As Hy3's chat template writes calls: one section, a line per element; strings as they
// are, anything else as JSON.
std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_params_calls(calls, {"<tool_calls>\n", "</tool_calls>", "<tool_call>", "<tool_sep>\n", "</tool_call>\n",
                                       "<arg_key>", "</arg_key>\n<arg_value>", "</arg_value>\n"});
}

std::string instruction(const Settings& s) {
    return "To call functions, reply with one <tool_calls> block holding one <tool_call> per call: the function name, "
           "<tool_sep>, then one <arg_key>/<arg_value> pair per argument:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "\nWrite objects and arrays as JSON inside <arg_value>.";
}

}  // namespace
}  // namespace hy_v3_reader

constexpr BlockSpec hy_v3_blocks[] = {
    {"<tool_calls>", "</tool_calls>"},
    {"<tool_calls:opensource>", "</tool_calls:opensource>"},
    {"<tool_call:opensource>", "</tool_call:opensource>"},
    {"<tool_call:opensource>", "<end_of_tool_call:opensource>"},
};

constexpr AliasSpec hy_v3_aliases[] = {
    {"vLLM", "hy_v3", "Tencent Hy3 / HY-V3"},
    {"vLLM", "hy_v4", "Tencent HY-V4 (Hy3's tags with the :opensource suffix)"},
    {"SGLang", "hunyuan", "Hunyuan HY-V3 (Hy3)"},
};

namespace {
// Hy3's released checkpoint spells its reasoning tags with the suffix its tool tags carry
// (llama.cpp's tencent-Hy3 template); the plain <think> is the defaults'.
void configure_hy_v3(Settings& s) { add_reasoning(s, {"<think:opensource>", "</think:opensource>"}); }
}  // namespace

constexpr ProfileSpec hy_v3_profiles[] = {
    {
        .name = "hy_v3",
        .models = "Tencent Hy3 (HY-V3), HY-V4",
        .description = "<tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value></tool_call></tool_calls>; "
                       "Hy3's and HY-V4's checkpoints: the same tags with a :opensource suffix (HY-V4: no <tool_sep>), a call "
                       "also alone, its arguments also one JSON object: <tool_call:opensource>NAME<tool_sep:opensource>{…}"
                       "<end_of_tool_call:opensource>; reasoning <think:opensource>",
        .configure = configure_hy_v3,
    },
};

constexpr TemplateSignature hy_v3_signatures[] = {
    {
        .family = "Tencent Hy3 (HY-V3): <tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value>",
        .all = {"<tool_calls>", "<tool_sep>", "<arg_key>"},
        .engines = {{"vLLM", "hy_v3"}, {"vLLM", "hy_v4"}, {"SGLang", "hunyuan"}},
    },
    // Hy3's released template (llama.cpp's tencent-Hy3) writes no tag literally: each is
    // formatted with the checkpoint's suffix, '<tool_call{}>'.format(':opensource').
    {
        .family = "Tencent Hy3 (released template): <tool_calls:opensource><tool_call:opensource>NAME"
                  "<tool_sep:opensource><arg_key:opensource>K…, the tags written '<…{}>'.format(':opensource')",
        .all = {"<tool_calls{}>", "<tool_sep{}>", "<arg_key{}>"},
        .engines = {{"vLLM", "hy_v3"}, {"SGLang", "hunyuan"}},
    },
};

constexpr RuleVariant hy_v3_variants[] = {
    {"hy_v3::section", "<tool_calls> section (Hy3)"},
    {"hy_v3::v4_section", "<tool_calls:opensource> section (HY-V4)"},
    {"hy_v3::block>hy_v3::v4_call", "<tool_call:opensource> call without the section (Hy3 MLX)"},
    {"hy_v3::v4_json_arguments", "one JSON object after <tool_sep:opensource> in place of the pairs"},
};

extern const GrammarDef hy_v3_grammar{
    .name = "hy_v3",
    .summary = "<tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value></tool_call></tool_calls> "
        "(Hy3; the :opensource tags of Hy3's and HY-V4's checkpoints; <tool_call:opensource>NAME<tool_sep:opensource>{…}"
        "<end_of_tool_call:opensource>)",
    .markers = hy_v3_reader::markers,
    .read_at = hy_v3_reader::read_at,
    .instruction = hy_v3_reader::instruction,
    .render = hy_v3_reader::render,
    .blocks = hy_v3_blocks,
    .aliases = hy_v3_aliases,
    .profiles = hy_v3_profiles,
    .signatures = hy_v3_signatures,
    .variants = hy_v3_variants,
};

}  // namespace toolgram::detail
