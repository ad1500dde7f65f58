// Call objects in the JSON families, as models really write them (issue 14): a closer left
// out just before the block's closer, keys beside the name instead of inside the
// arguments, two call objects in one block, numbers with leading zeros, Llama's
// "arguments", Kimi's ids. Each row is a whole output under a profile and the whole
// verdict: the calls accepted, the reasons of the rejected (by substring, count exact),
// and the repairs reported. Stream = one-shot for the same outputs is pinned by the
// golden corpus cases of these classes (corpus/hermes, tag, jamba, kimi_k2, llama3_json…),
// which the stream property test runs under every chunking.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace json_call_objects_test {

using toolgram::json;

namespace {

std::vector<toolgram::Tool> tools() {
    return toolgram::tools_from_json(json::parse(R"([
        {"name": "get_weather", "parameters": {"type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}},
        {"name": "Bash", "parameters": {"type": "object",
            "properties": {"command": {"type": "string"}, "timeout": {"type": "integer"}}, "required": ["command"]}},
        {"name": "ship", "parameters": {"type": "object",
            "properties": {"zip": {"type": "string"}, "count": {"type": "integer"}, "note": {}}}}
    ])"));
}

struct Row {
    std::string what;
    std::string profile;
    std::string text;
    json calls;                        // [[name, arguments], …]
    std::vector<std::string> reasons;  // substrings of the rejections, in order
    std::vector<std::string> repairs;  // each must be among the telemetry's repairs
};

json calls_of(const json& result) {
    json out = json::array();
    for (const auto& c : result["calls"]) out.push_back(json::array({c["name"], c["arguments"]}));
    return out;
}

// No list (`{}`): names as written and nothing validated; a list: only its tools.
void check_row(const Row& row, const std::optional<std::vector<toolgram::Tool>>& tool_list) {
    const toolgram::Parser parser = tool_list ? toolgram::Parser(toolgram::builtin_profile(row.profile), *tool_list)
                                              : toolgram::Parser(toolgram::builtin_profile(row.profile));
    const json got = toolgram::to_json(parser.parse(row.text));
    CAPTURE(got.dump(2));
    CHECK(calls_of(got) == row.calls);
    const json& rejected = got["telemetry"]["rejected"];
    REQUIRE(rejected.size() == row.reasons.size());
    for (std::size_t i = 0; i < rejected.size(); ++i) {
        const std::string reason = rejected[i]["reason"];
        CAPTURE(reason, row.reasons[i]);
        CHECK(reason.find(row.reasons[i]) != std::string::npos);
    }
    std::vector<std::string> seen;
    for (const auto& c : got["telemetry"]["candidates"])
        for (const auto& r : c["repairs"]) seen.push_back(r);
    for (const auto& r : row.repairs) {
        CAPTURE(r);
        CHECK(std::find(seen.begin(), seen.end(), r) != seen.end());
    }
    if (!row.reasons.empty() && row.calls.empty()) CHECK(got["telemetry"]["saw_tool_syntax"] == true);
}

json call(const char* name, const char* arguments) { return json::array({name, json::parse(arguments)}); }

}  // namespace

TEST_CASE("a closer left out just before the block's closer is supplied, reported, in every JSON-in-tags family",
          "[json_calls][closer]") {
    const auto row = GENERATE(values<Row>({
        {"hermes: the outer object's }", "hermes",
         "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lisbon\"}\n</tool_call>",
         json::array({call("get_weather", R"({"city": "Lisbon"})")}), {}, {"missing_value_closer"}},
        {"hermes: two closers", "hermes",
         "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lisbon\"\n</tool_call>",
         json::array({call("get_weather", R"({"city": "Lisbon"})")}), {}, {"missing_value_closer"}},
        {"tag: [TOOL_CALL] with its closer", "tag",
         "[TOOL_CALL]{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\", \"days\": 2}[/TOOL_CALL]",
         json::array({call("get_weather", R"({"city": "Oslo", "days": 2})")}), {}, {"missing_value_closer"}},
        {"tag: <tool name=…>, the arguments' }", "tag", "<tool name=\"get_weather\">{\"city\": \"Oslo\"</tool>",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {}, {"missing_value_closer"}},
        {"kimi_k2: the arguments' }", "kimi_k2",
         "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
         "{\"city\": \"Lima\"<|tool_call_end|><|tool_calls_section_end|>",
         json::array({call("get_weather", R"({"city": "Lima"})")}), {}, {"missing_value_closer"}},
        {"longcat", "longcat",
         "<longcat_tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}</longcat_tool_call>",
         json::array({call("get_weather", R"({"city": "Rome"})")}), {}, {"missing_value_closer"}},
        {"jamba: a list's ]", "jamba",
         "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Bern\"}}</tool_calls>",
         json::array({call("get_weather", R"({"city": "Bern"})")}), {}, {"missing_value_closer"}},
        // Not where more was promised: after a ',' the next member was never written.
        {"refused after a ','", "hermes",
         "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lisbon\",\n</tool_call>", json::array(),
         {"key expected"}, {}},
        {"refused after a key", "hermes",
         "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\":\n</tool_call>", json::array(),
         {"value expected"}, {}},
        // A fence's closer is not the block's closer.
        {"refused before a fence's closer", "hermes",
         "<tool_call>\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lisbon\"}\n```\n</tool_call>",
         json::array(), {"',' or '}' expected"}, {}},
    }));
    DYNAMIC_SECTION(row.what) { check_row(row, tools()); }
}

TEST_CASE("keys beside the name: declared parameters join the arguments, reported, and any other refuses the call",
          "[json_calls][beside]") {
    const auto row = GENERATE(values<Row>({
        {"no arguments key: the keys are the arguments", "hermes",
         "<tool_call>{\"name\": \"Bash\", \"command\": \"rm -rf build\"}</tool_call>",
         json::array({call("Bash", R"({"command": "rm -rf build"})")}), {}, {"keys_moved_into_arguments"}},
        {"arguments closed early", "hermes",
         "<tool_call>{\"name\": \"Bash\", \"arguments\": {\"command\": \"make\"}, \"timeout\": 60}</tool_call>",
         json::array({call("Bash", R"({"command": "make", "timeout": 60})")}), {}, {"keys_moved_into_arguments"}},
        {"a key both inside and beside, with another value", "hermes",
         "<tool_call>{\"name\": \"Bash\", \"arguments\": {\"command\": \"make\"}, \"command\": \"make clean\"}</tool_call>",
         json::array(), {"both inside its arguments and beside them"}, {}},
        {"a key both inside and beside, with the same value", "hermes",
         "<tool_call>{\"name\": \"Bash\", \"arguments\": {\"command\": \"make\"}, \"command\": \"make\"}</tool_call>",
         json::array({call("Bash", R"({"command": "make"})")}), {}, {"keys_beside_arguments_agree"}},
        {"a key the tool does not declare", "hermes",
         "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}, \"reason\": \"asked\"}</tool_call>",
         json::array(), {"\"reason\" beside its name and arguments, and get_weather has no such parameter"}, {}},
        {"OpenAI's shape: id, type and index are the call's; a key in function is not", "tag",
         "<tool_call>{\"id\": \"c1\", \"type\": \"function\", \"index\": 0, \"function\": {\"name\": \"Bash\", "
         "\"arguments\": {\"command\": \"ls\"}, \"timeout\": 5}}</tool_call>",
         json::array({call("Bash", R"({"command": "ls", "timeout": 5})")}), {}, {"keys_moved_into_arguments"}},
        {"Anthropic's tool_use shape", "tag",
         "<tool_call>{\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\": \"Bash\", \"input\": {\"command\": \"ls\"}}"
         "</tool_call>",
         json::array({call("Bash", R"({"command": "ls"})")}), {}, {}},
        {"a type that is no call type is a key like any other", "hermes",
         "<tool_call>{\"name\": \"Bash\", \"type\": \"shell\", \"arguments\": {\"command\": \"ls\"}}</tool_call>",
         json::array(), {"\"type\" beside its name and arguments"}, {}},
        {"arguments as a JSON string, a key beside them", "hermes",
         "<tool_call>{\"name\": \"Bash\", \"arguments\": \"{\\\"command\\\": \\\"ls\\\"}\", \"timeout\": 5}</tool_call>",
         json::array({call("Bash", R"({"command": "ls", "timeout": 5})")}), {}, {"keys_moved_into_arguments"}},
        {"llama3_json with parameters", "llama3_json",
         "<|python_tag|>{\"name\": \"Bash\", \"parameters\": {\"command\": \"ls\"}, \"timeout\": 9}",
         json::array({call("Bash", R"({"command": "ls", "timeout": 9})")}), {}, {"keys_moved_into_arguments"}},
    }));
    DYNAMIC_SECTION(row.what) { check_row(row, tools()); }
}

TEST_CASE("keys beside the name with no tool list: nothing says they are parameters, so the call is refused",
          "[json_calls][beside]") {
    const Row row{"no tools", "hermes", "<tool_call>{\"name\": \"Bash\", \"command\": \"ls\"}</tool_call>", json::array(),
                  {"with no tool list to declare parameters"}, {}};
    check_row(row, {});
}

TEST_CASE("several call objects in one block are read and judged each on its own", "[json_calls][several]") {
    const auto row = GENERATE(values<Row>({
        {"two objects side by side", "hermes",
         "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}{\"name\": \"get_weather\", "
         "\"arguments\": {\"city\": \"Rome\"}}</tool_call>",
         json::array({call("get_weather", R"({"city": "Oslo"})"), call("get_weather", R"({"city": "Rome"})")}), {}, {}},
        {"one a line, MiniMax-M1's way, in the jamba family", "jamba",
         "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n{\"name\": \"Bash\", "
         "\"arguments\": {\"command\": \"ls\"}}\n</tool_calls>",
         json::array({call("get_weather", R"({"city": "Oslo"})"), call("Bash", R"({"command": "ls"})")}), {}, {}},
        {"the second broken: the first stands, the second is refused, the content stays clean", "hermes",
         "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n{\"name\": \"Bash\", "
         "\"arguments\": {\"command\": ls}}\n</tool_call>",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {"value expected"}, {}},
        {"the second fails its schema alone", "tag",
         "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n{\"name\": \"get_weather\", "
         "\"arguments\": {\"days\": 3}}</tool_call>",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {"missing required property \"city\""}, {}},
        {"the second cut by the end of output", "hermes",
         "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n{\"name\": \"get_weather\", "
         "\"arguments\": {\"city\": \"Ro",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {"output cut mid-string"}, {"healed_truncation"}},
        {"each object's repairs are its own", "hermes",
         "<tool_call>{'name': 'get_weather', 'arguments': {'city': 'Oslo'}}\n{\"name\": \"Bash\", \"arguments\": "
         "{\"command\": \"ls\"}}</tool_call>",
         json::array({call("get_weather", R"({"city": "Oslo"})"), call("Bash", R"({"command": "ls"})")}), {},
         {"single_quotes"}},
        {"a second object that is no call is refused, not dropped", "hermes",
         "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}} {\"note\": \"done\"}</tool_call>",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {"names no tool"}, {}},
        // A header that names the tool takes one arguments object; a second is refused
        // with its reason, never dropped as stray text.
        {"after a naming header, a second object is refused, not dropped", "tag",
         "<tool name=\"get_weather\">{\"city\": \"Oslo\"}{\"city\": \"Rome\"}</tool>",
         json::array({call("get_weather", R"({"city": "Oslo"})")}),
         {"a JSON value stands between the call and its closer, outside any call this syntax reads: "
          "\"{\\\"city\\\": \\\"Rome\\\"}\""},
         {"trailing_text_ignored"}},
        {"prose then a call object before the closer: the object is refused, not dropped", "hermes",
         "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}} oops {\"name\": \"Bash\", "
         "\"arguments\": {\"command\": \"ls\"}}</tool_call>",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {"outside any call this syntax reads"}, {}},
        {"prose without a value before the closer is ignored and reported", "hermes",
         "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}} oops, done</tool_call>",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {}, {"trailing_text_ignored"}},
    }));
    DYNAMIC_SECTION(row.what) { check_row(row, tools()); }
}

TEST_CASE("each call object's own repairs are reported on it, not on its neighbours", "[json_calls][several]") {
    const toolgram::Parser parser(toolgram::builtin_profile("hermes"), tools());
    const json got = toolgram::to_json(parser.parse(
        "<tool_call>{'name': 'get_weather', 'arguments': {'city': 'Oslo'}}\n{\"name\": \"Bash\", \"arguments\": "
        "{\"command\": \"ls\"}}</tool_call>"));
    const json& candidates = got["telemetry"]["candidates"];
    REQUIRE(candidates.size() == 2);
    CHECK(candidates[0]["repairs"] == json::array({"single_quotes"}));
    CHECK(candidates[1]["repairs"] == json::array());
}

TEST_CASE("a number with leading zeros is text where the schema wants a string, refused anywhere else",
          "[json_calls][leading_zeros]") {
    const auto row = GENERATE(values<Row>({
        {"a string property keeps the text", "hermes",
         "<tool_call>{\"name\": \"ship\", \"arguments\": {\"zip\": 02134}}</tool_call>",
         json::array({call("ship", R"({"zip": "02134"})")}), {}, {"leading_zero_number_kept_as_text"}},
        {"an integer property: never 789 (nor 0o…)", "hermes",
         "<tool_call>{\"name\": \"ship\", \"arguments\": {\"count\": 0789}}</tool_call>", json::array(),
         {"the number 0789 has leading zeros"}, {}},
        {"a property of any type", "hermes",
         "<tool_call>{\"name\": \"ship\", \"arguments\": {\"note\": 010}}</tool_call>", json::array(),
         {"the number 010 has leading zeros"}, {}},
        {"in Python syntax too", "pythonic", "[ship(zip=02134, count=2)]",
         json::array({call("ship", R"({"zip": "02134", "count": 2})")}), {}, {"leading_zero_number_kept_as_text"}},
        {"a lone zero is zero", "hermes", "<tool_call>{\"name\": \"ship\", \"arguments\": {\"count\": 0}}</tool_call>",
         json::array({call("ship", R"({"count": 0})")}), {}, {}},
    }));
    DYNAMIC_SECTION(row.what) { check_row(row, tools()); }
}

TEST_CASE("a number with leading zeros with no tool list is refused", "[json_calls][leading_zeros]") {
    const Row row{"no tools", "hermes", "<tool_call>{\"name\": \"ship\", \"arguments\": {\"zip\": 02134}}</tool_call>",
                  json::array(), {"with no schema to show it is text"}, {}};
    check_row(row, {});
}

TEST_CASE("llama3_json takes \"arguments\" beside \"parameters\", bare and tagged", "[json_calls][llama3_json]") {
    const auto row = GENERATE(values<Row>({
        {"bare", "llama3_json", "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {}, {}},
        {"tagged", "llama3_json", "<|python_tag|>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}",
         json::array({call("get_weather", R"({"city": "Oslo"})")}), {}, {}},
        {"two, joined by ';'", "llama3_json",
         "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}; {\"name\": \"get_weather\", \"parameters\": "
         "{\"city\": \"Rome\"}}",
         json::array({call("get_weather", R"({"city": "Oslo"})"), call("get_weather", R"({"city": "Rome"})")}), {}, {}},
        {"both keys, disagreeing", "llama3_json",
         "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}, \"arguments\": {\"city\": \"Rome\"}}",
         json::array(), {"under both \"arguments\" and \"parameters\""}, {}},
    }));
    DYNAMIC_SECTION(row.what) { check_row(row, tools()); }
}

TEST_CASE("kimi_k2: an id with a '.' where its ':INDEX' belongs is refused, never read as a dotted name",
          "[json_calls][kimi_k2]") {
    const auto row = GENERATE(values<Row>({
        {"functions.NAME.0", "kimi_k2",
         "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather.0<|tool_call_argument_begin|>"
         "{\"city\": \"Oslo\"}<|tool_call_end|><|tool_calls_section_end|>",
         json::array(), {"the call id \"functions.get_weather.0\" is malformed"}, {}},
        {"the well-formed id beside it still counts", "kimi_k2",
         "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather.0<|tool_call_argument_begin|>"
         "{\"city\": \"Oslo\"}<|tool_call_end|><|tool_call_begin|>functions.get_weather:1<|tool_call_argument_begin|>"
         "{\"city\": \"Rome\"}<|tool_call_end|><|tool_calls_section_end|>",
         json::array({call("get_weather", R"({"city": "Rome"})")}), {"is malformed"}, {}},
    }));
    DYNAMIC_SECTION(row.what) { check_row(row, tools()); }
}

}  // namespace json_call_objects_test
