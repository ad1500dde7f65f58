// Reasoning blocks and fences (see regions.hpp).
#include "regions.hpp"

#include <algorithm>
#include <cctype>

namespace toolgram::detail {

std::vector<Region> find_reasoning(ScanContext& ctx, std::size_t limit, const Masked& masked) {
    const std::string_view text = ctx.text().substr(0, limit);
    const auto& pairs = ctx.settings().reasoning;
    std::vector<Region> out;
    if (pairs.empty()) return out;

    // The first occurrence of `needle` at or after `from` that is not strictly inside a
    // masked span. A hit inside one resumes the search at the span's end, so each span
    // costs one search per delimiter, whatever it holds.
    auto find = [&](std::string_view needle, std::size_t from) {
        for (;;) {
            const std::size_t at = ctx.find(needle, from);
            // A delimiter counts only whole before the limit: one that straddles it would
            // open a region whose inside begins past its end.
            if (at == std::string_view::npos || at + needle.size() > text.size()) return std::string_view::npos;
            auto it = std::upper_bound(masked.begin(), masked.end(), at,
                                       [](std::size_t p, const auto& span) { return p < span.first; });
            if (it == masked.begin()) return at;
            --it;
            if (!(it->first < at && at < it->second)) return at;
            from = it->second;
        }
    };

    // Started inside reasoning: a closer before any opener of any pair (guess), or the
    // first closer wherever it stands (inside), or never (outside).
    const ReasoningStart start = ctx.settings().reasoning_start;
    std::size_t first_open = std::string_view::npos;
    if (start == ReasoningStart::guess)
        for (const auto& d : pairs)
            if (!d.open.empty()) first_open = std::min(first_open, find(d.open, 0));
    std::size_t pos = 0;
    std::size_t best_close = std::string_view::npos;
    const Delimiters* headless = nullptr;
    for (const auto& d : pairs) {
        if (d.close.empty() || !d.implicit_open || start == ReasoningStart::outside) continue;
        const std::size_t c = find(d.close, 0);
        if (c != std::string_view::npos && c < first_open && c < best_close) {
            best_close = c;
            headless = &d;
        }
    }
    if (headless) {
        out.push_back({0, best_close + headless->close.size(), 0, best_close, true});
        pos = best_close + headless->close.size();
    } else if (start == ReasoningStart::inside) {
        out.push_back({0, text.size(), 0, text.size(), false});  // never closed: all reasoning
        return out;
    }

    while (pos < text.size()) {
        std::size_t open_at = std::string_view::npos;
        const Delimiters* which = nullptr;
        for (const auto& d : pairs) {
            if (d.open.empty()) continue;
            const std::size_t o = find(d.open, pos);
            if (o != std::string_view::npos && o < open_at && o < text.size()) {
                open_at = o;
                which = &d;
            }
        }
        if (!which) break;
        const std::size_t inner = open_at + which->open.size();
        std::size_t close_at = find(which->close, inner);
        if (close_at == std::string_view::npos || close_at >= text.size()) {
            out.push_back({open_at, text.size(), inner, text.size(), false});  // never closed: to the end
            break;
        }
        out.push_back({open_at, close_at + which->close.size(), inner, close_at, true});
        pos = close_at + which->close.size();
    }
    return out;
}

// A fence is a line of up to three spaces and ```: the lines visited are those holding
// ``` (found through the scan context, so through the marker index in a one-shot parse),
// not every line of the text.
std::vector<Region> find_fences(ScanContext& ctx, std::size_t limit) {
    std::vector<Region> out;
    const std::string_view text = ctx.text().substr(0, limit);
    bool open = false;
    Region current;
    std::size_t decided = 0;  // lines before this were looked at
    for (std::size_t at = ctx.find("```", 0); at != std::string_view::npos && at + 3 <= text.size();
         at = ctx.find("```", at + 1)) {
        if (at < decided) continue;
        std::size_t line = at;
        while (line > 0 && at - line < 3 && text[line - 1] == ' ') --line;
        if (line > 0 && text[line - 1] != '\n') continue;  // not at the start of its line
        std::size_t eol = text.find('\n', at);
        if (eol == std::string_view::npos) eol = text.size();
        if (!open) {
            current.outer_begin = line;
            current.inner_begin = std::min(eol + 1, text.size());
            open = true;
        } else {
            current.inner_end = line;
            current.outer_end = std::min(eol + 1, text.size());
            // A closing fence is only the backticks; keep a following newline outside.
            if (current.outer_end > 0 && current.outer_end <= text.size() && text[current.outer_end - 1] == '\n')
                --current.outer_end;
            out.push_back(current);
            open = false;
        }
        decided = eol + 1;
    }
    if (open) {
        current.inner_end = text.size();
        current.outer_end = text.size();
        current.closed = false;
        out.push_back(current);
    }
    return out;
}

bool fence_only_wraps(std::string_view text, const Region& f, std::size_t begin, std::size_t end) {
    if (f.inner_begin > begin) return false;
    const std::string_view inside_before = text.substr(f.inner_begin, begin - f.inner_begin);
    const std::string_view inside_after = end <= f.inner_end ? text.substr(end, f.inner_end - end) : std::string_view{};
    return inside_before.find_first_not_of(" \t\r\n") == std::string_view::npos &&
           inside_after.find_first_not_of(" \t\r\n`") == std::string_view::npos;
}

const Region* region_at(const std::vector<Region>& regions, std::size_t pos) {
    // Regions come sorted and disjoint: a binary search keeps this logarithmic, since it
    // runs once per block and an output may hold tens of thousands of each.
    auto it = std::upper_bound(regions.begin(), regions.end(), pos,
                               [](std::size_t p, const Region& r) { return p < r.outer_begin; });
    if (it == regions.begin()) return nullptr;
    --it;
    return it->contains(pos) ? &*it : nullptr;
}

bool introduced_as_example(std::string_view text, std::size_t pos, const std::vector<Region>& fences) {
    const Region* fence = region_at(fences, pos);
    std::size_t stop = fence ? fence->outer_begin : pos;
    // A fence's lead-in is the paragraph before it, even across a blank line; an unfenced
    // call's lead-in is the text before it on its own line.
    if (fence)
        while (stop > 0 && std::isspace(static_cast<unsigned char>(text[stop - 1]))) --stop;
    // Searching only a bounded window keeps this constant per call (linear over all blocks).
    constexpr std::size_t window_size = 240;
    std::size_t from = stop > window_size ? stop - window_size : 0;
    const std::string_view window = text.substr(from, stop - from);
    const std::size_t brk = fence ? window.rfind("\n\n") : window.rfind('\n');
    if (brk != std::string_view::npos) from += brk + (fence ? 2 : 1);
    // Lower-cased on the stack, ASCII only (the phrases are): a call every few bytes
    // (hostile input) runs this per call, and std::tolower asks the locale at every byte.
    char folded[window_size];
    const std::size_t n = stop - from;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = text[from + i];
        folded[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
    }
    const std::string_view lead(folded, n);
    // Phrases that introduce an example anywhere, and weaker ones that do so only before
    // a fenced snippet ("such as Zürich" before a real call is not an example).
    static constexpr std::string_view strong[] = {
        "for example", "for instance", "e.g.", "example:", "an example", "example of",
        "you could call", "you can call", "you would call", "you might call",
    };
    static constexpr std::string_view fenced_only[] = {"such as", "would look like", "looks like this", "like so:"};
    for (auto p : strong)
        if (lead.find(p) != std::string_view::npos) return true;
    if (fence)
        for (auto p : fenced_only)
            if (lead.find(p) != std::string_view::npos) return true;
    return false;
}

}  // namespace toolgram::detail
