// The stream's needle sets: the delimiters and markers a stream searches for as text
// arrives (reasoning delimiters, content and intent markers), with what a chunk's end
// may cut of them held back (partial_tail) and one pass for the first of several
// (find_first_of_needles).
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "combinator/marker_pairs.hpp"
#include "scan/needle_search.hpp"
#include "stream/basics.hpp"

namespace toolgram::detail::streaming {

// Where the text stops being decidable for these needles: the first position from which
// the rest of the text is a proper prefix of one of them (cut by the end of the chunk),
// or the end. Only that much is held back, not a whole needle's length.
struct NeedleSet {
    std::vector<std::string> needles;
    std::array<bool, 256> first{};  // bytes that start a short needle (both cases when folding)
    std::size_t longest = 0;
    std::size_t longest_short = 0;  // of those up to detail::long_needle bytes, held back by comparing
    bool ignore_case = false;
    // For find_first_of_needles and the content-marker pass: the short needles keyed by
    // their first two bytes (as the marker scans key theirs). Exact case only.
    detail::MarkerPairs pairs;
    // Needles past detail::long_needle: held back with their Knuth-Morris-Pratt state,
    // carried from one chunk to the next (the buffer only grows), so each byte is read
    // once per needle rather than the needle's length per chunk.
    struct LongTail {
        std::size_t needle = 0;
        std::vector<std::size_t> fail;  // the failure function
        std::size_t pos = 0, k = 0;     // the text before pos read: k bytes of the needle match its end
        const char* base = nullptr;     // the text read (a moved buffer starts over)
    };
    mutable std::vector<LongTail> long_tails;

    NeedleSet() = default;
    explicit NeedleSet(std::vector<std::string> n, bool fold = false) : needles(std::move(n)), ignore_case(fold) {
        for (std::size_t i = 0; i < needles.size(); ++i) {
            const std::string& x = needles[i];
            if (x.empty()) continue;
            longest = std::max(longest, x.size());
            if (x.size() > detail::long_needle) {
                LongTail t;
                t.needle = i;
                t.fail.assign(x.size() + 1, 0);
                for (std::size_t j = 1, k = 0; j < x.size(); ++j) {
                    while (k > 0 && !same(x[j], x[k])) k = t.fail[k];
                    if (same(x[j], x[k])) ++k;
                    t.fail[j + 1] = k;
                }
                long_tails.push_back(std::move(t));
                continue;
            }
            longest_short = std::max(longest_short, x.size());
            const auto c = static_cast<unsigned char>(x[0]);
            first[c] = true;
            if (fold) first[static_cast<unsigned char>(std::tolower(c))] = first[static_cast<unsigned char>(std::toupper(c))] = true;
            pairs.add(i, x);
        }
        pairs.finish();
    }
    bool same(char a, char b) const { return ignore_case ? detail::fold_ascii(a) == detail::fold_ascii(b) : a == b; }
};

inline std::size_t partial_tail(std::string_view text, const NeedleSet& set) {
    // A long needle's partial match: where the longest end of the text that begins it
    // starts, from the state the last call left (only a needle's length back can matter).
    std::size_t long_tail = text.size();
    for (auto& t : set.long_tails) {
        const std::string& n = set.needles[t.needle];
        const std::size_t m = n.size();
        if (t.base != text.data() || t.pos > text.size()) t = {t.needle, std::move(t.fail), 0, 0, text.data()};
        const std::size_t start = text.size() >= m - 1 ? text.size() - (m - 1) : 0;
        if (t.pos < start) t.pos = start, t.k = 0;
        for (; t.pos < text.size(); ++t.pos) {
            while (t.k > 0 && !set.same(text[t.pos], n[t.k])) t.k = t.fail[t.k];
            if (set.same(text[t.pos], n[t.k])) ++t.k;
            if (t.k == m) t.k = t.fail[t.k];  // a whole needle is no partial one
        }
        long_tail = std::min(long_tail, text.size() - t.k);
    }
    const std::size_t start = text.size() + 1 > set.longest_short ? text.size() + 1 - set.longest_short : 0;
    auto same = [&](char a, char b) {
        return set.ignore_case ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b))
                               : a == b;
    };
    for (std::size_t p = start; p < text.size(); ++p) {
        if (p >= long_tail) break;
        if (!set.first[static_cast<unsigned char>(text[p])]) continue;
        const std::size_t rest = text.size() - p;
        for (const auto& n : set.needles) {
            if (n.size() <= rest || n.size() > detail::long_needle) continue;
            std::size_t k = 0;
            while (k < rest && same(text[p + k], n[k])) ++k;
            if (k == rest) return p;
        }
    }
    return long_tail;
}

// The earliest occurrence of any needle of `set` (exact case) that starts before `limit`,
// searching from `from`, and which needle (the first listed, where several start there);
// {npos, 0} for none. One pass over [from, limit) for the short needles: at a byte that
// starts one, only those opening with the two bytes there are compared, so text dense in
// `<` costs a lookup a byte, not a comparison per needle (the stream read each needle's
// own string_view::find before). A long needle (past detail::long_needle) is searched on
// its own in linear time (detail::find_needle). A needle may run past `limit`; it must
// start before it.
inline std::pair<std::size_t, std::size_t> find_first_of_needles(std::string_view text, const NeedleSet& set,
                                                                 std::size_t from, std::size_t limit) {
    limit = std::min(limit, text.size());
    std::size_t best = npos, best_which = 0;
    for (const auto& t : set.long_tails) {
        const std::size_t f = detail::find_needle(text, set.needles[t.needle], from);
        if (f < limit && (f < best || (f == best && t.needle < best_which))) best = f, best_which = t.needle;
    }
    const std::size_t end = best == npos ? limit : best + 1;
    std::vector<std::size_t> tries;
    for (std::size_t p = from; p < end; ++p) {
        if (!set.pairs.may_start(text[p])) continue;
        set.pairs.candidates(text, p, tries);  // ascending: the first that matches is the first listed
        for (const std::size_t i : tries) {
            if (p == best && i > best_which) break;
            if (text.compare(p, set.needles[i].size(), set.needles[i]) == 0) return {p, i};
        }
        if (p == best) break;
    }
    return best == npos ? std::pair<std::size_t, std::size_t>{npos, 0} : std::pair{best, best_which};
}

}  // namespace toolgram::detail::streaming
