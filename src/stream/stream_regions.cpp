// The stream's searches that resume where they stopped: reasoning regions (as regions.cpp's
// find_reasoning), content markers and intent markers (fences are fence_tracker.cpp's).
// Each holds back only what a delimiter cut by the chunk's end could still become.
#include "stream/stream_impl.hpp"

namespace toolgram {

// ---------------------------------------------------------------------------------------
// Reasoning regions.

// Whether a delimiter found at `d` is masked by a call's block: 1 masked (its search
// resumes at `resume`), 0 not, -1 not known until the marker scan passes `d`.
int StreamParser::Impl::masked(std::size_t d, std::size_t& resume) const {
    const auto first = masks.begin() + static_cast<std::ptrdiff_t>(masks_dropped);
    auto it = std::upper_bound(first, masks.end(), d, [](std::size_t pos, const auto& span) { return pos < span.first; });
    if (it != first) {
        --it;
        if (it->first < d && d < it->second) {
            resume = it->second;
            return 1;
        }
    }
    // Every block beginning before `d` is settled once the scan stands at or past it.
    return d <= scan || finished ? 0 : -1;
}

void StreamParser::Impl::add_mask(const Block& b) {
    if (b.end <= b.begin ||
        std::none_of(b.candidates.begin(), b.candidates.end(), [](const Candidate& c) { return c.problem.empty(); }))
        return;
    // Once the reasoning search has left its guess it never goes back (a guess settled
    // outside starts it again from 0): masks wholly behind where it stands are never asked
    // about again, and an output of back-to-back calls would keep one per call.
    if (rstate != RState::guessing) {
        const std::size_t at = rstate == RState::inside ? r_search : r_pos;
        while (masks_dropped < masks.size() && masks[masks_dropped].second <= at) ++masks_dropped;
        if (masks_dropped > 1024 && masks_dropped * 2 > masks.size()) {
            masks.erase(masks.begin(), masks.begin() + static_cast<std::ptrdiff_t>(masks_dropped));
            masks_dropped = 0;
        }
    }
    masks.emplace_back(b.begin, b.end);
    // A block read from before its marker (Functionary's headless first message) may
    // overlap the one before it: merge, as parser.cpp does.
    while (masks.size() >= 2 + masks_dropped && masks.back().first < masks[masks.size() - 2].second) {
        auto& prev = masks[masks.size() - 2];
        prev = {std::min(prev.first, masks.back().first), std::max(prev.second, masks.back().second)};
        masks.pop_back();
    }
}

void StreamParser::Impl::update_reasoning() {
    // Waiting on the scan: nothing to search again until it passes the delimiter (a
    // block holding it settles past it too), so a long block costs no rescans.
    if (r_wait != npos && r_wait > scan && !finished) return;
    r_wait = npos;
    const std::size_t n = buf.size();
    auto limit_for = [&](const NeedleSet& set) { return finished ? n : partial_tail(buf, set); };
    for (;;) {
        if (rstate == RState::guessing) {
            const std::size_t limit = limit_for(delimiter_set);
            const auto [o, oi] = find_first_of_needles(buf, opener_set, r_pos, limit);
            const auto [c, ci] = find_first_of_needles(buf, closer_set, r_pos, limit);
            if (o == npos && c == npos) {
                r_pos = std::max(r_pos, limit);
                if (finished) rstate = RState::outside, r_pos = 0;
                return;
            }
            std::size_t resume = 0;
            if (const int m = masked(std::min(o, c), resume); m != 0) {
                if (m < 0) return void(r_pos = r_wait = std::min(o, c));
                r_pos = resume;
                continue;
            }
            if (c != npos && c < o) {
                const std::size_t end = c + implicit_closers[ci].size();
                regions.push_back({0, end, 0, c, true});
                reasoning_parts.emplace_back();
                r_pos = end;
            } else {
                r_pos = 0;
            }
            rstate = RState::outside;
            continue;
        }
        if (rstate == RState::outside) {
            const std::size_t limit = limit_for(opener_set);
            const auto [o, oi] = find_first_of_needles(buf, opener_set, r_pos, limit);
            if (o == npos) {
                r_pos = std::max(r_pos, limit);
                return;
            }
            std::size_t resume = 0;
            if (const int m = masked(o, resume); m != 0) {
                if (m < 0) return void(r_pos = r_wait = o);
                r_pos = resume;
                continue;
            }
            const std::size_t inner = o + openers[oi].size();
            regions.push_back({o, far, inner, far, false});
            reasoning_parts.emplace_back();
            inside_closers = {s.reasoning[oi].close};
            inside_set = NeedleSet(inside_closers);
            r_search = inner;
            rstate = RState::inside;
            continue;
        }
        // inside
        const std::size_t limit = limit_for(inside_set);
        const auto [c, ci] = find_first_of_needles(buf, inside_set, r_search, limit);
        if (c == npos) {
            r_search = std::max(r_search, limit);
            return;
        }
        std::size_t resume = 0;
        if (const int m = masked(c, resume); m != 0) {
            if (m < 0) return void(r_search = r_wait = c);
            r_search = resume;
            continue;
        }
        auto& r = regions.back();
        r.inner_end = c;
        r.outer_end = c + inside_closers[ci].size();
        r.closed = true;
        r_pos = r.outer_end;
        rstate = RState::outside;
    }
}

// Called once all the text has arrived, before finish: while guessing, the search has
// passed every masked delimiter, and one left from r_pos on (whole, or cut by the end)
// still decides; with none, the output did not start inside reasoning (as find_reasoning
// finds with no closer before any opener), and there is no region at all.
bool StreamParser::Impl::guess_settles_outside() {
    if (rstate != RState::guessing || frozen || r_wait != npos) return false;
    const std::size_t n = buf.size();
    if (find_first_of_needles(buf, opener_set, r_pos, n).first != npos) return false;
    if (find_first_of_needles(buf, closer_set, r_pos, n).first != npos) return false;
    rstate = RState::outside;
    r_pos = 0;
    return true;
}

// Positions before this have a known place in or out of reasoning.
std::size_t StreamParser::Impl::reasoning_known() const {
    if (rstate == RState::guessing) return 0;
    if (rstate == RState::inside) return std::min(buf.size(), r_wait);
    return r_pos;
}

// ---------------------------------------------------------------------------------------
// Content markers and intent markers.

std::size_t StreamParser::Impl::update_content_markers() {
    if (s.content_markers.empty()) return buf.size();
    std::size_t limit = finished ? buf.size() : partial_tail(buf, content_marker_set);
    // With reasoning kept in content, a marker inside a reasoning block stays (as in
    // parser.cpp): a marker is decided once its place is known, and one inside a block
    // still open whose end a call may yet move (reasoning_ends_at_call) waits for it.
    if (in_content) limit = std::min(limit, reasoning_known());
    // Each marker's occurrences, found left to right without overlapping each other (as
    // parser.cpp finds them, one marker at a time), in one pass over the new text for all
    // markers: at a byte that starts one, only those opening with the two bytes there are
    // compared (NeedleSet), so text dense in `<` is not compared with each marker in turn.
    const NeedleSet& set = content_marker_set;
    const auto found = [&](std::size_t at, std::size_t i) {  // false: stop, the place is not known yet
        const std::string& m = set.needles[i];
        if (at < cm_pos[i] || buf.compare(at, m.size(), m) != 0) return true;
        if (in_content) {
            if (const detail::Region* r = detail::region_at(regions, at)) {
                if (!r->closed && s.reasoning_ends_at_call && !finished) return false;
                cm_pos[i] = at + m.size();
                return true;
            }
        }
        content_spans.push({at, at + m.size()});
        cm_pos[i] = at + m.size();
        return true;
    };
    std::vector<std::size_t> tries;
    for (std::size_t at = cm_from; at < limit; ++at) {
        if (!set.pairs.may_start(buf[at])) continue;
        set.pairs.candidates(buf, at, tries);
        if (!std::all_of(tries.begin(), tries.end(), [&](std::size_t i) { return found(at, i); })) {
            limit = at;
            break;
        }
    }
    // Long markers (past detail::long_needle) are not in the pass above: each is searched
    // on its own in linear time (detail::find_needle), as parser.cpp's search does.
    for (const auto& t : set.long_tails) {
        const std::string& m = set.needles[t.needle];
        for (;;) {
            const std::size_t at = detail::find_needle(buf, m, cm_pos[t.needle]);
            if (at == npos || at >= limit) break;
            if (!found(at, t.needle)) {
                limit = at;
                break;
            }
        }
    }
    cm_from = std::max(cm_from, limit);
    std::size_t known = buf.size();
    for (std::size_t& pos : cm_pos) {
        pos = std::max(pos, limit);
        known = std::min(known, pos);
    }
    return known;
}

void StreamParser::Impl::update_intent() {
    if (intent_at != npos) return;
    const std::size_t limit = finished ? buf.size() : partial_tail(buf, intent_set);
    if (limit <= intent_search) return;
    const std::string_view window = std::string_view(buf).substr(intent_search);
    for (const auto& m : s.intent_markers) {
        const std::size_t f = detail::find_ci(window, m);
        if (f != npos && intent_search + f < limit) intent_at = std::min(intent_at, intent_search + f);
    }
    intent_search = limit;
}

}  // namespace toolgram
