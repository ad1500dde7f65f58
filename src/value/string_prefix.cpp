// The decided prefix of a string argument still being written (see string_prefix.hpp).
#include "value/string_prefix.hpp"

#include <cstdint>

#include "text/ascii.hpp"
#include "value/json_string_scan.hpp"
#include "text/utf8.hpp"
#include "value/value_reader.hpp"

namespace toolgram::detail {

namespace {

bool is_layout_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Whether a '<' followed by `c` may begin one of a markup syntax's tokens: every one the
// families write is `</…`, `<name…`, `<|…|>`, `<｜…｜>` (a byte >= 0x80 here) or `<![CDATA[`.
// Code's `<=`, `< `, `<<` or `<-` cannot.
bool may_begin_token(char c) {
    const auto u = static_cast<unsigned char>(c);
    return c == '/' || c == '|' || c == '!' || c == '?' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           u >= 0x80;
}

// Whether text[i, end) could still become `\uXXXX` (a high surrogate's partner): only
// hex digits so far, after the backslash and 'u' where they have arrived.
bool may_become_escape(std::string_view text, std::size_t i) {
    for (std::size_t k = i; k < text.size() && k < i + 6; ++k) {
        const char c = text[k];
        if (k == i ? c != '\\' : k == i + 1 ? c != 'u' : !is_hex(c)) return false;
    }
    return true;
}

// Whether text[i, end) is the start of a well-formed UTF-8 character that the end cuts:
// some continuation makes it whole. (The second byte's range depends on the lead byte, so
// each range's first value is tried there.)
bool cut_character(std::string_view text, std::size_t i) {
    const std::size_t have = text.size() - i;
    if (have >= 4) return false;
    for (const unsigned char second : {0x80, 0x90, 0xA0}) {
        char whole[4];
        for (std::size_t k = 0; k < 4; ++k)
            whole[k] = k < have ? text[i + k] : static_cast<char>(k == 1 ? second : 0x80);
        const std::size_t len = valid_utf8_length(std::string_view(whole, 4), 0);
        if (len > have) return true;
    }
    return false;
}

}  // namespace

StringPrefix decode_string_prefix(std::string_view text, std::size_t pos, std::string& decoded) {
    using Stop = StringPrefix::Stop;
    const std::size_t n = text.size();
    std::size_t i = pos;
    auto stop = [&](Stop why) { return StringPrefix{why, i}; };
    while (i < n) {
        const std::size_t run = static_cast<std::size_t>(json_string_stop(text.data() + i, text.data() + n) - text.data());
        decoded.append(text.data() + i, run - i);
        i = run;
        if (i >= n) break;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '"') return stop(Stop::closed);
        if (c < 0x20) {  // kept raw by the lenient reader (a repair it accepts)
            decoded += static_cast<char>(c);
            ++i;
            continue;
        }
        if (c >= 0x80) {
            if (const std::size_t len = valid_utf8_length(text, i)) {
                decoded.append(text.data() + i, len);
                i += len;
                continue;
            }
            // Not a whole character: one the end cuts waits, anything else is not UTF-8.
            return stop(cut_character(text, i) ? Stop::more : Stop::unsupported);
        }
        // A backslash.
        if (i + 1 >= n) return stop(Stop::more);
        const char e = text[i + 1];
        if (const char plain = json_escaped_char(e)) {
            decoded += plain;
            i += 2;
            continue;
        }
        if (e != 'u') return stop(Stop::unsupported);
        std::uint32_t cp = 0;
        if (i + 6 > n) return stop(may_become_escape(text, i) ? Stop::more : Stop::unsupported);
        if (!read_hex(text, i + 2, 4, cp)) return stop(Stop::unsupported);
        std::size_t len = 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low = 0;
            if (i + 12 > n) return stop(may_become_escape(text, i + 6) ? Stop::more : Stop::unsupported);
            if (text[i + 6] != '\\' || text[i + 7] != 'u' || !read_hex(text, i + 8, 4, low) || low < 0xDC00 || low > 0xDFFF)
                return stop(Stop::unsupported);  // a lone surrogate: the reader replaces it, and says so
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            len = 12;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return stop(Stop::unsupported);
        }
        append_utf8(cp, decoded);
        i += len;
    }
    return stop(Stop::more);
}

StringPrefix decode_text_prefix(std::string_view text, std::size_t pos, TextLayout layout, bool& at_start,
                                std::string& decoded) {
    using Stop = StringPrefix::Stop;
    const std::size_t n = text.size();
    std::size_t i = pos;
    if (at_start) {
        if (layout.strip_blanks) {
            while (i < n && is_layout_blank(text[i])) ++i;
            if (i == n) return {Stop::more, pos};
        } else if (layout.newline_each_side) {
            if (i == n || (text[i] == '\r' && i + 1 == n)) return {Stop::more, pos};
            if (text[i] == '\n') ++i;
            else if (text[i] == '\r' && text[i + 1] == '\n') i += 2;
        }
        at_start = false;
    }
    // Up to the first '<' that may begin a token, in whole characters.
    Stop stop = Stop::more;
    std::size_t e = text.find('<', i);
    while (e != std::string_view::npos) {
        if (e + 1 == n) break;  // what follows decides: wait
        if (may_begin_token(text[e + 1])) {
            stop = Stop::unsupported;
            break;
        }
        e = text.find('<', e + 1);
    }
    if (e == std::string_view::npos) e = n;
    // (A character cannot hold the '<' at e, so the check may stop there.) The value may
    // be a whole file, decoded again when a following stops at a '<' that was text.
    if (const std::size_t k = i + valid_utf8_prefix(text.substr(i, e - i)); k < e) {
        stop = e == n && cut_character(text, k) ? Stop::more : Stop::unsupported;
        e = k;
    }
    // What the layout may yet remove at the value's end waits for what follows it.
    std::size_t keep = e;
    if (layout.strip_blanks) {
        while (keep > i && is_layout_blank(text[keep - 1])) --keep;
    } else if (keep > i && text[keep - 1] == '\n') {
        --keep;
        if (keep > i && text[keep - 1] == '\r') --keep;
    } else if (keep > i && text[keep - 1] == '\r') {
        --keep;
    }
    decoded.append(text.data() + i, keep - i);
    return {stop, keep};
}

}  // namespace toolgram::detail
