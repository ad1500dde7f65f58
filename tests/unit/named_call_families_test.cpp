// The families whose header tokens name a call and whose arguments are a JSON object
// (src/readers/named_call_reader.hpp): kimi_k2, deepseek_r1, deepseek_v31, mistral, harmony,
// functionary_v31, functionary_v32. Their corpora (corpus/<profile>/) pin what real
// outputs give; this file pins what a corpus cannot show well: no rule loops without
// progress, families that share a marker decline each other's payloads, and hostile
// inputs (thousands of openers that never close) cost linear time.
#include <chrono>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "deepseek_r1.hpp"
#include "deepseek_v31.hpp"
#include "functionary_v31.hpp"
#include "functionary_v32.hpp"
#include "harmony.hpp"
#include "kimi_k2.hpp"
#include "mistral.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace named_call_families_test {

using toolgram::json;

namespace {

std::vector<toolgram::Tool> weather_tool() {
    return toolgram::tools_from_json(json::parse(R"([{"name": "get_weather", "parameters": {"type": "object",
        "properties": {"city": {"type": "string"}}, "required": ["city"]}}])"));
}

toolgram::Result parse(const std::string& profile, const std::string& text) {
    return toolgram::Parser(toolgram::builtin_profile(profile), weather_tool()).parse(text);
}

}  // namespace

TEST_CASE("PEGTL analyze finds no cycle without progress in the named-call families' rules", "[grammar][analyze]") {
    namespace g = toolgram::grammar;
    namespace pg = tao::pegtl;
    CHECK(pg::analyze<g::kimi_k2::call>() == 0);
    CHECK(pg::analyze<g::kimi_k2::section_open>() == 0);
    CHECK(pg::analyze<g::kimi_k2::section_close>() == 0);
    CHECK(pg::analyze<g::deepseek_r1::call>() == 0);
    CHECK(pg::analyze<g::deepseek_r1::section_open>() == 0);
    CHECK(pg::analyze<g::deepseek_r1::section_close>() == 0);
    CHECK(pg::analyze<g::deepseek_v31::call>() == 0);
    CHECK(pg::analyze<g::mistral::block>() == 0);
    CHECK(pg::analyze<g::mistral::cut_header>() == 0);
    CHECK(pg::analyze<g::harmony::call>() == 0);
    CHECK(pg::analyze<g::functionary_v31::call>() == 0);
    CHECK(pg::analyze<g::functionary_v32::call>() == 0);
    CHECK(pg::analyze<g::functionary_v32::headless_call>() == 0);
    CHECK(pg::analyze<g::functionary_v32::text_header>() == 0);
}

TEST_CASE("DeepSeek R1 and V3.1 share the section tokens, and each declines the other's call shape",
          "[families][deepseek]") {
    const std::string r1 = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
                           "{\"city\": \"Porto\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    const std::string v31 = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Porto\"}"
                            "<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    for (const auto& [profile, own, other] : {std::tuple{"deepseek_r1", r1, v31}, std::tuple{"deepseek_v31", v31, r1}}) {
        CAPTURE(profile);
        const auto mine = parse(profile, own);
        REQUIRE(mine.calls.size() == 1);
        CHECK(mine.calls[0].arguments == json{{"city", "Porto"}});
        CHECK(mine.telemetry.grammar == profile);
        // The other's call shape is not this grammar's: no call. But it sits in this
        // family's own section tokens, so the section is reported, not left in content.
        const auto theirs = parse(profile, other);
        CHECK(theirs.calls.empty());
        REQUIRE(theirs.telemetry.candidates.size() == 1);
        CHECK(theirs.telemetry.candidates[0].reason ==
              "nothing between <｜tool▁calls▁begin｜> and <｜tool▁calls▁end｜> reads as a call in this syntax");
        CHECK(theirs.error);
        CHECK(theirs.content.empty());
    }
}

TEST_CASE("gpt-oss: <|end|> closes analysis but never means the output started inside it", "[families][harmony]") {
    const auto r = parse("harmony", "<|channel|>final<|message|>Done.<|end|>");
    CHECK(r.content == "Done.");
    CHECK(r.reasoning.empty());
    // A profile that wants the old reading still gets it (with guess: gpt-oss's template
    // opens no reasoning in the prompt, so harmony's default is outside).
    toolgram::Profile p = toolgram::builtin_profile("harmony");
    for (auto& d : p.settings.reasoning) d.implicit_open = true;
    p.settings.reasoning_start = toolgram::ReasoningStart::guess;
    const auto old = toolgram::Parser(p, weather_tool()).parse("<|channel|>final<|message|>Done.<|end|>");
    CHECK(old.reasoning == "<|channel|>final<|message|>Done.");
}

TEST_CASE("Kimi K2: calls after reasoning that never closed end the reasoning, in auto too", "[families][kimi_k2]") {
    const std::string text = "<think>Weather in Oslo, so get_weather.<|tool_calls_section_begin|><|tool_call_begin|>"
                             "functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Oslo\"}<|tool_call_end|>"
                             "<|tool_calls_section_end|>";
    for (const char* profile : {"kimi_k2", "auto"}) {
        CAPTURE(profile);
        const auto r = parse(profile, text);
        REQUIRE(r.calls.size() == 1);
        CHECK(r.calls[0].id == "functions.get_weather:0");
        CHECK(r.reasoning == "Weather in Oslo, so get_weather.");
        CHECK(r.content.empty());
    }
}

TEST_CASE("named-call families: thousands of openers that never close are scanned in linear time",
          "[families][linear]") {
    const std::vector<std::pair<std::string, std::string>> openers = {
        {"kimi_k2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"a\"} x "},
        {"deepseek_r1", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"a\"} x "},
        {"deepseek_v31", "<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"a\"} x "},
        {"mistral", "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"a\"} x "},
        {"harmony", "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"a\"} x "},
        {"functionary_v31", "<function=get_weather>{\"city\": \"a\"} x "},
        {"functionary_v32", "all\ntext >>> x >>>get_weather\n{\"city\": \"a\"} x "},
    };
    for (const auto& [profile, unit] : openers) {
        CAPTURE(profile);
        std::string text;
        for (int i = 0; i < 20000; ++i) text += unit;  // about 1 MiB
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = parse(profile, text);
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
        CHECK(r.telemetry.candidate_count > 0);
        // Quadratic scanning would take minutes here; linear takes well under a second.
        CHECK(ms < 5000);
    }
}

TEST_CASE("unclosed reasoning ends at a call only when nothing but calls follows it", "[families][kimi_k2]") {
    // Cut off by max_tokens while still thinking: the draft call stays inside reasoning.
    const std::string kimi = "<think>Maybe <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
                             "{\"city\": \"Oslo\"}<|tool_call_end|> but first let me check whether they meant Oslo, "
                             "Norway or";
    const std::string hermes = "<think>Draft: <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}"
                               "</tool_call> hmm, or should I ask which Oslo";
    for (const auto& [profile, text] : {std::pair{"kimi_k2", kimi}, std::pair{"auto", kimi}, std::pair{"auto", hermes}}) {
        CAPTURE(profile, text);
        const auto r = parse(profile, text);
        CHECK(r.calls.empty());
        REQUIRE(r.telemetry.rejected.size() == 1);
        CHECK(r.telemetry.rejected[0].reason.find("reasoning") != std::string::npos);
        CHECK(r.content.empty());
    }
}

}  // namespace named_call_families_test
