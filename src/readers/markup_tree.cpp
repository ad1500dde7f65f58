// Entity decoding for markup text values (see markup_tree.hpp).
#include "readers/markup_tree.hpp"

#include <cstdlib>

namespace toolgram::detail {

std::string decode_entities(std::string_view text) {
    if (text.find('&') == std::string_view::npos) return std::string(text);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '&') {
            out += text[i];
            continue;
        }
        const std::size_t semi = text.find(';', i);
        if (semi == std::string_view::npos || semi - i > 10) {
            out += '&';
            continue;
        }
        const std::string_view ent = text.substr(i + 1, semi - i - 1);
        std::string rep;
        if (ent == "lt") rep = "<";
        else if (ent == "gt") rep = ">";
        else if (ent == "amp") rep = "&";
        else if (ent == "quot") rep = "\"";
        else if (ent == "apos") rep = "'";
        else if (ent.size() > 1 && ent[0] == '#') {
            const bool hex = ent[1] == 'x' || ent[1] == 'X';
            const std::string digits(ent.substr(hex ? 2 : 1));
            char* endp = nullptr;
            const unsigned long cp = std::strtoul(digits.c_str(), &endp, hex ? 16 : 10);
            if (!digits.empty() && *endp == '\0' && cp > 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
                if (cp < 0x80) rep += static_cast<char>(cp);
                else if (cp < 0x800) {
                    rep += static_cast<char>(0xC0 | (cp >> 6));
                    rep += static_cast<char>(0x80 | (cp & 0x3F));
                } else if (cp < 0x10000) {
                    rep += static_cast<char>(0xE0 | (cp >> 12));
                    rep += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                    rep += static_cast<char>(0x80 | (cp & 0x3F));
                } else {
                    rep += static_cast<char>(0xF0 | (cp >> 18));
                    rep += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
                    rep += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                    rep += static_cast<char>(0x80 | (cp & 0x3F));
                }
            }
        }
        if (rep.empty()) {
            out += '&';
            continue;
        }
        out += rep;
        i = semi;
    }
    return out;
}

}  // namespace toolgram::detail
