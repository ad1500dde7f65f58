// Reader for GigaChat 3.5 (grammars/gigachat35.hpp): GCML invokes whose parameters say
// whether their value is text or JSON.
#include "gigachat35.hpp"
#include "grammar_def.hpp"
#include "params_reader.hpp"

namespace toolgram::detail {
namespace {

namespace g = grammar::gigachat35;

// `string="false"` marks the value as JSON; anything else (`"true"`, no attribute) as
// text, which is also how vLLM's and SGLang's gigachat35 parsers take a missing attribute.
struct gcml_value {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* s = st.attribute("string");
        if (s && trim_text(*s) == "false") params::param_json_value::apply(in, st);
        else params::param_value::apply(in, st);
    }
};

template <typename Rule>
struct action : params::shape_action<Rule> {};
template <> struct action<g::invoke_start> : params::tag_begin {};
template <> struct action<g::invoke_open> : params::call_name_attribute {};
template <> struct action<g::parameter_start> : params::tag_begin {};
template <> struct action<g::parameter_open> : params::param_key_attribute {};
template <> struct action<g::parameter_value> : gcml_value {};
template <> struct action<g::invoke> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {"<｜GCML｜tool_calls>", "<｜GCML｜invoke"}; }

// GigaChat 3.5's template writes `<｜GCML｜parameter name="K" string="true">` + value +
// `</｜GCML｜parameter>`: values verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<g::block, action>(ctx, at, "gigachat35", "</｜GCML｜tool_calls>", layout);
}

// As GigaChat 3.5's template writes calls: one block, one invoke per call, a line per
// element; strings as text (string="true"), anything else as JSON (string="false").
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<｜GCML｜tool_calls>\n";
    for (const auto& c : calls) {
        out += "<｜GCML｜invoke name=\"" + c.name + "\">\n";
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it) {
            const bool text = it->is_string();
            out += "<｜GCML｜parameter name=\"" + it.key() + "\" string=\"" + (text ? "true" : "false") + "\">" +
                   (text ? it->get<std::string>() : json_text(*it)) + "</｜GCML｜parameter>\n";
        }
        out += "</｜GCML｜invoke>\n";
    }
    return out + "</｜GCML｜tool_calls>";
}

std::string instruction(const Settings& s) {
    return "To call functions, reply with one <｜GCML｜tool_calls> block holding one <｜GCML｜invoke> per call and "
           "one <｜GCML｜parameter> per argument; string=\"true\" for a text value, string=\"false\" for a number, "
           "boolean, null, array or object written as JSON:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}, {"COUNT", 3}}}}, s);
}

}  // namespace

extern const GrammarDef gigachat35_grammar{
    "gigachat35",
    "<｜GCML｜tool_calls><｜GCML｜invoke name=NAME><｜GCML｜parameter name=K string=true|false>V"
    "</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
