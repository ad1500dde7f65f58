// The named-parameter families (qwen3_coder, seed_oss, glm45, minimax_m2, minicpm5, step3,
// deepseek_v32) beyond their corpora: what their grammars promise structurally.
//  - PEGTL's analyser finds no rule that can loop without consuming input;
//  - a shared opener is decided by the payload (`<tool_call>` is hermes, qwen3_coder or
//    glm45 by what follows it), under auto and under each family's own profile;
//  - DSML's string="true|false" is honoured even with no schema to type from;
//  - hostile input (tens of thousands of unclosed openers) is scanned in linear time;
//  - each instruction teaches the family's own syntax.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "deepseek_v32.hpp"
#include "glm45.hpp"
#include "minicpm5.hpp"
#include "minimax_m2.hpp"
#include "qwen3_coder.hpp"
#include "seed_oss.hpp"
#include "step3.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace params_families_test {

using toolgram::json;

namespace {

std::vector<toolgram::Tool> weather_tools() {
    return toolgram::tools_from_json(json::parse(R"([{"name": "get_weather", "parameters": {"type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}}])"));
}

const json paris_call = json::parse(R"({"id": "call_0", "name": "get_weather", "arguments": {"city": "Paris"}})");

json calls(const toolgram::Result& r) { return toolgram::to_json(r)["calls"]; }

}  // namespace

TEST_CASE("PEGTL analyze finds no cycle without progress in the named-parameter families", "[grammar][analyze]") {
    namespace g = toolgram::grammar;
    namespace pg = tao::pegtl;
    CHECK(pg::analyze<g::qwen3_coder::block>() == 0);
    CHECK(pg::analyze<g::seed_oss::block>() == 0);
    CHECK(pg::analyze<g::glm45::block>() == 0);
    CHECK(pg::analyze<g::minimax_m2::block>() == 0);
    CHECK(pg::analyze<g::minicpm5::block>() == 0);
    CHECK(pg::analyze<g::step3::block>() == 0);
    CHECK(pg::analyze<g::step3::cut_header>() == 0);
    // One instantiation per DSML dialect (grammars/deepseek_v32.hpp).
    CHECK(pg::analyze<g::deepseek_v32::block<g::deepseek_v32::canonical>>() == 0);
    CHECK(pg::analyze<g::deepseek_v32::block<g::deepseek_v32::spaced>>() == 0);
    CHECK(pg::analyze<g::deepseek_v32::block<g::deepseek_v32::ascii_bars>>() == 0);
    CHECK(pg::analyze<g::deepseek_v32::block<g::deepseek_v32::leading_bar_lost>>() == 0);
    CHECK(pg::analyze<g::deepseek_v32::block<g::deepseek_v32::leading_bar_lost_full_width>>() == 0);
    CHECK(pg::analyze<g::deepseek_v32::block<g::deepseek_v32::bars_lost>>() == 0);
}

TEST_CASE("<tool_call> is decided by its payload: hermes JSON, qwen3_coder <function=, glm45 bare name",
          "[families][shared_marker]") {
    struct Row {
        std::string text;
        std::string grammar;
    };
    const auto row = GENERATE(values<Row>({
        {"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", "hermes"},
        {"<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
         "qwen3_coder"},
        {"<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>", "glm45"},
        {"<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>", "glm45"},
    }));
    CAPTURE(row.text);
    SECTION("auto picks the family that owns the payload") {
        const toolgram::Result r = toolgram::Parser(toolgram::builtin_profile("auto"), weather_tools()).parse(row.text);
        CHECK(calls(r) == json::array({paris_call}));
        // The generic tag grammar also reads <tool_call>{…}</tool_call> and comes first in auto.
        if (row.grammar == "hermes") CHECK((r.telemetry.grammar == "hermes" || r.telemetry.grammar == "tag"));
        else CHECK(r.telemetry.grammar == row.grammar);
        CHECK(r.content.empty());
    }
    SECTION("the other families sharing the marker decline it: no call; their own block holding it is reported") {
        // Each other family's grammar reads no call from the payload; the <tool_call> block
        // is still that family's syntax, so it is one rejection with an error, not content.
        for (const char* other : {"hermes", "qwen3_coder", "glm45"}) {
            if (row.grammar == other) continue;
            CAPTURE(other);
            const toolgram::Result r = toolgram::Parser(toolgram::builtin_profile(other), weather_tools()).parse(row.text);
            CHECK(r.calls.empty());
            REQUIRE(r.telemetry.candidates.size() == 1);
            CHECK(r.telemetry.candidates[0].reason == "nothing between <tool_call> and </tool_call> reads as a call in this syntax");
            CHECK(r.telemetry.saw_tool_syntax);
            CHECK(r.error);
            CHECK(r.content.empty());
        }
    }
}

TEST_CASE("DSML string=\"false\" values are JSON, string=\"true\" values text, even without a schema",
          "[families][deepseek_v32]") {
    const std::string text =
        "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n"
        "<｜DSML｜parameter name=\"n\" string=\"false\">3</｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"s\" string=\"true\">3</｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"list\" string=\"false\">[1, \"two\"]</｜DSML｜parameter>\n"
        "<｜DSML｜parameter name=\"bad\" string=\"false\">not json</｜DSML｜parameter>\n"
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>";
    const toolgram::Result r = toolgram::Parser(toolgram::builtin_profile("deepseek_v32")).parse(text);
    INFO(toolgram::to_json(r).dump(2));
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].arguments == json::parse(R"({"n": 3, "s": "3", "list": [1, "two"], "bad": "not json"})"));
    REQUIRE(r.telemetry.candidates.size() == 1);
    const auto& repairs = r.telemetry.candidates[0].repairs;
    CHECK(std::find(repairs.begin(), repairs.end(), "parameter \"bad\" marked as JSON is not JSON; kept as text") !=
          repairs.end());
}

TEST_CASE("a DSML block is read in its opener's dialect: another dialect's tags in a value are text",
          "[families][deepseek_v32]") {
    // The drifted closer and opener inside the canonical block's value do not end it, even
    // though `days` is declared: the block's tags are `<｜DSML｜…>` throughout.
    const std::string text =
        "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_weather\">\n"
        "<｜DSML｜parameter name=\"city\" string=\"true\">a</|DSML|parameter>\n"
        "<|DSML|parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n"
        "</｜DSML｜invoke>\n</｜DSML｜tool_calls>";
    const toolgram::Result r = toolgram::Parser(toolgram::builtin_profile("deepseek_v32"), weather_tools()).parse(text);
    INFO(toolgram::to_json(r).dump(2));
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].arguments ==
          json::parse(R"({"city": "a</|DSML|parameter>\n<|DSML|parameter name=\"days\" string=\"false\">3"})"));
}

TEST_CASE("a drifted DSML opener counts only where a block stands, a canonical one anywhere",
          "[families][deepseek_v32]") {
    const std::string call = "<|DSML|invoke name=\"get_weather\">\n<|DSML|parameter name=\"city\" string=\"true\">"
                             "Paris</|DSML|parameter>\n</|DSML|invoke>";
    const toolgram::Parser parser(toolgram::builtin_profile("deepseek_v32"), weather_tools());
    for (const std::string& before : {std::string(""), std::string("Checking.\n"), std::string("Checking.\n   "),
                                      std::string("</think>")}) {
        CAPTURE(before);
        const toolgram::Result r = parser.parse(before + call);
        CHECK(calls(r) == json::array({paris_call}));
        REQUIRE(r.telemetry.candidates.size() == 1);
        const auto& repairs = r.telemetry.candidates[0].repairs;
        CHECK(std::find(repairs.begin(), repairs.end(), "dsml_spelling_drifted") != repairs.end());
    }
    const toolgram::Result prose = parser.parse("It printed " + call + " again.");
    CHECK(prose.calls.empty());
    CHECK_FALSE(prose.telemetry.saw_tool_syntax);
    const toolgram::Result canonical = parser.parse(
        "It calls <｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">"
        "Paris</｜DSML｜parameter>\n</｜DSML｜invoke>");
    CHECK(calls(canonical) == json::array({paris_call}));
}

// Issue 28: `<DSML｜tool_calls>` (the leading bar lost, the full-width one kept: ds2api's
// fixtures) gave no call, no error and saw_tool_syntax false. Every spelling of the tags,
// in each block name and unwrapped, reads as a call under deepseek_v32 and under auto, and
// a block of each spelling holding nothing readable is rejected with the reason.
TEST_CASE("every DSML spelling reads, wrapped or not, and an unreadable block of it is rejected",
          "[families][deepseek_v32]") {
    // What stands between `<` (or `</`) and a tag's name, and whether it is a drifted one.
    const std::vector<std::pair<std::string, bool>> prefixes = {
        {"｜DSML｜", false}, {"｜DSML｜ ", false}, {"|DSML|", true}, {"DSML|", true}, {"DSML｜", true}, {"DSML", true}};
    for (const auto& [p, drifted] : prefixes) {
        const std::string invoke = "<" + p + "invoke name=\"get_weather\">\n<" + p +
                                   "parameter name=\"city\" string=\"true\">Paris</" + p + "parameter>\n</" + p + "invoke>";
        const std::string first_name = p == "｜DSML｜ " ? "calls" : "function_calls";
        for (const std::string& block : {"<" + p + first_name + ">\n" + invoke + "\n</" + p + first_name + ">",
                                         "<" + p + "tool_calls>\n" + invoke + "\n</" + p + "tool_calls>", invoke}) {
            for (const char* profile : {"deepseek_v32", "auto"}) {
                CAPTURE(p, block, profile);
                const toolgram::Result r =
                    toolgram::Parser(toolgram::builtin_profile(profile), weather_tools()).parse("Checking.\n" + block);
                INFO(toolgram::to_json(r).dump(2));
                CHECK(calls(r) == json::array({paris_call}));
                CHECK(r.content == "Checking.");
                CHECK(r.telemetry.grammar == "deepseek_v32");
                REQUIRE(r.telemetry.candidates.size() == 1);
                const auto& repairs = r.telemetry.candidates[0].repairs;
                CHECK((std::find(repairs.begin(), repairs.end(), "dsml_spelling_drifted") != repairs.end()) == drifted);
            }
        }
        for (const std::string& name : {first_name, std::string("tool_calls")}) {
            const std::string unreadable = "<" + p + name + ">\nget_weather(city=\"Paris\")\n</" + p + name + ">";
            CAPTURE(unreadable);
            const toolgram::Result r =
                toolgram::Parser(toolgram::builtin_profile("deepseek_v32"), weather_tools()).parse(unreadable);
            INFO(toolgram::to_json(r).dump(2));
            CHECK(r.calls.empty());
            CHECK(r.telemetry.saw_tool_syntax);
            CHECK(r.content.empty());
            REQUIRE(r.error.has_value());
            CHECK(r.error->message ==
                  "nothing between <" + p + name + "> and </" + p + name + "> reads as a call in this syntax");
        }
    }
}

TEST_CASE("GLM values escaped once more are decoded once, only for object and array properties that need it",
          "[families][glm45]") {
    const auto tools = toolgram::tools_from_json(json::parse(R"([{"name": "f", "parameters": {"type": "object",
        "properties": {"ids": {"type": "array"}, "either": {"type": ["string", "array"]}, "text": {"type": "string"},
                       "any": {}}}}])"));
    auto parse = [&](const std::string& profile, const std::string& key, const std::string& value) {
        const std::string text = profile == "glm45"
                                     ? "<tool_call>f\n<arg_key>" + key + "</arg_key>\n<arg_value>" + value +
                                           "</arg_value>\n</tool_call>"
                                     : "<tool_call>\n<function=f>\n<parameter=" + key + ">\n" + value +
                                           "\n</parameter>\n</function>\n</tool_call>";
        return toolgram::Parser(toolgram::builtin_profile(profile), tools).parse(text);
    };
    const std::string escaped = R"([{\"id\": \"1\"}])";
    {
        const toolgram::Result r = parse("glm45", "ids", escaped);
        REQUIRE(r.calls.size() == 1);
        CHECK(r.calls[0].arguments == json::parse(R"({"ids": [{"id": "1"}]})"));
        const auto& repairs = r.telemetry.candidates.at(0).repairs;
        CHECK(std::find(repairs.begin(), repairs.end(), "value_unescaped_once_more") != repairs.end());
    }
    // A property the text fits as written keeps it: a string, a union with string, no type.
    for (const std::string key : {"either", "text", "any"}) {
        CAPTURE(key);
        const toolgram::Result r = parse("glm45", key, escaped);
        REQUIRE(r.calls.size() == 1);
        CHECK(r.calls[0].arguments == json{{key, escaped}});
    }
    // Valid JSON as written is not decoded again; only GLM's reader asks for the decoding.
    {
        const toolgram::Result r = parse("glm45", "ids", R"(["a\"b"])");
        REQUIRE(r.calls.size() == 1);
        CHECK(r.calls[0].arguments == json::parse(R"({"ids": ["a\"b"]})"));
    }
    CHECK(parse("qwen3_coder", "ids", escaped).calls.empty());
}

TEST_CASE("megabytes of unclosed openers are scanned in linear time", "[families][linear]") {
    struct Row {
        std::string profile;
        std::string unit;  // repeated until the input is about 1 MB
    };
    const auto row = GENERATE(values<Row>({
        {"qwen3_coder", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis"},
        {"qwen3_coder", "<function=get_weather>"},
        {"seed_oss", "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris"},
        {"glm45", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris"},
        {"glm45", "<tool_call>get_weather<arg_key>city"},
        {"minimax_m2", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris"},
        {"minimax_m2", "<minimax:tool_call><invoke name=\"get_weather"},
        {"minicpm5", "<function name=\"get_weather\"><param name=\"city\"><![CDATA[Paris"},
        {"minicpm5", "<function name=\"get_weather\">"},
        // Found by toolgram_hostile: an unquoted attribute value ran over the next openers.
        {"minicpm5", "<function name= "},
        {"minimax_m2", "<minimax:tool_call><invoke name= "},
        {"step3", "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\">"
                  "<steptml:parameter name=\"city\">Paris"},
        {"deepseek_v32", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n"
                         "<｜DSML｜parameter name=\"city\" string=\"false\">[1, "},
        // Values holding the syntax's own tags (grammars/common/param_value.hpp): closers followed by
        // text, example calls never closed, CDATA never closed.
        {"qwen3_coder", "<tool_call>\n<function=get_weather>\n<parameter=city>\nx</parameter> y</function> z"},
        {"qwen3_coder", "<function=write_file>\n<parameter=content>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nP\n"},
        {"qwen3_coder", "<tool_call>\n<function=get_weather>\n<parameter=city>\n<![CDATA[x</parameter>"},
        {"seed_oss", "<seed:tool_call>\n<function=get_weather>\n<parameter=city>a</parameter> b</function> c"},
        {"glm45", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>a</arg_value> b</tool_call> c"},
        {"minimax_m2", "<minimax:tool_call><invoke name=\"get_weather\"><parameter name=\"city\">a</parameter> b</invoke> c"},
        {"minicpm5", "<function name=\"get_weather\"><param name=\"city\">a</param> b</function> c"},
        // The variants: drifted DSML openers standing as blocks, V4.1's spaced tags, JSON
        // bodies never closed, MiniCPM 5's tokenizer artefacts in tags.
        {"deepseek_v32", "\n<|DSML|tool_calls>\n<|DSML|invoke name=\"get_weather\">\n"},
        {"deepseek_v32", "\n<DSMLinvoke name=\"get_weather\">\n<DSMLparameter name=\"city\" string=\"true\">P"},
        {"deepseek_v32", "<DSML mid-line <DSML|"},
        {"deepseek_v32", "<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"get_weather\">\n{\"city\": [1, "},
        {"minicpm5", "<functionĠname=\"get_weather\"><paramĠname=\"city\">Paris"},
        {"minicpm5", "<functionname=\"get_weather\">"},
    }));
    std::string text;
    while (text.size() < (1u << 20)) text += row.unit;
    CAPTURE(row.profile, row.unit);
    const toolgram::Parser parser(toolgram::builtin_profile(row.profile), weather_tools());
    const toolgram::Result r = parser.parse(text);
    // Only the last opener can hold a complete-looking call. (Time is not asserted here:
    // the house measures speed with benchmarks, never with timing asserts in tests.)
    CHECK(r.calls.size() <= 1);
}

TEST_CASE("each named-parameter family's instruction writes its own syntax", "[families][instruction]") {
    struct Row {
        std::string profile;
        std::vector<std::string> shows;
    };
    const auto row = GENERATE(values<Row>({
        {"qwen3_coder", {"<tool_call>\n<function=TOOL_NAME>\n<parameter=PARAM>"}},
        {"seed_oss", {"<seed:tool_call>\n<function=TOOL_NAME>\n<parameter=PARAM>VALUE</parameter>"}},
        {"glm45", {"<tool_call>TOOL_NAME\n<arg_key>PARAM</arg_key>\n<arg_value>VALUE</arg_value>"}},
        {"minimax_m2", {"<minimax:tool_call>\n<invoke name=\"TOOL_NAME\">\n<parameter name=\"PARAM\">VALUE"}},
        {"minicpm5", {"<function name=\"TOOL_NAME\"><param name=\"PARAM\">VALUE</param></function>"}},
        {"step3", {"<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"TOOL_NAME\">"}},
        {"deepseek_v32", {"<｜DSML｜invoke name=\"TOOL_NAME\">", "string=\"true\">VALUE</｜DSML｜parameter>",
                          "string=\"false\">3</｜DSML｜parameter>"}},
    }));
    const std::string text = toolgram::format_instruction(toolgram::builtin_profile(row.profile), weather_tools());
    CAPTURE(row.profile, text);
    for (const auto& s : row.shows) CHECK(text.find(s) != std::string::npos);
}

}  // namespace params_families_test
