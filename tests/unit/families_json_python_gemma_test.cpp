// The llama3_json, pythonic, xlam, apertus, gemma4 and functiongemma families: what the
// corpus cannot pin by itself. How `auto` runs the families without a marker of their own
// (their marked forms as primaries, the bare forms behind gated fallbacks); that a bare
// form never fires on plain JSON or prose under auto without intent; hostile nesting in
// every one of them (rejected, never a crash); and PEGTL's analyser over their top rules.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "apertus.hpp"
#include "call_lists.hpp"
#include "functiongemma.hpp"
#include "gemma4.hpp"
#include "isolated_parse.hpp"
#include "llama3_json.hpp"
#include "pythonic.hpp"
#include "toolgram/toolgram.hpp"
#include "xlam.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace families_json_python_gemma_test {

using toolgram_test::calls_of;

using toolgram::json;
using toolgram::Parser;
using toolgram::Profile;
using toolgram::Role;

namespace {

std::vector<toolgram::Tool> tools() {
    return toolgram::tools_from_json(json::parse(R"([
        {"name": "get_weather", "parameters": {"type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}},
        {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
    ])"));
}

Role role_in(const Profile& p, const std::string& grammar, bool& found) {
    for (const auto& g : p.grammars)
        if (g.grammar == grammar) {
            found = true;
            return g.role;
        }
    found = false;
    return Role::primary;
}

}  // namespace

TEST_CASE("auto runs the marked forms of llama3_json and pythonic as primaries, their bare forms as fallbacks",
          "[families][auto]") {
    const Profile a = toolgram::builtin_profile("auto");
    bool found = false;
    CHECK(role_in(a, "llama3_json_tagged", found) == Role::primary);
    CHECK(found);
    CHECK(role_in(a, "llama3_json", found) == Role::fallback);
    CHECK(found);
    CHECK(role_in(a, "pythonic_tagged", found) == Role::primary);
    CHECK(found);
    role_in(a, "pythonic", found);
    CHECK_FALSE(found);  // the bare list is bracket's syntax, which auto runs as a fallback
    CHECK(role_in(a, "bracket", found) == Role::fallback);
    CHECK(role_in(a, "xlam", found) == Role::fallback);
    CHECK(found);
    for (const char* g : {"apertus", "gemma4", "functiongemma"}) {
        CAPTURE(g);
        CHECK(role_in(a, g, found) == Role::primary);
        CHECK(found);
    }
    // The families' own profiles read every form as primary (pythonic LFM2's JSON mode too,
    // beside its own grammar at the same marker).
    for (const char* p : {"llama3_json", "pythonic", "xlam"}) {
        const Profile own = toolgram::builtin_profile(p);
        CAPTURE(p);
        CHECK_FALSE(own.distinctive);
        REQUIRE(own.grammars.size() == (std::string(p) == "pythonic" ? 2u : 1u));
        CHECK(own.grammars.front().grammar == p);
        CHECK(own.grammars.front().role == Role::primary);
    }
    CHECK(toolgram::builtin_profile("pythonic").grammars.back().grammar == "lfm2_json");
    CHECK(toolgram::builtin_profile("pythonic").grammars.back().role == Role::primary);
    CHECK(role_in(a, "lfm2_json", found) == Role::primary);
    CHECK(found);
}

TEST_CASE("auto takes a marked llama3_json or pythonic call without intent, and gates the bare forms",
          "[families][auto]") {
    const Parser parser(toolgram::builtin_profile("auto"), tools());
    const json weather = json::array({{{"name", "get_weather"}, {"arguments", {{"city", "Oslo"}}}}});
    CHECK(calls_of(parser.parse(R"(<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}})")) == weather);
    CHECK(calls_of(parser.parse(R"(<|tool_call_start|>[get_weather(city="Oslo")]<|tool_call_end|>)")) == weather);
    CHECK(calls_of(parser.parse("<function_calls>\nget_weather(city=\"Oslo\")\n</function_calls>")) == weather);
    CHECK(calls_of(parser.parse(R"(<|python_start|>[get_weather(city="Oslo")]<|python_end|>)")) == weather);
    for (const char* bare : {R"({"name": "get_weather", "parameters": {"city": "Oslo"}})",
                             R"([get_weather(city="Oslo")])",
                             R"([{"name": "get_weather", "arguments": {"city": "Oslo"}}])"}) {
        CAPTURE(bare);
        const toolgram::Result r = parser.parse(bare);
        CHECK(r.calls.empty());
        REQUIRE(r.telemetry.rejected.size() == 1);
        CHECK_THAT(r.telemetry.rejected[0].reason, Catch::Contains("no intent"));
    }
}

TEST_CASE("the bare llama3_json and xlam forms leave plain JSON in an answer alone", "[families][llama3_json][xlam]") {
    for (const char* profile : {"llama3_json", "xlam"}) {
        const Parser parser(toolgram::builtin_profile(profile), tools());
        for (const char* text : {
                 R"({"name": "Bob", "age": 41})",
                 R"({"name": "Bob", "age": })",  // broken, but never showed a call's arguments
                 R"([{"id": 1}, {"id": 2}])",
                 R"([{"name": "Bob"}, {"name": "Ann"}])",
                 R"([{"name": "Bob", "tags": [1, 2)",
             }) {
            CAPTURE(profile, text);
            const toolgram::Result r = parser.parse(text);
            CHECK(r.calls.empty());
            CHECK(r.telemetry.candidates.empty());
            CHECK_FALSE(r.error.has_value());
            CHECK(r.content == text);
        }
    }
}

TEST_CASE("100000 levels of nesting in each of these families are rejected, never a crash", "[families][limits]") {
    struct Row {
        std::string profile;
        std::string text;
    };
    const std::string levels(100000, '[');
    const auto row = GENERATE_REF(values<Row>({
        {"llama3_json", R"({"name": "search", "parameters": {"q": )" + levels},
        {"llama3_json", R"(<|python_tag|>{"name": "search", "parameters": {"q": )" + levels},
        {"pythonic", "<|tool_call_start|>[search(q=" + levels},
        {"pythonic", "<function_calls>\nsearch(q=" + levels},
        {"xlam", R"([{"name": "search", "arguments": {"q": )" + levels},
        {"apertus", R"(<|tools_prefix|>[{"search": {"q": )" + levels},
        {"gemma4", "<|tool_call>call:search{q:" + levels},
        {"functiongemma", "<start_function_call>call:search{q:" + levels},
    }));
    DYNAMIC_SECTION(row.profile << " " << row.text.substr(0, 40)) {
        const Parser parser(toolgram::builtin_profile(row.profile), tools());
        const auto child = toolgram_test::parse_isolated(parser, row.text);
        INFO("child signal: " << child.signal);
        REQUIRE(child.exited_normally);
        const json& r = child.result;
        CHECK(r["calls"] == json::array());
        REQUIRE(r["telemetry"]["rejected"].size() == 1);
        CHECK(r["telemetry"]["rejected"][0]["reason"] == "nesting deeper than the limit of 64 levels");
    }
}

TEST_CASE("gemma4 and functiongemma share one call syntax and differ only in their tokens", "[families][gemma]") {
    const json want = json::array({{{"name", "get_weather"}, {"arguments", {{"city", "Kyiv, {centre} [x]"}, {"days", 2}}}}});
    const Parser gemma4(toolgram::builtin_profile("gemma4"), tools());
    const Parser fgemma(toolgram::builtin_profile("functiongemma"), tools());
    CHECK(calls_of(gemma4.parse(R"(<|tool_call>call:get_weather{city:<|"|>Kyiv, {centre} [x]<|"|>,days:2}<tool_call|>)")) ==
          want);
    CHECK(calls_of(fgemma.parse(
              "<start_function_call>call:get_weather{city:<escape>Kyiv, {centre} [x]<escape>,days:2}<end_function_call>")) ==
          want);
    // Each reads only its own quote token: the other's is text, and breaks the value.
    CHECK(gemma4.parse("<|tool_call>call:get_weather{city:<escape>Kyiv<escape>}<tool_call|>").calls.empty());
    CHECK(fgemma.parse(R"(<start_function_call>call:get_weather{city:<|"|>Kyiv<|"|>}<end_function_call>)").calls.empty());
    // A string that meets the block's closer before its closing quote is broken, not cut.
    const toolgram::Result broken = gemma4.parse(R"(<|tool_call>call:get_weather{city:<|"|>Kyiv}<tool_call|> later <|"|>)");
    CHECK(broken.calls.empty());
    REQUIRE(broken.error.has_value());
    CHECK(broken.error->message == "string not closed before the end of the call");
    CHECK(broken.content == "later <|\"|>");
}

TEST_CASE("gemma quoting: a quoted null is text where the schema takes a string, a bare null is null",
          "[families][gemma]") {
    // Found by fuzz_roundtrip: render wrote the string "null" quoted, parse read it as null.
    const auto tools = toolgram::tools_from_json(json::parse(R"([{"name": "send_email", "parameters": {
        "type": "object", "properties": {"cc": {"type": "string", "nullable": true}, "n": {"type": ["integer", "null"]},
                                         "z": {"type": "null"}}}}])"));
    struct Row {
        std::string profile, quote;
    };
    const auto row = GENERATE(values<Row>({{"functiongemma", "<escape>"}, {"gemma4", "<|\"|>"}}));
    const toolgram::Profile profile = toolgram::builtin_profile(row.profile);
    const toolgram::Parser parser(profile, tools);
    const std::string q = row.quote;
    const std::string open = row.profile == "gemma4" ? "<|tool_call>" : "<start_function_call>";
    const std::string close = row.profile == "gemma4" ? "<tool_call|>" : "<end_function_call>";
    const toolgram::Result r = parser.parse(open + "call:send_email{cc:" + q + "null" + q + ",n:" + q + "null" + q +
                                            ",z:" + q + "null" + q + "}" + close + open + "call:send_email{cc:null}" +
                                            close);
    DYNAMIC_SECTION(row.profile) {
        INFO(toolgram::to_json(r).dump(2));
        REQUIRE(r.calls.size() == 2);
        // A string fits first; an integer does not, so null does; null alone is null.
        CHECK(r.calls[0].arguments == json{{"cc", "null"}, {"n", nullptr}, {"z", nullptr}});
        CHECK(r.calls[1].arguments == json{{"cc", nullptr}});
    }
}

TEST_CASE("PEGTL analyze finds no cycle without progress in these families' top rules", "[grammar][analyze]") {
    namespace g = toolgram::grammar;
    namespace pg = tao::pegtl;
    CHECK(pg::analyze<g::llama3_json::block>() == 0);
    CHECK(pg::analyze<g::pythonic::block>() == 0);
    CHECK(pg::analyze<g::xlam::block>() == 0);
    CHECK(pg::analyze<g::apertus::block>() == 0);
    CHECK(pg::analyze<g::gemma4::block>() == 0);
    CHECK(pg::analyze<g::functiongemma::block>() == 0);
}

}  // namespace families_json_python_gemma_test
