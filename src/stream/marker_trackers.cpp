// The stream's content and intent markers (marker_trackers.hpp).
#include "stream/marker_trackers.hpp"

#include <algorithm>
#include <string>

#include "scan/scan_context.hpp"

namespace toolgram::detail::streaming {

ContentMarkers::ContentMarkers(const Settings& s) : s_(s), set_(s.content_markers), pos_(s.content_markers.size(), 0) {}

std::size_t ContentMarkers::update(std::string_view text, bool finished, bool in_content, std::size_t known_place,
                                   const std::vector<Region>& regions, SpanQueue& spans) {
    if (s_.content_markers.empty()) return known_ = text.size();
    std::size_t limit = finished ? text.size() : partial_tail(text, set_);
    // With reasoning kept in content, a marker inside a reasoning block stays (as in
    // parser.cpp): a marker is decided once its place is known, and one inside a block
    // still open whose end a call may yet move (reasoning_ends_at_call) waits for it.
    if (in_content) limit = std::min(limit, known_place);
    // Each marker's occurrences, found left to right without overlapping each other (as
    // parser.cpp finds them, one marker at a time), in one pass over the new text for all
    // markers: at a byte that starts one, only those opening with the two bytes there are
    // compared (NeedleSet), so text dense in `<` is not compared with each marker in turn.
    const auto found = [&](std::size_t at, std::size_t i) {  // false: stop, the place is not known yet
        const std::string& m = set_.needles[i];
        if (at < pos_[i] || text.compare(at, m.size(), m) != 0) return true;
        if (in_content) {
            if (const Region* r = region_at(regions, at)) {
                if (!r->closed && s_.reasoning_ends_at_call && !finished) return false;
                pos_[i] = at + m.size();
                return true;
            }
        }
        spans.push({at, at + m.size()});
        pos_[i] = at + m.size();
        return true;
    };
    std::vector<std::size_t> tries;
    for (std::size_t at = from_; at < limit; ++at) {
        if (!set_.pairs.may_start(text[at])) continue;
        set_.pairs.candidates(text, at, tries);
        if (!std::all_of(tries.begin(), tries.end(), [&](std::size_t i) { return found(at, i); })) {
            limit = at;
            break;
        }
    }
    // Long markers (past detail::long_needle) are not in the pass above: each is searched
    // on its own in linear time (detail::find_needle), as parser.cpp's search does.
    for (const auto& t : set_.long_tails) {
        const std::string& m = set_.needles[t.needle];
        for (;;) {
            const std::size_t at = find_needle(text, m, pos_[t.needle]);
            if (at == npos || at >= limit) break;
            if (!found(at, t.needle)) {
                limit = at;
                break;
            }
        }
    }
    from_ = std::max(from_, limit);
    std::size_t known = text.size();
    for (std::size_t& pos : pos_) {
        pos = std::max(pos, limit);
        known = std::min(known, pos);
    }
    return known_ = known;
}

IntentMarkers::IntentMarkers(const Settings& s) : s_(s), set_(s.intent_markers, true) {
    if (s.tool_required) at_ = 0;
}

void IntentMarkers::update(std::string_view text, bool finished) {
    if (at_ != npos) return;
    const std::size_t limit = finished ? text.size() : partial_tail(text, set_);
    if (limit <= search_) return;
    const std::string_view window = text.substr(search_);
    for (const auto& m : s_.intent_markers) {
        const std::size_t f = find_ci(window, m);
        if (f != npos && search_ + f < limit) at_ = std::min(at_, search_ + f);
    }
    search_ = limit;
}

}  // namespace toolgram::detail::streaming
