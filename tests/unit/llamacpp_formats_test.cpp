// The syntaxes of llama.cpp's chat formats read since issue 15: Llama 3.1's built-in tool
// call (llama3_json), Functionary v3.2's message of code to `python` (functionary_v32),
// llama.cpp's generic JSON format (generic) and Apriel's reasoning (apriel). The corpus
// pins each family's outputs; this file pins what a corpus case cannot: which profile
// reads what (a `{"response": …}` is an answer only under `generic`), the engines' names,
// how `auto` meets each syntax, and PEGTL's analyser over the new rules.
#include <string>

#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "functionary_v32.hpp"
#include "llama3_json.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace llamacpp_formats_test {

using toolgram::json;
using toolgram::Parser;

namespace {

std::vector<toolgram::Tool> tools() {
    return toolgram::tools_from_json(json::parse(R"([
        {"name": "get_weather", "parameters": {"type": "object",
            "properties": {"city": {"type": "string"}}, "required": ["city"]}},
        {"name": "brave_search", "parameters": {"type": "object",
            "properties": {"query": {"type": "string"}}, "required": ["query"]}},
        {"name": "python", "parameters": {"type": "object",
            "properties": {"code": {"type": "string"}}, "required": ["code"]}}
    ])"));
}

toolgram::Result parse(const std::string& profile, const std::string& text) {
    return Parser(toolgram::builtin_profile(profile), tools()).parse(text);
}

}  // namespace

TEST_CASE("llama.cpp's names of these formats resolve to the profiles that read them", "[profiles][aliases]") {
    CHECK(toolgram::builtin_profile("Generic").name == "generic");
    CHECK(toolgram::builtin_profile("Llama 3.x with builtin tools").name == "llama3_json");
    CHECK(toolgram::builtin_profile("Apriel 1.5").name == "apriel");
}

TEST_CASE("llama3_json: the built-in tool is the name before .call, under its profile and under auto",
          "[families][llama3_json]") {
    const std::string text = "<|python_tag|>brave_search.call(query=\"Antwerp zoo\")<|eom_id|>";
    for (const char* profile : {"llama3_json", "auto"}) {
        CAPTURE(profile);
        const auto r = parse(profile, text);
        REQUIRE(r.calls.size() == 1);
        CHECK(r.calls[0].name == "brave_search");
        CHECK(r.calls[0].arguments == json{{"query", "Antwerp zoo"}});
        CHECK(r.content.empty());
    }
    // `.call` belongs to the syntax: a tool named `call` is never what `x.call(…)` calls,
    // and a namespaced name is no built-in call (the tag then holds no JSON: text).
    const auto namespaced = parse("llama3_json", "<|python_tag|>tools.brave_search.call(query=\"x\")");
    CHECK(namespaced.calls.empty());
}

TEST_CASE("functionary_v32: code to python is a call of the python tool, JSON to python stays JSON",
          "[families][functionary_v32]") {
    const auto code = parse("functionary_v32", ">>>python\nprint(1)\n>>>get_weather\n{\"city\": \"Oslo\"}");
    REQUIRE(code.calls.size() == 2);
    CHECK(code.calls[0].name == "python");
    CHECK(code.calls[0].arguments == json{{"code", "print(1)\n"}});
    CHECK(code.calls[1].name == "get_weather");
    const auto object = parse("functionary_v32", ">>>python\n{\"code\": \"print(2)\"}");
    REQUIRE(object.calls.size() == 1);
    CHECK(object.calls[0].arguments == json{{"code", "print(2)"}});
    // Not declared: refused with the reason, never left as content nor dropped.
    const auto undeclared = Parser(toolgram::builtin_profile("functionary_v32"),
                                   toolgram::tools_from_json(json::parse(R"([{"name": "get_weather"}])")))
                                .parse(">>>python\nprint(3)");
    CHECK(undeclared.calls.empty());
    CHECK(undeclared.telemetry.saw_tool_syntax);
    REQUIRE(undeclared.telemetry.rejected.size() == 1);
    CHECK(undeclared.telemetry.rejected[0].name == "python");
    CHECK(undeclared.content.empty());
}

TEST_CASE("generic: {\"response\": …} is the answer only under generic, and elsewhere the object stays text",
          "[families][generic]") {
    const std::string text = "{\"response\": \"Sunny.\\nWarm too.\"}";
    const auto own = parse("generic", text);
    CHECK(own.calls.empty());
    CHECK(own.content == "Sunny.\nWarm too.");
    CHECK_FALSE(own.telemetry.saw_tool_syntax);
    CHECK_FALSE(own.error.has_value());
    for (const char* profile : {"json", "auto", "hermes"}) {
        CAPTURE(profile);
        const auto other = parse(profile, text);
        CHECK(other.calls.empty());
        CHECK(other.content == text);
        CHECK_FALSE(other.telemetry.saw_tool_syntax);
    }
}

TEST_CASE("generic: the tool_call wrapper is read by generic, and by auto only as a gated fallback",
          "[families][generic][auto]") {
    const std::string text = "{\"tool_call\": {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}}";
    const auto own = parse("generic", text);
    REQUIRE(own.calls.size() == 1);
    CHECK(own.calls[0].name == "get_weather");
    CHECK(own.telemetry.grammar == "generic");
    // Under auto: no intent shown, no call; with intent, the fallback reads it.
    const auto no_intent = parse("auto", text);
    CHECK(no_intent.calls.empty());
    toolgram::Profile p = toolgram::builtin_profile("auto");
    p.settings.tool_required = true;
    const auto with_intent = Parser(p, tools()).parse(text);
    REQUIRE(with_intent.calls.size() == 1);
    CHECK(with_intent.telemetry.parse_mode == toolgram::ParseMode::fallback);
}

TEST_CASE("apriel: reasoning ends at [BEGIN FINAL RESPONSE], whose framing never reaches content",
          "[families][apriel]") {
    const std::string text =
        "Paris is asked for.\n[BEGIN FINAL RESPONSE]\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": "
        "{\"city\": \"Paris\"}}]</tool_calls>\n<|end|>";
    for (const char* profile : {"apriel", "auto"}) {
        CAPTURE(profile);
        const auto r = parse(profile, text);
        REQUIRE(r.calls.size() == 1);
        CHECK(r.reasoning == "Paris is asked for.");
        CHECK(r.content.empty());
    }
    const auto answer = parse("apriel", "Easy.\n[BEGIN FINAL RESPONSE]\nParis.\n[END FINAL RESPONSE]\n<|end|>");
    CHECK(answer.reasoning == "Easy.");
    CHECK(answer.content == "Paris.");
    // The prompt did not open reasoning: the marker is framing all the same.
    toolgram::Profile p = toolgram::builtin_profile("apriel");
    p.settings.reasoning_start = toolgram::ReasoningStart::outside;
    const auto outside = Parser(p, tools()).parse("[BEGIN FINAL RESPONSE]\nParis.");
    CHECK(outside.content == "Paris.");
}

TEST_CASE("PEGTL analyze finds no cycle without progress in the rules added for llama.cpp's formats",
          "[grammar][analyze]") {
    namespace g = toolgram::grammar;
    namespace pg = tao::pegtl;
    CHECK(pg::analyze<g::llama3_json::builtin>() == 0);
    CHECK(pg::analyze<g::functionary_v32::code_header>() == 0);
    CHECK(pg::analyze<g::functionary_v32::headless_code_header>() == 0);
}

}  // namespace llamacpp_formats_test
