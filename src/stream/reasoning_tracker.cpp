// The stream's reasoning blocks (reasoning_tracker.hpp).
#include "stream/reasoning_tracker.hpp"

#include <algorithm>

namespace toolgram::detail::streaming {

ReasoningTracker::ReasoningTracker(const Settings& s) {
    for (const auto& d : s.reasoning) {
        openers_.push_back(d.open);
        closers_of_openers_.push_back(d.close);
        if (d.implicit_open && !d.close.empty() && s.reasoning_start != ReasoningStart::outside)
            implicit_closers_.push_back(d.close);
    }
    if (s.reasoning.empty()) {
        state_ = State::outside;
    } else if (s.reasoning_start == ReasoningStart::inside && !implicit_closers_.empty()) {
        regions_.push_back({0, far, 0, far, false});
        inside_closers_ = implicit_closers_;
        state_ = State::inside;
    } else if (s.reasoning_start == ReasoningStart::guess && !implicit_closers_.empty()) {
        state_ = State::guessing;
    }
    opener_set_ = NeedleSet(openers_);
    std::vector<std::string> delimiters = openers_;
    delimiters.insert(delimiters.end(), implicit_closers_.begin(), implicit_closers_.end());
    delimiter_set_ = NeedleSet(delimiters);
    closer_set_ = NeedleSet(implicit_closers_);
    inside_set_ = NeedleSet(inside_closers_);
}

int ReasoningTracker::masked(std::size_t d, std::size_t& resume, std::size_t scan, bool finished) const {
    const auto first = masks_.begin() + static_cast<std::ptrdiff_t>(masks_dropped_);
    if (const auto span = span_holding(first, masks_.end(), d); span != masks_.end()) {
        resume = span->second;
        return 1;
    }
    // Every block beginning before `d` is settled once the scan stands at or past it.
    return d <= scan || finished ? 0 : -1;
}

void ReasoningTracker::add_mask(const Block& b) {
    if (b.end <= b.begin ||
        std::none_of(b.candidates.begin(), b.candidates.end(), [](const Candidate& c) { return c.problem.empty(); }))
        return;
    // Once the search has left its guess it never goes back (a guess settled outside
    // starts it again from 0): masks wholly behind where it stands are never asked about
    // again, and an output of back-to-back calls would keep one per call.
    if (state_ != State::guessing) {
        const std::size_t at = state_ == State::inside ? search_ : pos_;
        while (masks_dropped_ < masks_.size() && masks_[masks_dropped_].second <= at) ++masks_dropped_;
        if (masks_dropped_ > 1024 && masks_dropped_ * 2 > masks_.size()) {
            masks_.erase(masks_.begin(), masks_.begin() + static_cast<std::ptrdiff_t>(masks_dropped_));
            masks_dropped_ = 0;
        }
    }
    masks_.emplace_back(b.begin, b.end);
    // A block read from before its marker (Functionary's headless first message) may
    // overlap the one before it: merge, as parser.cpp does.
    while (masks_.size() >= 2 + masks_dropped_ && masks_.back().first < masks_[masks_.size() - 2].second) {
        auto& prev = masks_[masks_.size() - 2];
        prev = {std::min(prev.first, masks_.back().first), std::max(prev.second, masks_.back().second)};
        masks_.pop_back();
    }
}

void ReasoningTracker::update(std::string_view text, bool finished, std::size_t scan) {
    // Waiting on the scan: nothing to search again until it passes the delimiter (a
    // block holding it settles past it too), so a long block costs no rescans.
    if (wait_ != npos && wait_ > scan && !finished) return;
    wait_ = npos;
    const std::size_t n = text.size();
    auto limit_for = [&](const NeedleSet& set) { return finished ? n : partial_tail(text, set); };
    for (;;) {
        if (state_ == State::guessing) {
            const std::size_t limit = limit_for(delimiter_set_);
            const auto [o, oi] = find_first_of_needles(text, opener_set_, pos_, limit);
            const auto [c, ci] = find_first_of_needles(text, closer_set_, pos_, limit);
            if (o == npos && c == npos) {
                pos_ = std::max(pos_, limit);
                if (finished) state_ = State::outside, pos_ = 0;
                return;
            }
            std::size_t resume = 0;
            if (const int m = masked(std::min(o, c), resume, scan, finished); m != 0) {
                if (m < 0) return void(pos_ = wait_ = std::min(o, c));
                pos_ = resume;
                continue;
            }
            if (c != npos && c < o) {
                const std::size_t end = c + implicit_closers_[ci].size();
                regions_.push_back({0, end, 0, c, true});
                pos_ = end;
            } else {
                pos_ = 0;
            }
            state_ = State::outside;
            continue;
        }
        if (state_ == State::outside) {
            const std::size_t limit = limit_for(opener_set_);
            const auto [o, oi] = find_first_of_needles(text, opener_set_, pos_, limit);
            if (o == npos) {
                pos_ = std::max(pos_, limit);
                return;
            }
            std::size_t resume = 0;
            if (const int m = masked(o, resume, scan, finished); m != 0) {
                if (m < 0) return void(pos_ = wait_ = o);
                pos_ = resume;
                continue;
            }
            const std::size_t inner = o + openers_[oi].size();
            regions_.push_back({o, far, inner, far, false});
            inside_closers_ = {closers_of_openers_[oi]};
            inside_set_ = NeedleSet(inside_closers_);
            search_ = inner;
            state_ = State::inside;
            continue;
        }
        // inside
        const std::size_t limit = limit_for(inside_set_);
        const auto [c, ci] = find_first_of_needles(text, inside_set_, search_, limit);
        if (c == npos) {
            search_ = std::max(search_, limit);
            return;
        }
        std::size_t resume = 0;
        if (const int m = masked(c, resume, scan, finished); m != 0) {
            if (m < 0) return void(search_ = wait_ = c);
            search_ = resume;
            continue;
        }
        auto& r = regions_.back();
        r.inner_end = c;
        r.outer_end = c + inside_closers_[ci].size();
        r.closed = true;
        pos_ = r.outer_end;
        state_ = State::outside;
    }
}

// Called once all the text has arrived, before finish: while guessing, the search has
// passed every masked delimiter, and one left from pos_ on (whole, or cut by the end)
// still decides; with none, the output did not start inside reasoning (as find_reasoning
// finds with no closer before any opener), and there is no region at all.
bool ReasoningTracker::guess_settles_outside(std::string_view text) {
    if (state_ != State::guessing || wait_ != npos) return false;
    const std::size_t n = text.size();
    if (find_first_of_needles(text, opener_set_, pos_, n).first != npos) return false;
    if (find_first_of_needles(text, closer_set_, pos_, n).first != npos) return false;
    state_ = State::outside;
    pos_ = 0;
    return true;
}

std::size_t ReasoningTracker::known(std::size_t text_size) const {
    if (state_ == State::guessing) return 0;
    if (state_ == State::inside) return std::min(text_size, wait_);
    return pos_;
}

}  // namespace toolgram::detail::streaming
