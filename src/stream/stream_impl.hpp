// The stream's state and its stages (StreamParser::Impl).
//
// The parts that keep to themselves are types of their own, each owning its state and
// stating its invariant: the reasoning blocks (reasoning_tracker.hpp), the fences
// (fence_tracker.hpp), the content and intent markers (marker_trackers.hpp) and the
// argument follower (argument_follower.hpp); each is told the text and what it needs of
// the others. The rest is Impl's, over the files that define its stages: stream.cpp
// (each feed: the stages in order; the public API), stream_scan.cpp (the marker scan,
// whole-output and headless grammars), stream_calls.cpp (judging blocks, call events,
// when to follow a string argument) and stream_assembly.cpp (content and reasoning up to
// the frontier, and the end). Why the stream equals the one-shot parse, and what a chunk
// costs, is written atop stream.cpp. Internal: only those files include it.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "scan/end_watch.hpp"
#include "stream/fence_tracker.hpp"
#include "stream/argument_follower.hpp"
#include "stream/assembler.hpp"
#include "stream/basics.hpp"
#include "stream/marker_trackers.hpp"
#include "stream/needle_set.hpp"
#include "stream/reasoning_tracker.hpp"
#include "io/json_writer.hpp"
#include "scan/needle_search.hpp"
#include "combinator/parser_impl.hpp"
#include "scan/scan_context.hpp"
#include "value/string_prefix.hpp"
#include "text/text_digest.hpp"
#include "text/utf8.hpp"

namespace toolgram::detail::streaming {
// Reads of a waiting block brought on by what its last read awaited, between two reads
// brought on by growth (see update_scan).
inline constexpr std::size_t max_early_reads = 4;
// Reads brought on by a string value's opening quote (follow_string), likewise.
inline constexpr std::size_t max_follow_tries = 2;

}  // namespace toolgram::detail::streaming

namespace toolgram {

using detail::streaming::npos;
using detail::streaming::far;
using detail::streaming::max_early_reads;
using detail::streaming::max_follow_tries;
using detail::streaming::is_space;
using detail::streaming::is_blank;
using detail::streaming::Assembler;
using detail::streaming::Span;
using detail::streaming::SpanQueue;
using detail::streaming::NeedleSet;
using detail::streaming::partial_tail;
using detail::streaming::find_first_of_needles;
using detail::streaming::complete_utf8_prefix;

struct StreamParser::Impl {
    const Parser* parser;
    const Parser::Impl& p;
    const Settings& s;
    std::string buf;
    bool finished = false;
    bool frozen = false;  // past the input limit, or a reader threw: the rest waits for finish
    std::vector<StreamEvent> events;
    // Set by feed/finish given a sink: events go to it as they are made (flush_events), so
    // a chunk that decides much text at once never holds it all in events. An exception
    // from the sink is kept and thrown by feed/finish, past the stages' own catch.
    const StreamParser::EventSink* sink = nullptr;
    std::exception_ptr sink_error;
    void flush_events() {
        if (!sink || sink_error) return;
        try {
            for (auto& e : events) (*sink)(std::move(e));
        } catch (...) {
            sink_error = std::current_exception();
        }
        events.clear();
    }

    // ---- the marker scan (primary grammars, as parser.cpp's scan)
    using Marker = detail::MarkerUse;  // the primary grammars' (parser_impl.hpp's role_markers[0])
    std::vector<Marker> markers;
    std::vector<std::string> marker_texts;  // theirs (detail::disowned_after_fence)
    std::size_t scan = 0;
    std::size_t resume_marker = 0;  // at `scan`, markers before this one declined for good
    std::size_t next_try = 0;       // buffer size at which the waiting read is tried again
    // What the waiting read looked for at the end (its closer, mostly): when one of these
    // arrives it is read again at once, not only once it has grown by a quarter.
    std::vector<std::string> wanted;
    std::size_t wanted_from = 0;  // where the search for them resumes
    std::size_t wanted_since = 0;  // the text's length at that read
    // Where the text must reach for the waiting read's rules to decide, when its block
    // already holds a whole call (only its closer or what follows is awaited); else npos.
    std::size_t needed_at = npos;
    std::size_t early_reads = 0;  // reads brought on by those since the last read by growth
    std::size_t follow_tries = 0;  // reads by follow_string on a value's quote, the same way
    std::deque<Block> settled;      // read for good, not judged yet
    std::size_t judged_end = 0;     // where the blocks judged so far end (introduced_as_example)
    bool primary_seen = false;      // fallbacks never run once a primary block exists
    std::size_t candidates_seen = 0;
    // Candidates of the blocks settled so far, those past the limit counted too: past
    // max_candidates a settled block keeps none (limit_settled), as the one-shot scan.
    std::size_t candidates_read = 0;

    // ---- reasoning blocks (as regions.cpp's find_reasoning)
    detail::streaming::ReasoningTracker reasoning;
    const std::vector<detail::Region>& regions() const { return reasoning.regions(); }
    void update_reasoning() { reasoning.update(buf, finished, scan); }
    // Positions before this have a known place in or out of reasoning.
    std::size_t reasoning_known() const { return reasoning.known(buf.size()); }
    // At the end: a guess that no delimiter is left to settle is settled as outside.
    bool guess_settles_outside() { return !frozen && reasoning.guess_settles_outside(buf); }

    // ---- fences (as regions.cpp's find_fences)
    detail::streaming::FenceTracker fence_tracker;
    const std::vector<detail::Region>& fences() const { return fence_tracker.fences(); }
    int fence_line_kind(std::size_t line) const { return fence_tracker.line_kind(buf, finished, line); }
    bool fence_at(std::size_t pos, const detail::Region*& out) const {
        return fence_tracker.fence_at(buf, finished, pos, out);
    }
    std::size_t fence_first = npos, fence_q = 0;  // the fence holding the scan, and its first non-blank byte

    // ---- content markers, intent markers
    detail::streaming::ContentMarkers content_markers;
    detail::streaming::IntentMarkers intent;

    // ---- assembly
    SpanQueue content_spans, reasoning_spans;
    Assembler content;
    std::size_t cpos = 0;
    std::vector<Assembler> reasoning_parts;  // one per region
    std::size_t rreg = 0, rpos = 0;          // the region being assembled, and where in it
    bool reasoning_sent = false;
    // What was sent of each, as its length and a digest: finish checks that the result
    // begins with it without the stream keeping a second copy of the output.
    detail::TextDigest sent_content, sent_reasoning;
    std::string held_content, held_reasoning;  // decided, but ending inside a UTF-8 sequence
    std::size_t regions_removed = 0;  // closed regions already queued as content spans

    // ---- calls
    detail::IdAssigner ids;
    std::size_t calls_done = 0;  // accepted calls ended so far
    struct Open {
        std::size_t at = 0;  // the block's begin
        std::string id = {}, name = {};
        detail::TextDigest sent = {};  // arguments text sent so far, as its digest
        std::size_t candidate = 0;  // which of the block's candidates (a section's calls go one by one)
        std::size_t candidate_begin = 0;
        // While the call's last argument is a string being followed, what was sent is in
        // two parts: the arguments' JSON up to that string's body (`head`), then the body
        // as decoded so far, which `body` digests as decoded text. Checked that way, the
        // call as finally read costs a digest of its string rather than writing it
        // escaped again (json_writer.hpp, compact_json_past_split). `upto`: the size of
        // `sent` the two describe; anything else sent past it leaves them stale.
        struct Split {
            detail::TextDigest head, body;
            std::size_t upto = 0;
        };
        std::optional<Split> split = {};
        // The split while it still describes everything sent, else null.
        Split* current_split() { return split && split->upto == sent.size() ? &*split : nullptr; }
        const Split* current_split() const { return split && split->upto == sent.size() ? &*split : nullptr; }
    };
    std::optional<Open> open;
    // The arguments' JSON of `arguments` past what was sent of the open call, when it
    // begins with what was sent; else nothing.
    std::optional<std::string> past_sent(const nlohmann::ordered_json& arguments) const;
    // After provisional sent the arguments of `read` through its last string, which is
    // followed from here: remember what was sent as its two parts.
    void split_sent(const Candidate& read);
    // A section's calls judged before the section closed (judge_ahead): the block's begin,
    // how many of its candidates, where the call that ends them ends (reads of the block
    // before it is settled start there), and what they showed, for judge_block.
    struct Ahead {
        std::size_t at = npos;
        std::size_t judged = 0;
        std::size_t resume = 0;
        bool has_call = false, is_syntax = false;
    };
    Ahead ahead;
    // The first of the block's candidates not judged yet (a section's, past those ahead),
    // the first candidate of a read from read_from(at).
    std::size_t first_unjudged(std::size_t at) const { return ahead.at == at ? ahead.judged : 0; }
    // Where the block at `at` is read while it waits: past the calls judged ahead, so each
    // read costs what is still open of it, not the whole section again.
    std::size_t read_from(std::size_t at) const { return ahead.at == at ? ahead.resume : at; }
    std::size_t restarts = 0;  // calls re-sent because a read changed after deltas went out
    // The open call's last argument, a JSON string still being written, followed byte by
    // byte (see "Following a string argument").
    detail::streaming::ArgumentFollower follower;

    explicit Impl(const Parser& parser_)
        : parser(&parser_), p(*parser_.impl_), s(parser_.impl_->profile.settings), reasoning(s),
          content_markers(s), intent(s) {
        for (const auto& m : p.role_markers[0]) {
            markers.push_back(m);
            marker_texts.push_back(m.text);
        }
        whole_readers = std::any_of(p.grammars.begin(), p.grammars.end(),
                                    [](const auto& g) { return g.second == Role::primary && g.first->read_whole; });
        head_readers = std::any_of(p.grammars.begin(), p.grammars.end(),
                                   [](const auto& g) { return g.second == Role::primary && g.first->read_head; });
        fallbacks = std::any_of(p.grammars.begin(), p.grammars.end(), [](const auto& g) { return g.second == Role::fallback; });
    }

    // Reasoning stays in content (ReasoningFormat::in_content): no reasoning events.
    const bool in_content = s.reasoning_format == ReasoningFormat::in_content;
    bool fallbacks = false;  // the profile has fallback grammars
    bool whole_readers = false;  // a primary grammar reads the whole output when no marker block appears
    bool whole_declined = false;  // ... and has said, for good, that this output is not its
    bool head_readers = false;    // a primary grammar's first block may begin at the output's start
    bool head_declined = false;
    std::size_t whole_next_try = 0, head_next_try = 0;

    void limit_settled(Block& b);

    // -----------------------------------------------------------------------------------
    // The marker scan (stream_scan.cpp).

    struct Read {
        std::optional<Block> block;
        bool final = false;
        std::vector<std::string> wanted;  // not final: strings it looked for at the end
        std::size_t needed = npos;        // not final: how far the text must reach (npos: unknown)
        // Not final: the leading candidates a section's read read for good, less its last
        // call's (judge_ahead), and where the call that ends them ends; none: {0, 0}.
        detail::SectionMark ahead;
    };
    Read read(const Marker& m, std::size_t at);

    bool wanted_arrived();
    std::size_t wanted_resume_point() const;

    void update_scan();

    bool worth_reading(const Marker& m, bool& tag_read);

    // -----------------------------------------------------------------------------------
    // Whole-output grammars (stream_scan.cpp).

    std::optional<std::size_t> answer_begin() const;
    std::size_t space_run(std::size_t from) const;
    // space_run's memory: (where a run of spaces starts, how far it is known to reach).
    mutable std::vector<std::pair<std::size_t, std::size_t>> space_runs;
    std::size_t head_start = 0;  // update_head: the blanks before the head end here, or later

    void update_head();

    void update_whole();

    // -----------------------------------------------------------------------------------
    // Judging blocks in order, once their place is known (stream_calls.cpp).

    struct Place {
        bool known = false;
        const detail::Region* reasoning = nullptr;
        bool example = false;
        const detail::Region* fence = nullptr;
    };
    Place place_of(std::size_t begin) const;

    // Whether a fence that holds a block only wraps it; nullopt while that is open.
    // Called again on every feed while open, so the scan after the block resumes where it
    // stopped (a block followed by megabytes of blanks must not be walked per chunk).
    struct WrapScan {
        std::size_t block = npos;  // the block's begin: what the rest describes
        bool blank_before = false;
        std::size_t pos = 0;         // bytes after the block looked at so far
        std::size_t line = 0;        // start of the line holding `pos`
    };
    mutable WrapScan wrap_scan;
    std::optional<bool> wraps(const detail::Region& f, const Block& b) const;

    void judge_settled();

    void judge_block(Block& block, const Place& pl, std::pair<std::size_t, std::size_t> span);

    bool judge_candidate(Candidate& c, const Place& pl, bool continues);

    void judge_ahead(std::size_t at, Block& b, detail::SectionMark mark);

    // -----------------------------------------------------------------------------------
    // Call events (stream_calls.cpp).

    StreamEvent call_event(StreamEvent::Kind kind, const std::string& id, const std::string& name) const;

    void end_rejected(const std::string& reason, RejectionCode code);

    // `rest`: the arguments' JSON past what was sent of the open call, when the caller
    // checked it already (finish); else it is checked here.
    void end_accepted(Call call, bool continues, std::optional<std::string> rest = std::nullopt);

    void provisional_at_breaks(const GrammarDef* g, std::size_t at);

    bool provisional(std::size_t at, Block& b);
    bool provisional(std::size_t at, Candidate& read, bool through_string);

    // -----------------------------------------------------------------------------------
    // Following a string argument (stream_calls.cpp).

    bool following(std::size_t at);

    bool follow_string(const GrammarDef* g, std::size_t at);

    // Takes the block's first candidate when it follows its text.
    bool follow_text(Block& b, std::size_t at);

    // -----------------------------------------------------------------------------------
    // Assembly of content and reasoning up to the frontier (stream_assembly.cpp).

    void assemble();
    // The assembly's buffers keep the room of the longest text they held (a guess settled
    // at the end pours the whole output through them), and the masks stay while a guess
    // waits: given back once nothing is fed, before finish's one-shot parse.
    void release_room() {
        content.shrink();
        for (auto& a : reasoning_parts) a.shrink();
        held_content.shrink_to_fit();
        held_reasoning.shrink_to_fit();
        // Nothing is searched for any more: a mask a call (reasoning_start guess keeps all).
        reasoning.release_masks();
    }
    std::vector<bool> started_regions;
    bool a_started(std::size_t i) const { return i < started_regions.size() && started_regions[i]; }

    // Text is assembled and sent at most this much at a time (pour, emit_text).
    static constexpr std::size_t text_slice = std::size_t{1} << 18;
    template <typename Send>
    void pour(Assembler& a, std::size_t& pos, SpanQueue& spans, std::size_t upto, const Send& send);
    void feed_assembler(Assembler& a, std::size_t& pos, SpanQueue& spans, std::size_t upto);

    void emit_text(StreamEvent::Kind kind, std::string_view piece, bool last = false);

    // -----------------------------------------------------------------------------------
    // The end: the one-shot result is the answer; send what the stream has not (stream_assembly.cpp).

    void finish(const Result& r);

    // -----------------------------------------------------------------------------------
    // Each feed: the stages in order (stream.cpp).

    void advance();
};

}  // namespace toolgram
