// Reader for the llama3_json family (grammars/llama3_json.hpp): call objects, bare or
// after <|python_tag|>, joined by `;`, and Llama 3.1's built-in tool call
// `<|python_tag|>NAME.call(…)`, read with the Python call actions.
//
// Two grammar definitions share this reader: `llama3_json` reads both forms and is what
// the llama3_json profile runs; `llama3_json_tagged` reads only the <|python_tag|> form,
// whose marker is distinctive, so `auto` runs it as a primary while the bare form (no
// marker of its own) stays a gated fallback. Candidates name the family either way.
#include "readers/block_reader.hpp"
#include "readers/grammar_def.hpp"
#include "llama3_json.hpp"
#include "readers/python_call_actions.hpp"

namespace toolgram::detail {
namespace llama3_json_reader {
namespace {

namespace lj = grammar::llama3_json;

struct CallObject {
    json value;
    std::size_t begin = 0, end = 0;
    std::uint32_t repairs = 0;
    bool healed = false;
    std::string unfinished;
};

struct LlamaState : BlockState {
    bool tagged = false;
    std::vector<CallObject> objects;
};

template <typename Rule>
struct llama3_json_action : value_action<Rule> {};

template <>
struct llama3_json_action<lj::python_tag> {
    template <typename Input>
    static void apply(const Input&, LlamaState& st) { st.tagged = true; }
};
// Each object keeps its own repairs and healing: the next one starts clean.
template <>
struct llama3_json_action<lj::call_object> {
    template <typename Input>
    static void apply(const Input& in, LlamaState& st) {
        st.objects.push_back({st.take_root(), st.offset_of(in.begin()), st.offset_of(in.end()), st.repairs, st.healed,
                              std::move(st.unfinished)});
        st.repairs = 0;
        st.healed = false;
        st.unfinished.clear();
    }
};

// The built-in call: the name is the identifier before `.call`; the rest is a Python
// call's arguments, so a call's candidate is made as the Python call syntax makes it.
template <typename Rule>
struct llama3_json_builtin_action : python_call_action<Rule> {};
template <>
struct llama3_json_builtin_action<lj::builtin_name> : python_call_action<grammar::python_call::function_name> {};
template <>
struct llama3_json_builtin_action<lj::builtin_call> : python_call_action<grammar::python_call::call> {};

// `<|python_tag|>NAME.call(…)` at `at`: the block, a broken one, or nothing when the tag
// is not followed by a built-in call's head.
std::optional<Block> read_builtin(ScanContext& ctx, std::size_t at) {
    PythonCallState st;
    const RunResult r = run_rule_at<lj::builtin, llama3_json_builtin_action>(ctx, at, st);
    if (r.failed)
        return failed_block("llama3_json", at, broken_bare_end(ctx.text(), at, r.failure), r.failure,
                            ctx.settings().limits.max_depth);
    if (!r.matched || st.calls.empty()) return std::nullopt;
    return python_call_block(st, "llama3_json", at, r.end);
}

const json* member(const json& o, const char* key) {
    auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

// Without the tag, only what Llama writes counts as a call: a name and "parameters"
// (`{"type": "function", …}` in front allowed), or OpenAI's nested shape. A run of
// objects that opens the output may give "arguments" instead (Llama models trained on
// OpenAI-style traces write it, and vLLM and llama.cpp read both there); further into an
// answer, that generic shape is an example more often than a call, and auto's own JSON
// grammar reads a whole output of it. An object with a "description" is a tool
// definition echoed from the prompt, not a call.
bool is_bare_call(const json& o, bool opens_output) {
    if (!o.is_object() || member(o, "description")) return false;
    const json* name = member(o, "name");
    if (name && name->is_string()) return member(o, "parameters") != nullptr || (opens_output && member(o, "arguments") != nullptr);
    const json* type = member(o, "type");
    const json* fn = member(o, "function");
    if (!type || *type != "function" || !fn || !fn->is_object() || member(*fn, "description")) return false;
    const json* fn_name = member(*fn, "name");
    return fn_name && fn_name->is_string() && (member(*fn, "arguments") || member(*fn, "parameters"));
}

std::optional<Block> read_block(ScanContext& ctx, std::size_t at, bool tagged_only) {
    const std::string_view text = ctx.text();
    if (tagged_only && text.compare(at, 14, "<|python_tag|>") != 0) return std::nullopt;
    const bool opens_output = text.find_first_not_of(" \t\r\n") == at;
    if (text.compare(at, 14, "<|python_tag|>") == 0)
        if (std::optional<Block> b = read_builtin(ctx, at)) return b;
    LlamaState st;
    const RunResult r = run_rule_at<lj::block, llama3_json_action>(ctx, at, st);
    if (r.failed) {
        // A broken bare object is broken tool syntax only once it showed its arguments
        // key; before that it may be any JSON in an answer.
        if (!st.tagged) {
            const std::string_view seen = text.substr(at, r.failure.offset - std::min(r.failure.offset, at));
            if (seen.find("\"parameters\"") == std::string_view::npos && (!opens_output || seen.find("\"arguments\"") == std::string_view::npos) &&
                seen.find("\"function\"") == std::string_view::npos)
                return std::nullopt;
        }
        // A cut value runs to the end, anything else where its brackets close.
        return failed_block("llama3_json", at, broken_bare_end(text, at, r.failure), r.failure,
                            ctx.settings().limits.max_depth);
    }
    if (!r.matched || st.objects.empty()) return std::nullopt;
    // A bare block is only the leading run of objects that are calls.
    std::size_t kept = st.objects.size();
    if (!st.tagged) {
        kept = 0;
        while (kept < st.objects.size() && is_bare_call(st.objects[kept].value, opens_output)) ++kept;
        if (kept == 0) return std::nullopt;
    }
    Block block;
    block.begin = at;
    block.end = kept == st.objects.size() ? r.end : st.objects[kept - 1].end;
    for (std::size_t i = 0; i < kept; ++i) {
        const CallObject& o = st.objects[i];
        Candidate proto = candidate_from_state("llama3_json", i == 0 ? at : o.begin, o.end, st);
        proto.repairs = o.repairs;
        proto.healed = o.healed;
        proto.unfinished = o.unfinished;
        candidates_from_payload(o.value, proto, NameRule::required_in_syntax, block.candidates);
    }
    return block;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) { return read_block(ctx, at, false); }
std::optional<Block> read_tagged_at(ScanContext& ctx, std::size_t at) { return read_block(ctx, at, true); }

std::vector<std::string> tag_markers(const Settings&) { return {"<|python_tag|>"}; }
std::vector<std::string> all_markers(const Settings&) { return {"<|python_tag|>", "{"}; }

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += (out.empty() ? "" : "; ") + call_object_text(c, "name", "parameters");
    return out;
}

std::string instruction(const Settings& s) {
    return "If you choose to call a function, respond with nothing but a JSON object in the format "
           "{\"name\": function name, \"parameters\": dictionary of argument name and its value}; join several "
           "calls with \"; \". Do not use variables. For example:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace llama3_json_reader

constexpr AliasSpec llama3_json_aliases[] = {
    {"vLLM", "llama3_json", "Llama 3.1, 3.2, 3.3 (JSON)"},
    {"vLLM", "llama4_json", "Llama 4 (JSON)"},
    {"SGLang", "llama3", "Llama 3.1, 3.2, 3.3"},
    {"llama.cpp", "Llama 3.x", "Llama 3.1, 3.2, 3.3"},
    {"llama.cpp", "Llama 3.x with builtin tools", "Llama 3.1, 3.2, 3.3 with built-in tools (NAME.call(…))"},
    {"smg", "llama", "Llama 3.1, 3.2, 3.3 (JSON)"},
};

namespace {
void configure_llama3_json(Settings& s) {
    // The tag before a call (kept out of content when it introduces no call) and the
    // end-of-message tokens Llama writes after a call or an answer.
    for (const char* m : {"<|python_tag|>", "<|eom_id|>", "<|eot_id|>"}) add_content_marker(s, m);
}
}  // namespace

constexpr GrammarUseSpec llama3_json_in_auto[] = {{"llama3_json_tagged"}, {"llama3_json", Role::fallback}};
constexpr ProfileSpec llama3_json_profiles[] = {
    {
        .name = "llama3_json",
        .models = "Llama 3.1 / 3.2 / 3.3 / 4 (JSON mode)",
        .description = "{\"name\": …, \"parameters\": …}, optionally after <|python_tag|>, several joined by ';'",
        .distinctive = false,
        .in_auto = llama3_json_in_auto,
        .configure = configure_llama3_json,
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature llama3_json_signatures[] = {
    {
        .family = "Llama 3.1 / 3.2 / 3.3 (JSON): {\"name\": …, \"parameters\": …}, <|python_tag|> optional",
        .all = {"<|start_header_id|>", "\"parameters\": dictionary of argument name"},
        .none = {"<function=", ">>>all", "functools["},
        .engines = {{"vLLM", "llama3_json"}, {"SGLang", "llama3"}, {"llama.cpp", "Llama 3.x"}},
    },
    {
        .family = "Llama 4 (JSON): {\"name\": …, \"parameters\": …}",
        .all = {"<|header_start|>", "\"parameters\": dictionary of argument name"},
        .engines = {{"vLLM", "llama4_json"}},
    },
};

constexpr RuleVariant llama3_json_variants[] = {
    {"llama3_json::block>llama3_json::bare", "call object without <|python_tag|>"},
    {"llama3_json::builtin_call", "built-in tool call <|python_tag|>NAME.call(…)"},
    {"llama3_json::next_call", "several calls joined by ;"},
};

extern const GrammarDef llama3_json_grammar{
    .name = "llama3_json",
    .summary = "{\"name\": …, \"parameters\": …} call objects, bare or after <|python_tag|>, joined by ';'; "
        "<|python_tag|>NAME.call(k=v) (Llama 3.1 built-in tools)",
    .markers = llama3_json_reader::all_markers,
    .read_at = llama3_json_reader::read_at,
    .instruction = llama3_json_reader::instruction,
    .render = llama3_json_reader::render,
    .aliases = llama3_json_aliases,
    .profiles = llama3_json_profiles,
    .signatures = llama3_json_signatures,
    .variants = llama3_json_variants,
};

extern const GrammarDef llama3_json_tagged_grammar{
    .name = "llama3_json_tagged",
    .summary = "the llama3_json family's <|python_tag|>{…} and <|python_tag|>NAME.call(…) forms only (auto runs it as a "
        "primary; the bare form is a fallback)",
    .markers = llama3_json_reader::tag_markers,
    .read_at = llama3_json_reader::read_tagged_at,
    .instruction = llama3_json_reader::instruction,
    .render = llama3_json_reader::render,
    .files = "llama3_json",
};

}  // namespace toolgram::detail
