// The stream's fences (fence_tracker.hpp): complete lines only (a closer must have nothing
// but blanks after its run, an opener no backtick in its info string); a line that cannot
// be a fence line whatever follows is known as soon as that shows.
#include "stream/fence_tracker.hpp"

#include <algorithm>

namespace toolgram::detail::streaming {

const FenceLine& FenceTracker::read_line(std::string_view text, std::size_t to) const {
    if (line_read_at_ != line_start_) {
        line_read_ = FenceLine();
        line_read_at_ = line_read_to_ = line_start_;
    }
    if (to > line_read_to_) {
        line_read_.add(text.substr(line_read_to_, to - line_read_to_));
        line_read_to_ = to;
    }
    return line_read_;
}

int FenceTracker::line_kind(std::string_view text, bool finished, std::size_t line) const {
    if (line < line_start_ || line > text.size()) return 0;
    const FenceLine& fl = read_line(text, text.size());
    if (finished) return (open_ ? fl.closes(open_ch_, open_length_) : fl.opens()) ? 1 : 0;
    return (open_ ? fl.may_close(open_ch_, open_length_) : fl.may_open()) ? -1 : 0;
}

void FenceTracker::update(std::string_view text, bool finished) {
    for (;;) {
        // Resume the newline search where the last one stopped: a long line arriving
        // a token at a time must not be searched again from its start.
        std::size_t eol = text.find('\n', std::max(line_start_, eol_searched_));
        eol_searched_ = eol == npos ? text.size() : eol;
        if (eol == npos) {
            if (!finished || line_start_ >= text.size()) break;
            eol = text.size();
        }
        const FenceLine& fl = read_line(text, eol);
        if (!open_ && fl.opens()) {
            fences_.push_back({line_start_, far, std::min(eol + 1, text.size()), far, false});
            open_ = true;
            open_ch_ = fl.ch();
            open_length_ = fl.length();
        } else if (open_ && fl.closes(open_ch_, open_length_)) {
            auto& f = fences_.back();
            f.inner_end = line_start_;
            f.outer_end = eol;
            f.closed = true;
            open_ = false;
        }
        line_start_ = eol + 1;
    }
}

bool FenceTracker::fence_at(std::string_view text, bool finished, std::size_t pos, const Region*& out) const {
    out = nullptr;
    if (pos >= line_start_ && line_kind(text, finished, line_start_) != 0) return false;  // it may open or close one
    out = region_at(fences_, pos);
    return true;
}

}  // namespace toolgram::detail::streaming
