// Reader for the step3 family (grammars/step3.hpp): steptml invokes inside Step-3's
// full-width call tokens. A name repeated after the separator must be the invoke's.
#include "readers/grammar_def.hpp"
#include "readers/params_reader.hpp"
#include "step3.hpp"

namespace toolgram::detail {
namespace step3_reader {
namespace {

namespace s3 = grammar::step3;

template <typename Rule>
struct step3_action : params::shape_action<Rule> {};
template <> struct step3_action<s3::invoke_start> : params::tag_begin {};
// Each call starts with no name of its own written before its invoke.
template <> struct step3_action<s3::call_begin> {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) { st.announced_name.reset(); }
};
template <> struct step3_action<s3::repeated_name> {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { st.announced_name = trim_text(in.string_view()); }
};
// The invoke names the call; a name written after the separator too must be the same one,
// or the call is refused: taking either would be a guess. It counts for the call's first
// invoke only.
template <> struct step3_action<s3::invoke_open> {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        params::call_name_attribute::apply(in, st);
        if (!st.announced_name) return;
        if (*st.announced_name != st.current.name) {
            st.current.problem = "the call is named twice, \"" + *st.announced_name + "\" after <｜tool_sep｜> and \"" +
                                 st.current.name + "\" in <steptml:invoke name=…>: which tool it calls is ambiguous";
            st.current.problem_offset = st.current.begin;
        }
        st.announced_name.reset();
    }
};
template <> struct step3_action<s3::parameter_start> : params::tag_begin {};
template <> struct step3_action<s3::parameter_open> : params::param_key_attribute {};
template <> struct step3_action<s3::parameter_value> : params::param_value {};
template <> struct step3_action<s3::invoke> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {"<｜tool_calls_begin｜>", "<｜tool_call_begin｜>"}; }

// Step-3's template teaches `<steptml:parameter name="K">[parameter value]</steptml:parameter>`:
// values verbatim.
constexpr ValueLayout layout{};

template <typename Rule>
struct quiet : tao::pegtl::nothing<Rule> {};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    if (std::optional<Block> b = read_params_block<s3::block, step3_action>(ctx, at, "step3", "<｜tool_calls_end｜>", layout))
        return b;
    // Cut after the header (max_tokens hit before the invoke): a rejected call, never the
    // call tokens left in the content.
    BlockState st;
    if (!run_rule_at<s3::cut_header, quiet>(ctx, at, st).matched) return std::nullopt;
    const FailureInfo cut{Failure::cut, ctx.text().size(), "output cut after the call's header, before its <steptml:invoke>"};
    return failed_block("step3", at, ctx.text().size(), cut, ctx.settings().limits.max_depth);
}

// As Step-3 writes calls: one section, the call tokens of each call back to back; strings
// as they are, anything else as JSON.
std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_params_calls(calls, {"<｜tool_calls_begin｜>", "<｜tool_calls_end｜>", "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"", "\">", "</steptml:invoke><｜tool_call_end｜>", "<steptml:parameter name=\"", "\">", "</steptml:parameter>"});
}

std::string instruction(const Settings& s) {
    return "To call functions, reply in this exact format, one <steptml:parameter> per argument and one "
           "<｜tool_call_begin｜>…<｜tool_call_end｜> per call:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "\nWrite objects and arrays as JSON inside the parameter.";
}

}  // namespace
}  // namespace step3_reader

constexpr BlockSpec step3_blocks[] = {
    {"<｜tool_calls_begin｜>", "<｜tool_calls_end｜>"},
};

constexpr AliasSpec step3_aliases[] = {
    {"vLLM", "step3", "Step-3"},
    {"SGLang", "step3", "Step-3"},
};

constexpr ProfileSpec step3_profiles[] = {
    {
        .name = "step3",
        .models = "Step-3",
        .description = "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=NAME>"
                       "<steptml:parameter name=K>V</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
    },
};

constexpr TemplateSignature step3_signatures[] = {
    {
        .family = "Step-3: <｜tool_calls_begin｜>…<steptml:invoke name=…>",
        .all = {"<steptml:invoke"},
        .engines = {{"vLLM", "step3"}, {"SGLang", "step3"}},
    },
};

constexpr RuleVariant step3_variants[] = {
    {"step3::parameter>step3::parameter_close", "parameter closer missing (left out, or the value was cut)", true},
    {"step3::block>step3::tool_call", "call without the tool_calls section"},
    {"step3::repeated_name", "name repeated after <｜tool_sep｜>"},
};

extern const GrammarDef step3_grammar{
    .name = "step3",
    .summary = "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=NAME>"
        "<steptml:parameter name=K>V</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
    .markers = step3_reader::markers,
    .read_at = step3_reader::read_at,
    .instruction = step3_reader::instruction,
    .render = step3_reader::render,
    .blocks = step3_blocks,
    .aliases = step3_aliases,
    .profiles = step3_profiles,
    .signatures = step3_signatures,
    .variants = step3_variants,
};

}  // namespace toolgram::detail
