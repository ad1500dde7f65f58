// The parser's inside, shared by the one-shot parse (src/combinator/parser.cpp) and the stream
// (src/stream/stream.cpp), so both run the same grammars, the same judge and the same content
// rules: a stream is the one-shot parse taken in the order the text arrives.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <unordered_set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "readers/candidate.hpp"
#include "readers/grammar_def.hpp"
#include "scan/marker_index.hpp"
#include "combinator/marker_pairs.hpp"
#include "scan/regions.hpp"
#include "toolgram/toolgram.hpp"
#include "validation/toolset.hpp"
#include "text/utf8.hpp"

namespace toolgram {

using detail::Block;
using detail::Candidate;
using detail::GrammarDef;

namespace detail {

// A one-shot parse of an output at least this long finds its markers through the marker
// index (marker_index.hpp); a shorter one searches its text directly, as a stream does.
// Tests set it to 0 to read every output through the index as well (parser.cpp).
extern std::size_t index_from_bytes;

// Limits::max_depth bounds every recursion a parse makes (the grammars' depth_limited, the
// copies, dumps and schema checks of the value read, each once per level), so above the
// ceiling hostile input could overflow the stack: refused here, where every Parser (and
// so every stream) is built. 0 is refused too: a call's arguments are a level already,
// so no call could ever be read.
inline Profile checked_limits(Profile p) {
    const std::size_t depth = p.settings.limits.max_depth;
    if (depth == 0)
        throw std::invalid_argument("profile \"" + p.name +
                                    "\": limits.max_depth is 0; at least 1 is needed, as a call's arguments are a level");
    if (depth > Limits::max_depth_ceiling)
        throw std::invalid_argument("profile \"" + p.name + "\": limits.max_depth " + std::to_string(depth) +
                                    " is above the ceiling of " + std::to_string(Limits::max_depth_ceiling) +
                                    " (toolgram::Limits::max_depth_ceiling), the deepest nesting the stack is known to survive");
    return p;
}

}  // namespace detail

struct Parser::Impl {
    Profile profile;
    // Whether a tool list was given at all. Without one, any name is accepted as written
    // and nothing is validated; with one, even empty, only its tools may be called.
    bool tool_list;
    std::vector<Tool> tools;
    detail::ToolSet toolset;
    // The profile's grammars in the order every scan tries them (one-shot and stream
    // alike): the profile's order, except that family grammars come before generic ones
    // (detail::is_generic). So a family's syntax that a generic grammar would also match
    // (HY-V3's <tool_calls><tool_call>NAME…, which xml's <tool_call marker finds) is read
    // by the family's grammar at that position, and a new syntax never needs another
    // grammar taught to decline it. A grammar that declines still leaves the place to the
    // next; order between two family grammars, or two generic ones, is the profile's.
    std::vector<std::pair<const GrammarDef*, Role>> grammars;
    // The profile's first grammar: its instruction is the correction prompt's format.
    const GrammarDef* first_grammar = nullptr;
    // Everything a one-shot parse searches whole outputs for, indexed in one pass.
    detail::MarkerSet marker_set;
    // The markers of the primary grammars ([0]) and of the fallbacks ([1]), in the order
    // of `grammars` (specific before generic), with their grammar: what the one-shot scan
    // compares at each indexed position.
    // After all of them, the openers of the grammars' blocks (syntax_blocks), tried only
    // where every grammar declined: their syntax holding nothing readable.
    std::vector<detail::MarkerUse> role_markers[2];
    // The same, keyed by their first two bytes: which may start at a position.
    detail::MarkerPairs role_pairs[2];

    Impl(Profile p, std::optional<std::vector<Tool>> t)
        : profile(detail::checked_limits(std::move(p))),
          tool_list(t.has_value()),
          tools(t ? std::move(*t) : std::vector<Tool>{}),
          toolset(tools) {
        for (const auto& use : profile.grammars) {
            const GrammarDef* g = detail::find_grammar(use.grammar);
            if (!g) throw std::invalid_argument("profile \"" + profile.name + "\" names unknown grammar \"" + use.grammar + "\"");
            if (g->check) {
                try {
                    g->check(profile.settings);
                } catch (const std::invalid_argument& e) {
                    throw std::invalid_argument("profile \"" + profile.name + "\": " + e.what());
                }
            }
            grammars.emplace_back(g, use.role);
        }
        if (grammars.empty()) throw std::invalid_argument("profile \"" + profile.name + "\" lists no grammar");
        first_grammar = grammars.front().first;
        std::stable_partition(grammars.begin(), grammars.end(), [](const auto& g) { return !detail::is_generic(*g.first); });
        const Settings& s = profile.settings;
        for (const auto& [g, role] : grammars)
            if (g->markers)
                for (auto& m : g->markers(s)) {
                    if (m.empty()) continue;
                    marker_set.add(m);
                    role_markers[role == Role::primary ? 0 : 1].push_back({std::move(m), g, false, {}});
                }
        for (const auto& [g, role] : grammars)
            for (auto& b : detail::syntax_blocks(*g, s)) {
                auto& list = role_markers[role == Role::primary ? 0 : 1];
                if (std::any_of(list.begin(), list.end(), [&](const detail::MarkerUse& m) {
                        return m.broken && m.block.open == b.open && m.block.close == b.close;
                    }))
                    continue;  // the same block of another grammar (auto's <tool_call>)
                marker_set.add(b.open);
                list.push_back({b.open, g, true, std::move(b)});
            }
        role_pairs[0] = detail::MarkerPairs(role_markers[0]);
        role_pairs[1] = detail::MarkerPairs(role_markers[1]);
        for (const auto& d : s.reasoning) {
            marker_set.add(d.open);
            marker_set.add(d.close);
        }
        marker_set.add("```");
        marker_set.add("~~~");
        for (const auto& m : s.content_markers) marker_set.add(m);
        for (const auto& m : s.intent_markers) marker_set.add(m, true);
    }

    // `owned`, when given, holds `text`: the content is assembled over it, last.
    Result parse(std::string_view text, std::string* owned = nullptr) const;

    struct Judgement {
        CandidateReport report;
        bool format_fault = false;  // a fault the model can fix by rewriting its syntax
    };
    Judgement judge(Candidate& c, bool intent_shown, std::size_t fallback_count) const;
};

namespace detail {

// Call ids, given in the order calls are accepted: the model's id unless an earlier call
// of the result has it, otherwise `call_N`, the first N not taken. Deciding each id when
// its call is accepted, from earlier calls only, lets a stream announce it at once.
class IdAssigner {
public:
    // The model's id is printable text first: an invalid UTF-8 byte becomes U+FFFD, so the
    // id compared for repeats is the one the result shows.
    std::string next(const std::optional<std::string>& model_id) const {
        std::size_t counter = counter_;
        return pick(model_id, counter);
    }
    std::string take(const std::optional<std::string>& model_id) {
        std::string id = pick(model_id, counter_);
        if (!by_hash_.empty() || first_count_ == first_.size()) {
            if (by_hash_.empty()) by_hash_.insert(first_.begin(), first_.end());
            by_hash_.insert(id);
        } else {
            first_[first_count_++] = id;
        }
        return id;
    }

private:
    // The model's own id when it has one not used yet; else the next free `call_N`, with
    // `counter` moved past it.
    std::string pick(const std::optional<std::string>& model_id, std::size_t& counter) const {
        if (model_id && !model_id->empty()) {
            std::string own = is_valid_utf8(*model_id) ? *model_id : to_valid_utf8(*model_id);
            if (!used(own)) return own;
        }
        for (;; ++counter) {
            std::string id = "call_" + std::to_string(counter);
            if (!used(id)) {
                ++counter;
                return id;
            }
        }
    }
    bool used(const std::string& id) const {
        if (!by_hash_.empty()) return by_hash_.count(id) != 0;
        return std::find(first_.begin(), first_.begin() + static_cast<std::ptrdiff_t>(first_count_), id) !=
               first_.begin() + static_cast<std::ptrdiff_t>(first_count_);
    }

    // A result holds a call or two as a rule: their ids are compared one by one, in place
    // (a hash set's node and buckets counted in a short parse). Past a few, hashed, so a
    // call-dense output stays linear.
    std::array<std::string, 8> first_;
    std::size_t first_count_ = 0;
    std::unordered_set<std::string> by_hash_;  // every id, once there are more than first_ holds
    std::size_t counter_ = 0;
};

// find_ci (where a needle occurs ignoring ASCII case) is declared in scan_context.hpp.
// Types text-valued arguments (XML-style parameters) from the tool's schema. False when a
// value was nested deeper than max_depth (the candidate is then rejected with that limit).
bool type_text_arguments(Candidate& c, const json* schema, std::size_t max_depth);
// The key of arguments that are one object under a name call objects use for their
// arguments (`arguments`, `parameters`, `params`, `args`, `input`, and XML's `param` and
// `parameter` elements) which the tool's schema
// does not declare: a wrapper written once too many (DeepSeek V4's `<｜DSML｜parameter
// name="arguments" …>`), unwrapped or refused in phase two. Null otherwise; with no
// schema, any such key counts.
const std::string* wrapper_key(const json& arguments, const json* schema);
// The joining rule of content pieces: whitespace at a cut becomes the strongest break
// either side of it holds, 3 a blank line, 2 a newline, 1 a space, 0 none (join_break's
// text; never longer than the whitespace that gave it, which text_without_in_place needs).
inline int break_strength(std::string_view gap) {
    const auto nl = std::count(gap.begin(), gap.end(), '\n');
    return nl >= 2 ? 3 : nl == 1 ? 2 : gap.empty() ? 0 : 1;
}
inline const char* join_break(int strength) {
    return strength == 3 ? "\n\n" : strength == 2 ? "\n" : strength == 1 ? " " : "";
}
// Joins a piece of content to what came before it: the whitespace at the cut becomes the
// strongest break on either side (blank line, newline, space), never both added.
void append_piece(std::string& out, std::string_view piece);
std::string trim_copy(std::string_view s);
// Text of [begin, end) without the removed spans (sorted), joined and trimmed.
std::string text_without(std::string_view text, std::size_t begin, std::size_t end,
                         const std::vector<std::pair<std::size_t, std::size_t>>& removed);
// The same over the whole of `text`, written over it: each join is no longer than the
// whitespace it stands for, so what is written never passes what is still to be read.
void text_without_in_place(std::string& text, const std::vector<std::pair<std::size_t, std::size_t>>& removed);
// The arguments as the JSON text a client receives (OpenAI's `arguments` string).
std::string arguments_text(const json& arguments);

}  // namespace detail
}  // namespace toolgram
