// The tool list a record names: a `parse --jsonl` line's or a coverage input line's
// "tools" key (the CLI and src/coverage/coverage.cpp read both through here, so they cannot drift).
//
// OpenAI clients write `"tools": null` for "no tools", which could mean either of two
// opposite things here: no list of the line's own (the key left out: the default list, or
// none, and then any call is accepted unvalidated), or a list nothing may be called from
// (`[]`). Either guess is sometimes the opposite of what the client meant, and one of them
// accepts calls unvalidated, so null is refused with a message saying how to write each.
#pragma once

#include <stdexcept>

#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

inline std::vector<Tool> tools_of_record(const json& tools) {
    if (tools.is_null())
        throw std::invalid_argument(
            "\"tools\" is null, which says neither which list applies: leave the key out for the default list "
            "(--tools, else none: any name accepted, nothing validated), or give [] for an empty one (no tool may "
            "be called)");
    return tools_from_json(tools);
}

}  // namespace toolgram::detail
