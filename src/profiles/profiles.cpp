// The built-in profiles: a name, the models it serves, its grammars in order, and the
// settings its models need (reasoning delimiters, tokens that frame content).
//
// Each is declared by its family, beside its grammar (GrammarDef::profiles, in
// src/actions/NAME.cpp; scripts/new-grammar writes one); this file only builds them, in
// registry order. A syntax the grammar `declared` can read needs no code at all: a profile
// file in grammars/declared/NAME.json, compiled in (cmake/embed_profile_files.cmake), is
// the profile NAME and the grammar NAME, loaded and checked like any profile file. `auto`
// is derived from the records and the shipped files, so a new family is found by `auto`
// without another edit: every generic grammar with a distinctive marker and every family
// grammar runs as primary; the grammars that would match ordinary prose or JSON (strict
// JSON, bracket, text KV) are gated fallbacks. Where several share a marker, family
// grammars are tried before generic ones (Parser::Impl), and family grammars sharing one
// check the payload and decline what is not their own.
#include <stdexcept>
#include <string_view>

#include "declared/declared_syntax.hpp"
#include "readers/grammar_def.hpp"
#include "profiles/profile_file.hpp"
#include "declared/shipped_profiles.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram {
namespace {

GrammarUse primary(const char* g) { return {g, Role::primary}; }
GrammarUse fallback(const char* g) { return {g, Role::fallback}; }

// A built-in profile: a row of its grammar's record (GrammarDef::profiles), in registry
// order, the generic formats first.
struct ProfileRow {
    const detail::GrammarDef* grammar;
    const detail::ProfileSpec* spec;
};

const std::vector<ProfileRow>& profile_rows() {
    static const std::vector<ProfileRow> table = [] {
        std::vector<ProfileRow> out;
        for (const detail::GrammarDef* g : detail::all_grammars())
            for (const detail::ProfileSpec& spec : g->profiles) out.push_back({g, &spec});
        return out;
    }();
    return table;
}

std::vector<GrammarUse> uses_of(std::span<const detail::GrammarUseSpec> specs) {
    std::vector<GrammarUse> out;
    for (const auto& use : specs) out.push_back({std::string(use.grammar), use.role});
    return out;
}
std::vector<GrammarUse> grammars_of(const ProfileRow& row) {
    if (row.spec->grammars.empty()) return {{std::string(row.grammar->name), Role::primary}};
    return uses_of(row.spec->grammars);
}
std::vector<GrammarUse> in_auto_of(const ProfileRow& row) { return uses_of(row.spec->in_auto); }

Profile from_row(const ProfileRow& row, bool own = true) {
    const detail::ProfileSpec& spec = *row.spec;
    Profile p;
    p.name = spec.name;
    p.models = spec.models;
    p.description = spec.description;
    p.grammars = grammars_of(row);
    p.distinctive = spec.distinctive;
    if (spec.configure) spec.configure(p.settings);
    if (own && spec.configure_own) spec.configure_own(p.settings);
    p.settings.reasoning_start = spec.reasoning_start;
    return p;
}

// `auto`: the generic marker grammars and every distinctive family's grammars as
// primaries; the non-distinctive families' grammars and the generic prose-like grammars as
// fallbacks (a profile's `in_auto`, where given, says instead which of its grammars run and
// how); the union of the families' settings.
// What of a family's settings `auto` takes on: its reasoning delimiters, its framing
// tokens, and, where its calls may follow unclosed reasoning (Kimi K2), that too, or auto
// would reject as "inside reasoning" the calls its own profile accepts.
void merge_into_auto(Settings& into, const Settings& family) {
    for (const auto& d : family.reasoning) detail::add_reasoning(into, d);
    for (const auto& m : family.content_markers) detail::add_content_marker(into, m);
    into.reasoning_ends_at_call = into.reasoning_ends_at_call || family.reasoning_ends_at_call;
}

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
    // The shipped profile files' syntaxes, each its own grammar, with their settings,
    // before the compiled-in families: where several read at one marker, the families
    // declared as data (Hermes' <tool_call>{…}) are tried first, as Hermes' reader was when
    // it was the first compiled-in family.
    const auto add_shipped = [&](const Profile& shipped) {
        for (const auto& g : shipped.grammars)
            if (g.role == Role::primary) add(g);
        merge_into_auto(p.settings, shipped.settings);
    };
    for (const auto& shipped : detail::shipped_grammars()) add_shipped(*shipped.profile);
    for (const auto& row : profile_rows()) {
        if (detail::is_generic(*row.grammar)) continue;
        Profile family = from_row(row, false);
        for (const auto& g : family.grammars)
            if (g.role == Role::primary && family.distinctive && row.spec->in_auto.empty()) add(g);
        for (const auto& g : in_auto_of(row))
            if (g.role == Role::primary) add(g);
        merge_into_auto(p.settings, family.settings);
    }
    for (const auto& shipped : detail::shipped_profiles_only()) add_shipped(*shipped.profile);
    for (const auto& row : profile_rows()) {
        if (detail::is_generic(*row.grammar)) continue;
        for (const auto& g : grammars_of(row))
            if (!row.spec->distinctive && row.spec->in_auto.empty()) add({g.grammar, Role::fallback});
        for (const auto& g : in_auto_of(row))
            if (g.role == Role::fallback) add(g);
    }
    // `generic` after `json`: it reads the wrappers json declines ({"tool_call": {…}}).
    // Only under its own profile is a `{"response": …}` the answer: in auto, a fallback
    // block without a call stays text.
    for (const char* g : {"json", "generic", "bracket", "text_kv"}) add(fallback(g));
    return p;
}

}  // namespace

Profile builtin_profile(std::string_view name) {
    if (name == "auto") return make_auto();
    for (const auto& row : profile_rows())
        if (name == row.spec->name) return from_row(row);
    // A shipped profile file, read once from its compiled-in text with every check a file
    // on disk gets (errors name grammars/declared/NAME.json); its syntax is its own grammar.
    for (const auto& shipped : detail::shipped_grammars())
        if (name == shipped.grammar->name) return *shipped.profile;
    for (const auto& shipped : detail::shipped_profiles_only())
        if (name == shipped.record->name) return *shipped.profile;
    // An engine's name for a syntax: the profile that reads it (profile_aliases.cpp).
    std::string engines, models;
    for (const auto& alias : profile_aliases()) {
        if (alias.name != name) continue;
        if (!alias.profile.empty()) return builtin_profile(alias.profile);
        engines += (engines.empty() ? "" : " and ") + alias.engine;
        if (models.empty()) models = alias.models;
    }
    if (!engines.empty())
        throw std::invalid_argument("\"" + std::string(name) + "\" is the " + engines + " parser for " + models +
                                    ", a syntax toolgram does not read yet (toolgram profiles --aliases lists "
                                    "the engines' names and the profiles they map to)");
    std::string known;
    for (const auto& n : builtin_profile_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown profile \"" + std::string(name) + "\" (known: " + known + ")");
}

std::vector<std::string> builtin_profile_names() {
    std::vector<std::string> names{"auto"};
    for (const auto& row : profile_rows()) names.emplace_back(row.spec->name);
    for (const auto& f : detail::shipped_profile_file_texts()) names.emplace_back(f.name);
    return names;
}

std::vector<DeclaredProfileFile> declared_profile_files() {
    std::vector<DeclaredProfileFile> out;
    for (const auto& f : detail::shipped_profile_file_texts())
        out.push_back({std::string(f.name), std::string(f.path), std::string(f.text)});
    return out;
}

std::vector<GrammarInfo> grammar_catalogue() {
    std::vector<GrammarInfo> out;
    for (const auto* g : detail::all_grammars()) out.push_back({std::string(g->name), std::string(g->summary)});
    return out;
}

}  // namespace toolgram
