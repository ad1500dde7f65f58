// Rules that match strings known only at run time (configurable tags, a tag name seen
// earlier in the same element), as PEGTL custom rules.
//
// `Getter::get(state)` returns the string to match. `skip_to_literal` jumps to the next
// occurrence through the state's `find`, which the scan context answers from a cache, so
// searching for a closer that never comes costs one pass over the input, not one pass per
// opener (the linear-time rule for "megabytes of opens without closes").
#pragma once

#include <algorithm>
#include <cstring>
#include <string_view>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

namespace toolgram::grammar {

// The input ends inside where `lit` would stand (what is left is a prefix of it): an input
// that wants to know (a stream's, src/scan/end_watch.hpp) is told which string was awaited, so
// the block can be read again when it arrives. Plain PEGTL inputs have no such member.
template <typename ParseInput>
void note_wanted_at_end(const ParseInput& in, std::string_view lit) {
    if constexpr (requires { in.wanted(lit); }) {
        const std::size_t rest = static_cast<std::size_t>(in.end() - in.current());
        if (rest < lit.size() && std::memcmp(in.current(), lit.data(), rest) == 0) in.wanted(lit);
    }
}

template <typename Getter>
struct runtime_literal {
    using rule_t = runtime_literal;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const std::string_view lit = Getter::get(st);
        if (lit.empty()) return false;
        if (in.size(lit.size()) < lit.size()) {
            note_wanted_at_end(in, lit);
            return false;
        }
        if (std::memcmp(in.current(), lit.data(), lit.size()) != 0) return false;
        in.bump(lit.size());
        return true;
    }
};

// Skips any text up to and including the next occurrence of the literal; fails (without
// consuming) when there is none before the end of input, or when the state forbids
// skipping (a retry after the skipped text turned out to hold another block).
template <typename Getter>
struct skip_to_literal {
    using rule_t = skip_to_literal;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const std::string_view lit = Getter::get(st);
        if (lit.empty() || !st.allow_skip) return false;
        const std::size_t here = st.offset_of(in.current());
        const std::size_t found = st.find(lit, here);
        if (found == std::string_view::npos) return false;
        in.bump(found - here + lit.size());
        return true;
    }
};

// Everything up to the end of input, in one step (until<eof> walks it byte by byte).
// A reader that takes the rest of the output and then declines it must not pay for the
// rest once per opener: that is the difference between linear and quadratic.
struct rest_of_input {
    using rule_t = rest_of_input;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename... States>
    [[nodiscard]] static bool match(ParseInput& in, States&&...) {
        in.bump(in.size(in.size()));
        return true;
    }
};

// The rest of the input is a proper, non-empty prefix of the literal: the output was cut
// inside it (`</tool_` at the very end). Consumes that rest.
template <typename Getter>
struct literal_prefix_at_end {
    using rule_t = literal_prefix_at_end;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const std::string_view lit = Getter::get(st);
        const std::size_t rest = in.size(lit.size());
        if (rest == 0 || rest >= lit.size() || std::memcmp(in.current(), lit.data(), rest) != 0) return false;
        note_wanted_at_end(in, lit);
        in.bump(rest);
        return true;
    }
};

// A fixed literal given as a Getter, for use with skip_to_literal.
template <char... Cs>
struct fixed {
    static constexpr char chars[] = {Cs...};
    template <typename State>
    static std::string_view get(const State&) { return {chars, sizeof...(Cs)}; }
};

}  // namespace toolgram::grammar

namespace tao::pegtl {
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::runtime_literal<Getter>>
    : analyze_any_traits<> {};
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::skip_to_literal<Getter>>
    : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, toolgram::grammar::rest_of_input> : analyze_opt_traits<> {};
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::literal_prefix_at_end<Getter>>
    : analyze_any_traits<> {};
}  // namespace tao::pegtl

namespace toolgram::grammar {

// The Getter for a compile-time string written with str<"…"> (spelling.hpp), so one spelling of
// a closer serves both as a rule (runtime_literal<literal<S>>) and as a skip target.
template <typename String>
struct literal;
template <char... Cs>
struct literal<tao::pegtl::ascii::string<Cs...>> : fixed<Cs...> {};

}  // namespace toolgram::grammar

namespace toolgram::grammar {

// The earliest of several terminators, searched from `here` in a text of `size` bytes.
// A terminator that is not there yet matters only if, written next, it could still start
// before the earliest one found: only then is it reported as awaited (to a stream, whose
// read of the value is final as soon as the earliest terminator stands).
template <typename State, typename Lits>
std::size_t earliest_terminator(State& st, std::size_t here, std::size_t size, const Lits& lits) {
    constexpr std::size_t npos = std::string_view::npos;
    std::size_t best = npos;
    for (const std::string_view lit : lits)
        if (!lit.empty()) best = std::min(best, st.find_quiet(lit, here));
    for (const std::string_view lit : lits) {
        if (lit.empty() || st.find_quiet(lit, here) != npos) continue;  // the cache answers again
        const std::size_t earliest_start = std::max(here, size + 1 - std::min(size + 1, lit.size()));
        if (earliest_start < best) st.awaited(lit);
    }
    return best;
}

// Text up to (not including) the earliest occurrence of any of the literals. Fails when
// none occurs before the end of input (a value cut off there), consuming nothing.
// Models drop closers (`</parameter>` before the next `<parameter=`), so a value ends at
// whichever terminator comes first.
template <typename... Getters>
struct text_until_first {
    using rule_t = text_until_first;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const std::size_t here = st.offset_of(in.current());
        const std::size_t size = here + static_cast<std::size_t>(in.end() - in.current());
        const std::string_view lits[] = {Getters::get(st)...};
        const std::size_t best = earliest_terminator(st, here, size, lits);
        if (best == std::string_view::npos) return false;
        in.bump(best - here);
        return true;
    }
};

}  // namespace toolgram::grammar

namespace tao::pegtl {
template <typename Name, typename... Getters>
struct analyze_traits<Name, toolgram::grammar::text_until_first<Getters...>> : analyze_opt_traits<> {};
}  // namespace tao::pegtl

// ---------------------------------------------------------------------------------------
// Tokens with several spellings known only at run time (a profile file's syntax: DeepSeek's
// section opener and its misspellings). `Getter::get(state)` returns the spellings, a
// range of string views, in the order they are tried; an empty range never matches.

namespace toolgram::grammar {

// The first spelling that stands here.
template <typename Getter>
struct runtime_any_literal {
    using rule_t = runtime_any_literal;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        for (const std::string_view lit : Getter::get(st)) {
            if (lit.empty()) continue;
            if (in.size(lit.size()) < lit.size()) {
                note_wanted_at_end(in, lit);
                continue;
            }
            if (std::memcmp(in.current(), lit.data(), lit.size()) != 0) continue;
            in.bump(lit.size());
            return true;
        }
        return false;
    }
};

// skip_to_literal for several spellings: up to and including the earliest occurrence of
// any of them.
template <typename Getter>
struct skip_to_any_literal {
    using rule_t = skip_to_any_literal;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        if (!st.allow_skip) return false;
        const std::size_t here = st.offset_of(in.current());
        std::size_t best = std::string_view::npos, length = 0;
        for (const std::string_view lit : Getter::get(st)) {
            if (lit.empty()) continue;
            const std::size_t found = st.find(lit, here);
            if (found < best || (found == best && found != std::string_view::npos && lit.size() > length)) {
                best = found;
                length = lit.size();
            }
        }
        if (best == std::string_view::npos) return false;
        in.bump(best - here + length);
        return true;
    }
};

// literal_prefix_at_end for several spellings: the rest of the input is a proper,
// non-empty prefix of one of them.
template <typename Getter>
struct any_literal_prefix_at_end {
    using rule_t = any_literal_prefix_at_end;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        for (const std::string_view lit : Getter::get(st)) {
            const std::size_t rest = in.size(lit.size());
            if (rest == 0 || rest >= lit.size() || std::memcmp(in.current(), lit.data(), rest) != 0) continue;
            note_wanted_at_end(in, lit);
            in.bump(rest);
            return true;
        }
        return false;
    }
};

// text_until_first over one run-time list: text up to the earliest occurrence of any
// spelling; fails, consuming nothing, when none occurs before the end of input.
template <typename Getter>
struct text_until_any_literal {
    using rule_t = text_until_any_literal;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const std::size_t here = st.offset_of(in.current());
        const std::size_t size = here + static_cast<std::size_t>(in.end() - in.current());
        const std::size_t best = earliest_terminator(st, here, size, Getter::get(st));
        if (best == std::string_view::npos) return false;
        in.bump(best - here);
        return true;
    }
};

}  // namespace toolgram::grammar

namespace tao::pegtl {
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::runtime_any_literal<Getter>> : analyze_any_traits<> {};
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::skip_to_any_literal<Getter>> : analyze_any_traits<> {};
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::any_literal_prefix_at_end<Getter>> : analyze_any_traits<> {};
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::text_until_any_literal<Getter>> : analyze_opt_traits<> {};
}  // namespace tao::pegtl
