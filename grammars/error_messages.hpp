// The error-message table shared by every grammar, and the control that uses it.
//
// Rules under must<> raise when they fail; the message comes from `errors::message<Rule>`,
// specialised beside each grammar (never inside it), so the rules stay pure structure.
// A rule without an entry raises with a generic text. Messages are phrased for the
// correction prompt that goes back to the model, so they say what was expected.
#pragma once

#include <tao/pegtl.hpp>

namespace toolgram::grammar::errors {

template <typename Rule>
inline constexpr const char* message = nullptr;

inline constexpr const char* nesting_too_deep = "nesting deeper than the limit";

template <typename Rule>
struct control : tao::pegtl::normal<Rule> {
    template <typename ParseInput, typename... States>
    [[noreturn]] static void raise(const ParseInput& in, States&&...) {
        if constexpr (message<Rule> != nullptr) {
            throw tao::pegtl::parse_error(message<Rule>, in);
        } else {
            throw tao::pegtl::parse_error("unexpected text", in);
        }
    }
};

}  // namespace toolgram::grammar::errors
