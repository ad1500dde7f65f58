// End watch: did a grammar's reading of a block depend on where the text ends?
//
// A stream reads a block before the rest of the output exists. The read is final only if
// it never asked about bytes past what has arrived: then any continuation gives the same
// block, and the stream may report it. Readers ask about the end in a few ways, and each
// one reports here: a PEGTL rule that wants more input than is left (`watched_input`
// below, used by every reader), a search for a closer that is not there yet
// (ScanContext::find), and the handful of direct checks in readers ("is the rest blank?").
//
// The watch is thread-local and off outside streams, where the one check it costs is a
// null test; a stream turns it on around one read (`EndWatchScope`). Reporting is
// conservative: asking for four bytes when one would do still counts, which only delays a
// block, never lets a wrong one through.
//
// Readers also say what they were looking for when the text ran out, where that is a
// string (a closer such as `</tool_call>`, through the closer rules of runtime_literal.hpp
// and ScanContext::find): a stream reads the block again as soon as one of those strings
// arrives, instead of waiting for the block to grow (stream.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <tao/pegtl.hpp>

namespace toolgram::detail {

struct SectionMark {
    std::size_t candidates = 0;
    std::size_t end = 0;  // an offset in the text read
};

struct EndWatch {
    const char* end = nullptr;  // the end of the text that has arrived
    bool touched = false;
    // Strings a reader wanted at or past the end, distinct; `wanted_all` false once more
    // than a few were asked for (then none is a reliable sign that the read may finish).
    std::vector<std::string> wanted;
    bool wanted_all = true;
    // How far the text must reach for every rule that ran out of it to decide (a PEGTL
    // rule asks for so many bytes at a place); unknown once a reader asked otherwise.
    const char* needed = nullptr;
    bool needed_known = true;
    // Of the block a section reader is building (read_call_section): after each call read
    // before anything looked at the end, the section's candidates so far and where that
    // call ends; the last two such marks. Those candidates are the same in any
    // continuation of the text (the stream judges them before the section closes).
    SectionMark final_marks[2];  // [0] the last, [1] the one before
};

inline thread_local EndWatch* active_end_watch = nullptr;

// Records that a reader looked at (or past) `end` of some text: counts only when that
// text ends where the arrived output ends.
inline void note_end(const char* end) noexcept {
    if (active_end_watch && end == active_end_watch->end) {
        active_end_watch->touched = true;
        active_end_watch->needed_known = false;
    }
}
inline void note_end(std::string_view text) noexcept { note_end(text.data() + text.size()); }

// Records that a rule needed the text to reach `upto` to decide (past `end`).
inline void note_needed(const char* end, const char* upto) noexcept {
    EndWatch* w = active_end_watch;
    if (!w || end != w->end) return;
    w->touched = true;
    if (!w->needed || upto > w->needed) w->needed = upto;
}

// Records that a reader looked for `needle` and the text ended before it stood whole.
inline void note_wanted(const char* end, std::string_view needle) {
    EndWatch* w = active_end_watch;
    if (!w || end != w->end) return;
    w->touched = true;
    if (needle.empty() || !w->wanted_all) return;
    if (std::find(w->wanted.begin(), w->wanted.end(), needle) != w->wanted.end()) return;
    constexpr std::size_t few = 8;
    if (w->wanted.size() == few) {
        w->wanted_all = false;
        w->wanted.clear();
        return;
    }
    w->wanted.emplace_back(needle);
}
inline void note_wanted(std::string_view text, std::string_view needle) { note_wanted(text.data() + text.size(), needle); }

// A section reader has `n` candidates so far, its last call ending at `end`: final if
// nothing has looked at the end yet.
inline void note_final_candidates(std::size_t n, std::size_t end) noexcept {
    EndWatch* w = active_end_watch;
    if (!w || w->touched) return;
    w->final_marks[1] = w->final_marks[0];
    w->final_marks[0] = {n, end};
}

class EndWatchScope {
public:
    explicit EndWatchScope(std::string_view text) : saved_(active_end_watch) {
        watch_.end = text.data() + text.size();
        active_end_watch = &watch_;
    }
    ~EndWatchScope() { active_end_watch = saved_; }
    EndWatchScope(const EndWatchScope&) = delete;
    EndWatchScope& operator=(const EndWatchScope&) = delete;
    bool touched() const { return watch_.touched; }
    // Where the text must reach for the rules that ran out of it to decide, as an offset
    // from the text's start; npos when some reader asked about the end another way.
    std::size_t needed(const char* text_begin) const {
        if (!watch_.needed_known || !watch_.needed) return std::string_view::npos;
        return static_cast<std::size_t>(watch_.needed - text_begin);
    }
    // Strings the read looked for and did not find whole before the end: their arrival
    // may let it finish. Only a hint of when to read again (the read that follows is
    // judged final or not as any other); empty when the read named none, or too many.
    std::vector<std::string> take_wanted() { return std::move(watch_.wanted); }
    // The leading candidates a section reader read for good (note_final_candidates): the
    // last mark, and the one before.
    SectionMark final_mark(int which) const { return watch_.final_marks[which]; }

private:
    EndWatch watch_;
    EndWatch* saved_;
};

// The PEGTL input every reader runs on: a memory input that reports to the watch when a
// rule asks for more bytes than are left. PEGTL's rules learn about the end only through
// `empty()` and `size(n)`, which this shadows (rules are templates over the input type).
class watched_input : public tao::pegtl::memory_input<tao::pegtl::tracking_mode::lazy> {
    using base = tao::pegtl::memory_input<tao::pegtl::tracking_mode::lazy>;

public:
    using base::base;

    [[nodiscard]] bool empty() const noexcept {
        const bool e = base::empty();
        if (e) note_needed(this->end(), this->current() + 1);
        return e;
    }
    [[nodiscard]] std::size_t size(const std::size_t amount = 0) const noexcept {
        const std::size_t s = base::size();
        if (amount == 0) note_end(this->end());  // how much is left: the answer is the end
        else if (s < amount) note_needed(this->end(), this->current() + amount);
        return s;
    }
    // A closer rule (runtime_literal.hpp) awaited `lit` where the input ends.
    void wanted(std::string_view lit) const { note_wanted(this->end(), lit); }
};

}  // namespace toolgram::detail
