// Reader for the hy_v3 family (grammars/hy_v3.hpp): GLM-style calls, a bare name and
// <arg_key>/<arg_value> pairs, inside Hunyuan's <tool_calls> section (Hy3), or the same with
// the `:opensource` tag suffix (HY-V4). Values are typed from the tool's schema in phase two,
// as glm45's are.
#include "grammar_def.hpp"
#include "hy_v3.hpp"
#include "params_reader.hpp"

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

constexpr std::string_view v4_open = "<tool_calls:opensource>";

std::vector<std::string> markers(const Settings&) { return {"<tool_calls>", std::string(v4_open)}; }

// Hy3's template writes `<arg_value>` + value + `</arg_value>`: values verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const bool v4 = ctx.text().compare(at, v4_open.size(), v4_open) == 0;
    return read_params_block<g::block, hy_v3_action>(ctx, at, "hy_v3", v4 ? "</tool_calls:opensource>" : "</tool_calls>",
                                               layout);
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

extern const GrammarDef hy_v3_grammar{
    "hy_v3",
    "<tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value></tool_call></tool_calls> "
    "(Hy3; HY-V4's :opensource tags)",
    hy_v3_reader::markers, hy_v3_reader::read_at, nullptr, hy_v3_reader::instruction, hy_v3_reader::render,
};

}  // namespace toolgram::detail
