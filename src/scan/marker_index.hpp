// The marker index: where every string a parse searches whole outputs for may start,
// found in one pass over the text.
//
// A parse looks for many strings over the whole output: the grammars' markers, reasoning
// delimiters, fence backticks, content markers, intent markers (ignoring case). Searched
// one by one, each is a pass over the text, and a scan that stops at every byte that can
// start a marker stops at every letter when a marker starts with one (TOOL_CALL,
// Action:). Prose would be read dozens of times.
//
// Instead, a MarkerSet (compiled once per Parser) picks for each needle an anchor: the
// byte in it least likely in prose (`<`, `[`, `|`, `_`, … before letters), with the byte
// beside it. One pass classifies 64 bytes at a time against the anchor bytes (nibble
// tables in AVX-512 or AVX2 registers, chosen at run time; a table lookup per byte on
// other CPUs); only at an anchor
// are the needles of that anchor pair compared. Every position where some needle starts
// gets a bit in a two-level bitmap (one-byte needles in a second one: an eighth of the
// text's size each, whatever the text), and a search for one needle walks the set bits and
// compares there. So the text is read once
// at near memory speed, and a search costs the hits it walks past, not the bytes.
//
// The index answers exactly what std::string_view::find would: it only skips positions
// where no indexed needle starts.
//
// A needle longer than detail::long_needle (settings built in code may hold any length)
// is not anchored: compared at each anchor, it would cost its length at nearly every byte
// of a text of its own period. Its starts are found by one linear pass of its own
// (needle_search.hpp) when the index is built.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toolgram::detail {

class MarkerSet {
public:
    // Adds a needle (once; empty ones are ignored). `ignore_case`: ASCII letters in
    // either case, as find_ci matches.
    void add(std::string_view needle, bool ignore_case = false);
    // Whether `needle` is indexed (with that case rule).
    bool has(std::string_view needle, bool ignore_case = false) const { return id(needle, ignore_case) >= 0; }
    bool empty() const { return needles_.empty(); }

private:
    friend class MarkerIndex;
    struct Needle {
        std::string text;
        bool ignore_case = false;
        std::size_t anchor = 0;  // offset of the anchor byte in the needle
        int neighbour = 0;       // where the second byte checked is: +1 after the anchor, -1 before, 0 none
        // Its first 8 bytes as one word (fewer for a shorter needle: the mask keeps theirs),
        // compared before the needle is: at a hit most needles of an anchor differ there.
        // Zero mask for a needle whose case is ignored.
        std::uint64_t head = 0, head_mask = 0;
    };
    // What a hit checks of a needle, kept beside its id: the check goes to the needle
    // itself only when the bytes around the anchor and the head word fit.
    struct Entry {
        std::uint64_t head = 0, head_mask = 0;  // as Needle's
        std::uint16_t needle = 0;
        std::uint8_t second = 0;  // the neighbour byte (folded when ignoring case; 0 for one-byte needles)
        // The byte one further out on the neighbour's side, 0 where the needle has none:
        // needles that share anchor and neighbour (`<|start|>`, `<|call|>`, …) mostly
        // differ there, so a hit looks only at those whose third byte fits too.
        std::uint8_t third = 0;
        std::uint8_t anchor = 0;  // as Needle's (anchored needles are at most long_needle bytes)
        std::uint8_t size = 0;    // the needle's length
        std::int8_t neighbour = 0;  // as Needle's
    };
    void rebuild();
    int id(std::string_view needle, bool ignore_case) const;  // -1 when not indexed

    std::vector<Needle> needles_;
    std::vector<std::size_t> long_ids_;  // needles past detail::long_needle, not anchored
    // Needle ids by text, one map per case rule: searches look their needle up each time.
    struct TextHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::unordered_map<std::string, int, TextHash, std::equal_to<>> ids_[2];  // [ignore_case]
    // Per anchor byte: the needles anchored on it with their neighbour bytes, sorted by
    // neighbour (one-byte needles first, neighbour 0); those ignoring case apart.
    std::array<std::vector<Entry>, 256> by_anchor_{};
    std::array<std::vector<Entry>, 256> by_anchor_ci_{};
    std::array<bool, 256> is_anchor_{};
    // Per anchor byte, which kinds of entries it has: 1 neighbour after, 2 before,
    // 4 one-byte needles, 8 needles ignoring case.
    std::array<std::uint8_t, 256> kinds_{};
    std::array<std::uint8_t, 16> low_nibble_{}, high_nibble_{};  // AVX2 classification
};

class MarkerIndex {
public:
    MarkerIndex() = default;
    // `widest`: the widest vectors the pass may use, 512 (AVX-512), 256 (AVX2) or 0 (a
    // byte at a time), each only where the CPU has it; tests run every path.
    MarkerIndex(const MarkerSet& set, std::string_view text, int widest = 512);

    bool covers(std::string_view needle, bool ignore_case = false) const { return set_ && set_->has(needle, ignore_case); }
    // The needle's number in the index, -1 when it does not cover it: a caller that
    // searches for one needle many times (ScanContext's cache) looks it up once.
    int id_of(std::string_view needle, bool ignore_case = false) const { return set_ ? set_->id(needle, ignore_case) : -1; }
    // The first position at or after `from` where some indexed needle starts, or npos.
    std::size_t next(std::size_t from) const;
    // As text.find(needle, from) for an indexed needle (covers() must hold). With
    // ignore_case, as find_ci over text[0, end): the match must end by `end`.
    std::size_t find(std::string_view needle, std::size_t from, bool ignore_case = false,
                     std::size_t end = std::string_view::npos) const {
        return find(id_of(needle, ignore_case), needle, from, ignore_case, end);
    }
    // As find, for the needle whose id_of is `id` (at least 0).
    std::size_t find(int id, std::string_view needle, std::size_t from, bool ignore_case = false,
                     std::size_t end = std::string_view::npos) const;

private:
    // Positions as bits, with a summary bit per 64-bit word and the list of busy summary
    // words, so finding the next set bit costs a few steps however long the gap.
    struct Bitmap {
        std::vector<std::uint64_t> bits;     // bit p: a needle starts at p
        std::vector<std::uint64_t> summary;  // bit w: bits[w] is not zero
        std::vector<std::uint32_t> busy;     // the summary words that are not zero, ascending
        void reset(std::size_t size);
        void set(std::size_t p);
        void finish();
        std::size_t next(std::size_t from, std::size_t size) const;
    };
    void hit(std::size_t j);
    void found(std::size_t needle, std::size_t q);

    const MarkerSet* set_ = nullptr;
    std::string_view text_;
    // One-byte needles (`{`, `[`) apart: in JSON they are everywhere, and a search for any
    // longer needle would walk past each of them. (Left empty for a set that has none.)
    Bitmap long_, short_;
    // While the hits are few (as in any real output), also each needle's own starts, in
    // order: a search is then a binary search, walking no other needle's hits. Past
    // `list_limit` hits (hostile input) the lists are dropped and searches walk the bits.
    std::vector<std::vector<std::uint32_t>> starts_;
    std::size_t listed_ = 0, list_limit_ = 0;
    bool listing_ = true;
};

}  // namespace toolgram::detail
