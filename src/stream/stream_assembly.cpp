// The stream's text: content and reasoning assembled with the one-shot parse's joining
// rule up to the frontier before which everything is decided, and at the end whatever
// the one-shot result holds that was not sent yet.
#include "stream/stream_impl.hpp"

#include <optional>
#include <string>
#include <utility>

namespace toolgram {

// ---------------------------------------------------------------------------------------
// Assembly of content and reasoning up to the frontier.

// Feeds [pos, upto) to the assembler and sends what it can take, a slice at a time: text
// decided in one go (a guess settled at the end decides the whole output) then never sits
// whole in the assembler, in the held bytes and in the event at once.
template <typename Send>
void StreamParser::Impl::pour(Assembler& a, std::size_t& pos, SpanQueue& spans, std::size_t upto, const Send& send) {
    const std::size_t end = std::min(upto, buf.size());
    for (;;) {
        const std::size_t to = pos < end && end - pos > text_slice ? pos + text_slice : end;
        feed_assembler(a, pos, spans, to);
        if (auto t = a.take(); !t.empty()) send(t);
        if (to >= end) return;
    }
}

void StreamParser::Impl::assemble() {
    // Before this, everything is decided: markers scanned, blocks judged, regions found.
    std::size_t f = std::min(scan, reasoning_known());
    if (!settled.empty()) {
        const Block& b = settled.front();
        f = std::min(f, b.begin);
        if (const detail::Region* fe = detail::region_at(fences(), b.begin)) f = std::min(f, fe->outer_begin);
    }
    const std::size_t line_start = fence_tracker.line_start();
    if (fence_line_kind(line_start) != 0) f = std::min(f, line_start);
    if (const detail::Region* fe = detail::region_at(fences(), scan)) {
        // A block may yet stand first in this fence (the scan has not passed its first
        // non-blank byte) and take the fence with it.
        if (fence_first != fe->outer_begin) fence_first = fe->outer_begin, fence_q = fe->inner_begin;
        while (fence_q < buf.size() && is_blank(buf[fence_q])) ++fence_q;
        if (fence_q >= scan) f = std::min(f, fe->outer_begin);
    }
    if (fallbacks && !primary_seen) f = std::min(f, std::min(intent.at(), intent.searched()));

    // Content. A primary grammar that reads the whole output (strict JSON) gets its
    // turn at the end unless a marker block appears first: until then, the content
    // may all be its block.
    std::size_t fc = std::min(f, content_markers.known());  // content markers searched up to here
    if (whole_readers && !primary_seen && !whole_declined) fc = 0;
    if (head_readers && !head_declined) fc = 0;
    // Reasoning kept in content flows with it, unless a call may yet end the open block
    // (reasoning_ends_at_call), which decides where the framing tokens after it go.
    const std::vector<detail::Region>& regions = reasoning.regions();
    if (reasoning.inside() && (!in_content || s.reasoning_ends_at_call))
        fc = std::min(fc, regions.back().outer_begin);
    for (; !in_content && regions_removed < regions.size() && regions[regions_removed].closed; ++regions_removed)
        content_spans.push({regions[regions_removed].outer_begin, regions[regions_removed].outer_end});
    pour(content, cpos, content_spans, fc, [&](std::string_view t) { emit_text(StreamEvent::Kind::content, t); });
    if (in_content) return;

    // Reasoning, region by region.
    if (reasoning_parts.size() < regions.size()) reasoning_parts.resize(regions.size());  // one per region
    while (rreg < regions.size()) {
        const auto& r = regions[rreg];
        if (rpos < r.inner_begin) rpos = r.inner_begin;
        const bool searched = reasoning.inside() && rreg + 1 == regions.size();  // its closer not found before
        const std::size_t upto = std::min({f, r.inner_end, searched ? reasoning.search_from() : far});
        Assembler& a = reasoning_parts[rreg];
        pour(a, rpos, reasoning_spans, std::min(upto, buf.size()), [&](std::string_view t) {
            if (reasoning_sent && !a_started(rreg)) emit_text(StreamEvent::Kind::reasoning, "\n\n");
            started_regions.resize(std::max(started_regions.size(), rreg + 1));
            started_regions[rreg] = true;
            emit_text(StreamEvent::Kind::reasoning, t);
            reasoning_sent = true;
        });
        if (r.closed && rpos >= r.inner_end) {
            ++rreg;
            continue;
        }
        break;
    }
}

// Feeds [pos, upto) less the removed spans that begin before `upto`.
void StreamParser::Impl::feed_assembler(Assembler& a, std::size_t& pos, SpanQueue& spans, std::size_t upto) {
    if (upto == far) upto = buf.size();
    while (!spans.empty() && spans.top().first < upto) {
        const auto [b, e] = spans.top();
        spans.pop();
        if (b >= pos) {
            a.add(std::string_view(buf).substr(pos, b - pos));
            a.cut();
        }
        pos = std::max(pos, e);
    }
    if (upto > pos) {
        a.add(std::string_view(buf).substr(pos, upto - pos));
        pos = upto;
    }
}

// A delta never ends inside a UTF-8 sequence: its last bytes wait for the rest (or the
// end), so each event is valid JSON text on its own and the U+FFFD that to_json puts
// for bytes that are not UTF-8 come out the same as in the final result's.
void StreamParser::Impl::emit_text(StreamEvent::Kind kind, std::string_view piece, bool last) {
    std::string& held = kind == StreamEvent::Kind::content ? held_content : held_reasoning;
    held.append(piece);
    const std::size_t cut = last ? held.size() : complete_utf8_prefix(held);
    if (cut == 0) return;
    const std::string t = held.substr(0, cut);
    held.erase(0, cut);
    (kind == StreamEvent::Kind::content ? sent_content : sent_reasoning).append(t);
    // Adjacent deltas of one kind are sent as one event, of at most about a slice: a long
    // event would grow by doubling, its old and new buffers held at once.
    if (!events.empty() && events.back().kind == kind && events.back().text.size() + t.size() <= text_slice) {
        events.back().text += t;
        return;
    }
    flush_events();  // the events before this one are complete: to the sink, if there is one
    StreamEvent e;
    e.kind = kind;
    e.text = std::string(t);
    events.push_back(std::move(e));
}

// ---------------------------------------------------------------------------------------
// The end: the one-shot result is the answer; send what the stream has not.

void StreamParser::Impl::finish(const Result& r) {
    // The open call's arguments past what was sent, when the result's call continues it:
    // found once, for the check here and for end_accepted below.
    std::optional<std::string> rest;
    if (open) {
        const std::size_t i = calls_done;
        if (i < r.calls.size() && r.calls[i].id == open->id && r.calls[i].name == open->name)
            rest = past_sent(r.calls[i].arguments);
        if (!rest) {
            std::string reason = "not a complete call when the output ended";
            RejectionCode code = RejectionCode::incomplete;
            for (const auto& c : r.telemetry.candidates)
                if ((c.begin == open->at || c.begin == open->candidate_begin) && !c.accepted) {
                    reason = c.reason;
                    code = c.code;
                }
            end_rejected(reason, code);
        }
    }
    for (std::size_t i = calls_done; i < r.calls.size(); ++i) {
        end_accepted(r.calls[i], open.has_value(), std::exchange(rest, std::nullopt));
    }
    // What was held back is the start of what follows in the result.
    held_reasoning.clear();
    held_content.clear();
    if (r.reasoning.size() > sent_reasoning.size() && sent_reasoning.starts(r.reasoning))
        emit_text(StreamEvent::Kind::reasoning, std::string_view(r.reasoning).substr(sent_reasoning.size()), true);
    if (r.content.size() > sent_content.size() && sent_content.starts(r.content))
        emit_text(StreamEvent::Kind::content, std::string_view(r.content).substr(sent_content.size()), true);
    if (r.error) {
        StreamEvent e;
        e.kind = StreamEvent::Kind::format_error;
        e.error = r.error;
        events.push_back(std::move(e));
    }
}

}  // namespace toolgram
