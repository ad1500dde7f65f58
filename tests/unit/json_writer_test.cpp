// The compact JSON writer the CLI prints with (src/io/json_writer.hpp): byte for byte what
// nlohmann's compact dump with the replace handler gives, on every escape, on strings
// long enough to be copied eight bytes at a time and handed to the stream in pieces, on
// invalid UTF-8 (nlohmann's replacement is the reference), deep nesting, and on the
// result of every corpus case; and past a prefix the stream sent, known by its digest
// (src/text/text_digest.hpp).
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "corpus_cases.hpp"
#include "io/json_writer.hpp"
#include "io/result_json.hpp"
#include "text/text_digest.hpp"
#include "toolgram/toolgram.hpp"
#include "text/utf8.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace json_writer_test {

namespace d = toolgram::detail;
using ojson = nlohmann::ordered_json;

namespace {

std::string reference(const ojson& v) { return v.dump(-1, ' ', false, ojson::error_handler_t::replace); }

std::string streamed(const ojson& v) {
    std::ostringstream out;
    d::write_compact_json(out, v);
    return out.str();
}

void check_same(const ojson& v) {
    const std::string want = reference(v);
    CHECK(d::compact_json(v) == want);
    CHECK(streamed(v) == want);
}

// write_compact_json_made_valid: what make_valid_utf8 then the writer give.
std::string made_valid(const ojson& v) {
    std::ostringstream out;
    d::write_compact_json_made_valid(out, v);
    return out.str();
}
std::string valid_then_written(ojson v) {
    d::make_valid_utf8(v);
    return d::compact_json(v);
}

}  // namespace

TEST_CASE("json writer: every escape, at every offset of the eight-byte scan") {
    std::string all_bytes;
    for (int c = 1; c < 0x80; ++c) all_bytes += static_cast<char>(c);
    all_bytes += std::string("\0", 1);
    for (std::size_t pad = 0; pad < 9; ++pad) {
        CAPTURE(pad);
        check_same(ojson(std::string(pad, 'a') + all_bytes + std::string(pad, 'b')));
        check_same(ojson(std::string(pad, 'x') + "caf\xC3\xA9 \xE6\x97\xA5 \xF0\x9F\x98\x80 \x7F\"\\\n"));
    }
}

TEST_CASE("json writer: invalid UTF-8 comes out as nlohmann's replace handler writes it") {
    for (const std::string s : {"\xFF", "ab\xC3", "\xE6\x97 tail", "ok \xED\xA0\x80 surrogate", "\xC0\xAF overlong",
                                "mixed \xC3\xA9\xFF\"\n\x01 end", "\xF4\x90\x80\x80 past U+10FFFF"}) {
        CAPTURE(s);
        check_same(ojson(s));
        check_same(ojson::object({{s, s}}));
    }
}

TEST_CASE("json writer: made valid as it writes, each maximal invalid subsequence as make_valid_utf8 replaces it") {
    for (const std::string s : {"\xFF", "ab\xC3", "\xE6\x97 tail", "ok \xED\xA0\x80 surrogate", "\xC0\xAF overlong",
                                "mixed \xC3\xA9\xFF\"\n\x01 end", "\xF4\x90\x80\x80 past U+10FFFF", "\xE6\x97\xFF\xF0\x9F\x98",
                                "valid \xC3\xA9 only"}) {
        CAPTURE(s);
        CHECK(made_valid(ojson(s)) == valid_then_written(ojson(s)));
        CHECK(made_valid(ojson::object({{"k", s}, {"a", ojson::array({s, 1, s})}})) ==
              valid_then_written(ojson::object({{"k", s}, {"a", ojson::array({s, 1, s})}})));
        CHECK(made_valid(ojson::object({{s, 1}})) == valid_then_written(ojson::object({{s, 1}})));
    }
    // Long runs of invalid bytes between valid ones, past the writer's buffer.
    std::string big;
    for (int i = 0; i < 40000; ++i) big += "abc \xff\xfe text \xc3 more \xe6\x97\xa5 ";
    CHECK(made_valid(ojson(big)) == valid_then_written(ojson(big)));
    // A result's document: to_json is result_document made valid.
    toolgram::Result r;
    r.content = big;
    r.reasoning = "think \xC3";
    r.calls.push_back({"call_0", "get_weather", ojson::object({{"city", "Paris"}})});
    CHECK(made_valid(d::result_document(toolgram::Result(r))) == d::compact_json(toolgram::to_json(r)));
}

TEST_CASE("json writer: containers, scalars and a long string written in pieces") {
    check_same(ojson::parse(R"({"a":[1,-2,3.5,1e300,true,false,null,{},[],""],"b":{"c":{"d":[[]]}},"":0})"));
    check_same(ojson(18446744073709551615ULL));
    check_same(ojson(-0.0));
    check_same(ojson(1.0 / 3));
    check_same(ojson::array());
    std::string big;
    for (int i = 0; i < 50000; ++i) big += "line " + std::to_string(i) + "\t\"quoted\"\n";
    check_same(ojson::object({{"content", big}, {"after", 1}}));
    // Nesting past any recursion the writer could afford: an explicit stack.
    ojson deep = ojson::array();
    for (int i = 0; i < 100000; ++i) deep = ojson::array({std::move(deep)});
    CHECK(d::compact_json(deep) == std::string(100001, '[') + std::string(100001, ']'));
}

// A string is escaped into a block of 4,096 bytes that is handed on when full: every kind
// of piece (an escape of 2 or 6 bytes, a character of 2 to 4, a replacement, nlohmann's
// tail for invalid bytes) is put across the block's edge, and at it, at each offset.
TEST_CASE("json writer: pieces across the edge of the writer's block") {
    const std::vector<std::string> pieces = {"\"", "\\", "\n", std::string("\x01", 1), "\xC3\xA9", "\xE6\x97\xA5",
                                             "\xF0\x9F\x98\x80", "\x01\x02\x03\x1F\"\\"};
    for (std::size_t pad = 4080; pad <= 4100; ++pad) {
        for (const auto& piece : pieces) {
            CAPTURE(pad, piece);
            const std::string s = std::string(pad, 'a') + piece + std::string(5000, 'b') + piece + "\"end";
            check_same(ojson(s));
            check_same(ojson::array({s, s}));
        }
        CAPTURE(pad);
        const std::string invalid = std::string(pad, 'a') + "\xC3 \xFF\xE6\x97" + std::string(5000, 'c');
        check_same(ojson(invalid));
        CHECK(made_valid(ojson(invalid)) == valid_then_written(ojson(invalid)));
    }
    // Six-byte escapes only: each block ends short of its room.
    check_same(ojson(std::string(10000, '\x01')));
    // Escapes only, two bytes each, and the digested prefix cut at and around the edges.
    const ojson quotes = ojson::object({{"q", std::string(9000, '"')}});
    const std::string all = reference(quotes);
    for (std::size_t n : {std::size_t{4095}, std::size_t{4096}, std::size_t{4097}, std::size_t{8192}, std::size_t{8193}}) {
        CAPTURE(n);
        d::TextDigest sent;
        sent.append(std::string_view(all).substr(0, n));
        const auto rest = d::compact_json_past(quotes, sent);
        REQUIRE(rest.has_value());
        CHECK(*rest == all.substr(n));
    }
}

// What the stream keeps of what it sent: the digest of a text is the same however the
// text was cut into pieces, and tells apart texts of one length that differ anywhere.
TEST_CASE("text digest: independent of the pieces, sensitive to every byte") {
    std::string text;
    for (int i = 0; text.size() < 1000; ++i) text += "piece " + std::to_string(i) + " \"é\"\n";
    d::TextDigest whole;
    whole.append(text);
    CHECK(whole.size() == text.size());
    for (std::size_t cut : {std::size_t{1}, std::size_t{3}, std::size_t{31}, std::size_t{32}, std::size_t{33}, std::size_t{100}}) {
        d::TextDigest pieces;
        for (std::size_t at = 0; at < text.size(); at += cut) pieces.append(std::string_view(text).substr(at, cut));
        INFO(cut);
        CHECK(pieces == whole);
    }
    CHECK(whole.starts(text));
    CHECK(whole.starts(text + "more"));
    CHECK_FALSE(whole.starts(text.substr(0, text.size() - 1)));
    // One byte changed anywhere (in a whole stripe or in the unfinished one), or two
    // bytes swapped: a different digest.
    for (std::size_t at = 0; at < text.size(); ++at) {
        std::string other = text;
        other[at] = static_cast<char>(other[at] ^ 1);
        d::TextDigest o;
        o.append(other);
        INFO(at);
        CHECK_FALSE(o == whole);
        CHECK_FALSE(whole.starts(other));
    }
    std::string swapped = text;
    std::swap(swapped[0], swapped[8]);
    d::TextDigest s;
    s.append(swapped);
    CHECK_FALSE(s == whole);
    CHECK(d::TextDigest() == d::TextDigest());
    CHECK(d::TextDigest().starts(""));
}

// The stream's check of a call against what it sent: the JSON past the digested prefix,
// or nothing when the JSON does not begin with it.
TEST_CASE("json writer: compact JSON past a digested prefix") {
    std::string big;
    for (int i = 0; i < 5000; ++i) big += "line " + std::to_string(i) + "\t\"q\"\n";
    const ojson v = ojson::object({{"path", "a.py"}, {"content", big}});
    const std::string all = reference(v);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{20}, all.size() / 2, all.size() - 2, all.size()}) {
        d::TextDigest sent;
        sent.append(std::string_view(all).substr(0, n));
        const auto rest = d::compact_json_past(v, sent);
        INFO(n);
        REQUIRE(rest.has_value());
        CHECK(*rest == all.substr(n));
    }
    d::TextDigest wrong;
    wrong.append(std::string_view(all).substr(0, all.size() / 2 - 1));
    wrong.append("X");
    CHECK_FALSE(d::compact_json_past(v, wrong).has_value());
    d::TextDigest longer;
    longer.append(all + " ");
    CHECK_FALSE(d::compact_json_past(v, longer).has_value());
}

// The same check when what was sent is in two parts, as while the stream follows a
// call's last string: the JSON up to that string's body, and the body's decoded text.
TEST_CASE("json writer: compact JSON past a head and a string's decoded start") {
    std::string big;
    for (int i = 0; i < 3000; ++i) big += "line " + std::to_string(i) + "\t\"q\" é\n";
    const ojson v = ojson::object({{"path", "a.py"}, {"mode", 420}, {"content", big}});
    const std::string all = reference(v);
    const std::string head = R"({"path":"a.py","mode":420,"content":")";
    REQUIRE(d::compact_json_head(v) == head);
    d::TextDigest h;
    h.append(head);
    // Cut between characters anywhere: the rest is the whole JSON past head and the
    // escaped start, as compact_json_past finds it from the digest of both.
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{9}, big.size() / 2, big.size()}) {
        while (n < big.size() && (static_cast<unsigned char>(big[n]) & 0xC0) == 0x80) ++n;  // between characters
        INFO(n);
        d::TextDigest body;
        body.append(std::string_view(big).substr(0, n));
        const std::string sent_body = reference(ojson(big.substr(0, n)));
        const std::string sent = head + sent_body.substr(1, sent_body.size() - 2);
        const auto rest = d::compact_json_past_split(v, h, body);
        REQUIRE(rest.has_value());
        CHECK(*rest == all.substr(sent.size()));
        d::TextDigest whole;
        whole.append(sent);
        CHECK(d::compact_json_past(v, whole) == rest);
    }
    d::TextDigest changed;  // one byte of the string's start differs
    changed.append("lime 0");
    CHECK_FALSE(d::compact_json_past_split(v, h, changed).has_value());
    d::TextDigest longer;  // more than the string holds
    longer.append(big + "x");
    CHECK_FALSE(d::compact_json_past_split(v, h, longer).has_value());
    d::TextDigest other_head;  // another key before the string
    other_head.append(R"({"path":"b.py","mode":420,"content":")");
    CHECK_FALSE(d::compact_json_past_split(v, other_head, d::TextDigest()).has_value());
    // Only an object whose last member is a string has a head.
    CHECK_FALSE(d::compact_json_head(ojson::object({{"content", big}, {"mode", 420}})).has_value());
    CHECK_FALSE(d::compact_json_head(ojson::array({big})).has_value());
    CHECK_FALSE(d::compact_json_head(ojson::object()).has_value());
    CHECK(d::compact_json_head(ojson::object({{"a", ""}})) == std::string(R"({"a":")"));
    CHECK(d::compact_json_past_split(ojson::object({{"a", ""}}), [] {
              d::TextDigest t;
              t.append(R"({"a":")");
              return t;
          }(), d::TextDigest()) == std::string("\"}"));
}

TEST_CASE("json writer: the result of every corpus case is written as dump writes it") {
    std::size_t cases = 0;
    for (const auto& c : toolgram_test::all_cases()) {
        const std::string text = toolgram_test::slurp(c.text);
        const ojson spec = ojson::parse(toolgram_test::slurp(c.expect));
        const toolgram::Parser parser =
            toolgram_test::parser_with(toolgram_test::profile_for(spec, c.text.parent_path()), toolgram_test::tools_for(spec));
        const toolgram::Result r = parser.parse(text);
        const ojson j = toolgram::to_json(r);
        INFO(c.text.string());
        CHECK(d::compact_json(j) == reference(j));
        CHECK(toolgram::to_json(toolgram::Result(r)) == j);  // the moving overload gives the same document
        CHECK(made_valid(d::result_document(toolgram::Result(r))) == d::compact_json(j));  // the CLI's way
        ++cases;
    }
    CHECK(cases > 1000);
}

}  // namespace json_writer_test
