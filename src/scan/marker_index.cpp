// The marker index (see marker_index.hpp).
#include "scan/marker_index.hpp"

#include <algorithm>
#include <cstring>

#include "scan/needle_search.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define TOOLGRAM_HAVE_AVX2_PATH 1
#endif

namespace toolgram::detail {

std::size_t find_ci(std::string_view hay, std::string_view needle);  // parser_shared.cpp

namespace {

constexpr std::size_t npos = std::string_view::npos;

unsigned char fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c + 32) : c; }
bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// How common a byte is in prose, rarest first: markup and tokenizer punctuation, then
// other punctuation, digits, bytes of non-ASCII characters, capitals, lower case by
// English frequency, space last. Only the order matters.
int prose_rank(unsigned char c) {
    static constexpr std::string_view rare = "<|[`_>{}]\\=~^@#$*/&%;:+\"'()-!?";
    if (const auto at = rare.find(static_cast<char>(c)); at != std::string_view::npos) return static_cast<int>(at);
    if (c >= '0' && c <= '9') return 40;
    if (c >= 0x80) return 50;
    if (c >= 'A' && c <= 'Z') return 60;
    static constexpr std::string_view letters = "zqxjkvbpygfwmucldrhsnioate";
    if (const auto at = letters.find(static_cast<char>(c)); at != std::string_view::npos) return 70 + static_cast<int>(at);
    if (c == ' ') return 200;
    return 45;  // other controls and punctuation (',', '.', newline)
}

bool same_ci(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (fold(static_cast<unsigned char>(a[i])) != fold(static_cast<unsigned char>(b[i]))) return false;
    return true;
}


}  // namespace

void MarkerSet::add(std::string_view needle, bool ignore_case) {
    if (needle.empty() || has(needle, ignore_case)) return;
    Needle n;
    n.text = std::string(needle);
    n.ignore_case = ignore_case;
    // A hit is checked on two bytes, the anchor and its neighbour (the byte after it, or
    // before it for the last byte), before the needle is compared.
    for (std::size_t k = 0; k < needle.size(); ++k)
        if (prose_rank(static_cast<unsigned char>(needle[k])) < prose_rank(static_cast<unsigned char>(needle[n.anchor])))
            n.anchor = k;
    n.neighbour = needle.size() == 1 ? 0 : n.anchor + 1 < needle.size() ? 1 : -1;
    if (!ignore_case) {
        const HeadWord h = head_word(needle);
        n.head = h.word;
        n.head_mask = h.mask;
    }
    ids_[ignore_case ? 1 : 0].emplace(n.text, static_cast<int>(needles_.size()));
    if (needle.size() > long_needle) long_ids_.push_back(needles_.size());
    needles_.push_back(std::move(n));
    rebuild();
}

int MarkerSet::id(std::string_view needle, bool ignore_case) const {
    const auto& ids = ids_[ignore_case ? 1 : 0];
    const auto it = ids.find(needle);
    return it == ids.end() ? -1 : it->second;
}

void MarkerSet::rebuild() {
    for (auto& v : by_anchor_) v.clear();
    for (auto& v : by_anchor_ci_) v.clear();
    is_anchor_.fill(false);
    kinds_.fill(0);
    low_nibble_.fill(0);
    high_nibble_.fill(0);
    int bucket = 0;
    auto anchor_on = [&](unsigned char b, Entry e) {
        if (!is_anchor_[b]) {
            is_anchor_[b] = true;
            // One bit per anchor byte while there are at most eight; past that bytes
            // share bits and the classification lets through a few bytes that are not
            // anchors, which is_anchor_ then drops.
            const auto bit = static_cast<std::uint8_t>(1u << (bucket++ % 8));
            low_nibble_[b & 15] |= bit;
            high_nibble_[b >> 4] |= bit;
        }
        const Needle& n = needles_[e.needle];
        (n.ignore_case ? by_anchor_ci_ : by_anchor_)[b].push_back(e);
        kinds_[b] |= n.ignore_case ? 8 : n.neighbour == 1 ? 1 : n.neighbour == -1 ? 2 : 4;
    };
    for (std::size_t i = 0; i < needles_.size(); ++i) {
        const Needle& n = needles_[i];
        if (n.text.size() > long_needle) continue;  // found by a pass of its own
        const auto a = static_cast<unsigned char>(n.text[n.anchor]);
        const auto second = n.neighbour == 0 ? 0 : static_cast<unsigned char>(n.text[n.anchor + n.neighbour]);
        static_assert(long_needle <= 255, "an anchored needle's length and anchor fit a byte");
        Entry e;
        e.head = n.head;
        e.head_mask = n.head_mask;
        e.needle = static_cast<std::uint16_t>(i);
        e.second = static_cast<std::uint8_t>(n.ignore_case ? fold(second) : second);
        e.anchor = static_cast<std::uint8_t>(n.anchor);
        e.size = static_cast<std::uint8_t>(n.text.size());
        e.neighbour = static_cast<std::int8_t>(n.neighbour);
        const auto further = static_cast<std::ptrdiff_t>(n.anchor) + 2 * n.neighbour;
        if (!n.ignore_case && n.neighbour != 0 && further >= 0 && further < static_cast<std::ptrdiff_t>(n.text.size()))
            e.third = static_cast<std::uint8_t>(n.text[static_cast<std::size_t>(further)]);
        if (n.ignore_case && is_letter(a)) {
            anchor_on(fold(a), e);
            anchor_on(static_cast<unsigned char>(fold(a) - 32), e);
        } else {
            anchor_on(a, e);
        }
    }
    // Sorted by the neighbour byte and then the third, so a hit looks up only the needles
    // that fit both (those with no third byte first among their neighbour's).
    for (auto& v : by_anchor_)
        std::stable_sort(v.begin(), v.end(), [](const Entry& x, const Entry& y) {
            return x.second != y.second ? x.second < y.second : x.third < y.third;
        });
}

#ifdef TOOLGRAM_HAVE_AVX2_PATH
namespace {

// 0xFF where the byte is surely no anchor: its nibbles' bits have none in common.
[[gnu::target("avx2")]] inline __m256i not_anchor(__m256i v, __m256i low_table, __m256i high_table, __m256i nibble) {
    const __m256i lo = _mm256_shuffle_epi8(low_table, _mm256_and_si256(v, nibble));
    const __m256i hi = _mm256_shuffle_epi8(high_table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    return _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), _mm256_setzero_si256());
}

// Calls hit(context, j) for every j in [0, n) whose byte the nibble tables classify as a
// possible anchor, 64 bytes a step; returns where the bytes it did not look at begin.
[[gnu::target("avx2")]] std::size_t classify_avx2(const unsigned char* p, std::size_t n, const std::uint8_t* low,
                                                  const std::uint8_t* high, void (*hit)(void*, std::size_t),
                                                  void* context) {
    const __m256i low_table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(low)));
    const __m256i high_table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(high)));
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    std::size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32));
        const auto ma = static_cast<std::uint32_t>(_mm256_movemask_epi8(not_anchor(a, low_table, high_table, nibble)));
        const auto mb = static_cast<std::uint32_t>(_mm256_movemask_epi8(not_anchor(b, low_table, high_table, nibble)));
        std::uint64_t m = ~(std::uint64_t{ma} | (std::uint64_t{mb} << 32));
        while (m) {
            hit(context, i + static_cast<std::size_t>(__builtin_ctzll(m)));
            m &= m - 1;
        }
    }
    return i;
}

// The same with AVX-512 (BW): 64 bytes a register, the mask straight from a test.
[[gnu::target("avx512bw")]] std::size_t classify_avx512(const unsigned char* p, std::size_t n, const std::uint8_t* low,
                                                        const std::uint8_t* high, void (*hit)(void*, std::size_t),
                                                        void* context) {
    // The 16-byte tables in each lane, loaded from four copies: GCC 12 warns that
    // _mm512_broadcast_i32x4 reads an uninitialised value (its own undefined source
    // operand, a false positive), and the demo build is to print no warning.
    alignas(64) std::uint8_t low4[64], high4[64];
    for (int lane = 0; lane < 4; ++lane) {
        std::memcpy(low4 + 16 * lane, low, 16);
        std::memcpy(high4 + 16 * lane, high, 16);
    }
    const __m512i low_table = _mm512_load_si512(low4);
    const __m512i high_table = _mm512_load_si512(high4);
    const __m512i nibble = _mm512_set1_epi8(0x0F);
    std::size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        const __m512i a = _mm512_loadu_si512(p + i);
        const __m512i b = _mm512_loadu_si512(p + i + 64);
        const __mmask64 ma = _mm512_test_epi8_mask(
            _mm512_shuffle_epi8(low_table, _mm512_and_si512(a, nibble)),
            _mm512_shuffle_epi8(high_table, _mm512_and_si512(_mm512_srli_epi16(a, 4), nibble)));
        const __mmask64 mb = _mm512_test_epi8_mask(
            _mm512_shuffle_epi8(low_table, _mm512_and_si512(b, nibble)),
            _mm512_shuffle_epi8(high_table, _mm512_and_si512(_mm512_srli_epi16(b, 4), nibble)));
        if ((ma | mb) == 0) [[likely]] continue;
        for (std::uint64_t m = ma; m; m &= m - 1) hit(context, i + static_cast<std::size_t>(__builtin_ctzll(m)));
        for (std::uint64_t m = mb; m; m &= m - 1) hit(context, i + 64 + static_cast<std::size_t>(__builtin_ctzll(m)));
    }
    return i;
}

}  // namespace
#endif

MarkerIndex::MarkerIndex(const MarkerSet& set, std::string_view text, int widest) : set_(&set), text_(text) {
    long_.reset(text.size());
    // A bit per byte of the text: only for a set that has one-byte needles.
    if (std::any_of(set.needles_.begin(), set.needles_.end(), [](const auto& n) { return n.text.size() == 1; }))
        short_.reset(text.size());
    starts_.resize(set.needles_.size());
    list_limit_ = 4096 + text.size() / 32;  // at most an eighth of the text's size in positions
    if (set.empty() || text.empty()) return;
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    std::size_t j = 0;
#ifdef TOOLGRAM_HAVE_AVX2_PATH
    if (widest >= 512 && __builtin_cpu_supports("avx512bw")) {
        j = classify_avx512(p, text.size(), set.low_nibble_.data(), set.high_nibble_.data(),
                            [](void* self, std::size_t at) { static_cast<MarkerIndex*>(self)->hit(at); }, this);
    } else if (widest >= 256 && __builtin_cpu_supports("avx2")) {
        j = classify_avx2(p, text.size(), set.low_nibble_.data(), set.high_nibble_.data(),
                          [](void* self, std::size_t at) { static_cast<MarkerIndex*>(self)->hit(at); }, this);
    }
#else
    (void)widest;
#endif
    for (; j < text.size(); ++j)
        if (set.is_anchor_[p[j]]) hit(j);
    for (const std::size_t id : set.long_ids_) {
        const auto& n = set.needles_[id];
        LinearNeedle(n.text, n.ignore_case).each(text, [&](std::size_t q) {
            found(id, q);
            return true;
        });
    }
    long_.finish();
    short_.finish();
}

void MarkerIndex::Bitmap::reset(std::size_t size) {
    bits.assign((size + 63) / 64, 0);
    summary.assign((bits.size() + 63) / 64, 0);
    busy.clear();
}

void MarkerIndex::Bitmap::set(std::size_t p) {
    bits[p >> 6] |= std::uint64_t{1} << (p & 63);
    summary[p >> 12] |= std::uint64_t{1} << ((p >> 6) & 63);
}

void MarkerIndex::Bitmap::finish() {
    for (std::size_t w = 0; w < summary.size(); ++w)
        if (summary[w]) busy.push_back(static_cast<std::uint32_t>(w));
}

// A byte that may be an anchor at j: each needle anchored on it that starts at j - anchor
// gets its bit.
void MarkerIndex::hit(std::size_t j) {
    const auto b = static_cast<unsigned char>(text_[j]);
    if (!set_->is_anchor_[b]) return;
    auto check = [&](const MarkerSet::Entry& e) {
        if (j < e.anchor) return;
        const std::size_t q = j - e.anchor;
        if (q + e.size > text_.size()) return;
        if (q + 8 <= text_.size()) {  // the head word first
            std::uint64_t w;
            std::memcpy(&w, text_.data() + q, 8);
            if ((w & e.head_mask) != e.head) return;
            if (e.size == 8 && e.head_mask == ~std::uint64_t{0}) {
                found(e.needle, q);
                return;
            }
        }
        const auto& n = set_->needles_[e.needle];
        const std::string_view at = text_.substr(q, n.text.size());
        if (!(n.ignore_case ? same_ci(at, n.text) : at == n.text)) return;
        found(e.needle, q);
    };
    // The neighbour byte: after the anchor, or before it (needles anchored on their last
    // byte). One-byte needles have none and sort first under neighbour 0.
    const auto& exact = set_->by_anchor_[b];
    const std::uint8_t kinds = set_->kinds_[b];
    for (int side : {1, -1}) {
        if (!(kinds & (side == 1 ? 1 : 2))) continue;
        if ((side == 1 && j + 1 >= text_.size()) || (side == -1 && j == 0)) continue;
        const auto c = static_cast<unsigned char>(text_[j + static_cast<std::size_t>(side)]);
        auto it = std::lower_bound(exact.begin(), exact.end(), c,
                                   [](const MarkerSet::Entry& e, unsigned char v) { return e.second < v; });
        const auto group_end = std::upper_bound(it, exact.end(), c,
                                                [](unsigned char v, const MarkerSet::Entry& e) { return v < e.second; });
        for (; it != group_end && it->third == 0; ++it)
            if (it->neighbour == side) check(*it);
        if (it == group_end) continue;
        // A needle with a third byte needs it in the text: two bytes out from the anchor.
        if ((side == 1 && j + 2 >= text_.size()) || (side == -1 && j < 2)) continue;
        const auto c3 = static_cast<unsigned char>(text_[side == 1 ? j + 2 : j - 2]);
        it = std::lower_bound(it, group_end, c3, [](const MarkerSet::Entry& e, unsigned char v) { return e.third < v; });
        for (; it != group_end && it->third == c3; ++it)
            if (it->neighbour == side) check(*it);
    }
    if (kinds & 4)
        for (auto it = exact.begin(); it != exact.end() && it->second == 0; ++it)
            if (it->neighbour == 0) check(*it);
    if (kinds & 8)
        for (const auto& e : set_->by_anchor_ci_[b]) {
            const auto& n = set_->needles_[e.needle];
            const std::size_t at = j + static_cast<std::size_t>(n.neighbour);
            if (n.neighbour != 0 && (at >= text_.size() || fold(static_cast<unsigned char>(text_[at])) != e.second))
                continue;
            check(e);
        }
}

// Needle `id` starts at q: its bit, and while the hits are few, its list.
void MarkerIndex::found(std::size_t id, std::size_t q) {
    (set_->needles_[id].text.size() == 1 ? short_ : long_).set(q);
    if (!listing_) return;
    if (++listed_ > list_limit_ || q > UINT32_MAX) {
        listing_ = false;
        std::vector<std::vector<std::uint32_t>>().swap(starts_);
        return;
    }
    // A needle's anchors (or its own pass) come in order, so its starts do.
    starts_[id].push_back(static_cast<std::uint32_t>(q));
}

std::size_t MarkerIndex::next(std::size_t from) const {
    return std::min(long_.next(from, text_.size()), short_.next(from, text_.size()));
}

std::size_t MarkerIndex::Bitmap::next(std::size_t from, std::size_t size) const {
    if (from >= size || bits.empty()) return npos;  // empty: no needle of its kind
    const std::size_t w = from >> 6;
    if (const std::uint64_t m = bits[w] & (~std::uint64_t{0} << (from & 63)))
        return (w << 6) + static_cast<std::size_t>(__builtin_ctzll(m));
    // The next word with a bit, found through the summary, and past the rest of this
    // summary word through the list of busy summary words: a search over prose costs a
    // few steps, however long the prose.
    const std::size_t s = w + 1, si = s >> 6;
    if (si >= summary.size()) return npos;
    std::uint64_t sm = summary[si] & (~std::uint64_t{0} << (s & 63));
    std::size_t at = si;
    if (!sm) {
        const auto it = std::upper_bound(busy.begin(), busy.end(), static_cast<std::uint32_t>(si));
        if (it == busy.end()) return npos;
        at = *it;
        sm = summary[at];
    }
    const std::size_t word = (at << 6) + static_cast<std::size_t>(__builtin_ctzll(sm));
    return (word << 6) + static_cast<std::size_t>(__builtin_ctzll(bits[word]));
}

std::size_t MarkerIndex::find(int id, std::string_view needle, std::size_t from, bool ignore_case,
                              std::size_t end) const {
    // The hits walked are every needle's: where other needles crowd the text (a hostile
    // run of `{` or `[TOOL_CALLS]`), a plain search for this one costs less than walking
    // them all, and every needle of a parse would walk them again. So after a few hits
    // that are not this needle, the rest is searched in the text.
    if (listing_) {
        if (id >= 0) {
            const auto& starts = starts_[static_cast<std::size_t>(id)];
            const auto it = std::lower_bound(starts.begin(), starts.end(), from,
                                             [](std::uint32_t p, std::size_t f) { return p < f; });
            if (it == starts.end()) return npos;
            if (ignore_case && end != npos && *it + needle.size() > end) return npos;
            return *it;
        }
    }
    constexpr int walk = 8;
    int misses = 0;
    const Bitmap& hits = needle.size() == 1 ? short_ : long_;
    for (std::size_t q = hits.next(from, text_.size()); q != npos; q = hits.next(q + 1, text_.size())) {
        if (ignore_case) {
            if (end != npos && q + needle.size() > end) return npos;
            if (q + needle.size() <= text_.size() && same_ci(text_.substr(q, needle.size()), needle)) return q;
        } else if (text_.compare(q, needle.size(), needle) == 0) {
            return q;
        }
        if (++misses < walk) continue;
        if (!ignore_case) return find_needle(text_, needle, q + 1);
        const std::string_view rest = text_.substr(0, std::min(end, text_.size())).substr(q + 1);
        const std::size_t at = find_ci(rest, needle);
        return at == npos ? npos : q + 1 + at;
    }
    return npos;
}

}  // namespace toolgram::detail
