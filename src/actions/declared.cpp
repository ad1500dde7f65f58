// Reader for the run-time grammar `declared` (grammars/declared.hpp): a syntax declared in
// a profile file, read with the readers the compiled families use.
//
// JSON arguments go through json_block's reader (no header: the payload names the call,
// as hermes) or the named-call reader (a header names it, as Kimi, DeepSeek, Mistral), one
// call at a time or a section of them; named text parameters and key-value pairs go
// through the params reader; Python calls through the bracket format's call actions. The actions map the declared rules to the behaviours those readers already
// have, so a declared family differs from a compiled one only in where its spellings
// come from. Each read makes the settings' syntax the active one (DeclaredScope).
#include <cctype>
#include <stdexcept>

#include "declared.hpp"
#include "declared_syntax.hpp"
#include "grammar_def.hpp"
#include "named_call_reader.hpp"
#include "params_reader.hpp"
#include "python_call_actions.hpp"

namespace toolgram::detail {
namespace {

namespace d = grammar::declared;

static_assert(static_cast<int>(DeclaredSyntax::Space::any) == static_cast<int>(d::space_mode::any) &&
                  static_cast<int>(DeclaredSyntax::Space::blanks) == static_cast<int>(d::space_mode::blanks) &&
                  static_cast<int>(DeclaredSyntax::Space::none) == static_cast<int>(d::space_mode::none) &&
                  static_cast<int>(DeclaredSyntax::Space::line_break) == static_cast<int>(d::space_mode::line_break),
              "grammars/declared.hpp's space_mode follows DeclaredSyntax::Space");

// ---------------------------------------------------------------------------------------
// JSON arguments.

template <typename Rule>
struct json_action : json_block_action<Rule> {};

template <>
struct json_action<d::call_open> {  // a tag's start: its attributes are collected anew
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.clear_attributes(); }
};
template <> struct json_action<d::function_name> : named_call::name {};
template <> struct json_action<d::call_id> : named_call::id {};
template <> struct json_action<d::header_tokens> : named_call::header {};
template <>
struct json_action<d::call_ref> {  // functions.NAME:0 is the id where the syntax says so
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        if (syntax_of(st).id_whole_reference) set_attribute(st, "id", trim_text(in.string_view()));
    }
};
template <>
struct json_action<d::attribute_header> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        const std::string* name = st.attribute(syntax_of(st).name_attribute);
        set_attribute(st, "name", name ? *name : std::string());
        st.named = true;
    }
};
template <> struct json_action<d::close_cut_off> : json_block_action<jb::end_cut_off> {};
template <>
struct json_action<d::stray_text_then_close> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        st.note("trailing_text_ignored");
        st.skipped_from = st.offset_of(in.begin());
        st.skipped_to = st.offset_of(in.end());
    }
};

std::optional<Block> read_json_call(ScanContext& ctx, std::size_t at) {
    const CompiledSyntax& s = *active_declared_syntax;
    if (s.opening == Opening::bare) return read_json_block<d::json_call, json_action>(ctx, at, "declared", s.closer, s.markers);
    std::optional<Block> b = read_named_call<d::json_call, d::named_opening, json_action>(ctx, at, "declared", s.closer, s.markers);
    // A whole reference with an index separator (Kimi's functions.NAME:0): a '.' in its place
    // is refused, as the compiled family does.
    if (b && s.id_whole_reference && s.id_after_name.size() == 1) refuse_dot_for_index(*b, s.id_after_name.front());
    return b;
}

// ---------------------------------------------------------------------------------------
// Named text parameters.

template <typename Rule>
struct params_action : params::shape_action<Rule> {};

template <> struct params_action<d::call_open> : params::tag_begin {};
template <> struct params_action<d::function_name> : params::call_name {};
template <> struct params_action<d::call_id> : params::call_id {};
template <>
struct params_action<d::call_ref> {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        if (syntax_of(st).id_whole_reference) st.current.id = trim_text(in.string_view());
    }
};
template <>
struct params_action<d::attribute_header> {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* name = st.attribute(syntax_of(st).name_attribute);
        st.begin_call(name ? std::string_view(*name) : std::string_view{}, st.offset_of(in.begin()));
    }
};
template <> struct params_action<d::parameter_start> : params::tag_begin {};
template <> struct params_action<d::parameter_key> : params::param_key {};
template <>
struct params_action<d::attribute_parameter_open> {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) {
        const std::string* key = st.attribute(syntax_of(st).key_attribute);
        st.key = key ? trim_text(*key) : std::string{};
    }
};
template <>
struct params_action<d::parameter_value> {
    // Key-value pairs are written inline (`city: Paris; days: 3`): the blanks around a value
    // are layout there, where a tagged parameter keeps all but one line break at each end.
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        if (syntax_of(st).parameter_head == 2) set_argument(st.current, st.key, trim_text(in.string_view()));
        else st.set_text(in.string_view());
    }
};
template <> struct params_action<d::params_call> : params::call_end {};

// ---------------------------------------------------------------------------------------
// Python calls: the bracket format's call actions.

template <typename Rule>
struct python_action : python_call_action<Rule> {};

template <>
struct python_action<grammar::pythonic::end_cut_off> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) {
        st.note("missing_end_tag");
        st.healed = true;
    }
};
template <>
struct python_action<grammar::pythonic::missing_end_tag> {
    template <typename Input>
    static void apply(const Input&, PythonCallState& st) { st.note("missing_end_tag"); }
};

std::optional<Block> read_python(ScanContext& ctx, std::size_t at, const CompiledSyntax& s) {
    PythonCallState st;
    const RunResult r = run_rule_at<d::python_block, python_action>(ctx, at, st);
    if (r.failed) return failed_block_to_closer(ctx, "declared", at, r.failure, s.closer);
    if (!r.matched || st.calls.empty()) return std::nullopt;
    return python_call_block(st, "declared", at, r.end);
}

// ---------------------------------------------------------------------------------------
// The grammar.

std::vector<std::string> markers(const Settings& settings) {
    const CompiledSyntax* s = compiled_syntax(settings);
    return s ? s->markers : std::vector<std::string>{};
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const DeclaredScope scope(ctx.settings());
    const CompiledSyntax* s = scope.get();
    if (!s) return std::nullopt;
    if (s->pythonic) return read_python(ctx, at, *s);
    if (s->parameters)
        return read_params_block<d::params_block, params_action, d::control>(ctx, at, "declared", s->closer,
                                                                             ValueLayout{.newline_each_side = s->newline_each_side,
                                                                                        .strip_blanks = s->strip_blanks});
    if (s->has_section) return read_call_section<d::section_open, d::section_close>(ctx, at, read_json_call);
    return read_json_call(ctx, at);
}

// A parameter's text, with a line break on each side where the value itself begins or
// ends with one and one on each side is layout (which would otherwise eat the value's own).
std::string parameter_value_text(const json& value, bool newline_layout) {
    std::string text = parameter_text(value);
    const bool edge_break = !text.empty() && (text.front() == '\n' || text.front() == '\r' || text.back() == '\n');
    return newline_layout && edge_break ? "\n" + text + "\n" : text;
}

// Writes calls with the first spelling of every token and no layout of its own: the
// syntax says where whitespace may stand, not where a model puts it.
std::string render(const std::vector<Call>& calls, const Settings& settings) {
    const DeclaredSyntax* s = settings.declared_syntax.get();
    if (!s) throw std::invalid_argument("the grammar \"declared\" has no syntax to write (Settings::declared_syntax)");
    const auto first = [](const std::vector<std::string>& list) { return list.empty() ? std::string() : list.front(); };
    if (s->arguments.style == DeclaredSyntax::Style::pythonic)  // one list of calls between the markers
        return first(s->call.open) + render_calls("bracket", calls, settings) + first(s->call.close) + "\n";
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

std::string instruction(const Settings& settings) {
    const DeclaredSyntax* s = settings.declared_syntax.get();
    if (!s) return "Write each tool call in the syntax of the profile file.";
    if (!s->instruction.empty()) return s->instruction;
    std::string out = "To call a tool, write the call in exactly this format";
    out += s->section ? ", all calls in one block:\n" : ", one block per call:\n";
    out += render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, settings);
    if (s->arguments.style == DeclaredSyntax::Style::parameters || s->arguments.style == DeclaredSyntax::Style::key_value) {
        if (out.back() != '\n') out += '\n';
        out += "Write objects and arrays as JSON inside a parameter.";
    }
    return out;
}

void check(const Settings& settings) {
    if (!settings.declared_syntax)
        throw std::invalid_argument("the grammar \"declared\" reads the syntax of a profile file, and the settings hold "
                                    "none (Settings::declared_syntax)");
    check_declared_syntax(*settings.declared_syntax);
    check_openers_against_reasoning(scanned_openers(*settings.declared_syntax), settings, true);
}

}  // namespace

extern const GrammarDef declared_grammar{
    "declared",
    "a syntax declared at run time in a profile file (--profile-file): markers, header, JSON or parameters",
    markers, read_at, nullptr, instruction, render, nullptr, check,
};

}  // namespace toolgram::detail
