// Named-parameter values that hold the syntax's own markup (grammars/common/param_value.hpp), what
// each family's template makes layout around a value, and CDATA.
//
// Table-driven: each row is a model output, the tools the parser knows, and the whole
// outcome — the calls exactly, or the one refusal with the part of its reason that matters,
// and the content. Each row is also streamed cut at every byte: the stream's result must be
// the one-shot result, since the decisions here look past a candidate end.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace param_value_test {

using toolgram::json;

namespace {

const char* const file_tools = R"([
  {"name": "write_file", "parameters": {"type": "object", "additionalProperties": false,
    "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}},
  {"name": "edit", "parameters": {"type": "object",
    "properties": {"filename": {"type": "string"}, "oldString": {"type": "string"}, "newString": {"type": "string"}},
    "required": ["filename", "oldString", "newString"]}},
  {"name": "get_weather", "parameters": {"type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}}
])";

struct Row {
    std::string profile;
    std::string text;
    std::string calls;    // the calls as JSON (names and arguments), when accepted
    std::string refused;  // else: part of the one rejection's reason
    std::string content = "";
    bool tools = true;    // false: no tools given, so no parameter names are known
};

json names_and_arguments(const toolgram::Result& r) {
    json out = json::array();
    for (const auto& c : r.calls) out.push_back({{"name", c.name}, {"arguments", c.arguments}});
    return out;
}

toolgram::Result streamed(const toolgram::Parser& parser, const std::string& text, std::size_t cut) {
    toolgram::StreamParser sp(parser);
    static_cast<void>(sp.feed(std::string_view(text).substr(0, cut)));
    static_cast<void>(sp.feed(std::string_view(text).substr(cut)));
    return sp.finish().result;
}

void check(const Row& row) {
    CAPTURE(row.profile, row.text);
    const toolgram::Parser parser = row.tools ? toolgram::Parser(toolgram::builtin_profile(row.profile),
                                                                 toolgram::tools_from_json(json::parse(file_tools)))
                                              : toolgram::Parser(toolgram::builtin_profile(row.profile));
    const toolgram::Result r = parser.parse(row.text);
    const json got = toolgram::to_json(r);
    CAPTURE(got.dump(2));
    if (row.refused.empty()) {
        CHECK(names_and_arguments(r) == json::parse(row.calls));
        CHECK(r.telemetry.rejected.empty());
        CHECK(!r.error);
    } else {
        CHECK(r.calls.empty());
        REQUIRE(r.telemetry.rejected.size() == 1);
        CHECK(r.telemetry.rejected[0].reason.find(row.refused) != std::string::npos);
        CHECK(r.telemetry.saw_tool_syntax);
        REQUIRE(r.error);
    }
    CHECK(r.content == row.content);
    for (std::size_t cut = 0; cut <= row.text.size(); ++cut) {
        const json s = toolgram::to_json(streamed(parser, row.text, cut));
        if (s != got) {
            CAPTURE(cut, s.dump(2));
            FAIL("the stream cut at " << cut << " differs from the one-shot parse");
        }
    }
}

}  // namespace

TEST_CASE("qwen3_coder: a value holding the syntax's own tags ends where the structure after it says",
          "[params][markup_in_values]") {
    const auto row = GENERATE(values<Row>({
        // Issue 14's first example: `</function>` followed by text is the value's.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n</parameter>\n<parameter=content>\n"
         "see </function> here\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "notes.md", "content": "see </function> here"}}])", ""},
        // `</parameter>` followed by text is the value's too.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\ntags.md\n</parameter>\n<parameter=content>\n"
         "Every value ends with </parameter> on its own line.\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "tags.md",
             "content": "Every value ends with </parameter> on its own line."}}])", ""},
        // A whole example call inside a value is skipped, and the parameter after it counts.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=content>\nTo check the weather, reply:\n<tool_call>\n"
         "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>\n</parameter>\n"
         "<parameter=path>\nweather.md\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"content": "To check the weather, reply:\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
             "path": "weather.md"}}])", ""},
        // An example <function=…> block without its wrapper, the same.
        {"qwen3_coder",
         "<function=write_file>\n<parameter=content>\n<function=get_weather>\n<parameter=city>\nParis\n"
         "</parameter>\n</function>\n</parameter>\n<parameter=path>\nw.md\n</parameter>\n</function>",
         R"([{"name": "write_file", "arguments": {"content": "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>",
             "path": "w.md"}}])", ""},
        // A closer left out before a declared parameter still ends the value.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n<parameter=content>\nhi\n</parameter>\n"
         "</function>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "a.txt", "content": "hi"}}])", ""},
        // A call without its wrapper, then prose: its closers end it.
        {"qwen3_coder",
         "<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nhi\n</parameter>\n"
         "</function>\nDone: the file is written.",
         R"([{"name": "write_file", "arguments": {"path": "a.txt", "content": "hi"}}])", "",
         "Done: the file is written."},
        // A value's closer and the call's closer, then text and another such pair: the first
        // pair was the value's (a file holding those tags), in or out of the wrapper.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nline\n"
         "</parameter>\n</function>\nmore text\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "a.txt", "content": "line\n</parameter>\n</function>\nmore text"}}])", ""},
        {"qwen3_coder",
         "<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nline\n</parameter>\n"
         "</function>\nmore text\n</parameter>\n</function>",
         R"([{"name": "write_file", "arguments": {"path": "a.txt", "content": "line\n</parameter>\n</function>\nmore text"}}])", ""},
        // The same pair, then prose and the next call: the pair ended the first call.
        {"qwen3_coder",
         "<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nhi\n</parameter>\n"
         "</function>\nAnd the next one:\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>",
         R"([{"name": "write_file", "arguments": {"path": "a.txt", "content": "hi"}},
             {"name": "get_weather", "arguments": {"city": "Paris"}}])", "", "And the next one:"},
        // A tag naming no declared parameter where the closer would be is the value's text:
        // read as a parameter, that parameter would exist only because the value was split.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\n"
         "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "a.txt", "content": "<parameter=city>\nParis"}}])", ""},
        // The value's closer written twice: the second is dropped (a repair), the value does
        // not end in its own closer.
        {"qwen3_coder",
         "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</parameter>\n"
         "<parameter=days>\n3\n</parameter>\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}])", ""},
        {"glm45",
         "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value></arg_value>\n</tool_call>",
         R"([{"name": "get_weather", "arguments": {"city": "Paris"}}])", ""},
        // A value holding its closer in a parameter the tool requires: the reading in which
        // the value before runs on through it lacks that parameter, so it does not fit.
        {"qwen3_coder",
         "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n<parameter=city>\nParis\n"
         "</parameter>\nor Lyon\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "get_weather", "arguments": {"days": 3, "city": "Paris\n</parameter>\nor Lyon"}}])", ""},
        // With no tools, any parameter name may follow a closer.
        {"qwen3_coder",
         "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\n2\n</parameter>\n</function>\n"
         "</tool_call>",
         R"([{"name": "f", "arguments": {"a": "1", "b": "2"}}])", "", "", false},
    }));
    check(row);
}

TEST_CASE("qwen3_coder: a value whose end stays ambiguous refuses its call, with the reason",
          "[params][markup_in_values]") {
    const auto row = GENERATE(values<Row>({
        // A closer, then a tag naming a parameter the schema refuses: the end of the value,
        // or its text?
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nx\n"
         "</parameter>\n<parameter=mode>\nappend\n</parameter>\n</function>\n</tool_call>",
         "", "is followed by a parameter \"mode\" that write_file does not declare"},
        // A tag naming no declared parameter, and the value's own closer left out: either
        // reading (the tag starts a parameter, or is the value's text) needs a repair.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\n"
         "<parameter=city>\nParis\n</function>\n</tool_call>",
         "", "holds a tag of parameter \"city\", which write_file does not declare, yet its own closer is missing"},
        // A closer, then a tag naming a parameter the schema admits but does not declare:
        // that parameter would exist only if the value was split there.
        {"qwen3_coder",
         "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=note>\nlate\n"
         "</parameter>\n</function>\n</tool_call>",
         "", "is followed by a parameter \"note\" that get_weather does not declare"},
        // A value holding its closer with text after it, after another value, in a
        // parameter the tool does not require: the value before may run on through it.
        {"qwen3_coder",
         "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n"
         "</parameter>\nor 4\n</parameter>\n</function>\n</tool_call>",
         "", "the value of parameter \"days\" holds </parameter> with text after it, so the </parameter> before it "
             "may be text too: whether \"city\" ends there or runs on through \"days\" (get_weather does not "
             "require it) is ambiguous"},
        // The value holds its closer, and ends where that closer is left out.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=content>\na </parameter> b\n<parameter=path>\na.txt\n"
         "</parameter>\n</function>\n</tool_call>",
         "", "holds </parameter> yet its own closer is missing"},
        // The value went on past a closer pair, then ends where its closer is left out.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nline\n"
         "</parameter>\n</function>\nmore text\n</function>\n</tool_call>",
         "", "holds </parameter> yet its own closer is missing"},
        // A closer written twice before the call's closer and prose: the repeat reading
        // does not hold (prose after the pair), and the other would end the value in its
        // own closer.
        {"qwen3_coder",
         "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</parameter>\n</function>\nDone.",
         "", "the value of parameter \"city\" ends in </parameter>: whether the model wrote that closer twice or it "
             "is the value's is ambiguous", "Done."},
        // An example call inside an example call.
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=content>\n<tool_call>\n<function=write_file>\n"
         "<parameter=content>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
         "</function>\n</tool_call>\n</parameter>\n</function>\n</tool_call>\n</parameter>\n<parameter=path>\nx\n"
         "</parameter>\n</function>\n</tool_call>",
         "", "with another call inside it"},
        // No end, but the call's closer with text after it: the end of the call, or text?
        {"qwen3_coder",
         "<function=write_file>\n<parameter=path>\nx\n</parameter>\n<parameter=content>\nsee </function> here",
         "", "has no closer but holds </function> with text after it"},
        // An example call whose closers are the real call's: where does the value end?
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\nx\n</parameter>\n<parameter=content>\n"
         "Example: <function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
         "", "whose end cannot be told from the value's"},
    }));
    check(row);
}

TEST_CASE("every named-parameter family: a value may hold its closer, the call's closer or an example call",
          "[params][markup_in_values]") {
    const auto row = GENERATE(values<Row>({
        {"seed_oss",
         "<seed:tool_call>\n<function=write_file>\n<parameter=path>a.md</parameter>\n<parameter=content>"
         "Close with </parameter> and </function> here.</parameter>\n</function>\n</seed:tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "Close with </parameter> and </function> here."}}])", ""},
        {"glm45",
         "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.md</arg_value>\n<arg_key>content</arg_key>\n"
         "<arg_value>Close with </arg_value> and </tool_call> here.</arg_value>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "Close with </arg_value> and </tool_call> here."}}])", ""},
        {"glm45",
         "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>Example:\n<tool_call>get_weather\n"
         "<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call></arg_value>\n<arg_key>path</arg_key>\n"
         "<arg_value>a.md</arg_value>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"content": "Example:\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>", "path": "a.md"}}])", ""},
        {"glm45",
         "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.md</arg_value>\n<arg_key>content</arg_key>\n"
         "<arg_value>line\n</arg_value>\n</tool_call>\nmore text</arg_value>\n</tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "line\n</arg_value>\n</tool_call>\nmore text"}}])", ""},
        {"minicpm5",
         "<function name=\"write_file\"><param name=\"path\">a.md</param><param name=\"content\">line\n</param>"
         "</function>\nmore text</param></function>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "line\n</param></function>\nmore text"}}])", ""},
        {"minimax_m2",
         "<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">a.md</parameter>\n"
         "<parameter name=\"content\">Close with </parameter> and </invoke> here.</parameter>\n</invoke>\n"
         "</minimax:tool_call>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "Close with </parameter> and </invoke> here."}}])", ""},
        {"deepseek_v32",
         "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write_file\">\n"
         "<｜DSML｜parameter name=\"path\" string=\"true\">a.md</｜DSML｜parameter>\n"
         "<｜DSML｜parameter name=\"content\" string=\"true\">Close with </｜DSML｜parameter> here.</｜DSML｜parameter>\n"
         "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "Close with </｜DSML｜parameter> here."}}])", ""},
        // A closer pair followed by text, then a parameter closer: the value went on. (What
        // may follow a call is the block's closer spelled in full: the prefix `</｜DSML｜`
        // took that later closer for text, and the call ended at the pair.)
        {"deepseek_v32",
         "<｜DSML｜invoke name=\"write_file\">\n"
         "<｜DSML｜parameter name=\"path\" string=\"true\">a.md</｜DSML｜parameter>\n"
         "<｜DSML｜parameter name=\"content\" string=\"true\">line\n</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
         "more text</｜DSML｜parameter>\n</｜DSML｜invoke>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "line\n</｜DSML｜parameter>\n</｜DSML｜invoke>\nmore text"}}])", ""},
        // The same in V4.1's spaced dialect and in a drifted one.
        {"deepseek_v32",
         "<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"write_file\">\n"
         "<｜DSML｜ parameter name=\"path\" string=\"true\">a.md</｜DSML｜ parameter>\n"
         "<｜DSML｜ parameter name=\"content\" string=\"true\">Close with </｜DSML｜ parameter> here.</｜DSML｜ parameter>\n"
         "</｜DSML｜ invoke>\n</｜DSML｜ calls>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "Close with </｜DSML｜ parameter> here."}}])", ""},
        {"deepseek_v32",
         "<DSMLtool_calls>\n<DSMLinvoke name=\"write_file\">\n"
         "<DSMLparameter name=\"path\" string=\"true\">a.md</DSMLparameter>\n"
         "<DSMLparameter name=\"content\" string=\"true\">line\n</DSMLparameter>\n</DSMLinvoke>\n"
         "more text</DSMLparameter>\n</DSMLinvoke>\n</DSMLtool_calls>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "line\n</DSMLparameter>\n</DSMLinvoke>\nmore text"}}])", ""},
        {"minicpm5",
         "<function name=\"write_file\"><param name=\"path\">a.md</param><param name=\"content\">Close with "
         "</param> and </function> here.</param></function>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "Close with </param> and </function> here."}}])", ""},
        {"step3",
         "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"write_file\">"
         "<steptml:parameter name=\"path\">a.md</steptml:parameter><steptml:parameter name=\"content\">Close with "
         "</steptml:parameter> here.</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
         R"([{"name": "write_file", "arguments": {"path": "a.md", "content": "Close with </steptml:parameter> here."}}])", ""},
    }));
    check(row);
}

TEST_CASE("a value's line breaks are layout only where the family's template writes them",
          "[params][layout]") {
    const auto row = GENERATE(values<Row>({
        // Qwen3-Coder's template: `<parameter=K>\nV\n</parameter>`, so one on each side is layout.
        {"qwen3_coder",
         "<tool_call>\n<function=edit>\n<parameter=filename>\na.txt\n</parameter>\n<parameter=oldString>\nx\n\n"
         "</parameter>\n<parameter=newString>\ny\n</parameter>\n</function>\n</tool_call>",
         R"([{"name": "edit", "arguments": {"filename": "a.txt", "oldString": "x\n", "newString": "y"}}])", ""},
        // The others write values verbatim: a value's trailing line break is its own.
        {"seed_oss",
         "<seed:tool_call>\n<function=edit>\n<parameter=filename>a.txt</parameter>\n<parameter=oldString>x\n"
         "</parameter>\n<parameter=newString>y\n</parameter>\n</function>\n</seed:tool_call>",
         R"([{"name": "edit", "arguments": {"filename": "a.txt", "oldString": "x\n", "newString": "y\n"}}])", ""},
        {"glm45",
         "<tool_call>edit\n<arg_key>filename</arg_key>\n<arg_value>a.txt</arg_value>\n<arg_key>oldString</arg_key>\n"
         "<arg_value>x\n</arg_value>\n<arg_key>newString</arg_key>\n<arg_value>y\n</arg_value>\n</tool_call>",
         R"([{"name": "edit", "arguments": {"filename": "a.txt", "oldString": "x\n", "newString": "y\n"}}])", ""},
        {"minimax_m2",
         "<minimax:tool_call>\n<invoke name=\"edit\">\n<parameter name=\"filename\">a.txt</parameter>\n"
         "<parameter name=\"oldString\">x\n</parameter>\n<parameter name=\"newString\">\ny\n</parameter>\n</invoke>\n"
         "</minimax:tool_call>",
         R"([{"name": "edit", "arguments": {"filename": "a.txt", "oldString": "x\n", "newString": "\ny\n"}}])", ""},
        {"deepseek_v32",
         "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"edit\">\n"
         "<｜DSML｜parameter name=\"filename\" string=\"true\">a.txt</｜DSML｜parameter>\n"
         "<｜DSML｜parameter name=\"oldString\" string=\"true\">x\n</｜DSML｜parameter>\n"
         "<｜DSML｜parameter name=\"newString\" string=\"true\">y\n</｜DSML｜parameter>\n"
         "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
         R"([{"name": "edit", "arguments": {"filename": "a.txt", "oldString": "x\n", "newString": "y\n"}}])", ""},
        {"minicpm5",
         "<function name=\"edit\">\n<param name=\"filename\">a.txt</param>\n<param name=\"oldString\">x\n</param>\n"
         "<param name=\"newString\">y\n</param>\n</function>",
         R"([{"name": "edit", "arguments": {"filename": "a.txt", "oldString": "x\n", "newString": "y\n"}}])", ""},
        {"step3",
         "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"edit\">"
         "<steptml:parameter name=\"filename\">a.txt</steptml:parameter><steptml:parameter name=\"oldString\">x\n"
         "</steptml:parameter><steptml:parameter name=\"newString\">y\n</steptml:parameter></steptml:invoke>"
         "<｜tool_call_end｜><｜tool_calls_end｜>",
         R"([{"name": "edit", "arguments": {"filename": "a.txt", "oldString": "x\n", "newString": "y\n"}}])", ""},
    }));
    check(row);
}

TEST_CASE("a value written as one CDATA section is unwrapped in every XML-style family", "[params][cdata]") {
    struct CdataRow {
        std::string profile;
        std::string text;
        bool repair;  // reported as cdata_unwrapped (not where CDATA is the syntax's own escape)
    };
    const auto row = GENERATE(values<CdataRow>({
        {"qwen3_coder",
         "<tool_call>\n<function=write_file>\n<parameter=path>\n<![CDATA[/a/b.js]]>\n</parameter>\n"
         "<parameter=content>\n<![CDATA[x </parameter> y]]>\n</parameter>\n</function>\n</tool_call>", true},
        {"seed_oss",
         "<seed:tool_call>\n<function=write_file>\n<parameter=path><![CDATA[/a/b.js]]></parameter>\n"
         "<parameter=content><![CDATA[x </parameter> y]]></parameter>\n</function>\n</seed:tool_call>", true},
        {"glm45",
         "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value><![CDATA[/a/b.js]]></arg_value>\n"
         "<arg_key>content</arg_key>\n<arg_value><![CDATA[x </parameter> y]]></arg_value>\n</tool_call>", true},
        {"minimax_m2",
         "<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\"><![CDATA[/a/b.js]]></parameter>\n"
         "<parameter name=\"content\"><![CDATA[x </parameter> y]]></parameter>\n</invoke>\n</minimax:tool_call>", true},
        {"deepseek_v32",
         "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write_file\">\n"
         "<｜DSML｜parameter name=\"path\" string=\"true\"><![CDATA[/a/b.js]]></｜DSML｜parameter>\n"
         "<｜DSML｜parameter name=\"content\" string=\"true\"><![CDATA[x </parameter> y]]></｜DSML｜parameter>\n"
         "</｜DSML｜invoke>\n</｜DSML｜function_calls>", true},
        {"step3",
         "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"write_file\">"
         "<steptml:parameter name=\"path\"><![CDATA[/a/b.js]]></steptml:parameter>"
         "<steptml:parameter name=\"content\"><![CDATA[x </parameter> y]]></steptml:parameter></steptml:invoke>"
         "<｜tool_call_end｜><｜tool_calls_end｜>", true},
        {"minicpm5",
         "<function name=\"write_file\"><param name=\"path\"><![CDATA[/a/b.js]]></param>"
         "<param name=\"content\"><![CDATA[x </parameter> y]]></param></function>", false},
    }));
    CAPTURE(row.profile, row.text);
    const toolgram::Parser parser(toolgram::builtin_profile(row.profile),
                                  toolgram::tools_from_json(json::parse(file_tools)));
    const toolgram::Result r = parser.parse(row.text);
    CAPTURE(toolgram::to_json(r).dump(2));
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].arguments == json::parse(R"({"path": "/a/b.js", "content": "x </parameter> y"})"));
    REQUIRE(r.telemetry.candidates.size() == 1);
    const auto& repairs = r.telemetry.candidates[0].repairs;
    CHECK((std::find(repairs.begin(), repairs.end(), "cdata_unwrapped") != repairs.end()) == row.repair);
    CHECK(r.content.empty());
}

}  // namespace param_value_test
