// The stream's text assembly helpers: an Assembler joins the pieces of content (or of one
// reasoning block) as the one-shot parse joins them, a byte at a time; spans to remove
// from the text wait in a SpanQueue; a UTF-8 sequence cut by a chunk's end is held back.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "combinator/parser_impl.hpp"
#include "stream/basics.hpp"

namespace toolgram::detail::streaming {

// detail::append_piece, a byte at a time: the same text for the same pieces, however
// they arrive. Only text up to the last non-space byte is ever sent, because trailing
// whitespace may still be merged with the next piece or trimmed at the end.
class Assembler {
public:
    void add(std::string_view t) {
        for (char ch : t) {
            ++piece_bytes_;
            if (in_head_) {
                if (is_space(ch)) {
                    head_ += ch;
                    continue;
                }
                join();
            }
            out_ += ch;
            if (!is_space(ch)) settled_ = out_.size();
        }
    }
    // The next text starts a new piece (a span was removed before it).
    void cut() {
        if (in_head_ && piece_bytes_ > 0) join();  // a piece of only whitespace
        in_head_ = true;
        piece_bytes_ = 0;
    }
    // Text that can be sent: up to the last non-space byte.
    std::string_view take() {
        // What was sent is never read again but for its last byte (a non-space, which
        // tells join that text came before): once it is most of the buffer, it goes, so
        // the assembler holds what waits to be sent, not the whole output.
        if (sent_ > compact_at && sent_ * 2 > out_.size()) {
            const std::size_t drop = sent_ - 1;
            out_.erase(0, drop);
            sent_ -= drop;
            settled_ -= drop;
        }
        std::string_view t(out_.data() + sent_, settled_ - sent_);
        sent_ = settled_;
        return t;
    }
    bool any_sent() const { return sent_ > 0; }
    // Gives back the room a long run of text left behind (finish, before the one-shot parse).
    void shrink() {
        out_.shrink_to_fit();
        head_.shrink_to_fit();
    }

private:
    static constexpr std::size_t compact_at = 64 * 1024;
    void join() {
        std::size_t tail = out_.size();
        while (tail > 0 && is_space(out_[tail - 1])) --tail;
        const int s = std::max(detail::break_strength(std::string_view(out_).substr(tail)), detail::break_strength(head_));
        out_.resize(tail);
        if (tail > 0) out_ += detail::join_break(s);
        head_.clear();
        in_head_ = false;
    }

    std::string out_;
    std::string head_;
    bool in_head_ = true;
    std::size_t piece_bytes_ = 0;
    std::size_t settled_ = 0, sent_ = 0;
};

using Span = std::pair<std::size_t, std::size_t>;
using SpanQueue = std::priority_queue<Span, std::vector<Span>, std::greater<>>;

// The length of `s` less a UTF-8 sequence cut short at its end (a lead byte followed by
// fewer continuation bytes than it announces).
inline std::size_t complete_utf8_prefix(std::string_view s) {
    const std::size_t n = s.size();
    for (std::size_t back = 1; back <= 4 && back <= n; ++back) {
        const auto b = static_cast<unsigned char>(s[n - back]);
        if (b < 0x80) return n;
        if (b < 0xC0) continue;  // a continuation byte: look further back for its lead
        const std::size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        return back < need ? n - back : n;
    }
    return n;
}

}  // namespace toolgram::detail::streaming
