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
#pragma once

#include <cstddef>
#include <string_view>

#include <tao/pegtl.hpp>

namespace toolgram::detail {

struct EndWatch {
    const char* end = nullptr;  // the end of the text that has arrived
    bool touched = false;
};

inline thread_local EndWatch* active_end_watch = nullptr;

// Records that a reader looked at (or past) `end` of some text: counts only when that
// text ends where the arrived output ends.
inline void note_end(const char* end) noexcept {
    if (active_end_watch && end == active_end_watch->end) active_end_watch->touched = true;
}
inline void note_end(std::string_view text) noexcept { note_end(text.data() + text.size()); }

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
        if (e) note_end(this->end());
        return e;
    }
    [[nodiscard]] std::size_t size(const std::size_t amount = 0) const noexcept {
        const std::size_t s = base::size();
        if (amount == 0 || s < amount) note_end(this->end());
        return s;
    }
};

}  // namespace toolgram::detail
