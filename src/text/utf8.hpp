// UTF-8 validity for what leaves the library as JSON.
//
// Model output is bytes: it may hold invalid UTF-8 (a cut multi-byte character, Latin-1,
// raw binary), and the lenient readers keep such bytes inside strings. nlohmann's dump
// throws on them by default, so anything toolgram hands out as JSON (a call's arguments,
// to_json, to_openai_message) is made valid first: each maximal invalid subsequence
// becomes U+FFFD, as the Unicode standard recommends and as browsers decode. One pass, no
// recursion (JSON nesting is walked with an explicit stack).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace toolgram::detail {

bool is_valid_utf8(std::string_view s);

// The length of the longest prefix of `s` made of well-formed characters.
std::size_t valid_utf8_prefix(std::string_view s);

// The length of the well-formed character at s[i] (1 to 4), or 0 when the bytes there are
// not one (ill-formed, or cut by the end of `s`).
std::size_t valid_utf8_length(std::string_view s, std::size_t i);

// What stands at s[i]: a well-formed character (`valid` true) or the maximal invalid
// subsequence one U+FFFD replaces (`valid` false); its length either way (at least 1).
std::size_t utf8_sequence(std::string_view s, std::size_t i, bool& valid);

// Writes code point `cp` (at most U+10FFFF, not a surrogate) in UTF-8 at `out`, which has
// room for 4 bytes; returns how many it wrote.
std::size_t encode_utf8(std::uint32_t cp, char* out);

// Appends code point `cp` (at most U+10FFFF, not a surrogate) in UTF-8.
void append_utf8(std::uint32_t cp, std::string& out);

// `s` with every maximal invalid subsequence replaced by U+FFFD (EF BF BD).
std::string to_valid_utf8(std::string_view s);

// Makes every string and object key in `value` valid UTF-8, in place; true when
// something was replaced. Two keys of one object that differ only in invalid bytes
// (`"a\xff"`, `"a\xfe"`) become the same key: the first value stays, and when
// `merged_key` is given the first such key (as replaced) is written there, so a caller
// can refuse what would otherwise be a repeated key resolved silently.
bool make_valid_utf8(nlohmann::ordered_json& value, std::string* merged_key = nullptr);

// What a message quotes of a name or of schema text: `s` itself when at most `max_bytes`
// long, else its first bytes, cut at a character boundary, then "...", `max_bytes` in all.
// Names and schemas can be megabytes long, and a reason is repeated in a result (the
// candidate, its schema verdict, the rejection): quoting them whole multiplied the input.
constexpr std::size_t max_quoted_bytes = 100;
std::string excerpt(std::string_view s, std::size_t max_bytes = max_quoted_bytes);

}  // namespace toolgram::detail
