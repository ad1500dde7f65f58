// Where a named parameter's text value ends, when the value may hold the syntax's own
// markup (a coding agent writing a file that contains `</parameter>`, `</function>` or a
// whole example call).
//
// The first closer is not always the value's end, and a closer the model left out is not
// always missing. A candidate end is taken only where the structure that must follow it
// does follow, decided with what is known:
//
//   - a parameter's closer ends the value when, after whitespace, the next parameter's
//     opener, the call's closer, what may follow a call (the next call, the wrapper's
//     closer) or the end of output follows; before other text it is part of the value;
//   - a parameter's closer repeated, blanks between, then that structure: the value ends at
//     the first, the repeats are dropped (a repair), as no value ends in its own closer;
//   - a parameter opener (the closer left out) ends it when it names a parameter the tool
//     declares (any name when the tool's parameters are unknown); one naming a parameter
//     the tool does not declare is the value's text, since that parameter would exist only
//     because the value was split;
//   - a parameter's closer then the call's closer followed by other text end it unless
//     the next token of the syntax after that text (before any of what may follow a
//     call) is a parameter's closer or opener or the call's closer: that shows the value
//     went on (a file holding `</parameter>\n</function>`), so the pair is the value's and
//     the value ends at a later pair whose structure holds, or is refused below; no token
//     before the end of output, or the next call first: the pair ended the call;
//   - the call's closer (the parameter's closer left out) ends it only when what may
//     follow a call, or the end of output, follows it: before text it is the value's;
//   - a call opener, or a wrapper opener, that is followed by a call's structure is an
//     example call inside the value: it is skipped to its closer, and nothing in it ends
//     the value.
//
// Where the reading still rests on a guess, the value gets its natural end and the state
// is told why it is ambiguous (`value_doubt`), so the call is refused with that reason,
// never accepted with arguments the model may not have written: right after a closer, an
// opener naming a parameter the tool does not declare (whatever additionalProperties
// says); a value that holds its own closer, or an undeclared parameter's opener, and yet
// ends where that closer was left out; an example call nested in an example call; an
// example call whose end cannot be told from the value's. A value that ends at its closer
// and holds one with text after it is told to the state (`value_holds_closer`), which
// weighs the whole call's other reading: the value before it running on through it.
//
// Every decision looks at the token and what follows it up to the next token: a stream
// finishes a call once its closers and what follows them stand (at once before the
// wrapper's closer or the next call; after a closer pair followed by prose, only when the
// next token or the end of output comes). Readings that look past the text report to the
// end watch through the input and the searches, as every rule does. Linear: every token,
// the pending pair's next one included, is found through the state's cached searches
// from a position that only grows, and each is looked at once.
//
// The state provides offset_of, find, find_quiet and awaited (as runtime_literal.hpp's
// rules use), `key` (the parameter being read), `scratch()` (a fresh state on the same
// text, for reading an opener's key with the family's actions), `parameter_undeclared(k)`,
// `value_doubt(kind, text, offset)` / `clear_value_doubt()`, `value_closer_missing(b)`
// (whether the value just read ended where its closer was left out), `value_holds_closer(
// spelling, offset)` (the value ends at its closer and holds one with text after it) and
// `closer_repeats_to(offset)` (the value's closer is repeated up to there: repeated_close
// skips the repeats).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <string_view>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "common/markup.hpp"
#include "common/runtime_literal.hpp"

namespace toolgram::grammar::params {
using namespace tao::pegtl;

// The spellings of a token, as a Getter for searches (fixed strings written with
// str<"…">, spelling.hpp; a run-time syntax brings its own Getter).
template <typename... Strings>
struct spellings {
    template <typename State>
    static std::array<std::string_view, sizeof...(Strings)> get(const State& st) {
        return {literal<Strings>::get(st)...};
    }
};

// The spellings of several Getters together (a run-time syntax whose token is one of two
// lists, as a declared syntax's next call: a call opener or the section's closer).
template <typename... Getters>
struct spellings_of {};

// Calls f on each spelling a Getter (or a spellings_of) gives.
template <typename Getter>
struct each_spelling {
    template <typename State, typename F>
    static void visit(const State& st, F&& f) {
        for (const std::string_view s : Getter::get(st)) f(s);
    }
};
template <typename... Getters>
struct each_spelling<spellings_of<Getters...>> {
    template <typename State, typename F>
    static void visit(const State& st, F&& f) {
        (each_spelling<Getters>::visit(st, f), ...);
    }
};

// A block that may stand inside a value as an example: `Open` (a rule that also checks the
// structure after the opener, so a mere mention of the tag is not one), found by the
// spellings `OpenSpellings`, closed by the first of `CloseSpellings`.
template <typename Open, typename OpenSpellings, typename CloseSpellings>
struct nested {
    using open = Open;
    using open_spellings = OpenSpellings;
    using close_spellings = CloseSpellings;
};
template <typename... Nested>
struct nested_list {};

// Why a value's end is ambiguous (the state words the reason).
enum class doubt {
    undeclared_after_close,  // a closer, then an opener naming no declared parameter (text: the key)
    undeclared_open,         // an opener naming no declared parameter, the closer left out (text: the key)
    closer_held,             // the value holds its closer, yet ends where that closer is left out (text: the closer)
    nested_twice,            // an example call inside an example call (text: the opener)
    nested_end,              // an example call whose end cannot be told from the value's (text: the opener)
    call_closer_held,        // no end, but the call's closer stands in the value, text after it (text: the closer)
    ends_in_closer,          // the value would end in its own closer (text: the closer)
};

// The value rule. `Syntax` names the family's pieces:
//   open, close, call_close, call_next      rules: a parameter's opener (up to its value;
//                                           the family's actions read its key), its closer,
//                                           the call's closer, what may follow a call
//   open_spellings, close_spellings,        Getters of the spellings the tokens start with,
//   call_close_spellings,                   for the searches (a Getter or spellings_of<…>)
//   call_next_spellings
//   nested                                  nested_list<nested<…>…>: example calls a value may hold
template <typename Syntax>
struct value;

namespace value_detail {

inline constexpr std::size_t npos = std::string_view::npos;

enum class kind : unsigned char { close, call_close, open, nested, next };

template <typename Syntax, template <typename...> class Action, typename ParseInput, typename State>
class scan {
public:
    scan(const ParseInput& in, State& st)
        : in_(in), st_(st), here_(st.offset_of(in.current())),
          size_(here_ + static_cast<std::size_t>(in.end() - in.current())) {}

    // Where the value ends (an offset), or npos when nothing before the end of input ends it.
    std::size_t run() {
        st_.clear_value_doubt();
        st_.value_closer_missing(false);
        std::size_t pos = here_;
        // A CDATA section first: nothing in it can end the value.
        if (const std::size_t c = match_at<seq<star<space>, markup::cdata_open>>(pos); c != npos) {
            const std::size_t close = st_.find("]]>", c);
            if (close == npos || close + 3 > size_) return npos;
            pos = close + 3;
        }
        std::size_t& held_close = held_close_;  // a parameter closer the value holds
        std::size_t held_call_close = npos;      // a call closer it holds
        bool skipped = false;                // an example call was skipped
        // A value's closer and the call's closer, then text that may be prose after the
        // call or more of the value: the next token decides (went_on).
        std::size_t pending = npos, pending_call_close = npos;
        for (;;) {
            const token t = next_token(pos, pending != npos);
            if (pending != npos) {
                switch (went_on(t)) {
                    case verdict::ended: return end_at(pending);
                    case verdict::text: pos = t.at + 1; continue;
                    case verdict::went_on:
                        // The pair was the value's: held, as any closer the value holds.
                        if (held_close == npos) held_close = pending;
                        if (held_call_close == npos) held_call_close = pending_call_close;
                        pending = npos;
                        break;
                }
            }
            if (t.at == npos) {
                // Not cut where the value holds what could have ended it: ambiguous.
                if (skipped) st_.value_doubt(doubt::nested_end, skipped_opener_, skipped_at_);
                else if (held_call_close != npos)
                    st_.value_doubt(doubt::call_closer_held, first_of<typename Syntax::call_close_spellings>(),
                                    held_call_close);
                return npos;
            }
            switch (t.what) {
                case kind::close: {
                    const std::size_t after = match_at<typename Syntax::close>(t.at);
                    if (after == npos) break;
                    std::size_t next = match_at<star<space>>(after);
                    // The closer written twice, nothing between but blanks, and the structure
                    // holding after the last: the value ends at the first (the grammar drops the
                    // others, a repair named). Read the other way the value would end in its
                    // own closer, which no value is taken to do.
                    const std::size_t single = next;
                    std::size_t repeated_to = npos, last_repeat = npos;
                    for (std::size_t again; (again = match_at<typename Syntax::close>(next)) != npos;)
                        last_repeat = next, repeated_to = again, next = match_at<star<space>>(again);
                    if (next != single && !ends_call_or_value(next)) {
                        // Not a repeat: every closer of the run but the last is followed by a
                        // closer, so text; the last is weighed as any closer. Skipping to it
                        // keeps a long run of closers linear.
                        if (held_close == npos) held_close = t.at;
                        pos = last_repeat;
                        continue;
                    }
                    if (next != single) st_.closer_repeats_to(repeated_to);
                    if (const key_read k = key_at(next); k.ok) {
                        // A parameter the tool does not declare exists only if the value was
                        // split here: the value may as well run on through it.
                        if (st_.parameter_undeclared(k.key)) st_.value_doubt(doubt::undeclared_after_close, k.key, next);
                        return end_at(t.at);
                    }
                    if (const std::size_t cc = match_at<typename Syntax::call_close>(next); cc != npos) {
                        const std::size_t beyond = match_at<star<space>>(cc);
                        if (call_follows(beyond)) return end_at(t.at);
                        pending = t.at, pending_call_close = next;
                        pos = beyond;
                        continue;
                    }
                    if (call_follows(next)) return end_at(t.at);
                    if (held_close == npos) held_close = t.at;
                    pos = after;
                    continue;
                }
                case kind::open: {
                    const key_read k = key_at(t.at);
                    if (!k.ok) break;
                    // An opener naming a parameter the tool does not declare, where the closer
                    // would be: a parameter only if the value was split there, so it is the
                    // value's text (`x = "<parameter=q>"`), unless the value then ends where
                    // its own closer was left out, when either reading needs a repair.
                    if (st_.parameter_undeclared(k.key)) {
                        if (held_open_key_.empty()) held_open_key_ = k.key, held_open_at_ = t.at;
                        break;
                    }
                    return left_out(t.at, held_close);
                }
                case kind::call_close: {
                    const std::size_t after = match_at<typename Syntax::call_close>(t.at);
                    if (after == npos) break;
                    if (call_follows(match_at<star<space>>(after))) return left_out(t.at, held_close);
                    if (held_call_close == npos) held_call_close = t.at;
                    pos = after;
                    continue;
                }
                case kind::next: break;  // only looked for while a pair is pending
                case kind::nested: {
                    const nested_skip n = skip_nested(t);
                    if (n.twice) {
                        // No end can be paired with confidence: the value (and so the call)
                        // runs to the end of output, refused.
                        st_.value_doubt(doubt::nested_twice, t.spelling, t.at);
                        return npos;
                    }
                    if (n.next != npos) {
                        if (!skipped) skipped_opener_ = t.spelling, skipped_at_ = t.at;
                        skipped = true;
                        pos = n.next;
                        continue;
                    }
                    break;
                }
            }
            pos = t.at + 1;  // not the token it looked like: text
        }
    }

private:
    struct token {
        std::size_t at = npos;
        kind what = kind::close;
        std::size_t nested_index = 0;
        std::string_view spelling;
    };
    struct key_read {
        bool ok = false;
        std::string key;
    };

    const char* ptr(std::size_t p) const { return in_.current() + (p - here_); }

    // Runs `Rule` at offset p without actions: the offset after it, or npos.
    template <typename Rule>
    std::size_t match_at(std::size_t p) const {
        if (p > size_) return npos;
        ParseInput sub(ptr(p), in_.end(), "value");
        if (!tao::pegtl::parse<Rule, nothing, normal>(sub, st_)) return npos;
        return p + static_cast<std::size_t>(sub.current() - ptr(p));
    }

    // The key of a parameter opener at p, read by the family's own actions on a scratch state.
    key_read key_at(std::size_t p) const {
        if (p > size_) return {};
        auto scratch = st_.scratch();
        ParseInput sub(ptr(p), in_.end(), "value");
        if (!tao::pegtl::parse<typename Syntax::open, Action, normal>(sub, scratch)) return {};
        return {true, scratch.key};
    }

    // The earliest occurrence of any of the spellings at or after p (within the input);
    // `quiet`: a spelling not found is not reported as awaited (the caller's decision does
    // not depend on it).
    template <typename Getter>
    std::pair<std::size_t, std::string_view> earliest(std::size_t p, bool quiet) const {
        std::size_t best = npos;
        std::string_view which;
        each<Getter>([&](std::string_view s) {
            if (s.empty()) return;
            std::size_t f = quiet ? st_.find_quiet(s, p) : st_.find(s, p);
            if (f != npos && f + s.size() > size_) f = npos;
            if (f < best || (f == best && f != npos && s.size() > which.size())) best = f, which = s;
        });
        return {best, which};
    }

    // The next token of the syntax at or after p (with `next`, what may follow a call too);
    // a spelling not there yet that could still start before it is reported as awaited
    // (earliest_terminator's rule).
    token next_token(std::size_t p, bool next) const {
        token best;
        const auto consider = [&](std::string_view s, kind what, std::size_t index) {
            if (s.empty()) return;
            std::size_t f = st_.find_quiet(s, p);
            if (f != npos && f + s.size() > size_) f = npos;
            if (f == npos) return;
            if (f < best.at) best = {f, what, index, s};
        };
        // What may follow a call first: at the same place, it is that (a call opener is
        // also an example call's).
        if (next) each<typename Syntax::call_next_spellings>([&](std::string_view s) { consider(s, kind::next, 0); });
        each<typename Syntax::close_spellings>([&](std::string_view s) { consider(s, kind::close, 0); });
        each<typename Syntax::call_close_spellings>([&](std::string_view s) { consider(s, kind::call_close, 0); });
        each<typename Syntax::open_spellings>([&](std::string_view s) { consider(s, kind::open, 0); });
        for_each_nested([&](auto n, std::size_t i) {
            each<typename decltype(n)::open_spellings>([&](std::string_view s) { consider(s, kind::nested, i); });
        });
        // A spelling can still start before the token found only where the text from there
        // to the end is a prefix of it (asking for more would leave the stream waiting, its
        // end unknown, for a string that cannot come there).
        const auto await = [&](std::string_view s) {
            if (s.empty() || (st_.find_quiet(s, p) != npos && st_.find_quiet(s, p) + s.size() <= size_)) return;
            const std::size_t earliest_start = std::max(p, size_ + 1 - std::min(size_ + 1, s.size()));
            if (best.at == npos) {
                if (earliest_start <= size_) st_.awaited(s);
                return;
            }
            for (std::size_t q = earliest_start; q < best.at; ++q)
                if (s.substr(0, size_ - q) == std::string_view(ptr(q), size_ - q)) {
                    st_.awaited(s);
                    return;
                }
        };
        each<typename Syntax::close_spellings>(await);
        each<typename Syntax::call_close_spellings>(await);
        each<typename Syntax::open_spellings>(await);
        // What may follow a call decides a pending pair; an example call's opener arriving
        // finishes nothing by itself: not awaited (a stream's list of awaited strings stays
        // short enough to be its cue).
        if (next) each<typename Syntax::call_next_spellings>(await);
        return best;
    }

    template <typename Getter, typename F>
    void each(F&& f) const {
        each_spelling<Getter>::visit(st_, f);
    }

    template <typename F>
    static void for_each_nested(F&& f) {
        visit_nested(typename Syntax::nested{}, f);
    }
    template <typename F, typename... Ns>
    static void visit_nested(nested_list<Ns...>, F& f) {
        [[maybe_unused]] std::size_t i = 0;
        (f(Ns{}, i++), ...);
    }

    // Whether the call is over at p (after its closer and whitespace): the end of output,
    // or what may follow a call (the wrapper's closer, the next call).
    bool call_follows(std::size_t p) const {
        return match_at<eof>(p) != npos || match_at<typename Syntax::call_next>(p) != npos;
    }

    // After a value's closer and the call's closer comes other text: prose after the call,
    // or more of a value that holds that pair (a file holding the syntax's tags)? The next
    // token of the syntax decides. What may follow a call (the next call, the wrapper's
    // closer), or no token before the end of output: the pair ended the call. A parameter's
    // closer or opener, or the call's closer: the value went on (it ends at a later pair
    // whose structure holds, or its call is refused as ambiguous). A spelling that is not
    // its token (a mention) is text.
    enum class verdict { ended, went_on, text };
    verdict went_on(const token& t) const {
        if (t.at == npos) return verdict::ended;  // the end watch was told (next_token)
        if (match_at<typename Syntax::call_next>(t.at) != npos) return verdict::ended;
        switch (t.what) {
            case kind::close: return match_at<typename Syntax::close>(t.at) != npos ? verdict::went_on : verdict::text;
            case kind::call_close:
                return match_at<typename Syntax::call_close>(t.at) != npos ? verdict::went_on : verdict::text;
            case kind::open: return key_at(t.at).ok ? verdict::went_on : verdict::text;
            case kind::nested: return nested_opens(t) ? verdict::ended : verdict::text;  // a call
            case kind::next: return verdict::text;
        }
        return verdict::text;
    }

    // An end where the value's closer was left out; doubtful when the value holds that closer,
    // or an opener it took as text.
    std::size_t left_out(std::size_t at, std::size_t held_close) const {
        if (held_close != npos)
            st_.value_doubt(doubt::closer_held, first_of<typename Syntax::close_spellings>(), held_close);
        else if (!held_open_key_.empty())
            st_.value_doubt(doubt::undeclared_open, held_open_key_, held_open_at_);
        st_.value_closer_missing(true);
        return at;
    }

    // An end at the value's closer: the state weighs a closer the value holds against the
    // reading in which the value before this one runs on (ParamsState::value_holds_closer).
    // A value that would end in its own closer (blanks aside) is never taken: where the
    // repeat reading did not hold, which closer is the value's is in doubt.
    std::size_t end_at(std::size_t at) const {
        if (held_close_ != npos) st_.value_holds_closer(first_of<typename Syntax::close_spellings>(), held_close_);
        std::string_view text(ptr(here_), at - here_);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
            text.remove_suffix(1);
        each<typename Syntax::close_spellings>([&](std::string_view s) {
            if (!s.empty() && text.size() >= s.size() && text.substr(text.size() - s.size()) == s)
                st_.value_doubt(doubt::ends_in_closer, s, here_ + text.size() - s.size());
        });
        return at;
    }

    // Whether at p (after a repeated closer and blanks) the structure holds as after a
    // value's closer: a parameter's opener, the call's closer followed by what may follow a
    // call, or what may follow a call.
    bool ends_call_or_value(std::size_t p) const {
        if (key_at(p).ok || call_follows(p)) return true;
        const std::size_t cc = match_at<typename Syntax::call_close>(p);
        return cc != npos && call_follows(match_at<star<space>>(cc));
    }

    template <typename Getter>
    std::string_view first_of() const {
        std::string_view first;
        each<Getter>([&](std::string_view s) {
            if (first.empty()) first = s;
        });
        return first;
    }

    // An example call at t: where the value goes on after its closer (npos when it is not
    // one: a mention of the tag, or one never closed), or `twice`: another opener of its
    // kind stands before its closer, so no closer can be paired with it.
    struct nested_skip {
        std::size_t next = npos;
        bool twice = false;
    };
    bool nested_opens(const token& t) const {
        bool opens = false;
        for_each_nested([&](auto n, std::size_t i) {
            if (i == t.nested_index && match_at<typename decltype(n)::open>(t.at) != npos) opens = true;
        });
        return opens;
    }
    nested_skip skip_nested(const token& t) const {
        nested_skip out;
        for_each_nested([&](auto n, std::size_t i) {
            using N = decltype(n);
            if (i != t.nested_index) return;
            if (match_at<typename N::open>(t.at) == npos) return;
            const auto [close, spelling] = earliest<typename N::close_spellings>(t.at + 1, false);
            if (close == npos) return;
            if (earliest<typename N::open_spellings>(t.at + 1, true).first < close) out.twice = true;
            else out.next = close + spelling.size();
        });
        return out;
    }

    const ParseInput& in_;
    State& st_;
    std::size_t here_, size_;
    std::size_t held_close_ = npos;
    std::string held_open_key_;  // an opener the value holds, naming an undeclared parameter
    std::size_t held_open_at_ = 0;
    std::string_view skipped_opener_;
    std::size_t skipped_at_ = 0;
};

}  // namespace value_detail

template <typename Syntax>
struct value {
    using rule_t = value;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class Action, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        value_detail::scan<Syntax, Action, ParseInput, State> s(in, st);
        const std::size_t end = s.run();
        if (end == value_detail::npos) return false;
        in.bump(end - st.offset_of(in.current()));
        return true;
    }
};

}  // namespace toolgram::grammar::params

namespace tao::pegtl {
template <typename Name, typename Syntax>
struct analyze_traits<Name, toolgram::grammar::params::value<Syntax>> : analyze_opt_traits<> {};
}  // namespace tao::pegtl
