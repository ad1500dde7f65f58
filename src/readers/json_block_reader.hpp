// Actions and a reader for grammars built from json_block (grammars/common/json_block.hpp).
//
// A family that wraps JSON in its own markers needs only its rule and, where its payload
// is not the usual call object or list, a payload interpreter; the payload, fences, cut-off
// and missing closers, stray text and failures are handled here once for all of them.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readers/block_reader.hpp"
#include "common/json_block.hpp"
#include "readers/markup_actions.hpp"
#include "text/utf8.hpp"

namespace toolgram::detail {

// One JSON value of a block, with what reading it took: each call object of a block is
// judged on its own, so its repairs and healing are its own. `failure` is set for a
// further call object that broke (grammars/common/json_block.hpp `guarded`).
struct JsonPayload {
    json value;
    std::size_t begin = 0, end = 0;
    bool valid_utf8 = false;  // read by the strict fast path (Candidate::arguments_valid_utf8)
    std::uint32_t repairs = 0;
    bool healed = false;
    std::string unfinished;
    FailureInfo failure;
};

struct JsonBlockState : BlockState {
    json payload;  // set directly by grammars that build their payload themselves (Gemma)
    bool has_payload = false;
    std::vector<JsonPayload> payloads;  // json_block's payloads, in order
    std::size_t skipped_from = 0, skipped_to = 0;  // stray text skipped before the closer, the closer not in it
    bool named = false;  // set by grammars whose opener carries the name (<tool name=…>)

    // The value just read becomes a payload; the next one starts with no repairs of its
    // own. (Repairs of the opener go with the first; those after the last, with all.)
    void take_payload(std::size_t begin, std::size_t end) {
        payloads.push_back({take_root(), begin, end, root_strict, repairs, healed, std::move(unfinished), {}});
        root_strict = false;
        repairs = 0;
        healed = false;
        unfinished.clear();
        has_payload = true;
    }
    // A further call object raised at `at`: kept as that call's failure. Returns where
    // the block reads on: the end of output for a cut, else its closer or where it broke;
    // with `next_line` (values one a line), the next line opening a value in its first
    // column when one comes before the closer.
    std::size_t further_failed(std::size_t begin, std::size_t at, std::string_view message, bool next_line = false) {
        const std::string_view text = ctx->text();
        JsonPayload p;
        p.begin = begin;
        p.failure = classify_failure(text, at, message);
        p.repairs = repairs;
        repairs = 0;
        healed = false;
        unfinished.clear();
        std::size_t next = at;
        std::size_t closer_at = std::string_view::npos;
        if (p.failure.kind == Failure::cut) {
            next = text.size();
        } else if (!block_closer.empty()) {
            closer_at = find(block_closer, at);
            if (closer_at != std::string_view::npos) next = closer_at;
        }
        if (next_line && p.failure.kind != Failure::cut) {
            std::size_t line_at = std::string_view::npos;
            for (const std::string_view opener : {std::string_view("\n{"), std::string_view("\n[")})
                line_at = std::min(line_at, find(opener, at));
            if (line_at != std::string_view::npos && (closer_at == std::string_view::npos || line_at < closer_at))
                next = line_at + 1;
        }
        p.end = next;
        payloads.push_back(std::move(p));
        return next;
    }
};

namespace jb = grammar::json_block;

template <typename Rule>
struct json_block_action : attribute_action<Rule> {};

template <>
struct json_block_action<jb::payload> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) { st.take_payload(st.offset_of(in.begin()), st.offset_of(in.end())); }
};
template <>
struct json_block_action<jb::further_payload> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        if (st.has_root) st.take_payload(st.offset_of(in.begin()), st.offset_of(in.end()));  // else it failed: kept already
    }
};
template <>
struct json_block_action<jb::further_value> : json_block_action<jb::further_payload> {};
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
// The rule took the closer too: what was skipped ends before it.
template <typename Getter>
struct json_block_action<grammar::skip_to_literal<Getter>> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        st.note("trailing_text_ignored");
        st.skipped_from = st.offset_of(in.begin());
        st.skipped_to = st.offset_of(in.end()) - Getter::get(st).size();
    }
};

// Stray text skipped before the closer (`trailing_text_ignored`) is layout or prose, but
// where it holds the start of a JSON value (`oops {"name": "g", …}`, a second arguments
// object) a value would be dropped: a call lost, or arguments nobody reads. That part
// becomes a rejected candidate with its reason, so the loss is said, and the calls read
// before it stand on their own.
inline std::optional<Candidate> skipped_value_candidate(const JsonBlockState& st, std::string_view text,
                                                        const Candidate& proto) {
    if (st.skipped_to <= st.skipped_from) return std::nullopt;
    const std::string_view skipped = text.substr(st.skipped_from, st.skipped_to - st.skipped_from);
    const std::size_t value_at = skipped.find_first_of("{[");
    if (value_at == std::string_view::npos) return std::nullopt;
    constexpr std::size_t shown = 40;
    std::string_view part = skipped.substr(value_at);
    const bool longer = part.size() > shown;
    if (longer) part = part.substr(0, shown);
    Candidate c;  // nothing of the block's calls: no name, no id, no arguments
    c.grammar = proto.grammar;
    c.role = proto.role;
    c.problem = "a JSON value stands between the call and its closer, outside any call this syntax reads: " +
                json(to_valid_utf8(std::string(part)) + (longer ? "…" : "")).dump() +
                " (a call object that could not be read, or arguments of no call)";
    c.problem_offset = st.skipped_from + value_at;
    c.begin = st.skipped_from + value_at;
    c.end = st.skipped_to;
    return c;
}

// How a family reads its payload into candidates; the default is call objects and lists.
// The payload and the prototype are the reader's to take from: each is read once (a
// reader that makes one candidate moves the prototype into it).
using PayloadReader = void (*)(const JsonBlockState& st, json& payload, Candidate& proto, CandidateList& out);

inline void read_call_payload(const JsonBlockState&, json& payload, Candidate& proto,
                              CandidateList& out) {
    take_candidates_from_payload(payload, proto, NameRule::required_in_syntax, out);
}

// The texts that must not occur in stray text a block skipped: a list, or the family's
// marker function, called only when text was skipped. Most blocks skip none, and making
// the family's list at every read counted in a short call's scan.
class OpenerList {
public:
    OpenerList() = default;
    OpenerList(const std::vector<std::string>& list) : list_(&list) {}  // NOLINT: a list is one
    OpenerList(std::vector<std::string> (*make)(const Settings&)) : make_(make) {}  // NOLINT
    std::vector<std::string> get(const Settings& s) const {
        if (list_) return *list_;
        return make_ ? make_(s) : std::vector<std::string>{};
    }

private:
    const std::vector<std::string>* list_ = nullptr;  // held by the caller for the read
    std::vector<std::string> (*make_)(const Settings&) = nullptr;
};

// Runs a json_block rule at `at`. `closer` is the closer's text (to bound a broken
// block); `openers` are texts that must not occur in skipped stray text (else the block
// is read again without skipping, so it cannot swallow the next block).
template <typename Rule, template <typename...> class Action = json_block_action>
std::optional<Block> read_json_block(ScanContext& ctx, std::size_t at, std::string_view grammar,
                                     std::string_view closer, const OpenerList& openers,
                                     PayloadReader reader = read_call_payload) {
    JsonBlockState st;
    st.block_closer = closer;
    RunResult r = run_rule_at<Rule, Action>(ctx, at, st);
    if (r.matched && st.skipped_to > st.skipped_from) {
        const std::string_view skipped = ctx.text().substr(st.skipped_from, st.skipped_to - st.skipped_from);
        for (const auto& m : openers.get(ctx.settings())) {
            if (skipped.find(m) == std::string_view::npos) continue;
            st = JsonBlockState{};
            st.block_closer = closer;
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
    Candidate proto = candidate_from_state(grammar, at, r.end, st);
    if (st.payloads.empty()) {  // a grammar that built its payload itself
        reader(st, st.payload, proto, block.candidates);
        return block;
    }
    // Made before the payloads' candidates, which take the prototype, and placed after them.
    std::optional<Candidate> skipped = skipped_value_candidate(st, ctx.text(), proto);
    // Each value on its own: its repairs, healing and failure, beside the block's own. The
    // last takes the prototype rather than a copy (a block holds one call as a rule, and
    // the copy counted in reading it).
    for (JsonPayload& p : st.payloads) {
        std::optional<Candidate> copy;
        Candidate& c = &p == &st.payloads.back() ? proto : copy.emplace(proto);
        c.arguments_valid_utf8 = p.valid_utf8;
        c.repairs |= p.repairs;
        c.healed = c.healed || p.healed;
        if (c.unfinished.empty()) c.unfinished = p.unfinished;
        if (p.failure.kind == Failure::none) {
            reader(st, p.value, c, block.candidates);
            continue;
        }
        if (p.failure.kind == Failure::too_deep) set_too_deep(c, ctx.settings().limits.max_depth);
        else c.problem = p.failure.message;
        c.problem_offset = p.failure.offset;
        c.cut = p.failure.kind == Failure::cut;
        c.healed = false;
        block.candidates.push_back(std::move(c));
    }
    if (skipped) block.candidates.push_back(std::move(*skipped));
    return block;
}

}  // namespace toolgram::detail
