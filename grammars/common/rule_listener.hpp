// The hook through which a coverage run sees which grammar rules an output exercises.
//
// Every reader parses with errors::control (or a control derived from it); its start,
// success, failure and raise hooks report the named rules of our grammars (the structs
// in toolgram::grammar, never PEGTL's own combinators) to the listener installed here.
// Nothing is installed outside `toolgram coverage` (src/readers/rule_coverage.hpp), so an
// ordinary parse pays one thread-local load and branch per named-rule event, and nothing
// at all for PEGTL's internal rules: which rules are listened to is decided at compile
// time from the rule's demangled name.
//
// PEGTL 3.2.7's contrib/coverage.hpp counts the same events, but through its own parse
// entry point (state_control and an extra state): every reader would need a second
// instantiation of its grammar, and each call visits the whole grammar to fill a map.
// Counting in the control we already use costs neither; the counts use PEGTL's
// `coverage_info` record and `demangle`, so they read like PEGTL's own.
#pragma once

#include <cstddef>
#include <string_view>

#include <tao/pegtl/demangle.hpp>

namespace toolgram::grammar {

enum class RuleEvent : unsigned char { start, success, failure, raise };

class RuleListener {
public:
    // `rule` is tao::pegtl::demangle<Rule>(): a view of static storage.
    virtual void on_rule(std::string_view rule, RuleEvent event) = 0;

protected:
    ~RuleListener() = default;
};

// Null except while a coverage run parses (set by src/readers/rule_coverage.hpp's guard).
inline thread_local RuleListener* rule_listener = nullptr;

namespace detail {
// string_view::starts_with is not constexpr with clang and libstdc++ (as PEGTL notes for
// find), so the prefix test is a plain loop.
constexpr bool starts_with(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (s[i] != prefix[i]) return false;
    return true;
}
}  // namespace detail

// Our named rules: the structs of grammars/, not PEGTL's seq<>, sor<>, one<>…
template <typename Rule>
inline constexpr bool listened_rule = detail::starts_with(tao::pegtl::demangle<Rule>(), "toolgram::grammar::");

template <typename Rule>
inline void notify_rule(RuleEvent event) {
    if constexpr (listened_rule<Rule>) {
        if (RuleListener* l = rule_listener) [[unlikely]]
            l->on_rule(tao::pegtl::demangle<Rule>(), event);
    }
}

}  // namespace toolgram::grammar
