// What every part of the stream uses: two positions, npos (none) and far (an end that is
// not known yet: a region still open), and two classes of byte.
#pragma once

#include <cctype>
#include <cstddef>
#include <string_view>

namespace toolgram::detail::streaming {
inline constexpr std::size_t npos = std::string_view::npos;
inline constexpr std::size_t far = static_cast<std::size_t>(-1);  // an end not known yet

inline bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
}  // namespace toolgram::detail::streaming
