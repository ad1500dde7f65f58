// Where a JSON string's plain run ends, sixteen bytes at a time (SSE2, x86-64's baseline)
// or eight (any 64-bit word): the one scan the strict
// reader (strict_value.cpp, reading a string) and the writer (json_writer.cpp, escaping
// one) share. A run stops at '"', '\\', a control byte (< 0x20) or a byte of a multi-byte
// character (>= 0x80): the bytes each of them must look at one by one.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace toolgram::detail {

namespace string_scan {
constexpr std::uint64_t ones = 0x0101010101010101ULL;
constexpr std::uint64_t highs = 0x8080808080808080ULL;

// The stopping bytes of the word `w`, each flagged by its high bit. The lowest flagged
// byte is exact: a borrow only ever flags bytes above a true one.
constexpr std::uint64_t stops(std::uint64_t w) {
    const std::uint64_t quote = w ^ (ones * '"');
    const std::uint64_t backslash = w ^ (ones * '\\');
    return (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((w - ones * 0x20) & ~w) | w) & highs;
}

constexpr bool stops_at(unsigned char c) { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80; }

#if defined(__SSE2__)
// The stopping bytes of the sixteen in `v`, a bit each. Compared as signed bytes, those
// below 0x20 are the control bytes and every byte from 0x80 up: one comparison for both.
[[gnu::always_inline]] inline unsigned stop_bits(__m128i v) {
    const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    const __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    const __m128i hit = _mm_or_si128(_mm_or_si128(quote, backslash), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    return static_cast<unsigned>(_mm_movemask_epi8(hit));
}
#endif
}  // namespace string_scan

// The first byte at or after `p` where a plain run stops, or `end`.
[[gnu::always_inline]] inline const char* json_string_stop(const char* p, const char* end) {
#if defined(__SSE2__)
    while (end - p >= 16) {
        if (const unsigned m = string_scan::stop_bits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))))
            return p + std::countr_zero(m);
        p += 16;
    }
#endif
    if constexpr (std::endian::native == std::endian::little) {
        while (end - p >= 8) {
            std::uint64_t w;
            std::memcpy(&w, p, sizeof w);
            if (const std::uint64_t s = string_scan::stops(w)) return p + std::countr_zero(s) / 8;
            p += 8;
        }
    }
    while (p < end && !string_scan::stops_at(static_cast<unsigned char>(*p))) ++p;
    return p;
}


// How many bytes copy_plain_run may write past the run it copies.
inline constexpr std::size_t plain_copy_slack = 16;

// Copies the plain run starting at `p` to `w` as it scans it, and returns where the run
// stops (as json_string_stop), `w` moved past the copy. Sixteen bytes are stored before
// they are looked at, so up to plain_copy_slack bytes past the run are written: the
// destination must have that room beyond the run (they are overwritten or cut after).
[[gnu::always_inline]] inline const char* copy_plain_run(const char* p, const char* end, char*& w) {
#if defined(__SSE2__)
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(w), v);
        if (const unsigned m = string_scan::stop_bits(v)) {
            const int k = std::countr_zero(m);
            w += k;
            return p + k;
        }
        p += 16;
        w += 16;
    }
#endif
    while (p < end && !string_scan::stops_at(static_cast<unsigned char>(*p))) *w++ = *p++;
    return p;
}

// The stopping bytes of the 64 from `at`, a bit each (bit i: at[i]); `at` null when none
// is held. Kept between runs by copy_dense_run.
struct StopBlock {
    const char* at = nullptr;
    std::uint64_t bits = 0;
};

#if defined(__SSE2__)
// How many bytes copy_dense_run may write past the run it copies.
inline constexpr std::size_t dense_copy_slack = 32;

// As copy_plain_run, for the runs between a string's escapes. Code escapes a byte every
// dozen or so (`\n`, `\"`): there copy_plain_run looked at each run's bytes afresh, and its
// loop ran a count no branch predictor could learn, one miss per run. This one finds the
// stops of 64 bytes once, in `block`, and walks its bits run by run; a run within it is
// copied by two unconditional 16-byte stores when it is at most 32 bytes long. So up to
// dense_copy_slack bytes past the run are written (the destination must have that room,
// as for copy_plain_run). Near the end of the text (less than 96 bytes left) it falls back
// to copy_plain_run, so that no load reads past `end`.
[[gnu::always_inline]] inline const char* copy_dense_run(const char* p, const char* end, char*& w, StopBlock& block) {
    for (;;) {
        std::size_t pos = block.at && p >= block.at ? static_cast<std::size_t>(p - block.at) : 64;
        if (pos >= 64) {
            if (end - p < 96) {
                block.at = nullptr;
                return copy_plain_run(p, end, w);
            }
            block.at = p;
            block.bits = 0;
            for (int i = 0; i < 4; ++i)
                block.bits |= static_cast<std::uint64_t>(
                                  string_scan::stop_bits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i))))
                              << (16 * i);
            pos = 0;
        }
        const std::uint64_t ahead = block.bits & (~std::uint64_t{0} << pos);
        const std::size_t k = (ahead ? static_cast<std::size_t>(std::countr_zero(ahead)) : 64) - pos;
        // The block lies within the text with 32 bytes after it to spare: every load here
        // stays inside [p, end).
        if (k <= 32) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(w), _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(w + 16),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)));
        } else {
            for (std::size_t i = 0; i < k; i += 16)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(w + i),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
        }
        w += k;
        p += k;
        if (ahead) return p;
    }
}
#else
inline constexpr std::size_t dense_copy_slack = plain_copy_slack;

// Without SSE2 the runs are copied as copy_plain_run copies them.
inline const char* copy_dense_run(const char* p, const char* end, char*& w, StopBlock&) {
    return copy_plain_run(p, end, w);
}
#endif

}  // namespace toolgram::detail
