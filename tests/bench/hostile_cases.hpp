// The hostile-input cases, generated (never stored): inputs built to hurt a parser, each
// a function of the profile (its own call syntax and markers) and a size in bytes. Shared
// by toolgram_hostile (linearity at two sizes, each case in a child process) and the
// speed suite toolgram_bench (throughput and memory per parse at one size), so both
// measure the same inputs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "readers/grammar_def.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::bench {

constexpr std::size_t MiB = 1u << 20;

// Two tools of the corpus; the hostile calls are to get_weather.
inline const char* const hostile_tools_json = R"([
  {"name": "get_weather", "parameters": {"type": "object", "properties": {
     "city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}}, "required": ["city"]}},
  {"name": "search_web", "parameters": {"type": "object", "properties": {
     "query": {"type": "string"}, "safe": {"type": "boolean"}}, "required": ["query"]}}
])";

// Repeats `unit` until `size` bytes (the last copy cut to fit).
inline std::string repeat_to(std::string_view unit, std::size_t size) {
    if (unit.empty()) unit = " ";
    std::string out;
    out.reserve(size);
    while (out.size() + unit.size() <= size) out.append(unit);
    out.append(unit.substr(0, size - out.size()));
    return out;
}

// A call to get_weather written in the profile's own syntax, with `city` standing for
// whatever `payload` holds (raw text spliced into the syntax: escapes stay escapes).
// Auto has no syntax of its own and writes the tag format; text_kv cannot render.
inline std::string call_with(const toolgram::Profile& p, std::string_view city_payload, std::string_view days_payload = "3") {
    const std::string city_mark = "CITY_PAYLOAD", days_mark = "424242";
    std::string text;
    if (p.name == "text_kv") {
        text = "function.name: get_weather\nfunction.arguments: {\"city\": \"" + city_mark + "\", \"days\": " + days_mark + "}";
    } else {
        const toolgram::Profile& writer = p.name == "auto" ? toolgram::builtin_profile("tag") : p;
        text = toolgram::render_calls(writer, {{"", "get_weather", {{"city", city_mark}, {"days", 424242}}}});
    }
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text.compare(i, city_mark.size(), city_mark) == 0) {
            out.append(city_payload);
            i += city_mark.size();
        } else if (text.compare(i, days_mark.size(), days_mark) == 0) {
            out.append(days_payload);
            i += days_mark.size();
        } else {
            out += text[i++];
        }
    }
    return out;
}

// The profile's call with `fill` bytes of `unit` as the city, cut off before the string
// ends: the syntax opens, the value never closes.
inline std::string unterminated_in_call(const toolgram::Profile& p, std::string_view unit, std::size_t size) {
    const std::string call = call_with(p, "\x01");
    const std::string head = call.substr(0, call.find('\x01'));
    return head + repeat_to(unit, size > head.size() ? size - head.size() : 0);
}

// Every marker of the profile's grammars.
inline std::vector<std::string> markers_of(const toolgram::Profile& p) {
    std::vector<std::string> out;
    for (const auto& use : p.grammars) {
        const auto* g = toolgram::detail::find_grammar(use.grammar);
        if (g && g->markers)
            for (auto& m : g->markers(p.settings))
                if (!m.empty() && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
    return out;
}

struct Case {
    std::string name;
    std::string what;
    std::function<std::string(const toolgram::Profile&, std::size_t)> make;
};

inline const std::vector<Case>& cases() {
    static const std::vector<Case> c = {
        {"open_braces", "`{` repeated", [](const auto&, std::size_t n) { return std::string(n, '{'); }},
        {"open_brackets", "`[` repeated", [](const auto&, std::size_t n) { return std::string(n, '['); }},
        // Every `<` may begin a marker, and most markers open with `<`: a stream compared
        // each with each marker in turn (issue 29, item 5).
        {"angle_brackets", "`<` repeated", [](const auto&, std::size_t n) { return std::string(n, '<'); }},
        {"angle_bars", "`<|` repeated (the two bytes most special tokens open with)",
         [](const auto&, std::size_t n) { return repeat_to("<|", n); }},
        {"tool_call_opens", "`<tool_call>` repeated, never closed",
         [](const auto&, std::size_t n) { return repeat_to("<tool_call>", n); }},
        {"tool_calls_marker", "`[TOOL_CALLS]` repeated", [](const auto&, std::size_t n) { return repeat_to("[TOOL_CALLS]", n); }},
        {"markers_open", "each of the profile's markers, repeated, never closed",
         [](const toolgram::Profile& p, std::size_t n) {
             std::string unit;
             for (const auto& m : markers_of(p)) unit += m + " ";
             return repeat_to(unit, n);
         }},
        {"call_opens", "the profile's call cut right after its value opens, repeated",
         [](const toolgram::Profile& p, std::size_t n) {
             const std::string call = call_with(p, "\x01");
             return repeat_to(call.substr(0, call.find('\x01')), n);
         }},
        {"unterminated_string", "a call whose string value never ends",
         [](const toolgram::Profile& p, std::size_t n) { return unterminated_in_call(p, "abc def ", n); }},
        {"unterminated_cdata", "`<![CDATA[` never closed, in a call",
         [](const toolgram::Profile& p, std::size_t n) {
             return unterminated_in_call(p, "<![CDATA[", 64) + repeat_to("x]]", n);
         }},
        {"deep_xml", "`<a>` nested, never closed, in a call",
         [](const toolgram::Profile& p, std::size_t n) { return unterminated_in_call(p, "<a>", n); }},
        {"deep_json", "`[` nested, in a call's arguments",
         [](const toolgram::Profile& p, std::size_t n) {
             const std::string call = call_with(p, "x", "\x01");
             return call.substr(0, call.find('\x01')) + std::string(n, '[');
         }},
        {"tiny_calls", "the profile's shortest call repeated (10^5 calls at 8 MiB)",
         [](const toolgram::Profile& p, std::size_t n) { return repeat_to(call_with(p, "x", "1") + "\n", n); }},
        {"nul_bytes", "NUL bytes, and NULs inside a call",
         [](const toolgram::Profile& p, std::size_t n) {
             return std::string(n / 2, '\0') + unterminated_in_call(p, std::string_view("\0", 1), n - n / 2);
         }},
        {"invalid_utf8", "bytes that are not UTF-8, in prose and in a call's value",
         [](const toolgram::Profile& p, std::size_t n) {
             const std::string bad = "\xC3\x28\xFF\xFE\xED\xA0\x80\xF4\x90\x80\x80\xE2\x82 ";
             const std::string call = call_with(p, repeat_to(bad, 4096));
             return repeat_to(bad + call + "\n", n);
         }},
        {"lone_surrogates", "`\\ud800` escapes in a call's value",
         [](const toolgram::Profile& p, std::size_t n) { return unterminated_in_call(p, "\\ud800\\udc00\\udfff", n); }},
        {"huge_number", "a number of millions of digits as an argument",
         [](const toolgram::Profile& p, std::size_t n) {
             const std::string call = call_with(p, "x", "\x01");
             const std::size_t at = call.find('\x01');
             const std::string rest = call.substr(at + 1);
             return call.substr(0, at) + std::string(n - std::min(n, call.size()), '7') + rest;
         }},
        {"backslashes", "a run of backslashes in a call's value",
         [](const toolgram::Profile& p, std::size_t n) { return unterminated_in_call(p, "\\", n); }},
        {"split_markers", "every marker (or the call's first 16 bytes, for one-byte markers) split by every byte at every position",
         [](const toolgram::Profile& p, std::size_t n) {
             std::vector<std::string> split;
             for (const auto& m : markers_of(p))
                 if (m.size() > 1) split.push_back(m);
             if (split.empty()) split.push_back(call_with(p, "x").substr(0, 16));
             std::string unit;
             for (const auto& m : split)
                 for (std::size_t at = 1; at < m.size(); ++at)
                     for (int b = 0; b < 256; ++b) unit += m.substr(0, at) + static_cast<char>(b) + m.substr(at) + " ";
             return repeat_to(unit, n);
         }},
    };
    return c;
}

}  // namespace toolgram::bench
