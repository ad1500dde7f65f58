// The strict fast path of the value reader (src/value/strict_value.hpp): what it takes, what it
// declines, and that it never changes what the lenient rules read.
//
// The fast reader must take strict JSON whole (else it buys nothing) and decline every
// form the lenient rules repair or refuse (else a repair would go unreported), and where
// the end of the text decides (a number or literal touching it, a cut value), so a stream
// learns the end was read from the rules. The last test reads every value that opens in
// the corpus's model outputs both ways and requires the same outcome, byte for byte.
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "corpus_cases.hpp"
#include "value/strict_value.hpp"
#include "text/utf8.hpp"
#include "value/value_reader.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace strict_value_test {

namespace d = toolgram::detail;
using ojson = nlohmann::ordered_json;

namespace {

// The fast reader's answer for `text`: the bytes taken (0: declined) and the value.
std::pair<std::size_t, ojson> fast(const std::string& text, std::size_t max_depth = 64) {
    ojson v;
    const std::size_t n = d::read_strict_value(text.data(), text.data() + text.size(), max_depth, v);
    return {n, v};
}

std::string outcome(const d::ValueRead& r) {
    if (!r.ok)
        return "fail " + std::string(d::failure_kind_name(r.failure.kind)) + "@" + std::to_string(r.failure.offset) +
               " " + r.failure.message;
    return "ok " + r.value.dump(-1, ' ', false, ojson::error_handler_t::replace) + " end " + std::to_string(r.end) +
           " repairs " + std::to_string(r.repairs) + (r.healed ? " healed" : "");
}

}  // namespace

TEST_CASE("strict fast path: takes strict JSON whole, in written order, with its exact span") {
    struct Row {
        std::string text;
        std::size_t taken;
        std::string value;  // dumped
    };
    const std::vector<Row> rows = {
        {R"({"city": "Paris", "days": 3}</tool_call>)", 28, R"({"city":"Paris","days":3})"},
        {R"({"b": 1, "a": [true, false, null, -0.5e+3, 0]} tail)", 46, R"({"b":1,"a":[true,false,null,-500.0,0]})"},
        {"\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00\" ", 49,
         "\"esc \\\" \\\\ / \\b \\f \\n \\r \\t \xC3\xA9 \xF0\x9F\x98\x80\""},
        {"\"caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 and more than eight bytes\"]", 45,
         "\"caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 and more than eight bytes\""},
        {"{ \n\t\"k\" :\r\n [ ] , \"e\": {} }\n", 27, R"({"k":[],"e":{}})"},
        {"[[[[1]]]],", 9, "[[[[1]]]]"},
        {"12345678901234567890 ", 20, "12345678901234567890"},
        {"\"\",", 2, "\"\""},
    };
    for (const Row& row : rows) {
        INFO(row.text);
        const auto [n, v] = fast(row.text);
        CHECK(n == row.taken);
        CHECK(v.dump() == row.value);
    }
}

TEST_CASE("strict fast path: declines what the lenient rules repair, refuse or leave to the end") {
    const std::vector<std::string> declined = {
        // repairs of the lenient grammar
        "{'a': 1}", "{a: 1}", "[1, 2,]", "{\"a\": 1 \"b\": 2}", "[True]", "[None]", "(1, 2)", "{\"a\": 1 // c\n}",
        "{\"a\": /* c */ 1}", "[\x0B 1]", "[\xC2\xA0 1]", "\"tab\there\"", "\"\\x41\"", "\"\\'\"", "\"\\q\"",
        "\"\\ud83d\"", "\"\\ude00 \"", "\"\\ud83d\\u0041\"", "[+1]", "[.5]", "[5.]", "[0789]", "[01]", "[1e]",
        "{\"a\": 1, \"a\": 2}", "[1_000]",
        // not JSON at all, or not a value here
        "\"bad \xFF byte\"", "\"cut \xE6\x97\"", "\"overlong \xC0\xAF\"", "\"surrogate \xED\xA0\x80\"",
        "\"overlong \xE0\x80\x80\"", "\"lead \xC2 alone\"", "\"cut \xEF\xBF\"", "-", "-a",
        "truex ", "nul ", "[1 2]", "{\"a\" 1}", "{1: 2}", " {}", "<tool_call>",
        // where the end of the text decides: a value it cuts, a number or literal touching it
        "{\"a\": 1", "[1, 2", "\"open", "\"esc \\", "12", "-0.5", "true", "null", "[", "{\"a\": [1, {\"b\": \"x\"}]",
        "\"\\u00e",
    };
    for (const std::string& text : declined) {
        INFO(text);
        CHECK(fast(text).first == 0);
    }
}

// Closers the end of the text cut off, after a complete value or an opener: supplied, as
// the lenient rules heal them, when the caller asks (read_value does). What more than
// closers would complete declines as before, and so does a cut after a ',' (the rules
// report that more was coming).
TEST_CASE("strict fast path: heals closers the end cut off, as the rules heal them") {
    auto healed_read = [](const std::string& text) {
        ojson v;
        bool healed = false;
        const std::size_t n = d::read_strict_value(text.data(), text.data() + text.size(), 64, v, &healed);
        return std::make_tuple(n, v, healed);
    };
    struct Row {
        std::string text, value;
    };
    const std::vector<Row> taken = {
        {"[", "[]"},
        {"{ \n", "{}"},
        {"{\"a\": 1 ", R"({"a":1})"},
        {"{\"a\": \"x\"", R"({"a":"x"})"},
        {"[1, 2 ", "[1,2]"},
        {"{\"a\": [1, {\"b\": \"x\"}]", R"({"a":[1,{"b":"x"}]})"},
        {"{\"a\": {", R"({"a":{}})"},
        {"{\"name\": \"f\", \"arguments\": {\"q\": \"caf\u00e9\"}\n", R"({"name":"f","arguments":{"q":"café"}})"},
    };
    for (const auto& row : taken) {
        INFO(row.text);
        const auto [n, v, healed] = healed_read(row.text);
        CHECK(n == row.text.size());
        CHECK(healed);
        CHECK(v.dump() == row.value);
        CHECK(fast(row.text).first == 0);  // only when asked
        const d::ValueRead rules = d::read_value(row.text, 0, 64, false, false);
        CHECK(rules.healed);
        CHECK(outcome(d::read_value(row.text, 0, 64)) == outcome(rules));
    }
    for (const std::string text : {"{\"a\": 1", "[1, 2,", "[1, 2, ", "{\"a\": 1, \"b\": [", "[1, [", "{\"a\":", "{\"a\"",
                                   "{\"a", "\"open", "[true", "[1, {\"b\": \"x\"}, "}) {
        INFO(text);
        CHECK(std::get<0>(healed_read(text)) == 0);
        CHECK(outcome(d::read_value(text, 0, 64)) == outcome(d::read_value(text, 0, 64, false, false)));
    }
    // Complete values are untouched: not healed.
    const auto [n, v, healed] = healed_read("{\"a\": [1]} ");
    CHECK(n == 10);
    CHECK_FALSE(healed);
}

TEST_CASE("strict fast path: a large object's repeated key is found, and nesting stops at the limit") {
    std::string many = "{";
    for (int i = 0; i < 40; ++i) many += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    CHECK(fast(many + "\"k39\": 0} ").first == 0);
    const auto [n, v] = fast(many + "\"k40\": 0} ");
    CHECK(n == many.size() + 9);
    CHECK(v.size() == 41);

    const std::string nested = std::string(64, '[') + std::string(64, ']') + " ";
    CHECK(fast(nested, 64).first == 128);
    CHECK(fast(nested, 63).first == 0);  // the rules raise "too deep" there, with its offset
    // Through the grammar: the same limit and the same refusal as the rules alone.
    CHECK(outcome(d::read_value(nested, 0, 63)) == outcome(d::read_value(nested, 0, 63, false, false)));
    CHECK(d::read_value(nested, 0, 63).failure.kind == d::Failure::too_deep);
}

TEST_CASE("strict fast path: every value opening in the corpus's outputs reads the same with and without it") {
    std::size_t values = 0, taken = 0;
    for (const auto& c : toolgram_test::all_cases()) {
        const std::string text = toolgram_test::slurp(c.text);
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] != '{' && text[i] != '[' && text[i] != '"') continue;
            const d::ValueRead with = d::read_value(text, i, 64);
            const d::ValueRead without = d::read_value(text, i, 64, false, false);
            ++values;
            if (fast(text.substr(i)).first > 0) ++taken;
            if (outcome(with) != outcome(without)) {
                INFO(c.text.string() << " at " << i);
                CHECK(outcome(with) == outcome(without));
            }
        }
    }
    // The corpus is mostly model outputs whose arguments are plain JSON: the fast path
    // must take a good share of the values there, or it is not being reached.
    CHECK(values > 10000);
    CHECK(taken * 4 > values);
}

TEST_CASE("strict fast path: strings of escapes, characters and runs read as the rules read them") {
    // The string reader copies plain runs sixteen bytes at a time and sizes a string with
    // escapes from a search for its closing quote: every piece here meets every offset of
    // those blocks, with runs of backslashes of both parities before quotes, escapes cut
    // by the end, bytes that are not UTF-8 and control bytes among them.
    const std::vector<std::string> pieces = {
        "a", "plain text ", "0123456789abcdef", "\\\"", "\\\\", "\\\\\\\"", "\\n", "\\t", "\\/", "\\u00e9",
        "\\ud83d\\ude00", "\\ud83d", "\\u12", "\\q", "\xC3\xA9", "\xE6\x97\xA5", "\xF0\x9F\x98\x80",
        "\xFF", "\xE6\x97", "\x01", "\t", "\\", "\"", "\"]", "\"}",
        // Every lead byte's edges: the shapes taken by the continuation bytes alone (C2-DF,
        // E1-EF but ED) and those that need the full check (E0, ED, four-byte leads).
        "\xC2\x80", "\xDF\xBF", "\xC1\xBF", "\xC2", "\xE0\xA0\x80", "\xE0\x80\x80", "\xE1\x80",
        "\xEC\xBF\xBF", "\xED\x9F\xBF", "\xED\xA0\x80", "\xEE\x80\x80", "\xEF\xBF\xBF", "\xEF\xBF",
        "\xF4\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\x80"};
    std::mt19937 rng(29);
    std::size_t agreed = 0, taken = 0;
    for (int round = 0; round < 20000; ++round) {
        const bool member = round % 2 == 1;  // a string alone, or an object's value
        std::string text = member ? "{\"k\": \"" : "\"";
        const std::size_t n = rng() % 24;
        for (std::size_t i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
        // Most are closed; the rest end where they end.
        if (rng() % 4 != 0) text += member ? "\"} tail" : "\" tail";
        const d::ValueRead with = d::read_value(text, 0, 64);
        const d::ValueRead without = d::read_value(text, 0, 64, false, false);
        if (fast(text).first > 0) ++taken;
        if (outcome(with) == outcome(without)) {
            ++agreed;
            continue;
        }
        INFO(text);
        CHECK(outcome(with) == outcome(without));
    }
    CHECK(agreed == 20000);
    CHECK(taken > 2000);  // the fast path must see enough strict strings to be tested
}

TEST_CASE("strict fast path: long strings dense in escapes read as the rules read them, to the text's end") {
    // Past its first escape a string's runs are found sixty-four bytes at a time and
    // copied by fixed stores, until fewer than 96 bytes of text are left: long strings of
    // escapes, characters, control bytes and runs, followed by tails of every length up
    // to past that edge, so each piece meets each offset of a block and of the edge.
    const std::vector<std::string> pieces = {
        "a", "plain text ", "0123456789abcdef0123456789abcdef0", "\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00",
        "\\ud83d", "\\q", "\xC3\xA9", "\xE6\x97\xA5", "\xF0\x9F\x98\x80", "\xFF", "\x01", "\t", "\xED\xA0\x80",
        // The last three are what code is made of.
        "\\\"keep\\\" it", "    total = total + values[i] * 2  # ", "x\\n"};
    std::mt19937 rng(96);
    std::size_t taken = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string text = "{\"k\": \"" + std::string(rng() % 40, 'a') + "\\n";
        const std::size_t n = 8 + rng() % 80;
        for (std::size_t i = 0; i < n; ++i) {
            // Mostly what code is made of, so that most strings stay strict to their end.
            const std::size_t k = rng() % 16 == 0 ? rng() % pieces.size() : pieces.size() - 1 - rng() % 3;
            text += pieces[k];
        }
        text += "\"}" + std::string(rng() % 130, ' ');
        const d::ValueRead with = d::read_value(text, 0, 64);
        const d::ValueRead without = d::read_value(text, 0, 64, false, false);
        if (fast(text).first > 0) ++taken;
        INFO(text);
        REQUIRE(outcome(with) == outcome(without));
    }
    CHECK(taken > 5000);  // most stay strict to their end
}

// raw_length sizes the room a string is decoded into, so it must find exactly the quote a
// byte-by-byte walk finds: held to one on random runs of quotes, backslashes and text
// across every offset of its 64-byte blocks.
TEST_CASE("raw_length: the first quote no odd run of backslashes escapes, as a walk finds it") {
    const auto walk = [](const std::string& s) -> std::size_t {
        bool escaped = false;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (escaped) escaped = false;
            else if (s[i] == '\\') escaped = true;
            else if (s[i] == '"') return i;
        }
        return 0;
    };
    std::mt19937 rng(7);
    const char alphabet[] = {'\\', 'a', '\\', 'b', '\\', '"'};
    std::size_t found = 0;
    for (int round = 0; round < 50000; ++round) {
        const std::size_t n = rng() % 300;
        std::string s;
        // Long backslash runs now and then, across a block's edge. Two rounds in three have
        // one quote only, at the end, after whatever run: found or escaped by its parity.
        const bool one_quote = round % 3 != 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (rng() % 40 == 0) s += std::string(rng() % 70, '\\');
            else s += alphabet[rng() % (one_quote ? 5 : 6)];
        }
        if (one_quote) s += '"';
        const std::size_t want = walk(s);
        if (want > 0) ++found;
        INFO(s);
        REQUIRE(d::raw_length(s.data(), s.data() + s.size()) == want);
    }
    CHECK(found > 10000);
}

TEST_CASE("strict fast path: long strings end at the quote no odd run of backslashes escapes") {
    // Strings long enough for the closing quote to be looked for sixty-four bytes at a
    // time, with runs of backslashes of every length before quotes and across the blocks'
    // edges: each must read as the rules read it, to the same end.
    const std::vector<std::string> pieces = {"\\\"", "\\\\", "\\\\\\\"", "\\n", "x", "0123456789abcdef0123456789",
                                             "\\\\\\\\", "\\\\\\\\\\\""};
    std::mt19937 rng(64);
    std::size_t closed = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string text = "{\"k\": \"" + std::string(rng() % 70, 'a');
        const std::size_t n = 20 + rng() % 120;
        for (std::size_t i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
        text += "\"} \"tail\"";
        const d::ValueRead with = d::read_value(text, 0, 64);
        const d::ValueRead without = d::read_value(text, 0, 64, false, false);
        if (fast(text).first == text.size() - 7) ++closed;  // all but ` "tail"`: the strict reader took it
        INFO(text);
        REQUIRE(outcome(with) == outcome(without));
    }
    CHECK(closed == 20000);
}

}  // namespace strict_value_test
