// Readers for the glm45 family (grammars/glm45.hpp): a bare name and <arg_key>/<arg_value>
// pairs inside <tool_call>. glm45 reads values as the text GLM's template writes;
// hyperclovax_seed_think reads the same syntax with each value JSON, as HyperCLOVA X SEED
// Think's template writes it.
//
// Why C++ and not a profile file (docs/profiles/glm45.json reads the rest of the corpus
// the same): an object or array value JSON-escaped once more (GLM 4.6 and 4.7, below) is
// decoded once where the tool's schema wants one, which a file has no setting for; and
// the second grammar reads each value as JSON.
#include "glm45.hpp"
#include "readers/grammar_def.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {
namespace glm45_reader {
namespace {

namespace g = grammar::glm45;

template <typename Rule>
struct glm45_action : params::shape_action<Rule> {};
// GLM 4.6 and 4.7 sometimes write an object or array value JSON-escaped once more
// (`<arg_value>[{\"id\": \"1\"}]</arg_value>`, SGLang's glm4_moe parser unescapes such a
// value once): phase two may decode it once, where the schema wants an object or array
// and the text as written is none (toolset.hpp, type_text_value).
struct glm_call_name {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        params::call_name::apply(in, st);
        st.current.text_may_be_escaped_json = true;
    }
};

template <> struct glm45_action<g::call_name> : glm_call_name {};
template <> struct glm45_action<g::key_text> : params::param_key {};
template <> struct glm45_action<g::value_text> : params::param_value {};
template <> struct glm45_action<g::call> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {"<tool_call>"}; }

// GLM-4.5's template writes `<arg_value>` + value + `</arg_value>`: values verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<g::block, glm45_action>(ctx, at, "glm45", "</tool_call>", layout);
}

// As GLM-4.5's chat template writes calls: one block per call, a line per element;
// strings as they are, anything else as JSON.
std::string render(const std::vector<Call>& calls, const Settings&) {
    return render_params_calls(calls, {"", "", "<tool_call>", "\n", "</tool_call>\n", "<arg_key>", "</arg_key>\n<arg_value>", "</arg_value>\n"});
}

std::string instruction(const Settings& s) {
    return "To call a function, write the function name right after <tool_call>, then one <arg_key>/<arg_value> pair "
           "per argument:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "Write objects and arrays as JSON inside <arg_value>. Several calls: one <tool_call> block each.";
}

// HyperCLOVA X SEED Think 32B writes GLM's syntax with every value JSON-encoded
// (`<arg_value>"Seoul"</arg_value>`; vLLM's hyperclovax_seed_think parser, pull request
// #42366, json.loads each value and keeps a value that is no JSON as its text): a value is
// the JSON it holds, or its text with a note. Not GLM's escaped-JSON decoding: a value is
// JSON once.
template <typename Rule>
struct hcx_action : glm45_action<Rule> {};
template <> struct hcx_action<g::call_name> : params::call_name {};
template <> struct hcx_action<g::value_text> : params::param_json_value {};

std::optional<Block> read_hcx_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<g::block, hcx_action>(ctx, at, "hyperclovax_seed_think", "</tool_call>", layout);
}

// As its template writes calls: GLM's layout, every value as JSON.
std::string render_hcx(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) {
        out += "<tool_call>" + c.name + "\n";
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it)
            out += "<arg_key>" + it.key() + "</arg_key>\n<arg_value>" + json_text(*it) + "</arg_value>\n";
        out += "</tool_call>\n";
    }
    return out;
}

std::string instruction_hcx(const Settings& s) {
    return "To call a function, write the function name right after <tool_call>, then one <arg_key>/<arg_value> pair "
           "per argument, each value as JSON (strings in double quotes):\n" +
           render_hcx({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) + "Several calls: one <tool_call> block each.";
}

}  // namespace
}  // namespace glm45_reader

constexpr BlockSpec glm45_blocks[] = {
    {"<tool_call>", "</tool_call>"},
};

constexpr AliasSpec glm45_aliases[] = {
    {"vLLM", "glm45", "GLM-4.5, GLM-4.6"},
    {"vLLM", "glm47", "GLM-4.7, GLM-5"},
    {"vLLM", "ling3", "Ling 3"},
    {"vLLM", "poolside_v1", "Poolside Laguna"},
    {"SGLang", "glm", "GLM-4.5, GLM-4.6"},
    {"SGLang", "glm45", "GLM-4.5, GLM-4.6"},
    {"SGLang", "glm47", "GLM-4.7, GLM-5"},
    {"SGLang", "ling3", "Ling 3"},
    {"SGLang", "poolside_v1", "Poolside Laguna"},
    {"SGLang", "spark25", "Spark 2.5"},
    {"llama.cpp", "GLM 4.5", "GLM-4.5, 4.6, 4.7"},
    {"smg", "glm45_moe", "GLM-4.5, GLM-4.6"},
    {"smg", "glm47_moe", "GLM-4.7, GLM-5"},
};

namespace {
// GLM ends a turn that calls tools with <|observation|> when special tokens are kept.
void configure_glm45(Settings& s) { add_content_marker(s, "<|observation|>"); }
}  // namespace

constexpr ProfileSpec glm45_profiles[] = {
    {
        .name = "glm45",
        .models = "GLM-4.5, 4.6, 4.7, 5",
        .description = "<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>, with or without newlines",
        .configure = configure_glm45,
    },
};

constexpr TemplateSignature glm45_signatures[] = {
    {
        .family = "GLM-4.5 / 4.6 / 4.7: <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>",
        .all = {"<tool_call>", "<arg_key>", "<arg_value>"},
        .engines = {{"vLLM", "glm45"}, {"vLLM", "glm47"}, {"SGLang", "glm45"}, {"SGLang", "glm47"},
                    {"llama.cpp", "GLM 4.5"}},
    },
};

constexpr RuleVariant glm45_variants[] = {
    {"glm45::argument>glm45::value_close", "</arg_value> missing (left out, or the value was cut)", true},
};

extern const GrammarDef glm45_grammar{
    .name = "glm45",
    .summary = "<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>",
    .markers = glm45_reader::markers,
    .read_at = glm45_reader::read_at,
    .instruction = glm45_reader::instruction,
    .render = glm45_reader::render,
    .blocks = glm45_blocks,
    .aliases = glm45_aliases,
    .profiles = glm45_profiles,
    .signatures = glm45_signatures,
    .variants = glm45_variants,
};

constexpr BlockSpec hyperclovax_seed_think_blocks[] = {
    {"<tool_call>", "</tool_call>"},
};

constexpr AliasSpec hyperclovax_seed_think_aliases[] = {
    {"vLLM", "hyperclovax_seed_think", "HyperCLOVA X SEED Think 32B (GLM's syntax, values JSON; pull request #42366)"},
};

namespace {
// HyperCLOVA X SEED Think ends its turn with <|im_end|> (vLLM's parser keeps it out of the
// content); its own profile's only, since auto reads other models' text too.
void configure_hyperclovax_own(Settings& s) { add_content_marker(s, "<|im_end|>"); }
}  // namespace

constexpr GrammarUseSpec hyperclovax_seed_think_in_auto[] = {{"glm45"}};
constexpr ProfileSpec hyperclovax_seed_think_profiles[] = {
    // GLM's syntax exactly, each value JSON: no marker of its own, so auto reads it with
    // glm45 (values kept as written, quotes and all); the profile decodes them.
    {
        .name = "hyperclovax_seed_think",
        .models = "HyperCLOVA X SEED Think 32B",
        .description = "<tool_call>NAME<arg_key>K</arg_key><arg_value>\"V\"</arg_value></tool_call>: GLM's syntax, every value JSON "
                       "(a value that is no JSON is its text); reasoning <think>",
        .distinctive = false,
        .in_auto = hyperclovax_seed_think_in_auto,
        .configure_own = configure_hyperclovax_own,
    },
};

extern const GrammarDef hyperclovax_seed_think_grammar{
    .name = "hyperclovax_seed_think",
    .summary = "<tool_call>NAME<arg_key>K</arg_key><arg_value>JSON</arg_value></tool_call> (values JSON)",
    .markers = glm45_reader::markers,
    .read_at = glm45_reader::read_hcx_at,
    .instruction = glm45_reader::instruction_hcx,
    .render = glm45_reader::render_hcx,
    .blocks = hyperclovax_seed_think_blocks,
    .aliases = hyperclovax_seed_think_aliases,
    .profiles = hyperclovax_seed_think_profiles,
    .files = "glm45",
};

}  // namespace toolgram::detail
