// Compact JSON written straight to a stream, as the CLI prints results.
//
// nlohmann's dump escapes a string a byte at a time through a UTF-8 decoder and returns
// one string holding the whole document: for a result with 64 MB of content that was
// most of `toolgram parse`'s time, and one more copy of the content in memory. This
// writer gives the same bytes as `j.dump(-1, ' ', false, json::error_handler_t::replace)`
// (tests/unit/json_writer_test.cpp holds it to that, and every fuzz harness's output check), copying runs that
// need no escape eight bytes at a time and writing in pieces of bounded size. Numbers,
// and any string that is not valid UTF-8, are written by nlohmann itself; or, for a
// document not made valid yet (the CLI's results), with toolgram's own replacement.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "text/text_digest.hpp"

namespace toolgram::detail {

// Writes `value` to `out` as compact JSON, the bytes nlohmann's compact dump (with the
// replace error handler) gives.
void write_compact_json(std::ostream& out, const nlohmann::ordered_json& value);

// Writes `value` as make_valid_utf8 (utf8.hpp) would make it, then compact JSON: each
// maximal invalid subsequence of a string or key as U+FFFD, the rest as above. For a
// result whose content is most of the input and holds invalid bytes, the valid copy
// make_valid_utf8 would build beside it is never made. Keys made equal by the
// replacement are written as they stand (make_valid_utf8 would merge them): for
// documents whose keys are valid, as results' are.
void write_compact_json_made_valid(std::ostream& out, const nlohmann::ordered_json& value);

// The same into a string.
std::string compact_json(const nlohmann::ordered_json& value);

// The same past `prefix`: when the compact JSON of `value` begins with the text `prefix`
// digests, the bytes after it, else nothing. The stream checks what it sent of a call
// against the call as finally read this way, without writing the whole call's JSON again
// beside what it sent (for a long argument that is as many fresh bytes, whose first touch
// costs more than the writing) and without keeping what it sent.
std::optional<std::string> compact_json_past(const nlohmann::ordered_json& value, const TextDigest& prefix);

// The compact JSON of an object whose last member is a string, up to that string's body
// (through its opening quote); nothing for any other value. What a stream has sent of a
// call whose last argument it is following (stream_calls.cpp) is this and then the
// string's body as decoded so far.
std::optional<std::string> compact_json_head(const nlohmann::ordered_json& object);

// compact_json_past for such an object, with what was sent given in its two parts:
// `head` digests compact_json_head(object) and `body` the first bytes of the last
// string's decoded text. When both hold, the bytes past them, else nothing (and the
// caller asks compact_json_past, which may still find the prefix another way). Checking
// the decoded text against a digest costs a fraction of writing it escaped again, which
// was most of the chunk that closes a call with a long argument.
std::optional<std::string> compact_json_past_split(const nlohmann::ordered_json& object, const TextDigest& head,
                                                   const TextDigest& body);

// Appends the body of a JSON string holding `text` (valid UTF-8), without its quotes, as
// compact_json writes it: the stream sends a string argument's text this way, piece by
// piece, and the pieces concatenate to the argument as the whole call's JSON writes it.
void append_json_string_body(std::string& out, std::string_view text);

}  // namespace toolgram::detail
