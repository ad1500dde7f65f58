// The argument repairs phase two makes (argument_repairs.hpp): moved out of the
// combinator's parse so that judging reads as its checks, and each repair as its rule.
#include "combinator/argument_repairs.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "combinator/parser_impl.hpp"  // wrapper_key
#include "text/utf8.hpp"
#include "value/value_reader.hpp"

namespace toolgram::detail {

// Arguments that arrive as a JSON-encoded string (even twice) become an object.
bool decode_arguments(Candidate& c, std::size_t max_depth, std::string& problem) {
    int decoded = 0;
    while (c.arguments.is_string() && decoded < 3) {
        const std::string s = c.arguments.get<std::string>();
        const detail::ValueRead r = detail::read_value(s, 0, max_depth);
        std::size_t end = r.end;
        while (end < s.size() && std::isspace(static_cast<unsigned char>(s[end]))) ++end;
        if (!r.ok || r.healed || end != s.size()) {
            if (decoded == 0 && s.find_first_not_of(" \t\r\n") == std::string::npos) {
                c.arguments = json::object();
                break;
            }
            problem = "arguments are a string that is not a JSON object";
            return false;
        }
        c.arguments = r.value;
        c.repairs |= r.repairs;
        ++decoded;
    }
    if (decoded > 0) {
        c.notes.push_back(decoded == 1 ? "arguments_json_string" : "arguments_double_encoded");
        c.arguments_valid_utf8 = false;  // read again, not by the fast path
    }
    if (c.arguments.is_null()) c.arguments = json::object();
    if (!c.arguments.is_object()) {
        problem = "arguments must be a JSON object, got " + std::string(c.arguments.type_name());
        return false;
    }
    return true;
}

// Keys a call object gave beside its name and arguments (Candidate::keys_beside): those
// the tool declares as parameters join the arguments, reported; any other, or one that is
// also inside the arguments with another value, refuses the call. With no schema to say
// what is a parameter, nothing can be placed, and the call is refused.
bool place_keys_beside(Candidate& c, const json* schema, const std::string& tool, std::string& problem) {
    if (c.keys_beside.empty()) return true;
    const json* props = nullptr;
    if (schema && schema->is_object())
        if (auto p = schema->find("properties"); p != schema->end() && p->is_object()) props = &*p;
    std::vector<const Candidate::KeyBeside*> to_move;
    bool agreed = false;
    for (const auto& k : c.keys_beside) {
        const std::string quoted = json(k.shown).dump(-1, ' ', false, json::error_handler_t::replace);
        if (!schema) {
            problem = "the call gives " + quoted +
                      " beside its name and arguments; with no tool list to declare parameters, whether it is an "
                      "argument cannot be told";
            return false;
        }
        if (!props || !props->contains(k.key)) {
            problem = "the call gives " + quoted + " beside its name and arguments, and " + tool +
                      " has no such parameter: it is neither an argument nor part of the call";
            return false;
        }
        const json* given = nullptr;
        if (auto it = c.arguments.find(k.key); it != c.arguments.end()) given = &*it;
        for (const auto* m : to_move)
            if (m->key == k.key) given = &m->value;
        if (given && *given != k.value) {
            problem = "the call gives " + json(k.key).dump(-1, ' ', false, json::error_handler_t::replace) +
                      " both inside its arguments and beside them, with different values; which counts is ambiguous";
            return false;
        }
        if (given) agreed = true;
        else to_move.push_back(&k);
    }
    for (const auto* m : to_move) set_argument(c, m->key, m->value);
    if (!to_move.empty()) c.notes.push_back("keys_moved_into_arguments");
    if (agreed) c.notes.push_back("keys_beside_arguments_agree");
    return true;
}

// Numbers written with leading zeros (`0789`), held as their text (value_reader.hpp,
// ambiguous_number) until now: kept as that text where the schema wants a string there,
// that is, where it takes the text and refuses every number the digits could mean (the
// decimal reading, and the octal one where the digits allow it). Anywhere else the call
// is refused: which number the model meant is not in the text. Each such number costs a
// validation, so a call with very many of them is refused outright (linear time).
bool settle_ambiguous_numbers(Candidate& c, const detail::ToolSet& toolset, int tool_index, std::string& problem) {
    constexpr std::size_t most = 16;
    struct Node {
        json* at;
        std::string text;
    };
    std::vector<Node> nodes;
    std::vector<json*> pending{&c.arguments};
    std::string scratch;
    while (!pending.empty()) {
        json* v = pending.back();
        pending.pop_back();
        if (const std::string* t = detail::ambiguous_number_text(*v, scratch)) nodes.push_back({v, *t});
        else if (v->is_structured())
            for (auto& e : *v) pending.push_back(&e);
    }
    if (nodes.empty()) return true;
    const std::string first = "the number " + nodes.front().text +
                              " has leading zeros: octal to some readers, decimal to others";
    if (tool_index < 0) {
        problem = first + "; with no schema to show it is text, which number was meant is ambiguous";
        return false;
    }
    if (nodes.size() > most) {
        problem = "the call holds " + std::to_string(nodes.size()) + " numbers with leading zeros (at most " +
                  std::to_string(most) + " are weighed against the schema): " + first;
        return false;
    }
    for (auto& n : nodes) *n.at = n.text;
    const bool strict = c.role == Role::fallback;
    for (auto& n : nodes) {
        std::string_view digits = n.text;
        const bool negative = !digits.empty() && digits.front() == '-';
        if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
        std::vector<json> readings;
        for (int base : {10, 8}) {
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
            if (ec == std::errc() && end == digits.data() + digits.size()) {
                if (!negative) readings.emplace_back(v);
                else if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                    readings.emplace_back(-static_cast<std::int64_t>(v));
            } else if (base == 10) {
                readings.emplace_back(std::strtod(std::string(n.text).c_str(), nullptr));  // past 64 bits
            }
        }
        for (const json& number : readings) {
            *n.at = number;
            const bool takes_number = toolset.validate(tool_index, c.arguments, strict).pass;
            *n.at = n.text;
            if (takes_number) {
                problem = "the number " + n.text +
                          " has leading zeros: octal to some readers, decimal to others, and the schema of " +
                          toolset.tool(tool_index).name + " takes a number there, so which was meant is ambiguous";
                return false;
            }
        }
    }
    c.notes.push_back("leading_zero_number_kept_as_text");
    return true;
}

// Arguments that are one object under a wrapper key the tool does not declare
// (detail::wrapper_key: `{"arguments": {"city": "Paris"}}`, DeepSeek V4's
// `<｜DSML｜parameter name="arguments" string="false">{…}</｜DSML｜parameter>`, a JSON
// string under `input`): the model wrote the call object's arguments key once too often.
// Taken literally such a call passes whenever the tool's parameters are all optional (and
// is refused whenever one is required), so the reading depends on the schema, not on what
// was meant. One rule for every syntax: the object inside is the arguments when it passes
// the tool's schema (the repair `arguments_unwrapped`); otherwise, or with no schema to say
// the key is no parameter, the call is refused with the reason. A value that is no object
// is a value, not a wrapper: left to the schema.
bool unwrap_arguments(Candidate& c, const detail::ToolSet& toolset, int tool_index, const std::string& tool,
                      std::size_t max_depth, std::string& problem, RejectionCode& code) {
    const std::string* key = detail::wrapper_key(c.arguments, tool_index >= 0 ? &toolset.schema(tool_index) : nullptr);
    if (!key) return true;
    json inner = c.arguments.front();
    std::uint32_t repairs = 0;
    if (inner.is_string()) {
        const std::string& s = inner.get_ref<const std::string&>();
        const detail::ValueRead r = detail::read_value(s, 0, max_depth);
        std::size_t end = r.end;
        while (end < s.size() && std::isspace(static_cast<unsigned char>(s[end]))) ++end;
        if (!r.ok || r.healed || end != s.size() || !r.value.is_object()) return true;
        inner = r.value;
        repairs = r.repairs;
    }
    if (!inner.is_object()) return true;
    const std::string quoted = json(*key).dump(-1, ' ', false, json::error_handler_t::replace);
    if (tool_index < 0) {
        problem = "the arguments are one object under " + quoted +
                  "; with no tool list to declare parameters, whether that is a parameter or a wrapper around the "
                  "arguments cannot be told";
        code = RejectionCode::wrapped_arguments;
        return false;
    }
    if (repairs & detail::repair_duplicate_key) {
        problem = "the call repeats a key; which value counts is ambiguous";
        code = RejectionCode::repeated_key;
        return false;
    }
    std::string merged_key;
    detail::make_valid_utf8(inner, &merged_key);
    if (!merged_key.empty()) {
        problem = "the call repeats the key \"" + detail::excerpt(merged_key) +
                  "\" once invalid UTF-8 is replaced; which value counts is ambiguous";
        code = RejectionCode::repeated_key;
        return false;
    }
    const auto verdict = toolset.validate(tool_index, inner, c.role == Role::fallback);
    if (!verdict.pass) {
        problem = "the arguments are one object under " + quoted + ", which " + tool +
                  " does not declare; read as the arguments, that object fails its schema: " + verdict.reason;
        code = RejectionCode::wrapped_arguments;
        return false;
    }
    // The wrapper was typed as a parameter the schema does not know; it is none.
    std::erase(c.notes, "parameter " + quoted + " is not in the schema; kept as text");
    c.arguments = std::move(inner);
    c.repairs |= repairs;
    c.notes.push_back("arguments_unwrapped");
    return true;
}

}  // namespace toolgram::detail
