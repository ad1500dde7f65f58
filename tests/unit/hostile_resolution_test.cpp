// No silent resolution (issue 13, item 6): where the output leaves two readings open, or
// proves it was cut short, toolgram refuses the call with a reason instead of picking one
// reading quietly, and a call it healed says so wherever it is handed on.
//
// One TEST_CASE per class an attacker found: alias keys that disagree (`"tool"` beside
// `"name"`), keys that become one when invalid UTF-8 is replaced, profile files whose
// markers meet their reasoning delimiters, values cut after a ',' that promised more, and
// healed calls (the `healed` field, Settings::accept_healed_calls, `--refuse-healed`).
// Each asserts the whole outcome (calls exactly, rejection reasons exactly, the format
// error, content, repairs) and that a stream, fed whole, a byte at a time and in odd
// chunks, ends with the one-shot result and ends each call as that result has it.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace hostile_resolution_test {

using toolgram::json;
using toolgram::Parser;
using toolgram::Result;

namespace {

// Tools an attacker would like to confuse: a harmless listing and a destructive twin.
const std::vector<toolgram::Tool>& tools() {
    static const std::vector<toolgram::Tool> t = toolgram::tools_from_json(json::parse(R"([
      {"name": "list_files", "parameters": {"type": "object",
        "properties": {"path": {"type": "string"}, "recursive": {"type": "boolean"}}, "required": ["path"]}},
      {"name": "delete_files", "parameters": {"type": "object",
        "properties": {"path": {"type": "string"}}, "required": ["path"]}},
      {"name": "configure", "parameters": {"type": "object",
        "properties": {"options": {"type": ["object", "string"]}, "tags": {"type": "array"}}}}
    ])"));
    return t;
}

Parser parser_for(const std::string& profile, bool accept_healed = true) {
    toolgram::Profile p = toolgram::builtin_profile(profile);
    p.settings.accept_healed_calls = accept_healed;
    return Parser(p, tools());
}

json call(const std::string& id, const std::string& name, json arguments, bool healed = false) {
    json c = {{"id", id}, {"name", name}, {"arguments", std::move(arguments)}};
    if (healed) c["healed"] = true;
    return c;
}

std::vector<std::string> reasons_of(const Result& r) {
    std::vector<std::string> out;
    for (const auto& x : r.telemetry.rejected) out.push_back(x.reason);
    return out;
}

// The stream, cut three ways, against the one-shot result: the same result, and each
// call ended as the result holds it (healed flag included).
void check_stream_equals_one_shot(const Parser& parser, const std::string& text, const Result& want) {
    for (const std::size_t chunk : {text.size() + 1, std::size_t{1}, std::size_t{5}}) {
        CAPTURE(chunk);
        toolgram::StreamParser stream(parser);
        std::vector<toolgram::StreamEvent> events;
        for (std::size_t at = 0; at < text.size(); at += chunk)
            for (auto& e : stream.feed(std::string_view(text).substr(at, chunk))) events.push_back(std::move(e));
        auto finished = stream.finish();
        for (auto& e : finished.events) events.push_back(std::move(e));
        CHECK(toolgram::to_json(finished.result) == toolgram::to_json(want));
        std::vector<json> ended;
        for (const auto& e : events) {
            if (e.kind != toolgram::StreamEvent::Kind::call_end || !e.call) continue;
            ended.push_back(call(e.call->id, e.call->name, e.call->arguments, e.call->healed));
            const json event = toolgram::to_json(e);
            CHECK(event.value("healed", false) == e.call->healed);
        }
        CHECK(json(ended) == toolgram::to_json(want)["calls"]);
    }
}

// A refused call: no call, exactly these reasons, the first as the format error's
// message, and the content left when the syntax is taken out.
void check_refused(const Parser& parser, const std::string& text, const std::vector<std::string>& reasons,
                   const std::string& content) {
    CAPTURE(text);
    const Result r = parser.parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(toolgram::to_json(r)["calls"] == json::array());
    CHECK(reasons_of(r) == reasons);
    REQUIRE(r.error.has_value());
    CHECK(r.error->message == reasons.front());
    CHECK(r.content == content);
    CHECK(r.telemetry.saw_tool_syntax);
    check_stream_equals_one_shot(parser, text, r);
}

// An accepted outcome: exactly these calls, no rejection, these telemetry repairs.
void check_accepted(const Parser& parser, const std::string& text, const json& calls,
                    const std::vector<std::string>& repairs, const std::string& content) {
    CAPTURE(text);
    const Result r = parser.parse(text);
    INFO(toolgram::to_json(r).dump(2));
    CHECK(toolgram::to_json(r)["calls"] == calls);
    CHECK(reasons_of(r).empty());
    CHECK_FALSE(r.error.has_value());
    CHECK(r.telemetry.repairs == repairs);
    CHECK(r.content == content);
    check_stream_equals_one_shot(parser, text, r);
}

const std::string ambiguous = "; which counts is ambiguous";

}  // namespace

TEST_CASE("alias keys that disagree are refused like a repeated key, and alias keys that agree are one value, reported",
          "[resolution][aliases]") {
    const Parser hermes = parser_for("hermes");
    SECTION("JSON call objects (block_reader's read_call_object: every JSON family)") {
        check_refused(hermes,
                      "Listing now.\n<tool_call>{\"name\": \"list_files\", \"tool\": \"delete_files\", "
                      "\"arguments\": {\"path\": \"/\"}}</tool_call>",
                      {"the call gives its name under both \"name\" and \"tool\", with different values" + ambiguous},
                      "Listing now.");
        check_refused(hermes,
                      "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/tmp\"}, \"parameters\": "
                      "{\"path\": \"/\"}}</tool_call>",
                      {"the call gives its arguments under both \"arguments\" and \"parameters\", with different values" +
                       ambiguous},
                      "");
        // OpenAI's nested object and the outer one are both read: neither is dropped unread.
        check_refused(hermes,
                      "<tool_call>{\"type\": \"function\", \"name\": \"delete_files\", \"function\": {\"name\": "
                      "\"list_files\", \"arguments\": {\"path\": \"/\"}}}</tool_call>",
                      {"the call gives its name under both \"function.name\" and \"name\", with different values" +
                       ambiguous},
                      "");
        check_refused(hermes,
                      "<tool_call>{\"type\": \"function\", \"function\": {\"name\": \"list_files\", \"arguments\": "
                      "{\"path\": \"/tmp\"}}, \"arguments\": {\"path\": \"/\"}}</tool_call>",
                      {"the call gives its arguments under both \"function.arguments\" and \"arguments\", with different "
                       "values" +
                       ambiguous},
                      "");
        check_refused(hermes,
                      "<tool_call>{\"id\": \"a1\", \"call_id\": \"b2\", \"name\": \"list_files\", \"arguments\": "
                      "{\"path\": \"/\"}}</tool_call>",
                      {"the call gives its id under both \"id\" and \"call_id\", with different values" + ambiguous}, "");
        // The same value under two aliases is one value written twice.
        check_accepted(hermes,
                       "<tool_call>{\"name\": \"list_files\", \"tool_name\": \"list_files\", \"arguments\": {\"path\": "
                       "\"/tmp\"}, \"args\": {\"path\": \"/tmp\"}}</tool_call>",
                       json::array({call("call_0", "list_files", {{"path", "/tmp"}})}), {"alias_keys_agree"}, "");
    }
    SECTION("the same through other JSON families: a bare llama3_json object, a marker payload") {
        check_refused(parser_for("llama3_json"),
                      "{\"name\": \"list_files\", \"parameters\": {\"path\": \"/tmp\"}, \"arguments\": {\"path\": \"/\"}}",
                      {"the call gives its arguments under both \"arguments\" and \"parameters\", with different values" +
                       ambiguous},
                      "");
        check_refused(parser_for("marker"),
                      "TOOL_CALL {\"tool_name\": \"list_files\", \"name\": \"delete_files\", \"parameters\": {\"path\": "
                      "\"/\"}}",
                      {"the call gives its name under both \"name\" and \"tool_name\", with different values" + ambiguous},
                      "");
    }
    SECTION("XML calls (actions/xml.cpp): attributes, child elements, parameter keys, arguments twice") {
        const Parser xml = parser_for("xml");
        check_refused(xml,
                      "<invoke name=\"list_files\" tool=\"delete_files\"><parameter name=\"path\">/</parameter></invoke>",
                      {"<invoke> gives its name as both attribute name and attribute tool, with different values" +
                       ambiguous},
                      "");
        check_refused(xml,
                      "<tool_call><name>list_files</name><tool_name>delete_files</tool_name><arguments>{\"path\": "
                      "\"/\"}</arguments></tool_call>",
                      {"<tool_call> gives its name as both <name> and <tool_name>, with different values" + ambiguous},
                      "");
        check_refused(xml,
                      "<invoke name=\"list_files\" name=\"delete_files\"><parameter name=\"path\">/</parameter></invoke>",
                      {"<invoke> gives its name twice, in attribute name, with different values" +
                       ambiguous},
                      "");
        check_refused(xml,
                      "<invoke name=\"list_files\"><parameter name=\"path\" key=\"recursive\">/</parameter></invoke>",
                      {"<parameter> gives its key as both attribute name and attribute key, with different values" +
                       ambiguous},
                      "");
        check_refused(xml,
                      "<invoke name=\"list_files\"><arguments>{\"path\": \"/tmp\"}</arguments><parameter "
                      "name=\"path\">/</parameter></invoke>",
                      {"<invoke> gives its arguments both in <arguments> and as <parameter> elements" + ambiguous}, "");
        check_refused(xml,
                      "<tool_call name=\"delete_files\">{\"name\": \"list_files\", \"arguments\": {\"path\": "
                      "\"/\"}}</tool_call>",
                      {"<tool_call> gives its name as both attribute name and the body's call object, with different "
                       "values" +
                       ambiguous},
                      "");
        check_accepted(xml,
                       "<invoke name=\"list_files\" tool=\"list_files\"><parameter name=\"path\">/tmp</parameter></invoke>",
                       json::array({call("call_0", "list_files", {{"path", "/tmp"}})}), {"alias_keys_agree"}, "");
    }
    SECTION("named-parameter families: an attribute given twice with different values") {
        check_refused(parser_for("minimax_m2"),
                      "<minimax:tool_call>\n<invoke name=\"list_files\" name=\"delete_files\">\n<parameter "
                      "name=\"path\">/</parameter>\n</invoke>\n</minimax:tool_call>",
                      {"the call repeats a key; which value counts is ambiguous"}, "");
        check_refused(parser_for("minimax_m2"),
                      "<minimax:tool_call>\n<invoke name=\"list_files\">\n<parameter name=\"path\" "
                      "name=\"recursive\">/</parameter>\n</invoke>\n</minimax:tool_call>",
                      {"the call repeats a key; which value counts is ambiguous"}, "");
        // Past a tag's first few attributes the repeat is found through an index: still found.
        std::string many;
        for (int i = 0; i < 40; ++i) many += " a" + std::to_string(i) + "=\"x\"";
        check_refused(parser_for("minimax_m2"),
                      "<minimax:tool_call>\n<invoke name=\"list_files\"" + many +
                          " name=\"delete_files\">\n<parameter name=\"path\">/</parameter>\n</invoke>\n</minimax:tool_call>",
                      {"the call repeats a key; which value counts is ambiguous"}, "");
    }
}

TEST_CASE("keys that become one once invalid UTF-8 is replaced are refused like a repeated key, at any depth",
          "[resolution][utf8]") {
    const Parser hermes = parser_for("hermes");
    const std::string fffd = "\xEF\xBF\xBD";
    const auto merged = [&](const std::string& key) {
        return "the call repeats the key \"" + key + fffd + "\" once invalid UTF-8 is replaced; which value counts is "
               "ambiguous";
    };
    check_refused(hermes,
                  "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\xff\": \"/tmp\", \"path\xfe\": "
                  "\"/\"}}</tool_call>",
                  {merged("path")}, "");
    check_refused(hermes,
                  "<tool_call>{\"name\": \"configure\", \"arguments\": {\"options\": {\"mode\xff\": \"safe\", "
                  "\"mode\xfe\": \"unsafe\"}}}</tool_call>",
                  {merged("mode")}, "");
    check_refused(hermes,
                  "<tool_call>{\"name\": \"configure\", \"arguments\": {\"tags\": [{\"k\xc3\": 1}, {\"k\xff\": 1, "
                  "\"k\xe2\x82\": 2}]}}</tool_call>",
                  {merged("k")}, "");
    // An escaped U+FFFD and a raw invalid byte are the same key once the byte is replaced.
    check_refused(hermes,
                  "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\\ufffd\": \"/tmp\", \"path\xff\": "
                  "\"/\"}}</tool_call>",
                  {merged("path")}, "");
    // Arguments sent as a JSON string are read the same way.
    check_refused(hermes,
                  "<tool_call>{\"name\": \"configure\", \"arguments\": \"{\\\"options\\\": {\\\"a\xff\\\": 1, "
                  "\\\"a\xfe\\\": 2}}\"}</tool_call>",
                  {merged("a")}, "");
    // XML parameters, whose keys are the model's bytes too.
    check_refused(parser_for("xml"),
                  "<invoke name=\"list_files\"><parameter name=\"path\xff\">/tmp</parameter><parameter "
                  "name=\"path\xfe\">/</parameter></invoke>",
                  {merged("path")}, "");
    // One invalid key alone is no repeat: replaced and reported.
    check_accepted(hermes,
                   "<tool_call>{\"name\": \"configure\", \"arguments\": {\"options\": {\"mode\xff\": \"safe\"}}}</tool_call>",
                   json::array({call("call_0", "configure", {{"options", {{"mode" + fffd, "safe"}}}})}),
                   {"invalid_utf8_replaced"}, "");
    // A parameter's text typed as an object would resolve its repeat silently: it does not
    // fit as an object, and stays the text it was (a string the schema also allows).
    check_accepted(parser_for("xml"),
                   "<invoke name=\"configure\"><parameter name=\"options\">{\"a\xff\": 1, \"a\xfe\": "
                   "2}</parameter></invoke>",
                   json::array({call("call_0", "configure", {{"options", "{\"a" + fffd + "\": 1, \"a" + fffd + "\": 2}"}})}),
                   {"invalid_utf8_replaced"}, "");
}

TEST_CASE("a profile file whose openers begin with a reasoning delimiter is refused at load, naming both fields",
          "[resolution][profile-file]") {
    const auto file = [](json syntax, json settings = nullptr, json fallbacks = nullptr) {
        json f = {{"name", "clash"}, {"syntax", std::move(syntax)}};
        if (!settings.is_null()) f["settings"] = std::move(settings);
        if (!fallbacks.is_null()) f["fallbacks"] = std::move(fallbacks);
        return f;
    };
    const auto error_of = [](const json& f) -> std::string {
        try {
            static_cast<void>(toolgram::profile_from_json(f));
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "(loaded)";
    };
    const std::string lost = ": a reasoning block would open where every call begins, so no call could be read";
    const std::string closed = ": a reasoning block would close where every call begins, so no call could be read";
    const std::string defaults = ", the default list: the file sets no reasoning)";

    SECTION("refused: every call would begin inside reasoning") {
        CHECK(error_of(file({{"call", {{"open", "<think>"}, {"close", "</call>"}}}})) ==
              "syntax.call.open: \"<think>\" starts with settings.reasoning[0].open (\"<think>\"" + defaults + lost);
        CHECK(error_of(file({{"call", {{"open", "</think>"}, {"close", "</call>"}}}},
                            {{"reasoning", {{{"open", "<think>"}, {"close", "</think>"}, {"implicit_open", false}}}}})) ==
              "syntax.call.open: \"</think>\" starts with settings.reasoning[0].close (\"</think>\")" + closed);
        CHECK(error_of(file({{"call", {{"open", "<tool_call>"}, {"close", "</tool_call>"}}}},
                            {{"reasoning", {{{"open", "<tool"}, {"close", "</tool>"}}}}})) ==
              "syntax.call.open: \"<tool_call>\" starts with settings.reasoning[0].open (\"<tool\")" + lost);
        CHECK(error_of(file({{"call", {{"open", json::array({"<call>", "[THINK]call"})}, {"close", "</call>"}}}})) ==
              "syntax.call.open[1]: \"[THINK]call\" starts with settings.reasoning[1].open (\"[THINK]\"" + defaults + lost);
        CHECK(error_of(file({{"section", {{"open", "<think>"}, {"close", "</calls>"}}},
                             {"call", {{"open", "<fn="}, {"close", "</fn>"}}},
                             {"header", {{"end", ">"}}}})) ==
              "syntax.section.open: \"<think>\" starts with settings.reasoning[0].open (\"<think>\"" + defaults + lost);
        // A fallback's markers too: the tag grammar's opener comes from the settings.
        CHECK(error_of(file({{"call", {{"open", "<call>"}, {"close", "</call>"}}}}, {{"tag_open", "[THINK]call"}},
                            json::array({"tag"}))) ==
              "fallbacks[0] (\"tag\", marker \"[THINK]call\"): \"[THINK]call\" starts with settings.reasoning[1].open "
              "(\"[THINK]\"" + defaults + lost);
        // A syntax built in code meets the same check when the Parser is built.
        toolgram::Profile p = toolgram::profile_from_json(file({{"call", {{"open", "<call>"}, {"close", "</call>"}}}}));
        auto syntax = std::make_shared<toolgram::DeclaredSyntax>(*p.settings.declared_syntax);
        syntax->call.open = {"<think>"};
        p.settings.declared_syntax = syntax;
        try {
            Parser parser(p);
            FAIL("the Parser took a syntax whose calls would all be reasoning");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()) == "profile \"clash\": syntax.call.open: \"<think>\" starts with "
                                           "settings.reasoning[0].open (\"<think>\")" + lost);
        }
    }

    SECTION("refused: a closer that begins with a reasoning delimiter loses every call after the first") {
        // Issue 29, item 13: with a call closer `</think>`, a call that is not read whole
        // (or reasoning_start inside) ends a reasoning block at its closer, and the calls
        // before it become reasoning; with `<think>`, every call opens one. Loaded before.
        const std::string ends = ": a reasoning block would close where every call ends, so the calls before it could "
                                 "be read as reasoning";
        const std::string opens = ": a reasoning block would open where every call ends, so the calls after it would be "
                                  "read as reasoning";
        CHECK(error_of(file({{"call", {{"open", "<call>"}, {"close", "</think>"}}}})) ==
              "syntax.call.close: \"</think>\" starts with settings.reasoning[0].close (\"</think>\"" + defaults + ends);
        CHECK(error_of(file({{"call", {{"open", "<call>"}, {"close", json::array({"</call>", "<think>"})}}}})) ==
              "syntax.call.close[1]: \"<think>\" starts with settings.reasoning[0].open (\"<think>\"" + defaults + opens);
        CHECK(error_of(file({{"call", {{"open", "<call>"}, {"close", "</end>"}}}},
                            {{"reasoning", {{{"open", "<r>"}, {"close", "</end>"}}}}})) ==
              "syntax.call.close: \"</end>\" starts with settings.reasoning[0].close (\"</end>\")" + ends);
        CHECK(error_of(file({{"section", {{"open", "<calls>"}, {"close", "[/THINK]\n"}}},
                             {"call", {{"open", "<fn="}, {"close", "</fn>"}}},
                             {"header", {{"end", ">"}}}})) ==
              "syntax.section.close: \"[/THINK]\\n\" starts with settings.reasoning[1].close (\"[/THINK]\"" + defaults +
                  ends);
        // A syntax built in code meets the same check when the Parser is built.
        toolgram::Profile p = toolgram::profile_from_json(file({{"call", {{"open", "<call>"}, {"close", "</call>"}}}}));
        auto syntax = std::make_shared<toolgram::DeclaredSyntax>(*p.settings.declared_syntax);
        syntax->call.close = {"</think>"};
        p.settings.declared_syntax = syntax;
        try {
            Parser parser(p);
            FAIL("the Parser took a syntax whose closer ends reasoning");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()) == "profile \"clash\": syntax.call.close: \"</think>\" starts with "
                                           "settings.reasoning[0].close (\"</think>\")" + ends);
        }
    }

    SECTION("loaded: meetings that leave every call readable") {
        const std::string text = "Sure.\n<call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/tmp\"}}</call>\nDone.";
        const json listed = json::array({call("call_0", "list_files", {{"path", "/tmp"}})});
        struct Row {
            const char* what;
            json file;
            std::string text;
        };
        const json call_markers = {{"open", "<call>"}, {"close", "</call>"}};
        const std::vector<Row> rows = {
            {"a content marker equal to the call opener (content markers only leave the content)",
             file({{"call", call_markers}}, {{"content_markers", {"<call>"}}}), text},
            {"a content marker equal to the call closer", file({{"call", call_markers}}, {{"content_markers", {"</call>"}}}),
             text},
            {"a reasoning opener inside the call opener, not at its start", file({{"call", {{"open", "[<think>]"}, {"close", "</call>"}}}}),
             "Sure.\n[<think>]{\"name\": \"list_files\", \"arguments\": {\"path\": \"/tmp\"}}</call>\nDone."},
            {"a call opener that is a prefix of a reasoning opener",
             file({{"call", call_markers}}, {{"reasoning", {{{"open", "<call>!"}, {"close", "</call>!"}}}}}), text},
        };
        for (const auto& row : rows) {
            CAPTURE(row.what);
            REQUIRE(error_of(row.file) == "(loaded)");
            check_accepted(Parser(toolgram::profile_from_json(row.file), tools()), row.text, listed, {}, "Sure.\nDone.");
        }
    }
}

TEST_CASE("an output cut after a ',' promised more: the call is refused, not healed", "[resolution][healing]") {
    const std::string more = "the output ends after a ',', so more was coming: a call cut short is never healed";
    const Parser hermes = parser_for("hermes");
    // In an object, an array of calls, an array value, a Python call's arguments, a Python
    // call list, and Gemma's object syntax: a ',' then the end.
    check_refused(hermes, "I'll list it.\n<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/\", ", {more},
                  "I'll list it.");
    check_refused(hermes, "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/\"},", {more}, "");
    check_refused(parser_for("tag"), "<tool_call>[{\"name\": \"list_files\", \"arguments\": {\"path\": \"/\"}}, ", {more}, "");
    check_refused(hermes, "<tool_call>{\"name\": \"configure\", \"arguments\": {\"tags\": [\"a\", ", {more}, "");
    check_refused(parser_for("pythonic"), "[list_files(path=\"/\", ", {more}, "");
    check_refused(parser_for("pythonic"), "[list_files(path=\"/tmp\"), ", {more}, "");
    check_refused(parser_for("gemma4"), "<|tool_call>call:list_files{path:<|\"|>/<|\"|>,", {more}, "");
    // A key with its colon and no value, or a key with no colon, was cut mid-value already.
    check_refused(hermes, "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": ",
                  {"output cut before the value was complete (value expected)"}, "");
    check_refused(hermes, "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\"",
                  {"output cut before the value was complete (':' expected after key)"}, "");
    // Every value complete and only closers missing still heals, and says so; a trailing
    // comma before a closer is a repair, not a cut.
    check_accepted(hermes, "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/tmp\"}",
                   json::array({call("call_0", "list_files", {{"path", "/tmp"}}, true)}),
                   {"missing_end_tag", "healed_truncation"}, "");
    check_accepted(hermes, "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/tmp\",}}</tool_call>",
                   json::array({call("call_0", "list_files", {{"path", "/tmp"}})}), {"trailing_comma"}, "");
    check_accepted(parser_for("pythonic"), "[list_files(path=\"/tmp\")",
                   json::array({call("call_0", "list_files", {{"path", "/tmp"}}, true)}), {"healed_truncation"}, "");
}

TEST_CASE("a healed call says so in to_json, to_openai_message and the stream, and can be refused",
          "[resolution][healed]") {
    const std::string text = "Checking.\n<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/tmp\"}}";
    const std::string whole = text + "</tool_call>";

    const Result healed = parser_for("hermes").parse(text);
    REQUIRE(healed.calls.size() == 1);
    CHECK(healed.calls[0].healed);
    CHECK(toolgram::to_json(healed)["calls"] ==
          json::array({call("call_0", "list_files", {{"path", "/tmp"}}, true)}));
    CHECK(toolgram::to_openai_message(healed) ==
          json::parse(R"({"role": "assistant", "content": "Checking.", "tool_calls": [{"id": "call_0", "type": "function",
              "function": {"name": "list_files", "arguments": "{\"path\":\"/tmp\"}"}, "healed": true}]})"));
    check_stream_equals_one_shot(parser_for("hermes"), text, healed);

    // A complete call carries no healed field: OpenAI's shape, unchanged.
    const Result complete = parser_for("hermes").parse(whole);
    REQUIRE(complete.calls.size() == 1);
    CHECK_FALSE(complete.calls[0].healed);
    CHECK(toolgram::to_openai_message(complete) ==
          json::parse(R"({"role": "assistant", "content": "Checking.", "tool_calls": [{"id": "call_0", "type": "function",
              "function": {"name": "list_files", "arguments": "{\"path\":\"/tmp\"}"}}]})"));

    // Settings::accept_healed_calls off: refused with a reason, the complete call still taken.
    const Parser strict = parser_for("hermes", false);
    check_refused(strict, text,
                  {"the output was cut off and the call healed (its closers supplied); accept_healed_calls is off"},
                  "Checking.");
    check_accepted(strict, whole, json::array({call("call_0", "list_files", {{"path", "/tmp"}})}), {}, "Checking.");

    // A profile file's settings say the same.
    const toolgram::Profile from_file = toolgram::profile_from_json(json::parse(R"({"name": "strict",
        "syntax": {"call": {"open": "<tool_call>", "close": "</tool_call>"}},
        "settings": {"accept_healed_calls": false}})"));
    CHECK_FALSE(from_file.settings.accept_healed_calls);
    check_refused(Parser(from_file, tools()), text,
                  {"the output was cut off and the call healed (its closers supplied); accept_healed_calls is off"},
                  "Checking.");
}

#ifdef TOOLGRAM_CLI
TEST_CASE("cli: --refuse-healed refuses healed calls in parse and stream, and calls carry healed", "[resolution][cli]") {
    const std::string dir = "/tmp/toolgram_resolution_" + std::to_string(getpid());
    REQUIRE(system(("mkdir -p '" + dir + "'").c_str()) == 0);
    const std::string input = dir + "/in.txt", tools_path = dir + "/tools.json";
    std::ofstream(input, std::ios::binary) << "<tool_call>{\"name\": \"list_files\", \"arguments\": {\"path\": \"/tmp\"}}";
    std::ofstream(tools_path) << R"([{"name": "list_files", "parameters": {"type": "object",
                                     "properties": {"path": {"type": "string"}}}}])";
    const auto run = [&](const std::string& args) {
        std::string out;
        FILE* pipe = popen((std::string(TOOLGRAM_CLI) + " " + args + " '" + input + "' --profile hermes --tools '" +
                            tools_path + "' 2>/dev/null")
                               .c_str(),
                           "r");
        REQUIRE(pipe != nullptr);
        char buffer[4096];
        for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
        CHECK(WEXITSTATUS(pclose(pipe)) == 0);
        return out;
    };
    const json taken = json::parse(run("parse"));
    CHECK(taken["calls"] == json::array({call("call_0", "list_files", {{"path", "/tmp"}}, true)}));
    CHECK(json::parse(run("parse --openai"))["tool_calls"][0]["healed"] == true);

    const json refused = json::parse(run("parse --refuse-healed"));
    CHECK(refused["calls"] == json::array());
    CHECK(refused["telemetry"]["rejected"][0]["reason"] ==
          "the output was cut off and the call healed (its closers supplied); accept_healed_calls is off");

    std::istringstream lines(run("stream --refuse-healed --chunk 4"));
    std::string line, last;
    while (std::getline(lines, line)) last = line;
    CHECK(json::parse(last)["result"] == refused);
    REQUIRE(system(("rm -rf '" + dir + "'").c_str()) == 0);
}
#endif

}  // namespace hostile_resolution_test
