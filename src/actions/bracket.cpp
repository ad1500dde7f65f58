// Actions and reader for the bracket format (grammars/bracket.hpp, python_call.hpp).
//
// Each call opens an arguments object on the value builder; keyword names become keys
// and the lenient value actions fill in the values, so a call's arguments are built by
// the same code as any JSON object. Positional arguments are kept under placeholder
// keys and make the candidate a rejected one: we will not guess which parameter is meant.
#include "block_reader.hpp"
#include "bracket.hpp"
#include "grammar_def.hpp"

#include <algorithm>
#include <cctype>

namespace toolgram::detail {
namespace {

namespace pc = grammar::python_call;
namespace bk = grammar::bracket;

struct BracketState : BlockState {
    std::string name;
    std::size_t call_begin = 0;
    std::size_t positional = 0;
    std::string pending_keyword;
    std::size_t trailing_from = std::string_view::npos;
    std::vector<Candidate> calls;
};

template <typename Rule>
struct action : value_action<Rule> {};

template <>
struct action<pc::function_name> {
    template <typename Input>
    static void apply(const Input& in, BracketState& st) {
        st.name = in.string();
        st.call_begin = st.offset_of(in.begin());
        st.positional = 0;
    }
};
template <>
struct action<pc::arguments_open> {
    template <typename Input>
    static void apply(const Input&, BracketState& st) { st.open(json::object()); }
};
template <>
struct action<pc::arguments_close> {
    template <typename Input>
    static void apply(const Input&, BracketState& st) { st.close(); }
};
// The key is pushed only once `=` confirms a keyword argument: `f(True)` also starts
// with an identifier, and a key pushed on that backtracked path would be stale.
template <>
struct action<pc::keyword> {
    template <typename Input>
    static void apply(const Input& in, BracketState& st) { st.pending_keyword = in.string(); }
};
template <>
struct action<pc::keyword_equals> {
    template <typename Input>
    static void apply(const Input&, BracketState& st) { st.keys.push_back(std::move(st.pending_keyword)); }
};
template <>
struct action<pc::positional_slot> {
    template <typename Input>
    static void apply(const Input&, BracketState& st) {
        st.keys.push_back("$positional" + std::to_string(st.positional++));
    }
};
template <>
struct action<pc::call> {
    template <typename Input>
    static void apply(const Input& in, BracketState& st) {
        Candidate c;
        c.grammar = "bracket";
        c.begin = st.call_begin;
        c.end = st.offset_of(in.end());
        c.name = st.name;
        c.arguments = st.take_root();
        if (st.positional > 0) {
            c.problem = "positional arguments in " + st.name + "(…): write every argument as name=value";
            c.problem_offset = st.call_begin;
        }
        st.calls.push_back(std::move(c));
    }
};
template <>
struct action<bk::list_cut_off> {
    template <typename Input>
    static void apply(const Input&, BracketState& st) { st.healed = true; }
};
template <>
struct action<bk::trailing_text> {
    template <typename Input>
    static void apply(const Input& in, BracketState& st) {
        st.note("trailing_text_ignored");
        st.trailing_from = st.offset_of(in.begin());
    }
};

Block finish(BracketState& st, std::size_t begin, std::size_t end) {
    Block block;
    block.begin = begin;
    block.end = end;
    for (auto& c : st.calls) {
        c.repairs = st.repairs;
        c.healed = st.healed;
        c.notes = st.notes;
        block.candidates.push_back(std::move(c));
    }
    return block;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    BracketState st;
    const RunResult r = run_rule_at<bk::call_list, action>(ctx, at, st);
    if (r.failed) {
        const std::size_t end = broken_block_end(ctx.text().size(), r.failure);
        return failed_block("bracket", at, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched) return std::nullopt;
    return finish(st, at, r.end);
}

std::optional<Block> read_whole(ScanContext& ctx, std::size_t begin, std::size_t end) {
    BracketState st;
    const RunResult r = run_rule_at<bk::whole_output, action>(ctx, begin, st, end);
    if (r.failed) {
        const std::size_t stop = broken_block_end(end, r.failure);
        return failed_block("bracket", begin, stop, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || st.calls.empty()) return std::nullopt;
    // Ignored text after the calls is not tool syntax: it stays content.
    std::size_t stop = std::min(end, st.trailing_from);
    while (stop > begin && std::isspace(static_cast<unsigned char>(ctx.text()[stop - 1]))) --stop;
    return finish(st, begin, stop);
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

extern const GrammarDef bracket_grammar{
    "bracket", "Python call list [f(a=1), g()] or a bare call f(a=1)",
    [](const Settings&) { return std::vector<std::string>{"["}; }, read_at, read_whole, instruction,
    render,
};

}  // namespace toolgram::detail
