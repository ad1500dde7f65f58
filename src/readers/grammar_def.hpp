// What the combinator knows about a grammar, and the registry of all of them.
//
// A grammar is found by name (profiles list names), and offers:
//  - markers: strings whose occurrence may open one of its blocks; the scanner looks only
//    for these, so plain prose is skipped at memchr speed;
//  - read_at: read one block at a marker, or say "not mine" (a mention in prose);
//  - read_whole: for grammars that only make sense as the whole output (strict JSON, a
//    bare Python call), read the trimmed output;
//  - instruction: how to write a call in this syntax, for format_instruction and for
//    the correction prompt;
//  - render: write calls in this syntax (round-trip tests, examples in instructions);
//  - read_head: only for a grammar whose first block may begin before its marker;
//  - check: only for a grammar that reads something of the settings it must have.
//  - blocks: its blocks by opener and closer: where every grammar of a profile declined at
//    such an opener, the block is its syntax holding nothing readable, reported
//    (read_unreadable, src/readers/unreadable_syntax.cpp), never left in content;
//  - aliases: the names serving engines give its parser (src/profiles/profile_aliases.cpp);
//  - profiles: the built-in profiles it heads (src/profiles/profiles.cpp): a family's
//    models, the grammars it reads with, the settings its models need;
//  - signatures: what the chat templates of its models write, by which a template names
//    its profile (src/profiles/chat_template.cpp);
//  - variants: the paths through its rules the coverage report names
//    (src/coverage/coverage_variants.cpp).
// Every grammar is listed once in src/readers/grammar_registry.cpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "readers/candidate.hpp"
#include "scan/scan_context.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

// A block of a grammar's syntax as the grammar declares it: its opener and closer ("\n":
// the line after the opener).
struct BlockSpec {
    std::string_view open, close;
};

// A name a serving engine gives the parser of a grammar's syntax (vLLM's and SGLang's
// `--tool-call-parser`, the chat format llama.cpp logs, …), and the models it names; the
// name leads to `profile`, or where that is empty to the profile of the grammar's name
// (profile_aliases).
// The serving engines whose parser names a record may give, in the order the alias table
// lists them (profile_aliases.cpp); a profile file's `engines` are checked against it.
inline constexpr std::string_view engine_names[] = {"vLLM", "SGLang", "llama.cpp", "smg"};

struct AliasSpec {
    std::string_view engine, name, models;
    std::string_view profile = {};
};

// A grammar a profile reads with, and how (GrammarUse, as the records declare it).
struct GrammarUseSpec {
    std::string_view grammar;
    Role role = Role::primary;
};

// A built-in profile as its family declares it, beside its grammar (profiles.cpp builds
// the Profile, and `auto` from all of them).
struct ProfileSpec {
    std::string_view name = {};
    std::string_view models = {};       // for people
    std::string_view description = {};  // the syntax, for people
    // Its grammars in order; empty: the grammar whose record declares it, as primary.
    std::span<const GrammarUseSpec> grammars = {};
    // False for syntaxes with no marker of their own (a bare JSON array, a bare Python
    // call): `auto` can only reach them through its gated fallbacks.
    bool distinctive = true;
    // How `auto` runs a family that is not distinctive as a whole but has some forms with
    // a marker of their own (<|python_tag|>{…}, <|python_start|>[…]): grammars reading
    // just those forms as primaries, the rest as fallbacks (or not at all, where a
    // generic fallback reads the very same syntax). Empty: derived from `distinctive`.
    std::span<const GrammarUseSpec> in_auto = {};
    // The settings its models need (reasoning delimiters, tokens that frame content),
    // which `auto` takes on too (merge_into_auto).
    void (*configure)(Settings&) = nullptr;
    // Settings only the family's own profile takes, not `auto`: framing tokens that look
    // like ordinary markup (Granite 3.3's <response>), which auto would strip from anyone.
    void (*configure_own)(Settings&) = nullptr;
    // `outside` for a family whose chat templates never open reasoning in the prompt: a
    // closer before any opener is then plain text, and a stream sends content from the
    // first token instead of holding it until a reasoning delimiter or the end tells.
    // Read off the templates in tests/data/templates (the chat-template test checks that
    // no template there that opens reasoning belongs to such a family). Every other
    // profile keeps `guess`: a template of its family opens it, the corpus holds such an
    // output for it, its opener is no token, it serves any model, or no template of its
    // family was at hand to check.
    ReasoningStart reasoning_start = ReasoningStart::guess;
};

// For a profile's `configure`: adds a reasoning block or a framing token, once.
inline void add_reasoning(Settings& s, Delimiters d) {
    for (const auto& r : s.reasoning)
        if (r.open == d.open && r.close == d.close) return;
    s.reasoning.push_back(std::move(d));
}
inline void add_content_marker(Settings& s, const std::string& m) {
    for (const auto& have : s.content_markers)
        if (have == m) return;
    s.content_markers.push_back(m);
}

// A serving engine's name for a parser (shown as a chat template's evidence).
struct EngineParserName {
    std::string_view engine, name;
};

// How a chat template of the family's models shows itself (match_chat_template): the
// markers it writes (in text or output expressions), and those it never writes, which tell
// it from families sharing a marker. Checked against the real templates in
// tests/data/templates/. The lists are fixed arrays so that a record stays constant data;
// one longer than its bound fails to compile (raise the bound).
struct TemplateSignature {
    std::string_view profile = {};  // empty: the profile of the grammar's name
    std::string_view family = {};   // its models and syntax, for people
    std::string_view all[4] = {};   // each must be written (unused slots empty)
    std::string_view none[6] = {};  // none may be written
    EngineParserName engines[6] = {};  // the engines' parsers for it, as evidence
    std::string_view note = {};
};

// A path through the grammar's own rules worth naming in the coverage report (a closer
// left out, a wrapper dropped, one form of several): a rule or branch key of
// rule_coverage.hpp, counted in blocks where it succeeded (or, `on_failure`, failed),
// and its label for people (src/coverage/coverage_variants.cpp).
struct RuleVariant {
    std::string_view key;
    std::string_view label;
    bool on_failure = false;
};

struct GrammarDef {
    std::string_view name = {};
    std::string_view summary = {};
    std::vector<std::string> (*markers)(const Settings&) = nullptr;
    std::optional<Block> (*read_at)(ScanContext&, std::size_t at) = nullptr;
    std::optional<Block> (*read_whole)(ScanContext&, std::size_t begin, std::size_t end) = nullptr;
    std::string (*instruction)(const Settings&) = nullptr;
    std::string (*render)(const std::vector<Call>&, const Settings&) = nullptr;
    // For a grammar whose block at its first marker may begin earlier, at the output's
    // start (Functionary v3.2: the first `>>>` was in the prompt): reads that headless
    // start, or declines. A stream holds the content back until this declines.
    std::optional<Block> (*read_head)(ScanContext&, std::size_t begin) = nullptr;
    // For a grammar that needs something of the settings (the declared grammar, its
    // syntax): throws std::invalid_argument when they lack it. The Parser calls it once.
    void (*check)(const Settings&) = nullptr;
    // Its blocks by opener and closer (syntax_blocks). None for a grammar whose opener
    // prose or raw code may use without a closer of its own (Llama 3.1's `<|python_tag|>`,
    // Functionary's `>>>python`, the marker format's `TOOL_CALL`).
    std::span<const BlockSpec> blocks = {};
    // For a grammar whose blocks the settings spell (the tag format's configurable tags):
    // those, before `blocks`. (A profile file's blocks are its declared syntax's.)
    std::vector<BlockSpec> (*settings_blocks)(const Settings&) = nullptr;
    // The engines' names for the parser of its syntax, which the profile of this grammar's
    // name reads (profile_aliases).
    std::span<const AliasSpec> aliases = {};
    // The built-in profiles it heads, in the order `toolgram profiles` lists them.
    std::span<const ProfileSpec> profiles = {};
    // What its models' chat templates write (match_chat_template).
    std::span<const TemplateSignature> signatures = {};
    // The paths through its rules the coverage report names (variant_table).
    std::span<const RuleVariant> variants = {};
    // For a grammar written beside another in its family's files (a variant, such as a
    // form with a marker of its own): the stem of those files, grammars/STEM.hpp and
    // src/actions/STEM.cpp (grammar_source_files). Empty: its own name.
    std::string_view files = {};
};

// A block of a grammar's syntax by its opener and closer ("\n": the line after the
// opener), for read_unreadable (block_reader.hpp).
struct SyntaxBlock {
    std::string open, close;
};
// The grammar's blocks, as the settings spell them (the tag format's tags, a profile
// file's markers, GrammarDef::blocks); empty for a grammar whose syntax has no closer.
std::vector<SyntaxBlock> syntax_blocks(const GrammarDef& grammar, const Settings& settings);

// A marker as a scan uses it: its grammar, and what it reads there: the grammar's block
// (read_at), or, for a `broken` one tried only after every grammar declined at that
// place, the grammar's syntax holding nothing readable (`block`, read_unreadable).
struct MarkerUse {
    std::string text;
    const GrammarDef* grammar = nullptr;
    bool broken = false;
    SyntaxBlock block;
    std::optional<Block> read(ScanContext& ctx, std::size_t at) const;
};

// Renders calls in a grammar's syntax; throws std::invalid_argument when it cannot.
std::string render_calls(std::string_view grammar, const std::vector<Call>& calls, const Settings& settings);

const GrammarDef* find_grammar(std::string_view name);
// Whether a grammar is generic (tag, xml, marker, json, generic, bracket, text_kv: a
// syntax any model may be prompted with) rather than one family's. Specific before
// generic: where both could read at a position, the family's grammar is tried first
// (Parser::Impl orders every scan so), whatever the profile's order.
bool is_generic(const GrammarDef& grammar);
// The keys a JSON call object's fields may stand under, in every grammar that reads call
// objects (block_reader.cpp), and the "type" values that mark one: for the formats
// reference (`toolgram profiles --formats`).
struct CallObjectKeys {
    std::vector<std::string> name, arguments, id, types;
};
CallObjectKeys call_object_keys();
// Where a grammar is written, as paths from the source tree's root: its rules
// (grammars/NAME.hpp) and actions (src/actions/NAME.cpp), or the shipped profile file it
// is (grammars/declared/NAME.json). Empty for a name no grammar has.
std::vector<std::string> grammar_source_files(std::string_view name);
const std::vector<const GrammarDef*>& all_grammars();
// Every family record: the grammars', then those of the shipped profile files with no
// syntax of their own (profiles reading built-in grammars, such as Apriel's), which hold
// a name, engines' names and signatures but no reader. For the tables built from records.
const std::vector<const GrammarDef*>& all_records();

}  // namespace toolgram::detail
