// The lenient value reader (src/value/value_reader.hpp, grammars/common/lenient_value.hpp) on its own:
// every payload grammar reads its arguments through `read_value`, so what it accepts,
// which repairs it reports, where it heals and where it refuses is pinned here once.
//
// Rows are {input, expected value, expected repairs}; each row asserts the whole read
// (ok, value, end, repair flags, healed) or the whole failure (kind, offset), never only
// "it did not throw". The split that matters most to the gates: a value that is complete
// but lacks closers heals; a value cut inside a string, number or literal is a cut and is
// never ok.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "value/value_reader.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace lenient_value_test {

using toolgram::detail::Failure;
using toolgram::detail::read_value;
using toolgram::detail::ValueRead;
using json = nlohmann::ordered_json;
namespace d = toolgram::detail;

namespace {

constexpr std::size_t default_depth = 64;

std::vector<std::string> repair_names(std::uint32_t flags) {
    std::vector<std::string> out;
    d::append_repair_names(flags, out);
    return out;
}

std::string describe(const ValueRead& r) {
    std::string s = "ok=" + std::to_string(r.ok) + " value=" + r.value.dump() + " end=" + std::to_string(r.end) +
                    " healed=" + std::to_string(r.healed) + " repairs=[";
    for (const auto& n : repair_names(r.repairs)) s += n + " ";
    s += "] failure=" + std::string(d::failure_kind_name(r.failure.kind)) + "@" + std::to_string(r.failure.offset) +
         " '" + r.failure.message + "'";
    return s;
}

// ---------------------------------------------------------------------------------------

struct OkRow {
    std::string input;
    json expected;
};

const std::vector<OkRow>& strict_rows() {
    static const std::vector<OkRow> rows = {
        {R"({"a": [1, 2.5, -3, true, false, null, "s"], "b": {}})",
         json::parse(R"({"a": [1, 2.5, -3, true, false, null, "s"], "b": {}})")},
        {R"([])", json::array()},
        {R"({})", json::object()},
        {R"("just a string")", json("just a string")},
        {R"(true)", json(true)},
        {R"(null)", json(nullptr)},
        {R"({"nested": {"deep": [{"x": [[]]}]}})", json::parse(R"({"nested": {"deep": [{"x": [[]]}]}})")},
        {R"({"e": 1e3, "E": -2.5E-2, "z": 0, "neg0": -0})",
         json::parse(R"({"e": 1e3, "E": -2.5E-2, "z": 0, "neg0": -0})")},
        {R"(["esc \" \\ \/ \b \f \n \r \t"])", json::array({"esc \" \\ / \b \f \n \r \t"})},
        {"{ \"spaced\" :\n\t[ 1 ,\r\n 2 ] }", json::parse(R"({"spaced": [1, 2]})")},
    };
    return rows;
}

TEST_CASE("read_value reads strict JSON with no repair, no healing, and stops just past the value",
          "[lenient][strict]") {
    const OkRow row = GENERATE(from_range(strict_rows()));
    DYNAMIC_SECTION(row.input) {
        const ValueRead r = read_value(row.input, 0, default_depth);
        INFO(describe(r));
        CHECK(r.ok);
        CHECK(r.value == row.expected);
        CHECK(r.end == row.input.size());
        CHECK(r.repairs == 0u);
        CHECK_FALSE(r.healed);
        CHECK(r.failure.kind == Failure::none);
    }
}

TEST_CASE("read_value stops at the end of the value: leading space is skipped, trailing text is the caller's",
          "[lenient][strict]") {
    SECTION("leading whitespace") {
        const ValueRead r = read_value("  \n [1]", 0, default_depth);
        CHECK(r.ok);
        CHECK(r.value == json::array({1}));
        CHECK(r.end == 7);
        CHECK(r.repairs == 0u);
    }
    SECTION("trailing whitespace is not consumed") {
        const ValueRead r = read_value("{\"a\": 1}   ", 0, default_depth);
        CHECK(r.ok);
        CHECK(r.value == json{{"a", 1}});
        CHECK(r.end == 8);
    }
    SECTION("prose after the value") {
        const std::string text = R"([1, 2] and then some prose })";
        const ValueRead r = read_value(text, 0, default_depth);
        CHECK(r.ok);
        CHECK(r.value == json::array({1, 2}));
        CHECK(r.end == 6);
        CHECK_FALSE(r.healed);
    }
    SECTION("a start position inside a larger text; end is absolute") {
        const std::string text = R"(call: {"city": "Antwerp"} done)";
        const ValueRead r = read_value(text, 6, default_depth);
        CHECK(r.ok);
        CHECK(r.value == json{{"city", "Antwerp"}});
        CHECK(r.end == 25);
    }
}

// ---------------------------------------------------------------------------------------
// Repairs: one row per flag, each input needing exactly that repair.

struct RepairRow {
    std::string input;
    json expected;
    std::uint32_t flag;
    const char* name;
};

const std::vector<RepairRow>& repair_rows() {
    static const std::vector<RepairRow> rows = {
        {R"({'city': 'Antwerp'})", json{{"city", "Antwerp"}}, d::repair_single_quotes, "single_quotes"},
        {R"(['it\'s', "mixed"])", json::array({"it's", "mixed"}), d::repair_single_quotes, "single_quotes"},
        {R"([True, False, None])", json::array({true, false, nullptr}), d::repair_python_literals, "python_literals"},
        {R"([1, 2,])", json::array({1, 2}), d::repair_trailing_comma, "trailing_comma"},
        {R"({"a": 1, "b": [],  })", json{{"a", 1}, {"b", json::array()}}, d::repair_trailing_comma, "trailing_comma"},
        {R"({city: "Antwerp", _n2: 3})", json{{"city", "Antwerp"}, {"_n2", 3}}, d::repair_unquoted_keys, "unquoted_keys"},
        {"{\"text\": \"line one\nline two\"}", json{{"text", "line one\nline two"}}, d::repair_raw_control_chars,
         "raw_control_chars"},
        {"[\"a\tb\"]", json::array({"a\tb"}), d::repair_raw_control_chars, "raw_control_chars"},
        {"[1, // the first\n 2]", json::array({1, 2}), d::repair_comments, "comments"},
        {"/* lead */ {\"a\": /* inline */ 1}", json{{"a", 1}}, d::repair_comments, "comments"},
        {R"([(1, 2), ("x", (3, 4))])", json::parse(R"([[1, 2], ["x", [3, 4]]])"), d::repair_tuple_as_array,
         "tuple_as_array"},
        {R"(["\uD834"])", json::array({"\xEF\xBF\xBD"}), d::repair_lone_surrogate, "lone_surrogate"},
        {R"(["\uDE00 low first"])", json::array({"\xEF\xBF\xBD low first"}), d::repair_lone_surrogate,
         "lone_surrogate"},
        {R"(["\uD834x"])", json::array({"\xEF\xBF\xBDx"}), d::repair_lone_surrogate, "lone_surrogate"},
        {R"(["C:\path\q"])", json::array({"C:\\path\\q"}), d::repair_unknown_escape, "unknown_escape"},
        {R"(["it\'s"])", json::array({"it's"}), d::repair_python_escapes, "python_escapes"},
        // The first value stays; phase two refuses a call with a repeated key anyway.
        {R"({"a": 1, "a": 2})", json{{"a", 1}}, d::repair_duplicate_key, "duplicate_key"},
        {R"([+1, .5])", json::array({1, 0.5}), d::repair_lenient_number, "lenient_number"},
        // Zeros alone are zero to every reader; a fraction is decimal to every reader.
        {R"([5., 00])", json::array({5.0, 0}), d::repair_lenient_number, "lenient_number"},
        // Found by fuzz_value: a leading zero in a fraction or after a minus was not a repair.
        {R"([0737.5, -00, -.5])", json::array({737.5, 0, -0.5}), d::repair_lenient_number, "lenient_number"},
        // Found by fuzz_value: a point with no digit after it, before an exponent, was not a repair.
        {R"([0.E5, 2.e-3])", json::array({0.0, 0.002}), d::repair_lenient_number, "lenient_number"},
        // Found by fuzz_value: C's whitespace is not JSON's.
        {"{\"a\":\v1,\f\"b\": 2}", json{{"a", 1}, {"b", 2}}, d::repair_nonjson_whitespace, "nonjson_whitespace"},
    };
    return rows;
}

TEST_CASE("read_value applies each repair and reports exactly that repair", "[lenient][repairs]") {
    const RepairRow row = GENERATE(from_range(repair_rows()));
    DYNAMIC_SECTION(row.name << ": " << row.input) {
        const ValueRead r = read_value(row.input, 0, default_depth);
        INFO(describe(r));
        CHECK(r.ok);
        CHECK(r.value == row.expected);
        CHECK(r.end == row.input.size());
        CHECK(r.repairs == row.flag);
        CHECK(repair_names(r.repairs) == std::vector<std::string>{row.name});
        CHECK_FALSE(r.healed);
    }
}

TEST_CASE("read_value reports several repairs together, each once, in a fixed order", "[lenient][repairs]") {
    const std::string text = "{name: 'get_weather', args: {'city': 'Antwerp', days: 3,}, ok: True, } // done";
    const ValueRead r = read_value(text, 0, default_depth);
    INFO(describe(r));
    CHECK(r.ok);
    CHECK(r.value == json::parse(R"({"name": "get_weather", "args": {"city": "Antwerp", "days": 3}, "ok": true})"));
    CHECK(r.repairs == (d::repair_single_quotes | d::repair_python_literals | d::repair_trailing_comma |
                        d::repair_unquoted_keys));
    CHECK(repair_names(r.repairs) ==
          std::vector<std::string>{"single_quotes", "python_literals", "trailing_comma", "unquoted_keys"});
    // The comment after the value is not part of it.
    CHECK(r.end == text.find(" // done"));
}

TEST_CASE("append_repair_names adds each name once, keeping names already present", "[lenient][repairs]") {
    std::vector<std::string> names = {"fence_inside_tags", "comments"};
    d::append_repair_names(d::repair_comments | d::repair_duplicate_key | d::repair_comments, names);
    CHECK(names == std::vector<std::string>{"fence_inside_tags", "comments", "duplicate_key"});
}


// ---------------------------------------------------------------------------------------
// Repairs measured against the JSON repairers' own suites: rows taken from the test data of
// jsonrepair (josdejong/jsonrepair, src/index.test.ts) and json_repair
// (mangiucugna/json_repair, tests/test_parse_*.py), where the repair is unambiguous. Each
// row: input, value, the exact repairs, healed. What they repair by a guess is refused
// (the table after this one).

struct RepairedRow {
    std::string source;
    std::string input;
    json expected;
    std::uint32_t repairs;
    bool healed;
    bool python;  // read as a Python literal (the Python call grammars)
};

const std::vector<RepairedRow>& repaired_rows() {
    static const std::vector<RepairedRow> rows = {
        // A comma left out between items or members.
        {"jsonrepair", R"({"array": [{}{}]})", json::parse(R"({"array": [{}, {}]})"), d::repair_missing_comma, false, false},
        {"jsonrepair", R"({"array": [{} {}]})", json::parse(R"({"array": [{}, {}]})"), d::repair_missing_comma, false, false},
        {"jsonrepair", "{\"array\": [{}\n{}]}", json::parse(R"({"array": [{}, {}]})"), d::repair_missing_comma, false, false},
        {"jsonrepair", "{\"array\": [\n{}\n{}\n]}", json::parse(R"({"array": [{}, {}]})"), d::repair_missing_comma, false, false},
        {"jsonrepair", "{\"array\": [\n1\n2\n]}", json::parse(R"({"array": [1, 2]})"), d::repair_missing_comma, false, false},
        {"jsonrepair", "{\"a\":2\n\"b\":3\n}", json::parse(R"({"a": 2, "b": 3})"), d::repair_missing_comma, false, false},
        {"jsonrepair", "{\"a\":2\n\"b\":3\nc:4}", json::parse(R"({"a": 2, "b": 3, "c": 4})"),
         d::repair_missing_comma | d::repair_unquoted_keys, false, false},
        {"forge_json_repair", R"({"a":2"b":3})", json::parse(R"({"a": 2, "b": 3})"), d::repair_missing_comma, false, false},
        {"toolgram", R"([{"name": "a"} {"name": "b"}])", json::parse(R"([{"name": "a"}, {"name": "b"}])"),
         d::repair_missing_comma, false, false},
        {"toolgram", R"(["x" {"a": 1} true])", json::parse(R"(["x", {"a": 1}, true])"), d::repair_missing_comma, false, false},
        // Unicode spaces between tokens; inside a string they are the string's.
        {"jsonrepair", "{\"a\":\u00a0\"foo\u00a0bar\"}", json{{"a", "foo\u00a0bar"}}, d::repair_unicode_whitespace, false, false},
        {"jsonrepair", "{\"a\":\u2000\"foo\"}", json{{"a", "foo"}}, d::repair_unicode_whitespace, false, false},
        {"jsonrepair", "{\"a\":\u2002\"foo\"}", json{{"a", "foo"}}, d::repair_unicode_whitespace, false, false},
        {"jsonrepair", "{\"a\":\u202F\"foo\"}", json{{"a", "foo"}}, d::repair_unicode_whitespace, false, false},
        {"jsonrepair", "{\"a\":\u205F\"foo\"}", json{{"a", "foo"}}, d::repair_unicode_whitespace, false, false},
        {"jsonrepair", "{\"a\":\u3000\"foo\"}", json{{"a", "foo"}}, d::repair_unicode_whitespace, false, false},
        {"jsonrepair", "{\"a\":\ufeff\"foo\"}", json{{"a", "foo"}}, d::repair_unicode_whitespace, false, false},
        {"toolgram", "\ufeff{\"a\":\u200a1,\u3000\"b\"\u00a0:\u2009[2]}", json::parse(R"({"a": 1, "b": [2]})"),
         d::repair_unicode_whitespace, false, false},
        // The output cut inside a comment after complete values: healed, as a value that
        // lacks only its closers is.
        // (jsonrepair's `{} /* foo` has the comment after the root value, which is the
        // caller's text: corpus/hermes/truncated_inside_trailing_comment.)
        {"jsonrepair", "{\"a\": {} /* foo ", json{{"a", json::object()}}, d::repair_comments, true, false},
        {"json_repair", R"({ "key": "value" /* comment)", json{{"key", "value"}}, d::repair_comments, true, false},
        {"toolgram", R"([1, 2 /* the rest was)", json::array({1, 2}), d::repair_comments, true, false},
        // A tuple needs a comma: `(1)` is 1 in Python.
        {"json_repair", "(1)", json(1), d::repair_parenthesized_value, false, false},
        {"json_repair", R"(("x"))", json("x"), d::repair_parenthesized_value, false, false},
        {"json_repair", R"({"scalar_group": (1)})", json{{"scalar_group", 1}}, d::repair_parenthesized_value, false, false},
        {"json_repair", "((1, 2), (3, 4))", json::parse("[[1, 2], [3, 4]]"), d::repair_tuple_as_array, false, false},
        {"json_repair", R"({"empty": ()})", json{{"empty", json::array()}}, d::repair_tuple_as_array, false, false},
        {"toolgram", "(1,)", json::array({1}), d::repair_tuple_as_array | d::repair_trailing_comma, false, false},
        {"toolgram", "((1))", json(1), d::repair_parenthesized_value, false, false},
        {"toolgram", "([1, 2])", json::array({1, 2}), d::repair_parenthesized_value, false, false},
        // Python syntax: integer keys (json.dumps writes them as strings) and digit separators.
        {"toolgram", "{2: 2}", json{{"2", 2}}, d::repair_python_int_keys, false, true},
        {"toolgram", "{-1: 'a', 0: 'b', 1_0: 'c'}", json{{"-1", "a"}, {"0", "b"}, {"10", "c"}},
         d::repair_python_int_keys | d::repair_single_quotes, false, true},
        {"json_repair", R"({"value": 82_461_110})", json{{"value", 82461110}}, d::repair_digit_separators, false, true},
        {"json_repair", R"({"value": 1_234.5_6})", json{{"value", 1234.56}}, d::repair_digit_separators, false, true},
        {"toolgram", "[1_000, -2_5e1_0]", json::array({1000, -25e10}), d::repair_digit_separators, false, true},
    };
    return rows;
}

TEST_CASE("read_value applies the repairs of the repairers' suites that are unambiguous, each reported",
          "[lenient][repairs][repairers]") {
    const RepairedRow row = GENERATE(from_range(repaired_rows()));
    DYNAMIC_SECTION(row.source << ": " << row.input) {
        const ValueRead r = read_value(row.input, 0, default_depth, row.python);
        INFO(describe(r));
        CHECK(r.ok);
        CHECK(r.value == row.expected);
        CHECK(r.end == row.input.size());
        CHECK(repair_names(r.repairs) == repair_names(row.repairs));
        CHECK(r.healed == row.healed);
    }
}

struct RefusedRow {
    std::string source;
    std::string input;
    bool python;
    Failure kind;
    std::string why;  // not asserted: why the repairer's reading is a guess
};

const std::vector<RefusedRow>& refused_rows() {
    static const std::vector<RefusedRow> rows = {
        // Two strings side by side are one string in Python ("a" "b" is "ab").
        {"jsonrepair", "{\"array\": [\n\"a\"\n\"b\"\n]}", false, Failure::syntax, "Python joins the strings"},
        {"json_repair", R"({"key": ["value" "value1" "value2"]})", false, Failure::syntax, "Python joins the strings"},
        // An item before `[` or `(` is a subscript or a call in Python; before a sign, an
        // operation.
        {"toolgram", "[[1, 2] [0]]", false, Failure::syntax, "a subscript in Python: [1]"},
        {"toolgram", "[1 -2]", false, Failure::syntax, "1 - 2 in Python"},
        {"toolgram", R"({"a": 1 "b" 2})", false, Failure::syntax, "no ':' after the next key"},
        // Zero-width characters are not spaces (U+200B, U+180E).
        {"jsonrepair", "{\"a\":\u200B\"foo\"}", false, Failure::syntax, "not a space"},
        {"jsonrepair", "{\"a\":\u180e\"foo\"}", false, Failure::syntax, "not a space"},
        // Python only: JSON has no integer keys or digit separators.
        {"toolgram", "{2: 2}", false, Failure::syntax, "JSON keys are strings"},
        {"json_repair", R"({"value": 82_461_110})", false, Failure::syntax, "not a JSON number"},
        // Python refuses leading zeros in an integer key, and separators out of place.
        {"toolgram", "{01: 2}", true, Failure::syntax, "Python refuses 01"},
        {"toolgram", "[1__000]", true, Failure::syntax, "one '_' between digits"},
        {"toolgram", "[1_]", true, Failure::syntax, "one '_' between digits"},
        // A comment cut where more was promised: after a ',' or a key.
        {"toolgram", "{\"a\": /* the value", false, Failure::cut, "the value never came"},
    };
    return rows;
}

TEST_CASE("read_value refuses what the repairers' suites repair by a guess", "[lenient][syntax][repairers]") {
    const RefusedRow row = GENERATE(from_range(refused_rows()));
    DYNAMIC_SECTION(row.source << ": " << row.input << " (" << row.why << ")") {
        const ValueRead r = read_value(row.input, 0, default_depth, row.python);
        INFO(describe(r));
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == row.kind);
    }
}

TEST_CASE("read_value keeps an integer with leading zeros as its text, for phase two, never as 789",
          "[lenient][numbers][repairers]") {
    // jsonrepair's rows (src/index.test.ts, "should repair a number with leading zeros"):
    // they become strings there; here the text waits for the schema (parser.cpp).
    struct Row {
        std::string input;
        std::vector<std::string> texts;  // the ambiguous numbers, in order
    };
    const auto row = GENERATE(values<Row>({
        {"[0789]", {"0789"}},
        {"[000789]", {"000789"}},
        {"{value:0789}", {"0789"}},
        {"[-007, +010, 0]", {"-007", "+010"}},
    }));
    DYNAMIC_SECTION(row.input) {
        const ValueRead r = read_value(row.input, 0, default_depth);
        INFO(describe(r));
        REQUIRE(r.ok);
        CHECK((r.repairs & d::repair_leading_zeros) != 0u);
        CHECK(d::holds_ambiguous_number(r.value));
        std::vector<std::string> texts;
        std::string scratch;
        for (const auto& [k, v] : r.value.items())
            if (const std::string* t = d::ambiguous_number_text(v, scratch)) texts.push_back(*t);
        CHECK(texts == row.texts);
    }
    SECTION("a fraction or an exponent is decimal to every reader") {
        const ValueRead r = read_value("[001.2, 002e3]", 0, default_depth);
        REQUIRE(r.ok);
        CHECK(r.value == json::array({1.2, 2000.0}));
        CHECK(r.repairs == d::repair_lenient_number);
    }
}

// ---------------------------------------------------------------------------------------
// Escapes.

TEST_CASE("read_value decodes JSON and Python escapes", "[lenient][escapes]") {
    struct Row {
        std::string input;
        std::string expected;
    };
    const auto row = GENERATE(values<Row>({
        {R"("\u0041\u00e9\u20AC")", "A\xC3\xA9\xE2\x82\xAC"},
        {R"("\uD83D\uDE00")", "\xF0\x9F\x98\x80"},        // a surrogate pair is one code point
        {R"("\ud83d\ude00 tail")", "\xF0\x9F\x98\x80 tail"},
        {R"('\U0001F600')", "\xF0\x9F\x98\x80"},           // Python's 8-digit escape (single quotes)
        {R"("\u0000")", std::string("\0", 1)},
    }));
    DYNAMIC_SECTION(row.input) {
        const ValueRead r = read_value(row.input, 0, default_depth);
        INFO(describe(r));
        CHECK(r.ok);
        CHECK(r.value == json(row.expected));
        CHECK((r.repairs & (d::repair_lone_surrogate | d::repair_unknown_escape)) == 0u);
    }
}

TEST_CASE("read_value decodes a Python hex escape (x41) and records it as a repair, since strict JSON refuses it", "[lenient][escapes]") {
    // value_reader.cpp: "Anything a strict JSON reader would refuse but we accept is recorded
    // as a repair; nothing is dropped without a trace."
    const ValueRead r = read_value(R"("\x41\x62")", 0, default_depth);
    INFO(describe(r));
    CHECK(r.ok);
    CHECK(r.value == json("Ab"));
    CHECK(r.repairs != 0u);
}

// ---------------------------------------------------------------------------------------
// Healing: the output ended with every value complete and only closers missing.

TEST_CASE("read_value heals an output that lacks only closing brackets", "[lenient][healing]") {
    struct Row {
        std::string input;
        json expected;
    };
    const auto heal = GENERATE(values<Row>({
        {R"({"a": [1, 2])", json::parse(R"({"a": [1, 2]})")},
        {R"({"a": "x")", json{{"a", "x"}}},
        {R"({"a": {"b": "c")", json::parse(R"({"a": {"b": "c"}})")},
        {R"({"a": 1,)", json{{"a", 1}}},
        {"{\"a\": 1,\n  ", json{{"a", 1}}},
        {R"([1, 2,)", json::array({1, 2})},
        {R"([[true], [null)", json::parse("[[true], [null]]")},
        {R"({"args": {"q": "x"}, "more": [)", json::parse(R"({"args": {"q": "x"}, "more": []})")},
        {R"((1, "x")", json::array({1, "x"})},
        {R"({)", json::object()},  // complete up to the missing closer
        {R"([)", json::array()},
    }));
    DYNAMIC_SECTION(heal.input) {
        const ValueRead r = read_value(heal.input, 0, default_depth);
        INFO(describe(r));
        CHECK(r.ok);
        CHECK(r.healed);
        CHECK(r.value == heal.expected);
        CHECK(r.end == heal.input.size());
        CHECK(r.failure.kind == Failure::none);
    }
}

TEST_CASE("read_value does not call a complete value healed", "[lenient][healing]") {
    const ValueRead r = read_value(R"({"a": [1, 2]})", 0, default_depth);
    CHECK(r.ok);
    CHECK_FALSE(r.healed);
}

// ---------------------------------------------------------------------------------------
// Cuts: the output ended inside a value. Never ok, always Failure::cut.

TEST_CASE("read_value classifies a value cut by the end of output as a cut, never ok", "[lenient][cut]") {
    const std::string input = GENERATE(as<std::string>{},
                                       R"({"a": "abc)",        // mid-string
                                       R"({"a": 'abc)",        // mid-string, single quotes
                                       R"({"a": "abc\)",       // mid-escape
                                       R"({"a": 12)",          // mid-number
                                       R"({"a": 1.)",          // mid-number, after the point
                                       R"({"a": 1e)",          // mid-number, in the exponent
                                       R"([1, 2)",             // a number touching the end
                                       R"({"a": tru)",         // mid-literal
                                       R"({"a": nul)",         // mid-literal
                                       R"([Fals)",             // mid-literal, Python spelling
                                       R"({"a": t)",           // one letter of a literal
                                       R"({"a")",              // after a key
                                       R"({"a" )",             // after a key and a space
                                       R"({"a":)",             // after a colon
                                       "{\"a\": \n",           // after a colon and a newline
                                       R"({"ke)",              // mid-key
                                       R"({"a": [1, {"b": "x)",  // deep inside
                                       "");
    DYNAMIC_SECTION("input: " << input) {
        const ValueRead r = read_value(input, 0, default_depth);
        INFO(describe(r));
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::cut);
        CHECK(r.failure.offset <= input.size());
        CHECK_FALSE(r.failure.message.empty());
    }
}

TEST_CASE("read_value classifies a bare sign at the end of output as a number cut short", "[lenient][cut]") {
    // `{"a": -` is `{"a": -12` cut after its sign: a cut, like `{"a": 1`.
    for (const std::string input : {R"({"a": -)", R"([1, +)"}) {
        const ValueRead r = read_value(input, 0, default_depth);
        INFO(input << " -> " << describe(r));
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::cut);
    }
}

// ---------------------------------------------------------------------------------------
// Syntax errors: malformed at an exact byte.

TEST_CASE("read_value reports a syntax error at the exact byte where the value went wrong", "[lenient][syntax]") {
    struct Row {
        std::string input;
        std::size_t pos;
        std::size_t offset;
        std::string message;
    };
    const auto row = GENERATE(values<Row>({
        {R"({"a" 1})", 0, 5, "':' expected after key"},
        // A comma left out is supplied only where nothing else can be missing (below).
        {R"([1 -2])", 0, 3, "',' or ']' expected"},
        {R"({"a": 1 "b" 2})", 0, 8, "',' or '}' expected"},
        {R"({"a": @})", 0, 6, "value expected"},
        {R"({1: 2})", 0, 1, "key expected"},
        {R"([1, 2,, 3])", 0, 6, "value expected"},
        {R"({"a": tr })", 0, 6, "value expected"},
        {R"((1 2))", 0, 3, "',' or ')' expected"},
        {R"({"a": 1e+x})", 0, 9, "digit_run expected in exponent"},
        // An offset inside a larger text is absolute.
        {R"(prefix [1 -2])", 7, 10, "',' or ']' expected"},
        {"line one\n{\"a\" \"b\"}", 9, 14, "':' expected after key"},
    }));
    DYNAMIC_SECTION(row.input) {
        const ValueRead r = read_value(row.input, row.pos, default_depth);
        INFO(describe(r));
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::syntax);
        CHECK(r.failure.offset == row.offset);
        CHECK(r.failure.message == row.message);
    }
}

TEST_CASE("read_value refuses text that is not a value", "[lenient][syntax]") {
    const ValueRead r = read_value("hello world", 0, default_depth);
    INFO(describe(r));
    CHECK_FALSE(r.ok);
    CHECK(r.failure.kind == Failure::syntax);
    CHECK(r.failure.offset == 0);
}

// ---------------------------------------------------------------------------------------
// Depth.

TEST_CASE("read_value enforces max_depth: the limit is allowed, one more level is too deep", "[lenient][depth]") {
    SECTION("arrays") {
        const ValueRead at_limit = read_value("[[[1]]]", 0, 3);
        CHECK(at_limit.ok);
        CHECK(at_limit.value == json::parse("[[[1]]]"));
        const ValueRead past = read_value("[[[[1]]]]", 0, 3);
        INFO(describe(past));
        CHECK_FALSE(past.ok);
        CHECK(past.failure.kind == Failure::too_deep);
        CHECK(past.failure.offset == 4);  // just inside the fourth opener
    }
    SECTION("objects and tuples count too") {
        CHECK(read_value(R"({"a": ({"b": 1},)})", 0, 3).ok);
        const ValueRead past = read_value(R"({"a": ({"b": [1]},)})", 0, 3);
        CHECK_FALSE(past.ok);
        CHECK(past.failure.kind == Failure::too_deep);
    }
    SECTION("depth is counted along a path, not in total") {
        const ValueRead wide = read_value("[[1], [2], [3], [4], [5]]", 0, 2);
        CHECK(wide.ok);
        CHECK(wide.value == json::parse("[[1], [2], [3], [4], [5]]"));
    }
}

TEST_CASE("read_value survives 100000 levels of nesting and reports too_deep", "[lenient][depth]") {
    constexpr std::size_t levels = 100000;
    SECTION("unclosed arrays") {
        const std::string text(levels, '[');
        const ValueRead r = read_value(text, 0, default_depth);
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::too_deep);
        CHECK(r.failure.offset == default_depth + 1);  // just inside the opener past the limit
    }
    SECTION("closed arrays") {
        const std::string text = std::string(levels, '[') + std::string(levels, ']');
        const ValueRead r = read_value(text, 0, default_depth);
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::too_deep);
    }
    SECTION("objects") {
        std::string text;
        for (std::size_t i = 0; i < levels; ++i) text += "{\"a\":";
        const ValueRead r = read_value(text, 0, default_depth);
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::too_deep);
    }
    SECTION("tuples") {
        const std::string text(levels, '(');
        const ValueRead r = read_value(text, 0, default_depth);
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::too_deep);
    }
}

// ---------------------------------------------------------------------------------------
// Numbers.

TEST_CASE("read_value refuses numbers out of the double range", "[lenient][numbers]") {
    const std::string input = GENERATE(as<std::string>{}, "[1e400]", "[-1e400]", "{\"a\": 1E999}");
    DYNAMIC_SECTION(input) {
        const ValueRead r = read_value(input, 0, default_depth);
        INFO(describe(r));
        CHECK_FALSE(r.ok);
        CHECK(r.failure.kind == Failure::syntax);
        CHECK(r.failure.offset == input.find_first_of("-1"));
        CHECK(r.failure.message == "number out of range");
    }
}

TEST_CASE("read_value keeps 64-bit integers exact and reads larger ones as doubles", "[lenient][numbers]") {
    SECTION("uint64 max") {
        const ValueRead r = read_value("[18446744073709551615]", 0, default_depth);
        REQUIRE(r.ok);
        CHECK(r.value[0].is_number_unsigned());
        CHECK(r.value[0].get<std::uint64_t>() == 18446744073709551615ull);
    }
    SECTION("int64 min") {
        const ValueRead r = read_value("[-9223372036854775808]", 0, default_depth);
        REQUIRE(r.ok);
        CHECK(r.value[0].is_number_integer());
        CHECK(r.value[0].get<std::int64_t>() == INT64_MIN);
    }
    SECTION("2^53 + 1 stays exact") {
        const ValueRead r = read_value("[9007199254740993]", 0, default_depth);
        REQUIRE(r.ok);
        CHECK(r.value[0].get<std::uint64_t>() == 9007199254740993ull);
    }
    SECTION("past 64 bits: a double, as JSON.parse would") {
        const ValueRead r = read_value("[18446744073709551616, -9223372036854775809, 123456789012345678901234567890]",
                                       0, default_depth);
        REQUIRE(r.ok);
        CHECK(r.value[0].is_number_float());
        CHECK(r.value[0].get<double>() == 18446744073709551616.0);
        CHECK(r.value[1].is_number_float());
        CHECK(r.value[1].get<double>() == -9223372036854775809.0);
        CHECK(r.value[2].is_number_float());
        CHECK(r.value[2].get<double>() == Approx(1.2345678901234568e29));
        CHECK(r.repairs == 0u);
    }
    SECTION("tiny exponents underflow to a finite number") {
        const ValueRead r = read_value("[1e-400]", 0, default_depth);
        REQUIRE(r.ok);
        CHECK(r.value[0].get<double>() == Approx(0.0));
    }
}

}  // namespace

}  // namespace lenient_value_test
