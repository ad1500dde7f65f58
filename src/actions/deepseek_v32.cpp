// Reader for the deepseek_v32 family (grammars/deepseek_v32.hpp): DSML invokes whose
// parameters say whether their value is text or JSON, in each dialect of the tags (V3.2/V4,
// V4.1's spaced tags, the drifted spellings), one dialect per block.
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

// An invoke whose body is one JSON object: its members are the arguments, as written.
// (A key given twice is the lenient reader's duplicate_key repair, which phase two refuses.)
struct json_arguments_read {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) {
        st.current.arguments = st.take_root();
        st.current.arguments_are_text = false;
        if (st.current.unfinished.empty()) st.current.unfinished = st.unfinished;
    }
};

template <typename Rule>
struct action : params::shape_action<Rule> {};
template <typename D> struct action<d::invoke_start<D>> : params::tag_begin {};
template <typename D> struct action<d::invoke_open<D>> : params::call_name_attribute {};
template <typename D> struct action<d::parameter_start<D>> : params::tag_begin {};
template <typename D> struct action<d::parameter_open<D>> : params::param_key_attribute {};
template <typename D> struct action<d::parameter_value<D>> : dsml_value {};
template <typename D> struct action<d::json_arguments<D>> : json_arguments_read {};
template <typename D> struct action<d::invoke<D>> : params::call_end {};

// The dialects' openers, as written at a block's or an unwrapped invoke's start.
template <typename D>
void add_markers(std::vector<std::string>& out) {
    const int none = 0;
    const std::string p(grammar::literal<typename D::prefix>::get(none));
    out.push_back("<" + p + std::string(grammar::literal<typename D::name_a>::get(none)) + ">");
    out.push_back("<" + p + std::string(grammar::literal<typename D::name_b>::get(none)) + ">");
    out.push_back("<" + p + "invoke");
}

std::vector<std::string> markers(const Settings&) {
    std::vector<std::string> out;
    add_markers<d::canonical>(out);
    add_markers<d::spaced>(out);
    add_markers<d::ascii_bars>(out);
    add_markers<d::leading_bar_lost>(out);
    add_markers<d::bars_lost>(out);
    return out;
}

// DeepSeek V3.2's template writes `<｜DSML｜parameter name="K" string="true">` + value +
// `</｜DSML｜parameter>`: values verbatim.
constexpr ValueLayout layout{};

// A drifted spelling is ordinary text, which prose may hold ("it wrote <|DSML|invoke> by
// mistake"): its opener counts only where blocks stand, first on its line (after blanks)
// or right after another tag, as read_unreadable asks of any text opener.
bool stands_as_block(std::string_view text, std::size_t at) {
    std::size_t before = at;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t' || text[before - 1] == '\r')) --before;
    return before == 0 || text[before - 1] == '\n' || text[before - 1] == '>';
}

template <typename D>
std::optional<Block> read_dialect(ScanContext& ctx, std::size_t at, bool drifted) {
    const std::string_view text = ctx.text();
    if (drifted && !stands_as_block(text, at)) return std::nullopt;
    const int none = 0;
    const std::string p(grammar::literal<typename D::prefix>::get(none));
    const std::string name_b(grammar::literal<typename D::name_b>::get(none));
    const std::string open_b = "<" + p + name_b + ">";
    const std::string closer = "</" + p +
                               (text.compare(at, open_b.size(), open_b) == 0
                                    ? name_b
                                    : std::string(grammar::literal<typename D::name_a>::get(none))) +
                               ">";
    auto block = read_params_block<d::block<D>, action>(ctx, at, "deepseek_v32", closer, layout);
    // Read as the tags they stand for, and said: the model's own token was not written.
    if (drifted && block)
        for (auto& c : block->candidates) c.notes.push_back("dsml_spelling_drifted");
    return block;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view rest = ctx.text().substr(at);
    auto starts = [&](std::string_view s) { return rest.substr(0, s.size()) == s; };
    // Longest first: the spaced prefix extends the canonical one, `<DSML|` extends `<DSML`.
    if (starts("<｜DSML｜ ")) return read_dialect<d::spaced>(ctx, at, false);
    if (starts("<｜DSML｜")) return read_dialect<d::canonical>(ctx, at, false);
    if (starts("<|DSML|")) return read_dialect<d::ascii_bars>(ctx, at, true);
    if (starts("<DSML|")) return read_dialect<d::leading_bar_lost>(ctx, at, true);
    if (starts("<DSML")) return read_dialect<d::bars_lost>(ctx, at, true);
    return std::nullopt;
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
    "</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls> (V4: tool_calls; V4.1: <｜DSML｜ calls>, "
    "<｜DSML｜ invoke …>; drifted <|DSML|…>, <DSML|…>, <DSMLtool_calls>; or a JSON object in the invoke)",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
