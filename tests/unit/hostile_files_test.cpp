// Hostile files: what the CLI and `toolgram coverage` read from disk and stdin is
// semi-trusted (tools and profile files, JSONL batches, corpus folders from elsewhere), so
// each attack class found in issue 13 is pinned here with its exact outcome: deep nesting,
// keys by the hundred thousand or given twice, endless and oversized inputs, directories
// and FIFOs where files are expected, profile files that lead out of a corpus, loose
// numeric options, and output that cannot be written. Every one ends with a clear error,
// an exact exit code, and nothing already computed lost; none crashes or hangs (each CLI
// run has a time limit, so a hang fails its test instead of the whole run).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "coverage/coverage.hpp"
#include "value/json_document.hpp"
#include "small_stack.hpp"
#include "cli_run.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace hostile_files_test {

using toolgram_test::lines_of;
using toolgram_test::Run;
using toolgram_test::run_cli;
using toolgram_test::Scratch;
using toolgram_test::shell_quote;
using toolgram_test::slurp;

namespace fs = std::filesystem;
using toolgram::json;
using toolgram::detail::DocumentError;
using toolgram::detail::read_json_document;

namespace {

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// The column of the bracket that goes one level too deep, for a document that opens
// `prefix` (already `prefix_depth` levels deep) and then nests arrays.
std::size_t too_deep_column(const std::string& prefix, std::size_t prefix_depth) {
    return prefix.size() + (toolgram::detail::max_document_depth + 1 - prefix_depth);
}

std::string too_deep_at(std::size_t column) {
    return "nesting deeper than 256 levels at line 1, column " + std::to_string(column);
}

const std::string source_dir = TOOLGRAM_SOURCE_DIR;
const std::string default_cap = "17825792 bytes (limits.max_input_bytes, 16777216, plus a margin of 1048576)";
const std::string document_cap = "17825792 bytes (the limit for a JSON document such as a tools or profile file)";

const std::string tag_call = R"(Checking. [TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}}[/TOOL_CALL])";

}  // namespace

// ---------------------------------------------------------------------------------------
// The bounded JSON reader itself.

TEST_CASE("bounded JSON: 256 levels load, copy, dump and compare on a 256 KiB stack, and 257 are refused where they start",
          "[hostile-files][json-document]") {
    // Arrays and objects alternate: an object level costs more stack to copy than an array's.
    std::string at_bound;
    for (std::size_t i = 0; i < toolgram::detail::max_document_depth; ++i) at_bound += i % 2 ? "[" : "{\"k\":";
    at_bound += "1";
    for (std::size_t i = toolgram::detail::max_document_depth; i-- > 0;) at_bound += i % 2 ? "]" : "}";

    const toolgram_test::ChildOutcome small = toolgram_test::run_on_small_stack(256 * 1024, [&]() -> int {
        toolgram::detail::DocumentRead r = read_json_document(at_bound);
        if (r.error) return 1;
        const json copy = r.value;
        if (!(copy == r.value)) return 2;
        if (copy.dump() != at_bound) return 3;
        json other = copy;
        other.erase(other.begin());  // the comparison must walk down, not stop at the top
        if (copy == other) return 4;
        return copy.dump(2).size() > at_bound.size() ? 0 : 5;
    });
    CHECK(small.exited);
    CHECK(small.signal == 0);
    CHECK(small.code == 0);

    const toolgram::detail::DocumentRead deeper = read_json_document(nested(257));
    REQUIRE(deeper.error);
    CHECK(deeper.value.is_null());
    CHECK(deeper.error->kind == DocumentError::Kind::too_deep);
    CHECK(deeper.error->offset == 256);
    CHECK(deeper.error->line == 1);
    CHECK(deeper.error->column == 257);
    std::string where;
    for (int i = 0; i < 256; ++i) where += "[0]";
    CHECK(deeper.error->where == where);
    CHECK(deeper.error->message == "nesting deeper than 256 levels at line 1, column 257");

    // One bracket a line: the place counts lines, and the path names members.
    std::string by_lines = "{\"a\": [1,\n";
    for (int i = 0; i < 256; ++i) by_lines += "[\n";
    const toolgram::detail::DocumentRead lines = read_json_document(by_lines);
    REQUIRE(lines.error);
    CHECK(lines.error->message == "nesting deeper than 256 levels at line 256, column 1");
    CHECK(lines.error->where.rfind("a[1][0][0]", 0) == 0);
    CHECK_THROWS_WITH(toolgram::detail::parse_json_document(by_lines), "nesting deeper than 256 levels at line 256, column 1");

    // And 100,000 levels: refused at the same place, without a deep stack or a crash.
    const toolgram_test::ChildOutcome very_deep = toolgram_test::run_on_small_stack(256 * 1024, [] {
        const toolgram::detail::DocumentRead r = read_json_document(nested(100000));
        return r.error && r.error->message == "nesting deeper than 256 levels at line 1, column 257" ? 0 : 1;
    });
    CHECK(very_deep.exited);
    CHECK(very_deep.code == 0);
}

TEST_CASE("bounded JSON: a key given twice is refused with its path and place, and 100,000 keys keep their order",
          "[hostile-files][json-document]") {
    const toolgram::detail::DocumentRead twice = read_json_document(R"({"a": 1, "b": {"c": 2, "c": 3}})");
    REQUIRE(twice.error);
    CHECK(twice.error->kind == DocumentError::Kind::repeated_key);
    CHECK(twice.error->where == "b.c");
    CHECK(twice.error->column == 24);  // the repeated key's opening quote
    CHECK(twice.error->message == "b.c: given twice in the same object at line 1, column 24");
    // Escaped quotes inside the key do not confuse the place.
    const toolgram::detail::DocumentRead escaped = read_json_document("[{\"x\\\"\": 1,\n  \"x\\\"\": 2}]");
    REQUIRE(escaped.error);
    CHECK(escaped.error->message == "[0].x\": given twice in the same object at line 2, column 3");
    // The same key in different objects, or in an array, is no repeat.
    CHECK_FALSE(read_json_document(R"([{"a": 1}, {"a": 2, "b": {"a": 3}}])").error);

    std::string big = "{";
    for (int i = 0; i < 100000; ++i) big += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    const toolgram::detail::DocumentRead many = read_json_document(big + "}");
    REQUIRE_FALSE(many.error);
    REQUIRE(many.value.size() == 100000);
    int i = 0;
    bool in_order = true;
    for (auto it = many.value.begin(); it != many.value.end(); ++it, ++i)
        in_order = in_order && it.key() == "k" + std::to_string(i) && *it == i;
    CHECK(in_order);
    CHECK(many.value["k99999"] == 99999);  // lookups still work on what was appended

    // A repeat in a large object is found through the key set, not missed.
    const toolgram::detail::DocumentRead late = read_json_document(big + ",\"k5\":0}");
    REQUIRE(late.error);
    CHECK(late.error->message == "k5: given twice in the same object at line 1, column " + std::to_string(big.size() + 2));

    // Syntax errors keep nlohmann's description and place, not its tag, and a long token
    // is cut short instead of repeated whole.
    const toolgram::detail::DocumentRead broken = read_json_document("[1, tru]");
    REQUIRE(broken.error);
    CHECK(broken.error->kind == DocumentError::Kind::syntax);
    CHECK(broken.error->message ==
          "not valid JSON: parse error at line 1, column 8: syntax error while parsing value - invalid literal; last read: '1, tru]'");
    const toolgram::detail::DocumentRead long_token = read_json_document("\"" + std::string(100000, 'x') + "\u0001\"");
    REQUIRE(long_token.error);
    CHECK(long_token.error->message.size() < 300);
    CHECK_THAT(long_token.error->message, Catch::EndsWith("last read: '\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"));
}

// ---------------------------------------------------------------------------------------
// Deep nesting in every file the CLI reads.

TEST_CASE("hostile files: JSON nested 100,000 deep in any file is refused with its place, never a crash",
          "[hostile-files][cli]") {
    Scratch s;
    const std::string deep = nested(100000);
    const std::string input = shell_quote(s.write("in.txt", "hi"));

    SECTION("--tools, at the top and inside a schema") {
        const std::string top = s.write("top.json", deep);
        Run r = run_cli(s, "parse " + input + " --tools " + shell_quote(top));
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err == "toolgram: tools file " + top + ": " + too_deep_at(257) + "\n");

        const std::string prefix = R"([{"name":"f","parameters":{"type":"object","default":)";
        const std::string in_schema = s.write("schema.json", prefix + deep + "}}]");
        r = run_cli(s, "parse " + input + " --tools " + shell_quote(in_schema));
        CHECK(r.exit_code == 3);
        CHECK(r.err == "toolgram: tools file " + in_schema + ": " + too_deep_at(too_deep_column(prefix, 3)) + "\n");
    }
    SECTION("--profile-file and load_profile_file") {
        const std::string prefix = R"({"name":"x","notes":)";
        const std::string profile = s.write("profile.json", prefix + deep + "}");
        const std::string expected = profile + ": " + too_deep_at(too_deep_column(prefix, 1));
        CHECK_THROWS_WITH(toolgram::load_profile_file(profile), expected);
        const Run r = run_cli(s, "parse " + input + " --profile-file " + shell_quote(profile));
        CHECK(r.exit_code == 3);
        CHECK(r.err == "toolgram: profile file " + expected + "\n");
    }
    SECTION("a --jsonl line: that line's error, every other result whole") {
        const std::string prefix = R"({"id":)";
        const std::string batch = s.write("batch.jsonl", json{{"id", "a"}, {"text", tag_call}}.dump() + "\n" + prefix +
                                                             deep + R"(,"text":"x"})" + "\n" +
                                                             json{{"id", "c"}, {"text", "plain"}}.dump() + "\n");
        const Run r = run_cli(s, "parse --jsonl " + shell_quote(batch) + " --profile tag");
        INFO(r.err);
        CHECK(r.exit_code == 0);
        const auto lines = lines_of(r.out);
        REQUIRE(lines.size() == 3);
        const json first = json::parse(lines[0]);
        CHECK(first["id"] == "a");
        CHECK(first["calls"] == json::parse(R"([{"id":"call_0","name":"get_weather","arguments":{"city":"Antwerp"}}])"));
        CHECK(json::parse(lines[1]) ==
              json{{"id", nullptr}, {"error", {{"message", "line 2: " + too_deep_at(too_deep_column(prefix, 1))}}}});
        const json third = json::parse(lines[2]);
        CHECK(third["id"] == "c");
        CHECK(third["content"] == "plain");
    }
    SECTION("coverage: a case's expect.json, a JSONL line, an earlier report") {
        s.write("c/m/a.txt", "hi");
        s.write("c/m/b.txt", "hi");
        const std::string prefix = R"({"settings":{"x":)";
        s.write("c/m/b.expect.json", prefix + deep + "}}");
        Run r = run_cli(s, "coverage " + shell_quote(s.path("c/m")) + " --format json");
        INFO(r.err);
        CHECK(r.exit_code == 3);
        json report = json::parse(r.out);
        CHECK(report["outputs"].size() == 1);
        CHECK(report["outputs"][0]["id"] == "m/a");
        CHECK(report["problems"] ==
              json::array({{{"where", "m/b"}, {"message", "b.expect.json: " + too_deep_at(too_deep_column(prefix, 2))}}}));

        const std::string jsonl = s.write("in.jsonl", R"({"model":"m","text":"hi"})" "\n" R"({"model":)" + deep + "}\n");
        r = run_cli(s, "coverage " + shell_quote(jsonl) + " --format json");
        CHECK(r.exit_code == 3);
        report = json::parse(r.out);
        CHECK(report["outputs"].size() == 1);
        CHECK(report["problems"] ==
              json::array({{{"where", jsonl + ":2"}, {"message", "the line: " + too_deep_at(too_deep_column("{\"model\":", 1))}}}));

        const std::string old = s.write("old.json", deep);
        r = run_cli(s, "coverage " + shell_quote(s.path("c/m")) + " --diff " + shell_quote(old));
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err == "toolgram: earlier report " + old + ": " + too_deep_at(257) + "\n");
    }
}

TEST_CASE("hostile files: a JSONL line with 100,000 keys is read (in linear time), a repeated key refused",
          "[hostile-files][cli]") {
    Scratch s;
    std::string line = R"({"id":"big","text":"hi")";
    for (int i = 0; i < 100000; ++i) line += ",\"k" + std::to_string(i) + "\":" + std::to_string(i);
    line += "}\n";
    const std::string batch = s.write("batch.jsonl", line + R"({"id":"twice","text":"a","text":"b"})" + "\n");
    const Run r = run_cli(s, "parse --jsonl " + shell_quote(batch), 120);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 2);
    const json big = json::parse(lines[0]);
    CHECK(big["id"] == "big");
    CHECK(big["content"] == "hi");
    CHECK(big["error"].is_null());
    // Before, nlohmann kept one of the two "text"s in silence.
    CHECK(json::parse(lines[1]) ==
          json{{"id", nullptr}, {"error", {{"message", "line 2: text: given twice in the same object at line 1, column 26"}}}});
}

// ---------------------------------------------------------------------------------------
// Endless and oversized input.

TEST_CASE("hostile files: endless or oversized input stops at the limit with exit 3", "[hostile-files][cli]") {
    Scratch s;
    SECTION("/dev/zero as parse input, tools file, profile file") {
        Run r = run_cli(s, "parse /dev/zero");
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err == "toolgram: cannot read /dev/zero: longer than " + default_cap + "\n");

        r = run_cli(s, "parse - < /dev/zero");
        CHECK(r.exit_code == 3);
        CHECK(r.err == "toolgram: cannot read stdin: longer than " + default_cap + "\n");

        const std::string input = shell_quote(s.write("in.txt", "hi"));
        r = run_cli(s, "parse " + input + " --tools /dev/zero");
        CHECK(r.exit_code == 3);
        CHECK(r.err == "toolgram: cannot read /dev/zero: longer than " + document_cap + "\n");

        r = run_cli(s, "parse " + input + " --profile-file /dev/zero");
        CHECK(r.exit_code == 3);
        CHECK(r.err == "toolgram: profile file /dev/zero: cannot read: longer than " + document_cap + "\n");
    }
    SECTION("endless stream input: an error after the events already printed, and no end event") {
        Run r = run_cli(s, "stream /dev/zero --profile hermes");
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());  // NUL bytes are held while a reasoning block could still begin
        CHECK(r.err == "toolgram: cannot read /dev/zero: longer than " + default_cap + "; the stream stopped there\n");

        // A call, then text without end: the call's events and the text up to the limit
        // are printed as they are read, each a whole JSON line.
        const std::string profile = s.write("hermes_small.json", R"({"name": "hermes_small",
            "syntax": {"call": {"open": "<tool_call>", "close": "</tool_call>"}},
            "settings": {"limits": {"max_input_bytes": 1000}}})");
        r = run_cli(s, "stream - --chunk 100 --reasoning-start outside --profile-file " + shell_quote(profile), 60,
                    R"((printf 'Checking.\n<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>\n'; yes) | )");
        CHECK(r.exit_code == 3);
        CHECK(r.err == "toolgram: cannot read stdin: longer than 1049576 bytes (limits.max_input_bytes, 1000, plus a "
                       "margin of 1048576); the stream stopped there\n");
        const auto lines = lines_of(r.out);
        REQUIRE(lines.size() > 5);
        CHECK(json::parse(lines[0]) == json{{"event", "content"}, {"text", "Checking."}});
        CHECK(json::parse(lines[1])["event"] == "tool_call_begin");
        CHECK(json::parse(lines[2])["event"] == "tool_call_arguments");
        CHECK(json::parse(lines[3])["event"] == "tool_call_end");
        CHECK(json::parse(lines[3])["accepted"] == true);
        std::string rest;
        bool all_content = true;
        for (std::size_t i = 4; i < lines.size(); ++i) {
            const json e = json::parse(lines[i]);
            all_content = all_content && e["event"] == "content";
            rest += e.value("text", "");
        }
        CHECK(all_content);  // and no "end": the result would not be the whole input's
        // How much text the stream releases past the scan limit is the stream's business
        // (today: none until finish); what it printed is the input's text, in order.
        CHECK_FALSE(rest.empty());
        CHECK(rest.size() < 1049576);
        std::string expected_rest;
        while (expected_rest.size() < rest.size()) expected_rest += "\ny";
        CHECK(rest == expected_rest.substr(0, rest.size()));
    }
    SECTION("a file one byte over the limit is refused; at the limit its rest is content") {
        const std::string profile = s.write("small.json", R"({"name": "small", "syntax": {"call": {"open": "<c>", "close": "</c>"}},
                                                              "settings": {"limits": {"max_input_bytes": 1000}}})");
        const std::string cap = "1049576 bytes (limits.max_input_bytes, 1000, plus a margin of 1048576)";
        const std::string over = s.write("over.txt", std::string(1049577, 'x'));
        Run r = run_cli(s, "parse " + shell_quote(over) + " --profile-file " + shell_quote(profile));
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err == "toolgram: cannot read " + over + ": longer than " + cap + "\n");

        const std::string at = s.write("at.txt", std::string(1049576, 'x'));
        r = run_cli(s, "parse " + shell_quote(at) + " --profile-file " + shell_quote(profile));
        CHECK(r.exit_code == 0);
        const json result = json::parse(r.out);
        CHECK(result["content"].get<std::string>().size() == 1049576);
        CHECK(result["telemetry"]["rejected"].size() == 1);  // the library's own limit, named

        // A JSONL line over the limit: its error as soon as it passes, the rest skipped, the run goes on.
        const std::string batch = s.write("batch.jsonl", R"({"id": "a", "text": "one"})" "\n" R"({"id": "b", "text": ")" +
                                                             std::string(1100000, 'y') + "\"}\n" +
                                                             R"({"id": "c", "text": "three"})" + "\n");
        r = run_cli(s, "parse --jsonl " + shell_quote(batch) + " --profile-file " + shell_quote(profile));
        CHECK(r.exit_code == 0);
        const auto lines = lines_of(r.out);
        REQUIRE(lines.size() == 3);
        CHECK(json::parse(lines[0])["content"] == "one");
        CHECK(json::parse(lines[1]) ==
              json{{"id", nullptr}, {"error", {{"message", "line 2: longer than " + cap + "; skipped"}}}});
        CHECK(json::parse(lines[2])["content"] == "three");
    }
    SECTION("coverage: /dev/zero as a JSONL input ends at the whole-input limit") {
        const Run r = run_cli(s, "coverage /dev/zero --model m --format json");
        CHECK(r.exit_code == 3);
        const json report = json::parse(r.out);
        CHECK(report["outputs"].empty());
        CHECK(report["problems"] ==
              json::array({{{"where", "/dev/zero:1"}, {"message", "the line is longer than " + default_cap + "; skipped"}},
                           {{"where", "/dev/zero"},
                            {"message", "cannot read /dev/zero: longer than 268435456 bytes (the limit for a coverage "
                                        "input); the rest of the file was not read"}}}));
    }
    SECTION("a FIFO still works for parse and stream, read as its data arrives") {
        const std::string fifo = s.fifo("model.fifo");
        const std::string text = shell_quote(s.write("in.txt", tag_call));
        const std::string writer = "(cat " + text + " > " + shell_quote(fifo) + " &); ";
        Run r = run_cli(s, "parse " + shell_quote(fifo) + " --profile tag", 60, writer);
        CHECK(r.exit_code == 0);
        CHECK(json::parse(r.out)["calls"][0]["name"] == "get_weather");
        r = run_cli(s, "stream " + shell_quote(fifo) + " --profile tag", 60, writer);
        CHECK(r.exit_code == 0);
        CHECK(json::parse(lines_of(r.out).back())["event"] == "end");
    }
}

// ---------------------------------------------------------------------------------------
// A directory where a file is expected.

TEST_CASE("hostile files: a directory given as input is exit 3 with a message", "[hostile-files][cli]") {
    Scratch s;
    const std::string dir = s.path("folder");
    fs::create_directories(dir);
    const std::string d = shell_quote(dir);
    const std::string input = shell_quote(s.write("in.txt", "hi"));
    s.write("c/m/a.txt", "hi");
    const std::string corpus = shell_quote(s.path("c/m"));
    struct Row {
        std::string args;
        std::string err;
    };
    const std::string is_dir = dir + ": it is a directory\n";
    const std::vector<Row> rows = {
        {"parse " + d, "toolgram: cannot read " + is_dir},
        {"parse - < " + d, "toolgram: cannot read stdin: it is a directory\n"},
        {"parse --jsonl " + d, "toolgram: cannot read " + is_dir},
        {"stream " + d, "toolgram: cannot read " + is_dir},
        {"parse " + input + " --tools " + d, "toolgram: cannot read " + is_dir},
        {"instruction --profile tag --tools " + d, "toolgram: cannot read " + is_dir},
        {"parse " + input + " --profile-file " + d, "toolgram: profile file " + dir + ": cannot read: it is a directory\n"},
        {"coverage " + corpus + " --tools " + d, "toolgram: cannot read tools file " + is_dir},
        {"coverage " + corpus + " --diff " + d, "toolgram: cannot read earlier report " + is_dir},
    };
    for (const auto& row : rows) {
        CAPTURE(row.args);
        const Run r = run_cli(s, row.args);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err == row.err);
    }
}

// ---------------------------------------------------------------------------------------
// Coverage: what a corpus folder may make toolgram read.

TEST_CASE("hostile files: a coverage case's profile_file never leads out of its folder", "[hostile-files][coverage]") {
    Scratch s;
    const std::string secret = "SECRET-BYTES-4711";
    s.write("outside/secret.json", secret);
    s.write("c/m/own.profile.json", slurp(source_dir + "/docs/profiles/hermes.json"));
    s.symlink("c/m/secret_link.json", "../../outside/secret.json");
    s.symlink("c/m/zero_link", "/dev/zero");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"abs", "/etc/hostname"},
        {"dev", "/dev/zero"},
        {"devlink", "zero_link"},
        {"empty", ""},
        {"link", "secret_link.json"},
        {"ok", "own.profile.json"},
        {"sub", "sub/../../../outside/secret.json"},
        {"up", "../../../../etc/hostname"},
    };
    for (const auto& [name, file] : cases) {
        s.write("c/m/" + name + ".txt", "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
        s.write("c/m/" + name + ".expect.json", json{{"profile_file", file}}.dump());
    }
    s.write("c/m/number.txt", "x");
    s.write("c/m/number.expect.json", R"({"profile_file": 5})");

    const Run r = run_cli(s, "coverage " + shell_quote(s.path("c/m")) + " --format json");
    INFO(r.err);
    CHECK(r.exit_code == 3);
    CHECK(r.out.find(secret) == std::string::npos);
    CHECK(r.err.find(secret) == std::string::npos);
    const json report = json::parse(r.out);
    REQUIRE(report["outputs"].size() == 1);
    CHECK(report["outputs"][0]["id"] == "m/ok");
    CHECK(report["outputs"][0]["profile"] == "hermes");
    CHECK(report["outputs"][0]["calls"].size() == 1);
    const std::string in_folder = "it must name a file in the case's folder";
    const json expected = json::parse(R"([
        {"where": "m/abs", "message": "\"profile_file\" \"/etc/hostname\" is an absolute path; it must name a file in the case's folder"},
        {"where": "m/dev", "message": "\"profile_file\" \"/dev/zero\" is an absolute path; it must name a file in the case's folder"},
        {"where": "m/devlink", "message": "\"profile_file\" \"zero_link\" leads out of the case's folder through a symbolic link"},
        {"where": "m/empty", "message": "\"profile_file\" must be a non-empty string, the name of a file in the case's folder"},
        {"where": "m/link", "message": "\"profile_file\" \"secret_link.json\" leads out of the case's folder through a symbolic link"},
        {"where": "m/number", "message": "\"profile_file\" must be a non-empty string, the name of a file in the case's folder"},
        {"where": "m/sub", "message": "\"profile_file\" \"sub/../../../outside/secret.json\" leads out of the case's folder"},
        {"where": "m/up", "message": "\"profile_file\" \"../../../../etc/hostname\" leads out of the case's folder"}
    ])");
    CHECK(report["problems"] == expected);

    // The project's own corpus keeps its profile files beside its cases: its copy of the
    // shipped pythonic.json must stay the same file.
    const toolgram::coverage::Inputs own = toolgram::coverage::load_inputs({source_dir + "/corpus/declared"}, {});
    CHECK(own.problems.empty());
    CHECK(slurp(source_dir + "/corpus/declared/pythonic.json") == slurp(source_dir + "/docs/profiles/pythonic.json"));
}

TEST_CASE("hostile files: symlink loops, FIFOs, unreadable entries and folders in a corpus are per-case problems",
          "[hostile-files][coverage]") {
    Scratch s;
    const std::string m = fs::absolute(s.path("c/m")).string();
    const std::string n = fs::absolute(s.path("c/n")).string();
    s.write("c/m/good.txt", "plain text");
    s.symlink("c/m/loop.txt", "loop.txt");
    s.fifo("c/m/fifo.txt");
    fs::create_directories(s.path("c/m/dir.txt"));
    s.symlink("c/m/mem.txt", "/proc/self/mem");  // opens as a regular file, fails to read (EIO), even as root
    s.write("c/m/e1.txt", "x");
    s.fifo("c/m/e1.expect.json");
    s.write("c/m/e2.txt", "x");
    s.symlink("c/m/e2.expect.json", "e2.expect.json");
    s.write("c/m/e3.txt", "x");
    fs::create_directories(s.path("c/m/e3.expect.json"));
    s.write("c/n/x.txt", "x");
    s.fifo("c/n/tools.json");
    s.symlink("c/loopdir", "loopdir");

    const Run r = run_cli(s, "coverage " + shell_quote(s.path("c")) + " --format json");
    INFO(r.err);
    CHECK(r.exit_code == 3);
    const json report = json::parse(r.out);
    REQUIRE(report["outputs"].size() == 1);
    CHECK(report["outputs"][0]["id"] == "m/good");
    CHECK(report["outputs"][0]["content"] == "plain text");
    const json expected = {
        {{"where", "loopdir"}, {"message", "cannot read " + s.path("c/loopdir") + ": Too many levels of symbolic links"}},
        {{"where", "m/dir"}, {"message", "cannot read " + m + "/dir.txt: it is a directory"}},
        {{"where", "m/e1"}, {"message", "cannot read " + m + "/e1.expect.json: it is a FIFO, not a regular file"}},
        {{"where", "m/e2"}, {"message", "cannot read " + m + "/e2.expect.json: Too many levels of symbolic links"}},
        {{"where", "m/e3"}, {"message", "cannot read " + m + "/e3.expect.json: it is a directory"}},
        {{"where", "m/fifo"}, {"message", "cannot read " + m + "/fifo.txt: it is a FIFO, not a regular file"}},
        {{"where", "m/loop"}, {"message", "cannot read " + m + "/loop.txt: Too many levels of symbolic links"}},
        {{"where", "m/mem"}, {"message", "cannot read " + m + "/mem.txt: Input/output error"}},
        {{"where", "n/x"}, {"message", "cannot read " + n + "/tools.json: it is a FIFO, not a regular file"}},
    };
    CHECK(report["problems"] == expected);
}

// ---------------------------------------------------------------------------------------
// The command line's own hygiene.

TEST_CASE("hostile files: numeric options are digits only and in range, tags are not empty (exit 2)",
          "[hostile-files][cli]") {
    Scratch s;
    const std::string input = shell_quote(s.write("in.txt", tag_call));
    struct Row {
        std::string args;
        std::string err;
    };
    const std::string chunk = "toolgram: --chunk needs a whole number from 1 to 1073741824, got ";
    const std::string fallback = "toolgram: --fallback-max-bytes needs a whole number from 1 to 1073741824, got ";
    const std::vector<Row> rows = {
        {"stream --chunk -1 " + input, chunk + "\"-1\"\n"},
        {"stream --chunk 5abc " + input, chunk + "\"5abc\"\n"},
        {"stream --chunk '' " + input, chunk + "\"\"\n"},
        {"stream --chunk +5 " + input, chunk + "\"+5\"\n"},
        {"stream --chunk ' 5' " + input, chunk + "\" 5\"\n"},
        {"stream --chunk 0 " + input, chunk + "\"0\"\n"},
        {"stream --chunk 1073741825 " + input, chunk + "\"1073741825\"\n"},
        {"stream --chunk 99999999999999999999999 " + input, chunk + "\"99999999999999999999999\"\n"},
        {"stream " + input + " --chunk", "toolgram: --chunk needs a value\n"},
        {"parse " + input + " --fallback-max-bytes 5abc", fallback + "\"5abc\"\n"},
        {"parse " + input + " --fallback-max-bytes -1", fallback + "\"-1\"\n"},
        {"parse " + input + " --fallback-max-bytes ''", fallback + "\"\"\n"},
        {"parse " + input + " --fallback-max-bytes 0", fallback + "\"0\"\n"},
        {"stream " + input + " --fallback-max-bytes 0x10", fallback + "\"0x10\"\n"},
        {"parse " + input + " --tag-open ''", "toolgram: --tag-open needs a non-empty tag\n"},
        {"parse " + input + " --tag-close ''", "toolgram: --tag-close needs a non-empty tag\n"},
        {"stream " + input + " --tag-close ''", "toolgram: --tag-close needs a non-empty tag\n"},
    };
    for (const auto& row : rows) {
        CAPTURE(row.args);
        const Run r = run_cli(s, row.args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == row.err);
    }
    // The edges of the ranges are fine.
    const Run big_chunk = run_cli(s, "stream --chunk 1073741824 --profile tag " + input);
    CHECK(big_chunk.exit_code == 0);
    CHECK(json::parse(lines_of(big_chunk.out).back())["result"]["calls"].size() == 1);
    const Run one = run_cli(s, "parse --fallback-max-bytes 1 --profile tag " + input);
    CHECK(one.exit_code == 0);
}

TEST_CASE("hostile files: output that cannot be written is exit 4, not success", "[hostile-files][cli]") {
    Scratch s;
    const std::string input = shell_quote(s.write("in.txt", tag_call));
    const std::string batch = shell_quote(s.write("batch.jsonl", json{{"id", 1}, {"text", tag_call}}.dump() + "\n"));
    s.write("c/m/a.txt", "hi");
    for (const std::string& args : std::vector<std::string>{
             "parse " + input, "parse --jsonl " + batch, "parse --jsonl " + batch + " --summary", "stream " + input,
          "instruction --profile tag", "profiles", "grammars", "parse --help",
          "coverage " + shell_quote(s.path("c/m"))}) {
        CAPTURE(args);
        const Run r = run_cli(s, args + " > /dev/full");
        CHECK(r.exit_code == 4);
        CHECK(r.err == "toolgram: cannot write the output: No space left on device\n");
    }
}

TEST_CASE("hostile files: each JSONL result is written as soon as its line is read", "[hostile-files][cli]") {
    // The batch is fed through a pipe one line at a time, and each result must arrive
    // before the next line is sent: a result is never held back where a later crash or
    // kill could lose it.
    int to_child[2], from_child[2];
    REQUIRE(pipe(to_child) == 0);
    REQUIRE(pipe(from_child) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        execl(TOOLGRAM_CLI, TOOLGRAM_CLI, "parse", "--jsonl", "-", "--profile", "tag", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    std::string pending;
    auto next_result = [&]() -> std::string {
        for (;;) {
            if (const auto nl = pending.find('\n'); nl != std::string::npos) {
                std::string line = pending.substr(0, nl);
                pending.erase(0, nl + 1);
                return line;
            }
            pollfd p{from_child[0], POLLIN, 0};
            if (poll(&p, 1, 30000) <= 0) return "(no result within 30 s)";
            char buffer[4096];
            const ssize_t got = read(from_child[0], buffer, sizeof buffer);
            if (got <= 0) return "(the output ended)";
            pending.append(buffer, static_cast<std::size_t>(got));
        }
    };
    auto send = [&](const json& line) {
        const std::string text = line.dump() + "\n";
        REQUIRE(write(to_child[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    };
    send({{"id", "first"}, {"text", tag_call}});
    const std::string first = next_result();
    send({{"id", "second"}, {"text", "plain"}});
    const std::string second = next_result();
    close(to_child[1]);
    const std::string after_end = next_result();
    close(from_child[0]);
    int status = 0;
    const bool answered = first.rfind('{', 0) == 0 && second.rfind('{', 0) == 0;
    if (!answered) kill(pid, SIGKILL);
    waitpid(pid, &status, 0);

    INFO(first << "\n" << second);
    REQUIRE(answered);
    CHECK(json::parse(first)["id"] == "first");
    CHECK(json::parse(first)["calls"].size() == 1);
    CHECK(json::parse(second)["id"] == "second");
    CHECK(after_end == "(the output ended)");
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

}  // namespace hostile_files_test
