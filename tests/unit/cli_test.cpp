// The `toolgram` command line, run as a shell user would run it (popen on the built
// binary, inputs in temporary files): the JSON it prints, the OpenAI message shape, JSONL
// batches that survive bad lines, the instruction command, exit codes a script can act on
// (0 done, 2 usage, 3 bad input file), and --help for every command.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli/ordered_pool.hpp"
#include "readers/grammar_def.hpp"
#include "cli_run.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace cli_test {

using toolgram_test::lines_of;
using toolgram_test::Run;
using toolgram_test::run_cli;
using toolgram_test::Scratch;
using toolgram_test::shell_quote;

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

const char* tools_json = R"([
  {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
  {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
])";

const std::string weather_tag = R"(Checking. [TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}}[/TOOL_CALL])";
const json weather_call = {{"id", "call_0"}, {"name", "get_weather"}, {"arguments", {{"city", "Antwerp"}}}};

}  // namespace

TEST_CASE("cli parse prints one valid JSON result with the calls", "[cli]") {
    Scratch s;
    const std::string input = s.write("in.txt", weather_tag);
    const std::string tools = s.write("tools.json", tools_json);

    SECTION("from a file") {
        const Run r = run_cli(s, "parse " + shell_quote(input) + " --profile tag --tools " + shell_quote(tools));
        INFO(r.out << r.err);
        REQUIRE(r.exit_code == 0);
        CHECK(r.err.empty());
        CHECK(lines_of(r.out).size() == 1);
        const json j = json::parse(r.out);
        CHECK(j["calls"] == json::array({weather_call}));
        CHECK(j["content"] == "Checking.");
        CHECK(j["reasoning"] == "");
        CHECK(j["error"].is_null());
        CHECK(j["telemetry"]["parse_mode"] == "primary");
        CHECK(j["telemetry"]["grammar"] == "tag");
        CHECK(j["telemetry"]["schema_validation"] ==
              json::parse(R"([{"candidate": 0, "name": "get_weather", "verdict": "pass"}])"));
    }
    SECTION("from stdin, with the default profile (auto)") {
        const Run r = run_cli(s, "parse - --tools " + shell_quote(tools) + " < " + shell_quote(input));
        INFO(r.out << r.err);
        REQUIRE(r.exit_code == 0);
        const json j = json::parse(r.out);
        CHECK(j["calls"] == json::array({weather_call}));
        CHECK(j["telemetry"]["grammar"] == "tag");
    }
    SECTION("no call is not a failure") {
        const std::string prose = s.write("prose.txt", "Just an answer.");
        const Run r = run_cli(s, "parse " + shell_quote(prose));
        REQUIRE(r.exit_code == 0);
        const json j = json::parse(r.out);
        CHECK(j["calls"] == json::array());
        CHECK(j["content"] == "Just an answer.");
        CHECK(j["error"].is_null());
    }
    SECTION("settings from options: --tag-open/--tag-close, --tool-required") {
        const std::string custom = s.write("custom.txt", R"(<<C>>{"name":"search","arguments":{"q":"x"}}<</C>>)");
        const Run tags = run_cli(s, "parse " + shell_quote(custom) + " --profile tag --tag-open '<<C>>' --tag-close '<</C>>'");
        REQUIRE(tags.exit_code == 0);
        CHECK(json::parse(tags.out)["calls"] ==
              json::parse(R"([{"id": "call_0", "name": "search", "arguments": {"q": "x"}}])"));

        const std::string bare = s.write("bare.json", R"({"name": "search", "arguments": {"q": "x"}})");
        const Run gated = run_cli(s, "parse " + shell_quote(bare) + " --tools " + shell_quote(tools));
        REQUIRE(gated.exit_code == 0);
        CHECK(json::parse(gated.out)["calls"] == json::array());
        const Run required = run_cli(s, "parse " + shell_quote(bare) + " --tool-required --tools " + shell_quote(tools));
        REQUIRE(required.exit_code == 0);
        CHECK(json::parse(required.out)["telemetry"]["parse_mode"] == "fallback");
    }
}

TEST_CASE("cli parse --openai prints an assistant message with arguments as a JSON string", "[cli]") {
    Scratch s;
    const std::string input = s.write("in.txt", weather_tag);
    const Run r = run_cli(s, "parse " + shell_quote(input) + " --profile tag --openai");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const json m = json::parse(r.out);
    CHECK(m["role"] == "assistant");
    CHECK(m["content"] == "Checking.");
    REQUIRE(m["tool_calls"].size() == 1);
    const json& c = m["tool_calls"][0];
    CHECK(c["id"] == "call_0");
    CHECK(c["type"] == "function");
    CHECK(c["function"]["name"] == "get_weather");
    REQUIRE(c["function"]["arguments"].is_string());
    CHECK(json::parse(c["function"]["arguments"].get<std::string>()) == json{{"city", "Antwerp"}});
}

TEST_CASE("cli parse --jsonl gives one result per line and an error object for a bad line", "[cli]") {
    Scratch s;
    const std::string tools = s.write("tools.json", tools_json);
    const json good = {{"id", "a"}, {"text", weather_tag}};
    const json bad_profile = {{"id", "b"}, {"text", "x"}, {"profile", "nope"}};
    const json own_tools = {{"id", "c"},
                            {"text", "[get_weather(city=\"Antwerp\")]"},
                            {"profile", "bracket"},
                            {"tools", json::parse(R"([{"name": "get_weather"}])")}};
    const json no_text = {{"id", 4}, {"text", 5}};
    const json prose = {{"id", "d"}, {"text", "plain"}};
    const std::string input = s.write("batch.jsonl", good.dump() + "\nthis is not JSON\n" + bad_profile.dump() + "\n" +
                                                         own_tools.dump() + "\n" + no_text.dump() + "\n\n" +
                                                         prose.dump() + "\n");
    const Run r = run_cli(s, "parse --jsonl " + shell_quote(input) + " --tools " + shell_quote(tools));
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 6);
    std::vector<json> out;
    for (const auto& l : lines) out.push_back(json::parse(l));

    CHECK(out[0]["id"] == "a");
    CHECK(out[0]["calls"] == json::array({weather_call}));
    CHECK(out[0]["error"].is_null());

    CHECK(out[1]["id"].is_null());
    REQUIRE(out[1]["error"].is_object());
    CHECK_THAT(out[1]["error"]["message"].get<std::string>(), Catch::StartsWith("line 2: "));
    CHECK_FALSE(out[1].contains("calls"));

    CHECK(out[2]["id"] == "b");
    REQUIRE(out[2]["error"].is_object());
    CHECK_THAT(out[2]["error"]["message"].get<std::string>(),
               Catch::StartsWith("line 3: ") && Catch::Contains("nope"));

    CHECK(out[3]["id"] == "c");
    CHECK(out[3]["calls"] ==
          json::parse(R"([{"id": "call_0", "name": "get_weather", "arguments": {"city": "Antwerp"}}])"));
    CHECK(out[3]["telemetry"]["grammar"] == "bracket");

    CHECK(out[4]["id"] == 4);
    REQUIRE(out[4]["error"].is_object());
    CHECK_THAT(out[4]["error"]["message"].get<std::string>(),
               Catch::StartsWith("line 5: ") && Catch::Contains("\"text\""));

    CHECK(out[5]["id"] == "d");
    CHECK(out[5]["calls"] == json::array());
    CHECK(out[5]["content"] == "plain");
    CHECK(out[5]["error"].is_null());
}

TEST_CASE("cli parse --jsonl: a line's own settings apply to it, a bad one fails that line only", "[cli]") {
    Scratch s;
    const std::string thinking = "I'm\nthinking\n</think>\n\nHello";
    const json lines[] = {
        {{"id", "inline"}, {"text", thinking}, {"profile", "qwen3_coder"},
         {"settings", {{"reasoning_start", "inside"}, {"reasoning_format", "in_content"}}}},
        {{"id", "separate"}, {"text", thinking}, {"profile", "qwen3_coder"}, {"settings", {{"reasoning_start", "inside"}}}},
        {{"id", "unknown"}, {"text", "x"}, {"settings", {{"reasoning", "none"}}}},
        {{"id", "type"}, {"text", "x"}, {"settings", {{"tool_required", "yes"}}}},
        {{"id", "value"}, {"text", "x"}, {"settings", {{"reasoning_format", "none"}}}},
        {{"id", "required"}, {"text", R"({"name": "search", "arguments": {"q": "x"}})"}, {"settings", {{"tool_required", true}}}},
        {{"id", "default"}, {"text", R"({"name": "search", "arguments": {"q": "x"}})"}},
    };
    std::string batch;
    for (const auto& l : lines) batch += l.dump() + "\n";
    const std::string tools = s.write("tools.json", tools_json);
    const Run r = run_cli(s, "parse --jsonl " + shell_quote(s.write("batch.jsonl", batch)) + " --tools " + shell_quote(tools));
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = lines_of(r.out);
    REQUIRE(out.size() == 7);
    const json inline_result = json::parse(out[0]), separate = json::parse(out[1]);
    CHECK(inline_result["content"] == thinking);
    CHECK(inline_result["reasoning"] == "");
    CHECK(separate["content"] == "Hello");
    CHECK(separate["reasoning"] == "I'm\nthinking");
    CHECK(json::parse(out[2])["error"]["message"].get<std::string>().rfind(
              "line 3: settings.reasoning: unknown field (known: tool_required, ", 0) == 0);
    CHECK(json::parse(out[3])["error"]["message"] == "line 4: settings.tool_required: expected true or false, got string");
    CHECK(json::parse(out[4])["error"]["message"] ==
          "line 5: settings.reasoning_format: unknown value \"none\" (known: separate, in_content)");
    CHECK(json::parse(out[5])["calls"].size() == 1);
    CHECK(json::parse(out[6])["calls"].size() == 0);
}

TEST_CASE("cli --reasoning-format keeps reasoning in content, for parse and stream alike", "[cli][reasoning]") {
    Scratch s;
    const std::string text = "<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hi";
    const std::string input = s.write("in.txt", text);
    const Run parsed = run_cli(s, "parse " + shell_quote(input) + " --profile harmony --reasoning-format in_content");
    INFO(parsed.out << parsed.err);
    REQUIRE(parsed.exit_code == 0);
    const json j = json::parse(parsed.out);
    CHECK(j["content"] == "<|channel|>analysis<|message|>I'm\nthinking<|end|>Hi");
    CHECK(j["reasoning"] == "");
    const Run streamed =
        run_cli(s, "stream " + shell_quote(input) + " --profile harmony --reasoning-format in_content --chunk 3");
    REQUIRE(streamed.exit_code == 0);
    std::string content;
    json end;
    for (const auto& line : lines_of(streamed.out)) {
        const json e = json::parse(line);
        CHECK(e["event"] != "reasoning");
        if (e["event"] == "content") content += e["text"].get<std::string>();
        if (e["event"] == "end") end = e["result"];
    }
    CHECK(content == j["content"]);
    CHECK(end == j);
    const Run bad = run_cli(s, "parse " + shell_quote(input) + " --reasoning-format none");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err == "toolgram: --reasoning-format is separate or in_content, got \"none\"\n");
}

TEST_CASE("cli instruction prints the profile's format and the tools", "[cli]") {
    Scratch s;
    const std::string tools = s.write("tools.json", tools_json);
    const Run r = run_cli(s, "instruction --profile tag --tools " + shell_quote(tools));
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("[TOOL_CALL]") && Catch::Contains("[/TOOL_CALL]") &&
                          Catch::Contains("get_weather: Weather for a city") && Catch::Contains("- search"));

    const Run xml = run_cli(s, "instruction --profile xml --tools " + shell_quote(tools));
    REQUIRE(xml.exit_code == 0);
    CHECK_THAT(xml.out, Catch::Contains("<invoke") && Catch::Contains("get_weather"));
}

TEST_CASE("cli exit codes: 2 for usage errors, 3 for unreadable or invalid input files", "[cli]") {
    Scratch s;
    const std::string input = shell_quote(s.write("in.txt", weather_tag));
    const std::string not_json = shell_quote(s.write("not_json.json", "[{\"name\": "));
    const std::string not_tools = shell_quote(s.write("not_tools.json", "[5]"));
    const std::string bad_schema =
        shell_quote(s.write("bad_schema.json", R"([{"name": "t", "parameters": {"type": "objekt"}}])"));
    const std::string missing = shell_quote(s.path("missing.txt"));
    struct Row {
        std::string args;
        int exit_code;
        std::string err_part;  // what the message must name
    };
    const std::vector<Row> rows = {
        {"parse " + input + " --profile nope", 2, "nope"},
        {"parse " + input + " --bogus", 2, "--bogus"},
        {"parse " + input + " --fallback-max-bytes lots", 2, "lots"},
        {"parse " + input + " --profile", 2, "--profile"},
        {"instruction --profile nope", 2, "nope"},
        {"instruction --bogus", 2, "--bogus"},
        {"frobnicate", 2, "frobnicate"},
        {"", 2, "usage"},
        {"parse " + missing, 3, "missing.txt"},
        {"parse " + input + " --tools " + missing, 3, "missing.txt"},
        {"parse " + input + " --tools " + not_json, 3, "not_json.json"},
        {"parse " + input + " --tools " + not_tools, 3, "tools[0]"},
        {"instruction --profile tag --tools " + missing, 3, "missing.txt"},
    };
    for (const auto& row : rows) {
        CAPTURE(row.args);
        const Run r = run_cli(s, row.args);
        INFO("stdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.exit_code == row.exit_code);
        CHECK_THAT(r.out + r.err, Catch::Contains(row.err_part));
        if (!row.args.empty()) {
            CHECK(r.out.empty());
            CHECK_THAT(r.err, Catch::StartsWith("toolgram: "));
        }
    }
}

TEST_CASE("cli: a tool whose schema cannot be used is reported once on stderr, its calls refused, the run goes on",
          "[cli]") {
    Scratch s;
    const std::string tools = shell_quote(s.write("tools.json", R"([
        {"name": "t", "parameters": {"type": "objekt"}},
        {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}])"));
    const std::string warning =
        "toolgram: tool \"t\": its parameters schema cannot be used (#/type: unknown type \"objekt\" (the types are "
        "null, boolean, object, array, number, integer, string)); its calls will be refused\n";
    const std::string refused = "the schema of t cannot be used, so its calls are refused: #/type: unknown type \"objekt\"";

    const Run one = run_cli(s, "parse " + shell_quote(s.write("in.txt", weather_tag + "\n[TOOL_CALL]{\"name\": \"t\"}[/TOOL_CALL]")) +
                                   " --tools " + tools);
    INFO("stdout: " << one.out << "\nstderr: " << one.err);
    CHECK(one.exit_code == 0);
    CHECK(one.err == warning);
    const json j = json::parse(one.out);
    CHECK(j["calls"].size() == 1);
    CHECK(j["calls"][0]["name"] == "get_weather");
    REQUIRE(j["telemetry"]["rejected"].size() == 1);
    CHECK_THAT(j["telemetry"]["rejected"][0]["reason"].get<std::string>(), Catch::StartsWith(refused));

    // A JSONL batch says it once, not once a line.
    const std::string line = R"({"text": "[TOOL_CALL]{\"name\": \"t\"}[/TOOL_CALL]"})";
    const std::string batch = shell_quote(s.write("batch.jsonl", line + "\n" + line + "\n"));
    const Run many = run_cli(s, "parse --jsonl " + batch + " --profile tag --tools " + tools);
    CHECK(many.exit_code == 0);
    CHECK(many.err == warning);
    CHECK(lines_of(many.out).size() == 2);
}

TEST_CASE("cli --help for each command exits 0 with its usage", "[cli]") {
    Scratch s;
    struct Row {
        std::string args;
        std::string usage;
    };
    const std::vector<Row> rows = {
        {"--help", "usage: toolgram <command>"},
        {"-h", "usage: toolgram <command>"},
        {"help", "usage: toolgram <command>"},
        {"parse --help", "usage: toolgram parse"},
        {"parse -h", "usage: toolgram parse"},
        {"instruction --help", "usage: toolgram instruction"},
        {"profiles --help", "usage: toolgram profiles"},
        {"grammars --help", "usage: toolgram grammars"},
    };
    for (const auto& row : rows) {
        CAPTURE(row.args);
        const Run r = run_cli(s, row.args);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Catch::StartsWith(row.usage));
        CHECK(r.err.empty());
    }
}

TEST_CASE("cli profiles and grammars list every built-in name", "[cli]") {
    Scratch s;
    const Run profiles = run_cli(s, "profiles");
    REQUIRE(profiles.exit_code == 0);
    for (const char* name : {"auto", "tag", "marker", "json", "bracket", "xml", "text_kv"})
        CHECK_THAT(profiles.out, Catch::Contains(std::string(name) + "\t"));
    const Run grammars = run_cli(s, "grammars");
    REQUIRE(grammars.exit_code == 0);
    for (const char* name : {"tag", "marker", "json", "bracket", "xml", "text_kv"})
        CHECK_THAT(grammars.out, Catch::Contains(std::string(name) + "\t"));
}

// A shipped profile file (grammars/declared/) is listed as one, with its path, and read by
// name (or by an engine's name for it) with no path.
TEST_CASE("cli profiles marks the shipped profile files, and --profile reads them by name", "[cli][profile-file]") {
    Scratch s;
    const Run profiles = run_cli(s, "profiles");
    REQUIRE(profiles.exit_code == 0);
    for (const char* name : {"dots", "iquest_q1", "k2_horizon"}) {
        CHECK_THAT(profiles.out, Catch::Contains("\n" + std::string(name) + "\t"));
        CHECK_THAT(profiles.out, Catch::Contains("\tgrammars: " + std::string(name) + "\n\tdeclared: grammars/declared/" + std::string(name) +
                                                 ".json (a profile file, compiled in)\n"));
    }
    CHECK_THAT(profiles.out, !Catch::Contains("\tdeclared: grammars/declared/qwen3_coder"));  // a compiled-in family
    const std::string input = s.write("in.txt", "ok<dots_function_call><invoke name=\"get_weather\"><parameter name=\"city\">"
                                                "\nOslo\n</parameter></invoke></dots_function_call>");
    const Run parsed = run_cli(s, "parse " + shell_quote(input) + " --profile dots");
    REQUIRE(parsed.exit_code == 0);
    const json r = json::parse(parsed.out);
    CHECK(r["calls"][0]["name"] == "get_weather");
    CHECK(r["calls"][0]["arguments"] == json{{"city", "Oslo"}});
    CHECK(r["content"] == "ok");
    CHECK(r["telemetry"]["grammar"] == "dots");  // the file's syntax is its own grammar
    // auto reads it too, as the same call.
    const Run under_auto = run_cli(s, "parse " + shell_quote(input) + " --profile auto");
    REQUIRE(under_auto.exit_code == 0);
    const json a = json::parse(under_auto.out);
    CHECK(a["calls"] == r["calls"]);
    CHECK(a["content"] == "ok");
    CHECK(a["telemetry"]["grammar"] == "dots");
    // SGLang's earlier name for K2 Horizon's parser resolves to the shipped file.
    const Run instruction = run_cli(s, "instruction --profile k2_v3");
    REQUIRE(instruction.exit_code == 0);
    CHECK_THAT(instruction.out, Catch::Contains("<ifm|tool_calls>"));
}

TEST_CASE("cli --profile takes the engines' parser names, and profiles --aliases lists them", "[cli][aliases]") {
    Scratch s;
    const Run aliases = run_cli(s, "profiles --aliases");
    REQUIRE(aliases.exit_code == 0);
    CHECK_THAT(aliases.out, Catch::StartsWith("engine\tname\tprofile\tmodels\n"));
    CHECK_THAT(aliases.out, Catch::Contains("\nvLLM\tqwen3_xml\tqwen3_coder\t"));
    CHECK_THAT(aliases.out, Catch::Contains("\nSGLang\tgigachat3\tgigachat\t"));
    CHECK_THAT(aliases.out, Catch::Contains("\nSGLang\tinkling\tinkling\t"));
    const std::string input = s.write("in.txt", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
                                                "{\"city\": \"Oslo\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
    const Run parsed = run_cli(s, "parse " + shell_quote(input) + " --profile deepseekv31");
    REQUIRE(parsed.exit_code == 0);
    CHECK(json::parse(parsed.out)["calls"][0]["arguments"] == json{{"city", "Oslo"}});
    CHECK(run_cli(s, "profiles --bogus").exit_code == 2);
}

TEST_CASE("cli profiles --model names the profile for a model and the files its syntax is written in",
          "[cli][model_index]") {
    Scratch s;
    // MiniMax-M1 is read by jamba: a model's name leads to the family's files, in any case.
    for (const char* name : {"MiniMax-M1", "minimax-m1"}) {
        const Run m1 = run_cli(s, std::string("profiles --model ") + name);
        CHECK(m1.exit_code == 0);
        CHECK(m1.out == "jamba\tgrammars/declared/jamba.json\n"
                        "\tmodels: Jamba 1.5, Hunyuan-A13B, MiniMax-M1\n"
                        "\tengines: vLLM minimax\n");
    }
    // A shipped profile file is its own grammar file.
    const Run dots = run_cli(s, "profiles --model dots.llm");
    CHECK(dots.exit_code == 0);
    CHECK_THAT(dots.out, Catch::StartsWith("dots\tgrammars/declared/dots.json\n"));
    // Through an engine's parser name alone.
    const Run xml = run_cli(s, "profiles --model qwen3_xml");
    CHECK(xml.exit_code == 0);
    CHECK_THAT(xml.out, Catch::StartsWith("qwen3_coder\tgrammars/qwen3_coder.hpp, src/actions/qwen3_coder.cpp\n"));
    CHECK_THAT(xml.out, Catch::Contains("\tengines: vLLM qwen3_xml\n"));
    const Run none = run_cli(s, "profiles --model no-such-model-anywhere");
    CHECK(none.exit_code == 5);
    CHECK_THAT(none.out, Catch::StartsWith("unknown\n"));
    CHECK(run_cli(s, "profiles --model").exit_code == 2);
}

TEST_CASE("every grammar's source files named by the model index exist in the tree", "[model_index]") {
    for (const auto* g : toolgram::detail::all_grammars()) {
        const auto files = toolgram::detail::grammar_source_files(g->name);
        INFO(g->name);
        CHECK_FALSE(files.empty());
        for (const auto& f : files) {
            INFO(f);
            CHECK(fs::exists(fs::path(TOOLGRAM_SOURCE_DIR) / f));
        }
    }
    CHECK(toolgram::detail::grammar_source_files("no_such_grammar").empty());
}

// Issue 28: the template says whether the output starts inside reasoning, and `profiles`
// says what each profile assumes by default.
TEST_CASE("cli profiles --for-template says whether the template opens reasoning and profiles gives each default",
          "[cli][chat_template][reasoning]") {
    Scratch s;
    const std::string templates = (fs::path(TOOLGRAM_SOURCE_DIR) / "tests" / "data" / "templates").string();
    const Run qwq = run_cli(s, "profiles --for-template " + shell_quote(templates + "/Qwen-QwQ-32B.jinja"));
    INFO(qwq.out << qwq.err);
    CHECK(qwq.exit_code == 0);
    CHECK_THAT(qwq.out, Catch::StartsWith("profile: hermes\n"));
    CHECK_THAT(qwq.out, Catch::Contains("\n  reasoning: opened in the prompt (thinking forced open): <think> at line 61, in "
                                        "{%- if add_generation_prompt %}\n  reasoning_start: guess, or inside when that "
                                        "branch is taken (--reasoning-start)\n"));
    const Run hermes = run_cli(s, "profiles --for-template " +
                                      shell_quote(templates + "/NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja"));
    INFO(hermes.out << hermes.err);
    CHECK(hermes.exit_code == 0);
    CHECK_THAT(hermes.out, Catch::Contains("\n  reasoning: not opened in the prompt (no reasoning opener left open after "
                                           "add_generation_prompt)\n  reasoning_start: outside (--reasoning-start outside)\n"));

    const Run profiles = run_cli(s, "profiles");
    REQUIRE(profiles.exit_code == 0);
    const std::string listed = "\n" + profiles.out;  // each profile's line begins after a line break
    for (const char* row : {"\nmistral\t", "\nllama3_json\t", "\nkimi_k2\t", "\nharmony\t"}) {
        CAPTURE(row);
        const std::size_t at = listed.find(row);
        REQUIRE(at != std::string::npos);
        CHECK(listed.find("\treasoning_start: outside\n", at) < listed.find("\tgrammars: ", at));
    }
    for (const char* row : {"\nhermes\t", "\nqwen3_coder\t", "\nauto\t", "\ndeepseek_r1\t"}) {
        CAPTURE(row);
        const std::size_t at = listed.find(row);
        REQUIRE(at != std::string::npos);
        CHECK(listed.find("\treasoning_start: guess\n", at) < listed.find("\tgrammars: ", at));
    }
    // And a stream under the defaults: text before the call comes out before it.
    const std::string input = s.write("answer.txt", "Let me check.\n[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}");
    const Run streamed = run_cli(s, "stream " + shell_quote(input) + " --profile mistral --chunk 14 --tools " +
                                        shell_quote((fs::path(TOOLGRAM_SOURCE_DIR) / "corpus" / "tools.json").string()));
    REQUIRE(streamed.exit_code == 0);
    const auto lines = lines_of(streamed.out);
    REQUIRE(lines.size() >= 3);
    CHECK(json::parse(lines[0]) == json{{"event", "content"}, {"text", "Let me check."}});
    CHECK(json::parse(lines[1])["event"] == "tool_call_begin");
}

TEST_CASE("cli profiles --for-template names the profile a chat template writes, with the evidence",
          "[cli][chat_template]") {
    Scratch s;
    const std::string templates = (fs::path(TOOLGRAM_SOURCE_DIR) / "tests" / "data" / "templates").string();
    // A real .jinja file.
    const Run qwen = run_cli(s, "profiles --for-template " + shell_quote(templates + "/Qwen-Qwen2.5-7B-Instruct.jinja"));
    INFO(qwen.out << qwen.err);
    CHECK(qwen.exit_code == 0);
    CHECK(qwen.err.empty());
    const auto lines = lines_of(qwen.out);
    REQUIRE(!lines.empty());
    CHECK(lines[0] == "profile: hermes");
    CHECK_THAT(qwen.out, Catch::Contains("  found: <tool_call> at line "));
    CHECK_THAT(qwen.out, Catch::Contains("in the tool-call branch {%- for tool_call in message.tool_calls %}"));
    CHECK_THAT(qwen.out, Catch::Contains("  not written: <function=, <arg_key>"));
    CHECK_THAT(qwen.out, Catch::Contains("SGLang qwen25"));

    // A tokenizer_config.json whose chat_template is a list: tool_use is taken.
    const json config = {{"bos_token", "<s>"},
                         {"chat_template",
                          json::array({{{"name", "default"}, {"template", "{{ bos_token }}{{ messages }}"}},
                                       {{"name", "tool_use"},
                                        {"template", "{% for tool_call in message.tool_calls %}{{ '<tool_call>\\n' + "
                                                     "tool_call | tojson + '\\n</tool_call>' }}{% endfor %}"}}})}};
    const std::string config_path = s.write("tokenizer_config.json", config.dump());
    const Run listed = run_cli(s, "profiles --for-template " + shell_quote(config_path));
    CHECK(listed.exit_code == 0);
    CHECK_THAT(listed.out, Catch::StartsWith("profile: hermes\n"));
    CHECK_THAT(listed.out, Catch::Contains("  template: chat_template[\"tool_use\"] of " + config_path));
    // From stdin.
    const Run piped = run_cli(s, "profiles --for-template - < " + shell_quote(templates + "/GLM-4.6.jinja"));
    CHECK(piped.exit_code == 0);
    CHECK_THAT(piped.out, Catch::StartsWith("profile: glm45\n"));

    // No single profile: exit 5, the answer on stdout.
    const Run gemma = run_cli(s, "profiles --for-template " + shell_quote(templates + "/google-gemma-2-2b-it.jinja"));
    CHECK(gemma.exit_code == 5);
    CHECK_THAT(gemma.out, Catch::StartsWith("unknown\n  why: it neither handles tools nor writes any tool-call marker"));
    // A syntax no profile read until issue 15 gave it one: its template names the profile now.
    const Run kimi_k3 = run_cli(s, "profiles --for-template " + shell_quote(templates + "/Kimi-K3.jinja"));
    CHECK(kimi_k3.exit_code == 0);
    CHECK_THAT(kimi_k3.out, Catch::StartsWith("profile: kimi_k3\n"));
    // llama.cpp's Phi-4-mini template was "not read yet" (exit 5) though `auto` read its
    // calls (issue 28): granite reads its <|tool_call|>{…}<|/tool_call|>.
    const Run phi = run_cli(s, "profiles --for-template " + shell_quote(templates + "/llama-cpp-microsoft-Phi-4-mini-instruct.jinja"));
    CHECK(phi.exit_code == 0);
    CHECK_THAT(phi.out, Catch::StartsWith("profile: granite\n"));
    const Run tie = run_cli(s, "profiles --for-template " + shell_quote(s.write("tie.jinja", "{{ '<TOOLCALL>' }}{{ '<|tools_prefix|>' }}")));
    CHECK(tie.exit_code == 5);
    CHECK_THAT(tie.out, Catch::StartsWith("ambiguous: "));
    CHECK_THAT(tie.out, Catch::Contains("nemotron"));
    CHECK_THAT(tie.out, Catch::Contains("apertus"));

    // Files that cannot be used: exit 3 with what is wrong; usage: exit 2.
    struct Row {
        std::string args;
        int exit_code;
        std::string err;
    };
    const std::string deep = "{\"chat_template\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    const std::vector<Row> rows = {
        {shell_quote(s.write("empty.jinja", "")), 3, "the file is empty: it holds no template"},
        {shell_quote(s.write("broken.json", "{\"chat_template\": ")), 3, "not valid JSON"},
        {shell_quote(s.write("jinja.json", "{{ bos_token }}")), 3, "not valid JSON"},
        {shell_quote(s.write("deep.json", deep)), 3, "nesting deeper than 256 levels at line 1, column 274"},
        {shell_quote(s.write("number.json", "{\"chat_template\": 3}")), 3,
         "chat_template is a number, not a string nor a list"},
        {shell_quote(s.write("none.json", "{\"bos_token\": \"<s>\"}")), 3, "has no \"chat_template\""},
        {shell_quote(s.path("missing.jinja")), 3, "missing.jinja"},
        {shell_quote(s.path("")), 3, "directory"},
        {"", 2, "--for-template needs one FILE"},
    };
    for (const auto& row : rows) {
        CAPTURE(row.args);
        const Run r = run_cli(s, "profiles --for-template " + row.args);
        CHECK(r.exit_code == row.exit_code);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::StartsWith("toolgram: "));
        CHECK_THAT(r.err, Catch::Contains(row.err));
    }
    // Past the 17 MiB a document may hold: refused before it is held whole.
    {
        const std::string huge = s.path("huge.jinja");
        std::ofstream out(huge, std::ios::binary);
        const std::string block(1 << 20, 'x');
        for (int i = 0; i < 18; ++i) out << block;
    }
    const Run huge = run_cli(s, "profiles --for-template " + shell_quote(s.path("huge.jinja")));
    CHECK(huge.exit_code == 3);
    CHECK_THAT(huge.err, Catch::Contains("longer than 17825792 bytes"));
}

TEST_CASE("cli stream prints JSON events a line and ends with parse's result", "[cli][stream]") {
    Scratch s;
    const std::string text = "Checking the weather.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
                             "{\"city\": \"Antwerp\"}}\n</tool_call>\nDone.";
    const std::string input = s.write("in.txt", text);
    const std::string tools = s.write("tools.json", tools_json);
    const std::string common = " --profile hermes --tools " + shell_quote(tools);

    for (const std::string how : {"file", "stdin"}) {
        CAPTURE(how);
        const Run r = how == "file" ? run_cli(s, "stream " + shell_quote(input) + " --chunk 3" + common)
                                    : run_cli(s, "stream - --chunk 1" + common + " < " + shell_quote(input));
        INFO(r.out << r.err);
        REQUIRE(r.exit_code == 0);
        const auto lines = lines_of(r.out);
        REQUIRE(lines.size() >= 4);
        std::string content, arguments;
        std::vector<std::string> kinds;
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            const json e = json::parse(lines[i]);
            kinds.push_back(e["event"].get<std::string>());
            if (e["event"] == "content") content += e["text"].get<std::string>();
            if (e["event"] == "tool_call_arguments") arguments += e["text"].get<std::string>();
        }
        const json end = json::parse(lines.back());
        CHECK(end["event"] == "end");
        const Run parsed = run_cli(s, "parse " + shell_quote(input) + common);
        CHECK(end["result"] == json::parse(parsed.out));
        CHECK(content == end["result"]["content"]);
        CHECK(json::parse(arguments) == end["result"]["calls"][0]["arguments"]);
        CHECK(std::count(kinds.begin(), kinds.end(), "tool_call_begin") == 1);
        CHECK(std::count(kinds.begin(), kinds.end(), "tool_call_end") == 1);
    }
}

TEST_CASE("cli stream rejects bad usage with exit code 2", "[cli][stream]") {
    Scratch s;
    CHECK(run_cli(s, "stream --chunk 0 -").exit_code == 2);
    CHECK(run_cli(s, "stream --chunk x -").exit_code == 2);
    CHECK(run_cli(s, "stream --openai -").exit_code == 2);
    CHECK(run_cli(s, "stream --reasoning-start maybe -").exit_code == 2);
    CHECK(run_cli(s, "stream --profile nope -").exit_code == 2);
    const Run help = run_cli(s, "stream --help");
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("tool_call_begin") != std::string::npos);
}

TEST_CASE("cli --profile-file: parse, stream, instruction and coverage read a profile file", "[cli][profile-file]") {
    Scratch s;
    const std::string profile = (fs::path(TOOLGRAM_SOURCE_DIR) / "docs" / "profiles" / "kimi_k2.json").string();
    const std::string text = "Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
                             "<|tool_call_argument_begin|>{\"city\": \"Antwerp\"}<|tool_call_end|><|tool_calls_section_end|>";
    const std::string input = s.write("in.txt", text);
    const std::string tools = s.write("tools.json", tools_json);
    const std::string common = " --profile-file " + shell_quote(profile) + " --tools " + shell_quote(tools);

    const Run parsed = run_cli(s, "parse " + shell_quote(input) + common);
    INFO(parsed.out << parsed.err);
    REQUIRE(parsed.exit_code == 0);
    const json result = json::parse(parsed.out);
    CHECK(result["calls"] == json::array({{{"id", "functions.get_weather:0"}, {"name", "get_weather"},
                                           {"arguments", {{"city", "Antwerp"}}}}}));
    CHECK(result["content"] == "Let me check.");
    CHECK(result["telemetry"]["grammar"] == "declared");
    // The same output under the built-in profile gives the same calls and content.
    const json builtin = json::parse(run_cli(s, "parse " + shell_quote(input) + " --profile kimi_k2 --tools " +
                                                    shell_quote(tools)).out);
    CHECK(builtin["calls"] == result["calls"]);
    CHECK(builtin["content"] == result["content"]);

    const Run streamed = run_cli(s, "stream " + shell_quote(input) + " --chunk 2" + common);
    REQUIRE(streamed.exit_code == 0);
    const json end = json::parse(lines_of(streamed.out).back());
    CHECK(end["event"] == "end");
    CHECK(end["result"] == result);

    const std::string batch = s.write("batch.jsonl", "{\"id\": 1, \"text\": " + json(text).dump() + "}\n" +
                                                         "{\"id\": 2, \"text\": " + json(text).dump() +
                                                         ", \"profile\": \"hermes\"}\n");
    const auto lines = lines_of(run_cli(s, "parse --jsonl " + shell_quote(batch) + common).out);
    REQUIRE(lines.size() == 2);
    CHECK(json::parse(lines[0])["calls"] == result["calls"]);
    CHECK(json::parse(lines[1])["calls"] == json::array());  // the line names a built-in profile

    const Run instruction = run_cli(s, "instruction" + common);
    REQUIRE(instruction.exit_code == 0);
    CHECK(instruction.out.find("functions.TOOL_NAME:0<|tool_call_argument_begin|>") != std::string::npos);

    const Run coverage = run_cli(s, "coverage " + shell_quote(batch) + " --model kimi --format json" + common);
    INFO(coverage.err);
    REQUIRE(coverage.exit_code == 0);
    CHECK(coverage.out.find("\"declared\"") != std::string::npos);
}

TEST_CASE("cli --profile-file: an invalid file is an input error naming the field, a clash a usage error",
          "[cli][profile-file]") {
    Scratch s;
    const std::string input = s.write("in.txt", "hello");
    const std::string bad =
        s.write("bad.json", R"({"name": "x", "syntax": {"call": {"open": "<c>", "close": "<c>"}}})");
    for (const char* command : {"parse", "stream", "instruction", "coverage"}) {
        CAPTURE(command);
        const std::string in = std::string(command) == "instruction" ? "" : " " + shell_quote(input);
        const Run r = run_cli(s, std::string(command) + in + " --profile-file " + shell_quote(bad));
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(bad + ": syntax.call.close: the same as syntax.call.open (\"<c>\")") != std::string::npos);
    }
    const std::string good = (fs::path(TOOLGRAM_SOURCE_DIR) / "docs" / "profiles" / "hermes.json").string();
    const Run clash = run_cli(s, "parse " + shell_quote(input) + " --profile auto --profile-file " + shell_quote(good));
    CHECK(clash.exit_code == 2);
    CHECK(clash.err == "toolgram: --profile and --profile-file both name a profile: give one\n");
}

// Issue 29, item 3: a marker of any length was taken, and every place it may start cost
// its length (a 140 KB intent marker over 2.8 MB ran past 5 minutes). Markers are now
// refused past max_marker_bytes where they are read: a JSONL line's settings, a profile
// file, --tag-open/--tag-close (the Python package reads its settings as JSONL lines are).
TEST_CASE("cli: a marker longer than max_marker_bytes is refused where it is read, naming the field", "[cli][settings]") {
    Scratch s;
    REQUIRE(toolgram::max_marker_bytes == 256);
    const std::string longest(256, 'm'), too_long = std::string(257, 'm');
    const std::string past = ": 257 bytes, longer than the 256 bytes a marker may be";
    // A JSONL line's settings: that line fails, the others are answered.
    const json lines[] = {
        {{"id", "intent"}, {"text", "x"}, {"settings", {{"intent_markers", {"CALL_TOOL", too_long}}}}},
        {{"id", "tag"}, {"text", "x"}, {"settings", {{"tag_close", too_long}}}},
        {{"id", "fits"}, {"text", longest + " {\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}"},
         {"settings", {{"intent_markers", {longest}}}}},
    };
    std::string batch;
    for (const auto& l : lines) batch += l.dump() + "\n";
    const std::string tools = s.write("tools.json", tools_json);
    const Run r = run_cli(s, "parse --jsonl " + shell_quote(s.write("batch.jsonl", batch)) + " --tools " + shell_quote(tools));
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = lines_of(r.out);
    REQUIRE(out.size() == 3);
    CHECK(json::parse(out[0])["error"]["message"] == "line 1: settings.intent_markers[1]" + past);
    CHECK(json::parse(out[1])["error"]["message"] == "line 2: settings.tag_close" + past);
    CHECK(json::parse(out[2])["error"].is_null());
    CHECK(json::parse(out[2])["calls"].size() == 1);  // the intent marker of 256 bytes is read
    // A profile file: its syntax tokens and its settings' markers.
    const std::string input = s.write("in.txt", "hello");
    const std::string long_open = s.write(
        "open.json", json({{"name", "x"}, {"syntax", {{"call", {{"open", json::array({"<c>", too_long})}, {"close", "</c>"}}}}}}).dump());
    Run p = run_cli(s, "parse " + shell_quote(input) + " --profile-file " + shell_quote(long_open));
    CHECK(p.exit_code == 3);
    CHECK(p.err == "toolgram: profile file " + long_open + ": syntax.call.open[1]" + past + "\n");
    const std::string long_reasoning = s.write(
        "reasoning.json", json({{"name", "x"},
                                {"syntax", {{"call", {{"open", "<c>"}, {"close", "</c>"}}}}},
                                {"settings", {{"reasoning", {{{"open", "<r>"}, {"close", too_long}}}}}}})
                              .dump());
    p = run_cli(s, "parse " + shell_quote(input) + " --profile-file " + shell_quote(long_reasoning));
    CHECK(p.exit_code == 3);
    CHECK(p.err == "toolgram: profile file " + long_reasoning + ": settings.reasoning[0].close" + past + "\n");
    // The command line's tags.
    p = run_cli(s, "parse " + shell_quote(input) + " --tag-open " + too_long);
    CHECK(p.exit_code == 2);
    CHECK(p.err == "toolgram: --tag-open" + past + "\n");
}

TEST_CASE("cli: an empty tools list lets no tool be called and no tools at all is said on stderr and in telemetry",
          "[cli][tools]") {
    Scratch s;
    const std::string empty = s.write("empty.json", "[]");
    const std::string tools = s.write("tools.json", tools_json);
    const std::string in = s.write("in.txt", weather_tag);

    // []: fail closed. The call is refused with the reason; nothing said on stderr.
    Run r = run_cli(s, "parse " + shell_quote(in) + " --profile tag --tools " + shell_quote(empty));
    REQUIRE(r.exit_code == 0);
    json j = json::parse(r.out);
    CHECK(j["calls"] == json::array());
    REQUIRE(j["telemetry"]["rejected"].size() == 1);
    CHECK(j["telemetry"]["rejected"][0]["reason"] == "no tool may be called: the tool list is empty");
    CHECK(j["telemetry"]["validated"] == true);
    CHECK(r.err.empty());

    // No --tools: the call as written, flagged unvalidated, and told once on stderr.
    r = run_cli(s, "parse " + shell_quote(in) + " --profile tag");
    REQUIRE(r.exit_code == 0);
    j = json::parse(r.out);
    CHECK(j["calls"] == json::array({weather_call}));
    CHECK(j["telemetry"]["validated"] == false);
    CHECK(r.err == "toolgram: no --tools given: any tool name is accepted as written and no arguments are validated\n");

    // With tools: validated, nothing on stderr.
    r = run_cli(s, "parse " + shell_quote(in) + " --profile tag --tools " + shell_quote(tools));
    j = json::parse(r.out);
    CHECK(j["calls"] == json::array({weather_call}));
    CHECK(j["telemetry"]["validated"] == true);
    CHECK(r.err.empty());

    // The stream: nothing announced under [], and the end equal to the one-shot parse.
    r = run_cli(s, "stream " + shell_quote(in) + " --profile tag --tools " + shell_quote(empty) + " --chunk 3");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("tool_call_begin") == std::string::npos);
    CHECK(r.out.find("no tool may be called: the tool list is empty") != std::string::npos);

    // JSONL: a line's own "tools": [] is a list too; a line without tools and no --tools is
    // unvalidated, said once however many lines.
    const std::string batch = s.write(
        "batch.jsonl", json({{"id", "a"}, {"text", weather_tag}, {"profile", "tag"}, {"tools", json::array()}}).dump() +
                           "\n" + json({{"id", "b"}, {"text", weather_tag}, {"profile", "tag"}}).dump() + "\n" +
                           json({{"id", "c"}, {"text", weather_tag}, {"profile", "tag"}}).dump() + "\n");
    r = run_cli(s, "parse --jsonl " + shell_quote(batch) + " --jobs 2");
    REQUIRE(r.exit_code == 0);
    const auto out = lines_of(r.out);
    REQUIRE(out.size() == 3);
    CHECK(json::parse(out[0])["calls"] == json::array());
    CHECK(json::parse(out[0])["telemetry"]["validated"] == true);
    CHECK(json::parse(out[1])["calls"] == json::array({weather_call}));
    CHECK(json::parse(out[1])["telemetry"]["validated"] == false);
    CHECK(r.err == "toolgram: no --tools given: any tool name is accepted as written and no arguments are validated\n");
}

// Issue 28: an OpenAI client writes `"tools": null` for "no tools". Read as no list, it
// would accept any call unvalidated; read as [], it would refuse every call the --tools list
// allows. The line is refused instead, saying how to write either; the lines around it run.
TEST_CASE("cli parse --jsonl: \"tools\": null fails its line with how to say either list", "[cli]") {
    Scratch s;
    const std::string tools = s.write("tools.json", tools_json);
    const std::string batch =
        s.write("batch.jsonl", json({{"id", "a"}, {"text", weather_tag}, {"profile", "tag"}, {"tools", nullptr}}).dump() +
                                   "\n" + json({{"id", "b"}, {"text", weather_tag}, {"profile", "tag"}}).dump() + "\n");
    const Run r = run_cli(s, "parse --jsonl " + shell_quote(batch) + " --tools " + shell_quote(tools));
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto out = lines_of(r.out);
    REQUIRE(out.size() == 2);
    const json refused = json::parse(out[0]);
    CHECK(refused["id"] == "a");
    CHECK_FALSE(refused.contains("calls"));
    CHECK(refused["error"]["message"] ==
          "line 1: \"tools\" is null, which says neither which list applies: leave the key out for the default list "
          "(--tools, else none: any name accepted, nothing validated), or give [] for an empty one (no tool may be "
          "called)");
    // The next line, with no key, takes --tools.
    CHECK(json::parse(out[1])["calls"] == json::array({weather_call}));
    CHECK(json::parse(out[1])["telemetry"]["validated"] == true);

    // A coverage input line is refused the same way (a problem of that line, the rest counted).
    const std::string runs =
        s.write("runs.jsonl", json({{"model", "m"}, {"text", weather_tag}, {"profile", "tag"}, {"tools", nullptr}}).dump() +
                                  "\n" + json({{"model", "m"}, {"text", weather_tag}, {"profile", "tag"}}).dump() + "\n");
    const Run c = run_cli(s, "coverage " + shell_quote(runs) + " --tools " + shell_quote(tools) + " --format json");
    INFO(c.out << c.err);
    CHECK((c.out + c.err).find("is null, which says neither which list applies") != std::string::npos);
}

// Issue 29, item 9: `parse --jsonl --jobs N` held 4N lines whatever their size (1.9 GB at
// --jobs 16 on the longest lines). Its pool now also bounds the bytes in flight: lines
// weigh their bytes, the weight of unemitted lines stays within the bound (one heavier
// line goes in alone), and the answers still come out in input order.
TEST_CASE("parse --jsonl's pool bounds the bytes in flight, not only the lines, and keeps the order", "[cli][jobs]") {
    struct Task {
        std::size_t index, bytes;
    };
    std::mutex m;
    std::size_t in_work = 0, most_in_work = 0;
    std::vector<std::size_t> emitted;
    toolgram::cli::OrderedPool<Task, std::size_t> pool(
        8, 64,
        [&](Task& t) {
            {
                std::lock_guard lock(m);
                in_work += t.bytes;
                most_in_work = std::max(most_in_work, in_work);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            std::lock_guard lock(m);
            in_work -= t.bytes;
            return t.index;
        },
        [&](std::size_t& i) { emitted.push_back(i); }, [](const Task& t) { return t.bytes; }, 100);
    // 8 threads and a window of 64 lines, but only three lines of 30 bytes fit in 100.
    for (std::size_t i = 0; i < 40; ++i) pool.submit({i, 30});
    // A line heavier than the bound goes alone, once the lines before it are out.
    pool.submit({40, 250});
    for (std::size_t i = 41; i < 50; ++i) pool.submit({i, 30});
    pool.finish();
    std::vector<std::size_t> order(50);
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    CHECK(emitted == order);
    CHECK(pool.peak_weight() == 250);  // the heavy line alone; 90 at most otherwise
    CHECK(most_in_work == 250);
}

}  // namespace cli_test
