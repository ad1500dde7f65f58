// Running a compiled schema on a value (see schema.hpp for the guarantees).
//
// Two passes at most. The first is quiet: it only decides, builds no message and keeps no
// path, so a valid call costs one walk. Only a value that fails is walked again, explaining:
// the path to the value and the first failed keyword make the reason. Subschemas reached by
// $ref are memoised per value node in both passes, so a recursive schema whose anyOf tries
// two branches at every level stays linear instead of doubling per level. Recursion follows
// the value's nesting plus the same-value applicator chain the compiler bounded; a counter
// refuses the value past max_evaluation_depth whatever the schema does.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include <re2/re2.h>

#include "validation/schema/numbers.hpp"
#include "validation/schema/pattern.hpp"
#include "validation/schema/program.hpp"
#include "validation/schema/schema.hpp"
#include "text/utf8.hpp"

namespace toolgram::detail::schema {
namespace {

std::string describe(const json& v) {
    std::string text = v.is_number() ? canonical_number(v) : v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

const char* type_name(const json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return "boolean";
        case json::value_t::object: return "object";
        case json::value_t::array: return "array";
        case json::value_t::string: return "string";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: return "integer";
        default: return "number";
    }
}

std::string type_list(std::uint8_t types) {
    static constexpr std::pair<std::uint8_t, const char*> names[] = {
        {type_string, "string"}, {type_integer, "integer"}, {type_number, "number"}, {type_boolean, "boolean"},
        {type_object, "object"}, {type_array, "array"},     {type_null, "null"}};
    std::string out;
    for (const auto& [bit, name] : names) {
        if (!(types & bit)) continue;
        if (!out.empty()) out += " or ";
        out += name;
    }
    return out;
}

// JSON Schema equality: numbers by value (1 == 1.0), objects regardless of key order.
bool json_equal(const json& a, const json& b) {
    if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;
    if (a.type() != b.type()) return false;
    switch (a.type()) {
        case json::value_t::array:
            if (a.size() != b.size()) return false;
            for (std::size_t i = 0; i < a.size(); ++i)
                if (!json_equal(a[i], b[i])) return false;
            return true;
        case json::value_t::object:
            if (a.size() != b.size()) return false;
            for (auto it = a.begin(); it != a.end(); ++it) {
                const auto other = b.find(it.key());
                if (other == b.end() || !json_equal(it.value(), *other)) return false;
            }
            return true;
        default: return a == b;
    }
}

// A text equal for equal values (json_equal), for finding repeated items by sorting.
void canonical(const json& v, std::string& out) {
    switch (v.type()) {
        case json::value_t::null: out += 'n'; return;
        case json::value_t::boolean: out += v.get<bool>() ? 't' : 'f'; return;
        case json::value_t::string: {
            const auto& s = v.get_ref<const std::string&>();
            out += 's';
            out += std::to_string(s.size());
            out += ':';
            out += s;
            return;
        }
        case json::value_t::array:
            out += '[';
            for (const auto& item : v) {
                canonical(item, out);
                out += ',';
            }
            out += ']';
            return;
        case json::value_t::object: {
            std::vector<std::pair<std::string_view, const json*>> members;
            for (auto it = v.begin(); it != v.end(); ++it) members.emplace_back(it.key(), &it.value());
            std::sort(members.begin(), members.end());
            out += '{';
            for (const auto& [key, value] : members) {
                out += std::to_string(key.size());
                out += ':';
                out += key;
                canonical(*value, out);
                out += ',';
            }
            out += '}';
            return;
        }
        default: out += 'd' + canonical_number(v); return;
    }
}

// Code points of valid UTF-8 (arguments are made valid before validation): every byte that
// does not continue a character starts one. NUL counts like any other.
std::uint64_t code_points(const std::string& s) {
    std::uint64_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::string pointer_token(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

class Evaluator {
public:
    Evaluator(const Schema::Program& program, Undeclared undeclared) : p_(program), undeclared_(undeclared) {}

    Verdict run(const json& value) {
        stack_base_ = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
        explain_ = false;
        if (eval(0, value, true)) return {true, {}, steps_};
        // Again, explaining; the memo keeps what the first pass learnt.
        explain_ = true;
        detail_ = true;
        path_ = "arguments";
        depth_ = 0;
        eval(0, value, true);
        Verdict v;
        v.pass = false;
        v.reason = reason_.empty() ? "arguments do not match the schema" : reason_path_ + ": " + reason_;
        // A limit hit inside a branch tried on the side shows only as "matches none": say so.
        if (hit_limit_ && v.reason.find(too_deep_text()) == std::string::npos) v.reason += " (" + too_deep_text() + ")";
        v.steps = steps_;
        return v;
    }

private:
    // ----- bookkeeping

    // Out of line: the message is built in this frame, not in the recursive caller's.
    template <typename Make>
    [[gnu::noinline, gnu::cold]] bool fail(Make&& make) {
        if (explain_ && !failed_) {
            failed_ = true;
            reason_ = make();
            reason_path_ = path_;
        }
        return false;
    }

    // Appends a step to the path while explaining; drops it when it goes out of scope.
    // Nothing is built in the quiet pass: a path costs only when a reason is wanted.
    class Step {
    public:
        Step(Evaluator& e, std::size_t index) : e_(e), size_(e.path_.size()), active_(e.explain_) {
            if (active_) e_.append_index(index);
        }
        Step(Evaluator& e, const std::string& key) : e_(e), size_(e.path_.size()), active_(e.explain_) {
            if (active_) e_.append_key(key);
        }
        ~Step() {
            if (active_) e_.path_.resize(size_);
        }

    private:
        Evaluator& e_;
        std::size_t size_;
        bool active_;
    };

    // Out of line: their temporaries would otherwise sit in every recursive frame.
    [[gnu::noinline]] void append_index(std::size_t index) { path_ += '/' + std::to_string(index); }
    // A key is a name the model wrote: the path quotes an excerpt of it (utf8.hpp).
    [[gnu::noinline]] void append_key(const std::string& key) { path_ += '/' + excerpt(pointer_token(key)); }

    // Tries a subschema on the side: no message, whatever it decides.
    bool quietly(int node, const json& v) {
        const bool explaining = explain_;
        explain_ = false;
        const bool ok = eval(node, v);
        explain_ = explaining;
        return ok;
    }

    struct MemoKey {
        int node;
        const json* value;
        bool operator==(const MemoKey& o) const { return node == o.node && value == o.value; }
    };
    struct MemoHash {
        std::size_t operator()(const MemoKey& k) const {
            return std::hash<const void*>()(k.value) ^ (static_cast<std::size_t>(k.node) * 0x9E3779B97F4A7C15ull);
        }
    };

    // ----- evaluation

    // The recursion: eval → keywords → array | object | applicators → eval. Each is kept
    // small (everything else is out of line): a step costs about 200 bytes of stack.
    bool eval(int index, const json& v, bool top = false) {
        // Stacks grow down on every platform toolgram builds for: the distance from run()'s
        // frame is what validation has used. The byte budget matters only where frames are
        // large (-O0, sanitizers); in a release build the step count ends things first.
        const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
        if (depth_ >= max_evaluation_depth || stack_base_ - here > max_evaluation_stack) return too_deep();
        ++depth_;
        ++steps_;
        const Node& n = p_.nodes[static_cast<std::size_t>(index)];
        const bool ok = n.shared && memo_ok_ ? remembered(index, n, v, top) : keywords(n, v, top);
        --depth_;
        return ok;
    }

    static std::string too_deep_text() {
        return "validation would nest deeper than " + std::to_string(max_evaluation_depth) + " steps or " +
               std::to_string(max_evaluation_stack / 1024) + " KiB of stack (the schema and the value are too deep together)";
    }

    [[gnu::noinline]] bool too_deep() {
        hit_limit_ = true;
        return fail([&] { return too_deep_text(); });
    }

    [[gnu::noinline]] bool remembered(int index, const Node& n, const json& v, bool top) {
        const MemoKey key{index, &v};
        const auto known = memo_.find(key);
        // A failure is evaluated again when its reason is wanted.
        if (known != memo_.end() && (known->second || !explain_)) return known->second;
        const bool ok = keywords(n, v, top);
        memo_[key] = ok;
        return ok;
    }

    bool keywords(const Node& n, const json& v, bool top) {
        if (n.kind == Node::Kind::accept_all) return true;
        if (n.kind == Node::Kind::reject_all)
            return fail([&] { return "no value is allowed here (#" + excerpt(n.pointer) + " is false)"; });
        if (n.ref != no_node && !eval(n.ref, v)) return false;
        const bool null_allowed = n.nullable && v.is_null();
        if (!null_allowed && !type_and_values(n, v)) return false;
        switch (v.type()) {
            case json::value_t::number_integer:
            case json::value_t::number_unsigned:
            case json::value_t::number_float:
                if (!number(n, v)) return false;
                break;
            case json::value_t::string:
                if (!string(n, v.get_ref<const std::string&>())) return false;
                break;
            case json::value_t::array:
                if (!array(n, v)) return false;
                break;
            case json::value_t::object:
                if (!object(n, v, top)) return false;
                break;
            default: break;
        }
        return applicators(n, v);
    }

    [[gnu::noinline]] bool type_and_values(const Node& n, const json& v) {
        if (n.types) {
            std::uint8_t bit = 0;
            switch (v.type()) {
                case json::value_t::null: bit = type_null; break;
                case json::value_t::boolean: bit = type_boolean; break;
                case json::value_t::object: bit = type_object; break;
                case json::value_t::array: bit = type_array; break;
                case json::value_t::string: bit = type_string; break;
                case json::value_t::number_integer:
                case json::value_t::number_unsigned: bit = type_integer | type_number; break;
                default:
                    // 1.0 is an integer from draft 6 on. Draft 4 counts only integers as
                    // written; nlohmann stores those past 64 bits as doubles, which are
                    // integral and at least 2^64 in magnitude, where no fraction can be.
                    bit = type_number;
                    if (is_integral(v) && (p_.draft != Draft::draft4 || std::fabs(v.get<double>()) >= 18446744073709551616.0))
                        bit |= type_integer;
                    break;
            }
            if (!(n.types & bit)) {
                return fail([&] {
                    return "expected " + type_list(n.types) + (n.nullable ? " or null" : "") + ", got " + type_name(v);
                });
            }
        }
        if (n.has_enum && !in_enum(n, v)) return false;
        if (n.has_const) {
            if (!json_equal(n.const_value, v))
                return fail([&] { return "must be " + describe(n.const_value) + ", got " + describe(v); });
            if (holds_rounded(n.const_value) || holds_rounded(v)) return not_exact(v, "const", n.const_value);
        }
        return true;
    }

    // One lookup of the value's canonical text among the members' (hashed when compiled).
    [[gnu::noinline]] bool in_enum(const Node& n, const json& v) {
        std::string key;
        canonical(v, key);
        const auto found = n.enum_index.find(key);
        if (found == n.enum_index.end()) {
            return fail([&] {
                std::string allowed;
                for (const auto& e : n.enum_values) {
                    allowed += (allowed.empty() ? "" : ", ") + describe(e);
                    if (allowed.size() > 200) break;
                }
                if (allowed.size() > 200) allowed = allowed.substr(0, 197) + "...";
                return "must be one of " + allowed + ", got " + describe(v);
            });
        }
        const json& member = n.enum_values[found->second];
        if (holds_rounded(member) || holds_rounded(v)) return not_exact(v, "an enum member", member);
        return true;
    }

    // Two numbers equal as doubles where one may be a literal past 64 bits held as the
    // nearest double (numbers.hpp): what was written may differ, so nothing is decided.
    [[gnu::noinline]] bool not_exact(const json& v, const char* what, const json& other) {
        return fail([&] {
            return std::string("cannot be compared exactly with ") + what + " " + describe(other) + ", got " +
                   describe(v) + ": a number past 64 bits is held as the nearest double, and these are equal as doubles";
        });
    }

    // c is compare_numbers(v, bound): the numbers' order is exact unless they are equal as
    // doubles and one may be a rounded literal.
    static bool undecided(int c, const json& v, const json& bound) {
        return c == 0 && (held_rounded(v) || held_rounded(bound));
    }

    [[gnu::noinline]] bool number(const Node& n, const json& v) {
        if (n.minimum) {
            const int c = compare_numbers(v, *n.minimum);
            if (undecided(c, v, *n.minimum)) return not_exact(v, "minimum", *n.minimum);
            if (c < 0) return fail([&] { return "must be at least " + describe(*n.minimum) + ", got " + describe(v); });
        }
        if (n.exclusive_minimum) {
            const int c = compare_numbers(v, *n.exclusive_minimum);
            if (undecided(c, v, *n.exclusive_minimum)) return not_exact(v, "exclusiveMinimum", *n.exclusive_minimum);
            if (c <= 0)
                return fail([&] { return "must be greater than " + describe(*n.exclusive_minimum) + ", got " + describe(v); });
        }
        if (n.maximum) {
            const int c = compare_numbers(v, *n.maximum);
            if (undecided(c, v, *n.maximum)) return not_exact(v, "maximum", *n.maximum);
            if (c > 0) return fail([&] { return "must be at most " + describe(*n.maximum) + ", got " + describe(v); });
        }
        if (n.exclusive_maximum) {
            const int c = compare_numbers(v, *n.exclusive_maximum);
            if (undecided(c, v, *n.exclusive_maximum)) return not_exact(v, "exclusiveMaximum", *n.exclusive_maximum);
            if (c >= 0)
                return fail([&] { return "must be less than " + describe(*n.exclusive_maximum) + ", got " + describe(v); });
        }
        if (n.multiple_of) {
            // A divisor held rounded is at least 2^64, past every value not held rounded: for
            // those the answer is exact. A value held rounded may stand for any of the
            // integers that round to it, multiples or not.
            if (held_rounded(v))
                return fail([&] {
                    return "whether it is a multiple of " + describe(*n.multiple_of) + " cannot be decided exactly, got " +
                           describe(v) + ": a number past 64 bits is held as the nearest double";
                });
            if (!is_multiple_of(v, *n.multiple_of))
                return fail([&] { return "must be a multiple of " + describe(*n.multiple_of) + ", got " + describe(v); });
        }
        return true;
    }

    [[gnu::noinline]] bool string(const Node& n, const std::string& s) {
        if (n.min_length || n.max_length) {
            const std::uint64_t length = code_points(s);
            if (n.min_length && length < *n.min_length)
                return fail([&] {
                    return "must be at least " + plural(*n.min_length, "character", "characters") + " long, got " +
                           std::to_string(length);
                });
            if (n.max_length && length > *n.max_length)
                return fail([&] {
                    return "must be at most " + plural(*n.max_length, "character", "characters") + " long, got " +
                           std::to_string(length);
                });
        }
        if (n.pattern >= 0) {
            const Pattern& pattern = p_.patterns[static_cast<std::size_t>(n.pattern)];
            if (!pattern_found(*pattern.regex, s))
                return fail([&] { return "must match the pattern " + describe(json(pattern.source)); });
        }
        if (n.format != Format::none && !matches_format(n.format, s))
            return fail([&] { return "is not a valid " + std::string(format_description(n.format)); });
        return true;
    }

    // On the recursion path: only the loops that descend stay here; everything that builds
    // strings or containers is out of line, so a level of nesting costs a small frame.
    [[gnu::noinline]] bool array(const Node& n, const json& v) {
        if (!array_counts(n, v)) return false;
        const std::size_t size = v.size();
        for (std::size_t i = 0; i < size; ++i) {
            const int schema = i < n.prefix_items.size() ? n.prefix_items[i] : n.items;
            if (schema == no_node) continue;
            Step step(*this, i);
            if (!eval(schema, v[i])) return false;
        }
        if (n.contains != no_node) {
            std::uint64_t matches = 0;
            for (std::size_t i = 0; i < size; ++i) matches += quietly(n.contains, v[i]);
            if (!contains_count(n, matches)) return false;
        }
        return !n.unique_items || size < 2 || unique(v);
    }

    [[gnu::noinline]] bool array_counts(const Node& n, const json& v) {
        const std::size_t size = v.size();
        if (n.min_items && size < *n.min_items)
            return fail([&] { return "must have at least " + plural(*n.min_items, "item", "items") + ", got " + std::to_string(size); });
        if (n.max_items && size > *n.max_items)
            return fail([&] { return "must have at most " + plural(*n.max_items, "item", "items") + ", got " + std::to_string(size); });
        return true;
    }

    [[gnu::noinline]] bool contains_count(const Node& n, std::uint64_t matches) {
        const std::uint64_t least = n.min_contains.value_or(1);
        if (matches < least)
            return fail([&] {
                return "must have at least " + plural(least, "item", "items") + " matching #" +
                       excerpt(p_.nodes[static_cast<std::size_t>(n.contains)].pointer) + ", got " + std::to_string(matches);
            });
        if (n.max_contains && matches > *n.max_contains)
            return fail([&] {
                return "must have at most " + plural(*n.max_contains, "item", "items") + " matching #" +
                       excerpt(p_.nodes[static_cast<std::size_t>(n.contains)].pointer) + ", got " + std::to_string(matches);
            });
        return true;
    }

    // Sorting canonical texts: n log n, where comparing every pair would be n².
    [[gnu::noinline]] bool unique(const json& v) {
        const std::size_t size = v.size();
        std::vector<std::pair<std::string, std::size_t>> seen(size);
        for (std::size_t i = 0; i < size; ++i) {
            canonical(v[i], seen[i].first);
            seen[i].second = i;
        }
        std::sort(seen.begin(), seen.end());
        for (std::size_t i = 1; i < size; ++i) {
            if (seen[i].first != seen[i - 1].first) continue;
            const std::size_t a = seen[i - 1].second, b = seen[i].second;
            return fail([&] { return "items " + std::to_string(a) + " and " + std::to_string(b) + " are equal (uniqueItems)"; });
        }
        return true;
    }

    [[gnu::noinline]] bool object(const Node& n, const json& v, bool top) {
        if (!object_counts(n, v)) return false;
        const bool undeclared_refused = top && undeclared_ == Undeclared::refused_at_top && !n.properties.empty() &&
                                        n.additional_properties == no_node;
        // The members as ordered_map's vector: its iterator is a pointer, json's is larger.
        for (const auto& [key, value] : v.get_ref<const json::object_t&>()) {
            bool matched = false;
            Step step(*this, key);
            const int declared = declared_property(n, key);
            if (declared != no_node) {
                matched = true;
                if (!eval(declared, value)) return false;
            }
            for (const auto& [regex, schema] : n.pattern_properties) {
                if (!pattern_found(*p_.patterns[static_cast<std::size_t>(regex)].regex, key)) continue;
                matched = true;
                if (!eval(schema, value)) return false;
            }
            if (matched) continue;
            if (undeclared_refused) return undeclared(key, "the schema does not declare it");
            if (n.additional_properties == no_node) continue;
            if (p_.nodes[static_cast<std::size_t>(n.additional_properties)].kind == Node::Kind::reject_all)
                return undeclared(key, "additionalProperties is false");
            if (!eval(n.additional_properties, value)) return false;
        }
        if (n.property_names != no_node && !property_names(n, v)) return false;
        for (const auto& [name, schema] : n.dependent_schemas)
            if (has_member(v, name) && !eval(schema, v)) return false;
        return true;
    }

    [[gnu::noinline]] static bool has_member(const json& v, const std::string& name) { return v.contains(name); }

    static int declared_property(const Node& n, const std::string& key) {
        const auto found = std::lower_bound(n.properties.begin(), n.properties.end(), key,
                                            [](const auto& entry, const std::string& k) { return entry.first < k; });
        return found != n.properties.end() && found->first == key ? found->second : no_node;
    }

    [[gnu::noinline]] bool object_counts(const Node& n, const json& v) {
        const std::size_t size = v.size();
        for (const std::string& name : n.required)
            if (!v.contains(name)) return fail([&] { return "missing required property " + describe(json(name)); });
        if (n.min_properties && size < *n.min_properties)
            return fail([&] {
                return "must have at least " + plural(*n.min_properties, "property", "properties") + ", got " + std::to_string(size);
            });
        if (n.max_properties && size > *n.max_properties)
            return fail([&] {
                return "must have at most " + plural(*n.max_properties, "property", "properties") + ", got " + std::to_string(size);
            });
        for (const auto& dependency : n.dependent_required) {  // no structured binding: clang 14 cannot capture one
            const std::string& name = dependency.first;
            if (!v.contains(name)) continue;
            for (const std::string& other : dependency.second)
                if (!v.contains(other))
                    return fail([&] {
                        return "property " + describe(json(other)) + " is required when " + describe(json(name)) + " is given";
                    });
        }
        return true;
    }

    // Each key is checked as a string value of its own; such a temporary has no place in
    // the value, so it is never memoised (its address is reused).
    [[gnu::noinline]] bool property_names(const Node& n, const json& v) {
        const bool memo_was_ok = memo_ok_;
        memo_ok_ = false;
        bool ok = true;
        for (auto it = v.begin(); ok && it != v.end(); ++it) {
            const json name(it.key());
            const bool failed_before = failed_;
            ok = eval(n.property_names, name);
            if (!ok && explain_ && failed_ && !failed_before) reason_ = "property name " + describe(name) + " " + reason_;
        }
        memo_ok_ = memo_was_ok;
        return ok;
    }

    // An object member no schema covers, where none may be: reported at the object.
    [[gnu::noinline]] bool undeclared(const std::string& key, const char* why) {
        if (explain_ && !failed_) {
            path_.resize(path_.rfind('/'));  // the Step in progress added the key; the Step restores it
            fail([&] { return "property " + describe(json(key)) + " is not allowed: " + why; });
            path_ += '/' + excerpt(pointer_token(key));
        }
        return false;
    }

    // Re-runs failed branches with explanations, once per validation (nested combinators
    // inside them answer with a summary), so a message never costs more than a few walks.
    [[gnu::noinline]] bool none_matched(const char* keyword, const std::vector<int>& branches, const json& v) {
        if (!explain_ || failed_) return false;
        if (!detail_) return fail([&] { return std::string("matches none of the ") + keyword + " alternatives"; });
        detail_ = false;
        std::string parts;
        const std::string here = path_;
        constexpr std::size_t shown = 4;
        for (std::size_t i = 0; i < branches.size() && i < shown; ++i) {
            failed_ = false;
            reason_.clear();
            eval(branches[i], v);
            parts += (i ? "; " : "") + std::string("(") + std::to_string(i + 1) + ") ";
            if (reason_path_ != here && reason_path_.size() > here.size()) parts += reason_path_.substr(here.size() + 1) + ": ";
            parts += reason_.empty() ? "does not match" : reason_;
        }
        if (branches.size() > shown) parts += "; …";
        failed_ = false;
        detail_ = true;
        path_ = here;
        return fail([&] { return std::string("matches none of the ") + keyword + " alternatives: " + parts; });
    }

    [[gnu::noinline]] bool applicators(const Node& n, const json& v) {
        for (int c : n.all_of)
            if (!eval(c, v)) return false;
        if (!n.any_of.empty()) {
            bool any = false;
            for (int c : n.any_of)
                if ((any = quietly(c, v))) break;
            if (!any) return none_matched("anyOf", n.any_of, v);
        }
        if (!n.one_of.empty()) {
            std::size_t matched = 0, first = 0, second = 0;
            for (std::size_t i = 0; i < n.one_of.size(); ++i) {
                if (!quietly(n.one_of[i], v)) continue;
                (matched == 0 ? first : second) = i;
                if (++matched == 2) break;  // one too many already
            }
            if (matched == 0) return none_matched("oneOf", n.one_of, v);
            if (matched > 1) return several_matched(first, second);
        }
        if (n.not_schema != no_node && quietly(n.not_schema, v))
            return fail([&] { return "must not match #" + excerpt(p_.nodes[static_cast<std::size_t>(n.not_schema)].pointer); });
        if (n.if_schema != no_node) {
            const int branch = quietly(n.if_schema, v) ? n.then_schema : n.else_schema;
            if (branch != no_node && !eval(branch, v)) return false;
        }
        return true;
    }

    [[gnu::noinline]] bool several_matched(std::size_t first, std::size_t second) {
        return fail([&] {
            return "matches more than one of the oneOf alternatives (" + std::to_string(first + 1) + " and " +
                   std::to_string(second + 1) + "); exactly one must match";
        });
    }

    const Schema::Program& p_;
    Undeclared undeclared_;
    bool explain_ = false;
    bool detail_ = true;
    bool failed_ = false;
    bool hit_limit_ = false;
    bool memo_ok_ = true;
    std::size_t depth_ = 0;
    std::size_t steps_ = 0;
    std::uintptr_t stack_base_ = 0;
    std::string path_;
    std::string reason_, reason_path_;
    std::unordered_map<MemoKey, bool, MemoHash> memo_;
};

}  // namespace

void canonical_text(const json& v, std::string& out) { canonical(v, out); }

std::size_t Schema::node_count() const { return program_ ? program_->nodes.size() : 0; }

Verdict Schema::validate(const json& value, Undeclared undeclared) const {
    if (!program_) return {false, error_};
    return Evaluator(*program_, undeclared).run(value);
}

}  // namespace toolgram::detail::schema
