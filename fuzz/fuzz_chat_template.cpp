// Harness for telling a chat template's profile (src/profiles/chat_template.cpp): the file forms
// (chat_template_from_file, as a .jinja and as a .json) and match_chat_template on the
// text itself and on whatever template a JSON input held.
//
// Oracles (abort on violation):
//  - nothing throws but chat_template_from_file's std::invalid_argument, whose message is
//    not empty; the same input read twice gives the same answer;
//  - the verdict and its fields agree: matched names a profile, the winner first; a tie
//    names at least two candidates and no profile; not_read_yet has a first candidate with
//    no profile; unknown has none;
//  - the evidence is true: every marker reported is in the text, at the line reported
//    (its first occurrence is at or before that line), and every candidate shows each
//    of its markers.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "toolgram/chat_template.hpp"

namespace {

using toolgram::TemplateMatch;
using toolgram_fuzz::fail;

std::string describe(const TemplateMatch& m) {
    std::string out = std::to_string(static_cast<int>(m.verdict)) + " " + m.profile + " " + m.explanation;
    for (const auto& c : m.candidates) {
        out += "|" + c.profile + ":" + c.family;
        for (const auto& f : c.found) out += "," + f.marker + "@" + std::to_string(f.line) + f.block;
    }
    for (const auto& s : m.seen) out += ";" + s.marker + "@" + std::to_string(s.line);
    return out;
}

void check_marker(std::string_view text, const toolgram::TemplateMarker& f) {
    const std::size_t at = text.find(f.marker);
    if (at == std::string_view::npos) fail("evidence", "a marker reported is not in the text");
    const std::size_t first_line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    const std::size_t lines = 1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    if (f.line < first_line || f.line > lines) fail("evidence", "a marker's line is not where it stands");
    if (f.in_tool_call_branch && f.block.empty()) fail("evidence", "a tool-call branch without its block");
}

void check(std::string_view text) {
    const TemplateMatch m = toolgram::match_chat_template(text);
    if (describe(m) != describe(toolgram::match_chat_template(text))) fail("determinism", "two answers for one text");
    if (m.explanation.empty()) fail("verdict", "no explanation");
    using V = TemplateMatch::Verdict;
    switch (m.verdict) {
        case V::matched:
            if (m.profile.empty() || m.candidates.empty() || m.candidates.front().profile != m.profile)
                fail("verdict", "matched without its profile first");
            break;
        case V::ambiguous:
            if (!m.profile.empty() || m.candidates.size() < 2) fail("verdict", "a tie of fewer than two");
            break;
        case V::not_read_yet:
            if (!m.profile.empty() || m.candidates.empty() || !m.candidates.front().profile.empty())
                fail("verdict", "not read yet with a profile");
            break;
        case V::unknown:
            if (!m.profile.empty() || !m.candidates.empty()) fail("verdict", "unknown with candidates");
            break;
    }
    for (const auto& c : m.candidates) {
        if (c.found.empty()) fail("evidence", "a candidate with no marker found");
        for (const auto& f : c.found) check_marker(text, f);
    }
    for (const auto& s : m.seen) check_marker(text, s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check(text);
    for (const bool json_file : {false, true}) {
        try {
            const toolgram::ChatTemplateText t = toolgram::chat_template_from_file(text, json_file);
            if (t.from.empty()) fail("file", "a template from nowhere");
            check(t.text);
        } catch (const std::invalid_argument& e) {
            if (std::string_view(e.what()).empty()) fail("file", "an error without a message");
        }
    }
    return 0;
}
