// Profile files, for readers inside toolgram that have the file's text already: coverage
// reads a corpus case's profile_file itself (a regular file inside the case's folder,
// checked before it is opened) and hands the text here.
#pragma once

#include <string>
#include <string_view>

#include "toolgram/toolgram.hpp"

namespace toolgram {

// What load_profile_file does once it has read the file: errors start with `path`.
Profile profile_from_file_text(std::string_view text, const std::string& path);

}  // namespace toolgram
