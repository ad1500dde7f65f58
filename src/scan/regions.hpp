// Regions of the output that change how a candidate inside them is judged: reasoning
// blocks (their text is `reasoning`, calls in them are reported, not accepted) and
// Markdown fences (a call in a fence introduced as an example is not a call).
//
// Both are found in one linear pass each, before any grammar runs, so grammars never
// need to know about them. Fences pair as CommonMark pairs them: an opener is ``` or ~~~
// (three or more, after at most three spaces; a backtick opener's info string holds no
// backtick), and only a line of the opener's character, at least as long, with nothing
// but blanks after it, closes it; a fence never closed runs to the end.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scan/scan_context.hpp"

namespace toolgram::detail {

struct Region {
    std::size_t outer_begin = 0, outer_end = 0;  // with delimiters
    std::size_t inner_begin = 0, inner_end = 0;  // without
    bool closed = true;                          // false: ran to the end of output
    bool contains(std::size_t pos) const { return pos >= outer_begin && pos < outer_end; }
};

// Spans of text whose bytes are not delimiters, sorted and disjoint: a delimiter strictly
// inside one (`{"q": "what is <think>?"}` in a call) is text of that span.
using Masked = std::vector<std::pair<std::size_t, std::size_t>>;

// The span of the sorted, disjoint spans [first, last) that holds `pos` strictly inside
// (a delimiter there is that span's text), or `last`.
template <typename It>
It span_holding(It first, It last, std::size_t pos) {
    It it = std::upper_bound(first, last, pos, [](std::size_t p, const auto& span) { return p < span.first; });
    if (it == first) return last;
    --it;
    return it->first < pos && pos < it->second ? it : last;
}

std::vector<Region> find_reasoning(ScanContext& ctx, std::size_t limit, const Masked& masked = {});
std::vector<Region> find_fences(ScanContext& ctx, std::size_t limit);

// One line read as CommonMark reads a fence line, a byte at a time (a stream adds bytes as
// they arrive): at most three spaces, a run of three or more ` or ~, then an info string
// (an opener's) or blanks (a closer's). The line's bytes exclude its '\n'.
class FenceLine {
public:
    void add(std::string_view bytes) {
        for (char c : bytes) {
            if (state_ == State::no) return;  // decided: the rest of the line cannot change it
            add(c);
        }
    }
    void add(char c) {
        if (state_ == State::no) return;
        if (state_ == State::indent) {
            if (c == ' ' && indent_ < 3) return void(++indent_);
            if (c != '`' && c != '~') return void(state_ = State::no);
            ch_ = c;
            state_ = State::run;
        }
        if (state_ == State::run) {
            if (c == ch_) return void(++length_);
            if (length_ < 3) return void(state_ = State::no);
            state_ = State::after;
        }
        if (c == '`') tick_after_ = true;
        if (c != ' ' && c != '\t' && c != '\r') text_after_ = true;
    }
    // The whole line read: whether it opens a fence, or closes one opened by `ch` x `length`.
    bool opens() const { return fence() && !(ch_ == '`' && tick_after_); }
    bool closes(char ch, std::size_t length) const { return fence() && ch_ == ch && length_ >= length && !text_after_; }
    // Part of the line read: whether what follows may still make it open, or close.
    bool may_open() const { return state_ != State::no && !(ch_ == '`' && tick_after_); }
    bool may_close(char ch, std::size_t length) const {
        if (state_ == State::no || text_after_ || (ch_ != 0 && ch_ != ch)) return false;
        return state_ != State::after || length_ >= length;
    }
    char ch() const { return ch_; }
    std::size_t length() const { return length_; }

private:
    enum class State { indent, run, after, no };
    bool fence() const { return (state_ == State::run || state_ == State::after) && length_ >= 3; }
    State state_ = State::indent;
    int indent_ = 0;
    char ch_ = 0;
    std::size_t length_ = 0;
    bool tick_after_ = false;  // a backtick after the run: not an opener (CommonMark)
    bool text_after_ = false;  // anything but blanks after the run: not a closer
};

// True when the text just before `pos` (or before the fence holding it) introduces an
// example: "for example", "e.g.", "you could call" and the like, in English and the other
// languages models answer in most (Chinese, Spanish, French, German, Japanese, Portuguese,
// Russian, Korean and more: the table in regions.cpp). The lead-in is the call's own line
// before it, or, for a call that starts its line, the line before when that line ends
// introducing what follows (`Here is an example:`); for a fenced call, the paragraph
// before the fence. Only text from `floor` on can introduce an unfenced call: the end of
// the block before, whose syntax and arguments ("for example: …" in a previous call's
// string) are not prose leading to this call. (Every call of a fence has the fence's.)
bool introduced_as_example(std::string_view text, std::size_t pos, const std::vector<Region>& fences,
                           std::size_t floor = 0);

// Whether the paragraph right after the closed fence `f` disowns the call it holds: "这里只是
// 展示格式，不是真实调用。" ("this only shows the format, not a real call"), "just an example",
// "not a real call" and the like, in the languages of the lead-ins (the table in
// regions.cpp). Read is the first line after the fence's closing line (blank lines
// skipped), up to the first of `markers` (where tool syntax begins: the next call is not
// prose about this one), at most a bounded window. Fenced calls only: a fence shows
// a snippet on display, and what closes the display is part of it; an unfenced call is
// sent once its closer stands, so only what comes before it may make it an example.
// nullopt while the text so far does not decide it (a stream waits); `at_end`: the text
// is the whole output, so it always decides.
std::optional<bool> disowned_after_fence(std::string_view text, const Region& f, const std::vector<std::string>& markers,
                                         bool at_end);

// The guard's phrases as its tables hold them (folded: lower case), so that a test can
// hold every one to its effect: the lead-ins, each with whether it is strong (it makes
// an unfenced call an example too, not only a fenced one), and the disowners.
std::vector<std::pair<std::string_view, bool>> example_lead_ins();
std::vector<std::string_view> example_disowners();

// True when the fence `f` holds nothing but the block [begin, end) (and blanks or
// backticks after it): the fence only wraps tool syntax and goes with it.
bool fence_only_wraps(std::string_view text, const Region& f, std::size_t begin, std::size_t end);

const Region* region_at(const std::vector<Region>& regions, std::size_t pos);

}  // namespace toolgram::detail
