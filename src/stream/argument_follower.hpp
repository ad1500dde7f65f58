// The stream's argument follower: the open call's last argument, a JSON string (or a
// markup family's parameter text) still being written, decoded as its bytes arrive so
// that each decided piece is sent at once instead of reading the whole block again
// ("Following a string argument", stream_calls.cpp).
//
// Invariants: while follows(at), every byte of the value before pos() was decoded, and
// the bytes from there on are the value's still to come; the looks for a value's opening
// quote and for a tag's '>' see each byte once (a value followed is skipped by both);
// no string opens before string_end(), the end of the last string followed to its close.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "stream/basics.hpp"
#include "value/string_prefix.hpp"

namespace toolgram::detail::streaming {

class ArgumentFollower {
public:
    // Whether the value of the block at `at` is being followed.
    bool follows(std::size_t at) const { return at_ == at; }
    void stop() { at_ = npos; }
    // Follows the block at `at`'s JSON string from `pos` (its body's next byte).
    void follow_string(std::size_t at, std::size_t pos);
    // Follows its parameter text from `pos`, written with `layout`; `at_start`: the
    // text's leading layout is not known yet.
    void follow_text(std::size_t at, std::size_t pos, TextLayout layout, bool at_start);
    // Decodes into `decoded` what arrived of the value since the last call. False once
    // the value ended or broke: the following is over, and the block's reads take over.
    bool advance(std::string_view text, std::string& decoded);

    // Whether a quote that opens a value (after a ':' or '=', blanks aside) arrived in
    // the block at `at` since the last look.
    bool value_quote_arrived(std::string_view text, std::size_t at);
    // Whether a tag's '>' arrived in the block at `at` since the last look.
    bool tag_end_arrived(std::string_view text, std::size_t at);
    // Where the last string followed to its end ends: no read need cut the text before
    // this (provisional_at_breaks), nor look for a string opening before it.
    std::size_t string_end() const { return string_end_; }

    // What stands before a value's opening quote, blanks aside: a JSON member's ':', or a
    // Python keyword argument's '=' (Python calls, whose plain strings read the same).
    static bool opens_value(char c) { return c == ':' || c == '='; }

private:
    std::size_t at_ = npos;  // the block's begin; npos: none followed
    std::size_t pos_ = 0;    // the first raw byte of the value not decoded yet
    // A named parameter's text in markup rather than a JSON string, and its layout.
    bool text_ = false;
    TextLayout layout_;
    bool at_start_ = false;       // the text's leading layout is not known yet
    std::size_t quote_from_ = 0;  // value_quote_arrived looked at the text before this
    std::size_t tag_from_ = 0;    // tag_end_arrived, likewise
    std::size_t string_end_ = 0;
};

}  // namespace toolgram::detail::streaming
