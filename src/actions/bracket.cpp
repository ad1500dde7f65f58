// Reader for the bracket format (grammars/bracket.hpp, python_call.hpp). The call actions
// are shared with the families that write Python calls (src/readers/python_call_actions.hpp); this file adds
// the whole-output read and the bracket format's instruction and rendering.
#include "bracket.hpp"
#include "readers/grammar_def.hpp"
#include "readers/python_call_actions.hpp"

#include <algorithm>
#include <cctype>

namespace toolgram::detail {
namespace bracket_reader {
namespace {

namespace bk = grammar::bracket;

using BracketState = PythonCallState;

template <typename Rule>
struct bracket_action : python_call_action<Rule> {};

template <>
struct bracket_action<bk::trailing_text> {
    template <typename Input>
    static void apply(const Input& in, BracketState& st) {
        st.note("trailing_text_ignored");
        st.trailing_from = st.offset_of(in.begin());
    }
};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    BracketState st;
    const RunResult r = run_rule_at<bk::call_list, bracket_action>(ctx, at, st);
    if (r.failed) {
        const std::size_t end = broken_bare_end(ctx.text(), at, r.failure);
        return failed_block("bracket", at, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched) return std::nullopt;
    return python_call_block(st, "bracket", at, r.end);
}

std::optional<Block> read_whole(ScanContext& ctx, std::size_t begin, std::size_t end) {
    BracketState st;
    const RunResult r = run_rule_at<bk::whole_output, bracket_action>(ctx, begin, st, end);
    if (r.failed) {
        const std::size_t stop = broken_bare_end(ctx.text().substr(0, end), begin, r.failure);
        return failed_block("bracket", begin, stop, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || st.calls.empty()) return std::nullopt;
    // Ignored text after the calls is not tool syntax: it stays content.
    std::size_t stop = std::min(end, st.trailing_from);
    while (stop > begin && std::isspace(static_cast<unsigned char>(ctx.text()[stop - 1]))) --stop;
    return python_call_block(st, "bracket", begin, stop);
}

std::string instruction(const Settings&) {
    return "Write tool calls as a Python list of function calls with keyword arguments, and nothing else:\n"
           "[TOOL_NAME(PARAM=\"VALUE\"), OTHER_TOOL(N=3)]";
}

// Python literal for a JSON value: True/False/None, single-quoted strings via JSON's.
std::string python_literal(const json& v) {
    if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
    if (v.is_null()) return "None";
    if (v.is_array()) {
        std::string out = "[";
        for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + python_literal(v[i]);
        return out + "]";
    }
    if (v.is_object()) {
        std::string out = "{";
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += (first ? "" : ", ") + json(it.key()).dump() + ": " + python_literal(*it);
            first = false;
        }
        return out + "}";
    }
    return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "[";
    for (std::size_t i = 0; i < calls.size(); ++i) {
        out += (i ? ", " : "") + calls[i].name + "(";
        bool first = true;
        for (auto it = calls[i].arguments.begin(); it != calls[i].arguments.end(); ++it) {
            out += (first ? "" : ", ") + it.key() + "=" + python_literal(*it);
            first = false;
        }
        out += ")";
    }
    return out + "]";
}
}  // namespace
}  // namespace bracket_reader

constexpr ProfileSpec bracket_profiles[] = {
    {
        .name = "bracket",
        .models = "any model prompted with Python calls",
        .description = "Python call list [f(a=1), g()] or a bare call",
        .distinctive = false,
    },
};

constexpr RuleVariant bracket_variants[] = {
    {"bracket::list_cut_off", "list `]` cut off by the end of output (healed)"},
    {"bracket::trailing_text", "text after the call"},
};

extern const GrammarDef bracket_grammar{
    .name = "bracket",
    .summary = "Python call list [f(a=1), g()] or a bare call f(a=1)",
    .markers = [](const Settings&) { return std::vector<std::string>{"["}; },
    .read_at = bracket_reader::read_at,
    .read_whole = bracket_reader::read_whole,
    .instruction = bracket_reader::instruction,
    .render = bracket_reader::render,
    .profiles = bracket_profiles,
    .variants = bracket_variants,
};

}  // namespace toolgram::detail
