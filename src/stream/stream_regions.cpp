// The stream's searches for content markers and intent markers, which resume where they
// stopped (reasoning is reasoning_tracker.cpp's, fences fence_tracker.cpp's). Each holds
// back only what a marker cut by the chunk's end could still become.
#include "stream/stream_impl.hpp"

namespace toolgram {

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
            if (const detail::Region* r = detail::region_at(regions(), at)) {
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
