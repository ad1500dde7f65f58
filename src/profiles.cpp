// The built-in profiles, as data: a name, the models it serves, its grammars in order,
// and the settings its models need (reasoning delimiters, tokens that frame content).
//
// A profile per model family is one row in `family_rows` (plus its grammar, registered
// in grammar_registry.cpp). `auto` is derived from the table, so a new family is found by
// `auto` without another edit: every generic grammar with a distinctive marker and every
// family grammar runs as primary (where several share a marker, each reader checks the
// payload and declines what is not its own, so the payload decides); the grammars that would match
// ordinary prose or JSON (strict JSON, bracket, text KV) are gated fallbacks.
#include <algorithm>
#include <stdexcept>

#include "grammar_def.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram {
namespace {

struct ProfileRow {
    const char* name;
    const char* models;
    const char* description;
    std::vector<GrammarUse> grammars;
    void (*configure)(Settings&) = nullptr;
    // False for syntaxes with no marker of their own (a bare JSON array, a bare Python
    // call): `auto` can only reach them through its gated fallbacks.
    bool distinctive = true;
};

GrammarUse primary(const char* g) { return {g, Role::primary}; }
GrammarUse fallback(const char* g) { return {g, Role::fallback}; }

void add_reasoning(Settings& s, Delimiters d) {
    for (const auto& r : s.reasoning)
        if (r.open == d.open && r.close == d.close) return;
    s.reasoning.push_back(std::move(d));
}
void add_content_marker(Settings& s, const std::string& m) {
    if (std::find(s.content_markers.begin(), s.content_markers.end(), m) == s.content_markers.end())
        s.content_markers.push_back(m);
}

// The generic formats of FORMATS.md, one profile each.
const std::vector<ProfileRow>& generic_rows() {
    static const std::vector<ProfileRow> table = {
        {"tag", "any model prompted with the tag format",
         "[TOOL_CALL]{…}[/TOOL_CALL] (tags configurable), <tool name=…>, <tool_call>{…}</tool_call>", {primary("tag")}},
        {"marker", "any model prompted with the marker format", "TOOL_CALL followed by a JSON object",
         {primary("marker")}},
        {"json", "any model in JSON mode", "the whole output is a JSON call, array of calls, or {\"tool_calls\": […]}",
         {primary("json")}, nullptr, false},
        {"bracket", "any model prompted with Python calls", "Python call list [f(a=1), g()] or a bare call",
         {primary("bracket")}, nullptr, false},
        {"xml", "any model prompted with XML calls", "XML markup calls: <tool_call>, <function_call>, <invoke>",
         {primary("xml")}},
        {"text_kv", "ReAct-style agents, echoed call history",
         "function.name:/function.arguments: or Action:/Action Input: (gated: always a fallback)",
         {fallback("text_kv")}, nullptr, false},
    };
    return table;
}

// Kimi K2-Thinking may write its calls straight after reasoning it never closed.
void configure_kimi_k2(Settings& s) { s.reasoning_ends_at_call = true; }
// R1 and V3.1 start inside <think> (the prompt opens it) and end with their EOS token.
void configure_deepseek(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<｜end▁of▁sentence｜>");
}
void configure_mistral(Settings& s) { add_reasoning(s, {"[THINK]", "[/THINK]"}); }
// gpt-oss: reasoning is the analysis channel, closed by <|end|>, which ends every other
// message too, so it never means "the output started inside reasoning". The tokens that
// frame the answer and the preamble are not content.
void configure_harmony(Settings& s) {
    add_reasoning(s, {"<|channel|>analysis<|message|>", "<|end|>", false});
    for (const char* m : {"<|start|>assistant", "<|channel|>final<|message|>", "<|channel|>commentary<|message|>",
                          "<|end|>", "<|return|>", "<|call|>"})
        add_content_marker(s, m);
}

// One row per model family of FORMATS.md.
const std::vector<ProfileRow>& family_rows() {
    static const std::vector<ProfileRow> table = {
        {"hermes", "Hermes 2 Pro / 3, Qwen2.5, Qwen3, QwQ, ERNIE 4.5, EXAONE, Granite 4",
         "<tool_call>{\"name\": …, \"arguments\": …}</tool_call>, one block per call", {primary("hermes")}},
        {"qwen3_coder", "Qwen3-Coder, Qwen3.5/3.6, Nemotron 3 Nano, MiMo, Step 3.5",
         "<tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>", {primary("qwen3_coder")}},
        {"kimi_k2", "Kimi K2, K2-Thinking",
         "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}"
         "<|tool_call_end|><|tool_calls_section_end|>",
         {primary("kimi_k2")}, configure_kimi_k2},
        {"deepseek_r1", "DeepSeek R1, R1-0528, V3-0324",
         "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME ```json {…}``` <｜tool▁call▁end｜>"
         "<｜tool▁calls▁end｜>, misspelt section tokens too",
         {primary("deepseek_r1")}, configure_deepseek},
        {"deepseek_v31", "DeepSeek V3.1",
         "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
         {primary("deepseek_v31")}, configure_deepseek},
        {"mistral", "Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral",
         "[TOOL_CALLS]NAME[ARGS]{…} (or with [CALL_ID]ID) per call; old [TOOL_CALLS] [{\"name\": …, \"id\": …}]; "
         "reasoning [THINK]…[/THINK]",
         {primary("mistral")}, configure_mistral},
        {"functionary_v31", "Functionary v3.1, Llama 3.1 function tags", "<function=NAME>{…}</function>",
         {primary("functionary_v31")}},
        {"functionary_v32", "Functionary v3.2", ">>>NAME\\n{…} per call, >>>all\\n before text; the first >>> may be in "
         "the prompt", {primary("functionary_v32")}},
        {"harmony", "gpt-oss",
         "<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>; reasoning on the analysis "
         "channel, the answer on the final channel",
         {primary("harmony")}, configure_harmony},
    };
    return table;
}

Profile from_row(const ProfileRow& row) {
    Profile p;
    p.name = row.name;
    p.models = row.models;
    p.description = row.description;
    p.grammars = row.grammars;
    p.distinctive = row.distinctive;
    if (row.configure) row.configure(p.settings);
    return p;
}

// `auto`: every family's grammars, then the generic marker grammars, as primaries; the
// generic prose-like grammars as fallbacks; the union of the families' settings.
Profile make_auto() {
    Profile p;
    p.name = "auto";
    p.models = "any: recognises every family by its markers";
    p.description = "every syntax with a distinctive marker; strict JSON, bracket and text KV as gated fallbacks";
    auto add = [&](const GrammarUse& use) {
        for (const auto& g : p.grammars)
            if (g.grammar == use.grammar) return;
        p.grammars.push_back(use);
    };
    for (const char* g : {"tag", "xml", "marker"}) add(primary(g));
    for (const auto& row : family_rows()) {
        Profile family = from_row(row);
        for (const auto& g : row.grammars)
            if (g.role == Role::primary && row.distinctive) add(g);
        for (const auto& d : family.settings.reasoning) add_reasoning(p.settings, d);
        for (const auto& m : family.settings.content_markers) add_content_marker(p.settings, m);
        // A family whose calls may follow unclosed reasoning (Kimi K2) needs it in auto too,
        // or auto would reject as "inside reasoning" the calls its own profile accepts.
        p.settings.reasoning_ends_at_call = p.settings.reasoning_ends_at_call || family.settings.reasoning_ends_at_call;
    }
    for (const auto& row : family_rows())
        for (const auto& g : row.grammars)
            if (!row.distinctive) add({g.grammar, Role::fallback});
    for (const char* g : {"json", "bracket", "text_kv"}) add(fallback(g));
    return p;
}

}  // namespace

Profile builtin_profile(std::string_view name) {
    if (name == "auto") return make_auto();
    for (const auto* rows : {&family_rows(), &generic_rows()})
        for (const auto& row : *rows)
            if (name == row.name) return from_row(row);
    std::string known;
    for (const auto& n : builtin_profile_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown profile \"" + std::string(name) + "\" (known: " + known + ")");
}

std::vector<std::string> builtin_profile_names() {
    std::vector<std::string> names{"auto"};
    for (const auto& row : generic_rows()) names.emplace_back(row.name);
    for (const auto& row : family_rows()) names.emplace_back(row.name);
    return names;
}

std::vector<GrammarInfo> grammar_catalogue() {
    std::vector<GrammarInfo> out;
    for (const auto* g : detail::all_grammars()) out.push_back({std::string(g->name), std::string(g->summary)});
    return out;
}

}  // namespace toolgram
