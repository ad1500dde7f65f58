// The profile files toolgram ships (grammars/declared/NAME.json), as compiled into the
// library by cmake/embed_profile_files.cmake, which writes the definition. profiles.cpp
// loads them by name after the compiled-in profiles; nothing else reads this table.
#pragma once

#include <string_view>
#include <vector>

namespace toolgram::detail {

struct ShippedProfileFile {
    std::string_view name;  // the file's stem: what --profile takes
    std::string_view path;  // relative to the source tree, for messages and listings
    std::string_view text;  // the file as written
};

// Sorted by name.
const std::vector<ShippedProfileFile>& shipped_profile_file_texts();

}  // namespace toolgram::detail
