// Helpers the one-shot parse and the stream share (see parser_impl.hpp).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

#include "io/json_writer.hpp"
#include "scan/needle_search.hpp"
#include "combinator/parser_impl.hpp"

namespace toolgram::detail {

// Where `needle` first occurs, ignoring ASCII case; npos when it does not.
std::size_t find_ci(std::string_view hay, std::string_view needle) {
    if (needle.empty() || needle.size() > hay.size()) return std::string_view::npos;
    if (needle.size() > long_needle) return LinearNeedle(needle, true).find(hay);
    // ASCII folding inline (std::tolower goes through the locale on every byte), and a
    // memchr jump to each byte that can start the needle, in either case.
    auto fold = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c; };
    const char lower = fold(needle[0]);
    const char upper = lower >= 'a' && lower <= 'z' ? static_cast<char>(lower - ('a' - 'A')) : lower;
    const std::size_t last = hay.size() - needle.size();  // the last possible start
    auto next = [&](char c, std::size_t from) {
        if (from > last) return std::string_view::npos;
        const void* p = std::memchr(hay.data() + from, c, last + 1 - from);
        return p ? static_cast<std::size_t>(static_cast<const char*>(p) - hay.data()) : std::string_view::npos;
    };
    std::size_t at_lower = next(lower, 0);
    std::size_t at_upper = upper != lower ? next(upper, 0) : std::string_view::npos;
    for (;;) {
        const std::size_t i = std::min(at_lower, at_upper);
        if (i == std::string_view::npos) return std::string_view::npos;
        std::size_t k = 1;
        while (k < needle.size() && fold(hay[i + k]) == fold(needle[k])) ++k;
        if (k == needle.size()) return i;
        if (i == at_lower) at_lower = next(lower, i + 1);
        else at_upper = next(upper, i + 1);
    }
}

const std::string* wrapper_key(const json& arguments, const json* schema) {
    if (!arguments.is_object() || arguments.size() != 1) return nullptr;
    const std::string& key = arguments.begin().key();
    // The call objects' arguments keys (`input` is Anthropic's), and the elements XML
    // writes the arguments in (`<param>{…}</param>`).
    static constexpr std::string_view wrappers[] = {"arguments", "parameters", "params", "args",
                                                    "input",     "param",      "parameter"};
    if (std::find(std::begin(wrappers), std::end(wrappers), key) == std::end(wrappers)) return nullptr;
    if (schema && schema->is_object())
        if (auto props = schema->find("properties"); props != schema->end() && props->is_object() && props->contains(key))
            return nullptr;
    return &key;
}

bool type_text_arguments(Candidate& c, const json* schema, std::size_t max_depth) {
    if (!schema) return true;  // no tools: nothing to type from, keep the text
    const json* props = nullptr;
    if (schema->is_object())
        if (auto p = schema->find("properties"); p != schema->end() && p->is_object()) props = &*p;
    bool too_deep = false;
    // In place: rebuilding the object through ordered_json's operator[] would search it
    // linearly once per key.
    for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it) {
        if (!it->is_string()) continue;
        const json* prop = nullptr;
        if (props)
            if (auto p = props->find(it.key()); p != props->end()) prop = &*p;
        // The text is moved in and, typed as a string, back out: a long value is not copied.
        it.value() = detail::type_text_value(std::move(it.value().get_ref<std::string&>()), prop, it.key(), c.notes,
                                             max_depth, &too_deep,
                                             c.text_is_quoted, c.text_may_be_escaped_json,
                                             schema);
    }
    return !too_deep;
}

// Joins two pieces of content so that removed syntax leaves no stray blank lines: the
// whitespace at a cut becomes the strongest break found on either side of it (a blank
// line, a newline, or a space), never the two sides added together.
void append_piece(std::string& out, std::string_view piece) {
    std::size_t head = 0;
    while (head < piece.size() && std::isspace(static_cast<unsigned char>(piece[head]))) ++head;
    std::size_t tail = out.size();
    while (tail > 0 && std::isspace(static_cast<unsigned char>(out[tail - 1]))) --tail;
    const int s = std::max(break_strength(std::string_view(out).substr(tail)), break_strength(piece.substr(0, head)));
    out.resize(tail);
    if (tail > 0) out += join_break(s);  // leading whitespace of the content is trimmed anyway
    out.append(piece.substr(head));
}

std::string trim_copy(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

// Text of [begin, end) without the removed spans (sorted, non-overlapping), tidied.
std::string text_without(std::string_view text, std::size_t begin, std::size_t end,
                         const std::vector<std::pair<std::size_t, std::size_t>>& removed) {
    std::string out;
    if (end <= begin) return out;
    // The pieces kept, in order: the gaps between the removed spans inside [begin, end).
    auto each_piece = [&](auto&& piece) {
        std::size_t pos = begin;
        for (const auto& [b, e] : removed) {
            if (e <= pos || b >= end) continue;
            if (b > pos) piece(pos, b);
            pos = std::max(pos, e);
        }
        if (pos < end) piece(pos, end);
    };
    // One allocation, however many pieces, of what they hold (an output that is mostly
    // calls keeps little of its span); joins add at most two bytes a piece.
    std::size_t kept = 0, pieces = 0;
    each_piece([&](std::size_t from, std::size_t to) { kept += to - from, ++pieces; });
    out.reserve(kept + 2 * pieces);
    each_piece([&](std::size_t from, std::size_t to) { append_piece(out, text.substr(from, to - from)); });
    // Trimmed in place: a copy of a whole output's content would cost a second pass and
    // twice its memory.
    out.resize(out.find_last_not_of(" \t\r\n") + 1);  // npos + 1 == 0: all blank
    out.erase(0, out.find_first_not_of(" \t\r\n"));
    return out;
}

void text_without_in_place(std::string& text, const std::vector<std::pair<std::size_t, std::size_t>>& removed) {
    auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    std::size_t w = 0;  // written so far: text[0, w) is the content up to here
    // append_piece, over the buffer: a piece is [from, to) with from >= w.
    auto piece = [&](std::size_t from, std::size_t to) {
        std::size_t head = from;
        while (head < to && is_space(text[head])) ++head;
        std::size_t tail = w;
        while (tail > 0 && is_space(text[tail - 1])) --tail;
        const int s = std::max(break_strength(std::string_view(text).substr(tail, w - tail)),
                               break_strength(std::string_view(text).substr(from, head - from)));
        // The join is never longer than the whitespace on the side that gave its strength,
        // so it ends at or before `head`: nothing of the piece's text is written over.
        const char* join = tail == 0 ? "" : join_break(s);
        const std::size_t join_len = std::strlen(join);
        std::memcpy(text.data() + tail, join, join_len);
        std::memmove(text.data() + tail + join_len, text.data() + head, to - head);
        w = tail + join_len + (to - head);
    };
    const std::size_t n = text.size();
    std::size_t pos = 0;
    for (const auto& [b, e] : removed) {
        if (e <= pos || b >= n) continue;
        if (b > pos) piece(pos, b);
        pos = std::max(pos, e);
    }
    if (pos < n) piece(pos, n);
    text.resize(w);
    text.resize(text.find_last_not_of(" \t\r\n") + 1);  // npos + 1 == 0: all blank
    text.erase(0, text.find_first_not_of(" \t\r\n"));
}

std::string arguments_text(const json& arguments) {
    return compact_json(arguments);  // dump's bytes (compact, replace handler), several times faster
}

}  // namespace toolgram::detail
