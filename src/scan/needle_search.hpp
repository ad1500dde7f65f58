// Linear searches for long needles: Knuth-Morris-Pratt over the text, exactly or ignoring
// ASCII case.
//
// The usual searches (std::string_view::find, find_ci, the marker index's check at each
// anchor) compare the needle at each place its first or rarest byte occurs: cheap for the
// short markers real profiles have, but a needle of m bytes over text of its own period
// costs m at nearly every byte (a 140 KB intent marker over 2.8 MB took 50 s, issue 29
// item 3). Settings read from files, JSONL lines and Python refuse markers past
// max_marker_bytes; settings built in code are not checked, so past `long_needle` bytes
// the searches switch to these, which read each byte of the text a bounded number of
// times whatever the needle.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace toolgram::detail {

// Needles longer than this are searched for with the functions below.
inline constexpr std::size_t long_needle = 64;

// A needle's first 8 bytes as one word, as loaded from memory (zeros past a shorter
// needle's end), with the mask of the bytes it holds: the word of a text or of another
// needle compared first tells most needles apart before their bytes are compared (the
// marker index at a hit; ScanContext's cache of searches).
struct HeadWord {
    std::uint64_t word = 0, mask = 0;
};
inline HeadWord head_word(std::string_view needle) {
    HeadWord h;
    const std::size_t k = std::min<std::size_t>(needle.size(), 8);
    if (k == 0) return h;
    std::memcpy(&h.word, needle.data(), k);
    std::memset(&h.mask, 0xFF, k);
    return h;
}

inline char fold_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c; }

// A needle prepared once (the failure function), searched for any number of times.
class LinearNeedle {
public:
    LinearNeedle(std::string_view needle, bool ignore_case) : needle_(needle), ignore_case_(ignore_case) {
        fail_.assign(needle.size() + 1, 0);
        std::size_t k = 0;
        for (std::size_t i = 1; i < needle.size(); ++i) {
            while (k > 0 && !same(needle[i], needle[k])) k = fail_[k];
            if (same(needle[i], needle[k])) ++k;
            fail_[i + 1] = k;
        }
    }

    // Calls `found(start)` for every occurrence (overlapping ones too) in `text`, in order;
    // stops early when it returns false.
    template <class Found>
    void each(std::string_view text, Found&& found) const {
        const std::size_t m = needle_.size();
        if (m == 0 || m > text.size()) return;
        std::size_t k = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            while (k > 0 && !same(text[i], needle_[k])) k = fail_[k];
            if (same(text[i], needle_[k])) ++k;
            if (k == m) {
                if (!found(i + 1 - m)) return;
                k = fail_[k];
            }
        }
    }

    // The first occurrence in `text` at or after `from`, or npos.
    std::size_t find(std::string_view text, std::size_t from = 0) const {
        if (from > text.size()) return std::string_view::npos;
        std::size_t at = std::string_view::npos;
        each(text.substr(from), [&](std::size_t p) {
            at = from + p;
            return false;
        });
        return at;
    }

    // Where the longest suffix of `text` that is a proper prefix of the needle begins
    // (text.size() when none): what a stream holds back at a chunk's end. Reads only the
    // last needle-length bytes.
    std::size_t partial_tail(std::string_view text) const {
        const std::size_t m = needle_.size();
        if (m == 0) return text.size();
        const std::size_t start = text.size() >= m - 1 ? text.size() - (m - 1) : 0;
        std::size_t k = 0;
        for (std::size_t i = start; i < text.size(); ++i) {
            while (k > 0 && !same(text[i], needle_[k])) k = fail_[k];
            if (same(text[i], needle_[k])) ++k;
            if (k == m) k = fail_[k];  // a whole needle is no partial one: keep its longest border
        }
        return text.size() - k;
    }

private:
    bool same(char a, char b) const { return ignore_case_ ? fold_ascii(a) == fold_ascii(b) : a == b; }

    std::string_view needle_;
    bool ignore_case_;
    std::vector<std::size_t> fail_;
};

// As text.find(needle, from), linear in the text for a long needle.
inline std::size_t find_needle(std::string_view text, std::string_view needle, std::size_t from = 0) {
    if (needle.size() <= long_needle) return text.find(needle, from);
    return LinearNeedle(needle, false).find(text, from);
}

}  // namespace toolgram::detail
