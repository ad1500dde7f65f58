// The combinator (src/combinator/parser.cpp) and phase two (src/validation/toolset.cpp): the gates a fallback
// candidate must pass, the guards every candidate meets (reasoning, examples), name
// normalisation, argument decoding, schema validation and typing, ids, format errors,
// hostile-input limits, and the public result shapes (to_json, to_openai_message,
// tools_from_json, format_instruction, Parser construction).
//
// Each test pins one behaviour and asserts the whole result it implies: the calls, and the
// telemetry that explains them (rejections with their reasons, candidate reports, error).
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "call_lists.hpp"
#include "corpus_cases.hpp"
#include "isolated_parse.hpp"
#include "stream_agreement.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace combinator_test {

using toolgram_test::calls_with_ids;

using toolgram::json;
using toolgram::Parser;
using toolgram::Profile;
using toolgram::Result;
using toolgram::Role;
using toolgram::Tool;

namespace {

std::vector<Tool> weather_tools() {
    return toolgram::tools_from_json(json::parse(R"([
        {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
         "parameters": {"type": "object",
                        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                        "required": ["city"]}}},
        {"name": "search", "description": "Search the web",
         "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
    ])"));
}

Tool tool(const std::string& name, json parameters = json::object()) {
    Tool t;
    t.name = name;
    t.parameters = std::move(parameters);
    return t;
}

Profile profile(const std::string& name) { return toolgram::builtin_profile(name); }

std::vector<std::string> rejection_reasons(const Result& r) {
    std::vector<std::string> out;
    for (const auto& x : r.telemetry.rejected) out.push_back(x.reason);
    return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

const std::string weather_tag = R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}}[/TOOL_CALL])";
const json weather_call = {{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "Antwerp"}}}};

const std::string no_intent = "fallback gate: no intent shown (no intent marker, and no tool call was required)";
const std::string in_reasoning = "written inside reasoning (accept_calls_in_reasoning is off)";
const std::string as_example = "shown as an example, not a call";

}  // namespace

// =======================================================================================
// Fallback gates

TEST_CASE("fallback gate: intent must be shown by a marker or by the caller", "[combinator][gates]") {
    const std::string call = R"({"name": "get_weather", "arguments": {"city": "Antwerp"}})";

    SECTION("no intent: rejected with the reason, left as content, no format error") {
        const Parser parser(profile("auto"), weather_tools());
        const Result r = parser.parse(call);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(r.content == call);
        CHECK_FALSE(r.error.has_value());
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
        CHECK(r.telemetry.candidate_count == 1);
        REQUIRE(r.telemetry.candidates.size() == 1);
        CHECK(r.telemetry.candidates[0].role == Role::fallback);
        // Llama's bare JSON (a fallback in auto, before the generic json) reads an object
        // with "arguments" that opens the output, as vLLM and llama.cpp do: same gate.
        CHECK(r.telemetry.candidates[0].grammar == "llama3_json");
        CHECK_FALSE(r.telemetry.candidates[0].accepted);
        CHECK(rejection_reasons(r) == std::vector<std::string>{no_intent});
    }

    SECTION("the caller says a tool is required") {
        Profile p = profile("auto");
        p.settings.tool_required = true;
        const Result r = Parser(p, weather_tools()).parse(call);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.content.empty());
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::fallback);
        CHECK(r.telemetry.fallback_used);
        CHECK(r.telemetry.grammar == "llama3_json");
        CHECK(r.telemetry.rejected.empty());
    }

    SECTION("an intent marker in the text, in any case") {
        const std::string marker = GENERATE(as<std::string>{}, "need_tool: yes", "CALL_TOOL", "NEED_TOOL: YES");
        const std::string text = marker + "\n[get_weather(city=\"Antwerp\")]";
        const Result r = Parser(profile("auto"), weather_tools()).parse(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.content == marker);
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::fallback);
        CHECK(r.telemetry.fallback_used);
        CHECK(r.telemetry.grammar == "bracket");
        CHECK(r.telemetry.rejected.empty());
    }

    SECTION("intent markers are configurable") {
        Profile p = profile("auto");
        p.settings.intent_markers = {"<<act>>"};
        const Parser parser(p, weather_tools());
        const Result with = parser.parse("<<act>> [get_weather(city=\"Antwerp\")]");
        CHECK(calls_with_ids(with) == json::array({weather_call}));
        const Result old_marker = parser.parse("need_tool: yes [get_weather(city=\"Antwerp\")]");
        CHECK(old_marker.calls.empty());
        CHECK(rejection_reasons(old_marker) == std::vector<std::string>{no_intent});
    }
}

TEST_CASE("fallback gate: a fallback candidate must be small, primary candidates are not size-gated",
          "[combinator][gates]") {
    const std::string call = R"({"name": "get_weather", "arguments": {"city": "Antwerp"}})";
    const std::size_t size = call.size();
    Profile p = profile("auto");
    p.settings.tool_required = true;

    SECTION("over the limit: rejected with its size") {
        p.settings.fallback_max_bytes = size - 1;
        const Result r = Parser(p, weather_tools()).parse(call);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(rejection_reasons(r) ==
              std::vector<std::string>{"fallback gate: candidate of " + std::to_string(size) + " bytes exceeds " +
                                       std::to_string(size - 1)});
        CHECK_FALSE(r.error.has_value());
    }
    SECTION("at the limit: accepted") {
        p.settings.fallback_max_bytes = size;
        const Result r = Parser(p, weather_tools()).parse(call);
        CHECK(calls_with_ids(r) == json::array({weather_call}));
    }
    SECTION("the default is 2 KiB") {
        CHECK(Profile{}.settings.fallback_max_bytes == 2048);
        const std::string big = R"({"name": "search", "arguments": {"q": ")" + std::string(2100, 'x') + "\"}}";
        const Result r = Parser(p, weather_tools()).parse(big);
        CHECK(r.calls.empty());
        CHECK(rejection_reasons(r) ==
              std::vector<std::string>{"fallback gate: candidate of " + std::to_string(big.size()) +
                                       " bytes exceeds 2048"});
    }
    SECTION("a primary call is not held to the fallback size") {
        p.settings.fallback_max_bytes = 10;
        const Result r = Parser(p, weather_tools()).parse(weather_tag);
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::primary);
    }
}

TEST_CASE("fallback gate: the name must be on an allow-list", "[combinator][gates]") {
    Profile p = profile("auto");
    p.settings.tool_required = true;

    SECTION("no tool list: a fallback candidate is rejected") {
        const Result r = Parser(p).parse(R"({"name": "get_weather", "arguments": {"city": "Antwerp"}})");
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(rejection_reasons(r) ==
              std::vector<std::string>{"fallback gate: no tool list to check the name against"});
    }
    SECTION("no tool list: a primary candidate is accepted as written") {
        const Result r = Parser(p).parse(weather_tag);
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        REQUIRE(r.telemetry.candidates.size() == 1);
        CHECK(r.telemetry.candidates[0].schema == toolgram::SchemaVerdict::skipped);
        CHECK(r.telemetry.candidates[0].schema_reason == "no tools given");
    }
    SECTION("an empty tool list is a list: every call is refused, fallback or primary (fail closed)") {
        const std::string text = GENERATE(as<std::string>{}, R"({"name": "get_weather", "arguments": {"city": "Antwerp"}})",
                                          weather_tag);
        const Result r = Parser(p, std::vector<Tool>{}).parse(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(rejection_reasons(r) == std::vector<std::string>{"no tool may be called: the tool list is empty"});
        CHECK(r.telemetry.validated);
        CHECK(toolgram::to_json(r)["telemetry"]["validated"] == true);
        CHECK(Parser(p, std::vector<Tool>{}).has_tool_list());
    }
    SECTION("no tool list: every result says nothing was validated") {
        const Result r = Parser(p).parse("no call at all");
        CHECK_FALSE(r.telemetry.validated);
        CHECK(toolgram::to_json(r)["telemetry"]["validated"] == false);
        CHECK_FALSE(Parser(p).has_tool_list());
        CHECK(Parser(p, weather_tools()).parse("no call at all").telemetry.validated);
    }
    SECTION("a name not on the list is rejected, fallback or primary") {
        const std::string text = GENERATE(as<std::string>{}, R"({"name": "delete_all", "arguments": {}})",
                                          R"([TOOL_CALL]{"name": "delete_all", "arguments": {}}[/TOOL_CALL])");
        const Result r = Parser(p, weather_tools()).parse(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(rejection_reasons(r) == std::vector<std::string>{"unknown tool \"delete_all\""});
        REQUIRE(r.telemetry.rejected.size() == 1);
        CHECK(r.telemetry.rejected[0].name == "delete_all");
        CHECK(r.error.has_value());
    }
}

TEST_CASE("fallback gate: arguments must pass strict schema validation", "[combinator][gates]") {
    // A property the schema does not declare: strict validation (fallbacks) refuses it;
    // the schema itself allows it, so a primary call passes.
    Profile p = profile("auto");
    p.settings.tool_required = true;
    const Parser parser(p, weather_tools());

    const Result fallback = parser.parse(R"({"name": "get_weather", "arguments": {"city": "Antwerp", "extra": 1}})");
    INFO(toolgram::to_json(fallback).dump(2));
    CHECK(fallback.calls.empty());
    REQUIRE(fallback.telemetry.candidates.size() == 1);
    CHECK(fallback.telemetry.candidates[0].schema == toolgram::SchemaVerdict::fail);
    CHECK(fallback.telemetry.candidates[0].schema_reason ==
          "arguments: property \"extra\" is not allowed: the schema does not declare it");

    const Result primary =
        parser.parse(R"([TOOL_CALL]{"name": "get_weather", "arguments": {"city": "Antwerp", "extra": 1}}[/TOOL_CALL])");
    CHECK(calls_with_ids(primary) == json::array({{{"id", "call_0"},
                                             {"name", "get_weather"},
                                             {"arguments", {{"city", "Antwerp"}, {"extra", 1}}}}}));
    CHECK(primary.telemetry.candidates.at(0).schema == toolgram::SchemaVerdict::pass);
}

TEST_CASE("fallback gate: exactly one fallback candidate, several give no call and a format error",
          "[combinator][gates]") {
    Profile p = profile("auto");
    p.settings.tool_required = true;
    const std::string text = GENERATE(
        as<std::string>{},
        R"([{"name": "get_weather", "arguments": {"city": "Antwerp"}}, {"name": "search", "arguments": {"q": "x"}}])",
        "need_tool: yes\n[get_weather(city=\"Antwerp\"), search(q=\"x\")]");
    const Result r = Parser(p, weather_tools()).parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
    CHECK(r.telemetry.candidate_count == 2);
    const std::string reason = "fallback gate: 2 fallback candidates found, exactly one is allowed";
    CHECK(rejection_reasons(r) == std::vector<std::string>{reason, reason});
    REQUIRE(r.error.has_value());
    CHECK(r.error->message == reason);
    // The correction asks for the profile's primary format.
    CHECK_THAT(r.error->correction_prompt, Catch::Contains(reason) && Catch::Contains("[TOOL_CALL]"));
}

TEST_CASE("primary syntax wins: fallbacks do not run once primary syntax was seen", "[combinator][gates]") {
    Profile p = profile("auto");
    p.settings.tool_required = true;
    const Parser parser(p, weather_tools());
    const std::string fallback = "\nAction: search\nAction Input: {\"q\": \"x\"}";

    SECTION("a valid primary call and a fallback-shaped one: only the primary") {
        const Result r = parser.parse(weather_tag + fallback);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::primary);
        CHECK_FALSE(r.telemetry.fallback_used);
        CHECK(r.telemetry.candidate_count == 1);
        CHECK(r.content == "Action: search\nAction Input: {\"q\": \"x\"}");
    }
    SECTION("a broken primary call: still no fallback call") {
        const Result r = parser.parse(R"([TOOL_CALL]{"name": "search", "arguments": {"q" "x"}}[/TOOL_CALL])" + fallback);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(r.telemetry.candidate_count == 1);
        REQUIRE(r.telemetry.candidates.size() == 1);
        CHECK(r.telemetry.candidates[0].grammar == "tag");
        CHECK(r.telemetry.candidates[0].role == Role::primary);
        CHECK(r.error.has_value());
    }
    SECTION("a primary tag only mentioned in prose does not block the fallback") {
        const Result r = parser.parse("I could use [TOOL_CALL] tags, but:" + fallback);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({{{"id", "call_0"}, {"name", "search"}, {"arguments", {{"q", "x"}}}}}));
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::fallback);
    }
}

// =======================================================================================
// Reasoning

TEST_CASE("reasoning: calls inside reasoning are reported, not accepted, unless the caller opts in",
          "[combinator][reasoning]") {
    struct Row {
        std::string label;
        std::string text;
        std::string content;
        std::string reasoning;
    };
    const auto row = GENERATE_REF(values<Row>({
        {"<think> block", "<think>I will call " + weather_tag + "</think>Answer", "Answer", "I will call " + weather_tag},
        {"[THINK] block", "[THINK]Let me call " + weather_tag + "[/THINK]Answer", "Answer", "Let me call " + weather_tag},
        {"headless R1 style", "Hmm, thinking " + weather_tag + "</think>The answer", "The answer",
         "Hmm, thinking " + weather_tag},
        {"unclosed reasoning", "<think>pondering " + weather_tag, "", "pondering " + weather_tag},
        {"<seed:think> block", "<seed:think>maybe " + weather_tag + "</seed:think>Answer", "Answer",
         "maybe " + weather_tag},
        {"<|START_THINKING|> block", "<|START_THINKING|>maybe " + weather_tag + "<|END_THINKING|>Answer", "Answer",
         "maybe " + weather_tag},
    }));
    DYNAMIC_SECTION(row.label) {
        SECTION("rejected by default") {
            const Result r = Parser(profile("tag"), weather_tools()).parse(row.text);
            INFO(toolgram::to_json(r).dump(2));
            CHECK(r.calls.empty());
            CHECK(r.content == row.content);
            CHECK(r.reasoning == row.reasoning);
            CHECK(r.telemetry.saw_tool_syntax);
            CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
            CHECK(rejection_reasons(r) == std::vector<std::string>{in_reasoning});
            CHECK_FALSE(r.error.has_value());
        }
        SECTION("accepted with accept_calls_in_reasoning, and taken out of the reasoning") {
            Profile p = profile("tag");
            p.settings.accept_calls_in_reasoning = true;
            const Result r = Parser(p, weather_tools()).parse(row.text);
            INFO(toolgram::to_json(r).dump(2));
            CHECK(calls_with_ids(r) == json::array({weather_call}));
            CHECK(r.content == row.content);
            CHECK(r.reasoning == row.reasoning.substr(0, row.reasoning.size() - weather_tag.size() - 1));
            CHECK(r.telemetry.rejected.empty());
        }
    }
}

TEST_CASE("reasoning: a call after the reasoning block is a call", "[combinator][reasoning]") {
    const Result r = Parser(profile("tag"), weather_tools()).parse("<think>cold?</think>\n" + weather_tag);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(calls_with_ids(r) == json::array({weather_call}));
    CHECK(r.reasoning == "cold?");
    CHECK(r.content.empty());
    CHECK(r.telemetry.rejected.empty());
}

TEST_CASE("reasoning: a delimiter written inside a call's text is text of the call", "[combinator][reasoning]") {
    // Found by fuzz_grammar_hermes: `<think>` in an argument opened reasoning mid-call, so
    // the call's tail became reasoning and the next call a draft inside it.
    const std::string search = R"([TOOL_CALL]{"name":"search","arguments":{"q":"what is </think>?"}}[/TOOL_CALL])";
    const json search_call = {{"id", "call_1"}, {"name", "search"}, {"arguments", {{"q", "what is </think>?"}}}};
    struct Row {
        std::string label;
        std::string text;
        json calls;
        std::string content, reasoning;
        std::vector<std::string> rejected;
    };
    const auto row = GENERATE_REF(values<Row>({
        {"an opener in an argument, a call after it",
         R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"<think>Antwerp"}}[/TOOL_CALL] then )" + search,
         json::array({{{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "<think>Antwerp"}}}},
                      search_call}),
         "then", "", {}},
        {"an opener in a list whose other element is refused (found by fuzz_pipeline)",
         R"([TOOL_CALL][{"name":"get_weather","arguments":{"city":"<think>Antwerp"}}, {"nme":"x"}][/TOOL_CALL] ok)",
         json::array({{{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "<think>Antwerp"}}}}}), "ok",
         "", {"element 1 of the call list is not a call object with a name"}},
        {"a closer in an argument, no opener anywhere (not R1's headless reasoning)", "Looking. " + search,
         json::array({{{"id", "call_0"}, {"name", "search"}, {"arguments", {{"q", "what is </think>?"}}}}}),
         "Looking.", "", {}},
        {"a closer in a draft call inside reasoning does not end the reasoning",
         "<think>maybe " + search + " no</think>Answer", json::array(), "Answer", "maybe " + search + " no",
         {in_reasoning}},
        {"a broken call keeps its delimiters: the closer ends the reasoning",
         R"(<think>maybe [TOOL_CALL]{"name":"search","arguments":{"q" "</think>"}}[/TOOL_CALL] Answer)", json::array(),
         R"("}}[/TOOL_CALL] Answer)", R"(maybe [TOOL_CALL]{"name":"search","arguments":{"q" ")",
         {"':' expected after key"}},
    }));
    DYNAMIC_SECTION(row.label) {
        const Result r = Parser(profile("tag"), weather_tools()).parse(row.text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == row.calls);
        CHECK(r.content == row.content);
        CHECK(r.reasoning == row.reasoning);
        CHECK(rejection_reasons(r) == row.rejected);
    }
}

// =======================================================================================
// Example guard

TEST_CASE("example guard: a call shown as an example is not a call", "[combinator][guards]") {
    const std::string text = GENERATE_REF(as<std::string>{},
                                          "For example, you could write:\n```\n" + weather_tag + "\n```\nThat is how.",
                                          "A call looks like this, e.g. " + weather_tag,
                                          "You could call it like so:\n\n```json\n" + weather_tag + "\n```");
    const Result r = Parser(profile("tag"), weather_tools()).parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.content == text);
    CHECK(rejection_reasons(r) == std::vector<std::string>{as_example});
    CHECK_FALSE(r.error.has_value());
}

TEST_CASE("example guard: a fence that only wraps a real call is not an example", "[combinator][guards]") {
    const Result r = Parser(profile("tag"), weather_tools()).parse("Here is the call:\n```\n" + weather_tag + "\n```");
    INFO(toolgram::to_json(r).dump(2));
    CHECK(calls_with_ids(r) == json::array({weather_call}));
    CHECK(r.content == "Here is the call:");
    CHECK(r.telemetry.repairs == std::vector<std::string>{"tags_inside_fence"});
}

// =======================================================================================
// Name normalisation

TEST_CASE("name normalisation: exact, then case, then namespace tail, then loose", "[combinator][names]") {
    struct Row {
        std::string raw;
        std::vector<std::string> tools;
        std::string resolved;  // empty: rejected
        std::string note_or_reason;
    };
    const auto row = GENERATE(values<Row>({
        {"get_weather", {"get_weather", "search"}, "get_weather", ""},
        {"GET_WEATHER", {"get_weather", "search"}, "get_weather", "name_case"},
        {"functions.get_weather", {"get_weather", "search"}, "get_weather", "name_namespace"},
        {"default_api.get_weather", {"get_weather", "search"}, "get_weather", "name_namespace"},
        {"functions.Get_Weather", {"get_weather", "search"}, "get_weather", "name_namespace"},
        {"get-weather", {"get_weather", "search"}, "get_weather", "name_loose"},
        {"GetWeather", {"get_weather", "search"}, "get_weather", "name_loose"},
        {"get_wether", {"get_weather", "search"}, "", "unknown tool \"get_wether\""},
        // Order: an exact match beats a case match, a case match beats a namespace tail,
        // a namespace tail beats a loose match.
        {"get_weather", {"Get_Weather", "get_weather"}, "get_weather", ""},
        {"functions.search", {"Functions.Search", "search"}, "Functions.Search", "name_case"},
        {"api.get_weather", {"get_weather", "apigetweather"}, "get_weather", "name_namespace"},
        // Ambiguous at the first level that matches: no call.
        {"GET_WEATHER", {"Get_Weather", "get_weather"}, "", "ambiguous"},
        {"get-weather", {"get_weather", "getweather"}, "", "ambiguous"},
    }));
    std::string among;
    for (const auto& n : row.tools) among += (among.empty() ? "" : ", ") + n;
    DYNAMIC_SECTION(row.raw << " among [" << among << "]") {
        std::vector<Tool> tools;
        for (const auto& n : row.tools) tools.push_back(tool(n));
        const Result r = Parser(profile("tag"), tools)
                             .parse("[TOOL_CALL]{\"name\": \"" + row.raw + "\", \"arguments\": {}}[/TOOL_CALL]");
        INFO(toolgram::to_json(r).dump(2));
        REQUIRE(r.telemetry.candidates.size() == 1);
        const auto& cand = r.telemetry.candidates[0];
        CHECK(cand.raw_name == row.raw);
        if (!row.resolved.empty()) {
            CHECK(calls_with_ids(r) ==
                  json::array({{{"id", "call_0"}, {"name", row.resolved}, {"arguments", json::object()}}}));
            CHECK(cand.name == row.resolved);
            if (row.note_or_reason.empty()) CHECK(cand.repairs.empty());
            else CHECK(cand.repairs == std::vector<std::string>{row.note_or_reason});
        } else {
            CHECK(r.calls.empty());
            CHECK(cand.name.empty());
            REQUIRE(r.telemetry.rejected.size() == 1);
            CHECK_THAT(r.telemetry.rejected[0].reason, Catch::Contains(row.note_or_reason));
            CHECK(r.error.has_value());
        }
    }
}

// =======================================================================================
// Arguments

TEST_CASE("arguments: JSON-encoded strings (even twice) become objects, other shapes are rejected",
          "[combinator][arguments]") {
    struct Row {
        std::string label;
        std::string arguments_json;  // the value written after "arguments":
        json expected;               // null: rejected
        std::string note_or_reason;
    };
    const auto row = GENERATE(values<Row>({
        {"object", R"({"q": "x"})", {{"q", "x"}}, ""},
        {"JSON string", R"("{\"q\": \"x\"}")", {{"q", "x"}}, "arguments_json_string"},
        {"double-encoded", R"("\"{\\\"q\\\": \\\"x\\\"}\"")", {{"q", "x"}}, "arguments_double_encoded"},
        {"empty string", R"("")", json::object(), ""},
        {"null", "null", json::object(), ""},
        {"not JSON", R"("q=x")", nullptr, "arguments are a string that is not a JSON object"},
        {"a list", "[1, 2]", nullptr, "arguments must be a JSON object, got array"},
        {"a string holding a list", R"("[1, 2]")", nullptr, "arguments must be a JSON object, got array"},
        {"a number", "5", nullptr, "arguments must be a JSON object, got number"},
    }));
    DYNAMIC_SECTION(row.label) {
        const Result r = Parser(profile("tag"), weather_tools())
                             .parse("[TOOL_CALL]{\"name\": \"search\", \"arguments\": " + row.arguments_json +
                                    "}[/TOOL_CALL]");
        INFO(toolgram::to_json(r).dump(2));
        REQUIRE(r.telemetry.candidates.size() == 1);
        if (!row.expected.is_null()) {
            CHECK(calls_with_ids(r) == json::array({{{"id", "call_0"}, {"name", "search"}, {"arguments", row.expected}}}));
            if (row.note_or_reason.empty()) CHECK(r.telemetry.repairs.empty());
            else CHECK(r.telemetry.repairs == std::vector<std::string>{row.note_or_reason});
        } else {
            CHECK(r.calls.empty());
            CHECK(rejection_reasons(r) == std::vector<std::string>{row.note_or_reason});
            CHECK(r.error.has_value());
        }
    }
}

TEST_CASE("arguments: a call object with no arguments key has empty arguments", "[combinator][arguments]") {
    const Result r = Parser(profile("tag"), weather_tools()).parse(R"([TOOL_CALL]{"name": "search"}[/TOOL_CALL])");
    CHECK(calls_with_ids(r) == json::array({{{"id", "call_0"}, {"name", "search"}, {"arguments", json::object()}}}));
}

// =======================================================================================
// Schema validation (src/validation/schema/; the validator's own tests are tests/unit/schema_test.cpp)

namespace {
std::vector<Tool> booking_tools() {
    return {tool("book", json::parse(R"({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 2, "maxLength": 10},
            "nights": {"type": "integer", "minimum": 1, "maximum": 30},
            "room": {"type": "string", "enum": ["single", "double"]},
            "guests": {"type": "array", "items": {"type": "string"}},
            "note": {"type": "string", "nullable": true},
            "when": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "pick": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "flags": {"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": false}
        },
        "required": ["city"],
        "additionalProperties": false
    })"))};
}
}  // namespace

TEST_CASE("schema validation: the validator's verdict, with the reason in telemetry", "[combinator][schema]") {
    struct Row {
        std::string label;
        std::string arguments;
        bool pass;
        std::string reason;  // the whole schema reason, as telemetry and the correction prompt give it
    };
    const auto row = GENERATE(values<Row>({
        {"valid, every keyword",
         R"({"city": "Paris", "nights": 2, "room": "single", "guests": ["a", "b"], "note": "x", "when": "today", "pick": 3, "flags": {"a": true}})",
         true, ""},
        {"only the required property", R"({"city": "Paris"})", true, ""},
        {"type", R"({"city": 5})", false, "arguments/city: expected string, got integer"},
        {"required", R"({"nights": 2})", false, "arguments: missing required property \"city\""},
        {"enum", R"({"city": "Paris", "room": "triple"})", false,
         "arguments/room: must be one of \"single\", \"double\", got \"triple\""},
        {"items", R"({"city": "Paris", "guests": ["a", 1]})", false, "arguments/guests/1: expected string, got integer"},
        {"additionalProperties", R"({"city": "Paris", "pool": true})", false,
         "arguments: property \"pool\" is not allowed: additionalProperties is false"},
        {"nested additionalProperties", R"({"city": "Paris", "flags": {"b": true}})", false,
         "arguments/flags: property \"b\" is not allowed: additionalProperties is false"},
        {"nullable accepts null", R"({"city": "Paris", "note": null})", true, ""},
        {"nullable still checks the type", R"({"city": "Paris", "note": 5})", false,
         "arguments/note: expected string or null, got integer"},
        {"anyOf, second branch", R"({"city": "Paris", "when": 20250101})", true, ""},
        {"anyOf, no branch", R"({"city": "Paris", "when": true})", false,
         "arguments/when: matches none of the anyOf alternatives: (1) expected string, got boolean; "
         "(2) expected integer, got boolean"},
        {"oneOf, no branch", R"({"city": "Paris", "pick": 1.5})", false,
         "arguments/pick: matches none of the oneOf alternatives: (1) expected string, got number; "
         "(2) expected integer, got number"},
        {"minimum", R"({"city": "Paris", "nights": 0})", false, "arguments/nights: must be at least 1, got 0"},
        {"maximum", R"({"city": "Paris", "nights": 31})", false, "arguments/nights: must be at most 30, got 31"},
        {"minLength", R"({"city": "P"})", false, "arguments/city: must be at least 2 characters long, got 1"},
        {"maxLength", R"({"city": "Llanfairpwll"})", false, "arguments/city: must be at most 10 characters long, got 12"},
        {"integer refuses a fraction", R"({"city": "Paris", "nights": 2.5})", false,
         "arguments/nights: expected integer, got number"},
        {"an integer past 2^63 is past the maximum", R"({"city": "Paris", "nights": 9223372036854775808})", false,
         "arguments/nights: must be at most 30, got 9223372036854775808"},
    }));
    DYNAMIC_SECTION(row.label) {
        const Result r = Parser(profile("tag"), booking_tools())
                             .parse("[TOOL_CALL]{\"name\": \"book\", \"arguments\": " + row.arguments + "}[/TOOL_CALL]");
        const json j = toolgram::to_json(r);
        INFO(j.dump(2));
        REQUIRE(r.telemetry.candidates.size() == 1);
        const auto& cand = r.telemetry.candidates[0];
        const json& verdict = j["telemetry"]["schema_validation"].at(0);
        CHECK(verdict["candidate"] == 0);
        CHECK(verdict["name"] == "book");
        if (row.pass) {
            CHECK(calls_with_ids(r) ==
                  json::array({{{"id", "call_0"}, {"name", "book"}, {"arguments", json::parse(row.arguments)}}}));
            CHECK(cand.schema == toolgram::SchemaVerdict::pass);
            CHECK(verdict["verdict"] == "pass");
            CHECK_FALSE(verdict.contains("reason"));
            CHECK(r.telemetry.rejected.empty());
        } else {
            CHECK(r.calls.empty());
            CHECK(cand.schema == toolgram::SchemaVerdict::fail);
            CHECK(cand.schema_reason == row.reason);
            CHECK(verdict["verdict"] == "fail");
            CHECK(verdict["reason"] == cand.schema_reason);
            CHECK(rejection_reasons(r) ==
                  std::vector<std::string>{"arguments fail the schema of book: " + cand.schema_reason});
            REQUIRE(r.error.has_value());
            CHECK_THAT(r.error->correction_prompt, Catch::Contains(cand.schema_reason));
        }
    }
}

// =======================================================================================
// Typing XML text values from the schema

namespace {
std::vector<Tool> typed_tools() {
    return {tool("typed", json::parse(R"({
        "type": "object",
        "properties": {
            "i": {"type": "integer"},
            "n": {"type": "number"},
            "b": {"type": "boolean"},
            "o": {"type": "object"},
            "a": {"type": "array"},
            "s_null": {"type": "string", "nullable": true},
            "i_null": {"type": "integer", "nullable": true},
            "u_null": {"type": ["integer", "null"]},
            "any_of": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "one_of": {"oneOf": [{"type": "boolean"}, {"type": "string"}]},
            "multi": {"type": ["integer", "string"]},
            "zip": {"type": "string"},
            "free": {},
            "ref_object": {"$ref": "#/$defs/Location"},
            "ref_code": {"$ref": "#/$defs/Code"},
            "ref_chain": {"$ref": "#/definitions/Count"},
            "ref_any_of": {"anyOf": [{"$ref": "#/$defs/Code"}, {"type": "null"}]}
        },
        "$defs": {"Location": {"type": "object", "properties": {"city": {"type": "string"}}},
                  "Code": {"type": "string"}},
        "definitions": {"Count": {"$ref": "#/definitions/Int"}, "Int": {"type": "integer"}}
    })"))};
}

std::string invoke(const std::string& key, const std::string& value) {
    return "<invoke name=\"typed\"><parameter name=\"" + key + "\">" + value + "</parameter></invoke>";
}
}  // namespace

TEST_CASE("typing: XML text values take the type their schema gives", "[combinator][typing]") {
    struct Row {
        std::string key;
        std::string text;
        json expected;
    };
    const auto row = GENERATE(values<Row>({
        {"i", "42", 42},
        {"i", "\n42\n", 42},
        {"i", "-7", -7},
        {"n", "2.5", 2.5},
        {"n", "1e3", 1000.0},
        {"n", "3", 3},
        {"b", "true", true},
        {"b", "FALSE", false},
        {"b", "True", true},
        {"o", R"({"k": [1, 2]})", json::parse(R"({"k": [1, 2]})")},
        {"o", "{'k': True}", json::parse(R"({"k": true})")},  // lenient JSON
        {"a", R"([1, "x"])", json::parse(R"([1, "x"])")},
        {"s_null", "null", nullptr},
        {"s_null", "text", "text"},
        {"i_null", "null", nullptr},
        {"i_null", "12", 12},
        {"u_null", "null", nullptr},
        {"any_of", "7", 7},
        {"any_of", "seven", "seven"},
        {"one_of", "true", true},
        {"one_of", "maybe", "maybe"},
        {"multi", "5", 5},
        {"multi", "five", "five"},
        {"zip", "03106", "03106"},
        {"zip", "  spaced  ", "  spaced  "},
        {"free", "as written", "as written"},
        // A local $ref is followed (tools made from Pydantic models write them): the vLLM
        // and SGLang dots tests' {"location": {"$ref": "#/$defs/Location"}}.
        {"ref_object", R"({"city": "Shanghai"})", json::parse(R"({"city": "Shanghai"})")},
        {"ref_code", "42", "42"},
        {"ref_chain", "7", 7},
        {"ref_any_of", "007", "007"},
        {"ref_any_of", "null", nullptr},
    }));
    DYNAMIC_SECTION(row.key << " = " << row.text) {
        const Result r = Parser(profile("xml"), typed_tools()).parse(invoke(row.key, row.text));
        INFO(toolgram::to_json(r).dump(2));
        REQUIRE(r.calls.size() == 1);
        CHECK(r.calls[0].arguments == json{{row.key, row.expected}});
        // == counts 3 and 3.0 equal; the kind of number must match too.
        CHECK(r.calls[0].arguments[row.key].is_number_integer() == row.expected.is_number_integer());
        CHECK(r.calls[0].arguments[row.key].is_number_float() == row.expected.is_number_float());
        CHECK(r.telemetry.repairs.empty());
    }
}

TEST_CASE("typing: a parameter the schema does not know keeps its text and is reported", "[combinator][typing]") {
    const Result r = Parser(profile("xml"), typed_tools())
                         .parse("<invoke name=\"typed\"><parameter name=\"i\">1</parameter>"
                                "<parameter name=\"extra\">007</parameter></invoke>");
    INFO(toolgram::to_json(r).dump(2));
    CHECK(calls_with_ids(r) == json::array({{{"id", "call_0"}, {"name", "typed"}, {"arguments", {{"i", 1}, {"extra", "007"}}}}}));
    CHECK(r.telemetry.repairs ==
          std::vector<std::string>{"parameter \"extra\" is not in the schema; kept as text"});
}

TEST_CASE("typing: text that does not fit its type is kept, reported, and then fails validation",
          "[combinator][typing]") {
    const Result r = Parser(profile("xml"), typed_tools()).parse(invoke("i", "forty-two"));
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    REQUIRE(r.telemetry.candidates.size() == 1);
    const auto& cand = r.telemetry.candidates[0];
    CHECK(contains(cand.repairs, "parameter \"i\" is not a valid integer; kept as text"));
    CHECK(cand.schema == toolgram::SchemaVerdict::fail);
    CHECK(cand.schema_reason == "arguments/i: expected integer, got string");
}

TEST_CASE("typing: only text values are typed, JSON values are validated as written", "[combinator][typing]") {
    const Result r = Parser(profile("tag"), typed_tools())
                         .parse(R"([TOOL_CALL]{"name": "typed", "arguments": {"i": "42"}}[/TOOL_CALL])");
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.telemetry.candidates.at(0).schema == toolgram::SchemaVerdict::fail);
}

// =======================================================================================
// Ids

TEST_CASE("ids: generated call_0.. in order, unique, and the model's own ids kept", "[combinator][ids]") {
    struct Row {
        std::string label;
        std::string payload;  // a JSON array of call objects
        std::vector<std::string> ids;
    };
    const auto row = GENERATE(values<Row>({
        {"none given", R"([{"name": "search", "arguments": {"q": "a"}}, {"name": "search", "arguments": {"q": "b"}}, {"name": "search", "arguments": {"q": "c"}}])",
         {"call_0", "call_1", "call_2"}},
        {"some given", R"([{"id": "s1", "name": "search", "arguments": {"q": "a"}}, {"name": "search", "arguments": {"q": "b"}}])",
         {"s1", "call_0"}},
        // Ids are decided in call order (a stream announces each as its call begins), so
        // a model id that an earlier call already got is replaced, like any repeated id.
        {"a given id already generated is replaced", R"([{"name": "search", "arguments": {"q": "a"}}, {"id": "call_0", "name": "search", "arguments": {"q": "b"}}])",
         {"call_0", "call_1"}},
        {"a given id is skipped by later generated ones", R"([{"id": "call_1", "name": "search", "arguments": {"q": "a"}}, {"name": "search", "arguments": {"q": "b"}}, {"name": "search", "arguments": {"q": "c"}}])",
         {"call_1", "call_0", "call_2"}},
        {"numeric id", R"([{"id": 7, "name": "search", "arguments": {"q": "a"}}])", {"7"}},
        // The first eight ids are compared in place, the rest through a hash set: the same
        // rules on both sides of the switch.
        {"past eight ids", R"([{"id": "a", "name": "search", "arguments": {"q": "1"}}, {"name": "search", "arguments": {"q": "2"}},
           {"id": "call_2", "name": "search", "arguments": {"q": "3"}}, {"name": "search", "arguments": {"q": "4"}},
           {"name": "search", "arguments": {"q": "5"}}, {"id": "a", "name": "search", "arguments": {"q": "6"}},
           {"name": "search", "arguments": {"q": "7"}}, {"id": "b", "name": "search", "arguments": {"q": "8"}},
           {"id": "a", "name": "search", "arguments": {"q": "9"}}, {"id": "call_0", "name": "search", "arguments": {"q": "10"}},
           {"id": "b", "name": "search", "arguments": {"q": "11"}}, {"id": "c", "name": "search", "arguments": {"q": "12"}},
           {"name": "search", "arguments": {"q": "13"}}])",
         {"a", "call_0", "call_2", "call_1", "call_3", "call_4", "call_5", "b", "call_6", "call_7", "call_8", "c", "call_9"}},
    }));
    DYNAMIC_SECTION(row.label) {
        const Result r = Parser(profile("json"), weather_tools()).parse(row.payload);
        INFO(toolgram::to_json(r).dump(2));
        std::vector<std::string> ids;
        for (const auto& c : r.calls) ids.push_back(c.id);
        CHECK(ids == row.ids);
    }
}

TEST_CASE("ids: ids are unique within a result even when the model repeats one", "[combinator][ids]") {
    const Result r = Parser(profile("json"), weather_tools())
                         .parse(R"([{"id": "dup", "name": "search", "arguments": {"q": "a"}},
                                    {"id": "dup", "name": "search", "arguments": {"q": "b"}}])");
    INFO(toolgram::to_json(r).dump(2));
    REQUIRE(r.calls.size() == 2);
    CHECK(r.calls[0].id == "dup");
    CHECK_FALSE(r.calls[1].id.empty());
    CHECK(r.calls[1].id != "dup");
}

// =======================================================================================
// Format errors

TEST_CASE("format error: where the syntax broke, what was expected, and a correction prompt",
          "[combinator][format_error]") {
    const std::string text =
        "Sure.\nHere it is:\n[TOOL_CALL]{\"name\": \"get_weather\", \"arguments\": {\"city\" \"Antwerp\"}}[/TOOL_CALL]\n";
    const Parser parser(profile("tag"), weather_tools());
    const Result r = parser.parse(text);
    INFO(toolgram::to_json(r).dump(2));
    const std::size_t offset = text.find("\"Antwerp\"");
    const std::size_t line_start = text.find("[TOOL_CALL]");
    CHECK(r.calls.empty());
    CHECK(r.content == "Sure.\nHere it is:");
    CHECK(r.telemetry.saw_tool_syntax);
    CHECK(rejection_reasons(r) == std::vector<std::string>{"':' expected after key"});
    REQUIRE(r.error.has_value());
    const auto& e = *r.error;
    CHECK(e.message == "':' expected after key");
    CHECK(e.offset == offset);
    CHECK(e.line == 3);
    CHECK(e.column == offset - line_start + 1);
    CHECK_THAT(toolgram::format_instruction(profile("tag"), {}), Catch::Contains(e.expected));
    CHECK_THAT(e.expected, Catch::Contains("[TOOL_CALL]") && Catch::Contains("[/TOOL_CALL]"));
    CHECK_THAT(e.correction_prompt,
               Catch::Contains(e.message) &&
                   Catch::Contains("(line 3, column " + std::to_string(e.column) + ")") &&
                   Catch::Contains("Available tools: get_weather, search") && Catch::Contains(e.expected));
}

// Issue 28: `auto` asks for no syntax, so its correction prompt teaches the family whose
// syntax the model wrote (the first failed call's grammar), not auto's first grammar.
TEST_CASE("format error under auto: the prompt teaches the syntax the model wrote", "[combinator][format_error]") {
    const Parser parser(profile("auto"), weather_tools());
    const std::string dsml = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_forecast\">\n"
                             "<｜DSML｜parameter name=\"city\" string=\"true\">Paris</｜DSML｜parameter>\n"
                             "</｜DSML｜invoke>\n</｜DSML｜function_calls>";
    const std::string kimi = "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_forecast:0"
                             "<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>";
    for (const auto& [text, family] : {std::pair{dsml, std::string("deepseek_v32")}, std::pair{kimi, std::string("kimi_k2")}}) {
        CAPTURE(family);
        const Result r = parser.parse(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        REQUIRE(r.error.has_value());
        CHECK(r.error->message == "unknown tool \"get_forecast\"");
        // The family's own instruction, as `toolgram instruction --profile FAMILY` writes it.
        CHECK_THAT(toolgram::format_instruction(profile(family), {}), Catch::Contains(r.error->expected));
        CHECK_THAT(r.error->correction_prompt, Catch::Contains(r.error->expected) && !Catch::Contains("[TOOL_CALL]"));
    }
    // Under the family's own profile the prompt teaches that family too; under another
    // profile it teaches the profile's syntax, which the model was asked for.
    const Result own = Parser(profile("deepseek_v32"), weather_tools()).parse(dsml);
    REQUIRE(own.error.has_value());
    CHECK_THAT(own.error->expected, Catch::Contains("<｜DSML｜"));
}

TEST_CASE("format error: none when a call was made, none for plain prose", "[combinator][format_error]") {
    const Parser parser(profile("tag"), weather_tools());
    SECTION("one broken block and one good one") {
        const Result r =
            parser.parse(R"([TOOL_CALL]{"name": "search", "arguments": {"q" 1}}[/TOOL_CALL] and )" + weather_tag);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.telemetry.rejected.size() == 1);
        CHECK_FALSE(r.error.has_value());
    }
    SECTION("prose") {
        const Result r = parser.parse("The weather in Antwerp is mild.");
        CHECK(r.calls.empty());
        CHECK_FALSE(r.error.has_value());
        CHECK_FALSE(r.telemetry.saw_tool_syntax);
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
        CHECK(r.telemetry.grammar.empty());
    }
}

// =======================================================================================
// Limits

TEST_CASE("limits: max_candidates rejects the rest, keeps what came before", "[combinator][limits]") {
    Profile p = profile("tag");
    p.settings.limits.max_candidates = 2;
    const std::string text = weather_tag + " " + weather_tag + " " + weather_tag;
    const Result r = Parser(p, weather_tools()).parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.size() == 2);
    CHECK(r.telemetry.candidate_count == 3);
    // One rejection for everything past the limit, not one report per candidate.
    CHECK(rejection_reasons(r) == std::vector<std::string>{"candidate limit of 2 reached: 1 more candidates not judged"});
    CHECK(r.telemetry.candidates.size() == 2);
    CHECK(r.content.empty());  // the syntax past the limit still leaves the content
    CHECK(r.telemetry.parse_mode == toolgram::ParseMode::primary);
}

TEST_CASE("limits: candidates past max_candidates are counted by the gates, not judged", "[combinator][limits]") {
    // The scan keeps no document past the limit, yet what the rest means stays: a second
    // fallback candidate still makes the exactly-one gate refuse the first.
    Profile p = profile("auto");
    p.settings.tool_required = true;
    p.settings.limits.max_candidates = 1;
    const Result r = Parser(p, weather_tools())
                         .parse(R"([{"name": "get_weather", "arguments": {"city": "Antwerp"}}, {"name": "search", "arguments": {"q": "x"}}])");
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.telemetry.candidate_count == 2);
    CHECK(rejection_reasons(r) ==
          std::vector<std::string>{"fallback gate: 2 fallback candidates found, exactly one is allowed",
                                   "candidate limit of 1 reached: 1 more candidates not judged"});
    REQUIRE(r.telemetry.candidates.size() == 1);
    CHECK(r.telemetry.candidates[0].raw_name == "get_weather");
}

TEST_CASE("limits: max_candidate_bytes rejects a large candidate, keeps the others", "[combinator][limits]") {
    Profile p = profile("tag");
    p.settings.limits.max_candidate_bytes = 100;
    const std::string big = R"([TOOL_CALL]{"name":"search","arguments":{"q":")" + std::string(200, 'x') +
                            R"("}}[/TOOL_CALL])";
    const Result r = Parser(p, weather_tools()).parse(big + "\n" + weather_tag);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(calls_with_ids(r) == json::array({weather_call}));
    REQUIRE(r.telemetry.candidates.size() == 2);
    const auto& rejected = r.telemetry.candidates[0];
    CHECK_FALSE(rejected.accepted);
    CHECK(rejected.reason == "candidate of " + std::to_string(rejected.end - rejected.begin) +
                                 " bytes exceeds the limit of 100");
    CHECK(rejected.end - rejected.begin > 100);
}

TEST_CASE("limits: max_input_bytes scans only the head, the rest is content", "[combinator][limits]") {
    Profile p = profile("tag");
    p.settings.limits.max_input_bytes = 100;
    const std::string tail = R"([TOOL_CALL]{"name":"search","arguments":{"q":"late"}}[/TOOL_CALL])";
    const std::string text = weather_tag + std::string(40, ' ') + "more " + tail;
    REQUIRE(text.size() > 100);
    const Result r = Parser(p, weather_tools()).parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(calls_with_ids(r) == json::array({weather_call}));
    CHECK(r.content == "more " + tail);
    REQUIRE(r.telemetry.rejected.size() == 1);
    CHECK(r.telemetry.rejected[0].reason == "input of " + std::to_string(text.size()) +
                                                " bytes exceeds the limit of 100; the rest was not scanned for calls");
}

TEST_CASE("limits: max_depth rejects a deep candidate, keeps the others", "[combinator][limits]") {
    Profile p = profile("tag");
    p.settings.limits.max_depth = 4;
    const std::string deep = R"([TOOL_CALL]{"name":"search","arguments":{"q":{"a":{"b":{"c":1}}}}}[/TOOL_CALL])";
    const Result r = Parser(p, weather_tools()).parse(deep + "\n" + weather_tag);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(calls_with_ids(r) == json::array({weather_call}));
    CHECK(rejection_reasons(r) == std::vector<std::string>{"nesting deeper than the limit of 4 levels"});
}

TEST_CASE("limits: 100000 levels of nesting in any grammar are rejected, never a crash", "[combinator][limits]") {
    struct Row {
        std::string profile;
        std::string text;
    };
    const std::string levels(100000, '[');
    const auto row = GENERATE_REF(values<Row>({
        {"tag", "[TOOL_CALL]{\"name\": \"search\", \"arguments\": {\"q\": " + levels},
        {"marker", "TOOL_CALL {\"name\": \"search\", \"arguments\": {\"q\": " + levels},
        {"json", "{\"name\": \"search\", \"arguments\": {\"q\": " + levels},
        {"bracket", "[search(q=" + levels},
        {"xml", [] {
             std::string s = "<tool_call><name>search</name><arguments>";
             for (int i = 0; i < 100000; ++i) s += "<a>";
             return s;
         }()},
        {"text_kv", "function.name: search\nfunction.arguments: {\"q\": " + levels},
    }));
    DYNAMIC_SECTION(row.profile) {
        Profile p = profile(row.profile);
        p.settings.tool_required = true;
        const Parser parser(p, weather_tools());
        const auto child = toolgram_test::parse_isolated(parser, row.text);
        INFO("child signal: " << child.signal);
        REQUIRE(child.exited_normally);
        const json& r = child.result;
        INFO(r.dump(2).substr(0, 4000));
        CHECK(r["calls"] == json::array());
        REQUIRE(r["telemetry"]["rejected"].size() == 1);
        CHECK(r["telemetry"]["rejected"][0]["reason"] == "nesting deeper than the limit of 64 levels");
    }
}

// =======================================================================================
// Result shapes

TEST_CASE("to_json: the documented keys, calls as {id, name, arguments}, error null or an object",
          "[combinator][json]") {
    const Parser parser(profile("tag"), weather_tools());
    SECTION("with a call") {
        const json j = toolgram::to_json(parser.parse("<think>hm</think>Calling. " + weather_tag));
        INFO(j.dump(2));
        std::set<std::string> keys;
        for (auto it = j.begin(); it != j.end(); ++it) keys.insert(it.key());
        CHECK(keys == std::set<std::string>{"calls", "content", "reasoning", "telemetry", "error"});
        CHECK(j["calls"] == json::array({weather_call}));
        CHECK(j["content"] == "Calling.");
        CHECK(j["reasoning"] == "hm");
        CHECK(j["error"].is_null());
        const json& t = j["telemetry"];
        for (const char* k : {"parse_mode", "grammar", "fallback_used", "candidate_count", "repairs", "healed",
                              "schema_validation", "saw_tool_syntax", "rejected"}) {
            CHECK(t.contains(k));
        }
        CHECK(t["parse_mode"] == "primary");
        CHECK(t["grammar"] == "tag");
        CHECK(t["fallback_used"] == false);
        CHECK(t["candidate_count"] == 1);
        CHECK(t["repairs"] == json::array());
        CHECK(t["healed"] == false);
        CHECK(t["schema_validation"] == json::parse(R"([{"candidate": 0, "name": "get_weather", "verdict": "pass"}])"));
        CHECK(t["saw_tool_syntax"] == true);
        CHECK(t["rejected"] == json::array());
    }
    SECTION("with an error") {
        const json j = toolgram::to_json(parser.parse(R"([TOOL_CALL]{"name": "nope", "arguments": {}}[/TOOL_CALL])"));
        INFO(j.dump(2));
        CHECK(j["calls"] == json::array());
        CHECK(j["telemetry"]["rejected"] ==
              json::parse(R"([{"name": "nope", "grammar": "tag", "code": "unknown_tool", "reason": "unknown tool \"nope\"", "span": [0, 56],
                               "text": "[TOOL_CALL]{\"name\": \"nope\", \"arguments\": {}}[/TOOL_CALL]"}])"));
        const json& e = j["error"];
        REQUIRE(e.is_object());
        std::set<std::string> keys;
        for (auto it = e.begin(); it != e.end(); ++it) keys.insert(it.key());
        CHECK(keys ==
              std::set<std::string>{"message", "offset", "line", "column", "expected", "correction_prompt"});
        CHECK(e["message"] == "unknown tool \"nope\"");
        CHECK(e["offset"] == 0);
        CHECK(e["line"] == 1);
        CHECK(e["column"] == 1);
        CHECK_FALSE(e["correction_prompt"].get<std::string>().empty());
    }
}

// The outcome codes a program decides on: each enumerator's name is the JSON's, and a
// result's JSON writes the enums it holds by those names.
TEST_CASE("outcome codes: parse mode and schema verdict by name, as the JSON writes them", "[combinator][telemetry]") {
    using toolgram::ParseMode;
    using toolgram::SchemaVerdict;
    CHECK(toolgram::to_string(ParseMode::none) == "none");
    CHECK(toolgram::to_string(ParseMode::primary) == "primary");
    CHECK(toolgram::to_string(ParseMode::fallback) == "fallback");
    CHECK(toolgram::to_string(SchemaVerdict::skipped) == "skipped");
    CHECK(toolgram::to_string(SchemaVerdict::pass) == "pass");
    CHECK(toolgram::to_string(SchemaVerdict::fail) == "fail");
    const Parser parser(profile("tag"), weather_tools());
    for (const std::string& text : {std::string(weather_tag), std::string("no call here"),
                                   std::string(R"([TOOL_CALL]{"name": "get_weather", "arguments": {"city": 5}}[/TOOL_CALL])")}) {
        const Result r = parser.parse(text);
        const json j = toolgram::to_json(r);
        INFO(j.dump(2));
        CHECK(j["telemetry"]["parse_mode"] == toolgram::to_string(r.telemetry.parse_mode));
        REQUIRE(j["telemetry"]["candidates"].size() == r.telemetry.candidates.size());
        for (std::size_t i = 0; i < r.telemetry.candidates.size(); ++i)
            CHECK(j["telemetry"]["candidates"][i]["schema"] == toolgram::to_string(r.telemetry.candidates[i].schema));
    }
    CHECK(parser.parse(weather_tag).telemetry.parse_mode == ParseMode::primary);
    CHECK(parser.parse("no call here").telemetry.parse_mode == ParseMode::none);
    const Result refused = parser.parse(R"([TOOL_CALL]{"name": "get_weather", "arguments": {"city": 5}}[/TOOL_CALL])");
    REQUIRE(refused.telemetry.candidates.size() == 1);
    CHECK(refused.telemetry.candidates[0].schema == SchemaVerdict::fail);
}

// A refusal's code is what a client switches on; its reason's wording may change. One
// output per code the judge gives, each checked against the reason's particulars too, and
// written into the JSON beside the reason.
TEST_CASE("outcome codes: each refusal has its rejection code beside its reason", "[combinator][telemetry]") {
    using toolgram::RejectionCode;
    auto call = [](const std::string& name, const std::string& arguments) {
        return "[TOOL_CALL]{\"name\": \"" + name + "\", \"arguments\": " + arguments + "}[/TOOL_CALL]";
    };
    Profile small = profile("tag");
    small.settings.limits.max_depth = 4;
    small.settings.limits.max_candidate_bytes = 200;
    Profile healing = profile("tag");
    healing.settings.accept_healed_calls = false;
    std::vector<Tool> twins = weather_tools();
    twins.push_back(tool("Get_Weather"));
    struct Case {
        const Parser* parser;
        std::string text;
        RejectionCode code;
        std::string reason_has;
    };
    const Parser tagged(profile("tag"), weather_tools());
    const Parser limited(small, weather_tools());
    const Parser healer(healing, weather_tools());
    const Parser none_allowed(profile("tag"), std::vector<Tool>{});
    const Parser ambiguous(profile("tag"), twins);
    const std::vector<Case> cases = {
        {&tagged, call("rm_rf", "{}"), RejectionCode::unknown_tool, "unknown tool \"rm_rf\""},
        {&ambiguous, call("GET_WEATHER", R"({"city": "Oslo"})"), RejectionCode::ambiguous_tool, "is ambiguous"},
        {&tagged, call("get_weather", R"({"city": 5})"), RejectionCode::schema_mismatch, "arguments fail the schema"},
        {&tagged, call("get_weather", R"({"city": "a", "city": "b"})"), RejectionCode::repeated_key, "repeats a key"},
        {&none_allowed, call("get_weather", R"({"city": "Oslo"})"), RejectionCode::no_tools, "the tool list is empty"},
        {&limited, call("get_weather", R"({"city": "Oslo", "days": [[[[[1]]]]]})"), RejectionCode::too_deep, "nesting"},
        {&limited, call("get_weather", R"({"city": ")" + std::string(300, 'x') + "\"}"), RejectionCode::too_large,
         "exceeds the limit of 200"},
        {&healer, R"([TOOL_CALL]{"name": "get_weather", "arguments": {"city": "Oslo"})", RejectionCode::healed,
         "accept_healed_calls is off"},
        {&tagged, call("get_weather", R"("Oslo")"), RejectionCode::bad_arguments, "arguments"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const Result r = c.parser->parse(c.text);
        CHECK(r.calls.empty());
        REQUIRE(r.telemetry.candidates.size() == 1);
        const auto& report = r.telemetry.candidates[0];
        CHECK_FALSE(report.accepted);
        CHECK(report.code == c.code);
        CHECK_THAT(report.reason, Catch::Matchers::Contains(c.reason_has));
        REQUIRE(r.telemetry.rejected.size() == 1);
        CHECK(r.telemetry.rejected[0].code == c.code);
        const json j = toolgram::to_json(r);
        CHECK(j["telemetry"]["candidates"][0]["code"] == toolgram::to_string(c.code));
        CHECK(j["telemetry"]["rejected"][0]["code"] == toolgram::to_string(c.code));
    }
    // An accepted candidate has none, and its JSON no code (as it has no reason).
    const Result ok = tagged.parse(weather_tag);
    REQUIRE(ok.telemetry.candidates.size() == 1);
    CHECK(ok.telemetry.candidates[0].code == RejectionCode::none);
    CHECK_FALSE(toolgram::to_json(ok)["telemetry"]["candidates"][0].contains("code"));
    // Stretches of the output that were not judged have theirs.
    Profile few = profile("tag");
    few.settings.limits.max_candidates = 1;
    few.settings.limits.max_input_bytes = 4 * weather_tag.size();
    const Result past = Parser(few, weather_tools()).parse(weather_tag + weather_tag + std::string(4 * weather_tag.size(), ' '));
    std::vector<RejectionCode> codes;
    for (const auto& x : past.telemetry.rejected) codes.push_back(x.code);
    CHECK(codes == std::vector<RejectionCode>{RejectionCode::input_limit, RejectionCode::candidate_limit});
    CHECK(toolgram::to_string(RejectionCode::candidate_limit) == "candidate_limit");
    CHECK(toolgram::to_string(RejectionCode::none) == "none");
}

// No refusal goes without its code: over every corpus case, a candidate is accepted with
// none or refused with one, and each rejection has one.
TEST_CASE("outcome codes: every refusal in the corpus has a code, every acceptance none", "[combinator][telemetry]") {
    std::size_t refusals = 0;
    for (const auto& c : toolgram_test::all_cases()) {
        const json spec = json::parse(toolgram_test::slurp(c.expect));
        const Parser parser =
            toolgram_test::parser_with(toolgram_test::profile_for(spec, c.text.parent_path()), toolgram_test::tools_for(spec));
        const Result r = parser.parse(toolgram_test::slurp(c.text));
        INFO(c.text.string());
        for (const auto& report : r.telemetry.candidates) {
            CHECK((report.code == toolgram::RejectionCode::none) == report.accepted);
            refusals += report.accepted ? 0 : 1;
        }
        for (const auto& x : r.telemetry.rejected) CHECK(x.code != toolgram::RejectionCode::none);
    }
    CHECK(refusals > 100);
}

TEST_CASE("to_openai_message: an assistant message with tool_calls whose arguments are a JSON string",
          "[combinator][json]") {
    const Parser parser(profile("tag"), weather_tools());
    SECTION("calls, content and reasoning") {
        const json m = toolgram::to_openai_message(
            parser.parse("<think>hm</think>Calling. " + weather_tag +
                         R"([TOOL_CALL]{"id": "s9", "name": "search", "arguments": {"q": "ü"}}[/TOOL_CALL])"));
        INFO(m.dump(2));
        CHECK(m["role"] == "assistant");
        CHECK(m["content"] == "Calling.");
        CHECK(m["reasoning_content"] == "hm");
        REQUIRE(m["tool_calls"].size() == 2);
        const json& c0 = m["tool_calls"][0];
        CHECK(c0["id"] == "call_0");
        CHECK(c0["type"] == "function");
        CHECK(c0["function"]["name"] == "get_weather");
        REQUIRE(c0["function"]["arguments"].is_string());
        CHECK(json::parse(c0["function"]["arguments"].get<std::string>()) == json{{"city", "Antwerp"}});
        const json& c1 = m["tool_calls"][1];
        CHECK(c1["id"] == "s9");
        CHECK(json::parse(c1["function"]["arguments"].get<std::string>()) == json{{"q", "ü"}});
    }
    SECTION("no call: content only, no tool_calls key") {
        const json m = toolgram::to_openai_message(parser.parse("Just text."));
        CHECK(m == json{{"role", "assistant"}, {"content", "Just text."}});
    }
    SECTION("only a call: content is null") {
        const json m = toolgram::to_openai_message(parser.parse(weather_tag));
        CHECK(m["content"].is_null());
        CHECK(m["tool_calls"].size() == 1);
        CHECK_FALSE(m.contains("reasoning_content"));
    }
}

// =======================================================================================
// tools_from_json

TEST_CASE("tools_from_json reads OpenAI's tools array and bare tool objects", "[combinator][tools]") {
    const json params = json::parse(R"({"type": "object", "properties": {"q": {"type": "string"}}})");
    SECTION("OpenAI array") {
        const auto tools = toolgram::tools_from_json(json::parse(R"([
            {"type": "function", "function": {"name": "search", "description": "Search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}},
            {"type": "function", "function": {"name": "now"}}
        ])"));
        REQUIRE(tools.size() == 2);
        CHECK(tools[0].name == "search");
        CHECK(tools[0].description == "Search");
        CHECK(tools[0].parameters == params);
        CHECK(tools[1].name == "now");
        CHECK(tools[1].description.empty());
        CHECK(tools[1].parameters == json::object());
    }
    SECTION("bare objects") {
        const auto tools = toolgram::tools_from_json(json::parse(
            R"([{"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}, {"name": "now", "parameters": null}])"));
        REQUIRE(tools.size() == 2);
        CHECK(tools[0].name == "search");
        CHECK(tools[0].parameters == params);
        CHECK(tools[1].parameters == json::object());
    }
    SECTION("one object, a {tools: [...]} wrapper, and null") {
        CHECK(toolgram::tools_from_json(json::parse(R"({"name": "now"})")).at(0).name == "now");
        CHECK(toolgram::tools_from_json(json::parse(R"({"tools": [{"name": "a"}, {"name": "b"}]})")).size() == 2);
        CHECK(toolgram::tools_from_json(nullptr).empty());
        CHECK(toolgram::tools_from_json(json::array()).empty());
    }
}

TEST_CASE("tools_from_json names the offending entry", "[combinator][tools]") {
    struct Row {
        std::string input;
        std::string message_part;
    };
    const auto row = GENERATE(values<Row>({
        {"5", "tools must be a JSON array"},
        {R"("search")", "tools must be a JSON array"},
        {"[5]", "tools[0] is not an object"},
        {R"([{"name": "a"}, {"description": "no name"}])", "tools[1] has no \"name\" string"},
        {R"([{"name": ""}])", "tools[0] has no \"name\" string"},
        {R"([{"name": 5}])", "tools[0] has no \"name\" string"},
        {R"([{"type": "function", "function": "search"}])", "tools[0].function is not an object"},
        {R"([{"name": "a", "parameters": [1]}])", "tools[0] (a): \"parameters\" is not an object"},
    }));
    DYNAMIC_SECTION(row.input) {
        const json input = json::parse(row.input);
        CHECK_THROWS_AS(toolgram::tools_from_json(input), std::invalid_argument);
        CHECK_THROWS_WITH(toolgram::tools_from_json(input), Catch::Contains(row.message_part));
    }
}

// =======================================================================================
// Parser construction

TEST_CASE("Parser construction refuses bad configuration with std::invalid_argument", "[combinator][config]") {
    SECTION("unknown built-in profile") {
        CHECK_THROWS_AS(toolgram::builtin_profile("nope"), std::invalid_argument);
        CHECK_THROWS_WITH(toolgram::builtin_profile("nope"), Catch::Contains("nope") && Catch::Contains("tag"));
    }
    SECTION("unknown grammar in a profile") {
        Profile p = profile("tag");
        p.grammars.push_back({"klingon", Role::fallback});
        CHECK_THROWS_AS(Parser(p), std::invalid_argument);
        CHECK_THROWS_WITH(Parser(p), Catch::Contains("klingon"));
    }
    SECTION("a profile with no grammar") {
        Profile p;
        p.name = "empty";
        CHECK_THROWS_AS(Parser(p), std::invalid_argument);
    }
    SECTION("a tool declared twice, or with no name") {
        CHECK_THROWS_AS(Parser(profile("tag"), {tool("t"), tool("t")}), std::invalid_argument);
        CHECK_THROWS_AS(Parser(profile("tag"), {tool("")}), std::invalid_argument);
    }
    SECTION("every built-in profile builds") {
        for (const auto& name : toolgram::builtin_profile_names()) {
            CAPTURE(name);
            const Parser parser(profile(name), weather_tools());
            CHECK(parser.profile().name == name);
            CHECK(parser.tools().size() == weather_tools().size());
        }
        // The generic profiles come first; the model families (issue 3) follow them.
        const auto names = toolgram::builtin_profile_names();
        REQUIRE(names.size() >= 8);
        CHECK(std::vector<std::string>(names.begin(), names.begin() + 8) ==
              std::vector<std::string>{"auto", "tag", "marker", "json", "generic", "bracket", "xml", "text_kv"});
    }
}

// =======================================================================================
// format_instruction

TEST_CASE("format_instruction teaches the profile's primary syntax and lists the tools", "[combinator][instruction]") {
    struct Row {
        std::string profile;
        std::vector<std::string> syntax;
    };
    const auto row = GENERATE(values<Row>({
        {"tag", {"[TOOL_CALL]", "[/TOOL_CALL]", "\"name\"", "\"arguments\""}},
        {"auto", {"[TOOL_CALL]", "[/TOOL_CALL]"}},
        {"marker", {"TOOL_CALL", "\"tool_name\"", "\"parameters\""}},
        {"json", {"JSON", "\"name\"", "\"arguments\""}},
        {"bracket", {"[TOOL_NAME(PARAM="}},
        {"xml", {"<invoke name=\"TOOL_NAME\">", "<parameter name=\"PARAM\">"}},
        {"text_kv", {"function.name:", "function.arguments:", "need_tool: yes"}},
    }));
    DYNAMIC_SECTION(row.profile) {
        const std::string inst = toolgram::format_instruction(profile(row.profile), weather_tools());
        INFO(inst);
        for (const auto& s : row.syntax) CHECK_THAT(inst, Catch::Contains(s));
        CHECK_THAT(inst, Catch::Contains("get_weather: Weather for a city") && Catch::Contains("search: Search the web"));
        CHECK_THAT(inst, Catch::Contains(weather_tools()[0].parameters.dump()));
    }
}

TEST_CASE("format_instruction says so when no tool is declared", "[combinator][instruction]") {
    const std::string inst = toolgram::format_instruction(profile("tag"), {});
    CHECK_THAT(inst, Catch::Contains("[TOOL_CALL]") && Catch::Contains("no tools are declared"));
}

// ---------------------------------------------------------------------------------------
// Specific before generic (docs/adding-a-grammar.md, "Which grammar reads a place").

namespace {

Profile listing(const std::string& name, std::vector<std::string> grammars) {
    Profile p;
    p.name = name;
    for (auto& g : grammars) p.grammars.push_back({std::move(g), Role::primary});
    return p;
}

// The one-shot result, after checking that what a client of the stream (fed 7 bytes at a
// time) holds from the events alone agrees with it (stream_agreement.hpp).
json parsed_both_ways(const Parser& parser, std::string_view text) {
    const toolgram::Result once = parser.parse(text);
    CHECK(toolgram_test::disagreement(toolgram_test::stream(parser, text, toolgram_test::cuts_every(text.size(), 7)),
                                      once) == "");
    return toolgram::to_json(once);
}

}  // namespace

TEST_CASE("specific before generic: a family's grammar reads its syntax where a generic one also matches",
          "[combinator][specificity]") {
    // HY-V3's section opens with <tool_call…, a marker of xml's too; xml is listed first.
    const std::string hy_v3 =
        "Checking.\n<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Oslo</arg_value>"
        "</tool_call></tool_calls>";
    for (const auto& order : {std::vector<std::string>{"xml", "hy_v3"}, std::vector<std::string>{"hy_v3", "xml"}}) {
        const Parser parser(listing("xml_and_hy_v3", order), weather_tools());
        const json once = parsed_both_ways(parser, hy_v3);
        CAPTURE(order, once.dump(2));
        CHECK(once["calls"] == json::parse(R"([{"id": "call_0", "name": "get_weather", "arguments": {"city": "Oslo"}}])"));
        CHECK(once["telemetry"]["grammar"] == "hy_v3");
        CHECK(once["telemetry"]["rejected"] == json::array());
        CHECK(once["content"] == "Checking.");
    }
    // The same under auto, where tag, xml and marker are listed first.
    const Parser automatic(profile("auto"), weather_tools());
    const json got = toolgram::to_json(automatic.parse(hy_v3));
    CHECK(got["telemetry"]["grammar"] == "hy_v3");
    CHECK(got["calls"].size() == 1);
}

TEST_CASE("specific before generic: what the family's grammar declines, the generic one still reads",
          "[combinator][specificity]") {
    // <tool_call>{…}</tool_call> is no HY-V3 section: hy_v3 has no marker there, xml reads it.
    // <tool_calls> holding XML markup: hy_v3's marker, but not its syntax (no bare name
    // after <tool_call>), so it declines and xml reads the place.
    const Parser parser(listing("hy_v3_then_xml", {"xml", "hy_v3"}), weather_tools());
    const std::string markup =
        "<tool_calls><tool_call><invoke name=\"get_weather\"><parameter name=\"city\">Oslo</parameter></invoke>"
        "</tool_call></tool_calls>";
    const json once = parsed_both_ways(parser, markup);
    CAPTURE(once.dump(2));
    CHECK(once["calls"] == json::parse(R"([{"id": "call_0", "name": "get_weather", "arguments": {"city": "Oslo"}}])"));
    CHECK(once["telemetry"]["grammar"] == "xml");
}

TEST_CASE("specific before generic: between two generic grammars the profile's order decides",
          "[combinator][specificity]") {
    const std::string text = "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}</tool_call>";
    for (const auto& [order, reader] : {std::pair<std::vector<std::string>, std::string>{{"tag", "xml"}, "tag"},
                                        std::pair<std::vector<std::string>, std::string>{{"xml", "tag"}, "xml"}}) {
        const Parser parser(listing("two_generic", order), weather_tools());
        const json got = toolgram::to_json(parser.parse(text));
        CAPTURE(order, got.dump(2));
        CHECK(got["telemetry"]["grammar"] == reader);
        CHECK(got["calls"].size() == 1);
    }
    // And the correction prompt keeps teaching the profile's first grammar, generic or not.
    const Parser parser(listing("xml_and_hy_v3", {"xml", "hy_v3"}), weather_tools());
    const Result broken = parser.parse("<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key>");
    REQUIRE(broken.error.has_value());
    CHECK(broken.error->expected.find("Write each tool call as XML") == 0);
}

}  // namespace combinator_test
