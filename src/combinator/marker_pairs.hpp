// Which of a scan's markers may start at a position, by the position's first two bytes.
//
// The marker scans (the one-shot scan in parser.cpp, the stream's in stream_scan.cpp) stop
// at every byte that can start a marker and try the markers there in scan order. auto
// has some 70 markers, most opening with `<`: compared one by one, text dense in `<` cost
// 70 comparisons a byte. Keyed by their first two bytes (one-byte markers apart), only
// those that can match are tried, still in scan order. Built once per Parser, for each
// role's markers (Parser::Impl::role_pairs), and shared by every parse and stream; the
// stream's needle sets (reasoning delimiters, content markers) use one too.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "readers/grammar_def.hpp"

namespace toolgram::detail {

class MarkerPairs {
public:
    MarkerPairs() = default;
    explicit MarkerPairs(const std::vector<MarkerUse>& markers) {
        for (std::size_t i = 0; i < markers.size(); ++i) add(i, markers[i].text);
        finish();
    }

    // Building one from other needles (the stream's NeedleSet): `index` is what
    // candidates() reports for `text`; finish() once all are added.
    void add(std::size_t index, std::string_view text) {
        first_[static_cast<unsigned char>(text[0])] = true;
        if (text.size() == 1) single_.emplace_back(static_cast<unsigned char>(text[0]), index);
        else by_pair_.emplace_back(key(text[0], text[1]), index);
    }
    void finish() { std::sort(by_pair_.begin(), by_pair_.end()); }

    // Whether some marker starts with byte `c`.
    bool may_start(char c) const { return first_[static_cast<unsigned char>(c)]; }

    // The indexes, ascending, of the markers that may start at text[pos] with the bytes
    // there: the one-byte markers equal to text[pos] and, where a byte follows, those
    // whose first two bytes are text[pos, pos + 2). (At the text's last byte a longer
    // marker may still come in a stream, which the stream decides itself.)
    void candidates(std::string_view text, std::size_t pos, std::vector<std::size_t>& out) const {
        out.clear();
        const auto c = static_cast<unsigned char>(text[pos]);
        for (const auto& [b, i] : single_)
            if (b == c) out.push_back(i);
        if (pos + 1 < text.size()) {
            const unsigned k = key(text[pos], text[pos + 1]);
            for (auto it = std::lower_bound(by_pair_.begin(), by_pair_.end(), std::make_pair(k, std::size_t{0}));
                 it != by_pair_.end() && it->first == k; ++it)
                out.push_back(it->second);
        }
        if (!single_.empty()) std::sort(out.begin(), out.end());
    }

private:
    static unsigned key(char a, char b) {
        return static_cast<unsigned>(static_cast<unsigned char>(a)) << 8 | static_cast<unsigned char>(b);
    }
    std::array<bool, 256> first_{};
    std::vector<std::pair<unsigned, std::size_t>> by_pair_;  // (first two bytes, marker index), sorted
    std::vector<std::pair<unsigned char, std::size_t>> single_;  // one-byte markers
};

}  // namespace toolgram::detail
