// Reader for the mistral family (grammars/mistral.hpp): a named or listed json payload
// after [TOOL_CALLS]. Where the engine stripped [ARGS] and [CALL_ID], the name the model
// wrote may carry the call id fused to it; the tool list decides where it ends.
//
// Why C++ and not a profile file (docs/profiles/mistral.json reads the rest of the corpus
// the same): that header with [ARGS] stripped has no end token, which a file's JSON header
// needs, and the tool list decides where its name ends.
#include "readers/grammar_def.hpp"
#include "mistral.hpp"
#include "readers/named_call_reader.hpp"
#include "validation/toolset.hpp"

namespace toolgram::detail {
namespace mistral_reader {
namespace {

namespace m = grammar::mistral;

template <typename Rule>
struct mistral_action : json_block_action<Rule> {};
template <> struct mistral_action<m::function_name> : named_call::name {};
template <> struct mistral_action<m::call_id> : named_call::id {};
template <> struct mistral_action<m::call_header> : named_call::header {};

std::vector<std::string> markers(const Settings&) { return {"[TOOL_CALLS]"}; }

// Mistral's call ids are 9 ASCII letters and digits (mistral_common's, and what vLLM
// generates for the family).
constexpr std::size_t call_id_size = 9;

bool call_id_shaped(std::string_view s) {
    return s.size() == call_id_size && std::all_of(s.begin(), s.end(), [](char ch) {
        return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
    });
}

// Whether the call is written in the stripped form, the name followed directly by `{`: a
// fused id is looked for only there, as where [ARGS] stands, so would [CALL_ID] have.
bool stripped_form(std::string_view text, const Candidate& c) {
    constexpr std::string_view opener = "[TOOL_CALLS]";
    std::size_t p = c.begin;
    if (text.compare(p, opener.size(), opener) != 0) return false;
    p += opener.size();
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    return text.compare(p, c.name.size(), c.name) == 0 && p + c.name.size() < text.size() &&
           text[p + c.name.size()] == '{';
}

// `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` with its special tokens stripped reads as the
// name NAMEID. Where the name as written is no declared tool but, less its last nine
// characters, is one exactly and those nine are an id's, the call is that tool's, the
// id its id, reported (`call_id_split_from_name`); where both readings name a declared
// tool, which one the model meant is ambiguous, and the call is refused. Without a tool
// list nothing can decide: the name stays as written.
void split_fused_call_id(ScanContext& ctx, Block& block) {
    const ToolSet* tools = ctx.tools();
    if (!tools || tools->empty()) return;
    for (Candidate& c : block.candidates) {
        if (!c.problem.empty() || c.id || c.name.size() <= call_id_size || !stripped_form(ctx.text(), c)) continue;
        const std::string_view tail = std::string_view(c.name).substr(c.name.size() - call_id_size);
        if (!call_id_shaped(tail)) continue;
        const std::string head = c.name.substr(0, c.name.size() - call_id_size);
        const ToolSet::Resolution short_name = tools->resolve(head);
        if (short_name.index < 0 || short_name.how != "exact") continue;
        const ToolSet::Resolution whole = tools->resolve(c.name);
        if (whole.index >= 0) {
            c.problem = "the name \"" + c.name + "\" is a declared tool, and so is \"" + head +
                        "\" followed by the call id \"" + std::string(tail) +
                        "\" (the [CALL_ID] and [ARGS] tokens were stripped): which tool is called is ambiguous";
            c.problem_offset = c.begin;
            continue;
        }
        c.id = std::string(tail);
        c.name = head;
        c.notes.push_back("call_id_split_from_name");
    }
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    std::optional<Block> b = read_named_call<m::block, m::named_header, mistral_action>(ctx, at, "mistral", "", markers);
    if (b) {
        split_fused_call_id(ctx, *b);
        return b;
    }
    // `[TOOL_CALLS]NAME` and then the end of output: a call cut before its arguments (the
    // stripped form has no [ARGS] to show the header ended), rejected rather than left as
    // text.
    JsonBlockState st;
    const RunResult header = run_rule_at<m::cut_header, mistral_action>(ctx, at, st);
    if (!header.matched || skip_space(ctx.text(), header.end) < ctx.text().size()) return std::nullopt;
    FailureInfo cut{Failure::cut, header.end, "output cut after the call's name, before its arguments"};
    Block cut_block = failed_block("mistral", at, ctx.text().size(), cut, ctx.settings().limits.max_depth);
    if (const std::string* name = st.attribute("name")) cut_block.candidates.front().name = *name;
    return cut_block;
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "[TOOL_CALLS]" + c.name + "[ARGS]" + json_text(c.arguments);
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write [TOOL_CALLS], the tool's name, [ARGS] and its arguments as a JSON object; "
           "repeat for each call:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace mistral_reader

constexpr BlockSpec mistral_blocks[] = {
    {"[TOOL_CALLS]", "\n"},
};

constexpr AliasSpec mistral_aliases[] = {
    {"vLLM", "mistral", "Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral"},
    {"SGLang", "mistral", "Mistral"},
    {"llama.cpp", "Magistral", "Magistral"},
    {"llama.cpp", "Mistral Nemo", "Mistral Nemo"},
};

namespace {
void configure_mistral(Settings& s) { add_reasoning(s, {"[THINK]", "[/THINK]"}); }
}  // namespace

constexpr ProfileSpec mistral_profiles[] = {
    {
        .name = "mistral",
        .models = "Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral",
        .description = "[TOOL_CALLS]NAME[ARGS]{…} (or with [CALL_ID]ID) per call; old [TOOL_CALLS] [{\"name\": …, \"id\": …}]; "
                       "reasoning [THINK]…[/THINK]",
        .configure = configure_mistral,
        // Mistral's templates write no generation prompt at all: a closer before any opener is
        // plain text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature mistral_signatures[] = {
    {
        .family = "Mistral Nemo, Mistral 7B v0.3: [TOOL_CALLS][{\"name\": …, \"arguments\": …}]",
        .all = {"[TOOL_CALLS]"},
        .engines = {{"vLLM", "mistral"}, {"SGLang", "mistral"}, {"llama.cpp", "Mistral Nemo"}},
    },
    {
        .family = "Mistral Small 3.2, Magistral, Devstral, Ministral 3: [TOOL_CALLS]NAME[ARGS]{…}",
        .all = {"[TOOL_CALLS]", "[ARGS]"},
        .engines = {{"vLLM", "mistral"}, {"SGLang", "mistral"}, {"llama.cpp", "Magistral"}},
    },
};

constexpr RuleVariant mistral_variants[] = {
    {"mistral::header>mistral::call_header", "NAME[ARGS] form (not a JSON list)"},
    {"mistral::call_id_token", "with [CALL_ID]"},
    {"mistral::bare_args", "NAME{…} with [ARGS] stripped (v11+ tokenizer)"},
};

extern const GrammarDef mistral_grammar{
    .name = "mistral",
    .summary = "[TOOL_CALLS]NAME[ARGS]{…}, [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…} or (tokens stripped) [TOOL_CALLS]NAME{…} per call; "
        "old [TOOL_CALLS] [{\"name\": …}]",
    .markers = mistral_reader::markers,
    .read_at = mistral_reader::read_at,
    .instruction = mistral_reader::instruction,
    .render = mistral_reader::render,
    .blocks = mistral_blocks,
    .aliases = mistral_aliases,
    .profiles = mistral_profiles,
    .signatures = mistral_signatures,
    .variants = mistral_variants,
};

}  // namespace toolgram::detail
