// The stream: the one-shot parse (src/parser.cpp), taken in the order the text arrives.
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
// of a call takes one read more than its closer alone, grammars/param_value.hpp.) Two more
// may come when a string value opens or a tag closes, to follow a string argument from its
// start (see "Following a string argument"); while one is followed, the block is not read.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <queue>
#include <stdexcept>

#include "end_watch.hpp"
#include "json_writer.hpp"
#include "parser_impl.hpp"
#include "scan_context.hpp"
#include "string_prefix.hpp"
#include "utf8.hpp"

namespace toolgram {

namespace {

constexpr std::size_t npos = std::string_view::npos;
constexpr std::size_t far = static_cast<std::size_t>(-1);  // an end not known yet
// Reads of a waiting block brought on by what its last read awaited, between two reads
// brought on by growth (see update_scan).
constexpr std::size_t max_early_reads = 4;
// Reads brought on by a string value's opening quote (follow_string), likewise.
constexpr std::size_t max_follow_tries = 2;

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// detail::append_piece, a byte at a time: the same text for the same pieces, however
// they arrive. Only text up to the last non-space byte is ever sent, because trailing
// whitespace may still be merged with the next piece or trimmed at the end.
class Assembler {
public:
    void add(std::string_view t) {
        for (char ch : t) {
            ++piece_bytes_;
            if (in_head_) {
                if (is_space(ch)) {
                    head_ += ch;
                    continue;
                }
                join();
            }
            out_ += ch;
            if (!is_space(ch)) settled_ = out_.size();
        }
    }
    // The next text starts a new piece (a span was removed before it).
    void cut() {
        if (in_head_ && piece_bytes_ > 0) join();  // a piece of only whitespace
        in_head_ = true;
        piece_bytes_ = 0;
    }
    // Text that can be sent: up to the last non-space byte.
    std::string_view take() {
        std::string_view t(out_.data() + sent_, settled_ - sent_);
        sent_ = settled_;
        return t;
    }
    bool any_sent() const { return sent_ > 0; }

private:
    static int strength(std::string_view gap) {
        const auto nl = std::count(gap.begin(), gap.end(), '\n');
        return nl >= 2 ? 3 : nl == 1 ? 2 : gap.empty() ? 0 : 1;
    }
    void join() {
        std::size_t tail = out_.size();
        while (tail > 0 && is_space(out_[tail - 1])) --tail;
        const int s = std::max(strength(std::string_view(out_).substr(tail)), strength(head_));
        out_.resize(tail);
        if (tail > 0) out_ += s == 3 ? "\n\n" : s == 2 ? "\n" : s == 1 ? " " : "";
        head_.clear();
        in_head_ = false;
    }

    std::string out_;
    std::string head_;
    bool in_head_ = true;
    std::size_t piece_bytes_ = 0;
    std::size_t settled_ = 0, sent_ = 0;
};

using Span = std::pair<std::size_t, std::size_t>;
using SpanQueue = std::priority_queue<Span, std::vector<Span>, std::greater<>>;

// Where the text stops being decidable for these needles: the first position from which
// the rest of the text is a proper prefix of one of them (cut by the end of the chunk),
// or the end. Only that much is held back, not a whole needle's length.
struct NeedleSet {
    std::vector<std::string> needles;
    std::array<bool, 256> first{};  // bytes that start a needle (both cases when folding)
    std::size_t longest = 0;
    bool ignore_case = false;

    NeedleSet() = default;
    explicit NeedleSet(std::vector<std::string> n, bool fold = false) : needles(std::move(n)), ignore_case(fold) {
        for (const auto& x : needles) {
            if (x.empty()) continue;
            longest = std::max(longest, x.size());
            const auto c = static_cast<unsigned char>(x[0]);
            first[c] = true;
            if (fold) first[static_cast<unsigned char>(std::tolower(c))] = first[static_cast<unsigned char>(std::toupper(c))] = true;
        }
    }
};

std::size_t partial_tail(std::string_view text, const NeedleSet& set) {
    const std::size_t start = text.size() + 1 > set.longest ? text.size() + 1 - set.longest : 0;
    auto same = [&](char a, char b) {
        return set.ignore_case ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b))
                               : a == b;
    };
    for (std::size_t p = start; p < text.size(); ++p) {
        if (!set.first[static_cast<unsigned char>(text[p])]) continue;
        const std::size_t rest = text.size() - p;
        for (const auto& n : set.needles) {
            if (n.size() <= rest) continue;
            std::size_t k = 0;
            while (k < rest && same(text[p + k], n[k])) ++k;
            if (k == rest) return p;
        }
    }
    return text.size();
}

// The earliest occurrence of any needle that starts before `limit`, searching from `from`.
std::pair<std::size_t, std::size_t> find_first_of_needles(std::string_view text, const std::vector<std::string>& needles,
                                                          std::size_t from, std::size_t limit) {
    std::size_t best = npos, which = 0;
    for (std::size_t i = 0; i < needles.size(); ++i) {
        if (needles[i].empty()) continue;
        const std::size_t f = text.find(needles[i], from);
        if (f != npos && f < limit && f < best) {
            best = f;
            which = i;
        }
    }
    return {best, which};
}

// The length of `s` less a UTF-8 sequence cut short at its end (a lead byte followed by
// fewer continuation bytes than it announces).
std::size_t complete_utf8_prefix(std::string_view s) {
    const std::size_t n = s.size();
    for (std::size_t back = 1; back <= 4 && back <= n; ++back) {
        const auto b = static_cast<unsigned char>(s[n - back]);
        if (b < 0x80) return n;
        if (b < 0xC0) continue;  // a continuation byte: look further back for its lead
        const std::size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        return back < need ? n - back : n;
    }
    return n;
}

}  // namespace

struct StreamParser::Impl {
    const Parser* parser;
    const Parser::Impl& p;
    const Settings& s;
    std::string buf;
    bool finished = false;
    bool frozen = false;  // past the input limit, or a reader threw: the rest waits for finish
    std::vector<StreamEvent> events;

    // ---- the marker scan (primary grammars, as parser.cpp's scan)
    using Marker = detail::MarkerUse;  // the primary grammars' (parser_impl.hpp's role_markers[0])
    std::vector<Marker> markers;
    std::array<bool, 256> first{};
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

    // ---- reasoning blocks (as regions.cpp's find_reasoning)
    enum class RState { guessing, outside, inside };
    RState rstate = RState::outside;
    std::vector<detail::Region> regions;  // the last may be open (ends `far`)
    std::vector<std::string> openers, implicit_closers, inside_closers;
    NeedleSet opener_set, delimiter_set, inside_set, content_marker_set, intent_set;
    std::size_t r_pos = 0;     // outside: no opener starts before this
    std::size_t r_search = 0;  // inside: no closer starts before this
    // Spans of settled blocks holding a call read whole: a delimiter strictly inside one is
    // the call's text (parser.cpp masks them the same way). Sorted and disjoint.
    std::vector<std::pair<std::size_t, std::size_t>> masks;
    std::size_t r_wait = npos;  // a delimiter here waits for the marker scan to pass it

    // ---- fences (as regions.cpp's find_fences)
    std::vector<detail::Region> fences;  // the last may be open (ends `far`)
    bool fence_open = false;
    char fence_ch = 0;             // the open fence's opener: its character and length
    std::size_t fence_length = 0;
    std::size_t line_start = 0;  // first line not yet classified
    std::size_t eol_searched = 0;  // no newline in [line_start, eol_searched)
    // The line at line_start as read so far, so a long line arriving a token at a time is
    // read once, not again at each feed.
    mutable detail::FenceLine line_read;
    mutable std::size_t line_read_at = npos, line_read_to = 0;
    std::size_t fence_first = npos, fence_q = 0;  // the fence holding the scan, and its first non-blank byte

    // ---- content markers, intent markers
    std::vector<std::size_t> cm_pos;  // per content marker: search resumes here
    std::size_t content_known = 0;    // content markers are known up to here
    std::size_t intent_search = 0;
    std::size_t intent_at = npos;

    // ---- assembly
    SpanQueue content_spans, reasoning_spans;
    Assembler content;
    std::size_t cpos = 0;
    std::vector<Assembler> reasoning_parts;  // one per region
    std::size_t rreg = 0, rpos = 0;          // the region being assembled, and where in it
    bool reasoning_sent = false;
    std::string sent_content, sent_reasoning;
    std::string held_content, held_reasoning;  // decided, but ending inside a UTF-8 sequence
    std::size_t regions_removed = 0;  // closed regions already queued as content spans

    // ---- calls
    detail::IdAssigner ids;
    std::size_t calls_done = 0;  // accepted calls ended so far
    struct Open {
        std::size_t at = 0;  // the block's begin
        std::string id, name;
        std::string sent;  // arguments text sent so far
    };
    std::optional<Open> open;
    std::size_t restarts = 0;  // calls re-sent because a read changed after deltas went out
    // The open call's last argument, a JSON string still being written, followed byte by
    // byte (see "Following a string argument").
    struct Tail {
        std::size_t at = npos;  // the block's begin, as open->at; npos: none followed
        std::size_t pos = 0;    // the first raw byte of the string not decoded yet
        // A named parameter's text in markup rather than a JSON string, and its layout.
        bool text = false;
        detail::TextLayout layout;
        bool at_start = false;  // the text's leading layout is not known yet
    };
    Tail tail;
    std::size_t quote_from = 0;  // value_quote_arrived looked at the text before this
    std::size_t tag_from = 0;    // tag_end_arrived, likewise
    // Where the last string followed to its end ends: no read need cut the text before
    // this (provisional_at_breaks), nor look for a string opening before it.
    std::size_t string_end = 0;

    explicit Impl(const Parser& parser_)
        : parser(&parser_), p(*parser_.impl_), s(parser_.impl_->profile.settings) {
        for (const auto& m : p.role_markers[0]) {
            first[static_cast<unsigned char>(m.text[0])] = true;
            markers.push_back(m);
        }
        for (const auto& d : s.reasoning) {
            openers.push_back(d.open);
            if (d.implicit_open && !d.close.empty() && s.reasoning_start != ReasoningStart::outside) {
                implicit_closers.push_back(d.close);
            }
        }
        if (s.reasoning.empty()) {
            rstate = RState::outside;
        } else if (s.reasoning_start == ReasoningStart::inside && !implicit_closers.empty()) {
            regions.push_back({0, far, 0, far, false});
            reasoning_parts.emplace_back();
            inside_closers = implicit_closers;
            rstate = RState::inside;
        } else if (s.reasoning_start == ReasoningStart::guess && !implicit_closers.empty()) {
            rstate = RState::guessing;
        }
        whole_readers = std::any_of(p.grammars.begin(), p.grammars.end(),
                                    [](const auto& g) { return g.second == Role::primary && g.first->read_whole; });
        head_readers = std::any_of(p.grammars.begin(), p.grammars.end(),
                                   [](const auto& g) { return g.second == Role::primary && g.first->read_head; });
        fallbacks = std::any_of(p.grammars.begin(), p.grammars.end(), [](const auto& g) { return g.second == Role::fallback; });
        opener_set = NeedleSet(openers);
        std::vector<std::string> delimiters = openers;
        delimiters.insert(delimiters.end(), implicit_closers.begin(), implicit_closers.end());
        delimiter_set = NeedleSet(delimiters);
        inside_set = NeedleSet(inside_closers);
        content_marker_set = NeedleSet(s.content_markers);
        intent_set = NeedleSet(s.intent_markers, true);
        cm_pos.assign(s.content_markers.size(), 0);
        if (s.tool_required) intent_at = 0;
    }

    // Reasoning stays in content (ReasoningFormat::in_content): no reasoning events.
    const bool in_content = s.reasoning_format == ReasoningFormat::in_content;
    bool fallbacks = false;  // the profile has fallback grammars
    bool whole_readers = false;  // a primary grammar reads the whole output when no marker block appears
    bool whole_declined = false;  // ... and has said, for good, that this output is not its
    bool head_readers = false;    // a primary grammar's first block may begin at the output's start
    bool head_declined = false;
    std::size_t whole_next_try = 0, head_next_try = 0;

    // -----------------------------------------------------------------------------------
    // Reasoning regions.

    // Whether a delimiter found at `d` is masked by a call's block: 1 masked (its search
    // resumes at `resume`), 0 not, -1 not known until the marker scan passes `d`.
    int masked(std::size_t d, std::size_t& resume) const {
        auto it = std::upper_bound(masks.begin(), masks.end(), d,
                                   [](std::size_t pos, const auto& span) { return pos < span.first; });
        if (it != masks.begin()) {
            --it;
            if (it->first < d && d < it->second) {
                resume = it->second;
                return 1;
            }
        }
        // Every block beginning before `d` is settled once the scan stands at or past it.
        return d <= scan || finished ? 0 : -1;
    }

    void add_mask(const Block& b) {
        if (b.end <= b.begin ||
            std::none_of(b.candidates.begin(), b.candidates.end(), [](const Candidate& c) { return c.problem.empty(); }))
            return;
        masks.emplace_back(b.begin, b.end);
        // A block read from before its marker (Functionary's headless first message) may
        // overlap the one before it: merge, as parser.cpp does.
        while (masks.size() >= 2 && masks.back().first < masks[masks.size() - 2].second) {
            auto& prev = masks[masks.size() - 2];
            prev = {std::min(prev.first, masks.back().first), std::max(prev.second, masks.back().second)};
            masks.pop_back();
        }
    }

    void update_reasoning() {
        // Waiting on the scan: nothing to search again until it passes the delimiter (a
        // block holding it settles past it too), so a long block costs no rescans.
        if (r_wait != npos && r_wait > scan && !finished) return;
        r_wait = npos;
        const std::size_t n = buf.size();
        auto limit_for = [&](const NeedleSet& set) { return finished ? n : partial_tail(buf, set); };
        for (;;) {
            if (rstate == RState::guessing) {
                const std::size_t limit = limit_for(delimiter_set);
                const auto [o, oi] = find_first_of_needles(buf, openers, r_pos, limit);
                const auto [c, ci] = find_first_of_needles(buf, implicit_closers, r_pos, limit);
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
                const auto [o, oi] = find_first_of_needles(buf, openers, r_pos, limit);
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
            const auto [c, ci] = find_first_of_needles(buf, inside_closers, r_search, limit);
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

    // Positions before this have a known place in or out of reasoning.
    std::size_t reasoning_known() const {
        if (rstate == RState::guessing) return 0;
        if (rstate == RState::inside) return std::min(buf.size(), r_wait);
        return r_pos;
    }

    // -----------------------------------------------------------------------------------
    // Fences: complete lines only (a closer must have nothing but blanks after its run, an
    // opener no backtick in its info string); a line that cannot be a fence line whatever
    // follows is known as soon as that shows.

    // The line at line_start, read up to `to`.
    const detail::FenceLine& read_line(std::size_t to) const {
        if (line_read_at != line_start) {
            line_read = detail::FenceLine();
            line_read_at = line_read_to = line_start;
        }
        if (to > line_read_to) {
            line_read.add(std::string_view(buf).substr(line_read_to, to - line_read_to));
            line_read_to = to;
        }
        return line_read;
    }

    // 1: the line opens a fence (none is open) or closes the open one; 0: it does not;
    // -1: not known yet. A complete line before line_start was classified already: inside
    // a fence still open it closed nothing, so 0.
    int fence_line_kind(std::size_t line) const {
        if (line < line_start || line > buf.size()) return 0;
        const detail::FenceLine& fl = read_line(buf.size());
        if (finished) return (fence_open ? fl.closes(fence_ch, fence_length) : fl.opens()) ? 1 : 0;
        return (fence_open ? fl.may_close(fence_ch, fence_length) : fl.may_open()) ? -1 : 0;
    }

    void update_fences() {
        for (;;) {
            // Resume the newline search where the last one stopped: a long line arriving
            // a token at a time must not be searched again from its start.
            std::size_t eol = buf.find('\n', std::max(line_start, eol_searched));
            eol_searched = eol == npos ? buf.size() : eol;
            if (eol == npos) {
                if (!finished || line_start >= buf.size()) break;
                eol = buf.size();
            }
            const detail::FenceLine& fl = read_line(eol);
            if (!fence_open && fl.opens()) {
                fences.push_back({line_start, far, std::min(eol + 1, buf.size()), far, false});
                fence_open = true;
                fence_ch = fl.ch();
                fence_length = fl.length();
            } else if (fence_open && fl.closes(fence_ch, fence_length)) {
                auto& f = fences.back();
                f.inner_end = line_start;
                f.outer_end = eol;
                f.closed = true;
                fence_open = false;
            }
            line_start = eol + 1;
        }
    }

    // The fence holding `pos`, or null; false when that is not known yet.
    bool fence_at(std::size_t pos, const detail::Region*& out) const {
        out = nullptr;
        if (pos >= line_start) {
            const std::size_t ls = line_start;
            if (fence_line_kind(ls) != 0) return false;  // the line may open or close a fence
        }
        out = detail::region_at(fences, pos);
        return true;
    }

    // -----------------------------------------------------------------------------------
    // Content markers and intent markers.

    std::size_t update_content_markers() {
        if (s.content_markers.empty()) return buf.size();
        std::size_t limit = finished ? buf.size() : partial_tail(buf, content_marker_set);
        // With reasoning kept in content, a marker inside a reasoning block stays (as in
        // parser.cpp): a marker is decided once its place is known, and one inside a block
        // still open whose end a call may yet move (reasoning_ends_at_call) waits for it.
        if (in_content) limit = std::min(limit, reasoning_known());
        std::size_t known = buf.size();
        for (std::size_t i = 0; i < s.content_markers.size(); ++i) {
            const std::string& m = s.content_markers[i];
            if (m.empty()) continue;
            for (;;) {
                const std::size_t at = buf.find(m, cm_pos[i]);
                if (at == npos || at >= limit) break;
                if (in_content) {
                    if (const detail::Region* r = detail::region_at(regions, at)) {
                        if (!r->closed && s.reasoning_ends_at_call && !finished) {
                            limit = at;
                            break;
                        }
                        cm_pos[i] = at + m.size();
                        continue;
                    }
                }
                content_spans.push({at, at + m.size()});
                cm_pos[i] = at + m.size();
            }
            cm_pos[i] = std::max(cm_pos[i], limit);
            known = std::min(known, cm_pos[i]);
        }
        return known;
    }

    void update_intent() {
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

    // -----------------------------------------------------------------------------------
    // The marker scan.

    struct Read {
        std::optional<Block> block;
        bool final = false;
        std::vector<std::string> wanted;  // not final: strings it looked for at the end
        std::size_t needed = npos;        // not final: how far the text must reach (npos: unknown)
    };
    Read read(const Marker& m, std::size_t at) {
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
        }
        return r;
    }

    // Whether a string the waiting read looked for has arrived since. Each new byte is
    // searched once per string (the search resumes where it stopped, less a string's
    // length for one cut by the last chunk).
    bool wanted_arrived() {
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
    std::size_t wanted_resume_point() const {
        std::size_t longest = 0;
        for (const auto& w : wanted) longest = std::max(longest, w.size());
        return buf.size() - std::min(buf.size(), longest > 0 ? longest - 1 : 0);
    }

    void update_scan() {
        const std::size_t n = buf.size();
        while (scan < n) {
            while (scan < n && !first[static_cast<unsigned char>(buf[scan])]) ++scan;
            if (scan >= n) break;
            bool advanced = false;
            for (std::size_t i = resume_marker; i < markers.size(); ++i) {
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
                Read r = read(m, scan);
                if (!r.final) {
                    resume_marker = i;
                    const std::size_t len = n - scan;
                    // (A read on a tag's end keeps the quarter counted from the last.)
                    if (!tag_read) next_try = scan + std::max(len + 8, len + len / 4);
                    // Reads brought on early (by an awaited string, or by the bytes the
                    // rules asked for) that still do not end the block are few per quarter
                    // of growth, so the reads of a block stay linear in its length.
                    if (!early) early_reads = follow_tries = 0;
                    else if (!tag_read) ++early_reads;
                    wanted = std::move(r.wanted);
                    wanted_from = std::max(scan, wanted_resume_point());
                    wanted_since = n;
                    // The bytes a rule asked for are worth waiting for only once the block
                    // holds a whole call: inside a value still being written, every next
                    // byte is asked for.
                    const bool whole_call =
                        r.block && std::any_of(r.block->candidates.begin(), r.block->candidates.end(),
                                               [](const Candidate& c) { return c.problem.empty() && !c.cut; });
                    needed_at = whole_call ? r.needed : npos;
                    // A block already past the candidate size limit cannot be announced.
                    if (!m.broken && len <= s.limits.max_candidate_bytes && !(r.block && provisional(*r.block)) &&
                        !(r.block && follow_text(*r.block, scan)) && !follow_string(m.grammar, scan))
                        provisional_at_breaks(m.grammar, scan);
                    return;
                }
                next_try = 0;
                wanted.clear();
                needed_at = npos;
                if (open && open->at == scan && (!r.block || r.block->begin != scan))
                    end_rejected("what looked like a call here is not one");
                if (r.block) {
                    for (auto& c : r.block->candidates) c.role = Role::primary;
                    r.block->role = Role::primary;
                    const std::size_t next = std::max(r.block->end, scan + 1);
                    add_mask(*r.block);
                    settled.push_back(std::move(*r.block));
                    scan = next;
                    resume_marker = 0;
                    advanced = true;
                    judge_settled();
                    break;
                }
            }
            if (!advanced) {
                if (open && open->at == scan) end_rejected("what looked like a call here is not one");
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
    bool worth_reading(const Marker& m, bool& tag_read) {
        const std::size_t n = buf.size();
        if (following(scan)) return wanted_arrived();
        const bool may_follow = (!open || open->at == scan) && follow_tries < max_follow_tries;
        if (may_follow && value_quote_arrived(scan) && follow_string(m.grammar, scan)) {
            following(scan);
            return false;
        }
        if (n >= next_try) return true;
        if (early_reads < max_early_reads && ((needed_at != npos && n >= needed_at) || wanted_arrived())) return true;
        if (may_follow && follow_tries < max_follow_tries && tag_end_arrived(scan)) {
            ++follow_tries;
            return tag_read = true;
        }
        return false;
    }

    // -----------------------------------------------------------------------------------
    // Whole-output grammars (strict JSON, Functionary's first call with its `>>>` in the
    // prompt) read the answer once at the end, unless a marker block appears. Most outputs
    // show at their start that they are not such a grammar's: a read of the answer so far
    // that declines without looking at the end frees the content.

    // Where the answer begins (after leading reasoning and blanks), once that is known.
    std::optional<std::size_t> answer_begin() const {
        std::size_t ab = 0;
        for (const auto& r : regions) {
            if (r.outer_begin < ab) continue;
            bool blank = true;
            for (std::size_t i = ab; i < r.outer_begin && blank; ++i) blank = is_space(buf[i]);
            if (!blank) break;
            if (!r.closed) return std::nullopt;
            ab = r.outer_end;
        }
        while (ab < buf.size() && is_space(buf[ab])) ++ab;
        if (ab >= buf.size() || ab >= reasoning_known()) return std::nullopt;  // a reasoning block may yet open here
        return ab;
    }

    void update_head() {
        if (!head_readers || head_declined || buf.size() < head_next_try) return;
        std::size_t start = 0;
        while (start < buf.size() && is_blank(buf[start])) ++start;
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

    void update_whole() {
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

    // -----------------------------------------------------------------------------------
    // Judging blocks in order, once their place is known.

    struct Place {
        bool known = false;
        const detail::Region* reasoning = nullptr;
        bool example = false;
        const detail::Region* fence = nullptr;
    };
    Place place_of(std::size_t begin) const {
        Place pl;
        if (begin >= reasoning_known()) return pl;
        pl.reasoning = detail::region_at(regions, begin);
        // An unclosed reasoning block may yet end at this call (reasoning_ends_at_call):
        // that is decided by what follows, so wait for the closer or the end.
        if (pl.reasoning && !pl.reasoning->closed && s.reasoning_ends_at_call && !finished) return pl;
        if (!fence_at(begin, pl.fence)) return pl;
        pl.example = !pl.reasoning && detail::introduced_as_example(buf, begin, fences, std::min(judged_end, begin));
        pl.known = true;
        return pl;
    }

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
    std::optional<bool> wraps(const detail::Region& f, const Block& b) const {
        WrapScan& w = wrap_scan;
        if (w.block != b.begin) {
            w.block = b.begin;
            w.blank_before = f.inner_begin <= b.begin;
            for (std::size_t i = f.inner_begin; w.blank_before && i < b.begin; ++i)
                if (!is_blank(buf[i])) w.blank_before = false;
            // The block may end on the fence's closing line (a failed block can run past
            // its backticks), so the line holding its end is found from its start.
            w.pos = b.end;
            w.line = b.end;
            while (w.line > f.inner_begin && buf[w.line - 1] != '\n') --w.line;
        }
        if (!w.blank_before) return false;
        if (f.closed) return detail::fence_only_wraps(buf, f, b.begin, b.end);
        // Open fence: a non-blank byte after the block, on a line that is not a fence line,
        // settles it; on a fence line (the closing one, still unterminated) or a line whose
        // kind is not known yet, wait for the line to end.
        for (; w.pos < buf.size(); ++w.pos) {
            const char ch = buf[w.pos];
            if (ch == '\n') w.line = w.pos + 1;
            if (is_blank(ch) || ch == '`') continue;
            return fence_line_kind(w.line) == 0 ? std::optional<bool>(false) : std::nullopt;
        }
        return std::nullopt;
    }

    void judge_settled() {
        while (!settled.empty()) {
            Block& b = settled.front();
            const Place pl = place_of(b.begin);
            if (!pl.known) return;
            std::pair<std::size_t, std::size_t> span{b.begin, b.end};
            if (pl.fence && !pl.example) {
                const std::optional<bool> w = wraps(*pl.fence, b);
                if (!w) return;
                if (*w) {
                    span = {pl.fence->outer_begin, std::max(pl.fence->outer_end, b.end)};
                    for (auto& c : b.candidates) c.notes.push_back("tags_inside_fence");
                }
            }
            assemble();  // the text before this block goes out before its calls
            judge_block(b, pl, span);
            judged_end = std::max(judged_end, b.end);
            settled.pop_front();
        }
    }

    void judge_block(Block& block, const Place& pl, std::pair<std::size_t, std::size_t> span) {
        primary_seen = true;
        bool has_call = false, is_syntax = false;
        for (std::size_t ci = 0; ci < block.candidates.size(); ++ci) {
            Candidate& c = block.candidates[ci];
            c.in_reasoning = pl.reasoning != nullptr;
            c.in_example = pl.example;
            ++candidates_seen;
            if (!c.in_example) is_syntax = true;
            const bool continues = ci == 0 && open && open->at == block.begin;
            if (candidates_seen > s.limits.max_candidates) {
                if (continues) end_rejected("candidate limit reached");
                continue;
            }
            auto judged = p.judge(c, s.tool_required, 0);
            if (judged.report.accepted) {
                has_call = true;
                Call call;
                call.name = judged.report.name;
                call.arguments = c.arguments;
                call.id = ids.take(c.id);
                call.healed = judged.report.healed;
                end_accepted(std::move(call), continues);
            } else if (continues) {
                end_rejected(judged.report.reason);
            }
        }
        // Candidates the reader only counted were past the limit (add_candidate).
        candidates_seen += block.dropped;
        if (block.dropped > 0 && !pl.example) is_syntax = true;
        if (has_call || is_syntax || !block.content.empty() || (block.candidates.empty() && block.dropped == 0)) {
            std::size_t from = span.first;
            auto& target = pl.reasoning && !in_content ? reasoning_spans : content_spans;
            const bool remove = !pl.reasoning || has_call;
            for (const auto& [cb, ce] : block.content) {
                if (cb > from && remove) target.push({from, cb});
                from = std::max(from, ce);
            }
            if (from < span.second && remove) target.push({from, span.second});
        }
    }

    // -----------------------------------------------------------------------------------
    // Call events.

    StreamEvent call_event(StreamEvent::Kind kind, const std::string& id, const std::string& name) const {
        StreamEvent e;
        e.kind = kind;
        e.index = calls_done;
        e.id = id;
        e.name = name;
        return e;
    }

    void end_rejected(const std::string& reason) {
        StreamEvent e = call_event(StreamEvent::Kind::call_end, open->id, open->name);
        e.rejection = reason;
        events.push_back(std::move(e));
        open.reset();
    }

    void end_accepted(Call call, bool continues) {
        const std::string text = detail::arguments_text(call.arguments);
        if (continues && (open->id != call.id || open->name != call.name || text.compare(0, open->sent.size(), open->sent) != 0)) {
            // What was sent no longer matches the call as finally read: withdraw it and
            // send the call again, whole, in the same place.
            ++restarts;
            end_rejected("the call changed after it was announced; it follows again");
            continues = false;
        }
        if (!continues) {
            events.push_back(call_event(StreamEvent::Kind::call_begin, call.id, call.name));
            open = Open{0, call.id, call.name, ""};
        }
        if (text.size() > open->sent.size()) {
            StreamEvent d = call_event(StreamEvent::Kind::call_arguments, call.id, call.name);
            d.text = text.substr(open->sent.size());
            events.push_back(std::move(d));
        }
        StreamEvent e = call_event(StreamEvent::Kind::call_end, call.id, call.name);
        e.call = std::move(call);
        events.push_back(std::move(e));
        open.reset();
        ++calls_done;
    }

    // The text so far usually ends inside a value, which no grammar reads (a cut value is
    // never healed). Reading it as if it ended just after one of the last few separators
    // (`,` between members, `>` after a closing tag, a newline) finds the members that are
    // complete. Bounded: four reads of the block at most.
    void provisional_at_breaks(const GrammarDef* g, std::size_t at) {
        std::size_t p = buf.size();
        for (int tries = 0; tries < 4; ++tries) {
            p = buf.find_last_of(",>\n", p == 0 ? 0 : p - 1);
            if (p == npos || p <= std::max(at, string_end)) return;
            const std::string_view view = std::string_view(buf).substr(0, p + 1);
            detail::ScanContext ctx(view, s);
            ctx.use_tools(&this->p.toolset);
            std::optional<Block> b = g->read_at(ctx, at);
            if (b && provisional(*b)) return;
        }
    }

    // A block read before its end is known: announce its first call and send the members
    // of its arguments that are followed by another (the last may still grow). True when
    // the block gave a call to announce. `through_string`: the last member is a string the
    // text ends in (follow_string): it is sent too, up to its closing quote.
    bool provisional(Block& b, bool through_string = false) {
        if (!settled.empty() || b.candidates.empty()) return false;
        const Place pl = place_of(b.begin);
        if (!pl.known || pl.example || (pl.reasoning && !s.accept_calls_in_reasoning)) return false;
        if (candidates_seen + 1 > s.limits.max_candidates) return false;
        Candidate c = b.candidates.front();
        if (!c.problem.empty() || (c.repairs & detail::repair_duplicate_key) || !c.arguments.is_object() ||
            c.arguments.size() < 1 || c.end - c.begin > s.limits.max_candidate_bytes)
            return false;
        // A number with leading zeros is text or a refusal, decided by the judge alone.
        if ((c.repairs & detail::repair_leading_zeros) && detail::holds_ambiguous_number(c.arguments)) return false;
        std::string name;
        const json* schema = nullptr;
        if (p.tool_list) {
            const auto res = p.toolset.resolve(c.name, c.qualified_name);
            if (res.index < 0) return false;
            name = p.toolset.tool(res.index).name;
            schema = &p.toolset.schema(res.index);
        } else {
            if (c.name.empty()) return false;
            name = c.name;
        }
        if (open && open->at != b.begin) return false;
        // As phase two does: invalid UTF-8 becomes U+FFFD (two keys that become one are
        // refused there), then text values are typed.
        std::string merged_key;
        if (!c.arguments_valid_utf8) detail::make_valid_utf8(c.arguments, &merged_key);
        if (!merged_key.empty()) return false;
        if (c.arguments_are_text && !detail::type_text_arguments(c, schema, s.limits.max_depth)) return false;
        if (!open) {
            open = Open{b.begin, ids.next(c.id), name, ""};
            events.push_back(call_event(StreamEvent::Kind::call_begin, open->id, open->name));
        }
        // The arguments JSON up to (not including) the last member, written member by
        // member as a dump of the whole object would write it; or through the last
        // member's string, less its closing quote and the object's closer.
        std::string prefix = "{";
        if (through_string) {
            if (!c.arguments.back().is_string()) return false;
            prefix = detail::arguments_text(c.arguments);
            prefix.resize(prefix.size() - 2);  // `"}`
        }
        std::size_t k = 0;
        for (auto it = c.arguments.begin(); !through_string && it != c.arguments.end() && k + 1 < c.arguments.size();
             ++it, ++k) {
            if (k > 0) prefix += ',';
            prefix += detail::arguments_text(json(it.key()));
            prefix += ':';
            prefix += detail::arguments_text(it.value());
        }
        if (through_string && prefix.compare(0, open->sent.size(), open->sent) != 0) return false;
        if (prefix.size() > open->sent.size() && prefix.compare(0, open->sent.size(), open->sent) == 0) {
            StreamEvent d = call_event(StreamEvent::Kind::call_arguments, open->id, open->name);
            d.text = prefix.substr(open->sent.size());
            open->sent = prefix;
            events.push_back(std::move(d));
        }
        return true;
    }

    // -----------------------------------------------------------------------------------
    // Following a string argument.
    //
    // A call's long argument (a file's content, a script) is one JSON string that takes
    // most of the output to write. Reading the block again as it grows cannot send any of
    // it (a value the text cuts is never read), and each such read costs the whole block.
    // So once a read shows that the text ends inside a string that is the open call's last
    // argument, the stream decodes that string itself as its bytes arrive
    // (string_prefix.hpp) and sends each decided piece, written as the call's JSON writes
    // it; the block is not read again until the string closes (or a string the last read
    // awaited arrives). Anything the lenient reader would repair ends the following, and
    // the reads take over as before. What was sent is checked against the call as finally
    // read (end_accepted), like every other delta.

    // Whether the open call's string argument at the block at `at` is still being
    // followed, after sending what arrived of it.
    bool following(std::size_t at) {
        if (tail.at != at) return false;
        if (!open || open->at != at) {
            tail.at = npos;
            return false;
        }
        std::string decoded;
        const detail::StringPrefix sp = tail.text ? detail::decode_text_prefix(buf, tail.pos, tail.layout, tail.at_start, decoded)
                                                  : detail::decode_string_prefix(buf, tail.pos, decoded);
        tail.pos = sp.end;
        if (!decoded.empty()) {
            StreamEvent d = call_event(StreamEvent::Kind::call_arguments, open->id, open->name);
            detail::append_json_string_body(d.text, decoded);
            open->sent += d.text;
            events.push_back(std::move(d));
        }
        if (sp.stop == detail::StringPrefix::Stop::more) return true;
        if (sp.stop == detail::StringPrefix::Stop::closed) string_end = sp.end + 1;
        tail.at = npos;
        return false;
    }

    // What stands before a value's opening quote, blanks aside: a JSON member's ':', or a
    // Python keyword argument's '=' (pythonic calls, whose plain strings read the same).
    static bool opens_value(char c) { return c == ':' || c == '='; }

    // Whether a quote that opens a value arrived since the last look; each byte is looked
    // at once.
    bool value_quote_arrived(std::size_t at) {
        const std::size_t from = std::max(quote_from, at);
        quote_from = buf.size();
        for (std::size_t q = buf.find('"', from); q != npos; q = buf.find('"', q + 1)) {
            std::size_t k = q;
            while (k > at && is_blank(buf[k - 1])) --k;
            if (k > at && opens_value(buf[k - 1])) return true;
        }
        return false;
    }

    // Whether a tag's '>' arrived since the last look; each byte is looked at once.
    bool tag_end_arrived(std::size_t at) {
        const std::size_t from = std::max(tag_from, at);
        tag_from = buf.size();
        return buf.find('>', from) != npos;
    }

    // Reads the block at `at` as if the string the text ends in closed here. When that
    // string is the last argument of the block's first call, announces the call, sends its
    // arguments through what has arrived of the string, and follows the string from here.
    bool follow_string(const GrammarDef* g, std::size_t at) {
        if (!settled.empty() || (open && open->at != at) || tail.at == at) return false;
        // The string opened at the last quote before the end that no backslash escapes
        // (every quote inside a JSON string is escaped), and a value's string (after a
        // ':' or '='); only then is the block worth reading (below, the read must agree).
        // Searched back only to the block's start (or the last followed string's end):
        // the text before it may be megabytes.
        const std::size_t floor = std::max(at, string_end);
        const std::string_view block(buf.data() + floor, buf.size() - floor);
        std::size_t quote = buf.size();
        for (;;) {
            const std::size_t q = quote == floor ? npos : block.rfind('"', quote - 1 - floor);
            if (q == npos || q == 0) return false;
            quote = floor + q;
            std::size_t backslashes = 0;
            while (quote - backslashes > at && buf[quote - backslashes - 1] == '\\') ++backslashes;
            if (backslashes % 2 == 0) break;
        }
        std::size_t before = quote;
        while (before > at && is_blank(buf[before - 1])) --before;
        if (before == at || !opens_value(buf[before - 1])) return false;
        ++follow_tries;
        std::optional<Block> b;
        {
            buf.push_back('"');
            struct Restore {
                std::string& text;
                ~Restore() { text.pop_back(); }
            } restore{buf};
            detail::ScanContext ctx(buf, s);
            ctx.use_tools(&p.toolset);
            b = g->read_at(ctx, at);
        }
        if (!b || b->candidates.empty()) return false;
        const Candidate& c = b->candidates.front();
        if (!c.problem.empty() || c.arguments_are_text || !c.arguments.is_object() || c.arguments.empty() ||
            !c.arguments.back().is_string())
            return false;
        // Decoded from its opening quote, the string must be the very value the read found.
        std::string decoded;
        const detail::StringPrefix sp = detail::decode_string_prefix(buf, quote + 1, decoded);
        if (sp.stop != detail::StringPrefix::Stop::more || sp.end != buf.size() ||
            decoded != c.arguments.back().get_ref<const std::string&>())
            return false;
        if (!provisional(*b, true)) return false;
        tail = Tail();
        tail.at = at;
        tail.pos = buf.size();
        return true;
    }

    // A read of the block at `at` found its first call cut inside a parameter's text (a
    // markup family): when the tool's schema makes that text a string as written, announce
    // the call, send its arguments through what is decided of the text, and follow it.
    bool follow_text(const Block& b, std::size_t at) {
        if (!settled.empty() || (open && open->at != at) || tail.at == at || b.candidates.empty()) return false;
        Candidate c = b.candidates.front();
        if (!c.cut_text || !c.arguments_are_text || c.text_is_quoted) return false;
        const Candidate::CutText cut = *c.cut_text;
        if (p.tool_list) {
            const auto res = p.toolset.resolve(c.name, c.qualified_name);
            if (res.index < 0) return false;
            const json& schema = p.toolset.schema(res.index);
            const auto props = schema.is_object() ? schema.find("properties") : schema.end();
            if (props == schema.end() || !props->is_object()) return false;
            const auto prop = props->find(cut.key);
            if (prop == props->end() || !prop->is_object() || prop->value("type", json()) != "string") return false;
        }
        Tail t;
        t.at = at;
        t.text = true;
        t.layout = {cut.newline_each_side, cut.strip_blanks};
        t.at_start = true;
        std::string decoded;
        const detail::StringPrefix sp = detail::decode_text_prefix(buf, cut.begin, t.layout, t.at_start, decoded);
        c.problem.clear();
        c.cut = false;
        c.cut_text.reset();
        detail::set_argument(c, cut.key, std::move(decoded));
        Block announced;
        announced.begin = b.begin;
        announced.end = b.end;
        announced.candidates.push_back(std::move(c));
        if (!provisional(announced, true)) return false;
        if (sp.stop != detail::StringPrefix::Stop::more) return true;  // announced; nothing more to follow
        t.pos = sp.end;
        tail = t;
        return true;
    }

    // -----------------------------------------------------------------------------------
    // Assembly of content and reasoning up to the frontier.

    void assemble() {
        // Before this, everything is decided: markers scanned, blocks judged, regions found.
        std::size_t f = std::min(scan, reasoning_known());
        if (!settled.empty()) {
            const Block& b = settled.front();
            f = std::min(f, b.begin);
            if (const detail::Region* fe = detail::region_at(fences, b.begin)) f = std::min(f, fe->outer_begin);
        }
        if (fence_line_kind(line_start) != 0) f = std::min(f, line_start);
        if (const detail::Region* fe = detail::region_at(fences, scan)) {
            // A block may yet stand first in this fence (the scan has not passed its first
            // non-blank byte) and take the fence with it.
            if (fence_first != fe->outer_begin) fence_first = fe->outer_begin, fence_q = fe->inner_begin;
            while (fence_q < buf.size() && is_blank(buf[fence_q])) ++fence_q;
            if (fence_q >= scan) f = std::min(f, fe->outer_begin);
        }
        if (fallbacks && !primary_seen) f = std::min(f, std::min(intent_at, intent_search));

        // Content. A primary grammar that reads the whole output (strict JSON) gets its
        // turn at the end unless a marker block appears first: until then, the content
        // may all be its block.
        std::size_t fc = std::min(f, content_known);  // content markers searched up to here
        if (whole_readers && !primary_seen && !whole_declined) fc = 0;
        if (head_readers && !head_declined) fc = 0;
        // Reasoning kept in content flows with it, unless a call may yet end the open block
        // (reasoning_ends_at_call), which decides where the framing tokens after it go.
        if (rstate == RState::inside && (!in_content || s.reasoning_ends_at_call))
            fc = std::min(fc, regions.back().outer_begin);
        for (; !in_content && regions_removed < regions.size() && regions[regions_removed].closed; ++regions_removed)
            content_spans.push({regions[regions_removed].outer_begin, regions[regions_removed].outer_end});
        feed_assembler(content, cpos, content_spans, fc);
        if (auto t = content.take(); !t.empty()) emit_text(StreamEvent::Kind::content, t);
        if (in_content) return;

        // Reasoning, region by region.
        while (rreg < regions.size()) {
            const auto& r = regions[rreg];
            if (rpos < r.inner_begin) rpos = r.inner_begin;
            const std::size_t upto = std::min({f, r.inner_end, rstate == RState::inside && rreg + 1 == regions.size() ? r_search : far});
            Assembler& a = reasoning_parts[rreg];
            feed_assembler(a, rpos, reasoning_spans, std::min(upto, buf.size()));
            if (auto t = a.take(); !t.empty()) {
                if (reasoning_sent && !a_started(rreg)) emit_text(StreamEvent::Kind::reasoning, "\n\n");
                started_regions.resize(std::max(started_regions.size(), rreg + 1));
                started_regions[rreg] = true;
                emit_text(StreamEvent::Kind::reasoning, t);
                reasoning_sent = true;
            }
            if (r.closed && rpos >= r.inner_end) {
                ++rreg;
                continue;
            }
            break;
        }
    }
    std::vector<bool> started_regions;
    bool a_started(std::size_t i) const { return i < started_regions.size() && started_regions[i]; }

    // Feeds [pos, upto) less the removed spans that begin before `upto`.
    void feed_assembler(Assembler& a, std::size_t& pos, SpanQueue& spans, std::size_t upto) {
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
    void emit_text(StreamEvent::Kind kind, std::string_view piece, bool last = false) {
        std::string& held = kind == StreamEvent::Kind::content ? held_content : held_reasoning;
        held.append(piece);
        const std::size_t cut = last ? held.size() : complete_utf8_prefix(held);
        if (cut == 0) return;
        const std::string t = held.substr(0, cut);
        held.erase(0, cut);
        (kind == StreamEvent::Kind::content ? sent_content : sent_reasoning).append(t);
        // Adjacent deltas of one kind are sent as one event.
        if (!events.empty() && events.back().kind == kind) {
            events.back().text += t;
            return;
        }
        StreamEvent e;
        e.kind = kind;
        e.text = std::string(t);
        events.push_back(std::move(e));
    }

    // -----------------------------------------------------------------------------------
    // The end: the one-shot result is the answer; send what the stream has not.

    void finish(const Result& r) {
        if (open) {
            const std::size_t i = calls_done;
            const bool same = i < r.calls.size() && r.calls[i].id == open->id && r.calls[i].name == open->name &&
                              detail::arguments_text(r.calls[i].arguments).compare(0, open->sent.size(), open->sent) == 0;
            if (!same) {
                std::string reason = "not a complete call when the output ended";
                for (const auto& c : r.telemetry.candidates)
                    if (c.begin == open->at && !c.accepted) reason = c.reason;
                end_rejected(reason);
            }
        }
        for (std::size_t i = calls_done; i < r.calls.size(); ++i) {
            end_accepted(r.calls[i], open.has_value());
        }
        // What was held back is the start of what follows in the result.
        held_reasoning.clear();
        held_content.clear();
        if (r.reasoning.compare(0, sent_reasoning.size(), sent_reasoning) == 0 && r.reasoning.size() > sent_reasoning.size())
            emit_text(StreamEvent::Kind::reasoning, std::string_view(r.reasoning).substr(sent_reasoning.size()), true);
        if (r.content.compare(0, sent_content.size(), sent_content) == 0 && r.content.size() > sent_content.size())
            emit_text(StreamEvent::Kind::content, std::string_view(r.content).substr(sent_content.size()), true);
        if (r.error) {
            StreamEvent e;
            e.kind = StreamEvent::Kind::format_error;
            e.error = r.error;
            events.push_back(std::move(e));
        }
    }

    // -----------------------------------------------------------------------------------

    void advance() {
        if (frozen) return;
        if (buf.size() > s.limits.max_input_bytes) {
            frozen = true;  // the one-shot parse scans only the first max_input_bytes
            return;
        }
        try {
            update_reasoning();
            update_fences();
            content_known = update_content_markers();
            if (fallbacks) update_intent();
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
};

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

StreamParser::Finished StreamParser::finish() {
    Impl& st = *impl_;
    if (st.finished) throw std::logic_error("StreamParser::finish called twice");
    st.finished = true;
    Finished out;
    out.result = st.parser->parse(st.buf);
    st.finish(out.result);
    out.events = std::exchange(st.events, {});
    return out;
}

}  // namespace toolgram
