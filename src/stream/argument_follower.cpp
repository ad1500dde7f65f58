// The stream's argument follower (argument_follower.hpp).
#include "stream/argument_follower.hpp"

#include <algorithm>

namespace toolgram::detail::streaming {

void ArgumentFollower::follow_string(std::size_t at, std::size_t pos) {
    at_ = at;
    pos_ = pos;
    text_ = false;
    layout_ = {};
    at_start_ = false;
}

void ArgumentFollower::follow_text(std::size_t at, std::size_t pos, TextLayout layout, bool at_start) {
    at_ = at;
    pos_ = pos;
    text_ = true;
    layout_ = layout;
    at_start_ = at_start;
}

bool ArgumentFollower::advance(std::string_view text, std::string& decoded) {
    const StringPrefix sp =
        text_ ? decode_text_prefix(text, pos_, layout_, at_start_, decoded) : decode_string_prefix(text, pos_, decoded);
    pos_ = sp.end;
    // The bytes followed are a value's own: no quote in them opens a value, no '>' ends
    // a tag. The looks for those after the following ends start past them, not back at
    // the value's start (a whole long argument, looked at in one chunk).
    quote_from_ = std::max(quote_from_, sp.end);
    tag_from_ = std::max(tag_from_, sp.end);
    if (sp.stop == StringPrefix::Stop::more) return true;
    if (sp.stop == StringPrefix::Stop::closed) string_end_ = sp.end + 1;
    at_ = npos;
    return false;
}

bool ArgumentFollower::value_quote_arrived(std::string_view text, std::size_t at) {
    const std::size_t from = std::max(quote_from_, at);
    quote_from_ = text.size();
    for (std::size_t q = text.find('"', from); q != npos; q = text.find('"', q + 1)) {
        std::size_t k = q;
        while (k > at && is_blank(text[k - 1])) --k;
        if (k > at && opens_value(text[k - 1])) return true;
    }
    return false;
}

bool ArgumentFollower::tag_end_arrived(std::string_view text, std::size_t at) {
    const std::size_t from = std::max(tag_from_, at);
    tag_from_ = text.size();
    return text.find('>', from) != npos;
}

}  // namespace toolgram::detail::streaming
