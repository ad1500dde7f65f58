// Each generic format grammar (docs/formats.md), driven end to end through toolgram::Parser with the
// built-in profile of the same name: one row per variant the format allows, asserting the
// calls (ids included), the content left over, and the telemetry the combinator writes
// (parse mode, grammar, candidate count, repairs, healed, rejections, error).
//
// The last part runs PEGTL's grammar analyser over every top rule: it proves at compile
// time plus a moment's run time that no rule can loop without consuming input.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "bracket.hpp"
#include "call_lists.hpp"
#include "isolated_parse.hpp"
#include "common/lenient_value.hpp"
#include "marker.hpp"
#include "common/python_call.hpp"
#include "strict_json.hpp"
#include "tag.hpp"
#include "text_kv.hpp"
#include "toolgram/toolgram.hpp"
#include "xml.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammars_test {

using toolgram_test::calls_with_ids;

using toolgram::json;

namespace {

std::vector<toolgram::Tool> small_tools() {
    return toolgram::tools_from_json(json::parse(R"([
        {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
         "parameters": {"type": "object",
                        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                        "required": ["city"]}}},
        {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
    ])"));
}

// One variant of a format and everything that must come out of it.
struct Case {
    std::string label;
    std::string text;
    json calls;  // [{"id", "name", "arguments"}]
    std::string content;
    std::vector<std::string> repairs = {};
    bool healed = false;
    bool with_tools = true;
};

toolgram::Result run(const std::string& profile_name, const Case& c, bool tool_required = false) {
    toolgram::Profile profile = toolgram::builtin_profile(profile_name);
    profile.settings.tool_required = tool_required;
    return (c.with_tools ? toolgram::Parser(profile, small_tools()) : toolgram::Parser(profile)).parse(c.text);
}

// The whole result of a case whose every candidate becomes a call.
void check_accepted(const toolgram::Result& r, const Case& c, const std::string& grammar, const std::string& mode) {
    INFO(toolgram::to_json(r).dump(2));
    CHECK(calls_with_ids(r) == c.calls);
    CHECK(r.content == c.content);
    CHECK(r.reasoning.empty());
    CHECK_FALSE(r.error.has_value());
    const auto& t = r.telemetry;
    CHECK(toolgram::to_string(t.parse_mode) == mode);
    CHECK(t.grammar == grammar);
    CHECK(t.fallback_used == (mode == "fallback"));
    CHECK(t.candidate_count == c.calls.size());
    CHECK(t.candidates.size() == c.calls.size());
    CHECK(t.repairs == c.repairs);
    CHECK(t.healed == c.healed);
    for (const auto& call : r.calls) CHECK(call.healed == c.healed);  // each call of a healed block says so
    CHECK(t.saw_tool_syntax);
    CHECK(t.rejected.empty());
    for (const auto& cand : t.candidates) {
        CHECK(cand.grammar == grammar);
        CHECK(cand.accepted);
        CHECK(cand.reason.empty());
        CHECK(cand.schema == (c.with_tools ? toolgram::SchemaVerdict::pass : toolgram::SchemaVerdict::skipped));
        CHECK(cand.role == (mode == "fallback" ? toolgram::Role::fallback : toolgram::Role::primary));
        CHECK(cand.begin < cand.end);
        CHECK(cand.end <= c.text.size());
    }
}

// The result of text that holds no tool syntax at all: everything is content.
void check_no_syntax(const toolgram::Result& r, const std::string& text) {
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.content == text);
    CHECK_FALSE(r.error.has_value());
    CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
    CHECK(r.telemetry.candidate_count == 0);
    CHECK_FALSE(r.telemetry.saw_tool_syntax);
    CHECK(r.telemetry.rejected.empty());
}

json call(const std::string& id, const std::string& name, json arguments) {
    return {{"id", id}, {"name", name}, {"arguments", std::move(arguments)}};
}
// A call as to_json writes one whose closers the end of output cut off.
json healed_call(const std::string& id, const std::string& name, json arguments) {
    json c = call(id, name, std::move(arguments));
    c["healed"] = true;
    return c;
}

}  // namespace

// =======================================================================================
// tag

namespace {
std::vector<Case> tag_cases() {
    const json weather = call("call_0", "get_weather", {{"city", "Antwerp"}});
    return {
        {"default tags, name and args", R"([TOOL_CALL]{"name":"get_weather","args":{"city":"Antwerp"}}[/TOOL_CALL])",
         json::array({weather}), ""},
        {"<tool name=...> with prose around",
         R"(Sure. <tool name="get_weather">{"city": "Antwerp"}</tool> Done.)", json::array({weather}), "Sure. Done."},
        {"<tool_call>{...}</tool_call>",
         "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"pegtl\"}}\n</tool_call>",
         json::array({call("call_0", "search", {{"q", "pegtl"}})}), ""},
        {"array payload in tags",
         R"([TOOL_CALL][{"name":"get_weather","arguments":{"city":"Antwerp"}},{"name":"search","arguments":{"q":"x"}}][/TOOL_CALL])",
         json::array({weather, call("call_1", "search", {{"q", "x"}})}), ""},
        {"fence inside tags",
         "[TOOL_CALL]\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Antwerp\"}}\n```\n[/TOOL_CALL]",
         json::array({weather}), "", {"fence_inside_tags"}},
        {"trailing garbage before the end tag",
         R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}} oops, extra text[/TOOL_CALL] after)",
         json::array({weather}), "after", {"trailing_text_ignored"}},
        {"missing end tag, prose follows",
         R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}} and more text)",
         json::array({weather}), "and more text", {"missing_end_tag"}},
        {"end tag cut off at the end of output",
         R"(Checking. [TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}})", json::array({weather}),
         "Checking.", {"missing_end_tag", "healed_truncation"}, true},
        {"payload closers cut off at the end of output",
         R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp")", json::array({weather}), "",
         {"missing_end_tag", "healed_truncation"}, true},
        {"two blocks with prose between",
         "First. [TOOL_CALL]{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Antwerp\"}}[/TOOL_CALL] Then. "
         "<tool_call>{\"name\":\"search\",\"arguments\":{\"q\":\"x\"}}</tool_call> Last.",
         json::array({weather, call("call_1", "search", {{"q", "x"}})}), "First. Then. Last."},
        {"two blocks on lines of their own",
         "First.\n[TOOL_CALL]{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Antwerp\"}}[/TOOL_CALL]\nThen."
         "\n\n<tool_call>{\"name\":\"search\",\"arguments\":{\"q\":\"x\"}}</tool_call>\nLast.",
         json::array({weather, call("call_1", "search", {{"q", "x"}})}), "First.\nThen.\n\nLast."},
        {"Python-style payload", R"([TOOL_CALL]{'name': 'get_weather', 'arguments': {'city': 'Antwerp'}}[/TOOL_CALL])",
         json::array({weather}), "", {"single_quotes"}},
        {"arguments as a JSON string",
         R"([TOOL_CALL]{"name":"get_weather","arguments":"{\"city\": \"Antwerp\"}"}[/TOOL_CALL])",
         json::array({weather}), "", {"arguments_json_string"}},
        {"id given in the payload is kept",
         R"([TOOL_CALL]{"id":"w1","name":"get_weather","arguments":{"city":"Antwerp"}}[/TOOL_CALL])",
         json::array({call("w1", "get_weather", {{"city", "Antwerp"}})}), ""},
        {"no tools: any name is accepted, nothing validated",
         R"([TOOL_CALL]{"name":"anything","arguments":{"x":[1,2]}}[/TOOL_CALL])",
         json::array({call("call_0", "anything", {{"x", {1, 2}}})}), "", {}, false, false},
    };
}
}  // namespace

TEST_CASE("tag grammar: every variant of the tag format becomes the expected calls", "[grammar][tag]") {
    const Case c = GENERATE(from_range(tag_cases()));
    DYNAMIC_SECTION(c.label) { check_accepted(run("tag", c), c, "tag", "primary"); }
}

TEST_CASE("tag grammar: tags are configurable at run time", "[grammar][tag]") {
    toolgram::Profile profile = toolgram::builtin_profile("tag");
    profile.settings.tag_open = "<<CALL>>";
    profile.settings.tag_close = "<</CALL>>";
    const toolgram::Parser parser(profile, small_tools());

    SECTION("the configured tags are read") {
        const Case c{"custom tags", R"(Now: <<CALL>>{"name":"search","arguments":{"q":"x"}}<</CALL>> ok)",
                     json::array({call("call_0", "search", {{"q", "x"}})}), "Now: ok"};
        check_accepted(parser.parse(c.text), c, "tag", "primary");
    }
    SECTION("the default tags are no longer tags") {
        const std::string text = R"([TOOL_CALL]{"name":"search","arguments":{"q":"x"}}[/TOOL_CALL])";
        check_no_syntax(parser.parse(text), text);
    }
    SECTION("the format instruction teaches the configured tags") {
        const std::string inst = toolgram::format_instruction(profile, small_tools());
        CHECK_THAT(inst, Catch::Contains("<<CALL>>") && Catch::Contains("<</CALL>>"));
        CHECK_THAT(inst, !Catch::Contains("[TOOL_CALL]"));
    }
}

TEST_CASE("tag grammar: a tag mentioned in prose is not tool syntax", "[grammar][tag]") {
    const std::string text = GENERATE(as<std::string>{}, "Wrap calls in [TOOL_CALL] and [/TOOL_CALL] tags.",
                                      "The <tool_call> element is what Hermes writes.",
                                      "A <tool name=\"x\"> tag holds JSON.");
    const toolgram::Parser parser(toolgram::builtin_profile("tag"), small_tools());
    check_no_syntax(parser.parse(text), text);
}

TEST_CASE("tag grammar: a payload cut mid-string is rejected as a cut, with a format error", "[grammar][tag]") {
    const std::string text = R"(Sure. [TOOL_CALL]{"name": "get_weather", "arguments": {"city": "Antw)";
    const toolgram::Parser parser(toolgram::builtin_profile("tag"), small_tools());
    const toolgram::Result r = parser.parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.content == "Sure.");
    CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
    CHECK(r.telemetry.grammar == "tag");
    CHECK(r.telemetry.candidate_count == 1);
    CHECK(r.telemetry.saw_tool_syntax);
    REQUIRE(r.telemetry.rejected.size() == 1);
    CHECK(r.telemetry.rejected[0].grammar == "tag");
    CHECK(r.telemetry.rejected[0].reason == "output cut mid-string");
    REQUIRE(r.error.has_value());
    CHECK(r.error->message == "output cut mid-string");
    CHECK_THAT(r.error->correction_prompt, Catch::Contains("[TOOL_CALL]"));
}

// =======================================================================================
// marker

namespace {
std::vector<Case> marker_cases() {
    const json weather = call("call_0", "get_weather", {{"city", "Antwerp"}});
    std::vector<Case> cases = {
        {"prose before and after",
         R"(Let me check. TOOL_CALL {"tool_name": "get_weather", "parameters": {"city": "Antwerp"}} then prose)",
         json::array({weather}), "Let me check. then prose"},
        {"colon and fenced payload on the next lines",
         "TOOL_CALL:\n```json\n{\"tool\": \"get_weather\", \"params\": {\"city\": \"Antwerp\"}}\n```\nbye",
         json::array({weather}), "bye", {"fenced_payload"}},
        {"two markers",
         "TOOL_CALL {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Antwerp\"}}\n"
         "TOOL_CALL {\"name\": \"search\", \"params\": {\"q\": \"x\"}}",
         json::array({weather, call("call_1", "search", {{"q", "x"}})}), ""},
        {"payload healed at the end of output", R"(TOOL_CALL {"tool": "get_weather", "params": {"city": "Antwerp")",
         json::array({weather}), "", {"healed_truncation"}, true},
    };
    // Every pairing of the name and arguments aliases the marker format documents.
    for (const char* name_key : {"tool_name", "tool", "name"}) {
        for (const char* args_key : {"parameters", "params"}) {
            Case c;
            c.label = std::string("aliases ") + name_key + "/" + args_key;
            c.text = std::string("TOOL_CALL\n{\"") + name_key + "\": \"get_weather\", \"" + args_key +
                     "\": {\"city\": \"Antwerp\"}}";
            c.calls = json::array({weather});
            cases.push_back(c);
        }
    }
    return cases;
}
}  // namespace

TEST_CASE("marker grammar: TOOL_CALL then an object, with every key alias", "[grammar][marker]") {
    const Case c = GENERATE(from_range(marker_cases()));
    DYNAMIC_SECTION(c.label) { check_accepted(run("marker", c), c, "marker", "primary"); }
}

TEST_CASE("marker grammar: the keyword inside another word or tag is not a marker", "[grammar][marker]") {
    const std::string text = GENERATE(as<std::string>{},
                                      R"(MY_TOOL_CALL {"name": "search", "params": {"q": "x"}})",
                                      R"(TOOL_CALLS {"name": "search", "params": {"q": "x"}})",
                                      "Write TOOL_CALL before the JSON object.");
    const toolgram::Parser parser(toolgram::builtin_profile("marker"), small_tools());
    check_no_syntax(parser.parse(text), text);
}

// =======================================================================================
// strict JSON

namespace {
std::vector<Case> json_cases() {
    const json weather = call("call_0", "get_weather", {{"city", "Antwerp"}});
    return {
        {"a call object", R"({"tool": "get_weather", "arguments": {"city": "Antwerp"}})", json::array({weather}), ""},
        {"surrounding whitespace", "\n  {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Antwerp\"}}\n\n",
         json::array({weather}), ""},
        {"an array of calls",
         R"([{"name": "get_weather", "arguments": {"city": "Antwerp"}}, {"name": "search", "parameters": {"q": "x"}}])",
         json::array({weather, call("call_1", "search", {{"q", "x"}})}), ""},
        {"tool_calls wrapper with OpenAI entries and ids",
         R"({"tool_calls": [{"id": "call_abc", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Antwerp\"}"}},
                           {"id": "call_def", "type": "function", "function": {"name": "search", "arguments": {"q": "x"}}}]})",
         json::array({call("call_abc", "get_weather", {{"city", "Antwerp"}}), call("call_def", "search", {{"q", "x"}})}),
         "", {"arguments_json_string"}},
        {"OpenAI function object, arguments as a string",
         R"({"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Antwerp\"}"}})",
         json::array({weather}), "", {"arguments_json_string"}},
        {"the whole answer in a fence", "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Antwerp\"}}\n```",
         json::array({weather}), "", {"fenced_payload"}},
        {"text after the value is ignored and reported",
         R"({"name": "get_weather", "arguments": {"city": "Antwerp"}} Hope this helps!)", json::array({weather}),
         "Hope this helps!", {"trailing_text_ignored"}},
        {"Python-style JSON", R"({'name': 'get_weather', 'arguments': {'city': 'Antwerp', 'days': 2,}})",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}, {"days", 2}})}), "",
         {"single_quotes", "trailing_comma"}},
    };
}
}  // namespace

TEST_CASE("strict JSON grammar: the whole output as a call, a list, tool_calls, or OpenAI's shape",
          "[grammar][json]") {
    const Case c = GENERATE(from_range(json_cases()));
    DYNAMIC_SECTION(c.label) { check_accepted(run("json", c), c, "json", "primary"); }
}

TEST_CASE("strict JSON grammar: JSON that is not a call, or not the whole output, is content", "[grammar][json]") {
    const std::string text = GENERATE(as<std::string>{}, R"({"temperature": 20, "unit": "C"})", "[1, 2, 3]",
                                      R"(Here you go: {"name": "get_weather", "arguments": {"city": "Antwerp"}})",
                                      "plain prose");
    const toolgram::Parser parser(toolgram::builtin_profile("json"), small_tools());
    check_no_syntax(parser.parse(text), text);
}

// =======================================================================================
// bracket

namespace {
std::vector<Case> bracket_cases() {
    return {
        {"one call in a list", R"([get_weather(city="Antwerp", days=3)])",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}, {"days", 3}})}), ""},
        {"nested Python literals and a dotted name, no tools",
         R"([f(a=1, b='x', c=[1, (2, 3)], d={"k": None, 'n': -1.5}, e=True), ns.g()])",
         json::array({call("call_0", "f",
                           json::parse(R"({"a": 1, "b": "x", "c": [1, [2, 3]], "d": {"k": null, "n": -1.5}, "e": true})")),
                      call("call_1", "ns.g", json::object())}),
         "", {"single_quotes", "python_literals", "tuple_as_array"}, false, false},
        {"JSON literals are Python literals too", "[f(a=true, b=null, c=\"s\")]",
         json::array({call("call_0", "f", json::parse(R"({"a": true, "b": null, "c": "s"})"))}), "", {}, false, false},
        {"several calls mid-prose", R"(Here: [get_weather(city="Antwerp"), search(q="x")] ok)",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}}), call("call_1", "search", {{"q", "x"}})}),
         "Here: ok"},
        {"a bare call as the whole output", R"(get_weather(city="Antwerp"))",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}})}), ""},
        {"a dotted name resolved by its namespace tail", R"([functions.get_weather(city="Antwerp")])",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}})}), "", {"name_namespace"}},
        {"a bare call cut off at the end of output heals", R"(get_weather(city="Antwerp")",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}})}), "", {"healed_truncation"}, true},
    };
}
}  // namespace

TEST_CASE("bracket grammar: Python call lists and bare calls", "[grammar][bracket]") {
    const Case c = GENERATE(from_range(bracket_cases()));
    DYNAMIC_SECTION(c.label) { check_accepted(run("bracket", c), c, "bracket", "primary"); }
}

// Run in a child process: these inputs once crashed the parser (the list's healed end
// closed a container that was never opened); a crash must fail this test, not the run.
TEST_CASE("bracket grammar: a call list cut off at the end of output heals, and never crashes",
          "[grammar][bracket]") {
    struct Row {
        std::string text;
        json calls;
    };
    const auto row = GENERATE(values<Row>({
        {R"([get_weather(city="Antwerp")", json::array({healed_call("call_0", "get_weather", {{"city", "Antwerp"}})})},
        {R"([get_weather(city="Antwerp"))", json::array({healed_call("call_0", "get_weather", {{"city", "Antwerp"}})})},
        {R"([get_weather(city="Antwerp"), search(q="x")",
         json::array({healed_call("call_0", "get_weather", {{"city", "Antwerp"}}),
                      healed_call("call_1", "search", {{"q", "x"}})})},
    }));
    DYNAMIC_SECTION(row.text) {
        const toolgram::Parser parser(toolgram::builtin_profile("bracket"), small_tools());
        const auto child = toolgram_test::parse_isolated(parser, row.text);
        INFO("child signal: " << child.signal);
        REQUIRE(child.exited_normally);
        const json& r = child.result;
        INFO(r.dump(2));
        CHECK(r["calls"] == row.calls);
        CHECK(r["content"] == "");
        CHECK(r["error"].is_null());
        CHECK(r["telemetry"]["parse_mode"] == "primary");
        CHECK(r["telemetry"]["grammar"] == "bracket");
        CHECK(r["telemetry"]["healed"] == true);
        CHECK(r["telemetry"]["repairs"] == json::array({"healed_truncation"}));
        CHECK(r["telemetry"]["rejected"] == json::array());
    }
}

TEST_CASE("bracket grammar: positional arguments are rejected, not guessed", "[grammar][bracket]") {
    const std::string text = R"([get_weather("Antwerp")])";
    const toolgram::Parser parser(toolgram::builtin_profile("bracket"), small_tools());
    const toolgram::Result r = parser.parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.content.empty());
    CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
    CHECK(r.telemetry.candidate_count == 1);
    CHECK(r.telemetry.saw_tool_syntax);
    REQUIRE(r.telemetry.rejected.size() == 1);
    const std::string reason = "positional arguments in get_weather(\xE2\x80\xA6): write every argument as name=value";
    CHECK(r.telemetry.rejected[0].name == "get_weather");
    CHECK(r.telemetry.rejected[0].grammar == "bracket");
    CHECK(r.telemetry.rejected[0].reason == reason);
    REQUIRE(r.error.has_value());
    CHECK(r.error->message == reason);
    CHECK(r.error->offset == 1);
    CHECK(r.error->line == 1);
    CHECK(r.error->column == 2);
}

TEST_CASE("bracket grammar: Markdown links and literal lists in prose are not calls", "[grammar][bracket]") {
    const std::string text = GENERATE(as<std::string>{}, "See [the docs](https://example.com) and [1, 2].",
                                      "Options: [a, b] or [\"x\"]", "Cite [1] and [2].");
    const toolgram::Parser parser(toolgram::builtin_profile("bracket"), small_tools());
    check_no_syntax(parser.parse(text), text);
}

// =======================================================================================
// xml

namespace {
std::vector<Case> xml_cases() {
    const json weather = call("call_0", "get_weather", {{"city", "Antwerp"}});
    return {
        {"<tool_call> with <name> and a JSON <arguments>",
         R"(<tool_call><name>get_weather</name><arguments>{"city": "Antwerp", "days": 2}</arguments></tool_call>)",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}, {"days", 2}})}), ""},
        {"<function_call name=...> with typed <parameter>s",
         R"(<function_call name="get_weather"><parameter name="city">Antwerp</parameter><parameter name="days">3</parameter></function_call>)",
         json::array({call("call_0", "get_weather", {{"city", "Antwerp"}, {"days", 3}})}), ""},
        {"<invoke>/<parameter> in a wrapper, CDATA holding </parameter>",
         "Calling both.\n<function_calls>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Antwerp</parameter>\n"
         "</invoke>\n<invoke name=\"search\"><parameter name=\"q\"><![CDATA[a </parameter> b]]></parameter></invoke>\n"
         "</function_calls>",
         json::array({weather, call("call_1", "search", {{"q", "a </parameter> b"}})}), "Calling both."},
        {"a bare <invoke>", R"(<invoke name="get_weather"><parameter name="city">Antwerp</parameter></invoke>)",
         json::array({weather}), ""},
        {"entities in a value",
         R"(<invoke name="search"><parameter name="q">a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#65;&#x42;</parameter></invoke>)",
         json::array({call("call_0", "search", {{"q", "a <b> & \"c\" 'd' AB"}})}), ""},
        {"a JSON body in <tool_call>", R"(<tool_call>{"name": "get_weather", "arguments": {"city": "Antwerp"}}</tool_call>)",
         json::array({weather}), ""},
        {"nested fields as arguments",
         R"(<function_call><name>search</name><arguments><q>x</q></arguments></function_call>)",
         json::array({call("call_0", "search", {{"q", "x"}})}), ""},
        {"arguments as an attribute, self-closing", R"(<function_call name="search" arguments='{"q": "x"}'/>)",
         json::array({call("call_0", "search", {{"q", "x"}})}), ""},
        {"an id attribute is kept",
         R"(<tool_call id="t1"><name>get_weather</name><arguments>{"city": "Antwerp"}</arguments></tool_call>)",
         json::array({call("t1", "get_weather", {{"city", "Antwerp"}})}), ""},
        {"close tags cut off at the end of output heal",
         R"(<function_call name="get_weather"><parameter name="city">Antwerp</parameter>)", json::array({weather}), "",
         {"healed_truncation"}, true},
    };
}
}  // namespace

TEST_CASE("xml grammar: <tool_call>, <function_call>, <invoke>/<parameter>, CDATA, entities", "[grammar][xml]") {
    const Case c = GENERATE(from_range(xml_cases()));
    DYNAMIC_SECTION(c.label) { check_accepted(run("xml", c), c, "xml", "primary"); }
}

TEST_CASE("xml grammar: a parameter value cut by the end of output is never a call", "[grammar][xml]") {
    const std::string text = R"(<function_call name="get_weather"><parameter name="city">Antw)";
    const toolgram::Parser parser(toolgram::builtin_profile("xml"), small_tools());
    const toolgram::Result r = parser.parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(r.telemetry.candidate_count == 1);
    REQUIRE(r.telemetry.rejected.size() == 1);
    CHECK(r.telemetry.rejected[0].reason == "output cut inside <parameter>");
    REQUIRE(r.error.has_value());
    CHECK(r.error->offset == text.find("<parameter"));
}

TEST_CASE("xml grammar: a call element mentioned in prose is not a call", "[grammar][xml]") {
    const std::string text = GENERATE(as<std::string>{}, "I use <tool_call> tags sometimes.",
                                      "The <invoke> element wraps a call.", "Close it with </tool_call>.");
    const toolgram::Parser parser(toolgram::builtin_profile("xml"), small_tools());
    check_no_syntax(parser.parse(text), text);
}

// =======================================================================================
// text KV (always a fallback: the cases say a tool call is required)

namespace {
std::vector<Case> text_kv_cases() {
    const json weather = call("call_0", "get_weather", {{"city", "Antwerp"}});
    return {
        {"function.name / function.arguments", "function.name: get_weather\nfunction.arguments: {\"city\": \"Antwerp\"}",
         json::array({weather}), ""},
        {"Action / Action Input after a thought",
         "Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Antwerp\"}",
         json::array({weather}), "Thought: I need the weather."},
        {"wrapped in [TOOL_CALL_HISTORY]",
         "[TOOL_CALL_HISTORY]\nfunction.name: get_weather\nfunction.arguments: {\"city\": \"Antwerp\"}\n"
         "[/TOOL_CALL_HISTORY]\ndone",
         json::array({weather}), "done", {"history_marker"}},
        {"fenced Action Input", "Action: get_weather\nAction Input:\n```json\n{\"city\": \"Antwerp\"}\n```",
         json::array({weather}), "", {"fenced_payload"}},
    };
}
}  // namespace

TEST_CASE("text KV grammar: labelled lines, ReAct, and the history wrapper", "[grammar][text_kv]") {
    const Case c = GENERATE(from_range(text_kv_cases()));
    DYNAMIC_SECTION(c.label) { check_accepted(run("text_kv", c, /*tool_required=*/true), c, "text_kv", "fallback"); }
}

TEST_CASE("text KV grammar: a label inside a word is not a label", "[grammar][text_kv]") {
    const std::string text = "Reaction: get_weather\nReaction Input: {\"city\": \"Antwerp\"}";
    toolgram::Profile profile = toolgram::builtin_profile("text_kv");
    profile.settings.tool_required = true;
    const toolgram::Parser parser(profile, small_tools());
    check_no_syntax(parser.parse(text), text);
}

TEST_CASE("text KV grammar: a name runs to 256 bytes, and a longer line is prose, not a call", "[grammar][text_kv]") {
    // The bound is what keeps a line of labels with no end (`Action: Action: …`) linear.
    toolgram::Profile profile = toolgram::builtin_profile("text_kv");
    profile.settings.tool_required = true;
    const toolgram::Parser parser(profile, small_tools());
    const std::string longest = "get_weather" + std::string(256 - 11, ' ');
    const toolgram::Result at_limit = parser.parse("Action: " + longest + "\nAction Input: {\"city\": \"Antwerp\"}");
    INFO(toolgram::to_json(at_limit).dump(2));
    CHECK(at_limit.calls.size() == 1);  // trailing blanks of a name are dropped
    const std::string text = "Action: " + longest + "x\nAction Input: {\"city\": \"Antwerp\"}";
    check_no_syntax(parser.parse(text), text);
}

// =======================================================================================
// Across grammars

TEST_CASE("every JSON-payload grammar accepts each name and arguments alias", "[grammar][aliases]") {
    struct Row {
        std::string name_key;
        std::string args_key;
    };
    std::vector<Row> rows;
    for (const char* n : {"name", "tool_name", "tool", "function"})
        for (const char* a : {"arguments", "parameters", "params", "args", "input"}) rows.push_back({n, a});
    const toolgram::Parser parser(toolgram::builtin_profile("tag"), small_tools());
    for (const auto& row : rows) {
        const std::string text =
            "[TOOL_CALL]{\"" + row.name_key + "\": \"search\", \"" + row.args_key + "\": {\"q\": \"x\"}}[/TOOL_CALL]";
        CAPTURE(text);
        const toolgram::Result r = parser.parse(text);
        CHECK(calls_with_ids(r) == json::array({call("call_0", "search", {{"q", "x"}})}));
    }
    // OpenAI's nesting: function.name and function.arguments.
    const toolgram::Result nested = parser.parse(
        R"([TOOL_CALL]{"type": "function", "function": {"name": "search", "arguments": {"q": "x"}}}[/TOOL_CALL])");
    CHECK(calls_with_ids(nested) == json::array({call("call_0", "search", {{"q", "x"}})}));
}

TEST_CASE("every grammar refuses a value cut mid-string, mid-number or mid-literal", "[grammar][cut]") {
    struct Row {
        std::string profile;
        std::string text;
        std::string reason;
    };
    const auto row = GENERATE(values<Row>({
        {"tag", R"([TOOL_CALL]{"name": "get_weather", "arguments": {"city": "Antw)", "output cut mid-string"},
        {"tag", R"([TOOL_CALL]{"name": "get_weather", "arguments": {"city": "A", "days": 1)", "output cut mid-number"},
        {"marker", R"(TOOL_CALL {"name": "get_weather", "arguments": {"city": "A", "days": 1)", "output cut mid-number"},
        {"marker", R"(TOOL_CALL {"name": "get_weather", "arguments": {"city": "A", "x": nul)", "output cut mid-literal"},
        {"json", R"({"name": "get_weather", "arguments": {"city": "A", "x": tru)", "output cut mid-literal"},
        {"json", R"({"name": "get_weather", "arguments": {"city": "Antw)", "output cut mid-string"},
        {"bracket", R"([get_weather(city="Antw)", "output cut mid-string"},
        {"bracket", R"([get_weather(city="A", days=12)", "output cut mid-number"},
        {"bracket", R"(get_weather(city="A", x=Tr)", "output cut mid-literal"},
        {"xml", R"(<tool_call><name>get_weather</name><arguments>{"city": "A", "days": 12)",
         "output cut inside <arguments>"},
        {"xml", R"(<invoke name="get_weather"><parameter name="city">Antw)", "output cut inside <parameter>"},
        {"text_kv", "Action: get_weather\nAction Input: {\"city\": \"Antw", "output cut mid-string"},
    }));
    DYNAMIC_SECTION(row.profile << ": " << row.text) {
        toolgram::Profile profile = toolgram::builtin_profile(row.profile);
        profile.settings.tool_required = true;
        const toolgram::Result r = toolgram::Parser(profile, small_tools()).parse(row.text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(r.telemetry.parse_mode == toolgram::ParseMode::none);
        CHECK(r.telemetry.candidate_count == 1);
        CHECK(r.telemetry.saw_tool_syntax);
        REQUIRE(r.telemetry.rejected.size() == 1);
        CHECK(r.telemetry.rejected[0].reason == row.reason);
        REQUIRE(r.error.has_value());
        CHECK(r.error->message == row.reason);
    }
}

TEST_CASE("a fence left open at the end of output is healed, and telemetry says so", "[grammar][healing]") {
    // FORMATS/issue: output that ends with every value complete and only closing brackets,
    // tags or fences missing is healed, with healed: true in telemetry.
    struct Row {
        std::string profile;
        std::string text;
    };
    const auto row = GENERATE(values<Row>({
        {"json", "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Antwerp\"}}\n"},
        {"marker", "TOOL_CALL\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Antwerp\"}}"},
    }));
    DYNAMIC_SECTION(row.profile) {
        const toolgram::Result r = toolgram::Parser(toolgram::builtin_profile(row.profile), small_tools()).parse(row.text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({call("call_0", "get_weather", {{"city", "Antwerp"}})}));
        CHECK(r.telemetry.healed);
        REQUIRE(r.telemetry.candidates.size() == 1);
        CHECK(r.telemetry.candidates[0].healed);
    }
}

TEST_CASE("bracket grammar: a bare call inside prose is not a call", "[grammar][bracket]") {
    const std::string text = R"(I would run get_weather(city="Antwerp") now.)";
    const toolgram::Parser parser(toolgram::builtin_profile("bracket"), small_tools());
    check_no_syntax(parser.parse(text), text);
}

// =======================================================================================
// PEGTL's analyser: no rule may loop without consuming input.


TEST_CASE("PEGTL analyze finds no cycle without progress in any grammar's top rule", "[grammar][analyze]") {
    namespace g = toolgram::grammar;
    namespace pg = tao::pegtl;
    CHECK(pg::analyze<g::lenient::value>() == 0);
    CHECK(pg::analyze<g::lenient::padded_value>() == 0);
    CHECK(pg::analyze<g::tag::block>() == 0);
    CHECK(pg::analyze<g::marker::block>() == 0);
    CHECK(pg::analyze<g::strict_json::document>() == 0);
    CHECK(pg::analyze<g::python_call::call>() == 0);
    CHECK(pg::analyze<g::bracket::call_list>() == 0);
    CHECK(pg::analyze<g::bracket::whole_output>() == 0);
    CHECK(pg::analyze<g::markup::element>() == 0);
    CHECK(pg::analyze<g::xml::block>() == 0);
    CHECK(pg::analyze<g::text_kv::block>() == 0);
}

TEST_CASE("PEGTL analyze does report a rule that loops without progress (the check can fail)", "[grammar][analyze]") {
    namespace pg = tao::pegtl;
    struct looping : pg::star<pg::opt<pg::one<'x'>>> {};
    CHECK(pg::analyze<looping>(-1) > 0);
}

// A JSON value inside a block is read by the one compiled instance of the value grammar
// (src/value/value_reader.hpp, match_value), which still knows the block it stands in: a
// comment the output ends in is where the output was cut, and heals like a missing
// closer; a comment that runs over the block's own closer swallowed it, which is broken
// syntax, never a call.
TEST_CASE("A comment in a block's JSON heals at the end of output and is refused when it swallows the closer",
          "[grammars][lenient][healing]") {
    struct Row {
        std::string profile, grammar, text;
        bool call;
    };
    const std::string kimi_head =
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>";
    const std::vector<Row> rows = {
        {"hermes", "hermes", R"(<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"} /* the user asked)",
         true},
        {"hermes", "hermes",
         R"(<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"} /* the user asked </tool_call>)", false},
        {"auto", "hermes",
         R"(<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"} /* the user asked </tool_call>)", false},
        {"kimi_k2", "kimi_k2", kimi_head + R"({"city": "Paris"} /* note)", true},
        {"kimi_k2", "kimi_k2", kimi_head + R"({"city": "Paris"} /* note <|tool_call_end|><|tool_calls_section_end|>)",
         false},
    };
    for (const auto& row : rows) {
        INFO(row.profile << ": " << row.text);
        const toolgram::Result r = run(row.profile, Case{"", row.text, json::array(), ""});
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.content.empty());
        if (row.call) {
            REQUIRE(r.calls.size() == 1);
            CHECK(r.calls[0].name == "get_weather");
            CHECK(r.calls[0].arguments == json{{"city", "Paris"}});
            CHECK(r.calls[0].healed);
            CHECK(r.telemetry.repairs == std::vector<std::string>{"comments", "missing_end_tag", "healed_truncation"});
            CHECK(r.telemetry.rejected.empty());
        } else {
            CHECK(r.calls.empty());
            REQUIRE(r.telemetry.rejected.size() == 1);
            CHECK(r.telemetry.rejected[0].grammar == row.grammar);
            CHECK(r.telemetry.rejected[0].reason == "unterminated comment");
            REQUIRE(r.error.has_value());
            CHECK(r.error->message == "unterminated comment");
        }
    }
}

}  // namespace grammars_test
