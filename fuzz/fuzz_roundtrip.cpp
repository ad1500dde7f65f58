// Render → parse round trips: the input bytes choose a profile (every built-in profile
// that can render, and the shipped profile files), one to three calls to the declared tools, and arguments valid by
// each tool's schema; the calls are written with render_calls and parsed back with the
// same profile. The parse must return exactly those calls (names and arguments, in
// order) and pass every oracle of fuzz_support.hpp.
//
// Strings are drawn from what every syntax can carry: printable ASCII and non-ASCII text,
// quotes, backslashes, braces, brackets, `<` and `>` apart, inner newlines. Not drawn:
// text that spells a syntax's own closing token (`</parameter>`, `<|…|>`, `<escape>`),
// which tag-delimited text values cannot escape, and leading or trailing whitespace,
// which several families define as layout around a value. Both are the syntaxes' limits,
// not the parser's.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"

namespace {

using toolgram_fuzz::fail;
using toolgram_fuzz::json;

// Hands out the input's bytes as choices; past the end every choice is 0.
class Choices {
public:
    Choices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
    std::size_t below(std::size_t n) { return n == 0 ? 0 : byte() % n; }
    bool coin() { return byte() & 1; }
    std::int64_t integer(std::int64_t lo, std::int64_t hi) {
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = (v << 8) | byte();
        const auto span = static_cast<std::uint64_t>(hi - lo);
        return span == UINT64_MAX ? static_cast<std::int64_t>(v) : lo + static_cast<std::int64_t>(v % (span + 1));
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

// Pieces of string values: characters and short runs that stress quoting and escaping.
constexpr std::string_view pieces[] = {
    "a", "Z", "0", "7", " ", "\n", "\"", "'", "\\", "/", "{", "}", "(", ")", "[", "]", ",", ":", "=", "-", ".",
    "_", "#", "?", "!", "&", "%", "*", "`", "~", "@", "$", " < ", " > ", "a<b", "x>y", "é", "ü", "東京", "😀",
    "\\n", "\\u00e9", "true", "null", "3", "-1.5", "```", "'''", "\"\"", "\t", "name", "arguments",
};

std::string make_string(Choices& in, std::size_t min_length) {
    std::string s;
    const std::size_t n = std::max<std::size_t>(min_length, in.below(12));
    for (std::size_t i = 0; i < n; ++i) s += pieces[in.below(std::size(pieces))];
    // Layout whitespace at either end is not part of a value in several syntaxes.
    const auto b = s.find_first_not_of(" \t\n");
    if (b == std::string::npos) return min_length > 0 ? "x" : "";
    const auto e = s.find_last_not_of(" \t\n");
    return s.substr(b, e - b + 1);
}

json make_value(Choices& in, const json& schema, int depth);

json make_object(Choices& in, const json& schema, int depth) {
    json out = json::object();
    const json props = schema.value("properties", json::object());
    const json required = schema.value("required", json::array());
    for (auto it = props.begin(); it != props.end(); ++it) {
        bool needed = false;
        for (const auto& r : required) needed = needed || r == it.key();
        if (needed || in.coin()) out[it.key()] = make_value(in, *it, depth + 1);
    }
    return out;
}

json make_value(Choices& in, const json& schema, int depth) {
    if (!schema.is_object()) return "x";
    if (auto e = schema.find("enum"); e != schema.end() && e->is_array() && !e->empty()) return (*e)[in.below(e->size())];
    if (auto a = schema.find("anyOf"); a != schema.end() && a->is_array() && !a->empty())
        return make_value(in, (*a)[in.below(a->size())], depth);
    if (schema.value("nullable", false) && in.below(4) == 0) return nullptr;
    std::string type = "string";
    if (auto t = schema.find("type"); t != schema.end()) {
        if (t->is_string()) type = t->get<std::string>();
        else if (t->is_array() && !t->empty()) type = (*t)[in.below(t->size())].get<std::string>();
    }
    if (type == "null") return nullptr;
    if (type == "boolean") return in.coin();
    if (type == "integer") {
        const std::int64_t lo = schema.contains("minimum") ? schema["minimum"].get<std::int64_t>() : -1000000;
        const std::int64_t hi = schema.contains("maximum") ? schema["maximum"].get<std::int64_t>() : 1000000;
        return in.integer(lo, hi);
    }
    if (type == "number") {
        // Halves and thousandths and the odd large exponent: all exact in a double's text.
        const double v = static_cast<double>(in.integer(-1000000, 1000000)) / (in.coin() ? 2 : 1000);
        return in.below(8) == 0 ? v * 1e200 : v;
    }
    if (type == "array") {
        json out = json::array();
        const std::size_t n = std::max<std::size_t>(schema.value("minItems", 0), in.below(4));
        for (std::size_t i = 0; i < n && depth < 4; ++i) out.push_back(make_value(in, schema.value("items", json::object()), depth + 1));
        return out;
    }
    if (type == "object") return depth < 4 ? make_object(in, schema, depth) : json::object();
    return make_string(in, schema.value("minLength", 0));
}

// Profiles that write calls: all but auto (no syntax of its own) and text_kv (fallback only),
// and every shipped profile file.
const std::vector<toolgram::Profile>& profiles() {
    static const std::vector<toolgram::Profile> p = [] {
        std::vector<toolgram::Profile> out;
        for (const auto& name : toolgram::builtin_profile_names())
            if (name != "auto" && name != "text_kv") out.push_back(toolgram::builtin_profile(name));
        for (const auto& p : toolgram_fuzz::shipped_profile_files()) out.push_back(p);
        return out;
    }();
    return p;
}

const std::vector<toolgram::Parser>& parsers() {
    static const std::vector<toolgram::Parser> p = [] {
        std::vector<toolgram::Parser> out;
        for (const auto& profile : profiles()) out.emplace_back(profile, toolgram_fuzz::tools());
        return out;
    }();
    return p;
}

json names_and_arguments(const std::vector<toolgram::Call>& calls) {
    json out = json::array();
    for (const auto& c : calls) out.push_back({{"name", c.name}, {"arguments", c.arguments}});
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Choices in(data, size);
    const std::size_t which = in.below(profiles().size());
    const auto& tools = toolgram_fuzz::tools();
    std::vector<toolgram::Call> calls(1 + in.below(3));
    for (auto& c : calls) {
        const toolgram::Tool& tool = tools[in.below(tools.size())];
        c.name = tool.name;
        c.arguments = make_object(in, tool.parameters, 0);
    }
    std::string text;
    try {
        text = toolgram::render_calls(profiles()[which], calls);
    } catch (const std::invalid_argument&) {
        return 0;  // the profile's primary grammar cannot render (documented)
    }
    const toolgram::Result r = toolgram_fuzz::check_parse(parsers()[which], text);
    if (names_and_arguments(r.calls) != names_and_arguments(calls))
        fail("round-trip", "profile " + profiles()[which].name + ": rendered calls parse back differently\n" +
                               names_and_arguments(calls).dump() + "\n-> " + names_and_arguments(r.calls).dump() +
                               "\ntext: " + text.substr(0, 2000));
    return 0;
}
