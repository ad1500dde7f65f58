// The stream's Markdown fences: the fences of a growing text, the same as find_fences
// finds in the whole text (scan/regions.hpp), found a line at a time as lines complete.
//
// Invariant: every line that ends before line_start() is classified, and fences() holds
// each fence opened there, in order, the last one open (its ends `far`) while a closer is
// still awaited. A line is read once, however it arrives: its bytes as far as seen are
// kept read (FenceLine), and the search for its end resumes where it stopped. Reading
// needs only the text, so the tracker owns nothing of the rest of the stream.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "scan/regions.hpp"
#include "stream/basics.hpp"

namespace toolgram::detail::streaming {

class FenceTracker {
public:
    // Classifies every line `text` completes; with `finished`, the last line too.
    void update(std::string_view text, bool finished);

    // For the line that starts at `line`: 1 when it opens a fence (none is open) or closes
    // the open one; 0 when it does not; -1 while that is not known. A complete line before
    // line_start() was classified already: inside a fence still open it closed nothing, so 0.
    int line_kind(std::string_view text, bool finished, std::size_t line) const;

    // The fence holding `pos` (null: none); false while that is not known yet.
    bool fence_at(std::string_view text, bool finished, std::size_t pos, const Region*& out) const;

    const std::vector<Region>& fences() const { return fences_; }
    // The first line not classified yet.
    std::size_t line_start() const { return line_start_; }

private:
    // The line at line_start_, read up to `to`.
    const FenceLine& read_line(std::string_view text, std::size_t to) const;

    std::vector<Region> fences_;  // the last may be open (ends `far`)
    bool open_ = false;
    char open_ch_ = 0;  // the open fence's opener: its character and length
    std::size_t open_length_ = 0;
    std::size_t line_start_ = 0;    // first line not yet classified
    std::size_t eol_searched_ = 0;  // no newline in [line_start_, eol_searched_)
    // The line at line_start_ as read so far, so a long line arriving a token at a time is
    // read once, not again at each feed.
    mutable FenceLine line_read_;
    mutable std::size_t line_read_at_ = npos, line_read_to_ = 0;
};

}  // namespace toolgram::detail::streaming
