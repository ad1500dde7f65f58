// The stream: the one-shot parse (src/combinator/parser.cpp), taken in the order the text arrives.
//
// Nothing here decides differently from the one-shot parse; it decides earlier. Every
// part of the one-shot algorithm is run incrementally, and each reports how far its
// answer is final:
//  - the marker scan stops at a marker whose block cannot be read for certain yet: a
//    grammar's read is final when it never looked at the end of the text (end_watch.hpp),
//    and a marker cut by the end of a chunk is only a maybe;
//  - reasoning blocks, fences and content markers are found by searches that resume where
//    they stopped, holding back a delimiter's length;
//  - blocks are judged in order, by the same judge, once their place (in reasoning? in a
//    fence? introduced as an example?) is known;
//  - content and reasoning are assembled with the same joining rule as the one-shot
//    parse, a byte run at a time, up to the frontier before which everything is decided.
// Text past the frontier is held, never guessed, so deltas are never taken back. At the
// end, `finish` runs the one-shot parse once (linear) and sends what remains; the result
// is that parse, so stream and batch agree by construction, and the deltas agree because
// only decided text was sent early.
//
// Cost: each new byte is scanned once by each incremental search; a block is re-read
// only after it has grown by a quarter (and at least 8 bytes), so the reads of one
// block cost a constant times its length, whatever the chunking. At most four more
// reads come between two of those: when a string the last read looked for at the end
// (its closer) arrives, or, once the block holds a whole call, the bytes its rules asked
// for; so a finished call is reported when its closer comes, not a quarter later. (Four:
// a named-parameter value's end is decided by the tag after its closer, so the last value
// of a call takes one read more than its closer alone, grammars/common/param_value.hpp.) Two more
// may come when a string value opens or a tag closes, to follow a string argument from its
// start (see "Following a string argument"); while one is followed, the block is not read.
// A section's calls are judged as each is followed by the next (judge_ahead); the reads
// of the section then start after them and are counted from there, so a section costs
// its calls' reads and one whole read at its end, not a whole read per call.
//
// This file holds the feed (the stages in order) and the public API; the stages are
// defined in stream_scan.cpp, stream_calls.cpp and stream_assembly.cpp, over the state
// stream_impl.hpp declares, and in the parts it owns (reasoning_tracker.cpp,
// fence_tracker.cpp, marker_trackers.cpp, argument_follower.cpp).
#include <stdexcept>
#include <utility>

#include "stream/stream_impl.hpp"

namespace toolgram {

// Each feed runs the stages in order, each resuming where it stopped.
void StreamParser::Impl::advance() {
    if (frozen) return;
    if (buf.size() > s.limits.max_input_bytes) {
        frozen = true;  // the one-shot parse scans only the first max_input_bytes
        return;
    }
    try {
        update_reasoning();
        fence_tracker.update(buf, finished);
        content_markers.update(buf, finished, in_content, reasoning_known(), regions(), content_spans);
        if (fallbacks) intent.update(buf, finished);
        update_whole();
        update_head();
        judge_settled();
        update_scan();
        update_reasoning();  // delimiters after a block being read wait for its end
        judge_settled();
        assemble();
    } catch (const std::exception&) {
        frozen = true;  // a defect: finish() reports it as the one-shot parse does
    }
}

// ---------------------------------------------------------------------------------------

StreamParser::StreamParser(const Parser& parser) : impl_(std::make_unique<Impl>(parser)) {}
StreamParser::~StreamParser() = default;
StreamParser::StreamParser(StreamParser&&) noexcept = default;
StreamParser& StreamParser::operator=(StreamParser&&) noexcept = default;

std::vector<StreamEvent> StreamParser::feed(std::string_view chunk) {
    Impl& st = *impl_;
    if (st.finished) throw std::logic_error("StreamParser::feed after finish");
    st.buf.append(chunk);
    st.advance();
    return std::exchange(st.events, {});
}

// With a sink: the same stages, their events handed over as each completes (flush_events).
void StreamParser::feed(std::string_view chunk, const EventSink& sink) {
    Impl& st = *impl_;
    if (st.finished) throw std::logic_error("StreamParser::feed after finish");
    st.sink = &sink;
    st.buf.append(chunk);
    st.advance();
    st.flush_events();
    st.sink = nullptr;
    if (st.sink_error) {
        st.finished = true;
        std::rethrow_exception(st.sink_error);
    }
}

Result StreamParser::finish(const EventSink& sink) {
    Impl& st = *impl_;
    if (st.finished) throw std::logic_error("StreamParser::finish called twice");
    st.sink = &sink;
    Finished out = finish();
    st.sink = nullptr;
    if (st.sink_error) std::rethrow_exception(st.sink_error);
    for (auto& e : out.events) sink(std::move(e));
    return std::move(out.result);
}

StreamParser::Finished StreamParser::finish() {
    Impl& st = *impl_;
    if (st.finished) throw std::logic_error("StreamParser::finish called twice");
    // All the text is here. A stream still guessing whether the output started inside
    // reasoning has seen no delimiter left to tell: it did not, as the one-shot parse
    // finds, so what was held for that goes out now by the stages, in the text's order
    // (the text before a call before the call), as it would have under `outside`. The
    // rest is sent from the one-shot result below.
    if (st.guess_settles_outside()) st.advance();
    st.finished = true;
    st.release_room();  // before the one-shot parse needs as much again
    Finished out;
    // The text is never read again: its buffer becomes the result's content.
    out.result = st.parser->parse(std::move(st.buf));
    std::string().swap(st.buf);
    st.finish(out.result);
    out.events = std::exchange(st.events, {});
    return out;
}

}  // namespace toolgram
