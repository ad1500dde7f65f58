// `toolgram coverage`: the rule-coverage collector (what it counts, and what it leaves
// out), the report's golden numbers on a small fixed input, the comparison with an earlier
// run, every output format's shape (json parses, csv has its columns, Markdown tables are
// rectangular, the HTML is well formed and needs nothing from elsewhere), the variant
// table against the grammars, and the CLI's exit codes on bad input.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "coverage/coverage.hpp"
#include "declared.hpp"
#include "common/lenient_value.hpp"
#include "readers/rule_coverage.hpp"
#include "cli_run.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace coverage_test {

using toolgram_test::Run;
using toolgram_test::run_cli;
using toolgram_test::Scratch;
using toolgram_test::shell_quote;

namespace fs = std::filesystem;
using toolgram::json;
namespace cov = toolgram::coverage;

namespace {

const fs::path corpus_root = fs::path(TOOLGRAM_SOURCE_DIR) / "corpus";

const char* tools_json = R"([
 {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}},
 {"name": "search_web", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
])";

// Three models. alpha (hermes): a call; a call whose </tool_call> was left out; an unknown
// tool; a call that fails the schema; prose. beta (qwen3_coder): wrapped; unwrapped;
// unwrapped with a </parameter> left out (expected arguments in another key order); cut
// inside a value, with no expectation. gamma (auto): a bracket call through the gated
// fallback.
const char* fixture = R"({"id": "a1", "model": "alpha", "profile": "hermes", "text": "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>", "expect": {"calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}}
{"id": "a2", "model": "alpha", "profile": "hermes", "text": "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\nDone.", "expect": {"calls": [{"name": "get_weather", "arguments": {"city": "Rome"}}]}}
{"id": "a3", "model": "alpha", "profile": "hermes", "text": "<tool_call>{\"name\": \"send_fax\", \"arguments\": {}}</tool_call>", "expect": {"calls": []}}
{"id": "a4", "model": "alpha", "profile": "hermes", "text": "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"days\": 2}}</tool_call>", "expect": {"calls": [{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}]}}
{"id": "a5", "model": "alpha", "profile": "hermes", "text": "The weather is nice.", "expect": {"calls": []}}
{"id": "b1", "model": "beta", "profile": "qwen3_coder", "text": "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>", "expect": {"calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}]}}
{"id": "b2", "model": "beta", "profile": "qwen3_coder", "text": "<function=search_web>\n<parameter=query>\nPEGTL\n</parameter>\n</function>", "expect": {"calls": [{"name": "search_web", "arguments": {"query": "PEGTL"}}]}}
{"id": "b3", "model": "beta", "profile": "qwen3_coder", "text": "<function=get_weather>\n<parameter=city>\nLima\n<parameter=days>\n3\n</parameter>\n</function>", "expect": {"calls": [{"name": "get_weather", "arguments": {"days": 3, "city": "Lima"}}]}}
{"id": "b4", "model": "beta", "profile": "qwen3_coder", "text": "<tool_call>\n<function=get_weather>\n<parameter=city>\nBern"}
{"id": "g1", "model": "gamma", "text": "need_tool: yes\n[search_web(query=\"x\")]", "expect": {"calls": [{"name": "search_web", "arguments": {"query": "x"}}]}}
)";

cov::Report fixture_report(const Scratch& s) {
    const std::string in = s.write("in.jsonl", fixture);
    cov::LoadOptions o;
    o.tools = toolgram::tools_from_json(json::parse(tools_json));
    const cov::Inputs inputs = cov::load_inputs({in}, o);
    REQUIRE(inputs.problems.empty());
    REQUIRE(inputs.samples.size() == 10);
    cov::Report r = cov::run_coverage(inputs);
    r.inputs = {"in.jsonl"};
    return r;
}

// Rule tallies of one parse, by grammar.
toolgram::detail::RuleTallies tallies_of(const std::string& profile, const std::string& text) {
    toolgram::Parser parser(toolgram::builtin_profile(profile), toolgram::tools_from_json(json::parse(tools_json)));
    toolgram::detail::RuleCoverage collector;
    toolgram::detail::RuleCoverageScope scope(collector);
    static_cast<void>(parser.parse(text));
    return collector.take();
}

std::size_t blocks_with(const toolgram::detail::GrammarRuleTally& t, const std::string& key) {
    auto it = t.blocks_with_success.find(key);
    return it == t.blocks_with_success.end() ? 0 : it->second;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The collector.

TEST_CASE("only the named rules of our grammars are listened to, byte-level ones excepted", "[coverage]") {
    using toolgram::grammar::listened_rule;
    STATIC_REQUIRE(listened_rule<toolgram::grammar::declared::json_call>);
    STATIC_REQUIRE(listened_rule<toolgram::grammar::lenient::dq_string>);
    STATIC_REQUIRE_FALSE(listened_rule<tao::pegtl::one<'a'>>);
    STATIC_REQUIRE_FALSE(listened_rule<tao::pegtl::seq<toolgram::grammar::declared::json_call>>);
    STATIC_REQUIRE_FALSE(listened_rule<toolgram::grammar::lenient::dq_char>);
}

TEST_CASE("rule coverage counts a dropped closer under its rule, per grammar and block", "[coverage]") {
    const auto t = tallies_of("hermes",
                              "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\nDone.\n"
                              "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}</tool_call>");
    REQUIRE(t.size() == 1);
    const auto& hermes = t.at("hermes");
    CHECK(hermes.blocks == 2);
    CHECK(blocks_with(hermes, "json_block::missing_end_tag") == 1);
    CHECK(blocks_with(hermes, "declared::json_call") == 2);
    CHECK(blocks_with(hermes, "json_block::end_cut_off") == 0);
    // Rule and branch counts in PEGTL's coverage_info: both blocks started the call rule of
    // the grammar `declared`, which reads the hermes file's syntax.
    CHECK(hermes.rules.at("declared::json_call").start == 2);
    CHECK(hermes.rules.at("declared::json_call").success == 2);
}

TEST_CASE("rule coverage: nothing is counted without a collector, or outside a block read", "[coverage]") {
    toolgram::Parser parser(toolgram::builtin_profile("hermes"));
    toolgram::detail::RuleCoverage collector;
    static_cast<void>(parser.parse("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>"));  // not installed
    CHECK(collector.take().empty());
    CHECK(toolgram::detail::active_rule_coverage == nullptr);
    CHECK(toolgram::grammar::rule_listener == nullptr);
    {
        toolgram::detail::RuleCoverageScope scope(collector);
        CHECK(toolgram::detail::active_rule_coverage == &collector);
    }
    CHECK(toolgram::detail::active_rule_coverage == nullptr);  // the scope restores
    CHECK(toolgram::grammar::rule_listener == nullptr);
}

TEST_CASE("rule coverage: a grammar that declines a marker leaves no trace", "[coverage]") {
    // `<tool_call>` is hermes' opener too; auto lets hermes-like readers look first, they
    // decline a <function=…> payload, and qwen3_coder reads it.
    const auto t = tallies_of("auto", "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>");
    REQUIRE(t.size() == 1);
    REQUIRE(t.count("qwen3_coder") == 1);
    CHECK(t.at("qwen3_coder").blocks == 1);
    CHECK(blocks_with(t.at("qwen3_coder"), "qwen3_coder::wrapped") == 1);
    CHECK(blocks_with(t.at("qwen3_coder"), "qwen3_coder::block>qwen3_coder::unwrapped") == 0);
}

TEST_CASE("rule coverage: a reader's retry replaces its first attempt", "[coverage]") {
    // The first block's closer is missing; skipping ahead to the next </tool_call> would
    // swallow the second block, so the reader runs again without skipping. Only the path
    // taken (missing_end_tag) counts, not the abandoned skip.
    const auto t = tallies_of("hermes",
                              "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"A\"}} and then\n"
                              "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"B\"}}</tool_call>");
    const auto& hermes = t.at("hermes");
    CHECK(hermes.blocks == 2);
    CHECK(blocks_with(hermes, "json_block::missing_end_tag") == 1);
    CHECK(blocks_with(hermes, "skip_to_literal") == 0);
}

TEST_CASE("rule coverage: branches name the parent, so a wrapper left out is visible", "[coverage]") {
    const auto t = tallies_of("qwen3_coder", "<function=search_web>\n<parameter=query>\nx\n</parameter>\n</function>");
    const auto& q = t.at("qwen3_coder");
    CHECK(blocks_with(q, "qwen3_coder::block>qwen3_coder::unwrapped") == 1);
    CHECK(blocks_with(q, "qwen3_coder::wrapped") == 0);
    CHECK(toolgram::detail::rule_key("toolgram::grammar::json_block::end<toolgram::grammar::literal<x>>") == "json_block::end");
    CHECK(toolgram::detail::rule_key("toolgram::grammar::literal_prefix_at_end<y>") == "literal_prefix_at_end");
}

TEST_CASE("every row of the variant table names a rule the grammars have", "[coverage]") {
    // A rule renamed in grammars/ would leave a row that never fires. Every key must be
    // entered (its rule started) by a corpus output or by one of the outputs below, which
    // take paths the corpus has no case for; and the table has no duplicates.
    Scratch s;
    const std::string extra = s.write("extra.jsonl", R"({"model": "x", "profile": "qwen3_coder", "text": "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\nThat is all."}
{"model": "x", "profile": "deepseek_v32", "text": "<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">1</｜DSML｜parameter>\n</｜DSML｜invoke>"}
{"model": "x", "profile": "pythonic", "text": "<function_calls>\nf(a=1)\nThat is all."}
)");
    const cov::Inputs inputs = cov::load_inputs({corpus_root.string(), extra}, {});
    REQUIRE(inputs.problems.empty());
    const cov::Report r = cov::run_coverage(inputs);
    std::set<std::string> seen;
    for (const auto& m : r.models)
        for (const auto& [g, c] : m.grammars)
            for (const auto& [key, count] : c.rules.rules)
                if (count.start) seen.insert(key);
    std::set<std::string> keys;
    for (const auto& v : cov::variant_table()) {
        CAPTURE(v.key);
        CHECK(keys.insert(std::string(v.key)).second);
        CHECK(seen.count(std::string(v.key)) == 1);
    }
}

// ---------------------------------------------------------------------------------------
// The report.

TEST_CASE("coverage report: golden counts and accuracy on a fixed input", "[coverage]") {
    Scratch s;
    const cov::Report r = fixture_report(s);
    REQUIRE(r.models.size() == 3);
    CHECK(r.models[0].model == "alpha");  // order of first appearance
    CHECK(r.models[1].model == "beta");
    CHECK(r.models[2].model == "gamma");

    const cov::ModelRow& alpha = r.models[0];
    CHECK(alpha.outputs == 5);
    CHECK(alpha.with_calls == 2);
    CHECK(alpha.syntax_no_call == 2);
    CHECK(alpha.no_syntax == 1);
    CHECK(alpha.expected == 5);
    CHECK(alpha.exact == 4);  // a4 failed its schema: no call where one was expected
    REQUIRE(alpha.grammars.size() == 1);
    const cov::GrammarCell& hermes = alpha.grammars.at("hermes");
    CHECK(hermes.outputs == 2);
    CHECK(hermes.primary == 2);
    CHECK(hermes.fallback == 0);
    CHECK(hermes.calls == 2);
    CHECK(hermes.repaired == 1);
    CHECK(hermes.healed == 0);
    CHECK(hermes.candidates == 4);
    CHECK(hermes.schema_failures == 1);
    CHECK(hermes.rejected == 2);
    CHECK(hermes.name_rejections == 1);
    CHECK(hermes.rejected_names == std::map<std::string, std::size_t>{{"send_fax", 1}});
    CHECK(hermes.repairs == std::map<std::string, std::size_t>{{"missing_end_tag", 1}});
    CHECK(hermes.syntax_no_call == 2);
    CHECK(hermes.expected == 4);
    CHECK(hermes.exact == 3);
    CHECK(hermes.rules.blocks == 4);
    const auto hv = cov::variants_of(hermes);
    REQUIRE(hv.size() == 1);
    CHECK(hv[0].key == "json_block::missing_end_tag");
    CHECK(hv[0].blocks == 1);
    CHECK(hv[0].of == 4);

    // --rules TEXT: every rule or branch whose key contains TEXT, by blocks that took it.
    const auto filtered = cov::variants_of(hermes, "end");
    std::map<std::string, std::size_t> fk;
    for (const auto& v : filtered) fk[v.key] = v.blocks;
    CHECK(fk.at("json_block::missing_end_tag") == 1);
    CHECK(fk.at("declared::json_call_end") == 4);
    CHECK(fk.at("declared::json_call_closed>declared::json_call_end") == 4);
    CHECK(fk.at("declared::json_call_end>declared::call_close") == 3);
    for (const auto& [key, n] : fk) CHECK(key.find("end") != std::string::npos);

    const cov::ModelRow& beta = r.models[1];
    CHECK(beta.outputs == 4);
    CHECK(beta.with_calls == 3);
    CHECK(beta.syntax_no_call == 1);
    CHECK(beta.no_syntax == 0);
    CHECK(beta.expected == 3);
    CHECK(beta.exact == 3);  // b3's arguments match in another key order
    const cov::GrammarCell& qwen = beta.grammars.at("qwen3_coder");
    CHECK(qwen.outputs == 3);
    CHECK(qwen.calls == 3);
    CHECK(qwen.rejected == 1);
    CHECK(qwen.name_rejections == 0);
    CHECK(qwen.rules.blocks == 4);
    std::map<std::string, std::size_t> qv;
    for (const auto& v : cov::variants_of(qwen)) qv[v.key] = v.blocks;
    CHECK(qv == std::map<std::string, std::size_t>{
                    {"params::wrapper_cut_off", 1},
                    {"params::call_cut_off", 1},
                    {"params::value_cut", 1},
                    {"qwen3_coder::parameter>qwen3_coder::parameter_close", 2},
                    {"qwen3_coder::block>qwen3_coder::unwrapped", 2},
                });

    const cov::ModelRow& gamma = r.models[2];
    CHECK(gamma.outputs == 1);
    CHECK(gamma.with_calls == 1);
    const cov::GrammarCell& bracket = gamma.grammars.at("bracket");
    CHECK(bracket.outputs == 1);
    CHECK(bracket.primary == 0);
    CHECK(bracket.fallback == 1);
    CHECK(gamma.exact == 1);

    REQUIRE(r.outputs.size() == 10);
    CHECK(r.outputs[1].id == "a2");
    CHECK(r.outputs[1].variants == std::map<std::string, std::vector<std::string>>{{"hermes", {"json_block::missing_end_tag"}}});
    CHECK(r.outputs[3].exact == false);
    CHECK(r.outputs[8].exact == std::nullopt);  // b4 had no expectation
    CHECK(r.outputs[8].error.value_or("").find("cut") != std::string::npos);
    // Each refusal is recorded with its code beside its reason; send_fax's name is unknown.
    std::map<std::string, std::size_t> codes;
    for (const auto& o : r.outputs)
        for (const auto& x : o.rejected) ++codes[x.at("code").get<std::string>()];
    CHECK(codes["unknown_tool"] == 1);
    CHECK(codes.count("none") == 0);
}

TEST_CASE("exact-call equality ignores ids and key order, not names, values or call order", "[coverage]") {
    const json a = json::parse(R"([{"id": "call_0", "name": "f", "arguments": {"x": 1, "y": [1, 2]}}, {"name": "g"}])");
    CHECK(cov::same_calls(a, json::parse(R"([{"name": "f", "arguments": {"y": [1, 2], "x": 1}}, {"name": "g", "arguments": {}}])")));
    CHECK_FALSE(cov::same_calls(a, json::parse(R"([{"name": "g"}, {"name": "f", "arguments": {"x": 1, "y": [1, 2]}}])")));
    CHECK_FALSE(cov::same_calls(a, json::parse(R"([{"name": "f", "arguments": {"x": 2, "y": [1, 2]}}, {"name": "g"}])")));
    CHECK_FALSE(cov::same_calls(a, json::parse(R"([{"name": "f", "arguments": {"x": 1, "y": [2, 1]}}, {"name": "g"}])")));
    CHECK_FALSE(cov::same_calls(a, json::parse(R"([{"name": "f", "arguments": {"x": 1, "y": [1, 2]}}])")));
    CHECK(cov::same_calls(json::array(), json::array()));
}

TEST_CASE("diff against an earlier run lists outputs whose calls, content or error changed, and those only one run has", "[coverage]") {
    Scratch s;
    const cov::Report now = fixture_report(s);
    json old = cov::to_json(now);
    CHECK(cov::diff(now, old).empty());  // a run against itself: no change

    json& outputs = old["outputs"];
    outputs[0]["calls"][0]["arguments"]["city"] = "Lyon";                 // a1: calls
    outputs[4]["content"] = "The weather was nice.";                        // a5: content
    outputs[2]["error"] = nullptr;                                          // a3: error
    outputs[5]["calls"][0]["arguments"] = json::parse(R"({"city": "Oslo"})");  // b1: same value
    outputs.erase(outputs.begin() + 9);                                     // g1: only now
    outputs.push_back({{"id", "z9"}, {"model", "omega"}, {"calls", json::array()}, {"content", "hi"}, {"error", nullptr}});

    const auto changes = cov::diff(now, old);
    REQUIRE(changes.size() == 5);
    CHECK(changes[0].id == "a1");
    CHECK(changes[0].kind == "changed");
    CHECK(changes[0].fields == std::vector<std::string>{"calls"});
    CHECK(changes[0].before["calls"][0]["arguments"]["city"] == "Lyon");
    CHECK(changes[0].after["calls"][0]["arguments"]["city"] == "Paris");
    CHECK(changes[1].id == "a3");
    CHECK(changes[1].fields == std::vector<std::string>{"error"});
    CHECK(changes[2].id == "a5");
    CHECK(changes[2].fields == std::vector<std::string>{"content"});
    CHECK(changes[3].id == "g1");
    CHECK(changes[3].kind == "added");
    CHECK(changes[3].before.is_null());
    CHECK(changes[4].id == "z9");
    CHECK(changes[4].kind == "removed");
    CHECK(changes[4].model == "omega");
    CHECK(changes[4].after.is_null());

    CHECK_THROWS_AS(cov::diff(now, json::parse(R"({"calls": []})")), std::invalid_argument);
    CHECK_THROWS_AS(cov::diff(now, json::parse(R"({"format": "toolgram-coverage", "outputs": [{"model": "x"}]})")),
                    std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// Formats.

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.push_back(line);
    }
    return out;
}

// RFC 4180 records: fields split on commas outside quotes, "" an escaped quote.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(field);
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.back().push_back(field);
            field.clear();
            rows.emplace_back();
            ++i;
        } else {
            field += c;
        }
    }
    if (!field.empty() || !rows.back().empty()) rows.back().push_back(field);
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

// Cells of a Markdown table row: '|' separators that are not escaped.
std::size_t md_cells(const std::string& line) {
    std::size_t bars = 0;
    for (std::size_t i = 0; i < line.size(); ++i)
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++bars;
    return bars - 1;
}

// Start and end tags nest properly (void and self-closed elements aside).
bool well_formed(const std::string& html, std::string& why) {
    static const std::set<std::string> void_elements = {"meta", "br", "hr", "img", "link", "input"};
    std::vector<std::string> stack;
    std::size_t pos = 0;
    while ((pos = html.find('<', pos)) != std::string::npos) {
        if (html.compare(pos, 4, "<!--") == 0) {
            pos = html.find("-->", pos);
            if (pos == std::string::npos) return why = "unclosed comment", false;
            continue;
        }
        const std::size_t end = html.find('>', pos);
        if (end == std::string::npos) return why = "unclosed tag at " + std::to_string(pos), false;
        const std::string tag = html.substr(pos + 1, end - pos - 1);
        pos = end + 1;
        if (tag.empty() || tag[0] == '!') continue;
        if (tag[0] == '/') {
            const std::string name = tag.substr(1);
            if (stack.empty() || stack.back() != name) return why = "</" + name + "> closes <" + (stack.empty() ? "" : stack.back()) + ">", false;
            stack.pop_back();
            continue;
        }
        const std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
        if (tag.back() == '/' || void_elements.count(name)) continue;
        if (name == "style") {  // raw text up to </style>
            pos = html.find("</style>", pos);
            if (pos == std::string::npos) return why = "unclosed style", false;
        }
        stack.push_back(name);
    }
    if (!stack.empty()) return why = "<" + stack.back() + "> never closed", false;
    return true;
}

}  // namespace

TEST_CASE("coverage formats: json, csv, markdown and html each have their shape", "[coverage]") {
    Scratch s;
    cov::Report r = fixture_report(s);
    r.changes = cov::diff(r, json{{"format", "toolgram-coverage"}, {"outputs", json::array()}});
    r.diff_against = "old.json";

    SECTION("json parses back and holds models, outputs and changes") {
        const json j = json::parse(cov::to_json(r).dump());
        CHECK(j["format"] == "toolgram-coverage");
        CHECK(j["version"] == 1);
        REQUIRE(j["models"].size() == 3);
        CHECK(j["models"][0]["model"] == "alpha");
        CHECK(j["models"][0]["accuracy"] == 0.8);
        CHECK(j["models"][0]["grammars"][0]["grammar"] == "hermes");
        CHECK(j["models"][0]["grammars"][0]["variants"][0]["rule"] == "json_block::missing_end_tag");
        CHECK(j["models"][0]["grammars"][0]["rules"]["declared::json_call"]["blocks"] == 4);
        CHECK(j["outputs"].size() == 10);
        CHECK(j["changes"].size() == 10);  // against an empty run: all added
        CHECK(j["problems"].empty());
    }
    SECTION("csv: the header, then rows of as many fields; with --diff, the changes") {
        cov::Report plain = r;
        plain.changes.reset();
        const auto rows = parse_csv(cov::render_csv(plain));
        REQUIRE(rows.size() == 1 + 3 + 3);  // header, one row per model, one per model × grammar
        CHECK(rows[0] == cov::csv_columns());
        CHECK(rows[0] == std::vector<std::string>{"model", "grammar", "outputs", "model_outputs", "share", "primary",
                                                  "fallback", "calls", "repaired", "healed", "candidates",
                                                  "schema_failures", "rejected", "name_rejections", "syntax_no_call",
                                                  "no_syntax", "expected", "exact", "accuracy", "blocks", "variants"});
        for (const auto& row : rows) CHECK(row.size() == rows[0].size());
        CHECK(rows[2][0] == "alpha");
        CHECK(rows[2][1] == "hermes");
        CHECK(rows[2][2] == "2");
        CHECK(rows[2][18] == "0.7500");
        CHECK(rows[2][20] == "json_block::missing_end_tag=1");
        const auto changes = parse_csv(cov::render_csv(r));
        REQUIRE(changes.size() == 11);
        CHECK(changes[0] == std::vector<std::string>{"change", "id", "model", "fields", "before", "after"});
        for (const auto& row : changes) CHECK(row.size() == 6);
        CHECK(json::parse(changes[1][5])["calls"][0]["name"] == "get_weather");  // JSON survives quoting
    }
    SECTION("markdown: every table row has its header's cells") {
        const auto lines = lines_of(cov::render_markdown(r));
        std::size_t tables = 0;
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            if (lines[i].rfind("|", 0) != 0 || (i > 0 && lines[i - 1].rfind("|", 0) == 0)) continue;
            ++tables;  // a table starts: header, separator, rows
            const std::size_t cells = md_cells(lines[i]);
            REQUIRE(lines[i + 1].find("---") != std::string::npos);
            CHECK(md_cells(lines[i + 1]) == cells);
            for (std::size_t k = i + 2; k < lines.size() && lines[k].rfind("|", 0) == 0; ++k) {
                CAPTURE(lines[k]);
                CHECK(md_cells(lines[k]) == cells);
            }
        }
        CHECK(tables == 4);  // models × grammars, variants, rejected names, changes
        const std::string text = cov::render_markdown(r);
        CHECK(text.find("&lt;/parameter&gt; missing") != std::string::npos);  // not read as an HTML tag
        CHECK(text.find("</parameter>") == std::string::npos);
    }
    SECTION("html: well formed, self-contained, a heatmap row per model") {
        const std::string html = cov::render_html(r);
        CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
        std::string why;
        CHECK(well_formed(html, why));
        CAPTURE(why);
        for (const char* outside : {"<script", "src=", "href=", "http://", "https://", "@import", "<link"}) {
            CAPTURE(outside);
            CHECK(html.find(outside) == std::string::npos);
        }
        // url() only for the gradients defined in the page itself.
        for (std::size_t p = html.find("url("); p != std::string::npos; p = html.find("url(", p + 1))
            CHECK(html.compare(p, 5, "url(#") == 0);
        std::size_t rows = 0;
        for (std::size_t p = html.find("<g class=\"row\">"); p != std::string::npos; p = html.find("<g class=\"row\">", p + 1)) ++rows;
        CHECK(rows == 3);
        CHECK(html.find("<svg class=\"heatmap\"") != std::string::npos);
        CHECK(html.find(">alpha<tspan") != std::string::npos);
        CHECK(html.find("80%") != std::string::npos);  // alpha's accuracy
    }
    SECTION("markup in labels and outputs is escaped") {
        const std::string html = cov::render_html(r);
        CHECK(html.find("<function=") == std::string::npos);
        CHECK(html.find("&lt;function=…&gt; without the &lt;tool_call&gt; wrapper") != std::string::npos);
    }
}

TEST_CASE("coverage of a corpus folder labels it by name and uses its profile", "[coverage]") {
    Scratch s;
    s.write("c/tools.json", tools_json);
    s.write("c/hermes/one.txt", "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>");
    s.write("c/hermes/one.expect.json",
            R"({"expect": {"calls": [{"id": "call_0", "name": "get_weather", "arguments": {"city": "Paris"}}]}})");
    s.write("c/hermes/two.txt", "no call here");  // no expectation file: fine outside the golden corpus
    s.write("c/mine/x.txt", "[TOOL_CALL]{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}[/TOOL_CALL]");
    s.write("c/mine/x.expect.json", R"({"model": "my-model-7b", "expect": {"calls": []}})");

    const cov::Inputs in = cov::load_inputs({s.path("c/")}, {});
    REQUIRE(in.problems.empty());
    REQUIRE(in.samples.size() == 3);
    CHECK(in.samples[0].id == "hermes/one");
    CHECK(in.samples[0].model == "hermes");
    CHECK(in.samples[0].profile.name == "hermes");  // a folder named after a profile
    REQUIRE(in.samples[0].tools);
    CHECK(in.samples[0].tools->size() == 2);  // the corpus tools.json
    CHECK(in.samples[1].expect_calls == std::nullopt);
    CHECK(in.samples[2].model == "my-model-7b");
    CHECK(in.samples[2].profile.name == "auto");

    cov::LoadOptions o;
    o.profile = "tag";
    const cov::Inputs forced = cov::load_inputs({s.path("c/hermes")}, o);  // one folder, --profile
    REQUIRE(forced.samples.size() == 2);
    CHECK(forced.samples[0].profile.name == "tag");
    CHECK(forced.samples[0].model == "hermes");

    // One folder given with a trailing separator: the same name, the same corpus tools.json.
    const cov::Inputs slash = cov::load_inputs({s.path("c/hermes/")}, {});
    REQUIRE(slash.problems.empty());
    REQUIRE(slash.samples.size() == 2);
    CHECK(slash.samples[0].id == "hermes/one");
    CHECK(slash.samples[0].profile.name == "hermes");
    REQUIRE(slash.samples[0].tools);
    CHECK(slash.samples[0].tools->size() == 2);

    CHECK_THROWS_AS(cov::load_inputs({s.path("nothing-here")}, {}), cov::InputFileError);
    s.write("empty/readme.md", "no cases");
    CHECK_THROWS_AS(cov::load_inputs({s.path("empty")}, {}), cov::InputFileError);
}

TEST_CASE("bad JSONL lines are problems with where and why, and the run goes on", "[coverage]") {
    Scratch s;
    const std::string in = s.write("bad.jsonl",
                                   "{\"model\": \"m\", \"text\": \"hi\"}\n"
                                   "not json\n"
                                   "\n"
                                   "{\"text\": \"no label\"}\n"
                                   "{\"model\": \"m\", \"text\": \"x\", \"profile\": \"nope\"}\n"
                                   "{\"model\": \"m\", \"text\": \"x\", \"expect\": {\"calls\": {}}}\n"
                                   "[1, 2]\n");
    const cov::Inputs got = cov::load_inputs({in}, {});
    CHECK(got.samples.size() == 1);
    REQUIRE(got.problems.size() == 5);
    CHECK(got.problems[0].where == in + ":2");
    CHECK(got.problems[1].where == in + ":4");
    CHECK(got.problems[1].message.find("\"model\"") != std::string::npos);
    CHECK(got.problems[2].message.find("nope") != std::string::npos);
    CHECK(got.problems[3].message.find("\"calls\"") != std::string::npos);
    CHECK(got.problems[4].where == in + ":7");

    cov::LoadOptions o;
    o.model = "unlabelled";
    CHECK(cov::load_inputs({in}, o).samples.size() == 2);  // --model labels line 4
}

// ---------------------------------------------------------------------------------------
// The command line.

namespace {

// The coverage command with already-quoted arguments.
Run run_coverage(const Scratch& scratch, const std::string& args) { return run_cli(scratch, "coverage " + args); }

}  // namespace

TEST_CASE("cli coverage: exit codes for usage and input errors, and a report otherwise", "[coverage][cli]") {
    Scratch s;
    const std::string in = shell_quote(s.write("in.jsonl", fixture));
    const std::string tools = shell_quote(s.write("tools.json", tools_json));

    SECTION("usage errors exit 2") {
        for (const std::string& args :
             std::vector<std::string>{"", "--format pdf " + in, "--bogus " + in, "--profile nope " + in, "--diff"}) {
            CAPTURE(args);
            const Run r = run_coverage(s, args);
            CHECK(r.exit_code == 2);
            CHECK(r.out.empty());
            CHECK(r.err.rfind("toolgram: ", 0) == 0);
        }
    }
    SECTION("unreadable inputs exit 3") {
        const std::string not_json = shell_quote(s.write("old.txt", "{oops"));
        const std::string not_report = shell_quote(s.write("old.json", "{\"calls\": []}"));
        for (const std::string& args :
             std::vector<std::string>{shell_quote(s.path("missing.jsonl")), in + " --tools " + shell_quote(s.path("none.json")),
                                      in + " --diff " + not_json, in + " --diff " + not_report}) {
            CAPTURE(args);
            const Run r = run_coverage(s, args);
            CHECK(r.exit_code == 3);
            CHECK(r.out.empty());
            CHECK(!r.err.empty());
        }
    }
    SECTION("bad lines: the report is written, the problems are listed, and the exit code is 3") {
        const std::string bad = shell_quote(s.write("bad.jsonl", std::string(fixture) + "not json\n"));
        const Run r = run_coverage(s, bad + " --tools " + tools + " --format json");
        CHECK(r.exit_code == 3);
        const json j = json::parse(r.out);
        CHECK(j["outputs"].size() == 10);
        REQUIRE(j["problems"].size() == 1);
        CHECK(j["problems"][0]["where"].get<std::string>().find("bad.jsonl:11") != std::string::npos);
        CHECK(r.err.find("bad.jsonl:11") != std::string::npos);
    }
    SECTION("a good run exits 0, in every format, to stdout or a file") {
        for (const char* format : {"table", "markdown", "csv", "json", "html"}) {
            CAPTURE(format);
            const Run r = run_coverage(s, in + " --tools " + tools + " --format " + format);
            CHECK(r.exit_code == 0);
            CHECK(r.err.empty());
            CHECK(!r.out.empty());
        }
        const Run table = run_coverage(s, in + " --tools " + tools);
        CHECK(table.out.rfind("toolgram coverage: 10 outputs from 3 models", 0) == 0);
        CHECK(table.out.find("</parameter> missing") != std::string::npos);
        const Run to_file = run_coverage(s, in + " --tools " + tools + " --format html --output " + shell_quote(s.path("r.html")));
        CHECK(to_file.exit_code == 0);
        CHECK(to_file.out.empty());
        CHECK(fs::file_size(s.path("r.html")) > 1000);
        CHECK(run_coverage(s, "--help").exit_code == 0);
    }
    SECTION("--diff against a saved run: no change, then the changed output") {
        const Run before = run_coverage(s, in + " --tools " + tools + " --format json --output " + shell_quote(s.path("old.json")));
        REQUIRE(before.exit_code == 0);
        const Run same = run_coverage(s, in + " --tools " + tools + " --diff " + shell_quote(s.path("old.json")));
        CHECK(same.exit_code == 0);
        CHECK(same.out.find("0 changed, 0 added, 0 removed (of 10 outputs)") != std::string::npos);
        // The "grammar change": a1 now names a tool the list lacks.
        std::string changed = fixture;
        changed.replace(changed.find("get_weather"), 11, "get_forecast");
        const std::string in2 = shell_quote(s.write("in2.jsonl", changed));
        const Run after = run_coverage(s, in2 + " --tools " + tools + " --diff " + shell_quote(s.path("old.json")));
        CHECK(after.exit_code == 0);
        CHECK(after.out.find("1 changed, 0 added, 0 removed") != std::string::npos);
        CHECK(after.out.find("changed  a1  [alpha]  calls, error") != std::string::npos);
    }
}

TEST_CASE("coverage on several threads gives the report one thread gives, byte for byte", "[coverage][jobs]") {
    const cov::Inputs in = cov::load_inputs({corpus_root.string()}, {});
    REQUIRE(in.samples.size() > 1000);
    const std::string one = cov::to_json(cov::run_coverage(in, 1)).dump();
    for (unsigned jobs : {2u, 3u, 7u}) {
        INFO("jobs " << jobs);
        CHECK(cov::to_json(cov::run_coverage(in, jobs)).dump() == one);
    }
    // Input problems come first, as one thread reports them.
    cov::Inputs with_problem = in;
    with_problem.problems.push_back({"x.jsonl:1", "bad line"});
    const cov::Report r = cov::run_coverage(with_problem, 3);
    REQUIRE_FALSE(r.problems.empty());
    CHECK(r.problems.front().where == "x.jsonl:1");
}

TEST_CASE("a report read back from json, and shards' reports merged, give the whole run's report", "[coverage][merge]") {
    const cov::Inputs in = cov::load_inputs({corpus_root.string()}, {});
    cov::Report whole = cov::run_coverage(in, 1);
    const json whole_json = cov::to_json(whole);
    // Read back: the same report, whatever its form (json, table, html).
    const cov::Report back = cov::report_from_json(whole_json);
    CHECK(cov::to_json(back) == whole_json);
    CHECK(cov::render_table(back) == cov::render_table(whole));
    CHECK(cov::render_html(back) == cov::render_html(whole));

    // Three uneven shards, each reported alone and carried as json; models recur across them.
    std::vector<cov::Report> parts;
    const std::size_t n = in.samples.size();
    for (auto [from, to] : {std::pair<std::size_t, std::size_t>{0, n / 5}, {n / 5, n / 2}, {n / 2, n}}) {
        cov::Inputs shard;
        shard.samples.assign(in.samples.begin() + static_cast<std::ptrdiff_t>(from),
                             in.samples.begin() + static_cast<std::ptrdiff_t>(to));
        parts.push_back(cov::report_from_json(cov::to_json(cov::run_coverage(shard, 1))));
    }
    CHECK(cov::to_json(cov::merge(std::move(parts))) == whole_json);

    // The same output in two shards keeps a unique id, as load_inputs would give it.
    cov::Inputs one;
    one.samples.push_back(in.samples.front());
    std::vector<cov::Report> twice{cov::run_coverage(one, 1), cov::run_coverage(one, 1)};
    const cov::Report m = cov::merge(std::move(twice));
    REQUIRE(m.outputs.size() == 2);
    CHECK(m.outputs[1].id == m.outputs[0].id + "#2");
    REQUIRE(m.models.size() == 1);
    CHECK(m.models[0].outputs == 2);
}

TEST_CASE("a damaged report is refused, naming the field", "[coverage][merge]") {
    cov::Inputs in = cov::load_inputs({(corpus_root / "hermes").string()}, {});
    const json good = cov::to_json(cov::run_coverage(in, 1));
    auto refused = [&](const std::function<void(json&)>& damage) {
        json j = good;
        damage(j);
        try {
            cov::report_from_json(j);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refused([](json& j) { j["format"] = "other"; }) == "not a toolgram coverage report (write one with --format json)");
    CHECK(refused([](json& j) { j["version"] = 2; }) == "version: only version 1 reports can be read");
    CHECK(refused([](json& j) { j.erase("outputs"); }) == "outputs: missing");
    CHECK(refused([](json& j) { j["models"][0]["grammars"][0]["calls"] = -1; }) == "models[0].grammars[0].calls: not a count");
    CHECK(refused([](json& j) { j["models"][0]["grammars"][0]["rules"] = json::array(); }) ==
          "models[0].grammars[0].rules: not an object");
    CHECK(refused([](json& j) { j["outputs"][3]["saw_tool_syntax"] = "yes"; }) == "outputs[3].saw_tool_syntax: not a boolean");
    CHECK(refused([](json& j) { j["models"][0]["grammars"].push_back(j["models"][0]["grammars"][0]); })
              .find("listed twice") != std::string::npos);
    CHECK(refused([](json&) {}) == "accepted");
}

// Issue 29, item 11: --diff read the old report's outputs with defaults and no types, so a
// damaged one ended in "internal error", exit 1; --merge took any list as "calls" and
// rendered it. Both now refuse the field by name.
TEST_CASE("coverage --diff and --merge refuse an old report's field of the wrong type, naming it", "[coverage][merge][cli]") {
    Scratch s;
    const cov::Report now = fixture_report(s);
    const json good = cov::to_json(now);
    auto diff_error = [&](const std::function<void(json&)>& damage) {
        json old = good;
        damage(old);
        try {
            cov::diff(now, old);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(diff_error([](json& j) { j["outputs"][0]["content"] = 7; }) == "outputs[0].content: not a string");
    CHECK(diff_error([](json& j) { j["outputs"][0]["calls"] = json::array({5}); }) == "outputs[0].calls[0]: not an object");
    CHECK(diff_error([](json& j) { j["outputs"][0]["calls"] = json::array({{{"name", "f"}}}); }) ==
          "outputs[0].calls[0].arguments: missing");
    CHECK(diff_error([](json& j) { j["outputs"][0]["calls"] = 3; }) == "outputs[0].calls: not an array");
    CHECK(diff_error([](json& j) { j["outputs"][1]["error"] = 1; }) == "outputs[1].error: not a string");
    CHECK(diff_error([](json& j) { j["outputs"][2]["grammar"] = json::array(); }) == "outputs[2].grammar: not a string");
    // A removed output (an id only the old run has) whose model is a number.
    CHECK(diff_error([](json& j) {
              j["outputs"].push_back({{"id", "gone"}, {"model", 5}, {"calls", json::array()}, {"content", ""}});
          }) == "outputs[10].model: not a string");
    CHECK(diff_error([](json& j) { j["format"] = 1; }) == "not a toolgram coverage report (write one with --format json)");
    CHECK(diff_error([](json&) {}) == "accepted");
    // The reader --merge uses: calls and rejections are lists of objects of their shape.
    auto read_error = [&](const std::function<void(json&)>& damage) {
        json j = good;
        damage(j);
        try {
            cov::report_from_json(j);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(read_error([](json& j) { j["outputs"][0]["calls"] = json::array({5}); }) == "outputs[0].calls[0]: not an object");
    CHECK(read_error([](json& j) { j["outputs"][0]["calls"][0]["name"] = 5; }) == "outputs[0].calls[0].name: not a string");
    CHECK(read_error([](json& j) { j["outputs"][0]["calls"][0]["arguments"] = "{}"; }) ==
          "outputs[0].calls[0].arguments: not an object");
    CHECK(read_error([](json& j) { j["outputs"][0]["rejected"] = json::array({"x"}); }) ==
          "outputs[0].rejected[0]: not an object");
    CHECK(read_error([](json& j) { j["outputs"][0]["rejected"] = json::array({{{"name", "x"}, {"grammar", "g"}}}); }) ==
          "outputs[0].rejected[0].reason: missing");
    // A refusal's code is read when there (a report from before codes has none).
    CHECK(read_error([](json& j) {
              j["outputs"][0]["rejected"] = json::array({{{"name", "x"}, {"grammar", "g"}, {"code", 7}, {"reason", "r"}}});
          }) == "outputs[0].rejected[0].code: not a string");
    CHECK(read_error([](json& j) {
              j["outputs"][0]["rejected"] = json::array({{{"name", "x"}, {"grammar", "g"}, {"reason", "r"}}});
          }) == "accepted");
    CHECK(read_error([](json&) {}) == "accepted");

    // On the command line: exit 3 and the field, not "internal error" and exit 1.
    json content7 = good;
    content7["outputs"][0]["content"] = 7;
    const std::string bad_old = s.write("content7.json", content7.dump());
    const std::string in = shell_quote(s.write("in.jsonl", fixture));
    const std::string tools = shell_quote(s.write("tools.json", tools_json));
    const Run diffed = run_coverage(s, in + " --tools " + tools + " --diff " + shell_quote(bad_old));
    CHECK(diffed.exit_code == 3);
    CHECK(diffed.out.empty());
    CHECK(diffed.err == "toolgram: " + bad_old + ": outputs[0].content: not a string\n");
    json calls5 = good;
    calls5["outputs"][0]["calls"] = json::array({5});
    const std::string bad_part = s.write("calls5.json", calls5.dump());
    const Run merged = run_coverage(s, "--merge " + shell_quote(bad_part));
    CHECK(merged.exit_code == 3);
    CHECK(merged.out.empty());
    CHECK(merged.err == "toolgram: " + bad_part + ": outputs[0].calls[0]: not an object\n");
}

// Issue 29, item 12: merged counts wrapped past 2^64 without a word.
TEST_CASE("merged counts that add up past 2^64 - 1 are refused, naming the count", "[coverage][merge][cli]") {
    Scratch s;
    const json good = cov::to_json(fixture_report(s));
    const std::string max = std::to_string(std::numeric_limits<std::size_t>::max());
    const std::string past = ", the largest count a report holds: refused rather than wrapped";
    auto merge_error = [&](const std::function<void(json&)>& damage) {
        json big = good;
        damage(big);
        std::vector<cov::Report> parts{cov::report_from_json(big), cov::report_from_json(good)};
        try {
            cov::merge(std::move(parts));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("merged");
    };
    const std::size_t top = std::numeric_limits<std::size_t>::max();
    REQUIRE(good["models"][0]["model"] == "alpha");
    REQUIRE(good["models"][0]["grammars"][0]["grammar"] == "hermes");
    CHECK(merge_error([&](json& j) { j["models"][0]["outputs"] = top; }) ==
          "the merged reports' model \"alpha\": outputs add up past " + max + past);
    CHECK(merge_error([&](json& j) { j["models"][0]["grammars"][0]["calls"] = top; }) ==
          "the merged reports' model \"alpha\", grammar \"hermes\": calls add up past " + max + past);
    CHECK(merge_error([&](json& j) {
              auto& rules = j["models"][0]["grammars"][0]["rules"];
              rules.begin().value()["start"] = top;
          }).rfind("the merged reports' model \"alpha\", grammar \"hermes\": rules[\"", 0) == 0);
    // One short of the top adds up: refused only past it.
    CHECK(merge_error([&](json& j) { j["models"][0]["outputs"] = top - good["models"][0]["outputs"].get<std::size_t>(); }) ==
          "merged");

    json big = good;
    big["models"][0]["outputs"] = top;
    const std::string a = s.write("a.json", big.dump()), b = s.write("b.json", good.dump());
    const Run r = run_coverage(s, "--merge " + shell_quote(a) + " " + shell_quote(b));
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err == "toolgram: the merged reports' model \"alpha\": outputs add up past " + max + past + "\n");
}

// Issue 29, item 4: the ids merge gives copies of one id (the time is checked in
// toolgram_scaling: n copies cost n steps, not n^2 / 2).
TEST_CASE("merge keeps ids unique: copies of one id get #2, #3, … skipping ids already given", "[coverage][merge]") {
    Scratch s;
    const cov::Report one = fixture_report(s);
    std::vector<cov::Report> parts;
    for (const char* id : {"x", "x#3", "x", "x", "x", "x#2"}) {
        cov::Report r;
        cov::OutputRecord o = one.outputs.front();
        o.id = id;
        r.outputs.push_back(o);
        parts.push_back(std::move(r));
    }
    const cov::Report m = cov::merge(std::move(parts));
    std::vector<std::string> ids;
    for (const auto& o : m.outputs) ids.push_back(o.id);
    CHECK(ids == std::vector<std::string>{"x", "x#3", "x#2", "x#4", "x#5", "x#2#2"});
}

// The ids of loaded outputs are unique as merge keeps them: in the order they come, a copy
// takes the first "#k" no output before it holds (so a later record named "x#3" becomes
// "x#3#2"). A record already named "x#2" made the third "x" a second "x#2".
TEST_CASE("loaded outputs keep unique ids: a copy skips ids already given", "[coverage]") {
    json records = json::array();
    for (const char* id : {"x", "x#2", "x", "x#3", "x"})
        records.push_back({{"id", id}, {"model", "m"}, {"text", "Hello."}});
    const cov::Inputs in = cov::load_records(records, {});
    REQUIRE(in.problems.empty());
    std::vector<std::string> ids;
    for (const auto& sample : in.samples) ids.push_back(sample.id);
    CHECK(ids == std::vector<std::string>{"x", "x#2", "x#3", "x#3#2", "x#4"});
}

}  // namespace coverage_test
