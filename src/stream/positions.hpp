// Two positions every part of the stream uses: npos (none) and far (an end that is not
// known yet: a region still open).
#pragma once

#include <cstddef>
#include <string_view>

namespace toolgram::detail::streaming {
inline constexpr std::size_t npos = std::string_view::npos;
inline constexpr std::size_t far = static_cast<std::size_t>(-1);  // an end not known yet
}  // namespace toolgram::detail::streaming
