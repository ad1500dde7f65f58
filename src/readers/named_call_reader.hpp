// Calls whose opener names the tool, and sections that group such calls: the shape of the
// families that put a JSON arguments object after their own header tokens.
//
//   Kimi K2       <|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>ARGS<|tool_call_end|>
//   DeepSeek      <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>ARGS<｜tool▁call▁end｜>
//   Mistral       [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]ARGS
//   gpt-oss       <|channel|>commentary to=functions.NAME <|constrain|>json<|message|>ARGS<|call|>
//   Functionary   <function=NAME>ARGS</function>,  >>>NAME\nARGS
//
// Each such call is a json_block (grammars/common/json_block.hpp) whose opener carries the name
// (and, for some, an id): a family maps its header rules to the behaviours below, and
// `read_named_payload` turns the block's payload into the candidate. Several families
// group calls in a section (`<|tool_calls_section_begin|>` … `<|tool_calls_section_end|>`);
// `read_call_section` reads one call after another, each on its own, so one broken call
// is one rejected candidate and the calls around it still count.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readers/json_block_reader.hpp"
#include "readers/params_reader.hpp"  // trim_text

namespace toolgram::detail {

// Sets (or replaces) an attribute of the block state: a header read on a path that later
// backtracked must not leave a stale value behind.
inline void set_attribute(BlockState& st, std::string_view key, std::string value) {
    for (auto& [k, v] : st.attributes)
        if (k == key) {
            v = std::move(value);
            return;
        }
    if (st.attributes.empty()) st.attributes.reserve(4);  // a header's few, in one allocation
    st.attributes.emplace_back(std::string(key), std::move(value));
}

namespace named_call {

// The rule's text is the tool's name (surrounding whitespace is layout).
struct name {
    template <typename Input>
    static void apply(const Input& in, BlockState& st) { set_attribute(st, "name", trim_text(in.string_view())); }
};
// The rule's text is the call's id (Kimi's `functions.NAME:0`, Mistral's [CALL_ID]).
struct id {
    template <typename Input>
    static void apply(const Input& in, BlockState& st) { set_attribute(st, "id", trim_text(in.string_view())); }
};
// The whole header matched: the payload that follows is this named call's arguments.
struct header {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.named = true; }
};

}  // namespace named_call

// PayloadReader: a named header's payload is the arguments, as written (phase two rejects
// anything but an object); without a named header the payload is read as call objects
// (Mistral's old list).
inline void read_named_payload(const JsonBlockState& st, json& payload, Candidate& proto,
                               CandidateList& out) {
    if (!st.named) {
        read_call_payload(st, payload, proto, out);
        return;
    }
    if (const std::string* name = st.attribute("name")) proto.name = *name;
    if (const std::string* id = st.attribute("id"); id && !id->empty()) proto.id = *id;
    proto.arguments = std::move(payload);
    out.push_back(std::move(proto));
}

// A call reference `functions.NAME:INDEX` (the whole reference kept as the id) written
// with a '.' where the separator before the index belongs (`functions.get_weather.0`):
// the tool could be `get_weather` (index 0) or one named `get_weather.0`. The text cannot
// say which, so such calls are refused with that reason rather than read either way.
inline void refuse_dot_for_index(Block& block, std::string_view separator) {
    for (Candidate& c : block.candidates) {
        if (!c.problem.empty() || !c.id || separator.empty() || c.id->find(separator) != std::string::npos) continue;
        const std::size_t dot = c.name.rfind('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == c.name.size()) continue;
        if (c.name.find_first_not_of("0123456789", dot + 1) != std::string::npos) continue;
        c.problem = "the call id \"" + *c.id + "\" is malformed: a '.' stands where the '" + std::string(separator) +
                    "' before the index belongs, so whether the tool is \"" + c.name.substr(0, dot) + "\" or \"" +
                    c.name + "\" is ambiguous";
        c.problem_offset = c.begin;
    }
}

template <typename Rule>
struct no_action : pg::nothing<Rule> {};

// Where Rule matches at `pos`, the end of the match; npos where it does not.
template <typename Rule>
std::size_t match_at(ScanContext& ctx, std::size_t pos) {
    BlockState st;
    const RunResult r = run_rule_at<Rule, no_action>(ctx, pos, st);
    return r.matched ? r.end : std::string_view::npos;
}

inline std::size_t skip_space(std::string_view text, std::size_t pos) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r' || text[pos] == '\n')) ++pos;
    if (pos == text.size()) note_end(text);
    return pos;
}

// A named call: the json_block `Rule` at `at`, whose opener is `Header`. An output that
// ends right after the header (max_tokens hit before the arguments) is a cut call,
// rejected and reported, rather than a half header left in the content.
template <typename Rule, typename Header, template <typename...> class Action>
std::optional<Block> read_named_call(ScanContext& ctx, std::size_t at, std::string_view grammar,
                                     std::string_view closer, const OpenerList& openers) {
    if (std::optional<Block> b = read_json_block<Rule, Action>(ctx, at, grammar, closer, openers, read_named_payload))
        return b;
    JsonBlockState st;
    const RunResult header = run_rule_at<Header, Action>(ctx, at, st);
    if (!header.matched || skip_space(ctx.text(), header.end) < ctx.text().size()) return std::nullopt;
    FailureInfo cut{Failure::cut, header.end, "output cut after the call's header, before its arguments"};
    Block b = failed_block(grammar, at, ctx.text().size(), cut, ctx.settings().limits.max_depth);
    if (const std::string* name = st.attribute("name")) b.candidates.front().name = *name;
    return b;
}

// A section: [Open] call (ws call)* [Close]. `read_call(ctx, pos)` reads one call block at
// pos or declines. A section needs at least one call (an opener alone is a mention). Its
// opener may be missing (calls written bare), and so may its closer: at the end of output
// that is a cut-off closer (healed); before more text, a missing one (reported).
template <typename Open, typename Close, typename ReadCall>
std::optional<Block> read_call_section(ScanContext& ctx, std::size_t at, ReadCall&& read_call) {
    const std::string_view text = ctx.text();
    const std::size_t opened = match_at<Open>(ctx, at);
    Block section;
    section.begin = at;
    section.end = opened == std::string_view::npos ? at : opened;
    for (;;) {
        const std::size_t next = skip_space(text, section.end);
        std::optional<Block> call = read_call(ctx, next);
        if (!call || call->end <= next) break;
        bool cut = false;
        for (auto& c : call->candidates) {
            cut = cut || c.cut;
            section.candidates.push_back(std::move(c));
        }
        section.end = call->end;
        if (cut) break;
        note_final_candidates(section.candidates.size(), section.end);  // a stream may judge these now
    }
    if (section.candidates.empty()) return std::nullopt;
    const std::size_t next = skip_space(text, section.end);
    if (const std::size_t closed = match_at<Close>(ctx, next); closed != std::string_view::npos) {
        section.end = closed;
    } else if (opened != std::string_view::npos) {
        // Cut off at the end of output, the closer was due after the last call: that call
        // is healed. The calls before it were each closed and followed by another, so
        // nothing was supplied for them (and a stream may judge them before the end).
        const bool at_end = next >= text.size();
        for (auto& c : section.candidates) {
            if (!c.problem.empty()) continue;
            if (std::find(c.notes.begin(), c.notes.end(), "missing_end_tag") == c.notes.end())
                c.notes.push_back("missing_end_tag");
        }
        if (at_end && section.candidates.back().problem.empty()) section.candidates.back().healed = true;
    }
    return section;
}

}  // namespace toolgram::detail
