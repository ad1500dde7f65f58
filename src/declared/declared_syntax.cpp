// Compiling a declared syntax for the grammar `declared` (see declared_syntax.hpp): the
// defaults a profile file may leave out, and the lists derived from several fields.
#include "declared/declared_syntax.hpp"

namespace toolgram::detail {
namespace {

Spellings views(const std::vector<std::string>& list) { return Spellings(list.begin(), list.end()); }

std::array<bool, 256> byte_set(std::string_view spec) {
    std::array<bool, 256> set{};
    for (std::size_t i = 0; i < spec.size(); ++i) {
        const auto c = static_cast<unsigned char>(spec[i]);
        if (i + 2 < spec.size() && spec[i + 1] == '-') {
            const auto last = static_cast<unsigned char>(spec[i + 2]);
            for (unsigned v = c; v <= last; ++v) set[v] = true;
            i += 2;
        } else {
            set[c] = true;
        }
    }
    return set;
}

// `chars` when given, else every byte but the stop bytes (the declared ones, or the
// default ones when none are declared).
CharClass char_class(const DeclaredSyntax::Chars& c, const std::string& default_stop) {
    CharClass cc;
    if (!c.chars.empty()) {
        cc.rest = byte_set(c.chars);
        cc.first = c.first_chars.empty() ? cc.rest : byte_set(c.first_chars);
        return cc;
    }
    cc.rest.fill(true);
    for (const char s : c.stop_chars.empty() ? default_stop : c.stop_chars) cc.rest[static_cast<unsigned char>(s)] = false;
    cc.first = cc.rest;
    return cc;
}

void add_first_bytes(std::string& out, const std::vector<std::string>& spellings) {
    for (const auto& s : spellings)
        if (!s.empty() && out.find(s[0]) == std::string::npos) out += s[0];
}

}  // namespace

CharClass name_chars(const DeclaredSyntax& s) {
    std::string stop = " \t\r\n";
    if (s.header) {
        add_first_bytes(stop, s.header->end);
        if (s.header->id) {
            add_first_bytes(stop, s.header->id->after_name);
            add_first_bytes(stop, s.header->id->marker);
        }
        if (s.header->end.empty()) {  // then a parameter or the call's closer follows the name
            add_first_bytes(stop, s.arguments.parameter.open);
            add_first_bytes(stop, s.call.close);
        }
        return char_class(s.header->name.chars, stop);
    }
    return char_class({}, stop);
}

CharClass id_chars(const DeclaredSyntax& s) {
    if (!s.header || !s.header->id) return {};
    const DeclaredSyntax::Id& id = *s.header->id;
    if (id.chars.chars.empty() && id.chars.stop_chars.empty() && !id.after_name.empty())
        return char_class({"", "0-9", ""}, "");
    std::string stop = " \t\r\n";
    add_first_bytes(stop, s.header->end);
    return char_class(id.chars, stop);
}

CharClass key_chars(const DeclaredSyntax& s) {
    std::string stop = "\r\n<";
    add_first_bytes(stop, s.arguments.parameter.key_end);
    return char_class(s.arguments.parameter.key, stop);
}

std::unique_ptr<CompiledSyntax> compile_syntax(const DeclaredSyntax& s) {
    auto c = std::make_unique<CompiledSyntax>();
    c->source = &s;
    c->owned.reserve(s.arguments.parameter.open.size());  // views into it must not move
    if (s.section) {
        c->has_section = true;
        c->section_required = s.section->required;
        c->section_open = views(s.section->open);
        c->section_close = views(s.section->close);
    }
    c->call_open = views(s.call.open);
    c->call_close = views(s.call.close);
    c->call_open_optional = s.call.open_optional;
    c->call_form = s.call.close.empty() ? CallForm::open_ended
                   : s.call.close_optional ? CallForm::open_ended_then_close
                                           : CallForm::closed;
    c->one_a_line = s.arguments.one_a_line;
    c->object_first = s.arguments.object_first;

    if (s.header) {
        const DeclaredSyntax::Header& h = *s.header;
        c->opening = !h.name.attribute.empty() ? Opening::attribute
                     : h.optional             ? Opening::optional_tokens
                                              : Opening::tokens;
        c->space = h.space;
        c->name_prefix = views(h.name.prefix);
        c->name = name_chars(s);
        c->name_attribute = h.name.attribute;
        if (h.id) {
            c->id_after_name = views(h.id->after_name);
            c->id_marker = views(h.id->marker);
            c->id = id_chars(s);
            c->id_whole_reference = h.id->whole_reference;
        }
        c->header_end = views(h.end);
    }

    const DeclaredSyntax::Parameter& p = s.arguments.parameter;
    c->parameters = s.arguments.style == DeclaredSyntax::Style::parameters ||
                    s.arguments.style == DeclaredSyntax::Style::key_value;
    c->pythonic = s.arguments.style == DeclaredSyntax::Style::pythonic;
    c->parameter_head = s.arguments.style == DeclaredSyntax::Style::key_value ? 2 : !p.key_attribute.empty() ? 1 : 0;
    c->committed = s.arguments.reject_unexpected;
    if (c->parameters) {
        c->param_open = views(p.open);
        c->key_end = views(p.key_end);
        c->value_open = views(p.value_open);
        c->param_close = views(p.close);
        c->key_attribute = p.key_attribute;
        c->key = key_chars(s);
        // Where a tagged value may end when its closer was left out: the next parameter
        // (with an attribute key, its opener and the attribute: `<parameter name=`, so a
        // value may mention `<parameter`), searched for by grammars/common/param_value.hpp.
        if (p.key_attribute.empty()) {
            c->param_open_needles = c->param_open;
        } else {
            for (const auto& open : p.open) c->owned.push_back(open + " " + p.key_attribute + "=");
            c->param_open_needles = views(c->owned);
        }
        // A key_value pair, with no tags a value could hold, ends at its separator or the
        // call's closer, whichever comes first.
        if (s.arguments.style == DeclaredSyntax::Style::key_value) {
            c->value_ends = c->param_close;
            c->value_ends.insert(c->value_ends.end(), c->call_close.begin(), c->call_close.end());
        }
        c->newline_each_side = p.newlines == DeclaredSyntax::Newlines::layout;
        c->strip_blanks = p.newlines == DeclaredSyntax::Newlines::stripped;
        const std::string key_part = p.key_attribute.empty() ? "NAME" + p.key_end.front()
                                                             : " " + p.key_attribute + "=\"NAME\">";
        c->parameter_message = (p.open.empty() ? std::string() : p.open.front()) + key_part +
                               (p.value_open.empty() ? "" : p.value_open.front()) + "value" + p.close.front() + " or " +
                               s.call.close.front() + " expected";
    }

    if (s.section) c->markers = s.section->open;
    if (!s.section || !s.section->required) c->markers.insert(c->markers.end(), s.call.open.begin(), s.call.open.end());
    if (c->parameters) c->closer = s.section ? s.section->close.front() : s.call.close.front();
    else if (!s.call.close.empty() && !s.call.close_optional) c->closer = s.call.close.front();
    return c;
}

const CompiledSyntax* compiled_syntax(const Settings& settings) {
    if (!settings.declared_syntax) return nullptr;
    // A few entries, replaced in turn: a read nests at most one syntax in another, so an
    // entry in use is never the one replaced.
    struct Entry {
        std::shared_ptr<const DeclaredSyntax> key;
        std::unique_ptr<CompiledSyntax> value;
    };
    thread_local std::array<Entry, 4> cache;
    thread_local std::size_t next = 0;
    for (const auto& e : cache)
        if (e.key == settings.declared_syntax) return e.value.get();
    Entry& e = cache[next];
    next = (next + 1) % cache.size();
    e.value = compile_syntax(*settings.declared_syntax);
    e.key = settings.declared_syntax;
    return e.value.get();
}

}  // namespace toolgram::detail
