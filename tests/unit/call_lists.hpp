// A result's calls as JSON, the shape the tests compare with the calls they expect: with
// each call's id (where the id is part of what is tested), or its name and arguments
// only; and the calls a built-in profile reads from a text, for the family tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram_test {

// [{"id", "name", "arguments"}, …]
inline toolgram::json calls_with_ids(const toolgram::Result& r) {
    toolgram::json out = toolgram::json::array();
    for (const auto& c : r.calls) out.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
    return out;
}

// [{"name", "arguments"}, …]
inline toolgram::json calls_of(const toolgram::Result& r) {
    toolgram::json out = toolgram::json::array();
    for (const auto& c : r.calls) out.push_back({{"name", c.name}, {"arguments", c.arguments}});
    return out;
}

// The calls the built-in `profile` reads from `text`: with no tool list (names as written,
// nothing validated), or with `tools`.
inline toolgram::json calls_of(const std::string& profile, const std::string& text,
                               const std::optional<std::vector<toolgram::Tool>>& tools = std::nullopt) {
    const toolgram::Parser parser = tools ? toolgram::Parser(toolgram::builtin_profile(profile), *tools)
                                          : toolgram::Parser(toolgram::builtin_profile(profile));
    return calls_of(parser.parse(text));
}

}  // namespace toolgram_test
