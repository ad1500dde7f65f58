// The combinator: runs a profile's grammars over the output and judges what they found.
//
// Data flows one way. Phase one (extract) scans for the primary grammars' markers and
// lets each grammar read a block there; only if no primary syntax appears at all do the
// fallback grammars get a turn. No candidate is a call yet. Phase two (validate) takes
// each candidate through the same checks in the same order: limits, extraction problems,
// example and reasoning guards, fallback gates, name resolution, argument decoding and
// typing, schema validation; only a candidate that passes all of them becomes a call
// (fail closed). Every decision is written to telemetry, so nothing is dropped silently.
//
// Scanning is linear: the scanner jumps between marker bytes, a block is read once, and
// scanning resumes after it; closers are found through the scan context's cache.
#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <stdexcept>

#include "combinator/argument_repairs.hpp"
#include "readers/block_reader.hpp"
#include "combinator/parser_impl.hpp"
#include "readers/rule_coverage.hpp"
#include "text/utf8.hpp"
#include "value/value_reader.hpp"

namespace toolgram::detail {
std::size_t index_from_bytes = 1024;
}  // namespace toolgram::detail

namespace toolgram {

using detail::ScanContext;
using detail::text_without;
using detail::type_text_arguments;

namespace {

// A parse's blocks. A deque, not a vector: an output of back-to-back calls holds a block
// per call, and a vector growing by doubling would hold its old and new arrays at once
// (1.5 times the blocks, on a 16 MiB output of tiny calls).
using Blocks = std::deque<Block>;

// The input in [begin, end) as a rejection quotes it: at most Rejection::max_text_bytes,
// cut where a character begins (toolgram.hpp).
std::string rejected_text(std::string_view text, std::size_t begin, std::size_t end) {
    begin = std::min(begin, text.size());
    end = std::max(begin, std::min(end, text.size()));
    std::size_t cut = end;
    if (cut - begin > Rejection::max_text_bytes) {
        cut = begin + Rejection::max_text_bytes;
        while (cut > begin && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    }
    return std::string(text.substr(begin, cut - begin));
}

// ---------------------------------------------------------------------------------------
// Phase one: scanning.

// A block that starts before max_input_bytes is read whole (cutting it there would make a
// complete call look cut, or heal it short), but no call is taken that starts past the
// limit: a run of calls in one block (Functionary v3.2's messages) ends there, and the
// rest is content like any text past the limit.
void clip_to_limit(Block& b, std::size_t limit) {
    auto past = std::find_if(b.candidates.begin(), b.candidates.end(), [&](const Candidate& c) { return c.begin >= limit; });
    if (past == b.candidates.end()) return;
    b.end = std::max(b.begin, std::min(b.end, past->begin));
    b.candidates.erase(past, b.candidates.end());
    if (b.has_framing()) {
        auto& content = b.framing().content;
        std::erase_if(content, [&](const auto& span) { return span.first >= b.end; });
        for (auto& span : content) span.second = std::min(span.second, b.end);
    }
}

// Keeps the first max_candidates candidates of a scan; those past it are counted, not kept.
void drop_past_candidate_limit(Block& b, std::size_t& kept, std::size_t max_candidates) {
    detail::keep_first_candidates(b, max_candidates > kept ? max_candidates - kept : 0);
    kept += b.candidates.size();
}

// Finds blocks of the given grammars: marker scan first, then whole-output readers.
// `markers` are the role's markers in scan order (Parser::Impl::role_markers).
Blocks scan(ScanContext& ctx, const std::vector<std::pair<const GrammarDef*, Role>>& grammars, Role role,
                        const std::vector<detail::MarkerUse>& markers, const detail::MarkerPairs& pairs, std::size_t limit,
                        std::size_t answer_begin, std::size_t answer_end,
                        std::pair<std::size_t, std::size_t> intent = {std::string_view::npos, std::string_view::npos}) {
    const auto [intent_at, after_intent] = intent;  // an intent marker in the answer, and where what follows it begins
    const std::string_view text = ctx.text();
    std::vector<std::size_t> tries;
    Blocks blocks;
    std::size_t kept = 0;  // candidates kept so far (drop_past_candidate_limit)
    const std::size_t max_candidates = ctx.settings().limits.max_candidates;
    const detail::MarkerIndex* index = ctx.index();
    std::size_t pos = 0;
    while (pos < limit && !markers.empty()) {
        // Fast skip over prose: only positions where some marker may start are looked at
        // (the marker index has every position where one of the parse's needles starts).
        if (index) {
            pos = index->next(pos);
            if (pos >= limit) break;  // npos too
            if (!pairs.may_start(text[pos])) {
                ++pos;
                continue;
            }
        }
        while (pos < limit && !pairs.may_start(text[pos])) ++pos;
        if (pos >= limit) break;
        pairs.candidates(text, pos, tries);  // the markers that can start here, in scan order
        bool advanced = false;
        for (std::size_t i : tries) {
            const std::string& marker = markers[i].text;
            if (text.compare(pos, marker.size(), marker) != 0) continue;
            detail::coverage_read_begin(markers[i].grammar->name);  // a no-op outside `toolgram coverage`
            std::optional<Block> b = markers[i].read(ctx, pos);
            detail::coverage_read_end(b);
            if (!b) continue;
            clip_to_limit(*b, limit);
            drop_past_candidate_limit(*b, kept, max_candidates);
            for (auto& c : b->candidates) c.role = role;
            b->role = role;
            const std::size_t next = std::max(b->end, pos + 1);
            blocks.push_back(std::move(*b));
            pos = next;
            advanced = true;
            break;
        }
        if (!advanced) ++pos;
    }
    // Whole-output readers read the answer; after an intent marker (`CALL_TOOL\n{…}`), what
    // follows it first: the marker states the intent, it is not part of the call's syntax.
    // The answer from its start is read only when the marker does not begin it.
    auto read_whole = [&](std::size_t begin) {
        for (const auto& [g, r] : grammars) {
            if (r != role || !g->read_whole) continue;
            detail::coverage_read_begin(g->name);
            std::optional<Block> b = g->read_whole(ctx, begin, answer_end);
            detail::coverage_read_end(b);
            if (!b) continue;
            drop_past_candidate_limit(*b, kept, max_candidates);
            for (auto& c : b->candidates) c.role = role;
            b->role = role;
            blocks.push_back(std::move(*b));
            return;
        }
    };
    if (blocks.empty() && after_intent < answer_end) read_whole(after_intent);
    if (blocks.empty() && answer_begin < answer_end && intent_at != answer_begin)
        read_whole(answer_begin);
    return blocks;
}

// ---------------------------------------------------------------------------------------
// Phase two helpers.

// Whether a refusal is a fault the model can mend by writing its call again, which the
// correction prompt asks it to: its syntax, its name, its arguments. Gates and guards
// (intent, examples, reasoning, a fallback's size or tool list) and an unusable schema are
// not. Every code is listed, so a new one must be placed.
bool is_format_fault(RejectionCode code) {
    switch (code) {
        case RejectionCode::too_large:
        case RejectionCode::malformed:
        case RejectionCode::unfinished:
        case RejectionCode::repeated_key:
        case RejectionCode::fallback_not_single:
        case RejectionCode::healed:
        case RejectionCode::no_tools:
        case RejectionCode::unknown_tool:
        case RejectionCode::ambiguous_tool:
        case RejectionCode::empty_name:
        case RejectionCode::bad_arguments:
        case RejectionCode::wrapped_arguments:
        case RejectionCode::ambiguous_number:
        case RejectionCode::too_deep:
        case RejectionCode::schema_mismatch: return true;
        case RejectionCode::none:
        case RejectionCode::no_intent:
        case RejectionCode::echo:
        case RejectionCode::example:
        case RejectionCode::in_reasoning:
        case RejectionCode::fallback_too_large:
        case RejectionCode::fallback_no_tools:
        case RejectionCode::unusable_schema:
        case RejectionCode::input_limit:
        case RejectionCode::candidate_limit:
        case RejectionCode::not_a_call:
        case RejectionCode::changed:
        case RejectionCode::incomplete: return false;
    }
    return false;
}

std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++col;  // columns count characters: UTF-8 continuation bytes do not start one
        }
    }
    return {line, col};
}

}  // namespace

// -------------------------------------------------------------------------------------------
// The two phases.

// Phase two for one candidate: every check in a fixed order; the first that fails is the
// candidate's reason. Arguments are decoded and typed in place.
Parser::Impl::Judgement Parser::Impl::judge(Candidate& c, bool intent_shown, std::size_t fallback_count) const {
    const Settings& settings = profile.settings;
    const Limits& limits = settings.limits;
    CandidateReport rep;
    rep.grammar = c.grammar;
    rep.role = c.role;
    rep.begin = c.begin;
    rep.end = c.end;
    rep.raw_name = c.name;
    rep.healed = c.healed;
    std::string reason;
    RejectionCode code = RejectionCode::none;
    const auto refuse = [&](RejectionCode why, std::string text) {
        code = why;
        reason = std::move(text);
    };
    int tool_index = -1;

    if (c.role == Role::fallback && !intent_shown && !c.in_example && !c.in_reasoning) {
        // Checked before the candidate's own problems: without intent, broken
        // JSON in an answer is just broken JSON, not a failed tool call.
        refuse(RejectionCode::no_intent,
               "fallback gate: no intent shown (no intent marker, and no tool call was required)");
    } else if (!c.echo.empty()) {
        // Not a call the model failed to write: one it repeated from the history.
        refuse(RejectionCode::echo, c.echo);
    } else if (c.end - c.begin > limits.max_candidate_bytes) {
        refuse(RejectionCode::too_large, "candidate of " + std::to_string(c.end - c.begin) +
                                             " bytes exceeds the limit of " + std::to_string(limits.max_candidate_bytes));
    } else if (!c.problem.empty()) {
        refuse(c.problem_too_deep ? RejectionCode::too_deep : RejectionCode::malformed, c.problem);
    } else if (!c.unfinished.empty()) {
        refuse(RejectionCode::unfinished, c.unfinished);
    } else if (c.repairs & detail::repair_duplicate_key) {
        // JSON readers disagree on which of two values wins, so a downstream reader
        // could see a different call than the one validated here: refused.
        refuse(RejectionCode::repeated_key, "the call repeats a key; which value counts is ambiguous");
    } else if (c.in_example) {
        refuse(RejectionCode::example, "shown as an example, not a call");
    } else if (c.in_reasoning && !settings.accept_calls_in_reasoning) {
        refuse(RejectionCode::in_reasoning, "written inside reasoning (accept_calls_in_reasoning is off)");
    } else if (c.role == Role::fallback && c.end - c.begin > settings.fallback_max_bytes) {
        refuse(RejectionCode::fallback_too_large, "fallback gate: candidate of " + std::to_string(c.end - c.begin) +
                                                      " bytes exceeds " + std::to_string(settings.fallback_max_bytes));
    } else if (c.role == Role::fallback && !tool_list) {
        refuse(RejectionCode::fallback_no_tools, "fallback gate: no tool list to check the name against");
    } else if (c.role == Role::fallback && fallback_count != 1) {
        refuse(RejectionCode::fallback_not_single,
               "fallback gate: " + std::to_string(fallback_count) + " fallback candidates found, exactly one is allowed");
    } else if (c.healed && !settings.accept_healed_calls) {
        refuse(RejectionCode::healed,
               "the output was cut off and the call healed (its closers supplied); accept_healed_calls is off");
    }

    if (reason.empty()) {
        if (tool_list && toolset.empty()) {
            // Declared, and empty: the caller allows no call at all. Fail closed.
            refuse(RejectionCode::no_tools, "no tool may be called: the tool list is empty");
        } else if (tool_list) {
            const auto res = toolset.resolve(c.name, c.qualified_name);
            if (res.index < 0) {
                refuse(res.code, res.error);
            } else {
                tool_index = res.index;
                rep.name = toolset.tool(res.index).name;
                if (res.how != "exact") c.notes.push_back("name_" + res.how);
            }
        } else if (c.name.empty()) {
            refuse(RejectionCode::empty_name, "empty tool name");
        } else {
            rep.name = detail::to_valid_utf8(c.name);  // no allow-list: the name as written, printable
        }
    }
    if (reason.empty()) {
        std::string problem;
        if (!decode_arguments(c, limits.max_depth, problem) ||
            !place_keys_beside(c, tool_index >= 0 ? &toolset.schema(tool_index) : nullptr, rep.name, problem)) {
            refuse(RejectionCode::bad_arguments, problem);
        } else {
            // Bytes that are not UTF-8 (a cut character, Latin-1) cannot be handed on as
            // JSON; like a lone surrogate, each becomes U+FFFD before the schema sees it.
            // Two keys that differ only there become one: a repeated key, refused as such.
            std::string merged_key;
            if (!c.arguments_valid_utf8 && detail::make_valid_utf8(c.arguments, &merged_key))
                c.notes.push_back("invalid_utf8_replaced");
            if (!merged_key.empty()) {
                refuse(RejectionCode::repeated_key, "the call repeats the key \"" + detail::excerpt(merged_key) +
                                                        "\" once invalid UTF-8 is replaced; which value counts is ambiguous");
            }
        }
    }
    if (reason.empty() && c.arguments_are_text &&
        !type_text_arguments(c, tool_index >= 0 ? &toolset.schema(tool_index) : nullptr, limits.max_depth)) {
        refuse(RejectionCode::too_deep,
               "nesting deeper than the limit of " + std::to_string(limits.max_depth) + " levels");
    }
    if (reason.empty() && tool_index >= 0 && !toolset.usable(tool_index)) {
        // Not the model's fault: no correction prompt would help (is_format_fault).
        rep.schema = SchemaVerdict::fail;
        // The problem is told once per call, in the refusal's reason (and once per tool by
        // Parser::tool_problems); the verdict only names it, or a call would carry it four
        // times over (reason, schema_reason, and their copies in the JSON's telemetry).
        rep.schema_reason = "the tool's schema cannot be used (see the refusal's reason)";
        refuse(RejectionCode::unusable_schema, "the schema of " + detail::excerpt(rep.name) +
                                                   " cannot be used, so its calls are refused: " +
                                                   toolset.schema_error(tool_index));
    }
    if (reason.empty()) unwrap_arguments(c, toolset, tool_index, rep.name, limits.max_depth, reason, code);
    if (reason.empty() && (c.repairs & detail::repair_leading_zeros) &&
        !settle_ambiguous_numbers(c, toolset, tool_index, reason))
        code = RejectionCode::ambiguous_number;
    if (reason.empty()) {
        if (tool_index >= 0) {
            const auto verdict = toolset.validate(tool_index, c.arguments, c.role == Role::fallback);
            rep.schema = verdict.pass ? SchemaVerdict::pass : SchemaVerdict::fail;
            rep.schema_reason = verdict.reason;
            if (!verdict.pass)
                refuse(RejectionCode::schema_mismatch,
                       "arguments fail the schema of " + detail::excerpt(rep.name) + ": " + verdict.reason);
        } else {
            rep.schema_reason = "no tools given";
        }
    }

    detail::append_repair_names(c.repairs, rep.repairs);
    for (const auto& n : c.notes)
        if (std::find(rep.repairs.begin(), rep.repairs.end(), n) == rep.repairs.end()) rep.repairs.push_back(n);
    if (c.healed && std::find(rep.repairs.begin(), rep.repairs.end(), "healed_truncation") == rep.repairs.end())
        rep.repairs.push_back("healed_truncation");

    rep.accepted = reason.empty();
    rep.code = code;
    rep.reason = reason;
    return {std::move(rep), is_format_fault(code)};
}

// -------------------------------------------------------------------------------------------
// The parse, as named stages. Each takes what the earlier ones found and adds its own; none
// looks back into the text for what an earlier stage decided.

namespace {

using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

// Where things stand in the output before any grammar runs: how far calls are scanned,
// the reasoning blocks and fences, the answer (the output after leading reasoning,
// trimmed: what whole-output grammars read), and the intent marker.
struct Frame {
    std::size_t limit = 0;
    std::vector<detail::Region> reasoning;
    std::vector<detail::Region> fences;
    std::size_t answer_begin = 0, answer_end = 0;
    bool tool_required = false;
    std::size_t intent_at = std::string_view::npos;  // the first intent marker (0 when a call is required)
    // An intent marker in the answer, and where what follows it begins (`CALL_TOOL\n{…}`).
    std::pair<std::size_t, std::size_t> intent{std::string_view::npos, std::string_view::npos};
    // Intent counts when it is shown before the candidate: a model states it, then calls.
    // (Read this way, a stream can decide a candidate without waiting for the end.)
    bool intent_before(std::size_t pos) const { return tool_required || intent_at < pos; }
};

Frame frame_output(ScanContext& ctx, const Settings& settings, Result& result) {
    const std::string_view text = ctx.text();
    Frame f;
    f.limit = std::min(text.size(), settings.limits.max_input_bytes);
    if (f.limit < text.size()) {
        result.telemetry.rejected.push_back(
            {"", "", "input of " + std::to_string(text.size()) + " bytes exceeds the limit of " +
                         std::to_string(settings.limits.max_input_bytes) + "; the rest was not scanned for calls",
             f.limit, text.size(), rejected_text(text, f.limit, text.size()), RejectionCode::input_limit});
    }
    f.reasoning = detail::find_reasoning(ctx, f.limit);
    f.fences = detail::find_fences(ctx, f.limit);

    for (const auto& r : f.reasoning) {
        const std::string_view before =
            text.substr(f.answer_begin, r.outer_begin - std::min(r.outer_begin, f.answer_begin));
        if (r.outer_begin >= f.answer_begin && before.find_first_not_of(" \t\r\n") == std::string_view::npos)
            f.answer_begin = r.outer_end;
    }
    f.answer_end = f.limit;
    while (f.answer_begin < f.answer_end && std::isspace(static_cast<unsigned char>(text[f.answer_begin]))) ++f.answer_begin;
    while (f.answer_end > f.answer_begin && std::isspace(static_cast<unsigned char>(text[f.answer_end - 1]))) --f.answer_end;

    std::size_t marker_at = std::string_view::npos, marker_end = 0;
    for (const auto& m : settings.intent_markers) {
        const std::size_t at = ctx.find_ci(m, f.limit);
        if (at < marker_at || (at == marker_at && at + m.size() > marker_end)) marker_at = at, marker_end = at + m.size();
    }
    f.tool_required = settings.tool_required;
    f.intent_at = settings.tool_required ? 0 : marker_at;
    // What follows an intent marker in the answer (`CALL_TOOL\n{…}`, `need_tool: yes\n[…]`),
    // past blanks and a colon: where whole-output fallbacks read first.
    if (marker_at != std::string_view::npos && marker_at >= f.answer_begin && marker_at < marker_end &&
        marker_end < f.answer_end) {
        std::size_t after = marker_end;
        auto skip_blanks = [&] {
            while (after < f.answer_end && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
        };
        skip_blanks();
        if (after < f.answer_end && text[after] == ':') ++after, skip_blanks();
        f.intent = {marker_at, after};
    }
    return f;
}

// A reasoning delimiter written inside a call that was read whole (`{"q": "what is
// <think>?"}`) is the call's text: reasoning is found again with such blocks masked,
// or the call would be cut in two, its tail read as reasoning and the calls after it
// as drafts. A block qualifies when it holds a call read without a problem (its
// syntax parsed; a sibling may still be refused); a block that broke off may have
// been ended by a real delimiter and is not masked. A fallback block (a guess in prose)
// masks only where its gate may open, after intent: a stream holds the text from the
// intent on anyway, and needs no wait for fallbacks before it.
void mask_calls_in_reasoning(ScanContext& ctx, Frame& f, const Blocks& blocks) {
    if (f.reasoning.empty()) return;  // no reasoning to find again: no list of every block's span
    detail::Masked calls_text;
    for (const auto& b : blocks) {
        if ((b.role == Role::primary || f.intent_before(b.begin)) &&
            (b.dropped_clean ||
             std::any_of(b.candidates.begin(), b.candidates.end(), [](const Candidate& c) { return c.problem.empty(); })))
            calls_text.emplace_back(b.begin, b.end);
    }
    if (calls_text.empty()) return;
    // Disjoint for find_reasoning's binary search: a block read from before its marker
    // (a headless Functionary message) may overlap an earlier one.
    std::sort(calls_text.begin(), calls_text.end());
    detail::Masked merged;
    merged.reserve(calls_text.size());
    for (const auto& span : calls_text) {
        if (!merged.empty() && span.first < merged.back().second)
            merged.back().second = std::max(merged.back().second, span.second);
        else
            merged.push_back(span);
    }
    // Masking only removes delimiters, so the regions found again differ from those found
    // already only if a delimiter they were drawn from lies strictly inside a masked span:
    // each region's opener (at outer_begin; 0 for one the prompt opened) and, when it
    // closed, its closer (at inner_end). Every other delimiter found lost to an earlier one,
    // and a later one would lose too. So reasoning is found once unless a call holds one.
    auto masked_at = [&](std::size_t at) {
        return detail::span_holding(merged.begin(), merged.end(), at) != merged.end();
    };
    if (std::none_of(f.reasoning.begin(), f.reasoning.end(), [&](const detail::Region& r) {
            return masked_at(r.outer_begin) || (r.closed && masked_at(r.inner_end));
        }))
        return;
    f.reasoning = detail::find_reasoning(ctx, f.limit, merged);
}

// Reasoning that never closes ends where the first call begins, for families that
// write calls straight after reasoning (settings.reasoning_ends_at_call), provided
// nothing but calls (primary syntax) follows: a draft call with more thinking after
// it, in reasoning cut off by max_tokens, stays a call inside reasoning.
void end_reasoning_at_calls(std::string_view text, Frame& f, const Blocks& blocks) {
    auto blank = [&](std::size_t from, std::size_t to) {
        return from >= to || text.substr(from, to - from).find_first_not_of(" \t\r\n") == std::string_view::npos;
    };
    for (auto& r : f.reasoning) {
        if (r.closed) continue;
        std::optional<std::size_t> first;
        std::size_t pos = 0;
        bool only_calls = true;
        for (const auto& b : blocks) {
            // Only marker syntax ends reasoning: a fallback block is a guess in prose.
            if (b.role != Role::primary) break;
            if (b.begin < r.inner_begin || b.begin >= r.outer_end) continue;
            if (!first) first = pos = b.begin;
            if (!blank(pos, b.begin)) {
                only_calls = false;
                break;
            }
            pos = std::max(pos, b.end);
        }
        if (first && only_calls && blank(pos, r.outer_end)) r.inner_end = r.outer_end = *first;
    }
}

// The spans to remove for blocks whose fence only wraps them (the fence with the block),
// by block index, ascending; every other block's span is its own.
using WrappedSpans = std::vector<std::pair<std::size_t, std::pair<std::size_t, std::size_t>>>;

// Guards that depend on where a block stands (inside reasoning, shown as an example),
// and fences that only wrap syntax. Returns the spans of the blocks fences wrap.
// `uses`: the scan's markers, where prose after a fence gives way to tool syntax
// (detail::disowned_after_fence); their texts are gathered only when a block stands in a
// fence, not on every parse.
WrappedSpans place_blocks(std::string_view text, const Frame& f, const std::vector<detail::MarkerUse>& uses,
                          Blocks& blocks) {
    WrappedSpans wrapped;  // few: a span a block was the most held at a call-dense parse's peak
    std::vector<std::string> markers;
    bool markers_taken = false;
    std::size_t block_before_end = 0;  // no text of a block introduces the next
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
        Block& b = blocks[bi];
        const detail::Region* in_reasoning = detail::region_at(f.reasoning, b.begin);
        bool example =
            !in_reasoning && detail::introduced_as_example(text, b.begin, f.fences, std::min(block_before_end, b.begin));
        // A fenced call the paragraph after its fence disowns ("not a real call") is an
        // example too.
        if (const detail::Region* fence = detail::region_at(f.fences, b.begin); !in_reasoning && !example && fence) {
            if (!markers_taken)
                for (const auto& m : uses) markers.push_back(m.text);
            markers_taken = true;
            example = *detail::disowned_after_fence(text, *fence, markers, true);
        }
        block_before_end = std::max(block_before_end, b.end);
        b.in_reasoning = in_reasoning != nullptr;
        b.in_example = example;
        for (auto& c : b.candidates) {
            c.in_reasoning = b.in_reasoning;
            c.in_example = example;
        }
        if (const detail::Region* fence = detail::region_at(f.fences, b.begin);
            fence && !example && detail::fence_only_wraps(text, *fence, b.begin, b.end)) {
            wrapped.push_back({bi, {fence->outer_begin, std::max(fence->outer_end, b.end)}});
            for (auto& c : b.candidates) c.notes.push_back("tags_inside_fence");
        }
    }
    return wrapped;
}

// What phase two decided, for the stages that write the result.
struct Verdicts {
    Spans removed_content, removed_reasoning;
    std::size_t seen = 0;                      // candidates met, the dropped ones counted too
    std::optional<std::size_t> first_failure;  // index into telemetry.candidates
    std::size_t first_failure_offset = 0;
    std::vector<std::pair<Call, std::size_t>> accepted;               // call, candidate report index
    std::vector<std::pair<std::size_t, const std::string*>> answers;  // where a block's answer stands in content
};

// Fallback candidates that count against the "exactly one" gate. An echoed history record
// is not a call the model is making: it does not count.
std::size_t count_fallbacks(const Blocks& blocks) {
    std::size_t fallback_count = 0;
    for (const auto& b : blocks) {
        for (const auto& c : b.candidates)
            if (c.role == Role::fallback && !c.in_example && !c.in_reasoning && c.echo.empty()) ++fallback_count;
        if (b.role == Role::fallback && !b.in_example && !b.in_reasoning) fallback_count += b.dropped();
    }
    return fallback_count;
}

// Every candidate judged once (`judge` is Parser::Impl::judge), reported in telemetry, and
// the text of each block that is tool syntax marked for removal.
template <typename Judge>
Verdicts judge_blocks(const Judge& judge, std::string_view text, Blocks& blocks, const WrappedSpans& wrapped,
                      const Frame& f, Telemetry& tm) {
    Verdicts v;
    v.removed_content.reserve(blocks.size());  // most blocks remove one span, each from the content
    const std::size_t fallback_count = count_fallbacks(blocks);
    detail::IdAssigner ids;
    // Every candidate gets a report and may make a call: room for all of them at once, so a
    // call-dense output does not copy its reports and calls each time the vectors grow
    // (a report is ~250 bytes; the growth was a tenth of a dense parse).
    std::size_t total = 0;
    for (const auto& block : blocks) total += block.candidates.size();
    tm.candidates.reserve(tm.candidates.size() + total);
    v.accepted.reserve(total);
    std::size_t next_wrapped = 0;
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
        auto& block = blocks[bi];
        std::pair<std::size_t, std::size_t> span{block.begin, block.end};
        if (next_wrapped < wrapped.size() && wrapped[next_wrapped].first == bi) span = wrapped[next_wrapped++].second;
        bool block_has_call = false;
        bool block_is_syntax = false;
        // Past the limit nothing is judged or reported one by one (that would let hostile
        // input cost a report per candidate): the scan kept only the first max_candidates,
        // the syntax of the rest still leaves the content, and one rejection says how many
        // were skipped (summarise).
        for (auto& c : block.candidates) {
            ++v.seen;
            auto judged = judge(c, f.intent_before(c.begin), fallback_count);
            CandidateReport& rep = judged.report;
            if (rep.accepted) {
                Call call;
                call.name = rep.name;
                call.arguments = std::move(c.arguments);  // the candidate is not read again
                call.id = ids.take(c.id);
                call.healed = rep.healed;
                v.accepted.emplace_back(std::move(call), tm.candidates.size());
                block_has_call = true;
            } else {
                tm.rejected.push_back(
                    {detail::excerpt(c.name), c.grammar, rep.reason, c.begin, c.end, rejected_text(text, c.begin, c.end),
                     rep.code});
                if (judged.format_fault && !v.first_failure) {
                    v.first_failure = tm.candidates.size();
                    v.first_failure_offset = c.problem.empty() ? c.begin : c.problem_offset;
                }
            }
            // Primary syntax is tool syntax whatever became of it; a fallback candidate
            // that was not accepted was probably prose and stays in the content.
            if (c.role == Role::primary && !c.in_example) block_is_syntax = true;
            tm.candidates.push_back(std::move(rep));
        }
        // Candidates dropped while scanning were past the limit: counted, never judged.
        v.seen += block.dropped();
        if (block.dropped() > 0 && block.role == Role::primary && !block.in_example) block_is_syntax = true;
        const bool no_candidate = block.candidates.empty() && block.dropped() == 0;
        // A block with no candidate at all is syntax that holds no call (`<TOOLCALL>[]</TOOLCALL>`):
        // readers decline what is not theirs, so what they return is tool syntax.
        // Fallback syntax is a guess in prose: without an accepted call it stays content.
        const bool fallback_block = !block.candidates.empty() ? block.candidates.front().role == Role::fallback
                                                               : block.role == Role::fallback;
        if (block_has_call || (!fallback_block && (block_is_syntax || !block.content().empty() || no_candidate))) {
            if (block.answer() && !block.in_reasoning) v.answers.emplace_back(span.first, &*block.answer());
            // The block's span, less the content it frames.
            if (!block.in_reasoning || block_has_call) {
                auto& target = block.in_reasoning ? v.removed_reasoning : v.removed_content;
                std::size_t from = span.first;
                for (const auto& [b, e] : block.content()) {
                    if (b > from) target.emplace_back(from, b);
                    from = std::max(from, e);
                }
                if (from < span.second) target.emplace_back(from, span.second);
            }
        }
    }
    return v;
}

// The telemetry's summary fields, and the accepted calls into the result.
void summarise(std::string_view text, const Blocks& blocks, const Limits& limits, Verdicts& v,
               Result& result) {
    Telemetry& tm = result.telemetry;
    tm.candidate_count = v.seen;
    if (v.seen > limits.max_candidates) {
        // Where the candidates not judged stand: the blocks that held them (their own
        // spans were not kept, by design).
        std::size_t begin = text.size(), end = 0;
        for (const auto& b : blocks)
            if (b.dropped() > 0) begin = std::min(begin, b.begin), end = std::max(end, b.end);
        if (begin > end) begin = end = 0;
        end = std::min(end, text.size());
        tm.rejected.push_back({"", "", "candidate limit of " + std::to_string(limits.max_candidates) + " reached: " +
                                           std::to_string(v.seen - limits.max_candidates) + " more candidates not judged",
                               begin, end, rejected_text(text, begin, end), RejectionCode::candidate_limit});
    }
    // A block that only frames content (no candidate) is message layout, not tool syntax.
    tm.saw_tool_syntax = std::any_of(blocks.begin(), blocks.end(), [](const Block& b) {
        return !b.candidates.empty() || b.dropped() > 0 || (b.content().empty() && !b.answer());
    });
    result.calls.reserve(v.accepted.size());
    for (auto& [call, ri] : v.accepted) {
        const CandidateReport& rep = tm.candidates[ri];
        if (tm.grammar.empty()) tm.grammar = rep.grammar;
        if (rep.role == Role::fallback) tm.fallback_used = true;
        tm.healed = tm.healed || rep.healed;
        for (const auto& r : rep.repairs)
            if (std::find(tm.repairs.begin(), tm.repairs.end(), r) == tm.repairs.end()) tm.repairs.push_back(r);
        result.calls.push_back(std::move(call));
    }
    if (!result.calls.empty()) tm.parse_mode = tm.fallback_used ? ParseMode::fallback : ParseMode::primary;
    if (tm.grammar.empty() && !tm.candidates.empty()) tm.grammar = tm.candidates.front().grammar;
}

// Content and reasoning. Kept in content (ReasoningFormat::in_content), a reasoning
// block is the model's text as written: only the calls accepted in it leave, and the
// tokens that frame an answer stay where they stand inside it (gpt-oss's `<|end|>`
// closes its analysis channel).
// With `owned` (the text's own buffer), the content is assembled over the text, after the
// reasoning was taken from it: nothing reads the text after this.
void assemble_text(ScanContext& ctx, const Settings& settings, const Frame& f, Verdicts& v, Result& result,
                   std::string* owned) {
    const std::string_view text = ctx.text();
    const bool reasoning_in_content = settings.reasoning_format == ReasoningFormat::in_content;
    Spans removed = std::move(v.removed_content);  // not read again: a span a block, not copied
    if (reasoning_in_content) removed.insert(removed.end(), v.removed_reasoning.begin(), v.removed_reasoning.end());
    else
        for (const auto& r : f.reasoning) removed.emplace_back(r.outer_begin, r.outer_end);
    for (const auto& marker : settings.content_markers) {
        if (marker.empty()) continue;
        for (std::size_t at = ctx.find(marker, 0); at != std::string_view::npos && at < f.limit;
             at = ctx.find(marker, at + marker.size()))
            if (!reasoning_in_content || !detail::region_at(f.reasoning, at)) removed.emplace_back(at, at + marker.size());
    }
    std::sort(removed.begin(), removed.end());
    if (!reasoning_in_content) {
        std::sort(v.removed_reasoning.begin(), v.removed_reasoning.end());
        for (const auto& r : f.reasoning) {
            std::string part = text_without(text, r.inner_begin, r.inner_end, v.removed_reasoning);
            if (part.empty()) continue;
            if (!result.reasoning.empty()) result.reasoning += "\n\n";
            result.reasoning += part;
        }
    }
    // An answer may be longer than the block it stands for (a response object pretty-printed):
    // only content without one is written over the text.
    if (v.answers.empty() && owned) {
        detail::text_without_in_place(*owned, removed);
        result.content = std::move(*owned);
        // An output of calls keeps little of its text: the result does not keep the room.
        if (result.content.capacity() > 2 * result.content.size() + 4096) result.content.shrink_to_fit();
    } else if (v.answers.empty()) {
        result.content = text_without(text, 0, text.size(), removed);
    } else {
        // A block's answer takes the block's place, joined as any piece of content is: the
        // kept pieces around it keep their whitespace, so the joins keep their breaks.
        std::sort(v.answers.begin(), v.answers.end());
        auto append_kept = [&](std::size_t begin, std::size_t end) {
            std::size_t pos = begin;
            for (const auto& [b, e] : removed) {
                if (e <= pos || b >= end) continue;
                if (b > pos) detail::append_piece(result.content, text.substr(pos, b - pos));
                pos = std::max(pos, e);
            }
            if (pos < end) detail::append_piece(result.content, text.substr(pos, end - pos));
        };
        std::size_t from = 0;
        for (const auto& [at, answer] : v.answers) {
            append_kept(from, at);
            detail::append_piece(result.content, *answer);
            from = at;
        }
        append_kept(from, text.size());
        result.content = detail::trim_copy(result.content);
    }
}

// A format error, with a correction prompt, when tool syntax yielded no call. It teaches
// the profile's first grammar, the syntax the model was asked for; under `auto`, which
// asked for none, the grammar of the first failed call where that is a primary one, the
// syntax the model chose: a DSML call that failed is rewritten in DSML, not in `auto`'s
// first grammar ([TOOL_CALL]). A fallback's call (JSON or a Python call in prose) is a
// guess, refused by its gate more often than for its syntax: the prompt asks for a
// syntax with markers of its own, as before.
void attach_format_error(const GrammarDef& first, bool teach_written, const Settings& settings,
                         const std::vector<Tool>& tools, std::string_view text, const Verdicts& v, Result& result) {
    if (!result.calls.empty() || !v.first_failure) return;
    const CandidateReport& failed = result.telemetry.candidates[*v.first_failure];
    const GrammarDef* taught = &first;
    if (teach_written && failed.role == Role::primary)
        if (const GrammarDef* written = detail::find_grammar(failed.grammar)) taught = written;
    FormatError err;
    err.message = failed.reason;
    err.offset = v.first_failure_offset;
    std::tie(err.line, err.column) = line_column(text, err.offset);
    err.expected = taught->instruction ? taught->instruction(settings) : std::string(taught->summary);
    std::string tools_line;
    for (const auto& t : tools) tools_line += (tools_line.empty() ? "" : ", ") + t.name;
    err.correction_prompt = "Your last message tried to call a tool, but the call could not be used: " + err.message +
                            " (line " + std::to_string(err.line) + ", column " + std::to_string(err.column) + "). " +
                            (tools_line.empty() ? std::string() : "Available tools: " + tools_line + ". ") +
                            "Write the call again, complete, in this format:\n" + err.expected;
    result.error = std::move(err);
}

}  // namespace

Result Parser::Impl::parse(std::string_view text, std::string* owned) const {
    Result result;
    result.telemetry.validated = tool_list;
    const Settings& settings = profile.settings;
    ScanContext ctx(text, settings);
    ctx.use_tools(&toolset);
    // The marker index pays for itself over text to skip; a short output (a sentence and
    // a call) is searched directly, as a stream's text always is, and costs a fifth less.
    std::optional<detail::MarkerIndex> index;
    if (text.size() >= detail::index_from_bytes) {
        index.emplace(marker_set, text);
        ctx.use_index(&*index);
    }

    Frame f = frame_output(ctx, settings, result);

    // Phase one: the primary grammars' blocks; the fallbacks' only where there is none.
    Blocks blocks =
        scan(ctx, grammars, Role::primary, role_markers[0], role_pairs[0], f.limit, f.answer_begin, f.answer_end);
    if (blocks.empty())
        blocks = scan(ctx, grammars, Role::fallback, role_markers[1], role_pairs[1], f.limit, f.answer_begin, f.answer_end,
                      f.intent);
    mask_calls_in_reasoning(ctx, f, blocks);
    if (settings.reasoning_ends_at_call) end_reasoning_at_calls(text, f, blocks);
    // Every marker and delimiter is found: the index (a bit or two per byte) is given back
    // before the blocks are judged, when the most is held.
    ctx.use_index(nullptr);
    index.reset();
    const bool primary = blocks.empty() || blocks.front().role == Role::primary;
    const WrappedSpans wrapped = place_blocks(text, f, role_markers[primary ? 0 : 1], blocks);

    // Phase two, then the result written from its verdicts.
    const auto judge_one = [this](Candidate& c, bool intent_shown, std::size_t fallback_count) {
        return judge(c, intent_shown, fallback_count);
    };
    Verdicts v = judge_blocks(judge_one, text, blocks, wrapped, f, result.telemetry);
    summarise(text, blocks, settings.limits, v, result);
    attach_format_error(*first_grammar, profile.name == "auto", settings, tools, text, v, result);
    assemble_text(ctx, settings, f, v, result, owned);  // last: it may write over the text
    return result;
}

// -------------------------------------------------------------------------------------------

Parser::Parser(Profile profile) : impl_(std::make_unique<Impl>(std::move(profile), std::nullopt)) {}
Parser::Parser(Profile profile, std::vector<Tool> tools)
    : impl_(std::make_unique<Impl>(std::move(profile), std::move(tools))) {}
Parser::~Parser() = default;
Parser::Parser(Parser&&) noexcept = default;
Parser& Parser::operator=(Parser&&) noexcept = default;

Result Parser::parse(std::string&& text) const {
    try {
        return impl_->parse(text, &text);
    } catch (const std::exception& e) {
        // As below. The text is whole still: only the last stage writes over it, and it
        // cannot throw.
        Result r;
        r.content = std::move(text);
        r.error = FormatError{std::string("internal error: ") + e.what(), 0, 1, 1, "", ""};
        return r;
    }
}

Result Parser::parse(const char* text) const { return parse(std::string_view(text)); }

Result Parser::parse(std::string_view text) const {
    try {
        return impl_->parse(text);
    } catch (const std::exception& e) {
        // A defect, not bad input: still never an exception out of the API.
        Result r;
        r.content = std::string(text);
        r.error = FormatError{std::string("internal error: ") + e.what(), 0, 1, 1, "", ""};
        return r;
    }
}

const Profile& Parser::profile() const { return impl_->profile; }
const std::vector<Tool>& Parser::tools() const { return impl_->tools; }
bool Parser::has_tool_list() const { return impl_->tool_list; }
const std::vector<ToolProblem>& Parser::tool_problems() const { return impl_->toolset.problems(); }

}  // namespace toolgram
