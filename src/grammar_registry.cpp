// The one place every grammar is registered. Adding a syntax: write grammars/NAME.hpp
// (rules) and src/actions/NAME.cpp (actions, reader, a `NAME_grammar` definition), then
// add it to this table. Profiles refer to grammars by the names listed here.
#include "grammar_def.hpp"

#include <stdexcept>

namespace toolgram::detail {

extern const GrammarDef tag_grammar;
extern const GrammarDef marker_grammar;
extern const GrammarDef json_grammar;
extern const GrammarDef bracket_grammar;
extern const GrammarDef xml_grammar;
extern const GrammarDef text_kv_grammar;
// Model families (FORMATS.md), one grammar each.
extern const GrammarDef hermes_grammar;
extern const GrammarDef qwen3_coder_grammar;
extern const GrammarDef kimi_k2_grammar;
extern const GrammarDef deepseek_r1_grammar;
extern const GrammarDef deepseek_v31_grammar;
extern const GrammarDef mistral_grammar;
extern const GrammarDef functionary_v31_grammar;
extern const GrammarDef functionary_v32_grammar;
extern const GrammarDef harmony_grammar;

const std::vector<const GrammarDef*>& all_grammars() {
    static const std::vector<const GrammarDef*> table = {
        &tag_grammar, &marker_grammar, &json_grammar, &bracket_grammar, &xml_grammar, &text_kv_grammar,
        // model families
        &hermes_grammar,
        &qwen3_coder_grammar,
        &kimi_k2_grammar,
        &deepseek_r1_grammar,
        &deepseek_v31_grammar,
        &mistral_grammar,
        &functionary_v31_grammar,
        &functionary_v32_grammar,
        &harmony_grammar,
    };
    return table;
}

std::string render_calls(std::string_view grammar, const std::vector<Call>& calls, const Settings& settings) {
    const GrammarDef* g = find_grammar(grammar);
    if (!g) throw std::invalid_argument("unknown grammar \"" + std::string(grammar) + "\"");
    if (!g->render) throw std::invalid_argument("grammar \"" + std::string(grammar) + "\" cannot render calls");
    return g->render(calls, settings);
}

const GrammarDef* find_grammar(std::string_view name) {
    for (const GrammarDef* g : all_grammars())
        if (g->name == name) return g;
    return nullptr;
}

}  // namespace toolgram::detail
