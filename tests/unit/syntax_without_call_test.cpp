// Tool syntax that yields no call is reported, never left in content (README: "When tool
// syntax yields no call, `error` holds what was wrong"); content is the text outside tool
// syntax, reasoning and the family's framing tokens; one unreadable call of a Python list
// loses that call only.
//
// The first table is every family's block, opened and closed by its own tokens, holding
// text no grammar reads: each must give `saw_tool_syntax`, a rejection with its reason, an
// error with a correction prompt, and content without the block, in the one-shot parse
// and byte by byte in a stream. The tables after it pin what must not change: a tag
// mentioned in prose, an empty wrapper (no call, no error), and the framing tokens.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace syntax_without_call_test {

using toolgram::json;

namespace {

std::vector<toolgram::Tool> weather_tool() {
    return toolgram::tools_from_json(json::parse(R"([{"name": "get_weather", "parameters": {"type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}}])"));
}

toolgram::Result streamed(const toolgram::Parser& parser, const std::string& text) {
    toolgram::StreamParser sp(parser);
    for (char c : text) (void)sp.feed(std::string_view(&c, 1));
    return sp.finish().result;
}

struct Block {
    const char* profile;
    std::string open, close;
};

}  // namespace

TEST_CASE("a family's own block holding no readable call is reported with an error, in every family",
          "[syntax_without_call]") {
    const std::vector<Block> blocks = {
        {"tag", "[TOOL_CALL]", "[/TOOL_CALL]"},
        {"tag", "<tool_call>", "</tool_call>"},
        {"hermes", "<tool_call>", "</tool_call>"},
        {"longcat", "<longcat_tool_call>", "</longcat_tool_call>"},
        {"qwen3_coder", "<tool_call>", "</tool_call>"},
        {"seed_oss", "<seed:tool_call>", "</seed:tool_call>"},
        {"glm45", "<tool_call>", "</tool_call>"},
        {"minimax_m2", "<minimax:tool_call>", "</minimax:tool_call>"},
        {"minimax_m3", "]<]minimax[>[<tool_call>", "]<]minimax[>[</tool_call>"},
        {"step3", "<｜tool_calls_begin｜>", "<｜tool_calls_end｜>"},
        {"kimi_k2", "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"},
        {"deepseek_r1", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"},
        {"deepseek_v31", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"},
        {"deepseek_v32", "<｜DSML｜function_calls>", "</｜DSML｜function_calls>"},
        {"pythonic", "<|python_start|>", "<|python_end|>"},
        {"pythonic", "<|tool_call_start|>", "<|tool_call_end|>"},
        {"pythonic", "<function_calls>", "</function_calls>"},
        {"granite", "<tool_call>", "</tool_call>"},
        {"functionary_v31", "<function=get_weather>", "</function>"},
        {"command_r", "<|START_ACTION|>", "<|END_ACTION|>"},
        {"harmony", "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>", "<|call|>"},
        {"jamba", "<tool_calls>", "</tool_calls>"},
        {"nemotron", "<TOOLCALL>", "</TOOLCALL>"},
        {"internlm", "<|action_start|><|plugin|>\n", "<|action_end|>"},
        {"xlam", "<tool_call>", "</tool_call>"},
        {"apertus", "<|tools_prefix|>", "<|tools_suffix|>"},
        {"gemma4", "<|tool_call>", "<tool_call|>"},
        {"functiongemma", "<start_function_call>", "<end_function_call>"},
        {"minicpm5", "<function name=\"get_weather\">", "</function>"},
        {"xml", "<tool_call>", "</tool_call>"},
        {"xml", "<function_call>", "</function_call>"},
        // No closer of their own: the block is the line after the opener.
        {"mistral", "[TOOL_CALLS]", ""},
        {"xlam", "[TOOL_CALLS]", ""},
        {"granite", "<|tool_call|>", ""},
        {"granite_20b_fc", "<function_call> ", ""},
        {"auto", "<tool_call>", "</tool_call>"},
        {"auto", "[TOOL_CALL]", "[/TOOL_CALL]"},
        {"auto", "<|START_ACTION|>", "<|END_ACTION|>"},
    };
    for (const auto& b : blocks) {
        for (const std::string garbage : {"not json at all", "get_weather city=Paris"}) {
            const std::string text = "Let me check.\n" + b.open + garbage + b.close + "\nDone.";
            CAPTURE(b.profile, text);
            const toolgram::Parser parser(toolgram::builtin_profile(b.profile), weather_tool());
            const toolgram::Result r = parser.parse(text);
            CHECK(r.calls.empty());
            CHECK(r.telemetry.saw_tool_syntax);
            REQUIRE(r.telemetry.rejected.size() == 1);
            CHECK(!r.telemetry.rejected[0].reason.empty());
            REQUIRE(r.error);
            CHECK(r.error->correction_prompt.find(r.error->message) != std::string::npos);
            CHECK(r.content == "Let me check.\nDone.");
            CHECK(toolgram::to_json(streamed(parser, text)) == toolgram::to_json(r));
        }
    }
}

TEST_CASE("a block's tags mentioned in prose, or a block left empty, are no error", "[syntax_without_call]") {
    struct Case {
        const char* profile;
        std::string text, content;
        bool syntax;
    };
    const std::vector<Case> cases = {
        // Mentions: the opener stands inside a sentence, or the closer does.
        {"hermes", "Wrap each call in <tool_call> and </tool_call> tags.", "Wrap each call in <tool_call> and </tool_call> tags.", false},
        {"tag", "Calls go between [TOOL_CALL] and [/TOOL_CALL], as JSON.", "Calls go between [TOOL_CALL] and [/TOOL_CALL], as JSON.", false},
        {"nemotron", "<TOOLCALL>x</TOOLCALL> is the syntax.", "<TOOLCALL>x</TOOLCALL> is the syntax.", false},
        // An opener with no closer is no block.
        {"command_r", "<|START_ACTION|>not json", "<|START_ACTION|>not json", false},
        // Empty: syntax that holds no call, as an empty call list.
        {"xlam", "<tool_call></tool_call>\nNo tool is needed: it is 12 °C in Paris.", "No tool is needed: it is 12 °C in Paris.", true},
        {"hermes", "<tool_call>\n</tool_call>\nNothing to call.", "Nothing to call.", true},
    };
    for (const auto& c : cases) {
        CAPTURE(c.profile, c.text);
        const toolgram::Parser parser(toolgram::builtin_profile(c.profile), weather_tool());
        const toolgram::Result r = parser.parse(c.text);
        CHECK(r.calls.empty());
        CHECK(r.telemetry.rejected.empty());
        CHECK(!r.error);
        CHECK(r.telemetry.saw_tool_syntax == c.syntax);
        CHECK(r.content == c.content);
        CHECK(toolgram::to_json(streamed(parser, c.text)) == toolgram::to_json(r));
    }
}

TEST_CASE("a block some grammar reads is never taken as unreadable", "[syntax_without_call]") {
    // auto: each family sharing <tool_call> reads its own payload; the unreadable block is
    // tried only after all of them declined.
    const std::vector<std::pair<std::string, json>> texts = {
        {"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>", {{"city", "Oslo"}}},
        {"<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>", {{"city", "Oslo"}}},
        {"<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n</tool_call>", {{"city", "Oslo"}}},
        {"<tool_call>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}]</tool_call>", {{"city", "Oslo"}}},
    };
    const toolgram::Parser parser(toolgram::builtin_profile("auto"), weather_tool());
    for (const auto& [text, args] : texts) {
        CAPTURE(text);
        const toolgram::Result r = parser.parse(text);
        REQUIRE(r.calls.size() == 1);
        CHECK(r.calls[0].arguments == args);
        CHECK(r.telemetry.rejected.empty());
        CHECK(r.content.empty());
    }
}

TEST_CASE("one unreadable call of a Python list loses that call, not its siblings", "[syntax_without_call][python]") {
    struct Case {
        const char* profile;
        std::string text;
        std::vector<std::string> names;  // the accepted calls
        std::size_t rejected;
        std::string content;
    };
    const auto tools = toolgram::tools_from_json(json::parse(R"([
        {"name": "f", "parameters": {"type": "object", "properties": {"a": {}}}},
        {"name": "g", "parameters": {"type": "object", "properties": {"b": {}}}},
        {"name": "h", "parameters": {"type": "object"}}])"));
    const std::vector<Case> cases = {
        {"bracket", "[f(a=1), g(b=b'z'), h()]", {"f", "h"}, 1, ""},
        {"bracket", "[f(a=b'z'), g(b=1)]", {"g"}, 1, ""},
        {"pythonic", "Hi [f(a=b'z'), g(b=1)] bye", {"g"}, 1, "Hi bye"},
        {"pythonic", "[f(a=1), g(b=<unreadable>), h()]", {"f", "h"}, 1, ""},
        {"pythonic", "[f(a=\"x)\"), g(b={'k': [1, 2]} + 1), h()]", {"f", "h"}, 1, ""},  // `)` in a string, brackets in a value
        {"pythonic", "<|python_start|>[f(a=1), g(b=@), h()]<|python_end|>", {"f", "h"}, 1, ""},
        {"pythonic", "<function_calls>\nf(a=1)\ng(b=b'z')\nh()\n</function_calls>", {"f", "h"}, 1, ""},
        // Where the syntax around the call is broken too (a bracket closed by the wrong
        // one, a quote never closed), the list is: one rejection, nothing accepted.
        {"pythonic", "[f(a=1), g(b=b'z' h()]", {}, 1, "-"},
        {"pythonic", "[f(a=1), g(b=[1, 2)), h()]", {}, 1, "-"},
        {"pythonic", "[f(a=1), g(b='unclosed), h()]", {}, 1, ""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.profile, c.text);
        toolgram::Profile profile = toolgram::builtin_profile(c.profile);
        const toolgram::Parser parser(profile, tools);
        const toolgram::Result r = parser.parse(c.text);
        std::vector<std::string> names;
        for (const auto& call : r.calls) names.push_back(call.name);
        CHECK(names == c.names);
        CHECK(r.telemetry.rejected.size() == c.rejected);
        if (c.content != "-") CHECK(r.content == c.content);
        CHECK(toolgram::to_json(streamed(parser, c.text)) == toolgram::to_json(r));
    }
}

TEST_CASE("a family's framing tokens never reach content", "[framing]") {
    struct Case {
        const char* profile;
        std::string text, content, reasoning;
    };
    const std::vector<Case> cases = {
        {"command_r", "Plan.<|END_THINKING|><|START_TEXT|>It is sunny.<|END_TEXT|>", "It is sunny.", "Plan."},
        {"command_r", "<|CHATBOT_TOKEN|>It is sunny.<|END_OF_TURN_TOKEN|>", "It is sunny.", ""},
        {"gemma4", "<|channel>thought\nPlan.<channel|>It is sunny.<channel|>", "It is sunny.", "Plan."},
        {"gemma4", "<|channel><|channel>thought\n<channel|>It is sunny.", "It is sunny.", ""},
        {"granite", "<think>Plan.</think><response>It is sunny.</response>", "It is sunny.", "Plan."},
        {"harmony", "<|channel|>commentary to=assistant<|channel|>analysis<|message|>Plan.<|end|><|start|>assistant<|channel|>final<|message|>It is sunny.",
         "It is sunny.", "Plan."},
        // MiniMax-M3 reasons in <mm:think>; its namespace token outside a block is framing.
        {"minimax_m3", "Plan.</mm:think>It is ]<]minimax[>[sunny.", "It is sunny.", "Plan."},
        {"minimax_m3", "<mm:think>Plan.</mm:think>]<]minimax[>[\nIt is sunny.", "It is sunny.", "Plan."},
        // auto does not take Granite's <response>: ordinary markup in any other model's answer.
        {"auto", "Use <response> as the root element.", "Use <response> as the root element.", ""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.profile, c.text);
        const toolgram::Parser parser(toolgram::builtin_profile(c.profile), weather_tool());
        const toolgram::Result r = parser.parse(c.text);
        CHECK(r.content == c.content);
        CHECK(r.reasoning == c.reasoning);
        CHECK(!r.telemetry.saw_tool_syntax);
        CHECK(toolgram::to_json(streamed(parser, c.text)) == toolgram::to_json(r));
    }
}

}  // namespace syntax_without_call_test
