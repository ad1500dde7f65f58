// The decided prefix of a string argument still being written: a JSON string, or a named
// parameter's text in markup.
//
// A stream sends a long string argument (a file's content, a script) as the model writes
// it, not once its call is complete (stream.cpp, "Following a string argument"). That
// needs the string's text as far as the text so far decides it: every plain byte, every
// escape that is whole, every UTF-8 character that is whole, and no more. Anything the
// lenient reader would repair or refuse (an escape JSON does not have, a lone surrogate,
// bytes that are not UTF-8) is not decided here: the caller stops following and leaves
// the string to the block's reader, so what it sent never differs from what that reader
// reads. A parameter's text is decided up to its first '<' that may begin a token (every
// token that may end it is `</…`, `<name…`, `<|…`, `<｜…` or `<![CDATA[`,
// grammars/common/param_value.hpp; code's `<=` or `a < b` is text), less the blanks its family's
// layout may yet remove at its end.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace toolgram::detail {

struct StringPrefix {
    enum class Stop {
        more,        // the text ends (or cuts an escape or a character): wait for more
        closed,      // the string's closing quote is at `end`
        unsupported  // something at `end` is not plain JSON: stop following
    };
    Stop stop = Stop::more;
    std::size_t end = 0;  // the first raw byte not decoded
};

// Decodes the raw content of a JSON string from text[pos] (just past its opening quote,
// or where an earlier call stopped) and appends the decoded text to `decoded`. Raw control
// bytes are taken as they are, as the lenient reader keeps them.
StringPrefix decode_string_prefix(std::string_view text, std::size_t pos, std::string& decoded);

// What of a parameter's text its family writes as layout (params_reader.hpp's
// ValueLayout): a line break on each side, or every blank around it; otherwise one line
// break at its end, when its closer was left out.
struct TextLayout {
    bool newline_each_side = false;
    bool strip_blanks = false;
};

// Decodes a parameter's raw text from text[pos] as far as it is decided and appends it to
// `decoded`. `at_start`: pos is where the value begins, so its leading layout is skipped
// once it is known (and stays true while it is not). Stops before the first '<' that may
// begin a token (`end` is there, or before the blanks held back ahead of it) with
// Stop::unsupported, and likewise at bytes that are not UTF-8; a '<' or a character the
// end cuts waits.
StringPrefix decode_text_prefix(std::string_view text, std::size_t pos, TextLayout layout, bool& at_start,
                                std::string& decoded);

}  // namespace toolgram::detail
