// The decided prefix of a JSON string still being written (src/value/string_prefix.hpp), which
// the stream sends of a call's string argument before the call is complete.
//
// Exact outcomes: what each raw text decodes to, where decoding stops and why. A cut
// escape or character waits for more; what the lenient reader would repair or refuse
// stops the following; and for any text, decoding it in pieces gives what decoding it
// whole gives, and agrees with the lenient reader's own decoding.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "value/string_prefix.hpp"
#include "value/value_reader.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace string_prefix_test {

namespace d = toolgram::detail;
using Stop = d::StringPrefix::Stop;

namespace {

struct Decoded {
    std::string text;
    Stop stop;
    std::size_t end;
};

Decoded decode(std::string_view raw) {
    Decoded out{};
    const d::StringPrefix p = d::decode_string_prefix(raw, 0, out.text);
    out.stop = p.stop;
    out.end = p.end;
    return out;
}

}  // namespace

TEST_CASE("string prefix: plain text, escapes and characters, each once whole", "[string_prefix]") {
    struct Case {
        std::string raw, text;
        Stop stop;
        std::size_t end;
    };
    const std::vector<Case> cases = {
        {"", "", Stop::more, 0},
        {"plain text", "plain text", Stop::more, 10},
        {"done\" after", "done", Stop::closed, 4},
        {R"(a\nb\tc\"d\\e\/f\bg\fh\ri)", "a\nb\tc\"d\\e/f\bg\fh\ri", Stop::more, 25},
        {R"(caf\u00e9!)", "café!", Stop::more, 10},
        {R"(\ud83d\ude00)", "\xF0\x9F\x98\x80", Stop::more, 12},
        {"caf\xC3\xA9", "café", Stop::more, 5},
        {"tab\tand\nnewline raw", "tab\tand\nnewline raw", Stop::more, 19},  // kept as the reader keeps them
        // Cut by the end: wait, and decode nothing of the cut piece.
        {"line\\", "line", Stop::more, 4},
        {R"(x\u00)", "x", Stop::more, 1},
        {R"(x\ud83d)", "x", Stop::more, 1},
        {R"(x\ud83d\)", "x", Stop::more, 1},
        {R"(x\ud83d\ude0)", "x", Stop::more, 1},
        {"caf\xC3", "caf", Stop::more, 3},
        {"\xF0\x9F\x98", "", Stop::more, 0},
        // Not plain JSON: the lenient reader repairs or refuses these, so stop before them.
        {R"(a\x41)", "a", Stop::unsupported, 1},
        {R"(a\'b)", "a", Stop::unsupported, 1},
        {R"(a\ud800 b)", "a", Stop::unsupported, 1},      // a high surrogate alone
        {R"(a\ude00)", "a", Stop::unsupported, 1},        // a low surrogate alone
        {R"(a\ud800\u0041)", "a", Stop::unsupported, 1},  // a high surrogate and no low one
        {R"(a\u12G4)", "a", Stop::unsupported, 1},
        {R"(a\u1)" "x", "a", Stop::unsupported, 1},       // not hex, though short
        {"a\xFF" "bcdef", "a", Stop::unsupported, 1},
        {"a\xC3(", "a", Stop::unsupported, 1},
        {"a\xE0\x80", "a", Stop::unsupported, 1},  // an overlong form's start: no continuation helps
        {"a\xED\xA0", "a", Stop::unsupported, 1},  // a surrogate's start
        {"a\xE0\xA0", "a", Stop::more, 1},
        {"a\xF4\x8F\xBF", "a", Stop::more, 1},
    };
    for (const auto& c : cases) {
        CAPTURE(c.raw);
        const Decoded got = decode(c.raw);
        CHECK(got.text == c.text);
        CHECK(got.stop == c.stop);
        CHECK(got.end == c.end);
    }
}

TEST_CASE("string prefix: decoded in pieces as decoded whole, and as the lenient reader decodes", "[string_prefix]") {
    const std::string raw =
        R"(    if (x == \"end\") {\n\t\treturn path + \"\\\\tmp\";  // \u00e9t\u00e9 \ud83d\ude00 café 😀\n    }\/)";
    std::string whole;
    const d::StringPrefix all = d::decode_string_prefix(raw, 0, whole);
    REQUIRE(all.stop == Stop::more);
    REQUIRE(all.end == raw.size());
    std::string lenient;
    std::uint32_t repairs = 0;
    d::decode_string_content(raw, '"', lenient, repairs);
    CHECK(whole == lenient);
    CHECK(repairs == 0);
    // Every text the stream may hold, from every place an earlier decoding stopped.
    for (std::size_t cut = 0; cut <= raw.size(); ++cut) {
        std::string pieces;
        const d::StringPrefix first = d::decode_string_prefix(std::string_view(raw).substr(0, cut), 0, pieces);
        REQUIRE(first.stop == Stop::more);
        const d::StringPrefix rest = d::decode_string_prefix(raw, first.end, pieces);
        CHECK(rest.end == raw.size());
        CHECK(pieces == whole);
    }
}

TEST_CASE("text prefix: a parameter's text up to what may end it, less the layout at its ends", "[string_prefix]") {
    struct Case {
        std::string raw;
        d::TextLayout layout;
        std::string text;
        Stop stop;
        std::size_t end;
        bool at_start_after;
    };
    const d::TextLayout verbatim{}, newlines{true, false}, blanks{false, true};
    const std::vector<Case> cases = {
        {"", newlines, "", Stop::more, 0, true},
        {"\n", newlines, "", Stop::more, 1, false},  // the layout's line break, skipped
        {"\r", newlines, "", Stop::more, 0, true},   // may be the start of "\r\n": wait
        {"\r\nx", newlines, "x", Stop::more, 3, false},
        {"\nline one\n", newlines, "line one", Stop::more, 9, false},  // the last line break may be layout
        {"\nline one\n\n", newlines, "line one\n", Stop::more, 10, false},
        {"line one\r\n", verbatim, "line one", Stop::more, 8, false},  // dropped if the closer is missing
        {"  \t", blanks, "", Stop::more, 0, true},
        {"  a b  ", blanks, "a b", Stop::more, 5, false},
        {"a <= b, c < d, e << f, g <- h", verbatim, "a <= b, c < d, e << f, g <- h", Stop::more, 29, false},
        {"a <", verbatim, "a ", Stop::more, 2, false},  // what follows the '<' decides
        {"x\n</parameter>", verbatim, "x", Stop::unsupported, 1, false},
        {"if a<b:", verbatim, "if a", Stop::unsupported, 4, false},
        {"x <|end|>", verbatim, "x ", Stop::unsupported, 2, false},
        {"x <\xEF\xBD\x9C", verbatim, "x ", Stop::unsupported, 2, false},  // <｜ (DeepSeek's bar)
        {"<![CDATA[x]]>", verbatim, "", Stop::unsupported, 0, false},
        {"caf\xC3", verbatim, "caf", Stop::more, 3, false},
        {"caf\xC3(", verbatim, "caf", Stop::unsupported, 3, false},
        // Past an ASCII run long enough to be checked a word at a time.
        {"0123456789abcdef caf\xC3", verbatim, "0123456789abcdef caf", Stop::more, 20, false},
        {"0123456789abcdef caf\xC3(", verbatim, "0123456789abcdef caf", Stop::unsupported, 20, false},
        {"0123456789abcdef\xC3\xA9 x\n</p", verbatim, "0123456789abcdef\xC3\xA9 x", Stop::unsupported, 20, false},
    };
    for (const auto& c : cases) {
        CAPTURE(c.raw);
        std::string text;
        bool at_start = true;
        const d::StringPrefix p = d::decode_text_prefix(c.raw, 0, c.layout, at_start, text);
        CHECK(text == c.text);
        CHECK(p.stop == c.stop);
        CHECK(p.end == c.end);
        CHECK(at_start == c.at_start_after);
    }
}

}  // namespace string_prefix_test
