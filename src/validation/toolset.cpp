// Allow-list, name normalisation, schema compilation and typing (see toolset.hpp).
#include "validation/toolset.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "text/utf8.hpp"
#include "value/value_reader.hpp"

namespace toolgram::detail {

struct ToolSet::Entry {
    Tool tool;
    json schema;  // normalised (nullable as a type union): what text values are typed from
    schema::Schema compiled;
};

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string loose(std::string_view s) {
    std::string out;
    for (unsigned char c : s)
        if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
    return out;
}

}  // namespace

json normalise_schema(const json& schema) {
    if (schema.is_array()) {
        json out = json::array();
        for (const auto& s : schema) out.push_back(normalise_schema(s));
        return out;
    }
    if (!schema.is_object()) return schema;
    // Members are appended, not inserted: ordered_json's insert searches its keys linearly,
    // and the source's keys are already unique.
    auto append = [](json& object, const std::string& key, json value) {
        object.get_ref<json::object_t&>().emplace_back(key, std::move(value));
    };
    json out = json::object();
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        if (it.key() == "nullable") continue;
        if (it.key() == "properties" || it.key() == "definitions" || it.key() == "$defs" ||
            it.key() == "patternProperties") {
            json props = json::object();
            if (it->is_object())
                for (auto p = it->begin(); p != it->end(); ++p) append(props, p.key(), normalise_schema(*p));
            append(out, it.key(), std::move(props));
        } else if (it.key() == "items" || it.key() == "additionalProperties" || it.key() == "anyOf" ||
                   it.key() == "oneOf" || it.key() == "allOf" || it.key() == "not" || it.key() == "additionalItems") {
            append(out, it.key(), normalise_schema(*it));
        } else {
            append(out, it.key(), *it);
        }
    }
    if (auto n = schema.find("nullable"); n != schema.end() && n->is_boolean() && n->get<bool>()) {
        if (auto t = out.find("type"); t != out.end()) {
            if (t->is_string() && *t != "null") *t = json::array({*t, "null"});
            else if (t->is_array() && std::find(t->begin(), t->end(), json("null")) == t->end()) t->push_back("null");
        } else if (auto a = out.find("anyOf"); a != out.end() && a->is_array()) {
            a->push_back(json{{"type", "null"}});
        } else if (auto e = out.find("enum"); e != out.end() && e->is_array()) {
            e->push_back(nullptr);
        }
    }
    return out;
}

ToolSet::ToolSet(const std::vector<Tool>& tools) {
    for (const auto& t : tools) {
        if (t.name.empty()) throw std::invalid_argument("a tool has an empty name");
        for (const auto& e : entries_)
            if (e->tool.name == t.name) throw std::invalid_argument("tool \"" + t.name + "\" is declared twice");
        auto entry = std::make_unique<Entry>();
        static const json any_object = json::object();
        const json& params = t.parameters.is_null() ? any_object : t.parameters;  // a reference: no copy
        entry->compiled = schema::Schema::compile(params);
        // Too deep a schema is neither copied nor walked again: nlohmann's copies recurse.
        const bool bounded = schema::nesting_depth(params, schema::max_schema_nesting) <= schema::max_schema_nesting;
        entry->tool.name = t.name;
        entry->tool.description = t.description;
        if (bounded) entry->tool.parameters = t.parameters;
        if (entry->compiled.usable()) {
            entry->schema = normalise_schema(params);
        } else {
            entry->schema = json::object();
            problems_.push_back({t.name, entry->compiled.error()});
        }
        entries_.push_back(std::move(entry));
    }
}

ToolSet::~ToolSet() = default;
ToolSet::ToolSet(ToolSet&&) noexcept = default;
ToolSet& ToolSet::operator=(ToolSet&&) noexcept = default;

const Tool& ToolSet::tool(int index) const { return entries_[static_cast<std::size_t>(index)]->tool; }
const json& ToolSet::schema(int index) const { return entries_[static_cast<std::size_t>(index)]->schema; }

ToolSet::Resolution ToolSet::resolve(std::string_view raw, bool qualified) const {
    Resolution r;
    if (raw.empty()) {
        r.error = "empty tool name";
        r.code = RejectionCode::empty_name;
        return r;
    }
    auto unique = [&](auto&& match, const char* how) -> bool {
        int found = -1;
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            if (!match(entries_[i]->tool.name)) continue;
            if (found >= 0) {
                r.error = "tool name \"" + excerpt(raw) + "\" is ambiguous (" + how + " match for \"" +
                          excerpt(entries_[static_cast<std::size_t>(found)]->tool.name) + "\" and \"" +
                          excerpt(entries_[i]->tool.name) + "\")";
                r.index = -1;
                r.code = RejectionCode::ambiguous_tool;
                return true;
            }
            found = static_cast<int>(i);
        }
        if (found >= 0) {
            r.index = found;
            r.how = how;
            return true;
        }
        return false;
    };
    if (unique([&](const std::string& n) { return n == raw; }, "exact")) return r;
    const std::string low = lower(raw);
    if (unique([&](const std::string& n) { return lower(n) == low; }, "case")) return r;
    if (qualified) {
        r.error = "unknown tool \"" + excerpt(raw) + "\" (a built-in recipient: only a tool declared under this "
                  "exact name takes its calls)";
        r.code = RejectionCode::unknown_tool;
        return r;
    }
    const std::size_t cut = raw.find_last_of(".:");
    if (cut != std::string_view::npos && cut + 1 < raw.size()) {
        const std::string_view tail = raw.substr(cut + 1);
        const std::string low_tail = lower(tail);
        if (unique([&](const std::string& n) { return n == tail || lower(n) == low_tail; }, "namespace")) return r;
    }
    const std::string l = loose(raw);
    if (!l.empty() && unique([&](const std::string& n) { return loose(n) == l; }, "loose")) return r;
    r.error = "unknown tool \"" + excerpt(raw) + "\"";
    r.code = RejectionCode::unknown_tool;
    return r;
}

bool ToolSet::usable(int index) const { return entries_[static_cast<std::size_t>(index)]->compiled.usable(); }

const std::string& ToolSet::schema_error(int index) const {
    return entries_[static_cast<std::size_t>(index)]->compiled.error();
}

ToolSet::Verdict ToolSet::validate(int index, const json& arguments, bool strict) const {
    return entries_[static_cast<std::size_t>(index)]->compiled.validate(
        arguments, strict ? schema::Undeclared::refused_at_top : schema::Undeclared::as_schema_says);
}

namespace {

// Typing a text value reads views of it: a long text (a file's content for a string
// parameter) is neither copied nor case-folded only to learn it is not `null`.
std::string_view trimmed(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

std::string trim(std::string_view s) { return std::string(trimmed(s)); }

// `t` is `word` (lower case) in any ASCII case.
bool is_word(std::string_view t, std::string_view word) {
    if (t.size() != word.size()) return false;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(t[i]);
        if ((c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c) != static_cast<unsigned char>(word[i])) return false;
    }
    return true;
}

bool parse_integer(std::string_view t, json& out) {
    if (t.empty()) return false;
    const char* b = t.data();
    const char* e = t.data() + t.size();
    if (*b == '+') ++b;
    if (*b == '-') {
        std::int64_t v = 0;
        auto [p, ec] = std::from_chars(b, e, v);
        if (ec != std::errc() || p != e) return false;
        out = v;
    } else {
        std::uint64_t v = 0;
        auto [p, ec] = std::from_chars(b, e, v);
        if (ec != std::errc() || p != e) return false;
        out = v;
    }
    return true;
}

bool parse_number(std::string_view t, json& out) {
    if (t.empty()) return false;
    if (parse_integer(t, out)) return true;
    // strtod also reads "inf", "nan" and hex floats; a schema number means a decimal. Checked
    // first, so only a number's few bytes are copied for strtod's terminator.
    for (char c : t)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'))
            return false;
    const std::string number(t);
    char* endp = nullptr;
    const double d = std::strtod(number.c_str(), &endp);
    if (endp != number.c_str() + number.size() || !std::isfinite(d)) return false;
    out = d;
    return true;
}

// Whether the text fits a type other than string (which every text fits, as written), and
// the value it then is.
bool fits(std::string_view text, const std::string& type, json& out, std::size_t max_depth, bool& too_deep) {
    const std::string_view t = trimmed(text);
    if (type == "integer") return parse_integer(t, out);
    if (type == "number") return parse_number(t, out);
    if (type == "boolean") {
        if (is_word(t, "true")) out = true;
        else if (is_word(t, "false")) out = false;
        else return false;
        return true;
    }
    if (type == "null") {
        if (is_word(t, "null") || is_word(t, "none") || t.empty()) {
            out = nullptr;
            return true;
        }
        return false;
    }
    if (type == "object" || type == "array") {
        const ValueRead r = read_value(t, 0, max_depth);
        if (!r.ok && r.failure.kind == Failure::too_deep) too_deep = true;
        // A repeated key (also two that became one as invalid UTF-8 was replaced) would be
        // resolved silently here: the text does not fit, and stays text.
        // So would a number with leading zeros, which only a string property may keep.
        if (!r.ok || r.healed || r.end != t.size() || (r.repairs & (repair_duplicate_key | repair_leading_zeros)))
            return false;
        if (type == "object" && !r.value.is_object()) return false;
        if (type == "array" && !r.value.is_array()) return false;
        out = r.value;
        return true;
    }
    return false;
}

// A local reference (`{"$ref": "#/$defs/Location"}`, as tools generated from Pydantic models
// write them) is followed within the tool's schema, a few hops at most (a cycle stops
// there): the text is typed by what it refers to, as the validator will judge it.
const json* local_target(const json& schema, const json* root) {
    if (!root || !schema.is_object()) return nullptr;
    const auto r = schema.find("$ref");
    if (r == schema.end() || !r->is_string()) return nullptr;
    const std::string& ref = r->get_ref<const std::string&>();
    if (ref.size() < 2 || ref[0] != '#' || ref[1] != '/') return nullptr;
    try {
        const json::json_pointer ptr(ref.substr(1));
        return root->contains(ptr) ? &(*root)[ptr] : nullptr;
    } catch (const json::exception&) {
        return nullptr;  // not a valid pointer: nothing to follow
    }
}

void collect_types(const json& schema, std::vector<std::string>& types, const json* root, int hops = 0) {
    if (!schema.is_object()) return;
    if (const json* target = local_target(schema, root); target && hops < 8 && schema.find("type") == schema.end()) {
        collect_types(*target, types, root, hops + 1);
        return;
    }
    if (auto t = schema.find("type"); t != schema.end()) {
        if (t->is_string()) types.push_back(t->get<std::string>());
        else if (t->is_array())
            for (const auto& x : *t)
                if (x.is_string()) types.push_back(x.get<std::string>());
    }
    for (const char* k : {"anyOf", "oneOf"}) {
        if (auto a = schema.find(k); a != schema.end() && a->is_array())
            for (const auto& sub : *a) collect_types(sub, types, root, hops + 1);
    }
    if (types.empty()) {
        if (auto e = schema.find("enum"); e != schema.end() && e->is_array() && !e->empty()) {
            const json& first = e->front();
            if (first.is_string()) types.push_back("string");
            else if (first.is_number_integer()) types.push_back("integer");
            else if (first.is_number()) types.push_back("number");
            else if (first.is_boolean()) types.push_back("boolean");
        }
        if (auto c = schema.find("const"); c != schema.end() && c->is_string()) types.push_back("string");
    }
}

// The text read once as the inside of a JSON string (or, written with its quotes, as that
// string), strictly: an escape JSON does not know, or a quote left unescaped inside, and it
// is not such a text. Nothing when there is nothing to undo.
std::optional<std::string> unescaped_once(const std::string& text) {
    const std::string t = trim(text);
    const bool quoted = t.size() >= 2 && t.front() == '"' && t.back() == '"';
    if (!quoted && t.find('\\') == std::string::npos) return std::nullopt;
    std::string literal;
    literal.reserve(t.size() + 2);
    if (!quoted) literal += '"';
    for (char c : t) {
        // A raw line break or tab is the value's own layout (JSON strings spell them escaped).
        if (c == '\n') literal += "\\n";
        else if (c == '\r') literal += "\\r";
        else if (c == '\t') literal += "\\t";
        else literal += c;
    }
    if (!quoted) literal += '"';
    const json v = json::parse(literal, nullptr, false);
    if (v.is_discarded() || !v.is_string()) return std::nullopt;
    return v.get<std::string>();
}

}  // namespace

json type_text_value(std::string text, const json* property_schema, const std::string& key,
                     std::vector<std::string>& notes, std::size_t max_depth, bool* too_deep, bool quoted,
                     bool escaped_json, const json* root) {
    if (!property_schema) {
        notes.push_back("parameter \"" + excerpt(key) + "\" is not in the schema; kept as text");
        return text;
    }
    std::vector<std::string> types;
    collect_types(*property_schema, types, root);
    if (types.empty()) return text;  // any type: the text is the value
    // "null" written for a nullable parameter means null, even when string comes first.
    const std::string_view t = trimmed(text);
    const bool null_word = is_word(t, "null") || is_word(t, "none");
    const bool nullable = std::find(types.begin(), types.end(), "null") != types.end();
    if (!quoted && null_word && nullable) return nullptr;
    bool deep = false;
    for (const auto& type : types) {
        if (type == "null") continue;
        if (type == "string") return text;  // as written, moved out
        json out;
        if (fits(text, type, out, max_depth, deep)) return out;
    }
    if (quoted && null_word && nullable) return nullptr;
    if (escaped_json)
        if (const auto once = unescaped_once(text))
            for (const auto& type : types) {
                if (type != "object" && type != "array") continue;
                json out;
                if (fits(*once, type, out, max_depth, deep)) {
                    notes.push_back("value_unescaped_once_more");
                    return out;
                }
            }
    if (deep && too_deep) *too_deep = true;
    notes.push_back("parameter \"" + excerpt(key) + "\" is not a valid " + types.front() + "; kept as text");
    return text;
}

}  // namespace toolgram::detail
