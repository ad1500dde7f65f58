// Regions of the output that change how a candidate inside them is judged: reasoning
// blocks (their text is `reasoning`, calls in them are reported, not accepted) and
// Markdown fences (a call in a fence introduced as an example is not a call).
//
// Both are found in one linear pass each, before any grammar runs, so grammars never
// need to know about them.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "scan_context.hpp"

namespace toolgram::detail {

struct Region {
    std::size_t outer_begin = 0, outer_end = 0;  // with delimiters
    std::size_t inner_begin = 0, inner_end = 0;  // without
    bool closed = true;                          // false: ran to the end of output
    bool contains(std::size_t pos) const { return pos >= outer_begin && pos < outer_end; }
};

// Spans of text whose bytes are not delimiters, sorted and disjoint: a delimiter strictly
// inside one (`{"q": "what is <think>?"}` in a call) is text of that span.
using Masked = std::vector<std::pair<std::size_t, std::size_t>>;

std::vector<Region> find_reasoning(ScanContext& ctx, std::size_t limit, const Masked& masked = {});
std::vector<Region> find_fences(ScanContext& ctx, std::size_t limit);

// True when the text just before `pos` (or before the fence holding it) introduces an
// example: "for example", "e.g.", "you could call" and the like.
bool introduced_as_example(std::string_view text, std::size_t pos, const std::vector<Region>& fences);

// True when the fence `f` holds nothing but the block [begin, end) (and blanks or
// backticks after it): the fence only wraps tool syntax and goes with it.
bool fence_only_wraps(std::string_view text, const Region& f, std::size_t begin, std::size_t end);

const Region* region_at(const std::vector<Region>& regions, std::size_t pos);

}  // namespace toolgram::detail
