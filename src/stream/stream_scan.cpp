// The stream's marker scan (as parser.cpp's scan, in Parser::Impl's scan order) and the
// grammars that read the whole answer or a headless first block: a read is final only
// when it never looked at the end of the text.
#include "stream/stream_impl.hpp"

namespace toolgram {

// ---------------------------------------------------------------------------------------
// The marker scan.

auto StreamParser::Impl::read(const Marker& m, std::size_t at) -> Read {
    Read r;
    detail::ScanContext ctx(buf, s);
    ctx.use_tools(&p.toolset);
    if (finished) {
        r.block = m.read(ctx, at);
        r.final = true;
        return r;
    }
    detail::EndWatchScope watch(buf);
    r.block = m.read(ctx, at);
    r.final = !watch.touched();
    if (!r.final) {
        r.wanted = watch.take_wanted();
        r.needed = watch.needed(buf.data());
        // The calls a section's read read for good, but for its last (judge_ahead).
        const std::size_t size = r.block ? r.block->candidates.size() : 0;
        for (int k = 0; k < 2; ++k) {
            const detail::SectionMark mark = watch.final_mark(k);
            if (mark.candidates > 0 && mark.candidates < size) {
                r.ahead = mark;
                break;
            }
        }
    }
    return r;
}

// Whether a string the waiting read looked for has arrived since. Each new byte is
// searched once per string (the search resumes where it stopped, less a string's
// length for one cut by the last chunk).
bool StreamParser::Impl::wanted_arrived() {
    // The search resumes a little before the text's end at the read, so an occurrence
    // that was whole then (the tag just read, say) is not one that arrived.
    for (const auto& w : wanted)
        for (std::size_t f = buf.find(w, wanted_from); f != npos; f = buf.find(w, f + 1))
            if (f + w.size() > wanted_since) return true;
    wanted_from = std::max(wanted_from, wanted_resume_point());
    return false;
}

// Where the search for the wanted strings resumes, the buffer searched to its end: one
// cut by the end may still complete, so back by the longest one's length less one.
std::size_t StreamParser::Impl::wanted_resume_point() const {
    std::size_t longest = 0;
    for (const auto& w : wanted) longest = std::max(longest, w.size());
    return buf.size() - std::min(buf.size(), longest > 0 ? longest - 1 : 0);
}

void StreamParser::Impl::update_scan() {
    const std::size_t n = buf.size();
    const detail::MarkerPairs& pairs = p.role_pairs[0];
    std::vector<std::size_t> tries;  // the markers that may start at `scan`
    while (scan < n) {
        while (scan < n && !pairs.may_start(buf[scan])) ++scan;
        if (scan >= n) break;
        // Only the markers that can start here are tried, in scan order (MarkerPairs: text
        // dense in `<` compared each with every marker opening with `<`). At the text's
        // last byte, any marker opening with it may still arrive.
        if (scan + 1 < n) {
            pairs.candidates(buf, scan, tries);
        } else {
            tries.clear();
            for (std::size_t i = 0; i < markers.size(); ++i)
                if (markers[i].text[0] == buf[scan]) tries.push_back(i);
        }
        bool advanced = false;
        for (const std::size_t i : tries) {
            if (i < resume_marker) continue;
            const Marker& m = markers[i];
            const std::size_t avail = n - scan;
            if (avail < m.text.size()) {
                if (!finished && buf.compare(scan, avail, m.text, 0, avail) == 0) {
                    resume_marker = i;  // maybe this marker: wait for more text
                    return;
                }
                continue;
            }
            if (buf.compare(scan, m.text.size(), m.text) != 0) continue;
            // The block this marker opens is waiting for more text: read it again only
            // when that may tell more.
            const bool early = !finished && resume_marker == i && n < next_try;
            bool tag_read = false;
            if (!finished && resume_marker == i && !worth_reading(m, tag_read)) return;
            // A section whose first calls were judged ahead is read past them while it
            // waits, and counted from there; once that read is final, the block is read
            // whole, once, to be settled.
            const std::size_t from = read_from(scan);
            Read r = read(m, from);
            if (r.final && from != scan) r = read(m, scan);
            if (!r.final) {
                resume_marker = i;
                const std::size_t len = n - from;
                // (A read on a tag's end keeps the quarter counted from the last.)
                if (!tag_read) next_try = from + std::max(len + 8, len + len / 4);
                // Reads brought on early (by an awaited string, or by the bytes the
                // rules asked for) that still do not end the block are few per quarter
                // of growth, so the reads of a block stay linear in its length.
                if (!early) early_reads = follow_tries = 0;
                else if (!tag_read) ++early_reads;
                wanted = std::move(r.wanted);
                wanted_from = std::max(from, wanted_resume_point());
                wanted_since = n;
                // The bytes a rule asked for are worth waiting for only once the block
                // holds a whole call: inside a value still being written, every next
                // byte is asked for.
                const bool whole_call =
                    r.block && std::any_of(r.block->candidates.begin(), r.block->candidates.end(),
                                           [](const Candidate& c) { return c.problem.empty() && !c.cut; });
                needed_at = whole_call ? r.needed : npos;
                if (r.block) judge_ahead(scan, *r.block, r.ahead);
                // A block already past the candidate size limit cannot be announced.
                if (!m.broken && len <= s.limits.max_candidate_bytes && !(r.block && provisional(scan, *r.block)) &&
                    !(r.block && follow_text(*r.block, scan)) && !follow_string(m.grammar, scan))
                    provisional_at_breaks(m.grammar, scan);
                return;
            }
            next_try = 0;
            wanted.clear();
            needed_at = npos;
            if (open && open->at == scan && (!r.block || r.block->begin != scan))
                end_rejected("what looked like a call here is not one", RejectionCode::not_a_call);
            if (r.block) {
                for (auto& c : r.block->candidates) c.role = Role::primary;
                r.block->role = Role::primary;
                const std::size_t next = std::max(r.block->end, scan + 1);
                reasoning.add_mask(*r.block);
                limit_settled(*r.block);
                settled.push_back(std::move(*r.block));
                scan = next;
                resume_marker = 0;
                advanced = true;
                judge_settled();
                break;
            }
        }
        if (!advanced) {
            if (open && open->at == scan) end_rejected("what looked like a call here is not one", RejectionCode::not_a_call);
            ++scan;
            resume_marker = 0;
            next_try = 0;
            wanted.clear();
            needed_at = npos;
        }
    }
}

// Whether the block waiting at the scan (opened by `m`) is worth a read now. Not while
// the open call's string argument is followed (no read can end the block inside it),
// short of a string the last read awaited; a string value opening in it is followed
// from its start (one read, by follow_string). Otherwise: once the block has grown by
// a quarter; before that, when a string the last read awaited arrives or the text
// reaches where its rules asked (few such reads per quarter); and when a tag closes
// (`tag_read`: a parameter's text may begin there, to be followed from its start).
bool StreamParser::Impl::worth_reading(const Marker& m, bool& tag_read) {
    const std::size_t n = buf.size();
    if (following(scan)) return wanted_arrived();
    const bool may_follow = (!open || open->at == scan) && follow_tries < max_follow_tries;
    if (may_follow && follower.value_quote_arrived(buf, scan) && follow_string(m.grammar, scan)) {
        following(scan);
        return false;
    }
    if (n >= next_try) return true;
    if (early_reads < max_early_reads && ((needed_at != npos && n >= needed_at) || wanted_arrived())) return true;
    if (may_follow && follow_tries < max_follow_tries && follower.tag_end_arrived(buf, scan)) {
        ++follow_tries;
        return tag_read = true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------
// Whole-output grammars (strict JSON, Functionary's first call with its `>>>` in the
// prompt) read the answer once at the end, unless a marker block appears. Most outputs
// show at their start that they are not such a grammar's: a read of the answer so far
// that declines without looking at the end frees the content.

// Where the answer begins (after leading reasoning and blanks), once that is known.
std::optional<std::size_t> StreamParser::Impl::answer_begin() const {
    std::size_t ab = 0;
    for (const auto& r : regions()) {
        if (r.outer_begin < ab) continue;
        if (space_run(ab) < r.outer_begin) break;  // text before this region: the answer began
        if (!r.closed) return std::nullopt;
        ab = r.outer_end;
    }
    ab = space_run(ab);
    if (ab >= buf.size() || ab >= reasoning_known()) return std::nullopt;  // a reasoning block may yet open here
    return ab;
}

// The end of the run of spaces starting at `from`. Called at each feed from the same few
// places (0, a reasoning block's end), each run is remembered and only its growth read:
// an output of blanks only was read again from its start at every chunk (quadratic).
std::size_t StreamParser::Impl::space_run(std::size_t from) const {
    auto known = std::find_if(space_runs.begin(), space_runs.end(), [&](const auto& run) { return run.first == from; });
    if (known == space_runs.end()) {
        if (space_runs.size() >= 4) space_runs.erase(space_runs.begin());
        space_runs.emplace_back(from, from);
        known = space_runs.end() - 1;
    }
    std::size_t& end = known->second;
    while (end < buf.size() && is_space(buf[end])) ++end;
    return end;
}

void StreamParser::Impl::update_head() {
    if (!head_readers || head_declined || buf.size() < head_next_try) return;
    // The blanks before the head, read once (as space_run).
    while (head_start < buf.size() && is_blank(buf[head_start])) ++head_start;
    const std::size_t start = head_start;
    if (start >= buf.size()) return;
    detail::ScanContext ctx(buf, s);
    ctx.use_tools(&p.toolset);
    detail::EndWatchScope watch(buf);
    for (const auto& [g, role] : p.grammars) {
        if (role != Role::primary || !g->read_head) continue;
        if (g->read_head(ctx, start) || watch.touched()) {
            const std::size_t len = buf.size() - start;
            head_next_try = start + std::max(len + 8, len + len / 4);
            return;
        }
    }
    head_declined = true;
}

void StreamParser::Impl::update_whole() {
    if (!whole_readers || whole_declined || primary_seen || buf.size() < whole_next_try) return;
    const std::optional<std::size_t> ab = answer_begin();
    if (!ab) return;
    std::size_t end = buf.size();
    while (end > *ab && is_space(buf[end - 1])) --end;
    const std::string_view answer = std::string_view(buf).substr(0, end);
    detail::ScanContext ctx(answer, s);
    ctx.use_tools(&p.toolset);
    detail::EndWatchScope watch(answer);
    for (const auto& [g, role] : p.grammars) {
        if (role != Role::primary || !g->read_whole) continue;
        if (g->read_whole(ctx, *ab, end) || watch.touched()) {
            const std::size_t len = buf.size() - *ab;
            whole_next_try = *ab + std::max(len + 8, len + len / 4);
            return;
        }
    }
    whole_declined = true;
}

}  // namespace toolgram
