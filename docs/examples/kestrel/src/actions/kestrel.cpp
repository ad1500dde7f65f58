// Reader for the kestrel syntax (grammars/kestrel.hpp): the name in <<call NAME>>, one
// `key = value` line per argument, read with the named-parameter machinery
// (src/readers/params_reader.hpp) so values are typed from the tool's schema in phase two.
#include "readers/grammar_def.hpp"
#include "kestrel.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {
namespace kestrel_reader {
namespace {

namespace g = grammar::kestrel;

// A bare value is the rest of its line: the spaces around it (and a \r before the line
// break) are layout.
struct line_value {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) { set_argument(st.current, st.key, trim_text(in.string_view())); }
};

// Named for the family, never plain `action` (see below).
template <typename Rule>
struct kestrel_action : params::shape_action<Rule> {};
template <> struct kestrel_action<g::call_name> : params::call_name {};
template <> struct kestrel_action<g::key> : params::param_key {};
template <> struct kestrel_action<g::quoted_value> : params::param_json_value {};
template <> struct kestrel_action<g::line_value> : line_value {};
template <> struct kestrel_action<g::closer_cut_off> : params::cut_off {};
template <> struct kestrel_action<g::call> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {"<<call"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_params_block<g::block, kestrel_action>(ctx, at, "kestrel", "<</call>>");
}

// A string goes in quotes when its bare form would read back differently: empty, spaces
// at its ends, a line break, a leading quote, or the closer inside it.
bool needs_quotes(const std::string& s) {
    return s.empty() || s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t' ||
           s.front() == '"' || s.find_first_of("\r\n") != std::string::npos || s.find("<</call>>") != std::string::npos;
}

std::string value_text(const json& v) {
    if (v.is_string() && needs_quotes(v.get<std::string>())) return json_text(v);
    return parameter_text(v);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) {
        out += "<<call " + c.name + ">>\n";
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it)
            out += it.key() + " = " + value_text(*it) + "\n";
        out += "<</call>>\n";
    }
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write <<call NAME>> on a line of its own, then one line `key = value` per argument, then "
           "<</call>>:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "Write arrays and objects as JSON, and text with line breaks as a JSON string in double quotes. "
           "Several calls: one <<call>> block each.";
}

}  // namespace
}  // namespace kestrel_reader

// Its blocks by opener and closer: one that holds nothing readable is reported, not left
// in the content (src/readers/unreadable_syntax.cpp).
constexpr BlockSpec kestrel_blocks[] = {
    {"<<call", "<</call>>"},
};

// The profile kestrel (`toolgram profiles`; `auto` runs its grammar too): its models, and
// the settings they need (`.configure`: reasoning blocks, tokens that frame the answer).
constexpr ProfileSpec kestrel_profiles[] = {
    {
        .name = "kestrel",
        .models = "Kestrel 2, Kestrel 2 Mini",
        .description = "<<call NAME>> then a line key = value per argument, <</call>>; one block per call",
    },
};

extern const GrammarDef kestrel_grammar{
    .name = "kestrel",
    .summary = "<<call NAME>> key = value lines <</call>>",
    .markers = kestrel_reader::markers,
    .read_at = kestrel_reader::read_at,
    .instruction = kestrel_reader::instruction,
    .render = kestrel_reader::render,
    .blocks = kestrel_blocks,
    .profiles = kestrel_profiles,
};

}  // namespace toolgram::detail
