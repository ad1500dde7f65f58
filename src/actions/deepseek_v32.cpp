// Reader for the deepseek_v32 family (grammars/deepseek_v32.hpp): DSML invokes whose
// parameters say whether their value is text or JSON.
#include "deepseek_v32.hpp"
#include "grammar_def.hpp"
#include "params_reader.hpp"

namespace toolgram::detail {
namespace {

namespace d = grammar::deepseek_v32;

// `string="false"` marks the value as JSON; anything else (`"true"`, no attribute) as text.
struct dsml_value {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* s = st.attribute("string");
        if (s && trim_text(*s) == "false") params::param_json_value::apply(in, st);
        else params::param_value::apply(in, st);
    }
};

template <typename Rule>
struct action : params::shape_action<Rule> {};
template <> struct action<d::invoke_start> : params::tag_begin {};
template <> struct action<d::invoke_open> : params::call_name_attribute {};
template <> struct action<d::parameter_start> : params::tag_begin {};
template <> struct action<d::parameter_open> : params::param_key_attribute {};
template <> struct action<d::parameter_value> : dsml_value {};
template <> struct action<d::invoke> : params::call_end {};

std::vector<std::string> markers(const Settings&) {
    return {"<｜DSML｜function_calls>", "<｜DSML｜tool_calls>", "<｜DSML｜invoke"};
}

// DeepSeek V3.2's template writes `<｜DSML｜parameter name="K" string="true">` + value +
// `</｜DSML｜parameter>`: values verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view text = ctx.text();
    const std::string_view closer =
        text.compare(at, std::string_view("<｜DSML｜tool_calls>").size(), "<｜DSML｜tool_calls>") == 0
            ? "</｜DSML｜tool_calls>"
            : "</｜DSML｜function_calls>";
    return read_params_block<d::block, action>(ctx, at, "deepseek_v32", closer, layout);
}

// As DeepSeek V3.2 writes calls: one block, one invoke per call, a line per element;
// strings as text (string="true"), anything else as JSON (string="false").
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<｜DSML｜function_calls>\n";
    for (const auto& c : calls) {
        out += "<｜DSML｜invoke name=\"" + c.name + "\">\n";
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it) {
            const bool text = it->is_string();
            out += "<｜DSML｜parameter name=\"" + it.key() + "\" string=\"" + (text ? "true" : "false") + "\">" +
                   (text ? it->get<std::string>() : json_text(*it)) + "</｜DSML｜parameter>\n";
        }
        out += "</｜DSML｜invoke>\n";
    }
    return out + "</｜DSML｜function_calls>\n";
}

std::string instruction(const Settings& s) {
    return "To call functions, reply with one <｜DSML｜function_calls> block holding one <｜DSML｜invoke> per call and "
           "one <｜DSML｜parameter> per argument; string=\"true\" for a text value, string=\"false\" for a number, "
           "boolean, null, array or object written as JSON:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}, {"COUNT", 3}}}}, s);
}

}  // namespace

extern const GrammarDef deepseek_v32_grammar{
    "deepseek_v32",
    "<｜DSML｜function_calls><｜DSML｜invoke name=NAME><｜DSML｜parameter name=K string=true|false>V"
    "</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls> (V4: tool_calls)",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
