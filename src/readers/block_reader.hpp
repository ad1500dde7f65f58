// The machinery every grammar's reader shares: the block state (a ValueBuilder that also
// knows the scan context), running a block rule at a marker, and turning a JSON payload
// into candidates with the key aliases docs/formats.md lists.
//
// A rule that raises (malformed syntax after a commit point) becomes a *rejected*
// candidate whose problem says what broke and where; a rule that simply does not match
// means "not this syntax here", and the scanner moves on. Never an exception out.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tao/pegtl.hpp>

#include "readers/candidate.hpp"
#include "common/error_messages.hpp"
#include "readers/rule_coverage.hpp"
#include "scan/scan_context.hpp"
#include "value/value_reader.hpp"

namespace toolgram::detail {

struct BlockState : ValueBuilder {
    const Settings* settings = nullptr;
    bool allow_skip = true;
    bool fence_opened = false, fence_closed = false;
    std::vector<std::string> notes;
    std::vector<std::pair<std::string, std::string>> attributes;  // of the opening tag, where one has them
    std::string attribute_name;

    std::size_t offset_of(const char* p) const { return static_cast<std::size_t>(p - base); }
    std::size_t find(std::string_view needle, std::size_t from) { return ctx->find(needle, from); }
    std::size_t find_quiet(std::string_view needle, std::size_t from) { return ctx->find_quiet(needle, from); }
    void awaited(std::string_view needle) const { ctx->awaited(needle); }
    void note(std::string n) {
        for (const auto& s : notes)
            if (s == n) return;
        notes.push_back(std::move(n));
    }
    const std::string* attribute(std::string_view key) const {
        for (const auto& [k, v] : attributes)
            if (k == key) return &v;
        return nullptr;
    }
    // Records an attribute of the tag being read. One given twice with different values
    // (`<invoke name="a" name="b">`) is a repeated key: readers take the first, another
    // reader of the markup might take the last, so the block's calls are refused as for a
    // repeated JSON key. (The same value twice is one value.) A tag's few attributes are
    // compared directly; a hostile tag's thousands through an index, kept linear.
    void add_attribute(std::string name, std::string value) {
        constexpr std::size_t few = 16;
        const std::string* first = nullptr;
        if (attributes.size() < few) {
            first = attribute(name);
        } else {
            if (attribute_index_.empty())
                for (std::size_t i = 0; i < attributes.size(); ++i) attribute_index_.emplace(attributes[i].first, i);
            const auto [it, added] = attribute_index_.emplace(name, attributes.size());
            if (!added) first = &attributes[it->second].second;
        }
        if (first && *first != value) repairs |= repair_duplicate_key;
        attributes.emplace_back(std::move(name), std::move(value));
    }
    // A new tag begins: its attributes are collected anew.
    void clear_attributes() {
        attributes.clear();
        attribute_index_.clear();
    }

private:
    std::unordered_map<std::string, std::size_t> attribute_index_;  // name -> first position, once many
};

struct RunResult {
    bool matched = false;
    std::size_t end = 0;
    bool failed = false;
    FailureInfo failure;
};

template <typename Rule, template <typename...> class Action,
          template <typename...> class Control = grammar::errors::control, typename State>
RunResult run_rule_at(ScanContext& ctx, std::size_t at, State& st, std::size_t stop = std::string_view::npos) {
    namespace pg = tao::pegtl;
    const std::string_view text = ctx.text();
    st.ctx = &ctx;
    st.settings = &ctx.settings();
    st.base = text.data();
    st.max_depth = ctx.settings().limits.max_depth;
    const char* end = text.data() + (stop == std::string_view::npos ? text.size() : stop);
    watched_input in(text.data() + at, end, "output");
    coverage_run_begin(pg::demangle<Rule>().data(), at);
    static_assert(grammar::errors::records_raises<State>, "a block state records raises as ValueBuilder does");
    const std::string_view read = text.substr(0, static_cast<std::size_t>(end - text.data()));
    st.raised = {};
    RunResult r;
    try {
        if (pg::parse<Rule, Action, Control>(in, st) && !st.raised) {
            r.matched = true;
            r.end = static_cast<std::size_t>(in.current() - text.data());
        }
    } catch (const pg::parse_error& e) {
        r.failed = true;
        const std::size_t off = at + static_cast<std::size_t>(e.positions().front().byte);
        r.failure = classify_failure(read, off, e.message());
    }
    if (st.raised) {
        r.failed = true;
        r.failure = classify_failure(read, static_cast<std::size_t>(st.raised.at - text.data()), st.raised.message);
    }
    return r;
}

// The block for syntax that committed and then broke: one rejected candidate.
Block failed_block(std::string_view grammar, std::size_t begin, std::size_t end, const FailureInfo& failure,
                   std::size_t limit_depth);

// A ``` fence opened around a payload and never closed: healed when nothing but
// whitespace follows the block (the output was cut there), reported either way.
inline void settle_fence(BlockState& st, std::string_view text, std::size_t block_end) {
    if (!st.fence_opened || st.fence_closed) return;
    const bool at_end = text.find_first_not_of(" \t\r\n", block_end) == std::string_view::npos;
    if (at_end) note_end(text);
    st.note("missing_fence_close");
    if (at_end) st.healed = true;
}

// Where a broken block ends when its grammar has no closer to look for: at the end of
// output when the value was cut, else where the syntax broke.
inline std::size_t broken_block_end(std::size_t text_end, const FailureInfo& failure) {
    return failure.kind == Failure::cut ? text_end : failure.offset;
}

// Where broken bare syntax ends: a call object or call list with no closer of its own
// (Llama 3's call objects, Python call lists, a marker's JSON) that broke at
// `failure`. Not where it broke, which would leave the rest of the call (`json}}`) in
// the content: where the brackets open at the failure close (strings in "…" and, as the
// lenient reader and Python read them, '…' to the end of their line, hold no bracket; a
// closer that matches no opener is skipped), when they close within 1 KiB of the failure
// and before a blank line; else at the end of the failure's line. A cut: the end of output.
std::size_t broken_bare_end(std::string_view text, std::size_t at, const FailureInfo& failure);

// The block for syntax that broke, bounded by its closer when one follows the failure:
// the end of output for a cut, else just past the closer, else where it broke.
inline Block failed_block_to_closer(ScanContext& ctx, std::string_view grammar, std::size_t at,
                                    const FailureInfo& failure, std::string_view closer) {
    std::size_t end = ctx.text().size();
    if (failure.kind != Failure::cut && !closer.empty()) {
        const std::size_t found = ctx.find(closer, failure.offset);
        end = found != std::string_view::npos ? found + closer.size() : broken_block_end(end, failure);
    }
    if (end == ctx.text().size()) note_end(ctx.text());  // a block to the end grows with the text
    return failed_block(grammar, at, end, failure, ctx.settings().limits.max_depth);
}

// Tool syntax that no grammar could read (src/readers/unreadable_syntax.cpp): `open` at `at`, then
// text, then `close` ("\n": the first line of text after the opener), with no other `open`
// between. An empty inside is syntax holding no call (a block without candidates, as
// `<TOOLCALL>[]</TOOLCALL>`); anything else is one rejected candidate, so the model gets
// the error and its correction prompt. The opener must stand where blocks stand, first on
// its line or right after a tag, and the closer last on its line or before a tag: "use
// <tool_call> and </tool_call>" in prose is a mention, not a block. Without the closer
// nothing is claimed.
std::optional<Block> read_unreadable(ScanContext& ctx, std::size_t at, std::string_view open, std::string_view close,
                                     std::string_view grammar);

// A candidate prototype carrying the block state's repairs and notes.
Candidate candidate_from_state(std::string_view grammar, std::size_t begin, std::size_t end, const BlockState& st);

// How strictly a payload must look like a call.
enum class NameRule {
    required_in_syntax,  // inside tool syntax: an element without a name is a broken call
    optional_in_prose,   // bare JSON: an element without a name is just JSON, not a candidate
};

// Interprets a JSON payload (a call object, an array of them, {"tool_calls": […]}, OpenAI's
// {"type":"function","function":{…}}) as candidates built on `proto`.
void candidates_from_payload(const json& payload, const Candidate& proto, NameRule rule, CandidateList& out);
// The same, giving the payload up: arguments are moved out of it, not copied.
void take_candidates_from_payload(json& payload, const Candidate& proto, NameRule rule, CandidateList& out);

// Writes a call as a JSON object with the given keys: {"name": …, "arguments": {…}}.
std::string call_object_text(const Call& call, std::string_view name_key = "name",
                             std::string_view arguments_key = "arguments");
// Writes a JSON value for a model's eyes: compact, with a space after ':' and ','.
std::string json_text(const json& value);

// Applies the name/id/arguments aliases to one call object; false when it has no name.
bool read_call_object(const json& object, Candidate& c);

}  // namespace toolgram::detail
