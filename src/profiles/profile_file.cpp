// Profile files: a profile described in JSON (docs/profile-files.md), whose primary grammar
// is `declared`, reading the file's syntax at run time.
//
// Loading checks everything once, up front, so a parse never meets a syntax it cannot
// read. Two layers: reading the JSON into the structs (unknown fields, wrong types,
// missing fields, unknown names of styles and grammars), then check_declared_syntax on
// the result (empty or shadowed spellings, markers the scanner could not tell apart,
// closers equal to openers, names that would run into the token after them, fields that
// do not go together). Both name the field in the file's terms (`syntax.call.close[1]`),
// so a syntax built in code gets the same messages.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "io/bounded_read.hpp"
#include "declared/declared_syntax.hpp"
#include "readers/grammar_def.hpp"
#include "value/json_document.hpp"
#include "profiles/profile_file.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram {
namespace {

using Space = DeclaredSyntax::Space;
using Spelling = std::vector<std::string>;

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
    throw std::invalid_argument(path + ": " + problem);
}

std::string shown(std::string_view s) { return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace); }

// A spelling's place: `path[i]`, or just `path` for a list of one (usually written as a
// plain string).
std::string place(const std::string& path, const Spelling& list, std::size_t i) {
    return list.size() > 1 ? path + "[" + std::to_string(i) + "]" : path;
}

// ---------------------------------------------------------------------------------------
// Layer one: JSON into structs.

class Fields {
public:
    Fields(const json& j, std::string where, std::vector<std::string> known) : j_(j), path_(std::move(where)) {
        if (!j.is_object()) fail(path_.empty() ? "profile" : path_, "expected an object, got " + std::string(j.type_name()));
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (std::find(known.begin(), known.end(), it.key()) != known.end()) continue;
            std::string list;
            for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
            fail(path(it.key()), "unknown field (known: " + list + ")");
        }
    }
    const json* get(const std::string& key) const {
        auto it = j_.find(key);
        return it == j_.end() ? nullptr : &*it;
    }
    const json& need(const std::string& key) const {
        const json* v = get(key);
        if (!v) fail(path(key), "missing (required)");
        return *v;
    }
    std::string path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

private:
    const json& j_;
    std::string path_;
};

[[noreturn]] void wrong_type(const std::string& path, const char* expected, const json& got) {
    fail(path, std::string("expected ") + expected + ", got " + got.type_name());
}

std::string string_of(const json& v, const std::string& path) {
    if (!v.is_string()) wrong_type(path, "a string", v);
    return v.get<std::string>();
}
bool bool_of(const json& v, const std::string& path) {
    if (!v.is_boolean()) wrong_type(path, "true or false", v);
    return v.get<bool>();
}
std::size_t size_of(const json& v, const std::string& path) {
    // Read from text, a positive integer is unsigned; built in code (`{"max_depth", 100}`),
    // it is a signed one. Both are whole numbers.
    const bool positive = v.is_number_unsigned() ? v.get<std::uint64_t>() > 0
                                                 : v.is_number_integer() && v.get<std::int64_t>() > 0;
    if (!positive) {
        if (!v.is_number()) wrong_type(path, "a positive whole number", v);
        fail(path, "expected a positive whole number, got " + v.dump());
    }
    return static_cast<std::size_t>(v.get<std::uint64_t>());
}
// A token: one spelling as a string, or alternatives as a list of strings.
// A marker (syntax token, delimiter, tag, content or intent marker): a string of at most
// max_marker_bytes. Refused past it before anything searches for it.
std::string marker_of(const json& v, const std::string& path) {
    std::string m = string_of(v, path);
    if (m.size() > max_marker_bytes)
        fail(path, std::to_string(m.size()) + " bytes, longer than the " + std::to_string(max_marker_bytes) +
                       " bytes a marker may be");
    return m;
}
Spelling spellings_of(const json& v, const std::string& path) {
    if (v.is_string()) return {marker_of(v, path)};
    if (!v.is_array()) wrong_type(path, "a string or a list of strings", v);
    Spelling out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(marker_of(v[i], path + "[" + std::to_string(i) + "]"));
    return out;
}
std::vector<std::string> strings_of(const json& v, const std::string& path) {
    if (!v.is_array()) wrong_type(path, "a list of strings", v);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string where = path + "[" + std::to_string(i) + "]";
        out.push_back(string_of(v[i], where));
        if (out.back().empty()) fail(where, "empty string");
    }
    return out;
}
std::vector<std::string> markers_of(const json& v, const std::string& path) {
    std::vector<std::string> out = strings_of(v, path);
    for (std::size_t i = 0; i < out.size(); ++i) marker_of(v[i], path + "[" + std::to_string(i) + "]");
    return out;
}

template <typename Enum>
Enum choice_of(const json& v, const std::string& path, const char* what,
               std::initializer_list<std::pair<const char*, Enum>> choices) {
    const std::string s = string_of(v, path);
    std::string known;
    for (const auto& [name, value] : choices) {
        if (s == name) return value;
        known += (known.empty() ? "" : ", ") + std::string(name);
    }
    fail(path, "unknown " + std::string(what) + " " + shown(s) + " (known: " + known + ")");
}

ReasoningStart reasoning_start_of(const json& v, const std::string& path) {
    return choice_of<ReasoningStart>(v, path, "value",
                                     {{"guess", ReasoningStart::guess},
                                      {"inside", ReasoningStart::inside},
                                      {"outside", ReasoningStart::outside}});
}
ReasoningFormat reasoning_format_of(const json& v, const std::string& path) {
    return choice_of<ReasoningFormat>(v, path, "value",
                                      {{"separate", ReasoningFormat::separate}, {"in_content", ReasoningFormat::in_content}});
}

void read_chars(const Fields& f, DeclaredSyntax::Chars& c) {
    if (const json* v = f.get("stop_chars")) c.stop_chars = string_of(*v, f.path("stop_chars"));
    if (const json* v = f.get("chars")) c.chars = string_of(*v, f.path("chars"));
    if (const json* v = f.get("first_chars")) c.first_chars = string_of(*v, f.path("first_chars"));
}

DeclaredSyntax::Header read_header(const json& j, const std::string& path) {
    const Fields f(j, path, {"optional", "space", "name", "id", "end"});
    DeclaredSyntax::Header h;
    if (const json* v = f.get("optional")) h.optional = bool_of(*v, f.path("optional"));
    if (const json* v = f.get("space"))
        h.space = choice_of<Space>(*v, f.path("space"), "space",
                                   {{"any", Space::any}, {"blanks", Space::blanks}, {"none", Space::none},
                                    {"line_break", Space::line_break}});
    if (const json* v = f.get("name")) {
        const Fields n(*v, f.path("name"), {"prefix", "stop_chars", "chars", "first_chars", "attribute"});
        if (const json* p = n.get("prefix")) h.name.prefix = spellings_of(*p, n.path("prefix"));
        read_chars(n, h.name.chars);
        if (const json* a = n.get("attribute")) h.name.attribute = string_of(*a, n.path("attribute"));
    }
    if (const json* v = f.get("id")) {
        const Fields d(*v, f.path("id"), {"after_name", "marker", "stop_chars", "chars", "first_chars", "whole_reference"});
        DeclaredSyntax::Id id;
        if (const json* a = d.get("after_name")) id.after_name = spellings_of(*a, d.path("after_name"));
        if (const json* m = d.get("marker")) id.marker = spellings_of(*m, d.path("marker"));
        read_chars(d, id.chars);
        if (const json* w = d.get("whole_reference")) id.whole_reference = bool_of(*w, d.path("whole_reference"));
        h.id = std::move(id);
    }
    if (const json* v = f.get("end")) h.end = spellings_of(*v, f.path("end"));
    return h;
}

DeclaredSyntax::Arguments read_arguments(const json& j, const std::string& path) {
    const Fields f(j, path, {"style", "parameter", "on_unexpected", "one_a_line", "object_first"});
    DeclaredSyntax::Arguments a;
    if (const json* v = f.get("style"))
        a.style = choice_of<DeclaredSyntax::Style>(*v, f.path("style"), "style",
                                                   {{"json", DeclaredSyntax::Style::json},
                                                    {"parameters", DeclaredSyntax::Style::parameters},
                                                    {"key_value", DeclaredSyntax::Style::key_value},
                                                    {"pythonic", DeclaredSyntax::Style::pythonic}});
    const bool params = a.style == DeclaredSyntax::Style::parameters || a.style == DeclaredSyntax::Style::key_value;
    const char* only_named = "only with style \"parameters\" or \"key_value\"";
    if (const json* v = f.get("on_unexpected")) {
        if (!params) fail(f.path("on_unexpected"), only_named);
        a.reject_unexpected =
            choice_of<bool>(*v, f.path("on_unexpected"), "value", {{"decline", false}, {"reject", true}});
    }
    if (const json* v = f.get("one_a_line")) {
        if (a.style != DeclaredSyntax::Style::json) fail(f.path("one_a_line"), "only with style \"json\"");
        a.one_a_line = bool_of(*v, f.path("one_a_line"));
    }
    if (const json* v = f.get("object_first")) {
        if (a.style != DeclaredSyntax::Style::json) fail(f.path("object_first"), "only with style \"json\"");
        a.object_first = bool_of(*v, f.path("object_first"));
    }
    if (const json* v = f.get("parameter")) {
        if (!params) fail(f.path("parameter"), only_named);
        const Fields p(*v, f.path("parameter"),
                       {"open", "key_end", "key_attribute", "value_open", "close", "key", "newlines"});
        DeclaredSyntax::Parameter& out = a.parameter;
        if (a.style == DeclaredSyntax::Style::parameters) out.open = spellings_of(p.need("open"), p.path("open"));
        else if (const json* o = p.get("open")) out.open = spellings_of(*o, p.path("open"));
        if (const json* k = p.get("key_end")) out.key_end = spellings_of(*k, p.path("key_end"));
        if (const json* k = p.get("key_attribute")) out.key_attribute = string_of(*k, p.path("key_attribute"));
        if (const json* k = p.get("value_open")) out.value_open = spellings_of(*k, p.path("value_open"));
        out.close = spellings_of(p.need("close"), p.path("close"));
        if (const json* k = p.get("key")) read_chars(Fields(*k, p.path("key"), {"stop_chars", "chars", "first_chars"}), out.key);
        if (const json* n = p.get("newlines")) {
            if (a.style != DeclaredSyntax::Style::parameters) fail(p.path("newlines"), "only with style \"parameters\"");
            out.newlines = choice_of<DeclaredSyntax::Newlines>(
                *n, p.path("newlines"), "value",
                {{"layout", DeclaredSyntax::Newlines::layout},
                 {"kept", DeclaredSyntax::Newlines::kept},
                 {"stripped", DeclaredSyntax::Newlines::stripped}});
        }
    } else if (params) {
        f.need("parameter");
    }
    return a;
}

// Bounds on a record's lists: real families give a handful.
constexpr std::size_t max_record_entries = 64;

const json& record_list(const json& v, const std::string& path, std::size_t most) {
    if (!v.is_array()) wrong_type(path, "a list of objects", v);
    if (v.size() > most) fail(path, "more than " + std::to_string(most) + " entries");
    return v;
}

DeclaredSyntax read_syntax(const json& j) {
    const Fields f(j, "syntax", {"section", "call", "header", "arguments", "instruction", "render", "blocks"});
    DeclaredSyntax s;
    if (const json* v = f.get("section")) {
        const Fields sec(*v, f.path("section"), {"open", "close", "required"});
        DeclaredSyntax::Section section;
        section.open = spellings_of(sec.need("open"), sec.path("open"));
        section.close = spellings_of(sec.need("close"), sec.path("close"));
        if (const json* r = sec.get("required")) section.required = bool_of(*r, sec.path("required"));
        s.section = std::move(section);
    }
    const Fields call(f.need("call"), f.path("call"), {"open", "close", "open_optional", "close_optional"});
    s.call.open = spellings_of(call.need("open"), call.path("open"));
    if (const json* v = call.get("close")) s.call.close = spellings_of(*v, call.path("close"));
    if (const json* v = call.get("open_optional")) s.call.open_optional = bool_of(*v, call.path("open_optional"));
    if (const json* v = call.get("close_optional")) s.call.close_optional = bool_of(*v, call.path("close_optional"));
    if (const json* v = f.get("header")) s.header = read_header(*v, f.path("header"));
    if (const json* v = f.get("arguments")) s.arguments = read_arguments(*v, f.path("arguments"));
    if (const json* v = f.get("instruction")) s.instruction = string_of(*v, f.path("instruction"));
    if (const json* v = f.get("blocks")) {
        const json& list = record_list(*v, f.path("blocks"), max_record_entries);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Fields b(list[i], f.path("blocks") + "[" + std::to_string(i) + "]", {"open", "close"});
            DeclaredSyntax::Block block{marker_of(b.need("open"), b.path("open")), marker_of(b.need("close"), b.path("close"))};
            if (block.open.empty()) fail(b.path("open"), "empty string");
            if (block.close.empty()) fail(b.path("close"), "empty string");
            s.blocks.push_back(std::move(block));
        }
    }
    if (const json* v = f.get("render")) {
        const Fields r(*v, f.path("render"), {"each", "all", "between", "arguments_key"});
        DeclaredSyntax::Render render;
        if (const json* x = r.get("each")) render.each = string_of(*x, r.path("each"));
        if (const json* x = r.get("all")) render.all = string_of(*x, r.path("all"));
        if (const json* x = r.get("between")) render.between = string_of(*x, r.path("between"));
        if (const json* x = r.get("arguments_key")) render.arguments_key = string_of(*x, r.path("arguments_key"));
        s.render = std::move(render);
    }
    return s;
}

void read_settings(const json& j, Settings& s) {
    const Fields f(j, "settings",
                   {"reasoning", "reasoning_start", "reasoning_format", "accept_calls_in_reasoning", "reasoning_ends_at_call",
                    "accept_healed_calls", "content_markers", "intent_markers", "tool_required",
                    "fallback_max_bytes", "tag_open", "tag_close", "limits"});
    if (const json* v = f.get("reasoning")) {
        const std::string path = f.path("reasoning");
        if (!v->is_array()) wrong_type(path, "a list of {\"open\", \"close\"} objects", *v);
        s.reasoning.clear();
        for (std::size_t i = 0; i < v->size(); ++i) {
            const Fields d((*v)[i], path + "[" + std::to_string(i) + "]", {"open", "close", "implicit_open"});
            Delimiters delimiters;
            delimiters.open = marker_of(d.need("open"), d.path("open"));
            delimiters.close = marker_of(d.need("close"), d.path("close"));
            if (delimiters.close.empty()) fail(d.path("close"), "empty string");
            if (const json* o = d.get("implicit_open")) delimiters.implicit_open = bool_of(*o, d.path("implicit_open"));
            // No opener: the output starts inside the block and the closer ends it (Apriel,
            // whose prompt opens reasoning in words no token marks).
            if (delimiters.open.empty() && !delimiters.implicit_open)
                fail(d.path("open"), "empty string: a block with no opener is one the output starts inside "
                                     "(implicit_open true)");
            s.reasoning.push_back(std::move(delimiters));
        }
    }
    if (const json* v = f.get("reasoning_start")) s.reasoning_start = reasoning_start_of(*v, f.path("reasoning_start"));
    if (const json* v = f.get("reasoning_format")) s.reasoning_format = reasoning_format_of(*v, f.path("reasoning_format"));
    if (const json* v = f.get("accept_calls_in_reasoning"))
        s.accept_calls_in_reasoning = bool_of(*v, f.path("accept_calls_in_reasoning"));
    if (const json* v = f.get("reasoning_ends_at_call"))
        s.reasoning_ends_at_call = bool_of(*v, f.path("reasoning_ends_at_call"));
    if (const json* v = f.get("accept_healed_calls")) s.accept_healed_calls = bool_of(*v, f.path("accept_healed_calls"));
    if (const json* v = f.get("content_markers")) s.content_markers = markers_of(*v, f.path("content_markers"));
    if (const json* v = f.get("intent_markers")) s.intent_markers = markers_of(*v, f.path("intent_markers"));
    if (const json* v = f.get("tool_required")) s.tool_required = bool_of(*v, f.path("tool_required"));
    if (const json* v = f.get("fallback_max_bytes")) s.fallback_max_bytes = size_of(*v, f.path("fallback_max_bytes"));
    for (const char* tag : {"tag_open", "tag_close"}) {
        const json* v = f.get(tag);
        if (!v) continue;
        std::string& target = std::string(tag) == "tag_open" ? s.tag_open : s.tag_close;
        target = marker_of(*v, f.path(tag));
        if (target.empty()) fail(f.path(tag), "empty string");
    }
    if (const json* v = f.get("limits")) {
        const Fields l(*v, f.path("limits"), {"max_depth", "max_candidate_bytes", "max_candidates", "max_input_bytes"});
        if (const json* x = l.get("max_depth")) {
            s.limits.max_depth = size_of(*x, l.path("max_depth"));
            // Refused at load, not first when a Parser is built, so the message names the field.
            if (s.limits.max_depth > Limits::max_depth_ceiling)
                fail(l.path("max_depth"), std::to_string(s.limits.max_depth) + " is above the ceiling of " +
                                              std::to_string(Limits::max_depth_ceiling) +
                                              ", the deepest nesting the stack is known to survive");
        }
        if (const json* x = l.get("max_candidate_bytes")) s.limits.max_candidate_bytes = size_of(*x, l.path("max_candidate_bytes"));
        if (const json* x = l.get("max_candidates")) s.limits.max_candidates = size_of(*x, l.path("max_candidates"));
        if (const json* x = l.get("max_input_bytes")) s.limits.max_input_bytes = size_of(*x, l.path("max_input_bytes"));
    }
}

// ---------------------------------------------------------------------------------------
// Layer two: does the syntax make sense?

void check_spellings(const std::string& path, const Spelling& list, bool required) {
    if (list.empty()) {
        if (required) fail(path, "empty: at least one spelling is required");
        return;
    }
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i].empty()) fail(place(path, list, i), "empty string");
    // Spellings are tried in order: one after a prefix of itself is never reached.
    for (std::size_t j = 1; j < list.size(); ++j)
        for (std::size_t i = 0; i < j; ++i)
            if (list[j].rfind(list[i], 0) == 0)
                fail(place(path, list, j),
                     shown(list[j]) + " can never match: " + place(path, list, i) + " (" + shown(list[i]) +
                         (list[i] == list[j] ? ") is the same and comes first" : ") is a prefix of it and comes first"));
}

// No spelling of one token may be a spelling of another where the two could stand at
// the same place.
void check_differ(const std::string& path_a, const Spelling& a, const std::string& path_b, const Spelling& b,
                  const std::string& why) {
    for (std::size_t j = 0; j < b.size(); ++j)
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] == b[j])
                fail(place(path_b, b, j), "the same as " + place(path_a, a, i) + " (" + shown(a[i]) + "): " + why);
}

void check_chars(const std::string& path, const DeclaredSyntax::Chars& c) {
    if (!c.stop_chars.empty() && !c.chars.empty()) fail(path, "give stop_chars or chars, not both");
    if (!c.first_chars.empty() && c.chars.empty()) fail(path + ".first_chars", "only with chars");
    for (const auto& [field, value] : {std::pair<const char*, const std::string*>{"stop_chars", &c.stop_chars},
                                       {"chars", &c.chars},
                                       {"first_chars", &c.first_chars}}) {
        for (std::size_t i = 0; i < value->size(); ++i) {
            const auto byte = static_cast<unsigned char>((*value)[i]);
            if (byte >= 0x80) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02X", byte);
                fail(path + "." + field, std::string("only ASCII characters can be listed, got byte ") + hex);
            }
            if (std::string(field) != "stop_chars" && i + 2 < value->size() && (*value)[i + 1] == '-') {
                if ((*value)[i] > (*value)[i + 2])
                    fail(path + "." + field, "range " + shown(value->substr(i, 3)) + " runs backwards");
                i += 2;
            }
        }
    }
}

// A word (name, id, key) is read greedily: the token after it must not begin with a byte
// the word may hold, or every such word would run into the token and never end.
void check_word_ends(const std::string& word_path, const char* word, const detail::CharClass& chars,
                     const std::string& token_path, const Spelling& token) {
    for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i].empty()) continue;
        const auto first = static_cast<unsigned char>(token[i][0]);
        if (!chars.rest[first]) continue;
        fail(word_path, "its characters include " + shown(token[i].substr(0, 1)) + ", the first character of " +
                            place(token_path, token, i) + " (" + shown(token[i]) + "), so " + word +
                            " would run into it: leave it out of chars, or add it to stop_chars");
    }
}

bool is_attribute_name(std::string_view s) {
    auto start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
    auto rest = [&](char c) { return start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == ':'; };
    return !s.empty() && start(s[0]) && std::all_of(s.begin() + 1, s.end(), rest);
}

}  // namespace

void check_declared_syntax(const DeclaredSyntax& s) {
    const bool key_value = s.arguments.style == DeclaredSyntax::Style::key_value;
    const bool pythonic = s.arguments.style == DeclaredSyntax::Style::pythonic;
    const bool params = s.arguments.style == DeclaredSyntax::Style::parameters || key_value;
    if (pythonic && s.section) fail("syntax.section", "not with style \"pythonic\": the call markers wrap the list of calls");
    if (pythonic && s.header) fail("syntax.header", "not with style \"pythonic\": a Python call names itself");
    const DeclaredSyntax::Parameter& p = s.arguments.parameter;

    if (s.section) {
        check_spellings("syntax.section.open", s.section->open, true);
        check_spellings("syntax.section.close", s.section->close, true);
        check_differ("syntax.section.open", s.section->open, "syntax.section.close", s.section->close,
                     "a section's end could not be told from the next section's start");
    }
    check_spellings("syntax.call.open", s.call.open, true);
    check_spellings("syntax.call.close", s.call.close, false);
    check_differ("syntax.call.open", s.call.open, "syntax.call.close", s.call.close,
                 "a call's end could not be told from the next call's start");
    if (s.section)
        check_differ("syntax.call.close", s.call.close, "syntax.section.close", s.section->close,
                     "a call's end could not be told from its section's end");
    if (s.call.open_optional && !s.section)
        fail("syntax.call.open_optional", "needs a syntax.section: a call may leave out its opener only inside a section");
    if (s.call.close_optional && (s.call.close.empty() || s.arguments.style != DeclaredSyntax::Style::json))
        fail("syntax.call.close_optional", "needs a syntax.call.close and JSON arguments: the payload ends the call, "
                                           "and the closer may follow it");
    if (s.arguments.object_first && s.header)
        fail("syntax.arguments.object_first", "not with a syntax.header: after a header the payload is the arguments");
    if (s.arguments.one_a_line && s.header)
        fail("syntax.arguments.one_a_line", "not with a syntax.header: after a header the one object is the arguments");
    if (s.render) {
        const DeclaredSyntax::Render& r = *s.render;
        if (s.arguments.style != DeclaredSyntax::Style::json || s.header)
            fail("syntax.render", "only for JSON call objects with no header, which name themselves");
        const auto holds_once = [](const std::string& text, std::string_view slot) {
            const std::size_t at = text.find(slot);
            return at != std::string::npos && text.find(slot, at + 1) == std::string::npos;
        };
        if (r.each.empty() == r.all.empty()) fail("syntax.render", "give one of each and all");
        if (!r.each.empty() && !holds_once(r.each, "{call}"))
            fail("syntax.render.each", "must hold \"{call}\" once, where each call object is written");
        if (!r.all.empty() && !holds_once(r.all, "{calls}"))
            fail("syntax.render.all", "must hold \"{calls}\" once, where the call objects are written");
        if (!r.between.empty() && r.each.empty()) fail("syntax.render.between", "only with each");
        if (r.arguments_key.empty()) fail("syntax.render.arguments_key", "empty string");
    }

    // The scanner looks for every opener at every byte: none may begin another.
    std::vector<std::pair<std::string, const Spelling*>> scanned;
    if (s.section) scanned.emplace_back("syntax.section.open", &s.section->open);
    if (!s.section || !s.section->required) scanned.emplace_back("syntax.call.open", &s.call.open);
    for (std::size_t x = 0; x < scanned.size(); ++x)
        for (std::size_t y = 0; y < scanned.size(); ++y) {
            if (x == y) continue;
            const auto& [path_a, a] = scanned[x];
            const auto& [path_b, b] = scanned[y];
            for (std::size_t i = 0; i < a->size(); ++i)
                for (std::size_t j = 0; j < b->size(); ++j)
                    if ((*b)[j].rfind((*a)[i], 0) == 0)
                        fail(place(path_b, *b, j), shown((*b)[j]) + " starts with " + place(path_a, *a, i) + " (" +
                                                       shown((*a)[i]) +
                                                       "): the scanner could not tell which of the two opens a block");
        }

    if (s.header) {
        const DeclaredSyntax::Header& h = *s.header;
        const bool attribute = !h.name.attribute.empty();
        check_spellings("syntax.header.name.prefix", h.name.prefix, false);
        check_chars("syntax.header.name", h.name.chars);
        check_spellings("syntax.header.end", h.end, false);
        if (attribute) {
            if (!is_attribute_name(h.name.attribute))
                fail("syntax.header.name.attribute", shown(h.name.attribute) + " is not an attribute name");
            const char* why = "not with syntax.header.name.attribute: the opening tag's '>' ends the header";
            if (!h.end.empty()) fail("syntax.header.end", why);
            if (h.id) fail("syntax.header.id", why);
            if (!h.name.prefix.empty()) fail("syntax.header.name.prefix", why);
            if (!h.name.chars.stop_chars.empty() || !h.name.chars.chars.empty()) fail("syntax.header.name", why);
            if (h.optional) fail("syntax.header.optional", why);
        }
        if (h.optional && params)
            fail("syntax.header.optional", "only JSON arguments can do without the header (the payload then names the call)");
        if (!attribute && h.end.empty() && !params)
            fail("syntax.header.end", "missing: JSON arguments need the token that ends the header");
        if (!attribute && h.end.empty() && key_value)
            fail("syntax.header.end", "missing: key_value arguments need the token that ends the header");
        if (h.id) {
            const DeclaredSyntax::Id& id = *h.id;
            if (id.after_name.empty() && id.marker.empty()) fail("syntax.header.id", "give after_name or marker");
            if (!id.after_name.empty() && !id.marker.empty()) fail("syntax.header.id", "give after_name or marker, not both");
            check_spellings("syntax.header.id.after_name", id.after_name, false);
            check_spellings("syntax.header.id.marker", id.marker, false);
            check_chars("syntax.header.id", id.chars);
            check_word_ends("syntax.header.id", "an id", detail::id_chars(s), "syntax.header.end", h.end);
        }
        if (!attribute) {
            const detail::CharClass name = detail::name_chars(s);
            check_word_ends("syntax.header.name", "a name", name, "syntax.header.end", h.end);
            if (h.id) {
                check_word_ends("syntax.header.name", "a name", name, "syntax.header.id.after_name", h.id->after_name);
                check_word_ends("syntax.header.name", "a name", name, "syntax.header.id.marker", h.id->marker);
            }
            if (h.end.empty()) {
                check_word_ends("syntax.header.name", "a name", name, "syntax.arguments.parameter.open", p.open);
                check_word_ends("syntax.header.name", "a name", name, "syntax.call.close", s.call.close);
            }
        }
    }

    if (key_value) {
        const char* why = "not with style \"key_value\": a pair is KEY KEY_END value SEPARATOR (use style \"parameters\")";
        if (!p.open.empty()) fail("syntax.arguments.parameter.open", why);
        if (!p.key_attribute.empty()) fail("syntax.arguments.parameter.key_attribute", why);
        if (!p.value_open.empty()) fail("syntax.arguments.parameter.value_open", why);
        if (p.key_end.empty()) fail("syntax.arguments.parameter.key_end", "missing (required): the token between a key and its value");
    }
    if (params) {
        const std::string style = key_value ? "key_value" : "parameters";
        if (!s.header) fail("syntax.header", "missing: with " + style + ", the header must name the call");
        if (s.call.close.empty()) fail("syntax.call.close", "missing: with " + style + ", a call needs its closer");
        check_spellings("syntax.arguments.parameter.open", p.open, !key_value);
        check_spellings("syntax.arguments.parameter.close", p.close, true);
        check_spellings("syntax.arguments.parameter.key_end", p.key_end, false);
        check_spellings("syntax.arguments.parameter.value_open", p.value_open, false);
        if (p.key_end.empty() == p.key_attribute.empty())
            fail("syntax.arguments.parameter", p.key_end.empty() ? "give key_end or key_attribute"
                                                                 : "give key_end or key_attribute, not both");
        if (!p.key_attribute.empty() && !is_attribute_name(p.key_attribute))
            fail("syntax.arguments.parameter.key_attribute", shown(p.key_attribute) + " is not an attribute name");
        check_chars("syntax.arguments.parameter.key", p.key);
        check_word_ends("syntax.arguments.parameter.key", "a key", detail::key_chars(s),
                        "syntax.arguments.parameter.key_end", p.key_end);
        check_differ("syntax.arguments.parameter.open", p.open, "syntax.arguments.parameter.close", p.close,
                     "a parameter's end could not be told from the next one's start");
        check_differ("syntax.call.close", s.call.close, "syntax.arguments.parameter.close", p.close,
                     "a parameter's end could not be told from its call's end");
        check_differ("syntax.call.open", s.call.open, "syntax.arguments.parameter.open", p.open,
                     "a parameter could not be told from the next call");
        check_differ("syntax.call.close", s.call.close, "syntax.arguments.parameter.open", p.open,
                     "a parameter could not be told from its call's end");
    } else {
        const char* why = "only with style \"parameters\" or \"key_value\"";
        if (!p.open.empty() || !p.close.empty() || !p.key_end.empty() || !p.value_open.empty() ||
            !p.key_attribute.empty())
            fail("syntax.arguments.parameter", why);
        if (s.arguments.reject_unexpected) fail("syntax.arguments.on_unexpected", why);
    }
}

namespace detail {

// Reasoning is found before calls, and a call that begins inside a reasoning block is a
// draft, never accepted. A delimiter written *inside* a call read whole is masked (the
// call's text), but one at a call's first byte is not: if the opener that starts every
// call begins with a reasoning delimiter, every call opens a reasoning block (an opener)
// or ends one there (a closer: always with reasoning_start inside), and no call is read.
// Those are refused. Other meetings were tried and read every call (a delimiter inside
// an opener, in a header or parameter token; a content or intent marker equal to any
// token, since those only leave the content): they load.
namespace {

// `what`: what the token starts or ends ("where every call begins").
void check_tokens_against_reasoning(const std::vector<std::pair<std::string, std::string>>& tokens,
                                    const Settings& settings, bool reasoning_from_file,
                                    const char* open_effect, const char* close_effect) {
    for (std::size_t i = 0; i < settings.reasoning.size(); ++i) {
        const Delimiters& d = settings.reasoning[i];
        for (const auto& [field, delimiter, effect] :
             {std::tuple<const char*, const std::string*, const char*>{"open", &d.open, open_effect},
              {"close", &d.close, close_effect}}) {
            if (delimiter->empty()) continue;
            const std::string where = "settings.reasoning[" + std::to_string(i) + "]." + field + " (" +
                                      shown(*delimiter) +
                                      (reasoning_from_file ? ")" : ", the default list: the file sets no reasoning)");
            for (const auto& [path, token] : tokens)
                if (token.rfind(*delimiter, 0) == 0) fail(path, shown(token) + " starts with " + where + effect);
        }
    }
}

}  // namespace

void check_openers_against_reasoning(const std::vector<std::pair<std::string, std::string>>& openers,
                                     const Settings& settings, bool reasoning_from_file) {
    check_tokens_against_reasoning(openers, settings, reasoning_from_file,
                                   ": a reasoning block would open where every call begins, so no call could be read",
                                   ": a reasoning block would close where every call begins, so no call could be read");
}

// A closer is no safer: the delimiter is then read where every call (or section) ends.
// A closer that closes reasoning ends a block there whenever the call itself is not read
// whole (a broken call, or reasoning_start inside, where the output's first closer is
// taken as the reasoning's end): the text before it, later calls included, becomes
// reasoning. One that opens reasoning opens a block after every call, and the calls
// after it are drafts. Either way every call after the first is lost: refused.
void check_closers_against_reasoning(const std::vector<std::pair<std::string, std::string>>& closers,
                                     const Settings& settings, bool reasoning_from_file) {
    check_tokens_against_reasoning(
        closers, settings, reasoning_from_file,
        ": a reasoning block would open where every call ends, so the calls after it would be read as reasoning",
        ": a reasoning block would close where every call ends, so the calls before it could be read as reasoning");
}

std::vector<std::pair<std::string, std::string>> scanned_closers(const DeclaredSyntax& s) {
    std::vector<std::pair<std::string, std::string>> out;
    const auto add = [&](const std::string& path, const Spelling& list) {
        for (std::size_t i = 0; i < list.size(); ++i) out.emplace_back(place(path, list, i), list[i]);
    };
    add("syntax.call.close", s.call.close);
    if (s.section) add("syntax.section.close", s.section->close);
    return out;
}

std::vector<std::pair<std::string, std::string>> scanned_openers(const DeclaredSyntax& s) {
    std::vector<std::pair<std::string, std::string>> out;
    const auto add = [&](const std::string& path, const Spelling& list) {
        for (std::size_t i = 0; i < list.size(); ++i) out.emplace_back(place(path, list, i), list[i]);
    };
    if (s.section) add("syntax.section.open", s.section->open);
    if (!s.section || !s.section->required) add("syntax.call.open", s.call.open);
    return out;
}

}  // namespace detail

namespace {

// One of detail::engine_names, the engines whose parser names a record may give.
std::string engine_of(const json& v, const std::string& path) {
    const std::string e = string_of(v, path);
    std::string known;
    for (std::string_view k : detail::engine_names) {
        if (e == k) return e;
        known += (known.empty() ? "" : ", ") + std::string(k);
    }
    fail(path, "unknown engine " + shown(e) + " (known: " + known + ")");
}

// A signature's lists have the bounds of a record's (TemplateSignature's fixed arrays).
std::vector<std::string> signature_markers(const json& v, const std::string& path, std::size_t most) {
    std::vector<std::string> out = markers_of(v, path);
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].empty()) fail(path + "[" + std::to_string(i) + "]", "empty string");
    if (out.size() > most) fail(path, "more than " + std::to_string(most) + " markers");
    return out;
}

// `engines` and `template_signatures`: what a shipped file says of its family.
detail::FileRecord read_record(const Fields& f, const std::string& profile) {
    detail::FileRecord r;
    if (const json* v = f.get("engines")) {
        const json& list = record_list(*v, "engines", max_record_entries);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Fields e(list[i], "engines[" + std::to_string(i) + "]", {"engine", "name", "models"});
            ProfileAlias a;
            a.engine = engine_of(e.need("engine"), e.path("engine"));
            a.name = string_of(e.need("name"), e.path("name"));
            if (a.name.empty()) fail(e.path("name"), "empty string");
            a.profile = profile;
            if (const json* m = e.get("models")) a.models = string_of(*m, e.path("models"));
            r.engines.push_back(std::move(a));
        }
    }
    if (const json* v = f.get("template_signatures")) {
        const json& list = record_list(*v, "template_signatures", max_record_entries);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Fields t(list[i], "template_signatures[" + std::to_string(i) + "]",
                           {"family", "all", "none", "engines", "note"});
            detail::FileSignature sig;
            sig.family = string_of(t.need("family"), t.path("family"));
            using Bound = detail::TemplateSignature;
            sig.all = signature_markers(t.need("all"), t.path("all"), std::extent_v<decltype(Bound::all)>);
            if (sig.all.empty()) fail(t.path("all"), "empty list: a signature needs a marker the template writes");
            if (const json* n = t.get("none"))
                sig.none = signature_markers(*n, t.path("none"), std::extent_v<decltype(Bound::none)>);
            if (const json* n = t.get("engines")) {
                const json& engines = record_list(*n, t.path("engines"), std::extent_v<decltype(Bound::engines)>);
                for (std::size_t k = 0; k < engines.size(); ++k) {
                    const Fields e(engines[k], t.path("engines") + "[" + std::to_string(k) + "]", {"engine", "name"});
                    std::string name = string_of(e.need("name"), e.path("name"));
                    if (name.empty()) fail(e.path("name"), "empty string");
                    sig.engines.emplace_back(engine_of(e.need("engine"), e.path("engine")), std::move(name));
                }
            }
            if (const json* n = t.get("note")) sig.note = string_of(*n, t.path("note"));
            r.signatures.push_back(std::move(sig));
        }
    }
    return r;
}

// A grammar name in `grammars` or `fallbacks`: known, not the file's own, not twice.
void check_grammar_name(const std::vector<std::string>& names, std::size_t i, const std::string& where,
                        const std::vector<GrammarUse>& before) {
    if (names[i] == "declared") fail(where, "\"declared\" is the file's own syntax, the primary grammar");
    if (!detail::find_grammar(names[i])) {
        std::string known;
        for (const auto* g : detail::all_grammars())
            if (g->name != "declared") known += (known.empty() ? "" : ", ") + std::string(g->name);
        fail(where, "unknown grammar " + shown(names[i]) + " (known: " + known + ")");
    }
    for (const GrammarUse& g : before)
        if (g.grammar == names[i]) fail(where, shown(names[i]) + " is listed twice");
}

Profile read_profile(const json& file, detail::FileRecord* record) {
    const Fields f(file, "", {"name", "description", "models", "syntax", "grammars", "settings", "fallbacks", "notes",
                              "engines", "template_signatures"});
    Profile p;
    p.name = string_of(f.need("name"), "name");
    if (p.name.empty()) fail("name", "empty string");
    if (const json* v = f.get("description")) p.description = string_of(*v, "description");
    if (const json* v = f.get("models")) p.models = string_of(*v, "models");
    if (const json* v = f.get("notes"); v && !v->is_string()) strings_of(*v, "notes");  // for people; only checked
    // No syntax: a profile reading built-in grammars under its own settings (`grammars`).
    const bool has_syntax = f.get("syntax") || !f.get("grammars");
    std::shared_ptr<DeclaredSyntax> syntax;
    if (has_syntax) {
        syntax = std::make_shared<DeclaredSyntax>(read_syntax(f.need("syntax")));
        check_declared_syntax(*syntax);
    }
    const json* settings = f.get("settings");
    if (settings) read_settings(*settings, p.settings);
    const bool reasoning_given = settings && settings->is_object() && settings->contains("reasoning");
    std::vector<std::pair<std::string, std::string>> openers;
    if (syntax) {
        openers = detail::scanned_openers(*syntax);
        p.settings.declared_syntax = std::move(syntax);
        p.grammars.push_back({"declared", Role::primary});
    } else if (strings_of(*f.get("grammars"), "grammars").empty()) {
        fail("grammars", "empty list: with no syntax, the profile reads with these grammars");
    }
    // Built-in grammars the profile reads with too: primaries after the file's syntax
    // (`grammars`), then gated fallbacks. A grammar's markers meet reasoning as the
    // syntax's openers do.
    for (const auto& [field, role] : {std::pair{"grammars", Role::primary}, std::pair{"fallbacks", Role::fallback}}) {
        const json* v = f.get(field);
        if (!v) continue;
        const std::vector<std::string> names = strings_of(*v, field);
        for (std::size_t i = 0; i < names.size(); ++i) {
            const std::string where = std::string(field) + "[" + std::to_string(i) + "]";
            check_grammar_name(names, i, where, p.grammars);
            p.grammars.push_back({names[i], role});
            if (const detail::GrammarDef* g = detail::find_grammar(names[i]); g->markers)
                for (const std::string& m : g->markers(p.settings))
                    openers.emplace_back(where + " (" + shown(names[i]) + ", marker " + shown(m) + ")", m);
        }
    }
    detail::FileRecord read = read_record(f, p.name);
    if (record) *record = std::move(read);
    detail::check_openers_against_reasoning(openers, p.settings, reasoning_given);
    if (p.settings.declared_syntax)
        detail::check_closers_against_reasoning(detail::scanned_closers(*p.settings.declared_syntax), p.settings,
                                                reasoning_given);
    return p;
}

}  // namespace

Profile profile_from_json(const json& file) { return read_profile(file, nullptr); }

namespace {

Profile read_profile_file_text(std::string_view text, const std::string& path, detail::FileRecord* record) {
    // Read with the bounded document reader: a key given twice is a field set twice with
    // no telling which counts, so it is refused with the field's path, as the checks in
    // profile_from_json name theirs.
    detail::DocumentRead file = detail::read_json_document(text);
    if (file.error) {
        if (file.error->kind == detail::DocumentError::Kind::repeated_key)
            throw std::invalid_argument(path + ": " + file.error->where + ": given twice in the same object");
        throw std::invalid_argument(path + ": " + file.error->message);
    }
    try {
        return read_profile(file.value, record);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

}  // namespace

Profile profile_from_file_text(std::string_view text, const std::string& path) {
    return read_profile_file_text(text, path, nullptr);
}

namespace detail {
Profile profile_from_file_text(std::string_view text, const std::string& path, FileRecord& record) {
    return read_profile_file_text(text, path, &record);
}
}  // namespace detail

void apply_input_settings(Profile& p, const json& settings) {
    Settings& s = p.settings;
    const Fields f(settings, "settings",
                   {"tool_required", "accept_calls_in_reasoning", "accept_healed_calls", "tag_open", "tag_close",
                    "fallback_max_bytes", "intent_markers", "reasoning_start", "reasoning_format"});
    if (const json* v = f.get("tool_required")) s.tool_required = bool_of(*v, f.path("tool_required"));
    if (const json* v = f.get("accept_calls_in_reasoning"))
        s.accept_calls_in_reasoning = bool_of(*v, f.path("accept_calls_in_reasoning"));
    if (const json* v = f.get("accept_healed_calls")) s.accept_healed_calls = bool_of(*v, f.path("accept_healed_calls"));
    for (const char* tag : {"tag_open", "tag_close"}) {
        const json* v = f.get(tag);
        if (!v) continue;
        std::string& target = std::string(tag) == "tag_open" ? s.tag_open : s.tag_close;
        target = marker_of(*v, f.path(tag));
        if (target.empty()) fail(f.path(tag), "empty string");
    }
    if (const json* v = f.get("fallback_max_bytes")) s.fallback_max_bytes = size_of(*v, f.path("fallback_max_bytes"));
    if (const json* v = f.get("intent_markers")) s.intent_markers = markers_of(*v, f.path("intent_markers"));
    if (const json* v = f.get("reasoning_start")) s.reasoning_start = reasoning_start_of(*v, f.path("reasoning_start"));
    if (const json* v = f.get("reasoning_format")) s.reasoning_format = reasoning_format_of(*v, f.path("reasoning_format"));
}

Profile load_profile_file(const std::string& path) {
    std::string text;
    try {
        text = detail::read_file(path, detail::document_limit(), detail::FileTypes::any_but_directory);
    } catch (const detail::ReadError& e) {
        throw std::invalid_argument(path + ": cannot read: " + e.reason);
    }
    return profile_from_file_text(text, path);
}

}  // namespace toolgram
