// Profile files, for readers inside toolgram that have the file's text already: coverage
// reads a corpus case's profile_file itself (a regular file inside the case's folder,
// checked before it is opened) and hands the text here. And the settings an input line
// may give, read with the same checks.
#pragma once

#include <string>
#include <utility>
#include <vector>
#include <string_view>

#include "toolgram/toolgram.hpp"

namespace toolgram {

// What load_profile_file does once it has read the file: errors start with `path`.
Profile profile_from_file_text(std::string_view text, const std::string& path);

namespace detail {

// A chat-template signature a file declares (match_chat_template; a record's
// TemplateSignature, with owned text).
struct FileSignature {
    std::string family;
    std::vector<std::string> all, none;
    std::vector<std::pair<std::string, std::string>> engines;  // (engine, parser name)
    std::string note;
};

// What a file says of its family beside the profile: the engines' parser names for it
// (each resolving to the file's profile) and its chat-template signatures. Read from
// every file, used for the shipped ones (grammars/declared/), which are built-in profiles.
struct FileRecord {
    std::vector<ProfileAlias> engines;
    std::vector<FileSignature> signatures;
};

// profile_from_file_text, keeping the record too.
Profile profile_from_file_text(std::string_view text, const std::string& path, FileRecord& record);

}  // namespace detail

// The settings one input may set for itself (a coverage input's or a `parse --jsonl` line's
// "settings" object), each checked as a profile file's are: an unknown key, a wrong type or
// an unknown value throws std::invalid_argument naming it (`settings.reasoning_start: …`).
// What the object leaves out stays the profile's.
void apply_input_settings(Profile& p, const json& settings);

}  // namespace toolgram
