// The error-message table shared by every grammar, and the control that uses it.
//
// Rules under must<> raise when they fail; the message comes from `errors::message<Rule>`,
// specialised beside each grammar (never inside it), so the rules stay pure structure.
// A rule without an entry raises with a generic text. Messages are phrased for the
// correction prompt that goes back to the model, so they say what was expected.
// The start/success/failure hooks tell a coverage run which rules matched
// (rule_listener.hpp); without one installed they are a branch on a null pointer.
#pragma once

#include <tao/pegtl.hpp>

#include "rule_listener.hpp"

namespace toolgram::grammar::errors {

template <typename Rule>
inline constexpr const char* message = nullptr;

inline constexpr const char* nesting_too_deep = "nesting deeper than the limit";

template <typename Rule>
struct control : tao::pegtl::normal<Rule> {
    template <typename ParseInput, typename... States>
    static void start(const ParseInput&, States&&...) {
        notify_rule<Rule>(RuleEvent::start);
    }
    template <typename ParseInput, typename... States>
    static void success(const ParseInput&, States&&...) {
        notify_rule<Rule>(RuleEvent::success);
    }
    template <typename ParseInput, typename... States>
    static void failure(const ParseInput&, States&&...) {
        notify_rule<Rule>(RuleEvent::failure);
    }
    template <typename ParseInput, typename... States>
    [[noreturn]] static void raise(const ParseInput& in, States&&...) {
        notify_rule<Rule>(RuleEvent::raise);
        if constexpr (message<Rule> != nullptr) {
            throw tao::pegtl::parse_error(message<Rule>, in);
        } else {
            throw tao::pegtl::parse_error("unexpected text", in);
        }
    }
};

// Whether the lenient value rules (lenient_value.hpp) behave under `Control` exactly as
// under `control`: a control that changes only its own grammar's rules says so. Readers
// running under such a control hand each JSON value to the one compiled instance of the
// value grammar (src/value_reader.hpp, `value_action<lenient::value>`) instead of
// instantiating it anew.
template <template <typename...> class Control>
inline constexpr bool reads_values_as_control = false;
template <>
inline constexpr bool reads_values_as_control<control> = true;

}  // namespace toolgram::grammar::errors
