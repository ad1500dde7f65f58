// The stream's framing tokens and intent markers, found by searches that resume where they
// stopped, each holding back only what a marker cut by the chunk's end could still become.
//
// ContentMarkers: each content marker's occurrences (tokens that frame the answer, not
// part of it), left to right without overlapping each other, as parser.cpp finds them one
// marker at a time. Invariant: every occurrence before known() was handed to the assembly
// as a span to remove, unless it stands inside a reasoning block kept in content.
// IntentMarkers: where the first intent marker (`need_tool: yes`) begins, which opens the
// fallback gate. Invariant: none begins before searched(), unless at().
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "scan/regions.hpp"
#include "stream/assembler.hpp"
#include "stream/basics.hpp"
#include "stream/needle_set.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::detail::streaming {

class ContentMarkers {
public:
    explicit ContentMarkers(const Settings& s);
    // Finds the markers `text` shows and pushes each to `spans` (the text to leave out of
    // content), but for one inside a block of `regions` when reasoning stays in content
    // (`in_content`; then only text before `known_place`, whose place in or out of
    // reasoning is final, is searched, and a marker in a block still open whose end a
    // call may yet move waits for it). Returns known().
    std::size_t update(std::string_view text, bool finished, bool in_content, std::size_t known_place,
                       const std::vector<Region>& regions, SpanQueue& spans);
    // Content markers are known up to here.
    std::size_t known() const { return known_; }

private:
    const Settings& s_;
    NeedleSet set_;
    std::vector<std::size_t> pos_;  // per marker: its next occurrence starts here or later
    std::size_t from_ = 0;          // the search for all of them resumes here
    std::size_t known_ = 0;
};

class IntentMarkers {
public:
    explicit IntentMarkers(const Settings& s);
    void update(std::string_view text, bool finished);
    // Where the first intent marker begins (0 when a tool call is required), or npos.
    std::size_t at() const { return at_; }
    std::size_t searched() const { return search_; }

private:
    const Settings& s_;
    NeedleSet set_;
    std::size_t search_ = 0;
    std::size_t at_ = npos;
};

}  // namespace toolgram::detail::streaming
