// Reader for the run-time grammar `declared` (grammars/declared.hpp): a syntax declared in
// a profile file, read with the readers the compiled families use.
//
// JSON arguments go through json_block's reader (no header: the payload names the call,
// as Hermes) or the named-call reader (a header names it, as Kimi, DeepSeek, Mistral), one
// call at a time or a section of them; named text parameters and key-value pairs go
// through the params reader; Python calls through the bracket format's call actions. The actions map the declared rules to the behaviours those readers already
// have, so a declared family differs from a compiled one only in where its spellings
// come from. Each read makes the settings' syntax the active one (DeclaredScope).
#include <array>
#include <cctype>
#include <memory>
#include <stdexcept>
#include <utility>

#include "declared.hpp"
#include "declared/declared_syntax.hpp"
#include "readers/grammar_def.hpp"
#include "readers/named_call_reader.hpp"
#include "readers/params_reader.hpp"
#include "profiles/profile_file.hpp"
#include "readers/python_call_actions.hpp"
#include "declared/shipped_profiles.hpp"

namespace toolgram::detail {
namespace declared_reader {
namespace {

namespace d = grammar::declared;

static_assert(static_cast<int>(DeclaredSyntax::Space::any) == static_cast<int>(d::space_mode::any) &&
                  static_cast<int>(DeclaredSyntax::Space::blanks) == static_cast<int>(d::space_mode::blanks) &&
                  static_cast<int>(DeclaredSyntax::Space::none) == static_cast<int>(d::space_mode::none) &&
                  static_cast<int>(DeclaredSyntax::Space::line_break) == static_cast<int>(d::space_mode::line_break),
              "grammars/declared.hpp's space_mode follows DeclaredSyntax::Space");
static_assert(static_cast<int>(Opening::bare) == 0, "grammars/declared.hpp's payload_names_call reads Opening::bare as 0");

// ---------------------------------------------------------------------------------------
// JSON arguments.

template <typename Rule>
struct declared_json_action : json_block_action<Rule> {};

template <>
struct declared_json_action<d::call_open> {  // a tag's start: its attributes are collected anew
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.clear_attributes(); }
};
template <> struct declared_json_action<d::function_name> : named_call::name {};
template <> struct declared_json_action<d::call_id> : named_call::id {};
template <> struct declared_json_action<d::header_tokens> : named_call::header {};
template <>
struct declared_json_action<d::call_ref> {  // functions.NAME:0 is the id where the syntax says so
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        if (syntax_of(st).id_whole_reference) set_attribute(st, "id", trim_text(in.string_view()));
    }
};
template <>
struct declared_json_action<d::attribute_header> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        const std::string* name = st.attribute(syntax_of(st).name_attribute);
        set_attribute(st, "name", name ? *name : std::string());
        st.named = true;
    }
};
template <> struct declared_json_action<d::close_cut_off> : json_block_action<jb::end_cut_off> {};
template <>
struct declared_json_action<d::stray_text_then_close> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        st.note("trailing_text_ignored");
        st.skipped_from = st.offset_of(in.begin());
        // The rule took the closer too, in whichever spelling came first: not skipped text.
        const std::string_view taken = in.string_view();
        std::size_t closer = 0;
        for (const std::string_view c : syntax_of(st).call_close)
            if (c.size() > closer && taken.size() >= c.size() && taken.substr(taken.size() - c.size()) == c) closer = c.size();
        st.skipped_to = st.offset_of(in.end()) - closer;
    }
};

std::optional<Block> read_json_call(ScanContext& ctx, std::size_t at) {
    const CompiledSyntax& s = *active_declared_syntax;
    if (s.opening == Opening::bare) return read_json_block<d::json_call, declared_json_action>(ctx, at, s.grammar, s.closer, s.markers);
    std::optional<Block> b = read_named_call<d::json_call, d::named_opening, declared_json_action>(ctx, at, s.grammar, s.closer, s.markers);
    // A whole reference with an index separator (Kimi's functions.NAME:0): a '.' in its place
    // is refused, as the compiled family does.
    if (b && s.id_whole_reference && s.id_after_name.size() == 1) refuse_dot_for_index(*b, s.id_after_name.front());
    return b;
}

// ---------------------------------------------------------------------------------------
// Named text parameters.

template <typename Rule>
struct declared_params_action : params::shape_action<Rule> {};

template <> struct declared_params_action<d::call_open> : params::tag_begin {};
template <> struct declared_params_action<d::function_name> : params::call_name {};
template <> struct declared_params_action<d::call_id> : params::call_id {};
template <>
struct declared_params_action<d::call_ref> {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        if (syntax_of(st).id_whole_reference) st.current.id = trim_text(in.string_view());
    }
};
template <>
struct declared_params_action<d::attribute_header> {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* name = st.attribute(syntax_of(st).name_attribute);
        st.begin_call(name ? std::string_view(*name) : std::string_view{}, st.offset_of(in.begin()));
    }
};
template <> struct declared_params_action<d::parameter_start> : params::tag_begin {};
template <> struct declared_params_action<d::parameter_key> : params::param_key {};
template <>
struct declared_params_action<d::attribute_parameter_open> {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) {
        const std::string* key = st.attribute(syntax_of(st).key_attribute);
        st.key = key ? trim_text(*key) : std::string{};
    }
};
template <>
struct declared_params_action<d::parameter_value> {
    // Key-value pairs are written inline (`city: Paris; days: 3`): the blanks around a value
    // are layout there, where a tagged parameter keeps all but one line break at each end.
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        if (syntax_of(st).parameter_head == 2) set_argument(st.current, st.key, trim_text(in.string_view()));
        else st.set_text(in.string_view());
    }
};
template <> struct declared_params_action<d::params_call> : params::call_end {};

// ---------------------------------------------------------------------------------------
// Python calls: the bracket format's call actions.

template <typename Rule>
struct declared_python_action : python_call_action<Rule> {};

template <>
struct declared_python_action<grammar::pythonic::end_cut_off> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) {
        st.note("missing_end_tag");
        st.healed = true;
    }
};
template <>
struct declared_python_action<grammar::pythonic::missing_end_tag> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) { st.note("missing_end_tag"); }
};

std::optional<Block> read_python(ScanContext& ctx, std::size_t at, const CompiledSyntax& s) {
    PythonCallState st;
    const RunResult r = run_rule_at<d::python_block, declared_python_action>(ctx, at, st);
    if (r.failed) return failed_block_to_closer(ctx, s.grammar, at, r.failure, s.closer);
    if (!r.matched || st.calls.empty()) return std::nullopt;
    return python_call_block(st, s.grammar, at, r.end);
}

// ---------------------------------------------------------------------------------------
// The grammar.

std::vector<std::string> markers(const Settings& settings) {
    const CompiledSyntax* s = compiled_syntax(settings);
    return s ? s->markers : std::vector<std::string>{};
}

// One block at `at` in the syntax `scope` made active.
std::optional<Block> read_in(ScanContext& ctx, std::size_t at, const DeclaredScope& scope) {
    const CompiledSyntax* s = scope.get();
    if (!s) return std::nullopt;
    if (s->pythonic) return read_python(ctx, at, *s);
    if (s->parameters)
        return read_params_block<d::params_block, declared_params_action, d::control>(ctx, at, s->grammar, s->closer,
                                                                             ValueLayout{.newline_each_side = s->newline_each_side,
                                                                                        .strip_blanks = s->strip_blanks});
    if (s->has_section) return read_call_section<d::section_open, d::section_close>(ctx, at, read_json_call);
    return read_json_call(ctx, at);
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const DeclaredScope scope(ctx.settings());
    return read_in(ctx, at, scope);
}

// A parameter's text, with a line break on each side where the value itself begins or
// ends with one and one on each side is layout (which would otherwise eat the value's own).
std::string parameter_value_text(const json& value, bool newline_layout) {
    std::string text = parameter_text(value);
    const bool edge_break = !text.empty() && (text.front() == '\n' || text.front() == '\r' || text.back() == '\n');
    return newline_layout && edge_break ? "\n" + text + "\n" : text;
}

// Writes call objects in the layout a file's `render` gives (its family's chat template's).
std::string rendered_as_declared(const DeclaredSyntax::Render& r, const std::vector<Call>& calls) {
    const auto fill = [](const std::string& tmpl, std::string_view slot, const std::string& text) {
        const std::size_t at = tmpl.find(slot);  // checked at load: there once
        return tmpl.substr(0, at) + text + tmpl.substr(at + slot.size());
    };
    std::string out;
    if (!r.all.empty()) {
        std::string objects;
        for (std::size_t i = 0; i < calls.size(); ++i) objects += (i ? ", " : "") + call_object_text(calls[i], "name", r.arguments_key);
        return fill(r.all, "{calls}", objects);
    }
    for (std::size_t i = 0; i < calls.size(); ++i)
        out += (i ? r.between : "") + fill(r.each, "{call}", call_object_text(calls[i], "name", r.arguments_key));
    return out;
}

// Writes calls with the first spelling of every token and no layout of its own: the
// syntax says where whitespace may stand, not where a model puts it (unless a file's
// `render` gives its family's).
std::string render_in(const DeclaredSyntax* s, const std::vector<Call>& calls, const Settings& settings) {
    if (!s) throw std::invalid_argument("the grammar \"declared\" has no syntax to write (Settings::declared_syntax)");
    const auto first = [](const std::vector<std::string>& list) { return list.empty() ? std::string() : list.front(); };
    if (s->arguments.style == DeclaredSyntax::Style::pythonic)  // one list of calls between the markers
        return first(s->call.open) + render_calls("bracket", calls, settings) + first(s->call.close) + "\n";
    if (s->render) return rendered_as_declared(*s->render, calls);
    std::string out = s->section ? first(s->section->open) : std::string();
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const Call& c = calls[i];
        out += first(s->call.open);
        if (s->header && !s->header->name.attribute.empty()) {
            out += " " + s->header->name.attribute + "=" + json(c.name).dump() + ">";
        } else if (s->header) {
            const DeclaredSyntax::Header& h = *s->header;
            // `<<call` and `get_weather` would run together: a space where one may stand.
            const bool word_joint = !out.empty() && std::isalnum(static_cast<unsigned char>(out.back())) &&
                                    h.name.prefix.empty() && !c.name.empty() &&
                                    std::isalnum(static_cast<unsigned char>(c.name.front()));
            if (word_joint && (h.space == DeclaredSyntax::Space::any || h.space == DeclaredSyntax::Space::blanks)) out += ' ';
            out += first(h.name.prefix) + c.name;
            if (h.id && !h.id->after_name.empty()) out += first(h.id->after_name) + std::to_string(i);
            out += first(h.end);
        }
        if (s->arguments.style == DeclaredSyntax::Style::json) {
            out += s->header ? json_text(c.arguments) : call_object_text(c);
        } else {
            const DeclaredSyntax::Parameter& p = s->arguments.parameter;
            for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it) {
                out += first(p.open);
                out += p.key_attribute.empty() ? it.key() + first(p.key_end)
                                               : " " + p.key_attribute + "=" + json(it.key()).dump() + ">";
                out += first(p.value_open) +
                       parameter_value_text(*it, p.newlines == DeclaredSyntax::Newlines::layout) + first(p.close);
            }
        }
        out += first(s->call.close);
        if (!s->section) out += "\n";
    }
    if (s->section) out += first(s->section->close);
    return out;
}

std::string instruction_in(const DeclaredSyntax* s, const Settings& settings) {
    if (!s) return "Write each tool call in the syntax of the profile file.";
    if (!s->instruction.empty()) return s->instruction;
    std::string out = "To call a tool, write the call in exactly this format";
    out += s->section ? ", all calls in one block:\n" : ", one block per call:\n";
    out += render_in(s, {Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, settings);
    if (s->arguments.style == DeclaredSyntax::Style::parameters || s->arguments.style == DeclaredSyntax::Style::key_value) {
        if (out.back() != '\n') out += '\n';
        out += "Write objects and arrays as JSON inside a parameter.";
    }
    return out;
}

std::string render(const std::vector<Call>& calls, const Settings& settings) {
    return render_in(settings.declared_syntax.get(), calls, settings);
}

std::string instruction(const Settings& settings) { return instruction_in(settings.declared_syntax.get(), settings); }

void check(const Settings& settings) {
    if (!settings.declared_syntax)
        throw std::invalid_argument("the grammar \"declared\" reads the syntax of a profile file, and the settings hold "
                                    "none (Settings::declared_syntax)");
    check_declared_syntax(*settings.declared_syntax);
    check_openers_against_reasoning(scanned_openers(*settings.declared_syntax), settings, true);
    check_closers_against_reasoning(scanned_closers(*settings.declared_syntax), settings, true);
}

}  // namespace
}  // namespace declared_reader

extern const GrammarDef declared_grammar{
    .name = "declared",
    .summary = "a syntax declared at run time in a profile file (--profile-file): markers, header, JSON or parameters",
    .markers = declared_reader::markers,
    .read_at = declared_reader::read_at,
    .instruction = declared_reader::instruction,
    .render = declared_reader::render,
    .check = declared_reader::check,
};

// ---------------------------------------------------------------------------------------
// The shipped profile files as grammars of their own (declared_syntax.hpp).

namespace declared_reader {
namespace {

// A GrammarDef holds plain function pointers, so a shipped file's functions are the
// instantiation of these templates at its index in the table: room for this many files
// (more throws std::logic_error when the table is first built, and a test builds it).
constexpr std::size_t max_shipped_grammars = 32;

struct Bound {
    std::string name, summary;
    Profile profile;  // the file's, its grammar renamed to `name`
    std::unique_ptr<CompiledSyntax> compiled;  // null for a file with no syntax
    FileRecord record;  // the file's engines and signatures, which the two below view
    std::vector<AliasSpec> aliases;
    std::vector<TemplateSignature> signatures;
    GrammarDef def;
};

// Whether a shipped file declares a syntax (a grammar of its own) or only reads with
// built-in grammars. A text that is no JSON counts as one, so loading it reports why.
bool declares_syntax(std::string_view text) {
    const json j = json::parse(text.begin(), text.end(), nullptr, false);
    return !j.is_object() || j.contains("syntax");
}

// The record's parts as a compiled-in record holds them, viewing `b.record`.
void view_record(Bound& b) {
    for (const ProfileAlias& a : b.record.engines) b.aliases.push_back({a.engine, a.name, a.models});
    for (const FileSignature& f : b.record.signatures) {
        TemplateSignature t{.family = f.family, .note = f.note};
        for (std::size_t i = 0; i < f.all.size(); ++i) t.all[i] = f.all[i];  // bounds checked at load
        for (std::size_t i = 0; i < f.none.size(); ++i) t.none[i] = f.none[i];
        for (std::size_t i = 0; i < f.engines.size(); ++i) t.engines[i] = {f.engines[i].first, f.engines[i].second};
        b.signatures.push_back(t);
    }
    b.def.aliases = b.aliases;
    b.def.signatures = b.signatures;
}

const std::vector<std::unique_ptr<Bound>>& bound_table();

template <std::size_t I>
const CompiledSyntax& bound_syntax() {
    return *bound_table()[I]->compiled;
}
template <std::size_t I>
std::vector<std::string> bound_markers(const Settings&) {
    return bound_syntax<I>().markers;
}
template <std::size_t I>
std::optional<Block> bound_read_at(ScanContext& ctx, std::size_t at) {
    const DeclaredScope scope(&bound_syntax<I>());
    return read_in(ctx, at, scope);
}
template <std::size_t I>
std::string bound_instruction(const Settings& settings) {
    return instruction_in(bound_syntax<I>().source, settings);
}
template <std::size_t I>
std::string bound_render(const std::vector<Call>& calls, const Settings& settings) {
    return render_in(bound_syntax<I>().source, calls, settings);
}
// The file's openers against the reasoning delimiters of the profile running it (`auto`
// holds every family's).
template <std::size_t I>
void bound_check(const Settings& settings) {
    check_openers_against_reasoning(scanned_openers(*bound_syntax<I>().source), settings, true);
}

template <std::size_t... I>
std::array<GrammarDef, sizeof...(I)> bound_functions(std::index_sequence<I...>) {
    return {GrammarDef{.markers = bound_markers<I>,
                       .read_at = bound_read_at<I>,
                       .instruction = bound_instruction<I>,
                       .render = bound_render<I>,
                       .check = bound_check<I>}...};
}

// True while this thread builds the table: loading a file looks grammars up by name
// (its fallbacks), which must then find the compiled-in ones only.
thread_local bool building_bound_table = false;

const std::vector<std::unique_ptr<Bound>>& bound_table() {
    static const std::vector<std::unique_ptr<Bound>> table = [] {
        const auto& files = shipped_profile_file_texts();
        if (files.size() > max_shipped_grammars)
            throw std::logic_error("src/actions/declared.cpp: " + std::to_string(files.size()) +
                                   " shipped profile files, room for " + std::to_string(max_shipped_grammars) +
                                   " (max_shipped_grammars)");
        static const auto functions = bound_functions(std::make_index_sequence<max_shipped_grammars>());
        building_bound_table = true;
        std::vector<std::unique_ptr<Bound>> out;
        try {
            for (std::size_t i = 0; i < files.size(); ++i) {
                if (!declares_syntax(files[i].text)) continue;
                auto b = std::make_unique<Bound>();
                b->name = std::string(files[i].name);
                b->profile = profile_from_file_text(files[i].text, std::string(files[i].path), b->record);
                for (auto& use : b->profile.grammars)
                    if (use.grammar == "declared") use.grammar = b->name;
                b->compiled = compile_syntax(*b->profile.settings.declared_syntax);
                b->compiled->grammar = b->name;
                b->summary = std::string(files[i].path) + ": " + b->profile.description;
                b->def = functions[out.size()];
                b->def.name = b->name;
                b->def.summary = b->summary;
                view_record(*b);
                out.push_back(std::move(b));
            }
        } catch (...) {
            building_bound_table = false;
            throw;
        }
        building_bound_table = false;
        return out;
    }();
    return table;
}

}  // namespace
}  // namespace declared_reader

namespace declared_reader {
namespace {

// The files with no syntax, loaded once the shipped grammars exist (their `grammars` may
// name one).
const std::vector<std::unique_ptr<Bound>>& profile_only_table() {
    static const std::vector<std::unique_ptr<Bound>> table = [] {
        static_cast<void>(shipped_grammars());
        std::vector<std::unique_ptr<Bound>> out;
        for (const auto& f : shipped_profile_file_texts()) {
            if (declares_syntax(f.text)) continue;
            auto b = std::make_unique<Bound>();
            b->name = std::string(f.name);
            b->profile = profile_from_file_text(f.text, std::string(f.path), b->record);
            b->summary = std::string(f.path) + ": " + b->profile.description;
            b->def.name = b->name;
            b->def.summary = b->summary;
            view_record(*b);
            out.push_back(std::move(b));
        }
        return out;
    }();
    return table;
}

}  // namespace
}  // namespace declared_reader

const std::vector<ShippedProfile>& shipped_profiles_only() {
    static const std::vector<ShippedProfile> table = [] {
        std::vector<ShippedProfile> out;
        for (const auto& b : declared_reader::profile_only_table()) out.push_back({&b->def, &b->profile});
        return out;
    }();
    return table;
}

bool building_shipped_grammars() { return declared_reader::building_bound_table; }

const std::vector<ShippedGrammar>& shipped_grammars() {
    static const std::vector<ShippedGrammar> none;
    if (declared_reader::building_bound_table) return none;
    static const std::vector<ShippedGrammar> table = [] {
        std::vector<ShippedGrammar> out;
        for (const auto& b : declared_reader::bound_table()) out.push_back({&b->def, &b->profile});
        return out;
    }();
    return table;
}

const DeclaredSyntax* declared_syntax_of(const GrammarDef& grammar, const Settings& settings) {
    if (&grammar == &declared_grammar) return settings.declared_syntax.get();
    for (const auto& g : shipped_grammars())
        if (g.grammar == &grammar) return g.profile->settings.declared_syntax.get();
    return nullptr;
}

}  // namespace toolgram::detail
