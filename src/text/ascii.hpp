// ASCII character classes for the hand-written scanners (JSON Schema formats, patterns and
// references, the JSON readers' escapes, string prefixes, region boundaries). One definition, locale-free, unlike <cctype>:
// a byte of a UTF-8 sequence is never a digit or a letter here.
#pragma once

namespace toolgram::detail {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// The value of a hex digit (is_hex(c) must hold).
constexpr unsigned hex_value(char c) { return is_digit(c) ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10); }

}  // namespace toolgram::detail
