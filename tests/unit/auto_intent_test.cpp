// `auto` on outputs with no marker of their own (src/profiles/profiles.cpp, src/combinator/parser.cpp): a
// whole output `WORD\n{…}` is Functionary v3.2's headless message only as a gated
// fallback, what follows an intent marker is read by the whole-output fallbacks, and an
// echoed call-history record is never a new call. The functionary_v32 profile keeps its
// own reading.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "call_lists.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace auto_intent_test {

using toolgram_test::calls_with_ids;

using toolgram::json;
using toolgram::Parser;
using toolgram::Result;

namespace {

std::vector<toolgram::Tool> weather_tools() {
    return toolgram::tools_from_json(json::parse(R"([
        {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                               "required": ["city"], "additionalProperties": false}}])"));
}

std::vector<std::string> reasons(const Result& r) {
    std::vector<std::string> out;
    for (const auto& x : r.telemetry.rejected) out.push_back(x.reason);
    return out;
}

Result parse(const std::string& profile, const std::string& text, bool tools = true, bool required = false) {
    toolgram::Profile p = toolgram::builtin_profile(profile);
    p.settings.tool_required = required;
    return (tools ? Parser(p, weather_tools()) : Parser(p)).parse(text);
}

const json paris = json::array({{{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "Paris"}}}}});
const std::string no_intent = "fallback gate: no intent shown (no intent marker, and no tool call was required)";

}  // namespace

TEST_CASE("auto: a whole output of a word, then a JSON object on the next line, is not a call named after the word", "[auto][intent]") {
    for (bool tools : {false, true}) {
        CAPTURE(tools);
        const std::string text = "Result\n{\"x\": 1}";
        const Result r = parse("auto", text, tools);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(r.content == text);
        CHECK(reasons(r) == std::vector<std::string>{no_intent});
        CHECK_FALSE(r.error.has_value());
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
    }
}

TEST_CASE("auto: Functionary's headless message is a gated fallback, its marked messages primary", "[auto][intent]") {
    const std::string headless = "get_weather\n{\"city\": \"Paris\"}";
    SECTION("without intent: reported, not a call") {
        const Result r = parse("auto", headless);
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{no_intent});
        CHECK(r.content == headless);
    }
    SECTION("with a tool call required: a call, through the fallback") {
        const Result r = parse("auto", headless, true, true);
        CHECK(calls_with_ids(r) == paris);
        CHECK(r.content.empty());
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::fallback);
        CHECK(r.telemetry.grammar == "functionary_v32");
    }
    SECTION("a >>> message is Functionary's by its marker, and so is the headless one before it") {
        const Result r = parse("auto", headless + ">>>get_weather\n{\"city\": \"Rome\"}");
        CHECK(r.calls.size() == 2);
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::primary);
        CHECK(r.telemetry.grammar == "functionary_v32");  // its calls carry the family's name
    }
}

TEST_CASE("functionary_v32 keeps its own reading: the prompt ended with >>>", "[auto][intent][families]") {
    SECTION("a headless call is a call without intent") {
        const Result r = parse("functionary_v32", "get_weather\n{\"city\": \"Paris\"}");
        CHECK(calls_with_ids(r) == paris);
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::primary);
    }
    SECTION("an unknown recipient is a refused call, with a correction prompt") {
        const Result r = parse("functionary_v32", "CALL_TOOL\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}");
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{"unknown tool \"CALL_TOOL\""});
        REQUIRE(r.error.has_value());
    }
}

TEST_CASE("auto: after an intent marker, the common bare JSON call shapes are read", "[auto][intent]") {
    struct Row {
        std::string text, content;
    };
    const std::vector<Row> table = {
        {"CALL_TOOL\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", "CALL_TOOL"},
        {"CALL_TOOL\n{\"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", "CALL_TOOL"},
        {"need_tool: yes\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", "need_tool: yes"},
        {"CALL_TOOL: {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}", "CALL_TOOL:"},
        {"I need the forecast first.\nCALL_TOOL\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}",
         "I need the forecast first.\nCALL_TOOL"},
        {"call_tool\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]", "call_tool"},
    };
    for (const auto& row : table) {
        CAPTURE(row.text);
        const Result r = parse("auto", row.text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == paris);
        CHECK(r.content == row.content);
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::fallback);
        CHECK(r.telemetry.rejected.empty());
    }
}

TEST_CASE("auto: after an intent marker, what is not a call stays content", "[auto][intent]") {
    for (const std::string text : {"CALL_TOOL\n{\"x\": 1}", "CALL_TOOL\nI could not decide.", "need_tool: yes"}) {
        CAPTURE(text);
        const Result r = parse("auto", text);
        CHECK(r.calls.empty());
        CHECK(r.content == text);
        CHECK_FALSE(r.error.has_value());
    }
    SECTION("a call object for an undeclared tool is refused with the reason") {
        const Result r = parse("auto", "CALL_TOOL\n{\"name\": \"get_time\", \"arguments\": {}}");
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{"unknown tool \"get_time\""});
    }
}

// =======================================================================================
// Echoed call history

TEST_CASE("an echoed [TOOL_CALL_HISTORY] record with its status is never a new call", "[text_kv][history]") {
    const std::string record = "[TOOL_CALL_HISTORY]\nfunction.name: get_weather\nfunction.arguments: {\"city\": \"Paris\"}\n"
                               "status: already_called\n[/TOOL_CALL_HISTORY]";
    const std::string echo = "an echo of the call history (status: already_called), a record of a call already made, "
                             "not a new call";
    for (const char* profile : {"auto", "text_kv"}) {
        CAPTURE(profile);
        SECTION(std::string("the gate open by intent, ") + profile) {
            const std::string text = "CALL_TOOL\n" + record;
            const Result r = parse(profile, text);
            INFO(toolgram::to_json(r).dump(2));
            CHECK(r.calls.empty());
            CHECK(reasons(r) == std::vector<std::string>{echo});
            CHECK(r.content == text);
            CHECK_FALSE(r.error.has_value());
            CHECK(r.telemetry.saw_tool_syntax);
        }
        SECTION(std::string("the status before the pair, a call required, ") + profile) {
            const Result r = parse(profile,
                                   "[TOOL_CALL_HISTORY]\nstatus: already_called\nAction: get_weather\nAction Input: "
                                   "{\"city\": \"Paris\"}\n[/TOOL_CALL_HISTORY]",
                                   true, true);
            CHECK(r.calls.empty());
            CHECK(reasons(r) == std::vector<std::string>{echo});
        }
        SECTION(std::string("a record echoed bare, its status on the next line, ") + profile) {
            const Result r = parse(profile,
                                   "function.name: get_weather\nfunction.arguments: {\"city\": \"Paris\"}\nstatus: done",
                                   true, true);
            CHECK(r.calls.empty());
            REQUIRE(r.telemetry.rejected.size() == 1);
            CHECK_THAT(r.telemetry.rejected[0].reason, Catch::StartsWith("an echo of the call history (status: done)"));
        }
        SECTION(std::string("an echo does not count against the new call after it, ") + profile) {
            const Result r = parse(profile, "CALL_TOOL\n" + record +
                                                "\nfunction.name: get_weather\nfunction.arguments: {\"city\": \"Paris\"}");
            INFO(toolgram::to_json(r).dump(2));
            CHECK(calls_with_ids(r) == paris);
            CHECK(reasons(r) == std::vector<std::string>{echo});
        }
        SECTION(std::string("a history wrapper without a status is still a call, as before, ") + profile) {
            const Result r = parse(profile,
                                   "CALL_TOOL\n[TOOL_CALL_HISTORY]\nfunction.name: get_weather\nfunction.arguments: "
                                   "{\"city\": \"Paris\"}\n[/TOOL_CALL_HISTORY]");
            CHECK(calls_with_ids(r) == paris);
        }
    }
}

}  // namespace auto_intent_test
