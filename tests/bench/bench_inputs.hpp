// Inputs for the speed suite (toolgram_bench), generated deterministically at run time
// (fixed seeds, no files): plain prose with no tool syntax, call-dense outputs written in
// each profile's own syntax by `render_calls`, realistic mixed outputs (reasoning, prose,
// a few calls), the long streamed message, and tool lists of any length built from the
// corpus's real schemas (corpus/tools.json, embedded here so the suite needs no path).
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram::bench {

// corpus/tools.json: five tools with real schemas (enums, bounds, arrays, nullable,
// anyOf, nested objects, additionalProperties false).
inline const char* const corpus_tools_json = R"([
  {"type": "function", "function": {"name": "get_weather", "description": "Current weather and forecast for a city",
    "parameters": {"type": "object", "properties": {
      "city": {"type": "string"},
      "days": {"type": "integer", "minimum": 1, "maximum": 14},
      "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
      "required": ["city"]}}},
  {"type": "function", "function": {"name": "search_web", "description": "Search the web",
    "parameters": {"type": "object", "properties": {
      "query": {"type": "string", "minLength": 1},
      "max_results": {"type": "integer", "minimum": 1, "maximum": 50},
      "safe": {"type": "boolean"}},
      "required": ["query"]}}},
  {"type": "function", "function": {"name": "send_email", "description": "Send an email",
    "parameters": {"type": "object", "properties": {
      "to": {"type": "array", "items": {"type": "string"}, "minItems": 1},
      "subject": {"type": "string"},
      "body": {"type": "string"},
      "cc": {"type": "string", "nullable": true}},
      "required": ["to", "subject", "body"], "additionalProperties": false}}},
  {"type": "function", "function": {"name": "create_event", "description": "Create a calendar event",
    "parameters": {"type": "object", "properties": {
      "title": {"type": "string"},
      "start": {"type": "string"},
      "duration_minutes": {"type": "number"},
      "attendees": {"type": "array", "items": {"type": "string"}},
      "location": {"anyOf": [{"type": "string"}, {"type": "null"}]},
      "zip": {"type": "string"},
      "reminder": {"type": "object", "properties": {"minutes_before": {"type": "integer"}}}},
      "required": ["title", "start"]}}},
  {"type": "function", "function": {"name": "run_sql", "description": "Run a read-only SQL query",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
      "required": ["query"]}}}
])";

// `count` tools: the five corpus tools, then copies of them under other names
// (`get_weather_2`, …), so a list of 100 has 100 real schemas to compile and match.
inline std::vector<Tool> corpus_tools(std::size_t count = 5) {
    const std::vector<Tool> base = tools_from_json(json::parse(corpus_tools_json));
    std::vector<Tool> out;
    for (std::size_t i = 0; out.size() < count; ++i) {
        Tool t = base[i % base.size()];
        if (i >= base.size()) {
            // Appended in two steps: GCC 12 warns (-Wrestrict, a false positive) on "_" + string.
            t.name += '_';
            t.name += std::to_string(i / base.size() + 1);
        }
        out.push_back(std::move(t));
    }
    return out;
}

inline const char* const prose_words[] = {
    "the", "model", "answer", "weather", "city", "tomorrow", "because", "results", "search", "report", "numbers",
    "quarter", "summary", "with", "and", "of", "a", "in", "it", "for", "is", "that", "we", "can", "see",
    "revenue", "growth", "which", "should", "probably", "between", "compared", "previous", "year's", "figures",
    "however", "customers", "Paris", "Tokyo", "March", "analysis", "suggests", "about", "percent", "team",
};

// Plain prose with no tool syntax: sentences, commas, apostrophes, numbers, parentheses,
// the odd colon, paragraphs.
inline std::string prose(std::size_t bytes, unsigned seed = 42) {
    std::mt19937 rng(seed);
    std::string out;
    out.reserve(bytes + 256);
    const std::size_t n_words = sizeof prose_words / sizeof *prose_words;
    std::size_t in_sentence = 0;
    while (out.size() < bytes) {
        const unsigned r = rng();
        if (in_sentence == 0) {
            std::string w = prose_words[r % n_words];
            w[0] = static_cast<char>(w[0] >= 'a' && w[0] <= 'z' ? w[0] - 32 : w[0]);
            out += w;
        } else if (r % 53 == 0) {
            out += std::to_string(r % 1000) + (r % 2 ? "%" : "");
        } else if (r % 97 == 0) {
            out += "(for the ";
            out += prose_words[(r >> 8) % n_words];
            out += ")";
        } else {
            out += prose_words[r % n_words];
        }
        ++in_sentence;
        if (in_sentence > 8 && r % 7 == 0) {
            out += (r >> 4) % 11 == 0 ? ": " : ". ";
            in_sentence = 0;
            if ((r >> 8) % 6 == 0) out += "\n\n";
        } else {
            out += (r >> 4) % 9 == 0 ? ", " : " ";
        }
    }
    out.resize(bytes);
    return out;
}

// The n-th call of a call-dense output: the five corpus tools in turn, with arguments
// valid by their schemas, of the sizes models write (short queries, an email body of a
// few hundred bytes with quotes and a newline, arrays, a nested object, null).
inline Call nth_call(std::size_t n) {
    const std::string k = std::to_string(n);
    switch (n % 5) {
        case 0:
            return {"", "get_weather", {{"city", "City " + k}, {"days", 1 + n % 14}, {"unit", "celsius"}}};
        case 1:
            return {"", "search_web", {{"query", "quarterly revenue of company " + k + " compared to last year"},
                                       {"max_results", 10}, {"safe", true}}};
        case 2:
            return {"", "send_email",
                    {{"to", {"alice" + k + "@example.com", "bob@example.org"}},
                     {"subject", "Report " + k + ": the \"final\" figures"},
                     {"body", "Hi Alice,\nplease find the figures for quarter " + k +
                                  " below. Revenue grew by 12% while costs stayed flat; the team's "
                                  "forecast for next quarter is in the attached sheet. Let me know if "
                                  "anything looks off before Friday.\nThanks, Bob"},
                     {"cc", nullptr}}};
        case 3:
            return {"", "create_event",
                    {{"title", "Review " + k},
                     {"start", "2025-03-0" + std::to_string(1 + n % 9) + "T10:00:00Z"},
                     {"duration_minutes", 45.5},
                     {"attendees", {"alice@example.com", "bob@example.org", "carol@example.net"}},
                     {"location", "Room " + k},
                     {"zip", "02139"},
                     {"reminder", {{"minutes_before", 15}}}}};
        default:
            return {"", "run_sql", {{"query", "SELECT id, name, total FROM orders WHERE total > " + k +
                                                  " ORDER BY total DESC"},
                                    {"limit", 100}}};
    }
}

inline std::vector<Call> calls(std::size_t count, std::size_t first = 0) {
    std::vector<Call> out;
    for (std::size_t i = 0; i < count; ++i) out.push_back(nth_call(first + i));
    return out;
}

// How many calls a call-dense output holds (under max_candidates, 1024).
constexpr std::size_t dense_calls = 200;

// A call-dense output: `count` calls in the profile's syntax, written as its models write
// several calls (one block per call, or one list), with nothing else.
inline std::string call_dense(const Profile& profile, std::size_t count) {
    return render_calls(profile, calls(count));
}

// The arguments of those calls as JSON text, each as a client receives it: the payloads
// nlohmann::json::parse decodes for the reference point.
inline std::vector<std::string> argument_payloads(std::size_t count) {
    std::vector<std::string> out;
    for (const Call& c : calls(count)) out.push_back(c.arguments.dump());
    return out;
}

// The profile's own reasoning delimiters: the last pair its family added, else <think>.
inline Delimiters reasoning_of(const Profile& profile) {
    const Settings defaults;
    if (profile.settings.reasoning.size() > defaults.reasoning.size()) return profile.settings.reasoning.back();
    return {"<think>", "</think>"};
}

// A realistic mixed output: reasoning, prose, three calls (two together, one after more
// prose), a closing sentence; about 12 KB.
inline std::string mixed(const Profile& profile, unsigned seed = 1) {
    const Delimiters think = reasoning_of(profile);
    std::string out = think.open + prose(4000, seed) + think.close + "\n\n";
    out += prose(2500, seed + 1) + "\n\n";
    out += render_calls(profile, calls(2, seed)) + "\n\n";
    out += prose(2500, seed + 2) + "\n\n";
    out += render_calls(profile, calls(1, seed + 2)) + "\n\n";
    out += prose(600, seed + 3);
    return out;
}

// The streamed message: prose paragraphs with a call in the profile's syntax every ~8 KiB.
inline std::string streamed_message(const Profile& writer, std::size_t bytes) {
    std::string out;
    std::size_t next_call = 8192, n = 0;
    while (out.size() < bytes) {
        out += prose(1000, static_cast<unsigned>(out.size())) + "\n\n";
        if (out.size() >= next_call) {
            out += render_calls(writer, {nth_call(5 * n++)}) + "\n\n";  // get_weather, as before
            next_call += 8192;
        }
    }
    return out;
}

// Token-sized chunks: cuts 1 to 6 bytes apart.
inline std::vector<std::size_t> token_cuts(std::size_t size) {
    std::mt19937 rng(7);
    std::vector<std::size_t> cuts;
    for (std::size_t at = 1 + rng() % 6; at < size; at += 1 + rng() % 6) cuts.push_back(at);
    cuts.push_back(size);
    return cuts;
}

}  // namespace toolgram::bench
