// The stream's reasoning blocks: the regions of a growing text that find_reasoning finds
// in the whole text (scan/regions.hpp), found by searches that resume where they stopped.
//
// Invariants:
//  - regions() holds, in order, each block found; the last one is open (its ends `far`)
//    while the search is inside it;
//  - before known() every position's place, in or out of reasoning, is final: while the
//    search guesses whether the output began inside a block (a closer before any opener),
//    nothing is known; a delimiter that may lie inside a call not read yet (at or past the
//    marker scan) waits for the scan, whose settled blocks mask the delimiters they hold
//    (add_mask), as parser.cpp masks calls read whole;
//  - only what a delimiter cut by the chunk's end could still become is held back.
// It reads the text and the settings' delimiters; the marker scan tells it where it stands
// and which blocks hold calls.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "readers/candidate.hpp"
#include "scan/regions.hpp"
#include "stream/basics.hpp"
#include "stream/needle_set.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::detail::streaming {

class ReasoningTracker {
public:
    explicit ReasoningTracker(const Settings& s);

    // Finds the blocks `text` shows; `scan`: where the marker scan stands (every block
    // beginning before it is settled, its mask added).
    void update(std::string_view text, bool finished, std::size_t scan);
    // A settled block that holds a call read whole: the delimiters strictly inside it are
    // the call's text.
    void add_mask(const Block& b);
    // Once all the text has arrived: a guess no delimiter is left to settle is settled as
    // outside (true), and the search starts again from 0.
    bool guess_settles_outside(std::string_view text);

    // Positions before this have a known place in or out of reasoning.
    std::size_t known(std::size_t text_size) const;
    const std::vector<Region>& regions() const { return regions_; }
    // Inside the last region, its closer not found before search_from().
    bool inside() const { return state_ == State::inside; }
    std::size_t search_from() const { return search_; }
    // The masks stay while a guess waits; given back once nothing is fed.
    void release_masks() {
        std::vector<std::pair<std::size_t, std::size_t>>().swap(masks_);
        masks_dropped_ = 0;
    }

private:
    enum class State { guessing, outside, inside };
    // Whether a delimiter found at `d` is masked by a call's block: 1 masked (its search
    // resumes at `resume`), 0 not, -1 not known until the marker scan passes `d`.
    int masked(std::size_t d, std::size_t& resume, std::size_t scan, bool finished) const;

    State state_ = State::outside;
    std::vector<Region> regions_;  // the last may be open (ends `far`)
    std::vector<std::string> openers_, closers_of_openers_, implicit_closers_, inside_closers_;
    NeedleSet opener_set_, delimiter_set_, closer_set_, inside_set_;
    std::size_t pos_ = 0;     // outside: no opener starts before this
    std::size_t search_ = 0;  // inside: no closer starts before this
    // Spans of settled blocks holding a call read whole: a delimiter strictly inside one is
    // the call's text (parser.cpp masks them the same way). Sorted and disjoint.
    std::vector<std::pair<std::size_t, std::size_t>> masks_;
    std::size_t masks_dropped_ = 0;  // those before this index are behind the search (add_mask)
    std::size_t wait_ = npos;  // a delimiter here waits for the marker scan to pass it
};

}  // namespace toolgram::detail::streaming
