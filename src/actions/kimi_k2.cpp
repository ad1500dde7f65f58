// Reader for the kimi_k2 family (grammars/kimi_k2.hpp): named json_blocks in a section.
// A call whose reference is a bare counter names no tool: the tool is inferred from its
// arguments where exactly one declared tool's schema takes them, and reported so. A
// reference a client sanitised (`functions_Bash_2`) is taken apart against the tool list.
//
// Why C++ and not a profile file (docs/profiles/kimi_k2.json reads the rest of the corpus
// the same): both of those decide with the tool list, which a file's syntax cannot consult.
#include <algorithm>

#include "readers/grammar_def.hpp"
#include "kimi_k2.hpp"
#include "readers/named_call_reader.hpp"
#include "validation/toolset.hpp"

namespace toolgram::detail {
namespace kimi_k2_reader {
namespace {

namespace k = grammar::kimi_k2;

template <typename Rule>
struct kimi_k2_action : json_block_action<Rule> {};
template <> struct kimi_k2_action<k::function_name> : named_call::name {};
template <> struct kimi_k2_action<k::call_ref> : named_call::id {};
template <> struct kimi_k2_action<k::call_header> : named_call::header {};

const std::vector<std::string>& openers() {
    static const std::vector<std::string> list = {"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>",
                                                  "<|tool_call_begin|>"};
    return list;
}

std::vector<std::string> markers(const Settings&) { return openers(); }

// The declared tools a reason names: all of them up to a handful, then how many more.
std::string tool_list(const ToolSet& tools, const std::vector<int>& which) {
    constexpr std::size_t shown = 8;
    std::string out;
    for (std::size_t i = 0; i < which.size() && i < shown; ++i) {
        if (i > 0) out += ", ";
        out += tools.tool(which[i]).name;
    }
    if (which.size() > shown) out += " and " + std::to_string(which.size() - shown) + " more";
    return out;
}

// A call written `<|tool_call_begin|>0 <|tool_call_argument_begin|>{…}`: its id is the
// counter, and it names no tool. The tool is the one declared tool whose schema the
// arguments pass with no property it does not declare (the gate a guessed call passes),
// reported as the repair `name_inferred_from_arguments`. Where none or several fit, or no
// tool list is given, or the output was cut inside the call (more arguments may have been
// coming, and they could point to another tool), nothing can decide: refused, the reason
// naming the candidates.
void infer_bare_counter_names(ScanContext& ctx, Block& block) {
    for (Candidate& c : block.candidates) {
        if (!c.problem.empty() || !c.name.empty() || !c.id || c.id->empty() ||
            c.id->find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string lead = "the call names no tool, only the counter \"" + *c.id + "\"";
        const auto refuse = [&](const std::string& why) {
            c.problem = lead + ", and " + why;
            c.problem_offset = c.begin;
        };
        const ToolSet* tools = ctx.tools();
        if (!tools || tools->empty()) {
            refuse("no tool list is given to tell which tool it calls");
            continue;
        }
        if (c.healed || !c.unfinished.empty()) {
            refuse("the output was cut off inside it: its arguments may be incomplete, so which tool it calls "
                   "cannot be told from them");
            continue;
        }
        if (!c.arguments.is_object()) {
            refuse("its arguments are not a JSON object to tell the tool from");
            continue;
        }
        std::vector<int> fit, all;
        for (int i = 0; i < static_cast<int>(tools->size()); ++i) {
            all.push_back(i);
            if (tools->usable(i) && tools->validate(i, c.arguments, true).pass) fit.push_back(i);
        }
        if (fit.size() == 1) {
            c.name = tools->tool(fit.front()).name;
            c.notes.push_back("name_inferred_from_arguments");
        } else if (fit.empty()) {
            refuse("its arguments fit none of the declared tools (" + tool_list(*tools, all) + ")");
        } else {
            refuse("its arguments fit several declared tools (" + tool_list(*tools, fit) +
                   "): which one it calls is ambiguous");
        }
    }
}

// A call reference in the form a client's sanitised history taught the model: clients that
// allow ids of [A-Za-z0-9_-] only (LiteLLM's Anthropic route, gateways) send
// `functions.Bash:2` back as `functions_Bash_2`, and Kimi then writes its next calls so
// (llama.cpp#24658, exo#2281), or with both separators dropped, `functionsexec5`
// (sglang#21377). The grammar reads such a reference whole as the name, an unknown tool.
// Where the name as written names no declared tool, the reference is taken apart: after
// `functions`, either `_`, the name and `_` before the index (each separator replaced), or
// the name and the index with none (both dropped); the index may be missing. The name is
// the declared tool (exactly or but for case) that one such split gives, reported as the
// repair `call_reference_sanitised`, the id kept as written. A reference with a `.` or `:`
// was not sanitised and is not taken apart (`functions.search2` stays `search2`). Splits
// naming two tools (`exec5` and `exec` from `functionsexec55`) are refused as ambiguous;
// without a tool list nothing tells a name from an index, so the name stays as written.
void resolve_sanitised_references(ScanContext& ctx, Block& block) {
    const ToolSet* tools = ctx.tools();
    if (!tools || tools->empty()) return;
    constexpr std::string_view prefix = "functions";
    for (Candidate& c : block.candidates) {
        if (!c.problem.empty() || c.name.empty() || !c.id) continue;
        const std::string_view ref = *c.id;
        if (ref.substr(0, prefix.size()) != prefix || ref.find_first_of(".:") != std::string_view::npos ||
            tools->resolve(c.name).index >= 0)
            continue;
        std::string_view body = ref.substr(prefix.size());
        const bool underscores = !body.empty() && body.front() == '_';
        if (underscores) body.remove_prefix(1);
        std::size_t digits = 0;
        while (digits < body.size() && body[body.size() - 1 - digits] >= '0' && body[body.size() - 1 - digits] <= '9')
            ++digits;
        std::vector<int> found;
        const auto try_name = [&](std::string_view name) {
            if (name.empty()) return;
            const auto r = tools->resolve(name);
            if (r.index >= 0 && (r.how == "exact" || r.how == "case") &&
                std::find(found.begin(), found.end(), r.index) == found.end())
                found.push_back(r.index);
        };
        try_name(body);  // no index written
        for (std::size_t cut = 1; cut <= digits; ++cut) {
            const std::string_view name = body.substr(0, body.size() - cut);
            if (!underscores) try_name(name);
            else if (!name.empty() && name.back() == '_') try_name(name.substr(0, name.size() - 1));
        }
        if (found.size() == 1) {
            c.name = tools->tool(found.front()).name;
            c.notes.push_back("call_reference_sanitised");
        } else if (found.size() > 1) {
            c.problem = "the call reference \"" + std::string(ref) + "\" reads as the tool \"" +
                        tools->tool(found[0]).name + "\" or \"" + tools->tool(found[1]).name +
                        "\": which one it calls is ambiguous";
            c.problem_offset = c.begin;
        }
    }
}

// Kimi's call id is `functions.NAME:INDEX`; `functions.NAME.0` is refused, not read as
// the name `NAME.0` (refuse_dot_for_index).
std::optional<Block> read_call(ScanContext& ctx, std::size_t at) {
    std::optional<Block> b = read_named_call<k::call, k::call_header, kimi_k2_action>(ctx, at, "kimi_k2", "<|tool_call_end|>", openers());
    if (b) {
        refuse_dot_for_index(*b, ":");
        infer_bare_counter_names(ctx, *b);
        resolve_sanitised_references(ctx, *b);
    }
    return b;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_call_section<k::section_open, k::section_close>(ctx, at, read_call);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|tool_calls_section_begin|>";
    for (std::size_t i = 0; i < calls.size(); ++i)
        out += "<|tool_call_begin|>functions." + calls[i].name + ":" + std::to_string(i) + "<|tool_call_argument_begin|>" +
               json_text(calls[i].arguments) + "<|tool_call_end|>";
    return out + "<|tool_calls_section_end|>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write one section holding every call; each call names the tool as functions.NAME:INDEX "
           "(INDEX counts the calls from 0) and gives its arguments as a JSON object:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace kimi_k2_reader

constexpr BlockSpec kimi_k2_blocks[] = {
    {"<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"},
    {"<|tool_call_begin|>", "<|tool_call_end|>"},
};

constexpr AliasSpec kimi_k2_aliases[] = {
    {"vLLM", "kimi_k2", "Kimi K2, K2-Thinking, K2.5"},
    {"SGLang", "kimi_k2", "Kimi K2"},
    {"llama.cpp", "Kimi K2", "Kimi K2"},
    {"smg", "kimik2", "Kimi K2"},
};

namespace {
// Kimi K2-Thinking may write its calls straight after reasoning it never closed.
void configure_kimi_k2(Settings& s) { s.reasoning_ends_at_call = true; }
}  // namespace

constexpr ProfileSpec kimi_k2_profiles[] = {
    {
        .name = "kimi_k2",
        .models = "Kimi K2, K2-Thinking",
        .description = "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}"
                       "<|tool_call_end|><|tool_calls_section_end|>",
        .configure = configure_kimi_k2,
        // Kimi K2's and K2-Thinking's templates end the prompt with
        // `<|im_assistant|>assistant<|im_middle|>`: a closer before any opener is plain text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature kimi_k2_signatures[] = {
    {
        .family = "Kimi K2: <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>",
        .all = {"<|tool_calls_section_begin|>", "<|tool_call_begin|>", "<|tool_call_argument_begin|>"},
        .engines = {{"vLLM", "kimi_k2"}, {"SGLang", "kimi_k2"}, {"llama.cpp", "Kimi K2"}},
    },
};

constexpr RuleVariant kimi_k2_variants[] = {
    {"kimi_k2::namespace_prefix", "functions. prefix on the name"},
    {"kimi_k2::bare_counter", "bare counter for the id, no name (inferred from the arguments)"},
};

extern const GrammarDef kimi_k2_grammar{
    .name = "kimi_k2",
    .summary = "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>…",
    .markers = kimi_k2_reader::markers,
    .read_at = kimi_k2_reader::read_at,
    .instruction = kimi_k2_reader::instruction,
    .render = kimi_k2_reader::render,
    .blocks = kimi_k2_blocks,
    .aliases = kimi_k2_aliases,
    .profiles = kimi_k2_profiles,
    .signatures = kimi_k2_signatures,
    .variants = kimi_k2_variants,
};

}  // namespace toolgram::detail
