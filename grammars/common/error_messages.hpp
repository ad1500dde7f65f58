// The error-message table shared by every grammar, and the control that uses it.
//
// Rules under must<> raise when they fail; the message comes from `errors::message<Rule>`,
// specialised beside each grammar (never inside it), so the rules stay pure structure.
// A rule without an entry raises with a generic text. Messages are phrased for the
// correction prompt that goes back to the model, so they say what was expected.
// The start/success/failure hooks tell a coverage run which rules matched
// (rule_listener.hpp); without one installed they are a branch on a null pointer.
//
// A raise need not throw. A stream reads a block again as its text grows, and nearly
// every read before the block is whole breaks where the text ends; a model's broken syntax
// breaks a parse too. So a state that holds a `Raised raised` (every reader's state does:
// value_reader.hpp's ValueBuilder) records the raise instead: where and why. From then on
// every rule fails at once and no action or hook runs, so the parse unwinds as the
// exception would have, to whoever reads the record (block_reader.hpp's run_rule_at,
// read_value) or to a rule that recovers from a raise of its own (json_block::guarded,
// python_call::alone). A raise under another state throws tao::pegtl::parse_error.
#pragma once

#include <concepts>
#include <type_traits>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "common/rule_listener.hpp"

namespace toolgram::grammar::errors {

template <typename Rule>
inline constexpr const char* message = nullptr;

inline constexpr const char* nesting_too_deep = "nesting deeper than the limit";

// A raise a state recorded: where the rule raised, and its message (static text, or text
// the parse's syntax holds: it must outlive the parse).
struct Raised {
    const char* at = nullptr;
    const char* message = nullptr;
    explicit operator bool() const { return message != nullptr; }
};

template <typename... States>
inline constexpr bool records_raises = false;
template <typename State>
    requires requires(State& s) {
        { s.raised } -> std::same_as<Raised&>;
    }
inline constexpr bool records_raises<State> = true;

// Raises `message` at `in` (a parse input, or an action's input: its start): recorded for
// a state that records raises, else thrown. A raise once one is recorded is the
// unwinding's own (a must<> whose rule failed because nothing matches any more), not the
// text's: dropped, as the first exception would have left the parse before it.
template <typename Input, typename... States>
void raise_at(const char* message, const Input& in, States&... st) {
    if constexpr (records_raises<States...>) {
        Raised& raised = (st.raised, ...);
        if (!raised) {
            if constexpr (requires { in.current(); }) raised = Raised{in.current(), message};
            else raised = Raised{in.begin(), message};  // an action's input: where its match began
        }
        return;
    }
    throw tao::pegtl::parse_error(message, in);
}

template <typename Rule>
struct control : tao::pegtl::normal<Rule> {
    using normal = tao::pegtl::normal<Rule>;
    // Whether the parse's state records raises (see above).
    template <typename... States>
    static constexpr bool quiet = records_raises<std::remove_reference_t<States>...>;
    // Whether the parse is unwinding from a recorded raise.
    template <typename... States>
    static bool unwinding(const States&... st) {
        if constexpr (quiet<States...>) return static_cast<bool>((st.raised, ...));
        return false;
    }
    // PEGTL's own leaves (one<>, string<>…; a named rule's rule_t says whose match it runs)
    // read a few bytes of the input and touch nothing else; a rule with sub-rules may run
    // on (until<>, star<>), and a rule of ours may touch the state (a lookup, a value read
    // whole).
    static constexpr bool pegtl_match = detail::starts_with(tao::pegtl::demangle<typename Rule::rule_t>(), "tao::pegtl::");
    static constexpr bool has_subs = !std::is_same_v<typename Rule::subs_t, tao::pegtl::empty_list>;
    static constexpr bool pegtl_leaf = pegtl_match && !has_subs;

    // A coverage run hears of no rule once a raise is recorded, as with an exception (PEGTL's
    // leaves, named by our rules as `struct dq_close : one<'"'>`, are still tried).
    template <typename ParseInput, typename... States>
    static void start(const ParseInput&, States&&... st) {
        if constexpr (listened_rule<Rule>)
            if (rule_listener && !unwinding(st...)) [[unlikely]] notify_rule<Rule>(RuleEvent::start);
    }
    template <typename ParseInput, typename... States>
    static void success(const ParseInput&, States&&... st) {
        if constexpr (listened_rule<Rule>)
            if (rule_listener && !unwinding(st...)) [[unlikely]] notify_rule<Rule>(RuleEvent::success);
    }
    template <typename ParseInput, typename... States>
    static void failure(const ParseInput&, States&&... st) {
        if constexpr (listened_rule<Rule>)
            if (rule_listener && !unwinding(st...)) [[unlikely]] notify_rule<Rule>(RuleEvent::failure);
    }
    // Returns only for a state that records raises (raise_at).
    template <typename ParseInput, typename... States>
    static void raise(const ParseInput& in, States&&... st) {
        notify_rule<Rule>(RuleEvent::raise);
        raise_at(message<Rule> != nullptr ? message<Rule> : "unexpected text", in, st...);
    }

    // Once a raise is recorded nothing matches: no rule is tried (but PEGTL's leaves, which
    // cost a byte or a literal, need no test: the alternatives a sor<> still tries end at
    // them), and a rule with sub-rules that was under way (its must<> returned as if its
    // rule had matched, or its opt<> or star<> matched nothing) fails, without running its
    // action.
    template <tao::pegtl::apply_mode A, tao::pegtl::rewind_mode M, template <typename...> class Action,
              template <typename...> class Control, typename ParseInput, typename... States>
    [[nodiscard]] static bool match(ParseInput& in, States&&... st) {
        if constexpr (quiet<States...>) {
            const Raised& raised = (st.raised, ...);
            if constexpr (!pegtl_leaf)
                if (raised) return false;
            const bool matched = normal::template match<A, M, Action, Control>(in, st...);
            if constexpr (has_subs) return matched && !raised;
            return matched;
        } else {
            return normal::template match<A, M, Action, Control>(in, st...);
        }
    }
    template <template <typename...> class Action, typename Iterator, typename ParseInput, typename... States>
    static auto apply(const Iterator& begin, const ParseInput& in, States&&... st)
        -> decltype(normal::template apply<Action>(begin, in, st...)) {
        using Result = decltype(normal::template apply<Action>(begin, in, st...));
        if constexpr (quiet<States...>)
            if ((st.raised, ...)) return Result();
        return normal::template apply<Action>(begin, in, st...);
    }
    template <template <typename...> class Action, typename ParseInput, typename... States>
    static auto apply0(const ParseInput& in, States&&... st) -> decltype(normal::template apply0<Action>(in, st...)) {
        using Result = decltype(normal::template apply0<Action>(in, st...));
        if constexpr (quiet<States...>)
            if ((st.raised, ...)) return Result();
        return normal::template apply0<Action>(in, st...);
    }
};

// Raises with T's message, as PEGTL's raise<T> does; that rule is [[noreturn]], and here
// a raise returns (recorded) for a state that records raises: this one then fails.
template <typename T>
struct raise {
    using rule_t = raise;
    using subs_t = tao::pegtl::empty_list;

    template <tao::pegtl::apply_mode, tao::pegtl::rewind_mode, template <typename...> class,
              template <typename...> class Control, typename ParseInput, typename... States>
    [[nodiscard]] static bool match(ParseInput& in, States&&... st) {
        Control<T>::raise(static_cast<const ParseInput&>(in), st...);
        return false;
    }
};

// Whether the lenient value rules (lenient_value.hpp) behave under `Control` exactly as
// under `control`: a control that changes only its own grammar's rules says so. Readers
// running under such a control hand each JSON value to the one compiled instance of the
// value grammar (src/value/value_reader.hpp, `value_action<lenient::value>`) instead of
// instantiating it anew.
template <template <typename...> class Control>
inline constexpr bool reads_values_as_control = false;
template <>
inline constexpr bool reads_values_as_control<control> = true;

}  // namespace toolgram::grammar::errors

namespace tao::pegtl {
// As PEGTL's own raise<T>: no hooks of its own, and any input to the analysis.
template <typename T>
inline constexpr bool internal::enable_control<toolgram::grammar::errors::raise<T>> = false;
template <typename Name, typename T>
struct analyze_traits<Name, toolgram::grammar::errors::raise<T>> : analyze_any_traits<> {};
}  // namespace tao::pegtl
