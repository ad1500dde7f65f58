// The stream's calls: blocks judged in order by the one-shot parse's judge once their
// place is known, the events a call sends (begin, argument deltas, end), and a long
// string argument followed as it is written.
#include "stream/stream_impl.hpp"

namespace toolgram {

// ---------------------------------------------------------------------------------------
// Judging blocks in order, once their place is known.

auto StreamParser::Impl::place_of(std::size_t begin) const -> Place {
    Place pl;
    if (begin >= reasoning_known()) return pl;
    pl.reasoning = detail::region_at(regions(), begin);
    // An unclosed reasoning block may yet end at this call (reasoning_ends_at_call):
    // that is decided by what follows, so wait for the closer or the end.
    if (pl.reasoning && !pl.reasoning->closed && s.reasoning_ends_at_call && !finished) return pl;
    if (!fence_at(begin, pl.fence)) return pl;
    pl.example = !pl.reasoning && detail::introduced_as_example(buf, begin, fences(), std::min(judged_end, begin));
    pl.known = true;
    return pl;
}

std::optional<bool> StreamParser::Impl::wraps(const detail::Region& f, const Block& b) const {
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

// Settled blocks may wait long to be judged (a guess whether the output began inside
// reasoning waits for a delimiter or the end): past max_candidates they keep no
// candidate, only the count, as the one-shot scan keeps them (drop_past_candidate_limit),
// so an output of thousands of tiny calls does not hold each one's documents. The
// judge never reads those (judge_block), but for the first of a block whose call is
// announced already, which it ends as refused.
void StreamParser::Impl::limit_settled(Block& b) {
    const std::size_t max = s.limits.max_candidates;
    std::size_t keep = max > candidates_read ? max - candidates_read : 0;
    if (open && open->at == b.begin) keep = std::max(keep, open->candidate + 1);
    detail::keep_first_candidates(b, keep);
    candidates_read += b.candidates.size() + b.dropped();
}

void StreamParser::Impl::judge_settled() {
    while (!settled.empty()) {
        Block& b = settled.front();
        Place pl = place_of(b.begin);
        if (!pl.known) return;
        // A fenced call waits for the paragraph after its fence, which may disown it.
        if (pl.fence && !pl.example && !pl.reasoning) {
            const std::optional<bool> disowned = detail::disowned_after_fence(buf, *pl.fence, marker_texts, finished);
            if (!disowned) return;
            pl.example = *disowned;
        }
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

void StreamParser::Impl::judge_block(Block& block, const Place& pl, std::pair<std::size_t, std::size_t> span) {
    primary_seen = true;
    // A section's candidates judged before it closed (judge_ahead) are not judged again.
    const std::size_t first = std::min(first_unjudged(block.begin), block.candidates.size());
    bool has_call = first > 0 && ahead.has_call, is_syntax = first > 0 && ahead.is_syntax;
    ahead = Ahead();
    for (std::size_t ci = first; ci < block.candidates.size(); ++ci) {
        if (!pl.example) is_syntax = true;
        const bool continues = open && open->at == block.begin && open->candidate == ci;
        if (judge_candidate(block.candidates[ci], pl, continues)) has_call = true;
    }
    // Candidates the reader only counted were past the limit (add_candidate).
    candidates_seen += block.dropped();
    if (block.dropped() > 0 && !pl.example) is_syntax = true;
    if (has_call || is_syntax || !block.content().empty() || (block.candidates.empty() && block.dropped() == 0)) {
        std::size_t from = span.first;
        auto& target = pl.reasoning && !in_content ? reasoning_spans : content_spans;
        const bool remove = !pl.reasoning || has_call;
        for (const auto& [cb, ce] : block.content()) {
            if (cb > from && remove) target.push({from, cb});
            from = std::max(from, ce);
        }
        if (from < span.second && remove) target.push({from, span.second});
    }
}

// One candidate judged, in the order of the output, as the one-shot parse judges it: an
// accepted call is sent (or the announced one ended with it), a refused one that was
// announced is ended with its reason. True when accepted.
bool StreamParser::Impl::judge_candidate(Candidate& c, const Place& pl, bool continues) {
    c.in_reasoning = pl.reasoning != nullptr;
    c.in_example = pl.example;
    ++candidates_seen;
    if (candidates_seen > s.limits.max_candidates) {
        if (continues) end_rejected("candidate limit reached", RejectionCode::candidate_limit);
        return false;
    }
    auto judged = p.judge(c, s.tool_required, 0);
    if (!judged.report.accepted) {
        if (continues) end_rejected(judged.report.reason, judged.report.code);
        return false;
    }
    Call call;
    call.name = judged.report.name;
    call.arguments = std::move(c.arguments);  // the candidate is not read again (its block goes)
    call.id = ids.take(c.id);
    call.healed = judged.report.healed;
    end_accepted(std::move(call), continues);
    return true;
}

// A section (read_call_section: Kimi's, DeepSeek's) is one block whose closer may come
// long after its first call; judged only then, its second call would go out when the
// section closed. So each call the section's read has read for good (the end watch's
// final candidates: no continuation of the text changes it) is judged as soon as another
// call follows it, in order, by the same judge that judges it once the section is read
// whole; judge_block then skips it. The last call read waits: whether the output ends
// after it, its section's closer cut off (then it is healed), is not known yet. Nothing
// else of what follows reaches a call already read: its place is that of the block's
// start, and the candidates before it were judged before it, here as in the one-shot.
//
// `b` was read from read_from(at): its first candidate is the first not judged yet, and
// `mark` says how many of its candidates to judge (a whole number of calls) and where the
// last of those calls ends, where the next reads start. Those judged leave `b`, whose
// first candidate is then again the first not judged.
void StreamParser::Impl::judge_ahead(std::size_t at, Block& b, detail::SectionMark mark) {
    if (!settled.empty() || mark.candidates == 0 || mark.candidates >= b.candidates.size()) return;
    // Past the candidate limit the rest waits for judge_block, which counts it as the
    // one-shot scan does.
    if (candidates_seen + mark.candidates > s.limits.max_candidates) return;
    const Place pl = place_of(at);
    // A fenced block is judged whole: whether its fence only wraps it is known at its end.
    if (!pl.known || pl.fence) return;
    if (ahead.at != at) ahead = Ahead{at, 0, at};
    assemble();  // the text before the block goes out before its calls
    primary_seen = true;
    for (std::size_t i = 0; i < mark.candidates; ++i, ++ahead.judged) {
        Candidate& c = b.candidates[i];
        c.role = Role::primary;
        if (!pl.example) ahead.is_syntax = true;
        const bool continues = open && open->at == at && open->candidate == ahead.judged;
        if (judge_candidate(c, pl, continues)) ahead.has_call = true;
    }
    ahead.resume = mark.end;
    b.candidates.erase(b.candidates.begin(), b.candidates.begin() + static_cast<std::ptrdiff_t>(mark.candidates));
}

// ---------------------------------------------------------------------------------------
// Call events.

StreamEvent StreamParser::Impl::call_event(StreamEvent::Kind kind, const std::string& id, const std::string& name) const {
    StreamEvent e;
    e.kind = kind;
    e.index = calls_done;
    e.id = id;
    e.name = name;
    return e;
}

void StreamParser::Impl::end_rejected(const std::string& reason, RejectionCode code) {
    StreamEvent e = call_event(StreamEvent::Kind::call_end, open->id, open->name);
    e.rejection = reason;
    e.rejection_code = code;
    events.push_back(std::move(e));
    open.reset();
}

void StreamParser::Impl::end_accepted(Call call, bool continues, std::optional<std::string> rest) {
    // The arguments' JSON past what was sent of it (written past it, not again whole),
    // unless the caller found it already.
    if (continues && !rest && open->id == call.id && open->name == call.name) rest = past_sent(call.arguments);
    if (continues && !rest) {
        // What was sent no longer matches the call as finally read: withdraw it and
        // send the call again, whole, in the same place.
        ++restarts;
        end_rejected("the call changed after it was announced; it follows again", RejectionCode::changed);
        continues = false;
    }
    if (!continues) {
        events.push_back(call_event(StreamEvent::Kind::call_begin, call.id, call.name));
        open = Open{.id = call.id, .name = call.name};
        rest = detail::arguments_text(call.arguments);
    }
    if (!rest->empty()) {
        StreamEvent d = call_event(StreamEvent::Kind::call_arguments, call.id, call.name);
        d.text = std::move(*rest);
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
void StreamParser::Impl::provisional_at_breaks(const GrammarDef* g, std::size_t at) {
    // The search looks back only to the block's start (or the last string's end): a
    // block with no break in it (`[[[[…`) was searched back to the text's start at every
    // chunk, quadratic in the output. (A section is read past its calls judged ahead.)
    const std::size_t from = read_from(at);
    const std::size_t floor = std::max(from, follower.string_end());
    std::size_t p = buf.size();
    for (int tries = 0; tries < 4; ++tries) {
        if (p <= floor + 1) return;
        const std::size_t back = std::string_view(buf).substr(floor + 1, p - floor - 1).find_last_of(",>\n");
        if (back == npos) return;
        p = floor + 1 + back;
        const std::string_view view = std::string_view(buf).substr(0, p + 1);
        detail::ScanContext ctx(view, s);
        ctx.use_tools(&this->p.toolset);
        std::optional<Block> b = g->read_at(ctx, from);
        if (b && provisional(at, *b)) return;
    }
}

// A block read before its end is known: announce its first call not judged yet (read
// from read_from(at), the read's first) and send the members
// of its arguments that are followed by another (the last may still grow). True when
// the block gave a call to announce. `through_string`: the last member is a string the
// text ends in (follow_string): it is sent too, up to its closing quote.
// The block's first candidate is changed (its text arguments typed in place).
bool StreamParser::Impl::provisional(std::size_t at, Block& b) {
    return !b.candidates.empty() && provisional(at, b.candidates.front(), false);
}

// The same for the block at `at` (read from read_from(at)), whose first candidate not
// judged yet is `read`; every caller drops it after, so it is typed in place, not on a
// copy (its arguments may hold a long argument whole).
bool StreamParser::Impl::provisional(std::size_t at, Candidate& read, bool through_string) {
    if (!settled.empty()) return false;
    const std::size_t ci = first_unjudged(at);
    const Place pl = place_of(at);
    if (!pl.known || pl.example || (pl.reasoning && !s.accept_calls_in_reasoning)) return false;
    if (candidates_seen + 1 > s.limits.max_candidates) return false;
    if (!read.problem.empty() || (read.repairs & detail::repair_duplicate_key) || !read.arguments.is_object() ||
        read.arguments.size() < 1 || read.end - read.begin > s.limits.max_candidate_bytes)
        return false;
    // A number with leading zeros is text or a refusal, decided by the judge alone.
    if ((read.repairs & detail::repair_leading_zeros) && detail::holds_ambiguous_number(read.arguments)) return false;
    std::string name;
    const json* schema = nullptr;
    if (p.tool_list) {
        const auto res = p.toolset.resolve(read.name, read.qualified_name);
        if (res.index < 0) return false;
        name = p.toolset.tool(res.index).name;
        schema = &p.toolset.schema(res.index);
    } else {
        if (read.name.empty()) return false;
        name = read.name;
    }
    if (open && (open->at != at || open->candidate != ci)) return false;
    // As phase two does: invalid UTF-8 becomes U+FFFD (two keys that become one are
    // refused there), then text values are typed. (A candidate cut inside its text, which
    // follow_text may take after this, has a problem: it returned above, unchanged.)
    std::string merged_key;
    if (!read.arguments_valid_utf8) detail::make_valid_utf8(read.arguments, &merged_key);
    if (!merged_key.empty()) return false;
    if (read.arguments_are_text && !detail::type_text_arguments(read, schema, s.limits.max_depth)) return false;
    const Candidate& c = read;
    // Arguments under a wrapper key are unwrapped or refused by the judge, as a whole.
    if (detail::wrapper_key(c.arguments, schema)) return false;
    if (!open) {
        open = Open{.at = at, .id = ids.next(c.id), .name = name, .candidate = ci, .candidate_begin = c.begin};
        events.push_back(call_event(StreamEvent::Kind::call_begin, open->id, open->name));
    }
    // What to send: the arguments JSON up to (not including) the last member, written
    // member by member as a dump of the whole object would write it; or through the last
    // member's string, less its closing quote and the object's closer, written past what
    // was sent only (the string may be most of the output).
    std::string more;
    if (through_string) {
        if (!c.arguments.back().is_string()) return false;
        std::optional<std::string> rest = past_sent(c.arguments);
        if (!rest || rest->size() < 2) return false;
        rest->resize(rest->size() - 2);  // `"}`
        more = std::move(*rest);
    } else {
        std::string prefix = "{";
        std::size_t k = 0;
        for (auto it = c.arguments.begin(); it != c.arguments.end() && k + 1 < c.arguments.size(); ++it, ++k) {
            if (k > 0) prefix += ',';
            prefix += detail::arguments_text(json(it.key()));
            prefix += ':';
            prefix += detail::arguments_text(it.value());
        }
        if (prefix.size() > open->sent.size() && open->sent.starts(prefix)) more = prefix.substr(open->sent.size());
    }
    if (!more.empty()) {
        StreamEvent d = call_event(StreamEvent::Kind::call_arguments, open->id, open->name);
        open->sent.append(more);
        d.text = std::move(more);
        events.push_back(std::move(d));
    }
    return true;
}

std::optional<std::string> StreamParser::Impl::past_sent(const json& arguments) const {
    if (const Open::Split* split = open->current_split()) {
        std::optional<std::string> rest = detail::compact_json_past_split(arguments, split->head, split->body);
        if (rest) return rest;
    }
    return detail::compact_json_past(arguments, open->sent);
}

// provisional(…, through_string) left `sent` as the compact JSON of read's arguments
// less the last string's closing quote and the object's closer: compact_json_head, then
// the string's body as written, which is its decoded text escaped.
void StreamParser::Impl::split_sent(const Candidate& read) {
    open->split.reset();
    const std::optional<std::string> head = detail::compact_json_head(read.arguments);
    if (!head) return;
    Open::Split split;
    split.head.append(*head);
    split.body.append(read.arguments.back().get_ref<const std::string&>());
    split.upto = open->sent.size();
    open->split = std::move(split);
}

// ---------------------------------------------------------------------------------------
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
bool StreamParser::Impl::following(std::size_t at) {
    if (!follower.follows(at)) return false;
    if (!open || open->at != at) {
        follower.stop();
        return false;
    }
    std::string decoded;
    const bool more = follower.advance(buf, decoded);
    if (!decoded.empty()) {
        StreamEvent d = call_event(StreamEvent::Kind::call_arguments, open->id, open->name);
        detail::append_json_string_body(d.text, decoded);
        Open::Split* split = open->current_split();
        open->sent.append(d.text);
        if (split) {
            split->body.append(decoded);
            split->upto = open->sent.size();
        }
        events.push_back(std::move(d));
    }
    return more;
}

// Reads the block at `at` as if the string the text ends in closed here. When that
// string is the last argument of the block's first call, announces the call, sends its
// arguments through what has arrived of the string, and follows the string from here.
bool StreamParser::Impl::follow_string(const GrammarDef* g, std::size_t at) {
    if (!settled.empty() || (open && open->at != at) || follower.follows(at)) return false;
    // The string opened at the last quote before the end that no backslash escapes
    // (every quote inside a JSON string is escaped), and a value's string (after a
    // ':' or '='); only then is the block worth reading (below, the read must agree).
    // Searched back only to the block's start (or the last followed string's end):
    // the text before it may be megabytes. (A section is read past its calls judged ahead.)
    const std::size_t from = read_from(at);
    const std::size_t floor = std::max(from, follower.string_end());
    const std::string_view block(buf.data() + floor, buf.size() - floor);
    std::size_t quote = buf.size();
    for (;;) {
        const std::size_t q = quote == floor ? npos : block.rfind('"', quote - 1 - floor);
        if (q == npos || q == 0) return false;
        quote = floor + q;
        std::size_t backslashes = 0;
        while (quote - backslashes > from && buf[quote - backslashes - 1] == '\\') ++backslashes;
        if (backslashes % 2 == 0) break;
    }
    std::size_t before = quote;
    while (before > from && is_blank(buf[before - 1])) --before;
    if (before == from || !detail::streaming::ArgumentFollower::opens_value(buf[before - 1])) return false;
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
        b = g->read_at(ctx, from);
    }
    if (!b || b->candidates.empty()) return false;
    Candidate& c = b->candidates.front();
    if (!c.problem.empty() || c.arguments_are_text || !c.arguments.is_object() || c.arguments.empty() ||
        !c.arguments.back().is_string())
        return false;
    // Decoded from its opening quote, the string must be the very value the read found.
    std::string decoded;
    const detail::StringPrefix sp = detail::decode_string_prefix(buf, quote + 1, decoded);
    if (sp.stop != detail::StringPrefix::Stop::more || sp.end != buf.size() ||
        decoded != c.arguments.back().get_ref<const std::string&>())
        return false;
    if (!provisional(at, c, true)) return false;
    split_sent(c);
    follower.follow_string(at, buf.size());
    return true;
}

// A read of the block at `at` found its first call cut inside a parameter's text (a
// markup family): when the tool's schema makes that text a string as written, announce
// the call, send its arguments through what is decided of the text, and follow it.
bool StreamParser::Impl::follow_text(Block& b, std::size_t at) {
    if (!settled.empty() || (open && open->at != at) || follower.follows(at) || b.candidates.empty()) return false;
    const Candidate& first = b.candidates.front();
    if (!first.cut_text || !first.arguments_are_text || first.text_is_quoted) return false;
    Candidate c = std::move(b.candidates.front());  // the block is not read again
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
    const detail::TextLayout layout{cut.newline_each_side, cut.strip_blanks};
    bool at_start = true;  // the text's leading layout is not known yet
    std::string decoded;
    const detail::StringPrefix sp = detail::decode_text_prefix(buf, cut.begin, layout, at_start, decoded);
    c.problem.clear();
    c.cut = false;
    c.cut_text.reset();
    detail::set_argument(c, cut.key, std::move(decoded));
    if (!provisional(at, c, true)) return false;
    if (sp.stop != detail::StringPrefix::Stop::more) return true;  // announced; nothing more to follow
    split_sent(c);
    follower.follow_text(at, sp.end, layout, at_start);
    return true;
}

}  // namespace toolgram
