// Compiling a schema document into nodes (program.hpp), checking it on the way.
//
// Stages: (1) the document's nesting is bounded before anything recursive touches it;
// (2) identifiers ($id/id, $anchor) are indexed with the base URI in force at each schema,
// so `$ref` can be resolved within the document (remote references are refused: nothing is
// fetched); (3) nodes are built from a work list, never by recursion, so a chain of ten
// thousand $defs cannot overflow the stack; each keyword's value is checked and converted;
// (4) the graph of keywords that apply to the same value ($ref, allOf, anyOf, oneOf, not,
// if/then/else, dependentSchemas) must be acyclic and shallow, or validation would loop.
//
// Every error names the JSON pointer of the offending keyword ("#/properties/when/pattern")
// and what is wrong with it.
#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <re2/re2.h>

#include "text/ascii.hpp"
#include "text/utf8.hpp"
#include "validation/schema/numbers.hpp"
#include "validation/schema/pattern.hpp"
#include "validation/schema/program.hpp"
#include "validation/schema/schema.hpp"

namespace toolgram::detail::schema {

Pattern::Pattern() = default;
Pattern::Pattern(Pattern&&) noexcept = default;
Pattern& Pattern::operator=(Pattern&&) noexcept = default;
Pattern::~Pattern() = default;

Schema::Schema() = default;
Schema::~Schema() = default;
Schema::Schema(Schema&&) noexcept = default;
Schema& Schema::operator=(Schema&&) noexcept = default;

std::size_t nesting_depth(const json& value, std::size_t stop_at) {
    // (value, its depth) pairs still to look at.
    std::vector<std::pair<const json*, std::size_t>> todo{{&value, 0}};
    std::size_t deepest = 0;
    while (!todo.empty()) {
        const auto [v, depth] = todo.back();
        todo.pop_back();
        if (!v->is_structured()) continue;
        deepest = std::max(deepest, depth + 1);
        if (deepest > stop_at) return deepest;
        for (const auto& child : *v) todo.emplace_back(&child, depth + 1);
    }
    return deepest;
}

namespace {

// ---------------------------------------------------------------------------------------
// URIs, as far as $id and $ref need them (RFC 3986 section 5: resolving a reference).

struct Uri {
    std::string scheme, authority, path, query, fragment;
    bool has_scheme = false, has_authority = false, has_query = false, has_fragment = false;
};

Uri parse_uri(std::string_view s) {
    Uri u;
    if (const auto hash = s.find('#'); hash != std::string_view::npos) {
        u.has_fragment = true;
        u.fragment = s.substr(hash + 1);
        s = s.substr(0, hash);
    }
    if (const auto q = s.find('?'); q != std::string_view::npos) {
        u.has_query = true;
        u.query = s.substr(q + 1);
        s = s.substr(0, q);
    }
    const auto colon = s.find(':');
    const auto slash = s.find('/');
    if (colon != std::string_view::npos && colon > 0 && (slash == std::string_view::npos || colon < slash)) {
        u.has_scheme = true;
        u.scheme = s.substr(0, colon);
        s = s.substr(colon + 1);
    }
    if (s.substr(0, 2) == "//") {
        u.has_authority = true;
        const auto end = s.find('/', 2);
        u.authority = s.substr(2, end == std::string_view::npos ? std::string_view::npos : end - 2);
        s = end == std::string_view::npos ? std::string_view() : s.substr(end);
    }
    u.path = s;
    return u;
}

std::string remove_dot_segments(std::string_view in) {
    std::string out;
    while (!in.empty()) {
        if (in.substr(0, 3) == "../") in.remove_prefix(3);
        else if (in.substr(0, 2) == "./") in.remove_prefix(2);
        else if (in.substr(0, 3) == "/./") in.remove_prefix(2);
        else if (in == "/.") in = "/";
        else if (in.substr(0, 4) == "/../" || in == "/..") {
            in = in.size() == 3 ? std::string_view("/") : in.substr(3);
            const auto cut = out.rfind('/');
            out.erase(cut == std::string::npos ? 0 : cut);
        } else if (in == "." || in == "..") {
            in = {};
        } else {
            const auto next = in.find('/', in[0] == '/' ? 1 : 0);
            out.append(in.substr(0, next));
            in = next == std::string_view::npos ? std::string_view() : in.substr(next);
        }
    }
    return out;
}

std::string to_string(const Uri& u) {
    std::string s;
    if (u.has_scheme) s += u.scheme + ":";
    if (u.has_authority) s += "//" + u.authority;
    s += u.path;
    if (u.has_query) s += "?" + u.query;
    if (u.has_fragment) s += "#" + u.fragment;
    return s;
}

std::string resolve_uri(std::string_view base_text, std::string_view ref_text) {
    const Uri base = parse_uri(base_text), ref = parse_uri(ref_text);
    Uri t;
    if (ref.has_scheme) {
        t = ref;
        t.path = remove_dot_segments(ref.path);
    } else {
        if (ref.has_authority) {
            t.has_authority = true;
            t.authority = ref.authority;
            t.path = remove_dot_segments(ref.path);
            t.has_query = ref.has_query;
            t.query = ref.query;
        } else {
            if (ref.path.empty()) {
                t.path = base.path;
                t.has_query = ref.has_query || base.has_query;
                t.query = ref.has_query ? ref.query : base.query;
            } else {
                if (ref.path[0] == '/') {
                    t.path = remove_dot_segments(ref.path);
                } else {
                    std::string merged;
                    if (base.has_authority && base.path.empty()) merged = "/" + ref.path;
                    else {
                        const auto cut = base.path.rfind('/');
                        merged = (cut == std::string::npos ? std::string() : base.path.substr(0, cut + 1)) + ref.path;
                    }
                    t.path = remove_dot_segments(merged);
                }
                t.has_query = ref.has_query;
                t.query = ref.query;
            }
            t.has_authority = base.has_authority;
            t.authority = base.authority;
        }
        t.has_scheme = base.has_scheme;
        t.scheme = base.scheme;
    }
    t.has_fragment = ref.has_fragment;
    t.fragment = ref.fragment;
    return to_string(t);
}

std::pair<std::string, std::string> split_fragment(const std::string& uri) {
    const auto hash = uri.find('#');
    if (hash == std::string::npos) return {uri, ""};
    return {uri.substr(0, hash), uri.substr(hash + 1)};
}

// The base of a schema with no $id: what relative ids and refs resolve against.
constexpr std::string_view default_base = "toolgram:/schema.json";

std::string escape_token(std::string_view token) {
    std::string out;
    for (char c : token) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

std::string percent_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
            out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

// A schema value as an error quotes it: its JSON text, at most 60 bytes.
std::string schema_value_text(const json& v) {
    std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

Draft draft_named(const json& document, Draft fallback) {
    if (!document.is_object()) return fallback;
    const auto it = document.find("$schema");
    if (it == document.end() || !it->is_string()) return fallback;
    const std::string& s = it->get_ref<const std::string&>();
    if (s.find("draft-04") != std::string::npos) return Draft::draft4;
    if (s.find("draft-06") != std::string::npos) return Draft::draft6;
    if (s.find("draft-07") != std::string::npos) return Draft::draft7;
    if (s.find("2019-09") != std::string::npos) return Draft::draft2019_09;
    if (s.find("2020-12") != std::string::npos) return Draft::draft2020_12;
    return fallback;
}

// Keywords whose value is one schema, an array of schemas, or an object of schemas: where
// identifiers may stand and where a schema's children are.
constexpr std::string_view single_schema_keywords[] = {
    "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else",
    "items", "unevaluatedItems", "unevaluatedProperties", "contentSchema"};
constexpr std::string_view schema_array_keywords[] = {"allOf", "anyOf", "oneOf", "items", "prefixItems"};
constexpr std::string_view schema_map_keywords[] = {"properties", "patternProperties", "$defs", "definitions",
                                                    "dependentSchemas", "dependencies"};

// ---------------------------------------------------------------------------------------

class Compiler {
public:
    Compiler(const json& document, const CompileOptions& options) : document_(document) {
        program_.draft = draft_named(document, options.draft);
    }

    // The program, or null with error() set.
    std::shared_ptr<const Schema::Program> run() {
        if (!bounded_nesting()) return nullptr;
        index_identifiers();
        const std::string root_base = base_of_.count(&document_) ? base_of_[&document_] : std::string(default_base);
        node_for(&document_, "", root_base);
        while (!pending_.empty() && error_.empty()) {
            const Pending p = pending_.back();
            pending_.pop_back();
            compile_node(p);
        }
        if (!error_.empty() || !check_same_value_graph()) return nullptr;
        for (const Node& n : program_.nodes) program_.any_shared = program_.any_shared || n.shared;
        return std::make_shared<const Schema::Program>(std::move(program_));
    }

    const std::string& error() const { return error_; }

private:
    struct Location {
        const json* schema = nullptr;
        std::string pointer;
        std::string base;
    };
    struct Pending {
        const json* schema;
        int index;
        std::string pointer;
        std::string base;
    };

    bool fail(const std::string& pointer, const std::string& what) {
        // The pointer is made of the schema's own names: quoted as an excerpt, like its values.
        if (error_.empty()) error_ = "#" + excerpt(pointer) + ": " + what;
        return false;
    }

    // Stage 1: every later walk of the document recurses, so its depth is checked first,
    // iteratively, and the first place too deep is named.
    bool bounded_nesting() {
        std::vector<std::tuple<const json*, std::size_t, std::string>> todo{{&document_, 0, ""}};
        while (!todo.empty()) {
            auto [v, depth, pointer] = std::move(todo.back());
            todo.pop_back();
            if (!v->is_structured()) continue;
            if (depth + 1 > max_schema_nesting)
                return fail(pointer, "the schema nests deeper than " + std::to_string(max_schema_nesting) + " levels");
            if (v->is_object()) {
                for (auto it = v->begin(); it != v->end(); ++it)
                    todo.emplace_back(&*it, depth + 1, pointer + "/" + escape_token(it.key()));
            } else {
                for (std::size_t i = 0; i < v->size(); ++i)
                    todo.emplace_back(&(*v)[i], depth + 1, pointer + "/" + std::to_string(i));
            }
        }
        return true;
    }

    // Stage 2: $id / id and $anchor, with the base URI in force at each schema object.
    void index_identifiers() {
        struct Visit {
            const json* schema;
            std::string pointer;
            std::string base;
        };
        std::vector<Visit> todo{{&document_, "", std::string(default_base)}};
        const bool old_ids = program_.draft == Draft::draft4;
        const bool ref_hides_siblings = program_.draft <= Draft::draft7;
        while (!todo.empty()) {
            Visit v = std::move(todo.back());
            todo.pop_back();
            if (!v.schema->is_object()) continue;
            const json& s = *v.schema;
            std::string base = v.base;
            const auto id = s.find(old_ids ? "id" : "$id");
            // Before 2019-09 a $ref hides its siblings, $id among them.
            const bool id_counts = !(ref_hides_siblings && s.contains("$ref"));
            if (id != s.end() && id->is_string() && id_counts) {
                const std::string& text = id->get_ref<const std::string&>();
                if (!text.empty() && text[0] == '#') {
                    anchors_[split_fragment(base).first + text] = {v.schema, v.pointer, base};
                } else {
                    const auto [resource, fragment] = split_fragment(resolve_uri(base, text));
                    base = resource;
                    resources_[resource] = {v.schema, v.pointer, base};
                    if (!fragment.empty()) anchors_[resource + "#" + fragment] = {v.schema, v.pointer, base};
                }
            }
            if (const auto anchor = s.find("$anchor"); anchor != s.end() && anchor->is_string())
                anchors_[split_fragment(base).first + "#" + anchor->get<std::string>()] = {v.schema, v.pointer, base};
            base_of_[v.schema] = base;
            if (v.schema == &document_) resources_.emplace(split_fragment(base).first, Location{v.schema, "", base});
            for (auto kw : single_schema_keywords)
                if (const auto c = s.find(std::string(kw)); c != s.end() && c->is_object())
                    todo.push_back({&*c, v.pointer + "/" + std::string(kw), base});
            for (auto kw : schema_array_keywords)
                if (const auto c = s.find(std::string(kw)); c != s.end() && c->is_array())
                    for (std::size_t i = 0; i < c->size(); ++i)
                        todo.push_back({&(*c)[i], v.pointer + "/" + std::string(kw) + "/" + std::to_string(i), base});
            for (auto kw : schema_map_keywords)
                if (const auto c = s.find(std::string(kw)); c != s.end() && c->is_object())
                    for (auto it = c->begin(); it != c->end(); ++it)
                        todo.push_back({&*it, v.pointer + "/" + std::string(kw) + "/" + escape_token(it.key()), base});
        }
    }

    std::optional<Location> resolve_ref(const std::string& ref, const std::string& base, const std::string& pointer) {
        const auto [resource, fragment] = split_fragment(resolve_uri(base, ref));
        const auto found = resources_.find(resource);
        if (found == resources_.end()) {
            fail(pointer, "$ref \"" + excerpt(ref) + "\" points outside this schema (remote references are not fetched)");
            return std::nullopt;
        }
        if (fragment.empty()) return found->second;
        if (fragment[0] != '/') {
            const auto anchor = anchors_.find(resource + "#" + fragment);
            if (anchor == anchors_.end()) {
                fail(pointer, "$ref \"" + excerpt(ref) + "\" names no anchor of this schema");
                return std::nullopt;
            }
            return anchor->second;
        }
        // A JSON pointer (RFC 6901) in a URI fragment: percent-decoded, then ~1 and ~0.
        const std::string decoded = percent_decode(fragment);
        const json* at = found->second.schema;
        std::size_t i = 1;
        while (at && i <= decoded.size()) {
            const std::size_t end = std::min(decoded.find('/', i), decoded.size());
            std::string token;
            for (std::size_t k = i; k < end; ++k) {
                if (decoded[k] == '~' && k + 1 < end && (decoded[k + 1] == '0' || decoded[k + 1] == '1')) {
                    token += decoded[k + 1] == '0' ? '~' : '/';
                    ++k;
                } else {
                    token += decoded[k];
                }
            }
            if (at->is_object()) {
                const auto it = at->find(token);
                at = it == at->end() ? nullptr : &*it;
            } else if (at->is_array() && !token.empty() &&
                       std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                       token.size() < 10 && std::stoul(token) < at->size()) {
                at = &(*at)[std::stoul(token)];
            } else {
                at = nullptr;
            }
            i = end + 1;
        }
        if (!at) {
            fail(pointer, "$ref \"" + excerpt(ref) + "\" points to nothing in this schema");
            return std::nullopt;
        }
        const auto known = base_of_.find(at);
        return Location{at, found->second.pointer + decoded, known != base_of_.end() ? known->second : found->second.base};
    }

    int node_for(const json* schema, const std::string& pointer, const std::string& base) {
        if (const auto it = node_of_.find(schema); it != node_of_.end()) return it->second;
        const int index = static_cast<int>(program_.nodes.size());
        program_.nodes.emplace_back();
        program_.nodes.back().pointer = pointer;
        node_of_[schema] = index;
        pending_.push_back({schema, index, pointer, base});
        return index;
    }

    // A child schema of keyword `kw` (and name/index `sub` in a map or array).
    int child(const Pending& p, const json& schema, std::string_view kw, std::string_view sub = {}, bool has_sub = false) {
        std::string pointer = p.pointer + "/" + escape_token(kw);
        if (has_sub) pointer += "/" + escape_token(sub);
        if (!schema.is_object() && !schema.is_boolean()) {
            fail(pointer, "a schema must be an object or a boolean, got " + schema_value_text(schema));
            return no_node;
        }
        const auto known = base_of_.find(&schema);
        return node_for(&schema, pointer, known != base_of_.end() ? known->second : p.base);
    }

    // A non-negative integer (2.0 counts; 1.5 and -1 do not).
    bool count(const json& s, const Pending& p, const char* kw, std::optional<std::uint64_t>& out) {
        const auto it = s.find(kw);
        if (it == s.end()) return true;
        if (!it->is_number() || !is_integral(*it) || compare_numbers(*it, json(0)) < 0 ||
            compare_numbers(*it, json(std::numeric_limits<std::uint64_t>::max())) > 0)
            return fail(p.pointer + "/" + kw, std::string(kw) + " must be a non-negative integer, got " + schema_value_text(*it));
        out = it->is_number_float() ? static_cast<std::uint64_t>(it->get<double>()) : it->get<std::uint64_t>();
        return true;
    }

    bool number(const json& s, const Pending& p, const char* kw, std::optional<json>& out) {
        const auto it = s.find(kw);
        if (it == s.end()) return true;
        if (!it->is_number()) return fail(p.pointer + "/" + kw, std::string(kw) + " must be a number, got " + schema_value_text(*it));
        out = *it;
        return true;
    }

    int pattern(const std::string& source, const std::string& pointer) {
        if (const auto it = pattern_of_.find(source); it != pattern_of_.end()) return it->second;
        std::string why;
        Pattern compiled;
        compiled.source = source;
        compiled.regex = compile_pattern(source, why);
        if (!compiled.regex) {
            fail(pointer, "pattern \"" + excerpt(source) + "\" cannot be used: " + why);
            return -1;
        }
        const int index = static_cast<int>(program_.patterns.size());
        program_.patterns.push_back(std::move(compiled));
        pattern_of_[source] = index;
        return index;
    }

    // Stage 3: one schema's keywords.
    void compile_node(const Pending& p) {
        const json& s = *p.schema;
        const int at = p.index;
        if (s.is_boolean()) {
            program_.nodes[at].kind = s.get<bool>() ? Node::Kind::accept_all : Node::Kind::reject_all;
            return;
        }
        if (!s.is_object()) {
            fail(p.pointer, "a schema must be an object or a boolean, got " + schema_value_text(s));
            return;
        }
        if (const auto ref = s.find("$ref"); ref != s.end()) {
            if (!ref->is_string()) {
                fail(p.pointer + "/$ref", "$ref must be a string, got " + schema_value_text(*ref));
                return;
            }
            const auto target = resolve_ref(ref->get<std::string>(), p.base, p.pointer + "/$ref");
            if (!target) return;
            const int index = node_for(target->schema, target->pointer, target->base);
            program_.nodes[at].ref = index;
            program_.nodes[index].shared = true;
            if (program_.draft <= Draft::draft7) return;  // its siblings are ignored
        }
        refuse_unsupported(s, p) && any_type_keywords(s, p) && number_keywords(s, p) && string_keywords(s, p) &&
            array_keywords(s, p) && object_keywords(s, p) && applicators(s, p);
    }

    // Assertions we do not implement are errors: ignoring them would pass what they refuse.
    bool refuse_unsupported(const json& s, const Pending& p) {
        for (const char* kw : {"unevaluatedProperties", "unevaluatedItems"}) {
            const auto it = s.find(kw);
            if (it != s.end() && !(it->is_boolean() && it->get<bool>()) && !(it->is_object() && it->empty()))
                return fail(p.pointer + "/" + kw, std::string(kw) + " is not supported, so its constraint could not be checked");
        }
        for (const char* kw : {"$dynamicRef", "$recursiveRef"})
            if (s.contains(kw)) return fail(p.pointer + "/" + kw, std::string(kw) + " is not supported");
        return true;
    }

    bool any_type_keywords(const json& s, const Pending& p) {
        Node& n = program_.nodes[p.index];
        if (const auto t = s.find("type"); t != s.end()) {
            auto bit = [](const json& name) -> std::uint8_t {
                if (!name.is_string()) return 0;
                static constexpr std::pair<std::string_view, std::uint8_t> names[] = {
                    {"null", type_null},     {"boolean", type_boolean}, {"object", type_object}, {"array", type_array},
                    {"number", type_number}, {"integer", type_integer}, {"string", type_string}};
                for (const auto& [text, b] : names)
                    if (name.get_ref<const std::string&>() == text) return b;
                return 0;
            };
            const std::string where = p.pointer + "/type";
            const std::string known = " (the types are null, boolean, object, array, number, integer, string)";
            if (t->is_array()) {
                if (t->empty()) return fail(where, "type must name at least one type");
                for (const auto& name : *t) {
                    if (!bit(name)) return fail(where, "unknown type " + schema_value_text(name) + known);
                    n.types |= bit(name);
                }
            } else {
                if (!bit(*t)) return fail(where, "unknown type " + schema_value_text(*t) + known);
                n.types = bit(*t);
            }
        }
        if (const auto e = s.find("enum"); e != s.end()) {
            if (!e->is_array()) return fail(p.pointer + "/enum", "enum must be an array, got " + schema_value_text(*e));
            n.enum_values.assign(e->begin(), e->end());
            n.enum_index.reserve(n.enum_values.size());
            for (std::size_t i = 0; i < n.enum_values.size(); ++i) {
                std::string key;
                canonical_text(n.enum_values[i], key);
                n.enum_index.emplace(std::move(key), i);  // a repeated member keeps its first index
            }
            n.has_enum = true;
        }
        if (const auto c = s.find("const"); c != s.end()) {
            n.const_value = *c;
            n.has_const = true;
        }
        if (const auto nl = s.find("nullable"); nl != s.end() && nl->is_boolean()) n.nullable = nl->get<bool>();
        return true;
    }

    bool number_keywords(const json& s, const Pending& p) {
        Node& n = program_.nodes[p.index];
        if (!(number(s, p, "minimum", n.minimum) && number(s, p, "maximum", n.maximum) &&
              number(s, p, "multipleOf", n.multiple_of)))
            return false;
        if (n.multiple_of && compare_numbers(*n.multiple_of, json(0)) <= 0)
            return fail(p.pointer + "/multipleOf", "multipleOf must be greater than 0, got " + schema_value_text(*n.multiple_of));
        // Draft 4 spells exclusive bounds as booleans beside minimum/maximum; later drafts
        // as numbers of their own. Both are read, by the value's type.
        for (auto [kw, bound, exclusive] : {std::tuple{"exclusiveMinimum", &n.minimum, &n.exclusive_minimum},
                                            std::tuple{"exclusiveMaximum", &n.maximum, &n.exclusive_maximum}}) {
            const auto it = s.find(kw);
            if (it == s.end()) continue;
            if (it->is_boolean()) {
                if (it->get<bool>() && *bound) {
                    *exclusive = std::move(*bound);
                    bound->reset();
                }
            } else if (it->is_number()) {
                *exclusive = *it;
            } else {
                return fail(p.pointer + "/" + kw, std::string(kw) + " must be a number, got " + schema_value_text(*it));
            }
        }
        return true;
    }

    bool string_keywords(const json& s, const Pending& p) {
        if (!(count(s, p, "minLength", program_.nodes[p.index].min_length) &&
              count(s, p, "maxLength", program_.nodes[p.index].max_length)))
            return false;
        if (const auto pat = s.find("pattern"); pat != s.end()) {
            if (!pat->is_string()) return fail(p.pointer + "/pattern", "pattern must be a string, got " + schema_value_text(*pat));
            const int index = pattern(pat->get<std::string>(), p.pointer + "/pattern");
            if (index < 0) return false;
            program_.nodes[p.index].pattern = index;
        }
        if (const auto f = s.find("format"); f != s.end()) {
            if (!f->is_string()) return fail(p.pointer + "/format", "format must be a string, got " + schema_value_text(*f));
            program_.nodes[p.index].format = format_named(f->get_ref<const std::string&>());
        }
        return true;
    }

    bool array_keywords(const json& s, const Pending& p) {
        const int at = p.index;
        const auto items = s.find("items");
        const auto prefix = s.find("prefixItems");
        auto schema_list = [&](const json& list, std::string_view kw) {
            if (!list.is_array()) return fail(p.pointer + "/" + std::string(kw), std::string(kw) + " must be an array of schemas");
            for (std::size_t i = 0; i < list.size(); ++i) {
                const int c = child(p, list[i], kw, std::to_string(i), true);
                if (c == no_node) return false;
                program_.nodes[at].prefix_items.push_back(c);
            }
            return true;
        };
        if (prefix != s.end()) {
            if (!schema_list(*prefix, "prefixItems")) return false;
            if (items != s.end()) {
                if (items->is_array()) return fail(p.pointer + "/items", "items must be a schema when prefixItems is given");
                const int c = child(p, *items, "items");
                if (c == no_node) return false;
                program_.nodes[at].items = c;
            }
        } else if (items != s.end() && items->is_array()) {
            // Drafts up to 2019-09: an array of items is the tuple, additionalItems the rest.
            if (!schema_list(*items, "items")) return false;
            if (const auto extra = s.find("additionalItems"); extra != s.end()) {
                const int c = child(p, *extra, "additionalItems");
                if (c == no_node) return false;
                program_.nodes[at].items = c;
            }
        } else if (items != s.end()) {
            const int c = child(p, *items, "items");
            if (c == no_node) return false;
            program_.nodes[at].items = c;
        }
        if (const auto c = s.find("contains"); c != s.end()) {
            const int index = child(p, *c, "contains");
            if (index == no_node) return false;
            program_.nodes[at].contains = index;
            if (!(count(s, p, "minContains", program_.nodes[at].min_contains) &&
                  count(s, p, "maxContains", program_.nodes[at].max_contains)))
                return false;
        }
        if (!(count(s, p, "minItems", program_.nodes[at].min_items) && count(s, p, "maxItems", program_.nodes[at].max_items)))
            return false;
        if (const auto u = s.find("uniqueItems"); u != s.end()) {
            if (!u->is_boolean()) return fail(p.pointer + "/uniqueItems", "uniqueItems must be true or false");
            program_.nodes[at].unique_items = u->get<bool>();
        }
        return true;
    }

    bool string_list(const json& v, const std::string& pointer, const std::string& what, std::vector<std::string>& out) {
        if (!v.is_array()) return fail(pointer, what + " must be an array of strings, got " + schema_value_text(v));
        for (const auto& name : v) {
            if (!name.is_string()) return fail(pointer, what + " must be an array of strings, got " + schema_value_text(name));
            out.push_back(name.get<std::string>());
        }
        return true;
    }

    bool object_keywords(const json& s, const Pending& p) {
        const int at = p.index;
        auto map_of_schemas = [&](const char* kw, auto&& take) {
            const auto m = s.find(kw);
            if (m == s.end()) return true;
            if (!m->is_object()) return fail(p.pointer + "/" + kw, std::string(kw) + " must be an object, got " + schema_value_text(*m));
            for (auto it = m->begin(); it != m->end(); ++it) {
                const int c = child(p, it.value(), kw, it.key(), true);
                if (c == no_node || !take(it.key(), c)) return false;
            }
            return true;
        };
        const bool ok =
            map_of_schemas("properties",
                           [&](const std::string& name, int c) {
                               program_.nodes[at].properties.emplace_back(name, c);
                               return true;
                           }) &&
            map_of_schemas("patternProperties",
                           [&](const std::string& source, int c) {
                               const int regex = pattern(source, p.pointer + "/patternProperties/" + escape_token(source));
                               if (regex < 0) return false;
                               program_.nodes[at].pattern_properties.emplace_back(regex, c);
                               return true;
                           }) &&
            map_of_schemas("dependentSchemas", [&](const std::string& name, int c) {
                program_.nodes[at].dependent_schemas.emplace_back(name, c);
                return true;
            });
        if (!ok) return false;
        std::sort(program_.nodes[at].properties.begin(), program_.nodes[at].properties.end());
        for (const char* kw : {"additionalProperties", "propertyNames"}) {
            const auto it = s.find(kw);
            if (it == s.end()) continue;
            const int c = child(p, *it, kw);
            if (c == no_node) return false;
            (std::string_view(kw) == "propertyNames" ? program_.nodes[at].property_names
                                                     : program_.nodes[at].additional_properties) = c;
        }
        if (const auto r = s.find("required"); r != s.end())
            if (!string_list(*r, p.pointer + "/required", "required", program_.nodes[at].required)) return false;
        if (!(count(s, p, "minProperties", program_.nodes[at].min_properties) &&
              count(s, p, "maxProperties", program_.nodes[at].max_properties)))
            return false;
        if (const auto d = s.find("dependentRequired"); d != s.end()) {
            if (!d->is_object()) return fail(p.pointer + "/dependentRequired", "dependentRequired must be an object");
            for (auto it = d->begin(); it != d->end(); ++it) {
                std::vector<std::string> names;
                if (!string_list(it.value(), p.pointer + "/dependentRequired/" + escape_token(it.key()), "a dependency", names))
                    return false;
                program_.nodes[at].dependent_required.emplace_back(it.key(), std::move(names));
            }
        }
        // `dependencies` (up to draft 7): an array of names, or a schema, per property.
        if (const auto d = s.find("dependencies"); d != s.end()) {
            if (!d->is_object()) return fail(p.pointer + "/dependencies", "dependencies must be an object");
            for (auto it = d->begin(); it != d->end(); ++it) {
                if (it.value().is_array()) {
                    std::vector<std::string> names;
                    if (!string_list(it.value(), p.pointer + "/dependencies/" + escape_token(it.key()), "a dependency", names))
                        return false;
                    program_.nodes[at].dependent_required.emplace_back(it.key(), std::move(names));
                } else {
                    const int c = child(p, it.value(), "dependencies", it.key(), true);
                    if (c == no_node) return false;
                    program_.nodes[at].dependent_schemas.emplace_back(it.key(), c);
                }
            }
        }
        return true;
    }

    bool applicators(const json& s, const Pending& p) {
        const int at = p.index;
        for (const char* kw : {"allOf", "anyOf", "oneOf"}) {
            const auto it = s.find(kw);
            if (it == s.end()) continue;
            if (!it->is_array() || it->empty())
                return fail(p.pointer + "/" + kw, std::string(kw) + " must be a non-empty array of schemas");
            for (std::size_t i = 0; i < it->size(); ++i) {
                const int c = child(p, (*it)[i], kw, std::to_string(i), true);
                if (c == no_node) return false;
                Node& n = program_.nodes[at];
                const std::string_view k = kw;
                (k == "allOf" ? n.all_of : k == "anyOf" ? n.any_of : n.one_of).push_back(c);
            }
        }
        for (const char* kw : {"not", "if", "then", "else"}) {
            const auto it = s.find(kw);
            if (it == s.end()) continue;
            const int c = child(p, *it, kw);
            if (c == no_node) return false;
            Node& n = program_.nodes[at];
            const std::string_view k = kw;
            (k == "not" ? n.not_schema : k == "if" ? n.if_schema : k == "then" ? n.then_schema : n.else_schema) = c;
        }
        return true;
    }

    // Stage 4: the keywords that apply to the same value form a graph that must be acyclic
    // (else validation would never end) and shallow (else it would recurse too deep).
    static void same_value_edges(const Node& n, std::vector<int>& out) {
        out.clear();
        for (int c : {n.ref, n.not_schema, n.if_schema, n.then_schema, n.else_schema})
            if (c != no_node) out.push_back(c);
        for (const auto* list : {&n.all_of, &n.any_of, &n.one_of}) out.insert(out.end(), list->begin(), list->end());
        for (const auto& [name, c] : n.dependent_schemas) out.push_back(c);
    }

    bool check_same_value_graph() {
        const std::size_t count = program_.nodes.size();
        enum : std::uint8_t { unseen, open, done };
        std::vector<std::uint8_t> state(count, unseen);
        std::vector<std::size_t> chain(count, 0);
        std::vector<std::vector<int>> edges(count);
        for (std::size_t i = 0; i < count; ++i) same_value_edges(program_.nodes[i], edges[i]);
        struct Frame {
            int node;
            std::size_t next;
        };
        for (std::size_t start = 0; start < count; ++start) {
            if (state[start] != unseen) continue;
            std::vector<Frame> stack{{static_cast<int>(start), 0}};
            state[start] = open;
            while (!stack.empty()) {
                Frame& f = stack.back();
                const auto& out = edges[static_cast<std::size_t>(f.node)];
                if (f.next < out.size()) {
                    const int c = out[f.next++];
                    if (state[static_cast<std::size_t>(c)] == open) {
                        std::string path;
                        bool in_cycle = false;
                        for (const Frame& g : stack) {
                            in_cycle = in_cycle || g.node == c;
                            if (in_cycle) path += "#" + program_.nodes[static_cast<std::size_t>(g.node)].pointer + " → ";
                        }
                        path += "#" + program_.nodes[static_cast<std::size_t>(c)].pointer;
                        return fail(program_.nodes[static_cast<std::size_t>(c)].pointer,
                                    "$ref cycle with no keyword between that descends into the value (" +
                                        excerpt(path, 4 * max_quoted_bytes) +
                                        "): validation would never end");
                    }
                    if (state[static_cast<std::size_t>(c)] == unseen) {
                        state[static_cast<std::size_t>(c)] = open;
                        stack.push_back({c, 0});
                    }
                    continue;
                }
                std::size_t longest = 0;
                for (int c : out) longest = std::max(longest, chain[static_cast<std::size_t>(c)]);
                chain[static_cast<std::size_t>(f.node)] = longest + 1;
                if (longest + 1 > max_applicator_chain)
                    return fail(program_.nodes[static_cast<std::size_t>(f.node)].pointer,
                                "more than " + std::to_string(max_applicator_chain) +
                                    " $ref/allOf/anyOf/oneOf steps apply to one value in a row");
                state[static_cast<std::size_t>(f.node)] = done;
                stack.pop_back();
            }
        }
        return true;
    }

    const json& document_;
    Schema::Program program_;
    std::string error_;
    std::unordered_map<const json*, int> node_of_;
    std::unordered_map<const json*, std::string> base_of_;
    std::unordered_map<std::string, Location> resources_;
    std::unordered_map<std::string, Location> anchors_;
    std::unordered_map<std::string, int> pattern_of_;
    std::vector<Pending> pending_;
};

}  // namespace

Schema Schema::compile(const json& document, const CompileOptions& options) {
    Schema schema;
    Compiler compiler(document, options);
    schema.program_ = compiler.run();
    if (!schema.program_) schema.error_ = compiler.error();
    return schema;
}

}  // namespace toolgram::detail::schema
