// The marker index (src/scan/marker_index.hpp) must answer exactly what the searches it
// replaces answered: std::string_view::find for each needle, find_ci for needles ignoring
// case, and the fences found line by line. Checked on random texts built from pieces of
// the needles (so matches overlap, are cut, and sit at both ends and across the bitmap's
// 64-byte words and 4096-byte summary words), on each of the pass's paths.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "scan/marker_index.hpp"
#include "scan/needle_search.hpp"
#include "scan/regions.hpp"
#include "scan/scan_context.hpp"
#include "stream/stream_impl.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace marker_index_test {

namespace {

using toolgram::detail::MarkerIndex;
using toolgram::detail::MarkerSet;
using toolgram::detail::Region;
using toolgram::detail::ScanContext;
constexpr std::size_t npos = std::string_view::npos;

const std::vector<std::string> exact_needles = {
    "<tool_call>", "<tool_call", "</tool_call>", "[TOOL_CALLS]", "[", "{", "TOOL_CALL", "functools[", "Action:",
    "function.name:", ">>>", "```", "<think>", "</think>", "<｜tool▁calls▁begin｜>", "<|channel|>analysis<|message|>",
    "<|end|>", "aa", "a",
    // Harmony's tokens share anchor and neighbour (`<|`), and some the byte after (`<|c`):
    // a hit tells them apart by those bytes, then by the head word.
    "<|start|>", "<|channel|>", "<|call|>", "<|constrain|>", "<|c", "|>x",
};
const std::vector<std::string> folded_needles = {"need_tool: yes", "CALL_TOOL", "Call_me"};

std::string random_text(std::mt19937& rng, std::size_t pieces) {
    static const std::vector<std::string> extra = {" ", "\n", "x", "A", ":", "_", "`", "<", "|", "｜", "NEED_TOOL: YES",
                                                   "call_tool", "cALL_me", "tool", "\n   ```", "\n    ```"};
    std::string out;
    for (std::size_t i = 0; i < pieces; ++i) {
        const unsigned r = rng();
        if (r % 3 == 0) {
            const auto& n = exact_needles[(r >> 4) % exact_needles.size()];
            out += (r >> 12) % 4 == 0 ? n.substr(0, (r >> 16) % (n.size() + 1)) : n;  // sometimes cut
        } else if (r % 3 == 1) {
            out += extra[(r >> 4) % extra.size()];
        } else {
            out += folded_needles[(r >> 4) % folded_needles.size()];
        }
    }
    return out;
}

MarkerSet make_set() {
    MarkerSet set;
    for (const auto& n : exact_needles) set.add(n);
    for (const auto& n : folded_needles) set.add(n, true);
    return set;
}

// The fences line by line, as CommonMark reads fence lines (written here from the spec, not
// with the parser's FenceLine): at most three spaces, three or more ` or ~; an opener's info
// string holds no backtick after backticks; a closer has the opener's character, at least
// its length, and nothing but blanks after it.
std::vector<Region> fences_line_by_line(std::string_view text, std::size_t limit) {
    std::vector<Region> out;
    text = text.substr(0, limit);
    bool open = false;
    char open_ch = 0;
    std::size_t open_len = 0;
    Region current;
    std::size_t line = 0;
    while (line < text.size()) {
        std::size_t eol = text.find('\n', line);
        if (eol == npos) eol = text.size();
        std::size_t p = line;
        while (p < eol && p - line < 3 && text[p] == ' ') ++p;
        const char ch = p < eol ? text[p] : 0;
        std::size_t run = 0;
        while ((ch == '`' || ch == '~') && p + run < eol && text[p + run] == ch) ++run;
        const std::string_view rest = text.substr(p + run, eol - p - run);
        if (run >= 3) {
            if (!open && !(ch == '`' && rest.find('`') != npos)) {
                current.outer_begin = line;
                current.inner_begin = std::min(eol + 1, text.size());
                open = true;
                open_ch = ch;
                open_len = run;
            } else if (open && ch == open_ch && run >= open_len && rest.find_first_not_of(" \t\r") == npos) {
                current.inner_end = line;
                current.outer_end = eol;
                out.push_back(current);
                open = false;
            }
        }
        line = eol + 1;
    }
    if (open) {
        current.inner_end = current.outer_end = text.size();
        current.closed = false;
        out.push_back(current);
    }
    return out;
}

bool same_regions(const std::vector<Region>& a, const std::vector<Region>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].outer_begin != b[i].outer_begin || a[i].outer_end != b[i].outer_end ||
            a[i].inner_begin != b[i].inner_begin || a[i].inner_end != b[i].inner_end || a[i].closed != b[i].closed)
            return false;
    return true;
}

}  // namespace

TEST_CASE("the marker index finds each needle where string_view::find and find_ci do", "[marker_index]") {
    const MarkerSet set = make_set();
    const int widest = GENERATE(512, 256, 0);  // AVX-512, AVX2, a byte at a time (where the CPU has them)
    CAPTURE(widest);
    std::mt19937 rng(2024);
    std::size_t compared = 0;
    for (int round = 0; round < 400; ++round) {
        // Mostly short texts; some long ones with the needles far apart (prose between).
        std::string text = random_text(rng, rng() % 40);
        if (round % 20 == 0) {
            std::string sparse;
            for (int i = 0; i < 12; ++i) sparse += std::string(rng() % 3000, 'x') + random_text(rng, 3);
            text = sparse;
        }
        CAPTURE(text);
        const MarkerIndex index(set, text, widest);
        const std::size_t step = text.size() > 400 ? 37 : 1;
        for (const auto& n : exact_needles) {
            REQUIRE(index.covers(n));
            for (std::size_t from = 0; from <= text.size() + 1; from += step) {
                CAPTURE(n, from);
                REQUIRE(index.find(n, from) == std::string_view(text).find(n, from));
                ++compared;
            }
        }
        for (const auto& n : folded_needles) {
            REQUIRE(index.covers(n, true));
            REQUIRE_FALSE(index.covers(n));
            for (std::size_t end = 0; end <= text.size(); end += step) {
                CAPTURE(n, end);
                REQUIRE(index.find(n, 0, true, end) == toolgram::detail::find_ci(std::string_view(text).substr(0, end), n));
                ++compared;
            }
        }
        // next(): the first start of any needle.
        for (std::size_t from = 0; from <= text.size(); from += step) {
            std::size_t first = npos;
            for (const auto& n : exact_needles) first = std::min(first, std::string_view(text).find(n, from));
            for (const auto& n : folded_needles) {
                const std::size_t f = toolgram::detail::find_ci(std::string_view(text).substr(from), n);
                if (f != npos) first = std::min(first, from + f);
            }
            CAPTURE(from);
            REQUIRE(index.next(from) == first);
        }
    }
    CHECK(compared > 100000);
}

// Issue 29, item 3: needles past detail::long_needle are found by a linear pass of their
// own (in the index, find_ci, find_needle, a stream's held-back tail). They answer what
// the plain searches answer, on texts of the needles' own period (where comparing at each
// start costs the needle's length) with the needles cut, whole, overlapping and in any case.
TEST_CASE("long needles are found where string_view::find and a plain ci search find them", "[marker_index][needle]") {
    using toolgram::detail::LinearNeedle;
    auto repeat = [](std::string_view unit, std::size_t size) {
        std::string s;
        while (s.size() < size) s += unit;
        s.resize(size);
        return s;
    };
    const std::vector<std::string> exact = {repeat("<a", 65) + "b", repeat("ab", 130), repeat("<tool_call>", 300)};
    const std::vector<std::string> folded = {repeat("Need_Tool: ", 100) + "YES"};
    MarkerSet set;
    set.add("<tool_call>");
    for (const auto& n : exact) set.add(n);
    for (const auto& n : folded) set.add(n, true);
    auto fold = [](std::string s) {
        for (char& c : s) c = toolgram::detail::fold_ascii(c);
        return s;
    };
    auto naive_ci = [&](std::string_view hay, std::string_view needle) { return fold(std::string(hay)).find(fold(std::string(needle))); };
    std::mt19937 rng(29);
    std::vector<std::string> pieces = {"<a", "b", "ab", "<tool_call>", "NEED_TOOL: ", "need_tool: ", "yes", "x"};
    for (const auto& n : exact) pieces.push_back(n);
    for (const auto& n : folded) pieces.push_back(n);
    const int widest = GENERATE(512, 0);
    for (int round = 0; round < 150; ++round) {
        std::string text;
        const std::size_t count = rng() % 30;
        for (std::size_t i = 0; i < count; ++i) {
            const std::string& p = pieces[rng() % pieces.size()];
            text += rng() % 3 == 0 ? p.substr(0, rng() % (p.size() + 1)) : p;
        }
        CAPTURE(text);
        const MarkerIndex index(set, text, widest);
        for (const auto& n : exact) {
            REQUIRE(index.covers(n));
            for (std::size_t from = 0; from <= text.size() + 1; from += 7) {
                CAPTURE(n, from);
                REQUIRE(index.find(n, from) == std::string_view(text).find(n, from));
                REQUIRE(toolgram::detail::find_needle(text, n, from) == std::string_view(text).find(n, from));
            }
            // What a stream holds back: the longest end of the text that begins the needle.
            std::size_t tail = text.size();
            for (std::size_t p = text.size() >= n.size() ? text.size() - n.size() + 1 : 0; p < text.size(); ++p)
                if (n.compare(0, text.size() - p, text, p, text.size() - p) == 0) {
                    tail = p;
                    break;
                }
            REQUIRE(LinearNeedle(n, false).partial_tail(text) == tail);
        }
        for (const auto& n : folded) {
            for (std::size_t end = 0; end <= text.size(); end += 7) {
                CAPTURE(n, end);
                const std::string_view upto = std::string_view(text).substr(0, end);
                REQUIRE(index.find(n, 0, true, end) == naive_ci(upto, n));
                REQUIRE(toolgram::detail::find_ci(upto, n) == naive_ci(upto, n));
            }
        }
        for (std::size_t from = 0; from <= text.size(); from += 7) {
            std::size_t first = std::string_view(text).find("<tool_call>", from);
            for (const auto& n : exact) first = std::min(first, std::string_view(text).find(n, from));
            for (const auto& n : folded) {
                const std::size_t f = naive_ci(std::string_view(text).substr(from), n);
                if (f != npos) first = std::min(first, from + f);
            }
            REQUIRE(index.next(from) == first);
        }
    }
}

// A stream holds back the end of its buffer that may begin a needle; for a long needle
// the matching state is carried from chunk to chunk. Fed a byte at a time and in chunks,
// over a buffer that grows (and moves), it holds back what a plain comparison would.
TEST_CASE("a stream holds back a long needle's partial match as a plain comparison does", "[marker_index][needle]") {
    using toolgram::detail::streaming::NeedleSet;
    std::string periodic;
    while (periodic.size() < 130) periodic += "<a";
    const std::vector<std::string> needles = {periodic + "b", std::string(100, 'x') + "CALL", "<tool_call>"};
    auto plain = [&](std::string_view text, bool fold) {
        auto same = [&](char a, char b) {
            return fold ? toolgram::detail::fold_ascii(a) == toolgram::detail::fold_ascii(b) : a == b;
        };
        for (std::size_t p = 0; p < text.size(); ++p)
            for (const auto& n : needles) {
                const std::size_t rest = text.size() - p;
                if (n.size() <= rest) continue;
                std::size_t k = 0;
                while (k < rest && same(text[p + k], n[k])) ++k;
                if (k == rest) return p;
            }
        return text.size();
    };
    std::mt19937 rng(7);
    const std::vector<std::string> pieces = {"<a", "b", "x", "xxxxxxxxxx", "call", "CALL", "<tool_call>", "<tool", periodic};
    for (const bool fold : {false, true}) {
        for (int round = 0; round < 60; ++round) {
            const NeedleSet set(needles, fold);
            std::string text;
            for (std::size_t i = rng() % 40; i > 0; --i) text += pieces[rng() % pieces.size()];
            std::string buf;
            for (std::size_t at = 0; at < text.size();) {
                const std::size_t chunk = 1 + rng() % 40;
                buf.append(text, at, chunk);
                at += chunk;
                CAPTURE(fold, buf);
                REQUIRE(toolgram::detail::streaming::partial_tail(buf, set) == plain(buf, fold));
            }
        }
    }
}

TEST_CASE("a needle the index does not cover is searched in the text", "[marker_index]") {
    const MarkerSet set = make_set();
    const std::string text = "a <b>c</b> </tool_call> x";
    const MarkerIndex index(set, text);
    toolgram::Settings settings;
    ScanContext ctx(text, settings);
    ctx.use_index(&index);
    CHECK_FALSE(index.covers("</b>"));
    CHECK(ctx.find("</b>", 0) == 6);
    CHECK(ctx.find("</tool_call>", 0) == 11);
    CHECK(ctx.find("</tool_call>", 12) == npos);
}

TEST_CASE("the scan context's cache answers as a search does, for few needles and for many", "[marker_index]") {
    // Its first needles are compared directly and the rest found through a map; some are
    // indexed, some not, and the index is given back halfway, as a parse does.
    const MarkerSet set = make_set();
    std::string text;
    std::vector<std::string> needles = {"</tool_call>", "<tool_call>", "[TOOL_CALLS]", "</b>"};
    for (int i = 0; i < 40; ++i) needles.push_back("</param_" + std::to_string(i) + ">");
    std::mt19937 rng(30);
    for (int i = 0; i < 400; ++i) text += needles[rng() % needles.size()] + (rng() % 2 ? " x " : "\n");
    toolgram::Settings settings;
    const MarkerIndex index(set, text);
    ScanContext ctx(text, settings);
    ctx.use_index(&index);
    for (int round = 0; round < 4000; ++round) {
        if (round == 2000) ctx.use_index(nullptr);
        const std::string& needle = needles[rng() % needles.size()];
        const std::size_t from = rng() % (text.size() + 1);
        CAPTURE(needle, from, round);
        REQUIRE(ctx.find(needle, from) == text.find(needle, from));
    }
}

TEST_CASE("fences found through the index are the fences found line by line", "[marker_index]") {
    MarkerSet set;
    set.add("```");
    set.add("~~~");
    toolgram::Settings settings;
    std::mt19937 rng(7);
    static const std::vector<std::string> pieces = {"```", "``", "`", " ", "  ", "   ", "    ", "\n", "x", "```json\n",
                                                    "\n```\n", "~~~", "~", "````", "\n~~~~\n", "\t", "\r"};
    for (int round = 0; round < 6000; ++round) {
        std::string text;
        for (unsigned i = 0, n = rng() % 30; i < n; ++i) text += pieces[rng() % pieces.size()];
        const std::size_t limit = round % 3 == 0 ? rng() % (text.size() + 1) : text.size();
        CAPTURE(text, limit);
        const MarkerIndex index(set, text);
        ScanContext indexed(text, settings);
        indexed.use_index(&index);
        ScanContext plain(text, settings);
        const auto expected = fences_line_by_line(text, limit);
        REQUIRE(same_regions(toolgram::detail::find_fences(indexed, limit), expected));
        REQUIRE(same_regions(toolgram::detail::find_fences(plain, limit), expected));
    }
}

}  // namespace marker_index_test
