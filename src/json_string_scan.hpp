// Where a JSON string's plain run ends, eight bytes at a time: the one scan the strict
// reader (strict_value.cpp, reading a string) and the writer (json_writer.cpp, escaping
// one) share. A run stops at '"', '\\', a control byte (< 0x20) or a byte of a multi-byte
// character (>= 0x80): the bytes each of them must look at one by one.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

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
}  // namespace string_scan

// The first byte at or after `p` where a plain run stops, or `end`.
inline const char* json_string_stop(const char* p, const char* end) {
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

}  // namespace toolgram::detail
