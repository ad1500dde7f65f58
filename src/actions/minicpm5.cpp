// Reader for the minicpm5 family (grammars/minicpm5.hpp): <function name=…> elements with
// <param name=…> values, CDATA taken as written.
#include "readers/grammar_def.hpp"
#include "minicpm5.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {
namespace minicpm5_reader {
namespace {

namespace m = grammar::minicpm5;

template <typename Rule>
struct minicpm5_action : params::shape_action<Rule> {};
template <> struct minicpm5_action<m::function_start> : params::tag_begin {};
template <> struct minicpm5_action<m::function_open> : params::call_name_attribute {};
template <> struct minicpm5_action<m::param_start> : params::tag_begin {};
template <> struct minicpm5_action<m::param_open> : params::param_key_attribute {};
template <> struct minicpm5_action<m::param_value> : params::param_value {};
template <> struct minicpm5_action<m::function> : params::call_end {};
// The tokenizer's artefacts where a tag's space belongs (grammars/minicpm5.hpp): read, reported.
template <>
struct minicpm5_action<m::byte_level_space> {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) { st.note("byte_level_space_in_tag"); }
};
template <>
struct minicpm5_action<m::space_lost> {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) { st.note("space_missing_in_tag"); }
};

std::vector<std::string> markers(const Settings&) { return {"<function name=", "<functionĠname=", "<functionname="}; }

// MiniCPM 5's template writes `<param name="K">` + value + `</param>`, the value verbatim or,
// when it holds `<`, `&` or a line break, as `<![CDATA[value]]>`.
constexpr ValueLayout layout{.cdata_native = true};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<m::block, minicpm5_action>(ctx, at, "minicpm5", "</function>", layout);
}

// Text that a plain value could not carry back unchanged goes in a CDATA section.
bool needs_cdata(const std::string& v) {
    if (v.find("]]>") != std::string::npos) return false;  // CDATA cannot hold it either
    return v.find('<') != std::string::npos || (!v.empty() && (v.front() == '\n' || v.back() == '\n'));
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) {
        out += "<function name=\"" + c.name + "\">";
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it) {
            const std::string v = parameter_text(*it);
            out += "<param name=\"" + it.key() + "\">" + (needs_cdata(v) ? "<![CDATA[" + v + "]]>" : v) + "</param>";
        }
        out += "</function>\n";
    }
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a function, reply in this exact format, one <param> per argument:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "Write objects and arrays as JSON inside the param; wrap a value that holds '<' in <![CDATA[…]]>. Several "
           "calls: one <function> element each.";
}

}  // namespace
}  // namespace minicpm5_reader

constexpr BlockSpec minicpm5_blocks[] = {
    {"<function name=", "</function>"},
    {"<functionĠname=", "</function>"},
    {"<functionname=", "</function>"},
};

constexpr AliasSpec minicpm5_aliases[] = {
    {"vLLM", "minicpm5", "MiniCPM 5"},
    {"SGLang", "minicpm5", "MiniCPM 5"},
};

constexpr ProfileSpec minicpm5_profiles[] = {
    {
        .name = "minicpm5",
        .models = "MiniCPM 5",
        .description = "<function name=NAME><param name=K>V</param></function>, V plain or CDATA",
    },
};

constexpr TemplateSignature minicpm5_signatures[] = {
    {
        .family = "MiniCPM 5: <function name=NAME><param name=K>V</param></function>",
        .all = {"<function name=", "<param name="},
        .engines = {{"vLLM", "minicpm5"}, {"SGLang", "minicpm5"}},
    },
};

constexpr RuleVariant minicpm5_variants[] = {
    {"minicpm5::param>minicpm5::param_close", "</param> missing (left out, or the value was cut)", true},
    {"minicpm5::byte_level_space", "Ġ (the tokenizer's space) between a tag's name and its attributes"},
    {"minicpm5::space_lost", "no space between a tag's name and its attributes"},
};

extern const GrammarDef minicpm5_grammar{
    .name = "minicpm5",
    .summary = "<function name=NAME><param name=K>V</param></function>, V plain or <![CDATA[…]]>",
    .markers = minicpm5_reader::markers,
    .read_at = minicpm5_reader::read_at,
    .instruction = minicpm5_reader::instruction,
    .render = minicpm5_reader::render,
    .blocks = minicpm5_blocks,
    .aliases = minicpm5_aliases,
    .profiles = minicpm5_profiles,
    .signatures = minicpm5_signatures,
    .variants = minicpm5_variants,
};

}  // namespace toolgram::detail
