// Value-building helpers and the `read_value` entry point (see value_reader.hpp).
//
// String decoding accepts JSON and Python escapes. Anything a strict JSON reader would
// refuse but we accept is recorded as a repair; nothing is dropped without a trace.
#include "value/value_reader.hpp"

#include "scan/end_watch.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "text/ascii.hpp"
#include "common/error_messages.hpp"
#include "scan/scan_context.hpp"
#include "value/strict_value.hpp"
#include "text/utf8.hpp"

namespace toolgram::detail {

void append_repair_names(std::uint32_t repairs, std::vector<std::string>& out) {
    static constexpr std::pair<std::uint32_t, const char*> names[] = {
        {repair_single_quotes, "single_quotes"},
        {repair_python_literals, "python_literals"},
        {repair_trailing_comma, "trailing_comma"},
        {repair_unquoted_keys, "unquoted_keys"},
        {repair_raw_control_chars, "raw_control_chars"},
        {repair_comments, "comments"},
        {repair_tuple_as_array, "tuple_as_array"},
        {repair_lone_surrogate, "lone_surrogate"},
        {repair_unknown_escape, "unknown_escape"},
        {repair_duplicate_key, "duplicate_key"},
        {repair_lenient_number, "lenient_number"},
        {repair_python_escapes, "python_escapes"},
        {repair_nonjson_whitespace, "nonjson_whitespace"},
        {repair_missing_comma, "missing_comma"},
        {repair_unicode_whitespace, "unicode_whitespace"},
        {repair_python_int_keys, "python_int_keys"},
        {repair_digit_separators, "digit_separators"},
        {repair_parenthesized_value, "parenthesized_value"},
        {repair_leading_zeros, "leading_zero_number"},
        {repair_missing_value_closer, "missing_value_closer"},
    };
    for (const auto& [bit, name] : names) {
        if ((repairs & bit) == 0) continue;
        bool present = false;
        for (const auto& s : out) present = present || s == name;
        if (!present) out.emplace_back(name);
    }
}

namespace {
constexpr std::uint8_t ambiguous_number_subtype = 0x30;
}

json ambiguous_number(std::string_view text) {
    return json::binary(json::binary_t::container_type(text.begin(), text.end()), ambiguous_number_subtype);
}

const std::string* ambiguous_number_text(const json& value, std::string& scratch) {
    if (!value.is_binary()) return nullptr;
    const auto& bytes = value.get_binary();
    if (!bytes.has_subtype() || bytes.subtype() != ambiguous_number_subtype) return nullptr;
    scratch.assign(bytes.begin(), bytes.end());
    return &scratch;
}

bool holds_ambiguous_number(const json& value) {
    std::vector<const json*> pending{&value};
    while (!pending.empty()) {
        const json* v = pending.back();
        pending.pop_back();
        if (v->is_binary()) return true;
        if (v->is_structured())
            for (const auto& e : *v) pending.push_back(&e);
    }
    return false;
}

void ValueBuilder::close() {
    json done = std::move(stack.back());
    const Frame frame = frames.back();
    stack.pop_back();
    stack_keys.pop_back();
    frames.pop_back();
    if (frame == Frame::tuple && done.size() == 1) {
        // `(x)` is x in Python: parentheses around a value, not a tuple.
        repairs |= repair_parenthesized_value;
        json inner = std::move(done.front());
        emit(std::move(inner));
        return;
    }
    if (frame != Frame::plain) repairs |= repair_tuple_as_array;
    emit(std::move(done));
}

std::size_t ValueBuilder::read_strict(const char* begin, const char* end) {
    if (!strict_fast_path) return 0;
    json v;
    bool cut_closers = false;
    const std::size_t n = read_strict_value(begin, end, max_depth - std::min(depth, max_depth), v, &cut_closers);
    if (n != 0) {
        emit(std::move(v));
        root_strict = true;
        if (cut_closers) {
            // As `healed_end` does: the closers are supplied, and the end of the text
            // decided that (a stream's read of it is not final).
            healed = true;
            note_end(end);
        }
    }
    return n;
}

void ValueBuilder::emit(json v) {
    after_separator = false;
    last_was_string = v.is_string();
    if (stack.empty()) {
        root = std::move(v);
        has_root = true;
        root_strict = false;
        return;
    }
    json& top = stack.back();
    if (top.is_array()) {
        top.push_back(std::move(v));
        return;
    }
    std::string key = std::move(keys.back());
    keys.pop_back();
    // A repeated key is found by comparing with the object's keys while it is small (no
    // allocation), and through a set of them once it is large (no quadratic search).
    constexpr std::size_t small_object = 16;
    auto& object = top.get_ref<json::object_t&>();
    bool repeated = false;
    if (object.size() < small_object) {
        for (const auto& member : object) repeated = repeated || member.first == key;
    } else {
        auto& seen = stack_keys.back();
        if (seen.empty())
            for (const auto& member : object) seen.insert(member.first);
        repeated = !seen.insert(key).second;
    }
    if (repeated) {
        repairs |= repair_duplicate_key;  // phase two refuses the candidate; the first stays
    } else {
        // Appended without ordered_map's linear search: the key is known to be new.
        object.emplace_back(std::move(key), std::move(v));
    }
}

namespace {

constexpr std::uint32_t replacement_char = 0xFFFD;

}  // namespace

bool read_hex(std::string_view raw, std::size_t i, std::size_t n, std::uint32_t& cp) {
    if (i + n > raw.size()) return false;
    cp = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const char c = raw[i + k];
        if (!is_hex(c)) return false;
        cp = cp << 4 | hex_value(c);
    }
    return true;
}

void decode_string_content(std::string_view raw, char quote, std::string& out, std::uint32_t& repairs) {
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '\\') {
            // A run of plain characters is appended at once.
            std::size_t end = i;
            bool control = false;
            while (end < raw.size() && raw[end] != '\\') {
                control = control || static_cast<unsigned char>(raw[end]) < 0x20;
                ++end;
            }
            if (control) repairs |= repair_raw_control_chars;
            out.append(raw.data() + i, end - i);
            i = end - 1;
            continue;
        }
        // The grammar guarantees a character after every backslash.
        const char e = raw[++i];
        if (const char plain = json_escaped_char(e)) {
            out += plain;
            continue;
        }
        switch (e) {
            case '\'':
                if (quote != '\'') repairs |= repair_python_escapes;
                out += '\'';
                break;
            case '\n':  // Python line continuation
                repairs |= repair_python_escapes;
                break;
            case 'x': {
                std::uint32_t cp = 0;
                if (read_hex(raw, i + 1, 2, cp)) {
                    repairs |= repair_python_escapes;
                    append_utf8(cp, out);
                    i += 2;
                } else {
                    repairs |= repair_unknown_escape;
                    out += "\\x";
                }
                break;
            }
            case 'U': {
                std::uint32_t cp = 0;
                if (read_hex(raw, i + 1, 8, cp) && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
                    repairs |= repair_python_escapes;
                    append_utf8(cp, out);
                    i += 8;
                } else {
                    repairs |= repair_unknown_escape;
                    out += "\\U";
                }
                break;
            }
            case 'u': {
                std::uint32_t cp = 0;
                if (!read_hex(raw, i + 1, 4, cp)) {
                    repairs |= repair_unknown_escape;
                    out += "\\u";
                    break;
                }
                i += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    std::uint32_t low = 0;
                    if (i + 2 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u' &&
                        read_hex(raw, i + 3, 4, low) && low >= 0xDC00 && low <= 0xDFFF) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        i += 6;
                    } else {
                        repairs |= repair_lone_surrogate;
                        cp = replacement_char;
                    }
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    repairs |= repair_lone_surrogate;
                    cp = replacement_char;
                }
                append_utf8(cp, out);
                break;
            }
            default:
                // Python keeps an unknown escape as written; so do we, and say so.
                repairs |= repair_unknown_escape;
                out += '\\';
                out += e;
        }
    }
}

bool convert_number(std::string_view text, json& out, std::uint32_t& repairs) {
    const std::string_view written = text;
    // Python's digit separators (the grammar allows them in Python syntax only).
    std::string without_separators;
    if (text.find('_') != std::string_view::npos) {
        repairs |= repair_digit_separators;
        for (char c : text)
            if (c != '_') without_separators += c;
        text = without_separators;
    }
    std::string_view t = text;
    if (!t.empty() && t.front() == '+') {
        repairs |= repair_lenient_number;
        t.remove_prefix(1);
    }
    const bool is_integer = t.find_first_of(".eE") == std::string_view::npos;
    // JSON refuses a leading zero before another digit, in any number, signed or not.
    const std::string_view digits = !t.empty() && t.front() == '-' ? t.substr(1) : t;
    const bool leading_zero = digits.size() > 1 && digits[0] == '0' && std::isdigit(static_cast<unsigned char>(digits[1]));
    // JSON wants digits on both sides of a point: `.5`, `5.` and `5.e3` are Python's.
    const std::size_t point = t.find('.');
    const auto digit_at = [&](std::size_t i) { return i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); };
    const bool bare_point = point != std::string_view::npos && (point == 0 || !digit_at(point - 1) || !digit_at(point + 1));
    if (is_integer && leading_zero && digits.find_first_not_of('0') != std::string_view::npos) {
        // 0789: octal to some readers, decimal to others. Kept as text for phase two.
        repairs |= repair_leading_zeros;
        out = ambiguous_number(written);
        return true;
    }
    if (bare_point || leading_zero) repairs |= repair_lenient_number;
    if (is_integer) {
        if (t.front() == '-') {
            std::int64_t v = 0;
            auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
            if (ec == std::errc() && p == t.data() + t.size()) {
                out = v;
                return true;
            }
        } else {
            std::uint64_t v = 0;
            auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
            if (ec == std::errc() && p == t.data() + t.size()) {
                out = v;
                return true;
            }
        }
        // Too large for 64 bits: fall through to a double, as JSON.parse would.
    }
    std::string copy(t);
    char* endp = nullptr;
    const double d = std::strtod(copy.c_str(), &endp);
    if (!std::isfinite(d)) return false;
    out = d;
    return true;
}

namespace {

bool is_literal_prefix(std::string_view rest) {
    static constexpr std::string_view literals[] = {"true", "false", "null", "True", "False", "None"};
    if (rest.empty()) return false;
    for (auto lit : literals) {
        if (rest.size() < lit.size() && lit.substr(0, rest.size()) == rest) return true;
    }
    return false;
}

}  // namespace

FailureInfo classify_failure(std::string_view text, std::size_t offset, std::string_view message) {
    FailureInfo f;
    f.offset = offset;
    std::string_view rest = offset < text.size() ? text.substr(offset) : std::string_view{};
    // Whitespace at the very end does not make a value complete.
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\n' || rest.back() == '\r' || rest.back() == '\t')) {
        rest.remove_suffix(1);
    }
    // Whether the failure is a cut depends on the end while what follows it is short
    // (a blank rest, a sign, a literal's prefix); longer, it is syntax whatever comes.
    if (rest.size() < 6) note_end(text);
    if (message == grammar::errors::nesting_too_deep) {
        f.kind = Failure::too_deep;
        f.message = std::string(message);
    } else if (message == "unterminated string") {
        f.kind = Failure::cut;
        f.message = "output cut mid-string";
    } else if (message == "number at end of input") {
        f.kind = Failure::cut;
        f.message = "output cut mid-number";
    } else if (rest.empty()) {
        f.kind = Failure::cut;
        f.message = "output cut before the value was complete (" + std::string(message) + ")";
    } else if (rest == "-" || rest == "+" || rest == "-." || rest == "+." || rest == ".") {
        f.kind = Failure::cut;
        f.message = "output cut mid-number";
    } else if (is_literal_prefix(rest)) {
        f.kind = Failure::cut;
        f.message = "output cut mid-literal";
    } else {
        f.kind = Failure::syntax;
        f.message = std::string(message);
    }
    return f;
}

std::string_view failure_kind_name(Failure kind) {
    switch (kind) {
        case Failure::none: return "none";
        case Failure::cut: return "cut";
        case Failure::syntax: return "syntax";
        case Failure::too_deep: return "too_deep";
        case Failure::unclosed: return "unclosed";
    }
    return "unknown";
}

bool ValueBuilder::block_closer_follows(const char* p) {
    if (block_closer.empty() || !ctx) return false;
    return ctx->find(block_closer, static_cast<std::size_t>(p - base)) != std::string_view::npos;
}

bool match_value(watched_input& in, ValueBuilder& st, bool apply) {
    if (apply)
        return pg::match<lv::value, pg::apply_mode::action, pg::rewind_mode::required, value_rules_action,
                         grammar::errors::control>(in, st);
    return pg::match<lv::value, pg::apply_mode::nothing, pg::rewind_mode::required, value_rules_action,
                     grammar::errors::control>(in, st);
}

ValueRead read_value(std::string_view text, std::size_t pos, std::size_t max_depth, bool python_syntax,
                     bool strict_fast_path) {
    ValueRead r;
    ValueBuilder b;
    b.max_depth = max_depth;
    b.python_syntax = python_syntax;
    b.strict_fast_path = strict_fast_path;
    watched_input in(text.data() + pos, text.data() + text.size(), "value");
    try {
        const bool matched = pg::parse<pg::seq<lv::ws, lv::value>, value_action, grammar::errors::control>(in, b);
        if (b.raised) {
            r.failure = classify_failure(text, static_cast<std::size_t>(b.raised.at - text.data()), b.raised.message);
        } else if (matched && b.has_root) {
            r.ok = true;
            r.value = b.take_root();
            r.end = static_cast<std::size_t>(in.current() - text.data());
            r.repairs = b.repairs;
            r.healed = b.healed;
        } else {
            r.failure = classify_failure(text, static_cast<std::size_t>(in.current() - text.data()), "value expected");
        }
    } catch (const pg::parse_error& e) {
        const auto off = static_cast<std::size_t>(e.positions().front().byte) + pos;
        r.failure = classify_failure(text, off, e.message());
    }
    return r;
}

}  // namespace toolgram::detail
