// Actions and a reader for grammars built from json_block (grammars/json_block.hpp).
//
// A family that wraps JSON in its own markers needs only its rule and, where its payload
// is not the usual call object or list, a payload interpreter; the payload, fences, cut-off
// and missing closers, stray text and failures are handled here once for all of them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "block_reader.hpp"
#include "json_block.hpp"
#include "markup_actions.hpp"

namespace toolgram::detail {

struct JsonBlockState : BlockState {
    json payload;
    bool has_payload = false;
    std::size_t skipped_from = 0, skipped_to = 0;
    bool named = false;  // set by grammars whose opener carries the name (<tool name=…>)
};

namespace jb = grammar::json_block;

template <typename Rule>
struct json_block_action : attribute_action<Rule> {};

template <>
struct json_block_action<jb::payload> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        st.payload = st.take_root();
        st.has_payload = true;
    }
};
template <>
struct json_block_action<grammar::fence::open> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        st.fence_opened = true;
        st.note("fence_inside_tags");
    }
};
template <>
struct json_block_action<grammar::fence::close> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.fence_closed = true; }
};
template <>
struct json_block_action<jb::end_cut_off> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        st.note("missing_end_tag");
        st.healed = true;
    }
};
template <typename Getter>
struct json_block_action<grammar::literal_prefix_at_end<Getter>> : json_block_action<jb::end_cut_off> {};
template <>
struct json_block_action<jb::missing_end_tag> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.note("missing_end_tag"); }
};
template <typename Getter>
struct json_block_action<grammar::skip_to_literal<Getter>> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        st.note("trailing_text_ignored");
        st.skipped_from = st.offset_of(in.begin());
        st.skipped_to = st.offset_of(in.end());
    }
};

// How a family reads its payload into candidates; the default is call objects and lists.
using PayloadReader = void (*)(const JsonBlockState& st, const json& payload, const Candidate& proto,
                               std::vector<Candidate>& out);

inline void read_call_payload(const JsonBlockState&, const json& payload, const Candidate& proto,
                              std::vector<Candidate>& out) {
    candidates_from_payload(payload, proto, NameRule::required_in_syntax, out);
}

// Runs a json_block rule at `at`. `closer` is the closer's text (to bound a broken
// block); `openers` are texts that must not occur in skipped stray text (else the block
// is read again without skipping, so it cannot swallow the next block).
template <typename Rule, template <typename...> class Action = json_block_action>
std::optional<Block> read_json_block(ScanContext& ctx, std::size_t at, std::string_view grammar,
                                     std::string_view closer, const std::vector<std::string>& openers,
                                     PayloadReader reader = read_call_payload) {
    JsonBlockState st;
    RunResult r = run_rule_at<Rule, Action>(ctx, at, st);
    if (r.matched && st.skipped_to > st.skipped_from) {
        const std::string_view skipped = ctx.text().substr(st.skipped_from, st.skipped_to - st.skipped_from);
        for (const auto& m : openers) {
            if (skipped.find(m) == std::string_view::npos) continue;
            st = JsonBlockState{};
            st.allow_skip = false;
            r = run_rule_at<Rule, Action>(ctx, at, st);
            break;
        }
    }
    if (r.failed) return failed_block_to_closer(ctx, grammar, at, r.failure, closer);
    if (!r.matched || !st.has_payload) return std::nullopt;
    settle_fence(st, ctx.text(), r.end);
    Block block;
    block.begin = at;
    block.end = r.end;
    reader(st, st.payload, candidate_from_state(grammar, at, r.end, st), block.candidates);
    return block;
}

}  // namespace toolgram::detail
