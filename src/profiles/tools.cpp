// Tool lists in, format instructions out: reading OpenAI-style or bare tool definitions,
// and writing the system-prompt text that teaches a model a profile's syntax.
#include <stdexcept>

#include "readers/grammar_def.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram {
namespace {

Tool tool_from_json(const json& entry, std::size_t index) {
    const std::string where = "tools[" + std::to_string(index) + "]";
    if (!entry.is_object()) throw std::invalid_argument(where + " is not an object");
    const json* fn = &entry;
    if (auto it = entry.find("function"); it != entry.end()) {
        if (!it->is_object()) throw std::invalid_argument(where + ".function is not an object");
        fn = &*it;
    }
    Tool t;
    auto name = fn->find("name");
    if (name == fn->end() || !name->is_string() || name->get<std::string>().empty())
        throw std::invalid_argument(where + " has no \"name\" string");
    t.name = name->get<std::string>();
    if (auto d = fn->find("description"); d != fn->end() && d->is_string()) t.description = d->get<std::string>();
    if (auto p = fn->find("parameters"); p != fn->end() && !p->is_null()) {
        if (!p->is_object()) throw std::invalid_argument(where + " (" + t.name + "): \"parameters\" is not an object");
        t.parameters = *p;
    }
    return t;
}

}  // namespace

std::vector<Tool> tools_from_json(const json& tools) {
    std::vector<Tool> out;
    if (tools.is_null()) return out;
    if (tools.is_object()) {
        if (auto it = tools.find("tools"); it != tools.end()) return tools_from_json(*it);
        out.push_back(tool_from_json(tools, 0));
        return out;
    }
    if (!tools.is_array()) throw std::invalid_argument("tools must be a JSON array of tool definitions");
    for (std::size_t i = 0; i < tools.size(); ++i) out.push_back(tool_from_json(tools[i], i));
    return out;
}

std::string render_calls(const Profile& profile, const std::vector<Call>& calls) {
    for (const auto& use : profile.grammars)
        if (use.role == Role::primary) return detail::render_calls(use.grammar, calls, profile.settings);
    throw std::invalid_argument("profile \"" + profile.name + "\" has no primary grammar to render with");
}

std::string format_instruction(const Profile& profile, const std::vector<Tool>& tools) {
    const detail::GrammarDef* primary = nullptr;
    for (const auto& use : profile.grammars) {
        if (use.role != Role::primary) continue;
        primary = detail::find_grammar(use.grammar);
        if (primary) break;
    }
    if (!primary && !profile.grammars.empty()) primary = detail::find_grammar(profile.grammars.front().grammar);
    std::string out = "You can call the tools listed below.\n\n";
    if (primary && primary->instruction) out += primary->instruction(profile.settings) + "\n";
    if (!profile.settings.intent_markers.empty() && primary && primary == detail::find_grammar(profile.grammars.front().grammar) &&
        profile.grammars.front().role == Role::fallback) {
        out += "Before a tool call, write the line " + profile.settings.intent_markers.front() + "\n";
    }
    out += "\nUse only these tools, with arguments that match their JSON Schema:\n";
    for (const auto& t : tools) {
        out += "- " + t.name;
        if (!t.description.empty()) out += ": " + t.description;
        out += "\n  parameters: " + t.parameters.dump() + "\n";
    }
    if (tools.empty()) out += "(no tools are declared)\n";
    return out;
}

}  // namespace toolgram
