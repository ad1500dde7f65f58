// Regions (src/scan/regions.cpp): Markdown fences paired as CommonMark pairs them, the example
// guard's lead-ins in the languages models answer in and on the line before a call, and
// reasoning blocks kept in content (ReasoningFormat::in_content).
//
// Table-driven where the behaviour is a mapping ({text, fences}, {lead-in, verdict}); each
// parse-level test asserts the calls, the content and the rejections together.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "call_lists.hpp"
#include "scan/regions.hpp"
#include "scan/scan_context.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace regions_test {

using toolgram_test::calls_with_ids;

using toolgram::json;
using toolgram::Parser;
using toolgram::Result;

namespace {

std::vector<toolgram::Tool> weather_tools() {
    return toolgram::tools_from_json(json::parse(R"([
        {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                               "required": ["city"]}}])"));
}

const std::string weather_tag = R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}}[/TOOL_CALL])";
const json weather_call = {{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "Antwerp"}}}};
const std::string as_example = "shown as an example, not a call";

std::vector<std::string> reasons(const Result& r) {
    std::vector<std::string> out;
    for (const auto& x : r.telemetry.rejected) out.push_back(x.reason);
    return out;
}

Result parse_tag(const std::string& text) { return Parser(toolgram::builtin_profile("tag"), weather_tools()).parse(text); }

// Fences as [outer_begin, outer_end) spans of text, with whether each closed.
struct FenceSpan {
    std::string outer;
    std::string inner;
    bool closed;
    bool operator==(const FenceSpan& o) const { return outer == o.outer && inner == o.inner && closed == o.closed; }
};

std::vector<FenceSpan> fences_of(const std::string& text) {
    toolgram::Settings settings;
    toolgram::detail::ScanContext ctx(text, settings);
    std::vector<FenceSpan> out;
    for (const auto& f : toolgram::detail::find_fences(ctx, text.size()))
        out.push_back({text.substr(f.outer_begin, f.outer_end - f.outer_begin),
                       text.substr(f.inner_begin, f.inner_end - f.inner_begin), f.closed});
    return out;
}

}  // namespace

// =======================================================================================
// Fences

TEST_CASE("fences pair as CommonMark pairs them: the closer has the opener's character and at least its length",
          "[regions][fences]") {
    struct Row {
        const char* what;
        std::string text;
        std::vector<FenceSpan> fences;
    };
    const std::vector<Row> table = {
        {"backticks", "a\n```\nx\n```\nb", {{"```\nx\n```", "x\n", true}}},
        {"tildes count", "a\n~~~\nx\n~~~\nb", {{"~~~\nx\n~~~", "x\n", true}}},
        {"a shorter run inside a longer fence is text", "````\n```\nx\n```\n````\n",
         {{"````\n```\nx\n```\n````", "```\nx\n```\n", true}}},
        {"a longer closer closes", "```\nx\n`````\n", {{"```\nx\n`````", "x\n", true}}},
        {"the other character does not close", "~~~\n```\nx\n```\n~~~", {{"~~~\n```\nx\n```\n~~~", "```\nx\n```\n", true}}},
        {"an info string only on the opener", "```python\nx\n```python\ny\n```\n",
         {{"```python\nx\n```python\ny\n```", "x\n```python\ny\n", true}}},
        {"blanks after a closer are allowed", "```\nx\n  ```  \r\nafter", {{"```\nx\n  ```  \r", "x\n", true}}},
        {"a backtick in a backtick opener's info string: no fence", "```a`b\nx\n", {}},
        {"a backtick in a tilde opener's info string is fine", "~~~a`b\nx\n~~~", {{"~~~a`b\nx\n~~~", "x\n", true}}},
        {"four spaces: indented code, not a fence", "    ```\nx\n    ```\n", {}},
        {"never closed: to the end", "```\nx\ny", {{"```\nx\ny", "x\ny", false}}},
        {"two runs of two are no fence", "``\nx\n``\n", {}},
        {"fences one after another", "```\na\n```\n~~~~\nb\n~~~~\n", {{"```\na\n```", "a\n", true}, {"~~~~\nb\n~~~~", "b\n", true}}},
    };
    for (const auto& row : table) {
        CAPTURE(row.what, row.text);
        const auto got = fences_of(row.text);
        REQUIRE(got.size() == row.fences.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            CAPTURE(i, got[i].outer, got[i].inner);
            CHECK(got[i] == row.fences[i]);
        }
    }
}

TEST_CASE("fences: a call inside a longer fence is not let out by a shorter run before it", "[regions][fences]") {
    // The ```` fence holds a document with a ``` fence in it: the call is inside the outer
    // fence, introduced as an example; a run of three does not close a fence of four.
    const std::string text = "For example, a README might hold:\n\n````markdown\nCall it so:\n```\n" + weather_tag +
                             "\n```\n````\nThat is all.";
    const Result r = parse_tag(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(r.calls.empty());
    CHECK(reasons(r) == std::vector<std::string>{as_example});
    CHECK(r.content == text);
    CHECK_FALSE(r.error.has_value());
}

TEST_CASE("fences: a ~~~ fence before a call is a fence, for the example guard and for clean content",
          "[regions][fences]") {
    SECTION("introduced as an example") {
        const std::string text = "A call would look like\n~~~\n" + weather_tag + "\n~~~";
        const Result r = parse_tag(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{as_example});
        CHECK(r.content == text);
    }
    SECTION("a fence that only wraps a real call goes with it") {
        const Result r = parse_tag("Calling it now:\n~~~json\n" + weather_tag + "\n~~~\nDone.");
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.content == "Calling it now:\nDone.");
        CHECK(r.telemetry.repairs == std::vector<std::string>{"tags_inside_fence"});
    }
    SECTION("a closing line with an info string does not close: the fence holds text after the call") {
        const Result r = parse_tag("Calling it now:\n```\n" + weather_tag + "\n```json\nmore\n```");
        INFO(toolgram::to_json(r).dump(2));
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.content == "Calling it now:\n```\n```json\nmore\n```");
    }
}

// =======================================================================================
// Example lead-ins

TEST_CASE("example guard: the common lead-ins of the languages models answer in", "[regions][examples]") {
    // On the call's own line, before it.
    const std::vector<std::string> lead_ins = {
        "例如，",  "比如：",  "举个例子：",  "示例：",  "舉例來說，",               // Chinese
        "Por ejemplo: ",  "Un ejemplo de llamada: ",                             // Spanish
        "Par exemple : ",  "Voici un exemple : ",                                // French
        "Zum Beispiel: ",  "z. B. ",  "Beispielsweise ",                         // German
        "例えば、",  "呼び出しの例：",  "たとえば ",                              // Japanese
        "Por exemplo: ",  "Um exemplo: ",                                        // Portuguese
        "Например: ",  "НАПРИМЕР: ",  "Вот пример: ",                            // Russian
        "예를 들어 ",  "예시: ",                                                  // Korean
        "Per esempio: ",  "Bijvoorbeeld: ",  "Na przykład: ",  "Örneğin: ",  "Ví dụ: ",
        "For example, ",  "E.G. ",                                               // English, any case
    };
    for (const auto& lead : lead_ins) {
        CAPTURE(lead);
        const Result r = parse_tag(lead + weather_tag);
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{as_example});
        CHECK(r.content == lead + weather_tag);
        CHECK_FALSE(r.error.has_value());
    }
}

TEST_CASE("example guard: every phrase of its tables has its effect", "[regions][examples]") {
    // The phrases are looked for by their first two bytes (a bit per pair, then the
    // phrases with that first byte): each one, as the table holds it, must still be found.
    // A strong lead-in makes a call on its line an example; any lead-in does, before a
    // fence; a disowner does, on the line after a fence.
    const std::string fenced = "```\n" + weather_tag + "\n```";
    const auto lead_ins = toolgram::detail::example_lead_ins();
    const auto disowners = toolgram::detail::example_disowners();
    CHECK(lead_ins.size() > 100);
    CHECK(disowners.size() > 50);
    for (const auto& [phrase, strong] : lead_ins) {
        const std::string p(phrase);
        CAPTURE(p, strong);
        if (strong) {
            const Result r = parse_tag("Note " + p + " " + weather_tag);
            CHECK(r.calls.empty());
            CHECK(reasons(r) == std::vector<std::string>{as_example});
        }
        const Result r = parse_tag("Note " + p + " here:\n" + fenced);
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{as_example});
    }
    for (const std::string_view phrase : disowners) {
        const std::string p(phrase);
        CAPTURE(p);
        const Result r = parse_tag(fenced + "\n\nNote " + p + " here.");
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{as_example});
    }
    // And the same text without its phrase is a call: the phrase is what decides.
    CHECK(calls_with_ids(parse_tag("Note " + weather_tag)) == json::array({weather_call}));
    CHECK(calls_with_ids(parse_tag("Note here:\n" + fenced)) == json::array({weather_call}));
    CHECK(calls_with_ids(parse_tag(fenced + "\n\nNote here.")) == json::array({weather_call}));
}

TEST_CASE("example guard: prose in those languages that introduces no example leaves the call a call",
          "[regions][examples]") {
    const std::vector<std::string> leads = {
        "让我查一下天气：",  "Voy a consultar el tiempo:",  "Je vérifie la météo :",  "Ich sehe nach:",
        "天気を確認します：",  "天気の例外を避けて再試行します：",  "サンプルデータを取得します：",  "Vou verificar:",  "Сейчас проверю погоду:",  "날씨를 확인하겠습니다:",
        "The weather sample is old, checking again:",  // "sample" is no lead-in, "example" inside a word neither:
        "Counterexample aside, checking:",
    };
    for (const auto& lead : leads) {
        for (const char* gap : {" ", "\n"}) {
            CAPTURE(lead, gap);
            const Result r = parse_tag(lead + gap + weather_tag);
            CHECK(calls_with_ids(r) == json::array({weather_call}));
            CHECK(r.content == lead);
        }
    }
}

TEST_CASE("example guard: a lead-in on the line before a call that starts its line", "[regions][examples]") {
    SECTION("a line that ends introducing what follows makes the call an example") {
        for (const std::string lead : {"Here is an example:\n", "Here is an example:\n\n", "For example\n",
                                       "例如：\n", "Por ejemplo,\n", "Ein Beispiel:\r\n", "Пример:\n  "}) {
            CAPTURE(lead);
            const Result r = parse_tag(lead + weather_tag);
            CHECK(r.calls.empty());
            CHECK(reasons(r) == std::vector<std::string>{as_example});
            CHECK(r.content == lead + weather_tag);
        }
    }
    SECTION("one that does not end introducing (a sentence that mentions an example) leaves the call a call") {
        for (const std::string lead : {"I found no example of this in the docs, so let me check.\n",
                                       "Here is an example of a call.\nAnd here is mine:\n"}) {
            CAPTURE(lead);
            const Result r = parse_tag(lead + weather_tag);
            CHECK(calls_with_ids(r) == json::array({weather_call}));
        }
    }
    SECTION("the line before counts only for a call that starts its line") {
        const Result r = parse_tag("Here is an example:\nand now the real one: " + weather_tag);
        CHECK(calls_with_ids(r) == json::array({weather_call}));
    }
    SECTION("the marker grammar, as the issue shows it") {
        const std::string text = "Here is an example:\nTOOL_CALL {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Antwerp\"}}";
        const Result r = Parser(toolgram::builtin_profile("auto"), weather_tools()).parse(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{as_example});
        CHECK(r.content == text);
    }
}

TEST_CASE("example guard: a call's own text never introduces the call after it", "[regions][examples]") {
    // Two calls on one line, the first's argument ending "for example:". That string is
    // arguments, not prose leading to the second call: both are calls, one-shot and
    // streamed a byte at a time. Prose after the first call still counts.
    const std::string first = R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"for example:"}}[/TOOL_CALL])";
    const json first_call = {{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "for example:"}}}};
    const json second_call = {{"id", "call_1"}, {"name", "get_weather"}, {"arguments", {{"city", "Antwerp"}}}};
    const Parser parser(toolgram::builtin_profile("tag"), weather_tools());
    const std::string text = first + " " + weather_tag;
    const Result r = parser.parse(text);
    CHECK(calls_with_ids(r) == json::array({first_call, second_call}));
    CHECK(reasons(r).empty());
    toolgram::StreamParser sp(parser);
    for (char ch : text) (void)sp.feed(std::string_view(&ch, 1));
    CHECK(toolgram::to_json(sp.finish().result) == toolgram::to_json(r));

    const Result after_prose = parser.parse(first + " For example: " + weather_tag);
    CHECK(calls_with_ids(after_prose) == json::array({first_call}));
    CHECK(reasons(after_prose) == std::vector<std::string>{as_example});
    // The window is what it was: the text before a call on its line, so a lead-in before
    // the first call still makes only the first an example.
    const Result lead_first = parser.parse("For example: " + first + "\n" + weather_tag);
    CHECK(reasons(lead_first) == std::vector<std::string>{as_example});
    CHECK(calls_with_ids(lead_first) == json::array({{{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "Antwerp"}}}}}));
}

TEST_CASE("example guard: a lead-in is looked for in a bounded window, so many calls cost linear time",
          "[regions][examples]") {
    // 20000 calls, each on its own line after a long line of prose: each looks at most a
    // window before it, not back to the start.
    std::string text;
    for (int i = 0; i < 20000; ++i) text += std::string(300, 'x') + "\n" + weather_tag + "\n";
    toolgram::Profile p = toolgram::builtin_profile("tag");
    p.settings.limits.max_candidates = 100000;
    const Result r = Parser(p, weather_tools()).parse(text);
    CHECK(r.calls.size() == 20000);
}

// =======================================================================================
// Reasoning kept in content

namespace {

Result parse_in_content(const std::string& profile, const std::string& text,
                        toolgram::ReasoningStart start = toolgram::ReasoningStart::guess, bool accept_in_reasoning = false) {
    toolgram::Profile p = toolgram::builtin_profile(profile);
    p.settings.reasoning_format = toolgram::ReasoningFormat::in_content;
    p.settings.reasoning_start = start;
    p.settings.accept_calls_in_reasoning = accept_in_reasoning;
    return Parser(p, weather_tools()).parse(text);
}

}  // namespace

TEST_CASE("reasoning in content: the block stays in content as written, reasoning is empty", "[regions][reasoning]") {
    SECTION("a block the prompt opened") {
        const std::string text = "I'm\nthinking\n</think>\n\nHello, world!";
        const Result r = parse_in_content("qwen3_coder", text, toolgram::ReasoningStart::inside);
        CHECK(r.content == text);
        CHECK(r.reasoning.empty());
        CHECK(r.calls.empty());
    }
    SECTION("framing tokens inside the block stay, those outside it go (harmony's <|end|> closes analysis)") {
        const Result r = parse_in_content(
            "harmony",
            "<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hello, world!");
        CHECK(r.content == "<|channel|>analysis<|message|>I'm\nthinking<|end|>Hello, world!");
        CHECK(r.reasoning.empty());
    }
    SECTION("Command R7B: the response markers go, the thinking markers stay") {
        const Result r = parse_in_content(
            "command_r", "<|START_THINKING|>I'm\nthinking<|END_THINKING|><|START_RESPONSE|>Hello, world!<|END_RESPONSE|>");
        CHECK(r.content == "<|START_THINKING|>I'm\nthinking<|END_THINKING|>Hello, world!");
    }
    SECTION("separate, the default, for comparison") {
        const Result r = Parser(toolgram::builtin_profile("harmony"), weather_tools())
                             .parse("<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hello");
        CHECK(r.content == "Hello");
        CHECK(r.reasoning == "I'm\nthinking");
    }
}

TEST_CASE("reasoning in content: calls are judged as with reasoning separated", "[regions][reasoning]") {
    const std::string call = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Antwerp\"}}\n</tool_call>";
    SECTION("a call after the block is a call, and leaves the content") {
        const Result r = parse_in_content("hermes", "<think>Let me check.</think>\n" + call + "\nDone.");
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.content == "<think>Let me check.</think>\nDone.");
        CHECK(r.reasoning.empty());
    }
    SECTION("a draft inside the block is reported and stays in the content with the block's text") {
        const std::string text = "<think>Maybe " + call + " later.</think>\nNo call needed.";
        const Result r = parse_in_content("hermes", text);
        CHECK(r.calls.empty());
        CHECK(reasons(r) == std::vector<std::string>{"written inside reasoning (accept_calls_in_reasoning is off)"});
        CHECK(r.content == text);
    }
    SECTION("accepted inside reasoning, the call leaves the content") {
        const Result r = parse_in_content("hermes", "<think>Maybe " + call + " later.</think>\nOK.",
                                          toolgram::ReasoningStart::guess, true);
        CHECK(calls_with_ids(r) == json::array({weather_call}));
        CHECK(r.content == "<think>Maybe later.</think>\nOK.");
    }
}

}  // namespace regions_test
