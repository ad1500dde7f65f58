// The strict fast path of the lenient value grammar: one JSON value read in one pass.
//
// Most arguments models write are plain JSON. The lenient rules (grammars/common/lenient_value.hpp)
// read them a rule match at a time and look at every string byte three times: the rule
// scans it, the action decodes it, and phase two checks its UTF-8. This reader does what
// strict JSON allows, and nothing more, in one pass: a string's plain bytes are skipped
// eight at a time, appended in one piece, and their UTF-8 checked on the way.
//
// It declines (returns 0, having built nothing the caller keeps) at the first thing
// strict JSON does not allow, and wherever the answer would depend on the end of the text
// (a number or literal touching it, a value it cuts): the lenient rules then read the
// value from its start, with their repairs, healing and errors. One end it may take, when
// the caller asks: the text ends where closers were due, right after a complete value or
// a container's opener (not after a ',' or a ':'), which the lenient rules heal by
// supplying the closers; so does this reader, and says so. A stream reads blocks still
// being written, which end just so, again and again: those reads then take this pass too.
// So for any text this reader takes, the lenient rules give the same value, span and
// healing with no repair: a differential test and a fuzz oracle hold it to that
// (tests/unit/strict_value_test.cpp, fuzz/fuzz_value.cpp). Declining costs at most one extra read of the value, and
// only the outermost value is tried (lenient_value.hpp `strict_value`), so time stays linear.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

namespace toolgram::detail {

// How far the closing quote of the JSON string that `p` is inside stands from `p`: the
// first quote no odd run of backslashes escapes (backslashes before `p` are not looked
// at), or 0 when `end` comes first. The reader sizes a string with escapes by it before
// decoding into that room, so it must never fall short.
std::size_t raw_length(const char* p, const char* end);

// Reads one strict JSON value starting at `begin`, not looking at `end` or past it. On
// success: the bytes the value took, with the value in `out` and every string in it valid
// UTF-8. On decline: 0. Containers nest at most `max_depth` deep (the lenient rules raise
// past that; this declines). With `healed` given, a value whose closers the end of the
// text cut off is taken too, to the end, and *healed is set (false otherwise).
std::size_t read_strict_value(const char* begin, const char* end, std::size_t max_depth, nlohmann::ordered_json& out,
                              bool* healed = nullptr);

}  // namespace toolgram::detail
