// Actions for Python call syntax (grammars/common/python_call.hpp) and the bracket call list
// (grammars/bracket.hpp), shared by every grammar that writes calls the Python way: the
// bracket format and the model families that write Python calls (Llama 3.2/4, LFM2,
// Olmo 3, ToolACE).
//
// Each call opens an arguments object on the value builder; keyword names become keys
// and the lenient value actions fill in the values, so a call's arguments are built by
// the same code as any JSON object. Positional arguments are kept under placeholder
// keys and make the candidate a rejected one: we will not guess which parameter is meant.
// A grammar composes these with `template <typename R> struct fam_action :
// python_call_action<R> {}` and turns the collected calls into a block with
// `python_call_block`, which names the grammar on each candidate.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "readers/block_reader.hpp"
#include "bracket.hpp"
#include "common/python_call.hpp"

namespace toolgram::detail {

struct PythonCallState : BlockState {
    PythonCallState() { python_syntax = true; }  // values are Python literals: {2: …}, 1_000
    std::string name;
    std::size_t call_begin = 0;
    std::size_t positional = 0;
    std::string pending_keyword;
    std::size_t trailing_from = std::string_view::npos;
    std::vector<Candidate> calls;

    // What a call's reading may have built when it raised (grammar::python_call::alone):
    // undone, so a call judged on its own leaves nothing in its siblings' arguments or
    // repairs.
    struct Checkpoint {
        std::size_t stack = 0, keys = 0, notes = 0;
        std::uint32_t repairs = 0;
        bool healed = false, after_separator = false, has_root = false;
        std::string unfinished;
    };
    Checkpoint checkpoint() const {
        return {stack.size(), keys.size(), notes.size(), repairs, healed, after_separator, has_root, unfinished};
    }
    void rollback(const Checkpoint& c) {
        stack.resize(c.stack);
        stack_keys.resize(c.stack);
        keys.resize(c.keys);
        notes.resize(c.notes);
        repairs = c.repairs;
        healed = c.healed;
        after_separator = c.after_separator;
        has_root = c.has_root;
        unfinished = c.unfinished;
    }
    // The call [begin, end) could not be read (`message` at `failure`), but where it ends
    // is clear: a rejected candidate of its own.
    void broken_call(const char* begin, const char* end, const char* failure, std::string_view message) {
        const std::string_view text = ctx->text();
        const FailureInfo f = classify_failure(text, offset_of(failure), message);
        Candidate c;
        c.begin = offset_of(begin);
        c.end = offset_of(end);
        c.name = name;
        if (f.kind == Failure::too_deep) set_too_deep(c, max_depth);
        else c.problem = f.message;
        c.problem_offset = f.offset;
        calls.push_back(std::move(c));
    }
};

template <typename Rule>
struct python_call_action : value_action<Rule> {};

template <>
struct python_call_action<grammar::python_call::function_name> {
    template <typename Input>
    static void apply(const Input& in, PythonCallState& st) {
        st.name = in.string();
        st.call_begin = st.offset_of(in.begin());
        st.positional = 0;
    }
};
template <>
struct python_call_action<grammar::python_call::arguments_open> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) { st.open(json::object()); }
};
template <>
struct python_call_action<grammar::python_call::arguments_close> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) { st.close(); }
};
// The key is pushed only once `=` confirms a keyword argument: `f(True)` also starts
// with an identifier, and a key pushed on that backtracked path would be stale.
template <>
struct python_call_action<grammar::python_call::keyword> {
    template <typename Input>
    static void apply(const Input& in, PythonCallState& st) { st.pending_keyword = in.string(); }
};
template <>
struct python_call_action<grammar::python_call::keyword_equals> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) { st.keys.push_back(std::move(st.pending_keyword)); }
};
template <>
struct python_call_action<grammar::python_call::positional_slot> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) {
        st.keys.push_back("$positional" + std::to_string(st.positional++));
    }
};
template <>
struct python_call_action<grammar::python_call::call> {
    template <typename Input>
    static void apply(const Input& in, PythonCallState& st) {
        Candidate c;
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
struct python_call_action<grammar::bracket::list_cut_off> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) {
        note_cut_after_separator(st);  // `[f(a=1), ` promised another call
        st.healed = true;
    }
};

// The block of the calls collected in `st`, each candidate carrying the grammar's name
// and the block's repairs, notes and healing.
inline Block python_call_block(PythonCallState& st, std::string_view grammar, std::size_t begin, std::size_t end) {
    Block block;
    block.begin = begin;
    block.end = end;
    for (auto& c : st.calls) {
        c.grammar = std::string(grammar);
        c.repairs = st.repairs;
        c.healed = st.healed;
        c.unfinished = st.unfinished;
        c.notes = st.notes;
        block.candidates.push_back(std::move(c));
    }
    return block;
}

}  // namespace toolgram::detail
