// A declared syntax (toolgram.hpp's DeclaredSyntax, a profile file's "syntax") made ready
// for the grammar `declared` (grammars/declared.hpp, src/actions/declared.cpp).
//
// The public struct says what a person declared; this is what the rules need while they
// run: spellings as views, character classes as byte tables, defaults filled in, and the
// lists derived from several fields (the scan markers, where a parameter's value ends,
// the message of a broken parameter). It is built once per syntax and kept in a
// thread-local one-entry cache, so a read costs a pointer comparison, not a rebuild.
//
// The rules reach it through `syntax_of(state)`, found by argument-dependent lookup on
// the block state: grammars/declared.hpp stays rules only, and the syntax in use is the
// one `DeclaredScope` made active for the duration of a read.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

struct GrammarDef;  // grammar_def.hpp

using Spellings = std::vector<std::string_view>;

// Which bytes a word (name, id, key) may hold: `first` for its first byte, `rest` after.
struct CharClass {
    std::array<bool, 256> first{};
    std::array<bool, 256> rest{};
    bool first_of(unsigned char c) const { return first[c]; }
    bool rest_of(unsigned char c) const { return rest[c]; }
};

// How the header is written, as one choice (grammars/declared.hpp's `select`).
enum class Opening : unsigned char {
    bare = 0,           // no header: the call opener, then the payload names the call
    attribute = 1,      // <invoke name="NAME">
    tokens = 2,         // opener, name [id], end
    optional_tokens = 3 // opener, and the tokens or not (then the payload names the call)
};

// How a JSON call ends (grammars/declared.hpp's json_call).
enum class CallForm : unsigned char {
    open_ended = 0,            // no closer: the payload ends the call
    closed = 1,                // at its closer (or where that was cut off, or left out)
    open_ended_then_close = 2  // the payload ends it, and the closer may follow
};

struct CompiledSyntax {
    const DeclaredSyntax* source = nullptr;
    // The grammar its reads name in candidates and telemetry: `declared`, or a shipped
    // profile file's own grammar (its name).
    std::string_view grammar = "declared";

    bool has_section = false, section_required = false;
    Spellings section_open, section_close;
    Spellings call_open, call_close;
    bool call_open_optional = false;
    CallForm call_form = CallForm::open_ended;
    bool one_a_line = false;  // JSON call objects one a line, a broken line spoiling only itself
    bool object_first = false;  // a payload not opening a call object declines

    Opening opening = Opening::bare;
    DeclaredSyntax::Space space = DeclaredSyntax::Space::any;
    Spellings name_prefix;
    CharClass name;
    std::string_view name_attribute;
    Spellings id_after_name, id_marker;
    CharClass id;
    bool id_whole_reference = false;
    Spellings header_end;

    bool parameters = false;  // named text parameters, key_value included
    bool pythonic = false;
    unsigned char parameter_head = 0;  // 0: OPEN KEY KEY_END, 1: key attribute, 2: KEY KEY_END (key_value)
    bool committed = false;
    Spellings param_open, key_end, value_open, param_close;
    std::string_view key_attribute;
    CharClass key;
    Spellings value_ends;  // key_value: a value ends at the first of these
    // For tagged parameters (grammars/common/param_value.hpp): the spellings a parameter's opener
    // starts with, and whether one line break on each side of a value is layout, or every
    // blank around it.
    Spellings param_open_needles;
    bool newline_each_side = true;
    bool strip_blanks = false;
    std::string parameter_message;

    std::vector<std::string> markers;  // where a block may open: what the scanner looks for
    std::string closer;                // bounds a block that broke (read_*_block's closer)

    std::vector<std::string> owned;  // derived spellings the views above point into
};

// Builds the compiled form; `syntax` must have passed check_declared_syntax and must
// outlive the result.
std::unique_ptr<CompiledSyntax> compile_syntax(const DeclaredSyntax& syntax);

// The effective character classes, defaults filled in (check_declared_syntax uses them
// to find names that would run into the token after them).
CharClass name_chars(const DeclaredSyntax& syntax);
CharClass id_chars(const DeclaredSyntax& syntax);
CharClass key_chars(const DeclaredSyntax& syntax);

// The openers the scanner looks for (section.open; call.open unless the section is
// required), each with its place in the file's terms (`syntax.call.open[1]`).
std::vector<std::pair<std::string, std::string>> scanned_openers(const DeclaredSyntax& syntax);
// Refuses (std::invalid_argument naming both fields) an opener that begins with a
// reasoning delimiter of the settings: every call would begin inside reasoning, and none
// would be read. `reasoning_from_file` false: the settings hold the default list.
void check_openers_against_reasoning(const std::vector<std::pair<std::string, std::string>>& openers,
                                     const Settings& settings, bool reasoning_from_file);
// The closers (call.close, section.close) with their places, and the same check for
// them: a closer that begins with a reasoning delimiter loses every call after the first.
std::vector<std::pair<std::string, std::string>> scanned_closers(const DeclaredSyntax& syntax);
void check_closers_against_reasoning(const std::vector<std::pair<std::string, std::string>>& closers,
                                     const Settings& settings, bool reasoning_from_file);

// The compiled form of `settings.declared_syntax` (null when there is none), from the
// thread's cache.
const CompiledSyntax* compiled_syntax(const Settings& settings);

inline thread_local const CompiledSyntax* active_declared_syntax = nullptr;

// Makes the settings' syntax the one the rules read, for one read; nests.
class DeclaredScope {
public:
    explicit DeclaredScope(const Settings& settings) : DeclaredScope(compiled_syntax(settings)) {}
    explicit DeclaredScope(const CompiledSyntax* syntax) : saved_(active_declared_syntax), syntax_(syntax) {
        active_declared_syntax = syntax_;
    }
    ~DeclaredScope() { active_declared_syntax = saved_; }
    DeclaredScope(const DeclaredScope&) = delete;
    DeclaredScope& operator=(const DeclaredScope&) = delete;
    const CompiledSyntax* get() const { return syntax_; }

private:
    const CompiledSyntax* saved_;
    const CompiledSyntax* syntax_;
};

// The shipped profile files (grammars/declared/NAME.json) as grammars of their own, each
// named as its file: a shipped grammar reads its file's syntax whatever the settings hold,
// so one profile (`auto`) runs several declared syntaxes side by side, and a call read by
// one names its family in telemetry. Built on first use, in the files' order; `profile` is
// the file's profile as loaded (the settings `auto` merges), with the grammar `declared`
// it lists renamed to this one.
struct ShippedGrammar {
    const GrammarDef* grammar = nullptr;
    const Profile* profile = nullptr;
};
const std::vector<ShippedGrammar>& shipped_grammars();
// The shipped profile files with no syntax of their own: a profile reading built-in
// grammars under its own settings (Apriel reads Jamba's). Profiles, not grammars: each has
// a record (its name, engines' names and signatures) with no reader. Built after the
// shipped grammars, so a file may read with one of them.
struct ShippedProfile {
    const GrammarDef* record = nullptr;
    const Profile* profile = nullptr;
};
const std::vector<ShippedProfile>& shipped_profiles_only();
// True on the thread building them (grammar_registry.cpp then lists the compiled-in
// grammars only, as shipped_grammars() is empty until it is done).
bool building_shipped_grammars();

// The declared syntax `grammar` reads under `settings`: a shipped grammar's own, the
// settings' one for `declared`, none for any other grammar.
const DeclaredSyntax* declared_syntax_of(const GrammarDef& grammar, const Settings& settings);

// What the rules of grammars/declared.hpp call (by argument-dependent lookup on their
// state): the syntax of the read in progress.
template <typename State>
const CompiledSyntax& syntax_of(const State&) {
    return *active_declared_syntax;
}

}  // namespace toolgram::detail
