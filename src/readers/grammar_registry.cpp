// The one place every grammar is registered. Adding a syntax: write grammars/NAME.hpp
// (rules) and src/actions/NAME.cpp (actions, reader, a `NAME_grammar` definition), then
// add it to this table. Profiles refer to grammars by the names listed here, and by those
// of the shipped profile files (grammars/declared/NAME.json), each its own grammar NAME.
// scripts/new-grammar writes both files and adds the two lines here, above the two
// `scripts/new-grammar` comments (keep those comments: they are where it inserts).
// `NAME_grammar` must carry the name "NAME": fuzz/CMakeLists.txt reads the `&NAME_grammar`
// entries below to generate one fuzz harness per grammar (checked by the ctest test
// fuzz.harnesses_cover_every_grammar).
#include "declared/declared_syntax.hpp"
#include "readers/grammar_def.hpp"

#include <algorithm>
#include <stdexcept>

namespace toolgram::detail {

extern const GrammarDef tag_grammar;
extern const GrammarDef marker_grammar;
extern const GrammarDef json_grammar;
extern const GrammarDef generic_grammar;
extern const GrammarDef bracket_grammar;
extern const GrammarDef xml_grammar;
extern const GrammarDef text_kv_grammar;
// A syntax declared at run time (a profile file's), read with the same building blocks.
extern const GrammarDef declared_grammar;
// Model families (docs/formats.md), in the order of their profiles; a family's variant
// grammars follow it.
extern const GrammarDef qwen3_coder_grammar;
extern const GrammarDef seed_oss_grammar;
extern const GrammarDef glm45_grammar;
extern const GrammarDef minimax_m2_grammar;
extern const GrammarDef minicpm5_grammar;
extern const GrammarDef step3_grammar;
extern const GrammarDef kimi_k2_grammar;
extern const GrammarDef deepseek_r1_grammar;
extern const GrammarDef deepseek_v31_grammar;
extern const GrammarDef deepseek_v32_grammar;
extern const GrammarDef mistral_grammar;
extern const GrammarDef llama3_json_grammar;
extern const GrammarDef llama3_json_tagged_grammar;
extern const GrammarDef pythonic_grammar;
extern const GrammarDef pythonic_tagged_grammar;
extern const GrammarDef granite_grammar;
extern const GrammarDef functionary_v31_grammar;
extern const GrammarDef functionary_v32_grammar;
extern const GrammarDef functionary_v32_marked_grammar;
extern const GrammarDef functools_grammar;
extern const GrammarDef command_r_grammar;
extern const GrammarDef harmony_grammar;
extern const GrammarDef xlam_grammar;
extern const GrammarDef apertus_grammar;
extern const GrammarDef gemma4_grammar;
extern const GrammarDef gemma4_stripped_grammar;
extern const GrammarDef functiongemma_grammar;
extern const GrammarDef gigachat_grammar;
extern const GrammarDef solar_open_grammar;
extern const GrammarDef gigachat35_grammar;
extern const GrammarDef hy_v3_grammar;
extern const GrammarDef hyperclovax_seed_think_grammar;
extern const GrammarDef kimi_k3_grammar;
extern const GrammarDef minimax_m3_grammar;
extern const GrammarDef inkling_grammar;
extern const GrammarDef muse_glimmer_grammar;
extern const GrammarDef plamo3_grammar;
extern const GrammarDef cwm_grammar;
// scripts/new-grammar: declarations go above this line.

namespace {

// The generic grammars: syntaxes any model may be prompted with, each shared by many
// families, so a family's syntax often matches one of them too. A grammar not listed here
// is a family's (scripts/new-grammar adds to the family list below), and at a position
// where a family's grammar and a generic one both have a marker, the family's reads
// first (is_generic).
const std::vector<const GrammarDef*>& generic_grammars() {
    static const std::vector<const GrammarDef*> table = {
        &tag_grammar, &marker_grammar, &json_grammar, &generic_grammar, &bracket_grammar, &xml_grammar, &text_kv_grammar,
    };
    return table;
}

const std::vector<const GrammarDef*>& compiled_grammars() {
    static const std::vector<const GrammarDef*> table = [] {
        std::vector<const GrammarDef*> out = generic_grammars();
        out.insert(out.end(), {
        // run-time syntax
        &declared_grammar,
        &qwen3_coder_grammar,
        &seed_oss_grammar,
        &glm45_grammar,
        &minimax_m2_grammar,
        &minicpm5_grammar,
        &step3_grammar,
        &kimi_k2_grammar,
        &deepseek_r1_grammar,
        &deepseek_v31_grammar,
        &deepseek_v32_grammar,
        &mistral_grammar,
        &llama3_json_grammar,
        &llama3_json_tagged_grammar,
        &pythonic_grammar,
        &pythonic_tagged_grammar,
        &granite_grammar,
        &functionary_v31_grammar,
        &functionary_v32_grammar,
        &functionary_v32_marked_grammar,
        &functools_grammar,
        &command_r_grammar,
        &harmony_grammar,
        &xlam_grammar,
        &apertus_grammar,
        &gemma4_grammar,
        &gemma4_stripped_grammar,
        &functiongemma_grammar,
        &gigachat_grammar,
        &solar_open_grammar,
        &gigachat35_grammar,
        &hy_v3_grammar,
        &hyperclovax_seed_think_grammar,
        &kimi_k3_grammar,
        &minimax_m3_grammar,
        &inkling_grammar,
        &muse_glimmer_grammar,
        &plamo3_grammar,
        &cwm_grammar,
        // scripts/new-grammar: entries go above this line.
        });
        return out;
    }();
    return table;
}

}  // namespace

// The compiled-in grammars, then one per shipped profile file (grammars/declared/NAME.json,
// named NAME: src/actions/declared.cpp builds them from the files; nothing to add here).
const std::vector<const GrammarDef*>& all_grammars() {
    if (building_shipped_grammars()) return compiled_grammars();
    static const std::vector<const GrammarDef*> table = [] {
        std::vector<const GrammarDef*> out = compiled_grammars();
        for (const auto& g : shipped_grammars()) out.push_back(g.grammar);
        return out;
    }();
    return table;
}

const std::vector<const GrammarDef*>& all_records() {
    static const std::vector<const GrammarDef*> table = [] {
        std::vector<const GrammarDef*> out = all_grammars();
        for (const auto& p : shipped_profiles_only()) out.push_back(p.record);
        return out;
    }();
    return table;
}

std::string render_calls(std::string_view grammar, const std::vector<Call>& calls, const Settings& settings) {
    const GrammarDef* g = find_grammar(grammar);
    if (!g) throw std::invalid_argument("unknown grammar \"" + std::string(grammar) + "\"");
    if (!g->render) throw std::invalid_argument("grammar \"" + std::string(grammar) + "\" cannot render calls");
    return g->render(calls, settings);
}

std::vector<std::string> grammar_source_files(std::string_view name) {
    for (const auto& g : shipped_grammars())
        if (g.grammar->name == name) return {"grammars/declared/" + std::string(name) + ".json"};
    const GrammarDef* g = find_grammar(name);
    if (!g) return {};
    const std::string stem(g->files.empty() ? g->name : g->files);
    return {"grammars/" + stem + ".hpp", "src/actions/" + stem + ".cpp"};
}

bool is_generic(const GrammarDef& grammar) {
    const auto& generic = generic_grammars();
    return std::find(generic.begin(), generic.end(), &grammar) != generic.end();
}

// The compiled-in ones first: loading the shipped files looks those up before the shipped
// grammars exist.
const GrammarDef* find_grammar(std::string_view name) {
    for (const GrammarDef* g : compiled_grammars())
        if (g->name == name) return g;
    for (const auto& g : shipped_grammars())
        if (g.grammar->name == name) return g.grammar;
    return nullptr;
}

}  // namespace toolgram::detail
