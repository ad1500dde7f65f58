// Reader for the pythonic families (grammars/pythonic.hpp): Python call lists, bare or
// in Llama 4's, LFM2's or Olmo 3's wrapper. The call actions are the bracket format's
// (src/readers/python_call_actions.hpp), and so is the rendering of a call list.
//
// Two grammar definitions share this reader: `pythonic` reads every form and is what the
// pythonic profile runs; `pythonic_tagged` reads only the wrapped forms, whose markers
// are distinctive, so `auto` can run them as primaries while the bare list (no marker of
// its own) stays behind auto's gated bracket fallback. Candidates name the family either
// way.
#include "readers/grammar_def.hpp"
#include "pythonic.hpp"
#include "readers/python_call_actions.hpp"

namespace toolgram::detail {
namespace pythonic_reader {
namespace {

namespace py = grammar::pythonic;

template <typename Rule>
struct pythonic_action : python_call_action<Rule> {};

template <>
struct pythonic_action<py::end_cut_off> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) {
        st.note("missing_end_tag");
        st.healed = true;
    }
};
template <>
struct pythonic_action<py::missing_end_tag> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) { st.note("missing_end_tag"); }
};

struct Wrapper {
    std::string_view open, close;
};
constexpr Wrapper wrappers[] = {
    {"<|python_start|>", "<|python_end|>"},
    {"<|tool_call_start|>", "<|tool_call_end|>"},
    {"<function_calls>", "</function_calls>"},
};

template <typename Rule>
std::optional<Block> read_with(ScanContext& ctx, std::size_t at) {
    PythonCallState st;
    const RunResult r = run_rule_at<Rule, pythonic_action>(ctx, at, st);
    if (r.failed) {
        // A broken wrapper ends at its closer when one follows; a broken list where its
        // brackets close.
        std::size_t end = broken_bare_end(ctx.text(), at, r.failure);
        for (const auto& w : wrappers) {
            if (r.failure.kind == Failure::cut || ctx.text().compare(at, w.open.size(), w.open) != 0) continue;
            const std::size_t found = ctx.find(w.close, r.failure.offset);
            if (found != std::string_view::npos) end = found + w.close.size();
        }
        return failed_block("pythonic", at, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || st.calls.empty()) return std::nullopt;
    return python_call_block(st, "pythonic", at, r.end);
}

std::vector<std::string> wrapper_markers(const Settings&) {
    std::vector<std::string> out;
    for (const auto& w : wrappers) out.emplace_back(w.open);
    return out;
}

std::vector<std::string> all_markers(const Settings& s) {
    std::vector<std::string> out = wrapper_markers(s);
    out.emplace_back("[");
    return out;
}

std::string render(const std::vector<Call>& calls, const Settings& s) { return render_calls("bracket", calls, s); }

std::string instruction(const Settings& s) {
    return "If you decide to call functions, reply with nothing but a Python list of calls with keyword arguments, "
           "in this format:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}, Call{"", "OTHER_TOOL", {{"N", 3}}}}, s);
}

}  // namespace
}  // namespace pythonic_reader

constexpr BlockSpec pythonic_blocks[] = {
    {"<|python_start|>", "<|python_end|>"},
    {"<|tool_call_start|>", "<|tool_call_end|>"},
    {"<function_calls>", "</function_calls>"},
};

constexpr AliasSpec pythonic_aliases[] = {
    {"vLLM", "lfm2", "LFM2, LFM2.5 (Python mode; the profile reads the JSON mode too)"},
    {"vLLM", "llama4_pythonic", "Llama 4 (Python)"},
    {"vLLM", "olmo3", "Olmo 3"},
    {"vLLM", "pythonic", "Llama 3.2, ToolACE"},
    {"SGLang", "lfm2", "LFM2, LFM2.5 (Python and JSON modes)"},
    {"SGLang", "pythonic", "Llama 3.2, ToolACE"},
};

namespace {
void configure_pythonic(Settings& s) {
    for (const char* m : {"<|eom|>", "<|eot|>"}) add_content_marker(s, m);  // Llama 4's end tokens
}
}  // namespace

constexpr GrammarUseSpec pythonic_profile_grammars[] = {{"pythonic"}, {"lfm2_json"}};
constexpr GrammarUseSpec pythonic_in_auto[] = {{"pythonic_tagged"}};
constexpr ProfileSpec pythonic_profiles[] = {
    {
        .name = "pythonic",
        .models = "Llama 3.2 / 4 pythonic, ToolACE, LFM2, Olmo 3",
        .description = "[f(a=1), g()], bare or in <|python_start|>…<|python_end|>, <|tool_call_start|>…<|tool_call_end|>, "
                       "<function_calls>…</function_calls>; LFM2's JSON mode [{…}] between its markers too (lfm2_json)",
        // LFM2 writes Python or JSON between the same markers, as its system prompt asks:
        // the payload decides which grammar reads a block (each declines the other's).
        .grammars = pythonic_profile_grammars,
        .distinctive = false,
        // The bare list is the bracket format exactly, which auto runs as a fallback.
        .in_auto = pythonic_in_auto,
        .configure = configure_pythonic,
    },
};

constexpr TemplateSignature pythonic_signatures[] = {
    {
        .family = "LFM2 / LFM2.5: <|tool_call_start|>[f(a=1)]<|tool_call_end|>",
        .all = {"<|tool_call_start|>"},
        .engines = {{"vLLM", "lfm2"}, {"SGLang", "lfm2"}},
    },
    {
        .family = "LFM2 (tools listed in <|tool_list_start|>…<|tool_list_end|>)",
        .all = {"<|tool_list_start|>"},
        .engines = {{"vLLM", "lfm2"}, {"SGLang", "lfm2"}},
        .note = "the template lists the tools but renders no call; LFM2 writes <|tool_call_start|>[f(a=1)]"
                "<|tool_call_end|>, a special token of its vocabulary (llama.cpp's LFM2 JSON mode, asked for in the "
                "system prompt, is not read yet)",
    },
    {
        .family = "Llama 3.2 / 4 pythonic, ToolACE: [func_name1(params_name1=params_value1, …)]",
        .all = {"[func_name1(params_name1=params_value1"},
        .engines = {{"vLLM", "pythonic"}, {"vLLM", "llama4_pythonic"}, {"SGLang", "pythonic"}},
    },
};

constexpr RuleVariant pythonic_variants[] = {
    {"pythonic::missing_end_tag", "wrapper closer missing"},
    {"pythonic::end_cut_off", "wrapper closer cut off by the end of output (healed)"},
    {"pythonic::calls>pythonic::call_lines", "calls one per line, no list"},
    {"pythonic::llama4_block", "<|python_start|> wrapper (Llama 4)"},
    {"pythonic::lfm2_block", "<|tool_call_start|> wrapper (LFM2)"},
    {"pythonic::olmo_block", "<function_calls> wrapper (Olmo 3)"},
};

extern const GrammarDef pythonic_grammar{
    .name = "pythonic",
    .summary = "Python call list [f(a=1), g()], bare or in <|python_start|>, <|tool_call_start|> or <function_calls> (a call a line)",
    .markers = pythonic_reader::all_markers,
    .read_at = pythonic_reader::read_with<grammar::pythonic::block>,
    .instruction = pythonic_reader::instruction,
    .render = pythonic_reader::render,
    .blocks = pythonic_blocks,
    .aliases = pythonic_aliases,
    .profiles = pythonic_profiles,
    .signatures = pythonic_signatures,
    .variants = pythonic_variants,
};

constexpr BlockSpec pythonic_tagged_blocks[] = {
    {"<|python_start|>", "<|python_end|>"},
    {"<|tool_call_start|>", "<|tool_call_end|>"},
    {"<function_calls>", "</function_calls>"},
};

extern const GrammarDef pythonic_tagged_grammar{
    .name = "pythonic_tagged",
    .summary = "the pythonic family's wrapped forms only: <|python_start|>[…]<|python_end|>, <|tool_call_start|>[…]<|tool_call_end|>, "
        "<function_calls>…</function_calls> (auto runs these as primaries)",
    .markers = pythonic_reader::wrapper_markers,
    .read_at = pythonic_reader::read_with<grammar::pythonic::wrapped>,
    .instruction = pythonic_reader::instruction,
    .render = pythonic_reader::render,
    .blocks = pythonic_tagged_blocks,
    .files = "pythonic",
};

}  // namespace toolgram::detail
