// The built-in profiles, as data: a name, what it is for, and its grammars in order.
//
// A profile per model family is one more row here (plus its grammar, if it needs a new
// one). `auto` runs every grammar with a distinctive marker as primary and keeps the
// grammars that would match ordinary prose or JSON (strict JSON, bracket, text KV) as
// fallbacks behind the gates.
#include <stdexcept>

#include "grammar_def.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram {
namespace {

struct ProfileRow {
    const char* name;
    const char* description;
    std::vector<GrammarUse> grammars;
};

const std::vector<ProfileRow>& rows() {
    static const std::vector<ProfileRow> table = {
        {"auto", "every syntax with a distinctive marker; strict JSON, bracket and text KV as gated fallbacks",
         {{"tag", Role::primary}, {"xml", Role::primary}, {"marker", Role::primary},
          {"json", Role::fallback}, {"bracket", Role::fallback}, {"text_kv", Role::fallback}}},
        {"tag", "[TOOL_CALL]{…}[/TOOL_CALL] (tags configurable), <tool name=…>, <tool_call>{…}</tool_call>",
         {{"tag", Role::primary}}},
        {"marker", "TOOL_CALL followed by a JSON object", {{"marker", Role::primary}}},
        {"json", "the whole output is a JSON call, array of calls, or {\"tool_calls\": […]}", {{"json", Role::primary}}},
        {"bracket", "Python call list [f(a=1), g()] or a bare call", {{"bracket", Role::primary}}},
        {"xml", "XML markup calls: <tool_call>, <function_call>, <invoke>", {{"xml", Role::primary}}},
        {"text_kv", "function.name:/function.arguments: or Action:/Action Input: (gated: always a fallback)",
         {{"text_kv", Role::fallback}}},
    };
    return table;
}

}  // namespace

Profile builtin_profile(std::string_view name) {
    for (const auto& row : rows()) {
        if (name != row.name) continue;
        Profile p;
        p.name = row.name;
        p.description = row.description;
        p.grammars = row.grammars;
        return p;
    }
    std::string known;
    for (const auto& row : rows()) known += (known.empty() ? "" : ", ") + std::string(row.name);
    throw std::invalid_argument("unknown profile \"" + std::string(name) + "\" (known: " + known + ")");
}

std::vector<std::string> builtin_profile_names() {
    std::vector<std::string> names;
    for (const auto& row : rows()) names.emplace_back(row.name);
    return names;
}

std::vector<GrammarInfo> grammar_catalogue() {
    std::vector<GrammarInfo> out;
    for (const auto* g : detail::all_grammars()) out.push_back({std::string(g->name), std::string(g->summary)});
    return out;
}

}  // namespace toolgram
