// Rule-level tests of the minimax_m3 grammar (grammars/minimax_m3.hpp) and its reader.
// Its behaviour on whole model outputs is pinned by the golden corpus (corpus/minimax_m3/)
// and the tests that run over every profile; this file holds what only the rules and the
// reader can show: containers without a schema, the opener shared with `<tool_call>`
// families under auto, and what the rules refuse rather than guess.
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "call_lists.hpp"
#include "minimax_m3.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace grammar_minimax_m3_test {

using toolgram_test::calls_of;

using toolgram::json;

namespace {

const std::string NS = "]<]minimax[>[";

std::string tag(const std::string& t) { return NS + "<" + t + ">"; }
std::string end(const std::string& t) { return NS + "</" + t + ">"; }
std::string block(const std::string& invokes) { return tag("tool_call") + "\n" + invokes + "\n" + end("tool_call"); }

// Without tools nothing is typed from a schema: leaves come back as the text read.
}  // namespace

TEST_CASE("PEGTL analyze finds no cycle without progress in the minimax_m3 grammar", "[grammar][analyze][minimax_m3]") {
    CHECK(tao::pegtl::analyze<toolgram::grammar::minimax_m3::block>() == 0);
}

TEST_CASE("minimax_m3: without a schema, all-item children are a list and other children an object",
          "[grammar][minimax_m3]") {
    const std::string text = block(NS + "<invoke name=\"f\">" + tag("tags") + tag("item") + "a" + end("item") + tag("item") +
                                   "b" + end("item") + end("tags") + tag("opts") + tag("unit") + "C" + end("unit") +
                                   tag("tag") + "x" + end("tag") + tag("tag") + "y" + end("tag") + end("opts") +
                                   end("invoke"));
    const json want = json::parse(R"([{"name": "f", "arguments": {"tags": ["a", "b"], "opts": {"unit": "C", "tag": ["x", "y"]}}}])");
    for (const char* profile : {"minimax_m3", "auto"}) {
        CAPTURE(profile);
        CHECK(calls_of(profile, text) == want);
    }
}

TEST_CASE("minimax_m3: the block's opener holds <tool_call>, yet no <tool_call> family reads inside it",
          "[grammar][minimax_m3]") {
    const std::string text = block(NS + "<invoke name=\"get_weather\">" + tag("city") + "Paris" + end("city") + end("invoke"));
    const json want = json::parse(R"([{"name": "get_weather", "arguments": {"city": "Paris"}}])");
    CHECK(calls_of("auto", text) == want);
    for (const char* profile : {"hermes", "qwen3_coder", "glm45", "minimax_m2"}) {
        CAPTURE(profile);
        CHECK(calls_of(profile, text) == json::array());
    }
    // And M3 does not read the others' payloads.
    CHECK(calls_of("minimax_m3", "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>") == json::array());
    CHECK(calls_of("minimax_m3",
                   "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1</parameter>\n</invoke>\n"
                   "</minimax:tool_call>") == json::array());
}

TEST_CASE("minimax_m3: what the template never writes is refused with a reason, not guessed at",
          "[grammar][minimax_m3]") {
    const toolgram::Parser parser(toolgram::builtin_profile("minimax_m3"));
    struct Case {
        std::string text, reason;
    };
    const std::vector<Case> cases = {
        {block(NS + "<invoke name=\"f\">" + tag("a") + "1" + end("b") + end("invoke")), "does not match the element <a>"},
        {block(NS + "<invoke name=\"f\">" + tag("a") + "x " + tag("b") + "1" + end("b") + end("a") + end("invoke")),
         "holds text beside its elements"},
        {block(NS + "<invoke name=\"f\">" + tag("a") + "x " + NS + " y" + end("a") + end("invoke")),
         "starts no element and no closer"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        const toolgram::Result r = parser.parse(c.text);
        CHECK(r.calls.empty());
        CHECK(r.telemetry.saw_tool_syntax);
        REQUIRE(r.telemetry.rejected.size() == 1);
        CHECK(r.telemetry.rejected[0].reason.find(c.reason) != std::string::npos);
    }
}

TEST_CASE("minimax_m3: an object of 10^5 members is read in linear time", "[grammar][minimax_m3][linear]") {
    std::string members;
    for (int i = 0; i < 100000; ++i) {
        const std::string k = "k" + std::to_string(i);
        members += tag(k) + "v" + end(k);
    }
    const std::string text = block(NS + "<invoke name=\"store\">" + tag("record") + members + end("record") + end("invoke"));
    const auto tools = toolgram::tools_from_json(json::parse(R"([{"name": "store", "parameters": {"type": "object",
        "properties": {"record": {"type": "object", "additionalProperties": {"type": "string"}}}}}])"));
    toolgram::Profile p = toolgram::builtin_profile("minimax_m3");
    p.settings.limits.max_candidate_bytes = p.settings.limits.max_input_bytes = std::size_t{16} << 20;
    const toolgram::Result r = toolgram::Parser(p, tools).parse(text);
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].arguments["record"].size() == 100000);
    CHECK(r.calls[0].arguments["record"]["k99999"] == "v");
}

}  // namespace grammar_minimax_m3_test
