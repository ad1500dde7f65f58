// UTF-8 validation and replacement (see utf8.hpp). The decoder follows the table of
// well-formed byte sequences in the Unicode standard (§3.9, table 3-7), which rules out
// overlong forms, surrogates and code points past U+10FFFF by the ranges of the second byte.
#include "text/utf8.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

namespace toolgram::detail {
namespace {

bool in(unsigned char c, unsigned char lo, unsigned char hi) { return c >= lo && c <= hi; }

// At s[i]: the length of the well-formed character there (`valid` true), or the length of
// the maximal subpart of an ill-formed one (`valid` false, at least 1 byte).
std::size_t step(std::string_view s, std::size_t i, bool& valid) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    valid = true;
    if (b0 < 0x80) return 1;
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (in(b0, 0xC2, 0xDF)) {
        need = 1;
    } else if (b0 == 0xE0) {
        need = 2;
        lo = 0xA0;  // E0 80..9F would be overlong
    } else if (in(b0, 0xE1, 0xEC) || in(b0, 0xEE, 0xEF)) {
        need = 2;
    } else if (b0 == 0xED) {
        need = 2;
        hi = 0x9F;  // ED A0..BF would be a surrogate
    } else if (b0 == 0xF0) {
        need = 3;
        lo = 0x90;  // F0 80..8F would be overlong
    } else if (in(b0, 0xF1, 0xF3)) {
        need = 3;
    } else if (b0 == 0xF4) {
        need = 3;
        hi = 0x8F;  // F4 90.. would be past U+10FFFF
    } else {
        valid = false;  // 80..C1, F5..FF never start a character
        return 1;
    }
    std::size_t n = 1;
    for (std::size_t k = 0; k < need; ++k, ++n) {
        if (i + n >= s.size()) {
            valid = false;
            return n;
        }
        const auto b = static_cast<unsigned char>(s[i + n]);
        const bool ok = k == 0 ? in(b, lo, hi) : in(b, 0x80, 0xBF);
        if (!ok) {
            valid = false;
            return n;
        }
    }
    return n;
}

}  // namespace

std::size_t valid_utf8_length(std::string_view s, std::size_t i) {
    bool valid = false;
    const std::size_t n = step(s, i, valid);
    return valid ? n : 0;
}

std::size_t utf8_sequence(std::string_view s, std::size_t i, bool& valid) { return step(s, i, valid); }

std::size_t encode_utf8(std::uint32_t cp, char* out) {
    if (cp < 0x80) {
        out[0] = static_cast<char>(cp);
        return 1;
    }
    if (cp < 0x800) {
        out[0] = static_cast<char>(0xC0 | (cp >> 6));
        out[1] = static_cast<char>(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = static_cast<char>(0xE0 | (cp >> 12));
        out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out[2] = static_cast<char>(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = static_cast<char>(0xF0 | (cp >> 18));
    out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[3] = static_cast<char>(0x80 | (cp & 0x3F));
    return 4;
}

void append_utf8(std::uint32_t cp, std::string& out) {
    char b[4];
    out.append(b, encode_utf8(cp, b));
}

std::size_t valid_utf8_prefix(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        // ASCII, the bulk of most text, eight bytes at a time: none has its high bit set.
        // (Every string of a call's arguments is checked here, so a long one was read a
        // byte and a function call at a time.)
        std::uint64_t word = 0;
        while (i + sizeof word <= s.size()) {
            std::memcpy(&word, s.data() + i, sizeof word);
            if (word & 0x8080808080808080ULL) break;
            i += sizeof word;
        }
        if (i >= s.size()) break;
        bool valid = false;
        const std::size_t n = step(s, i, valid);
        if (!valid) return i;
        i += n;
    }
    return s.size();
}

bool is_valid_utf8(std::string_view s) { return valid_utf8_prefix(s) == s.size(); }

std::string to_valid_utf8(std::string_view s) {
    // Sized first, so a long string costs its result once: grown by appends, the buffer
    // doubled past the input's size and, while it moved, held both.
    std::size_t size = 0;
    for (std::size_t i = 0; i < s.size();) {
        bool valid = false;
        const std::size_t n = step(s, i, valid);
        size += valid ? n : 3;
        i += n;
    }
    std::string out;
    out.reserve(size);
    for (std::size_t i = 0; i < s.size();) {
        bool valid = false;
        const std::size_t n = step(s, i, valid);
        if (valid) out.append(s.substr(i, n));
        else out += "\xEF\xBF\xBD";
        i += n;
    }
    return out;
}

bool make_valid_utf8(nlohmann::ordered_json& value, std::string* merged_key) {
    using json = nlohmann::ordered_json;
    bool changed = false;
    std::vector<json*> pending{&value};
    while (!pending.empty()) {
        json* v = pending.back();
        pending.pop_back();
        if (v->is_string()) {
            auto& s = v->get_ref<std::string&>();
            if (!is_valid_utf8(s)) {
                s = to_valid_utf8(s);
                changed = true;
            }
        } else if (v->is_array()) {
            for (auto& e : *v) pending.push_back(&e);
        } else if (v->is_object()) {
            bool keys_valid = true;
            for (auto it = v->begin(); it != v->end() && keys_valid; ++it) keys_valid = is_valid_utf8(it.key());
            if (!keys_valid) {
                // Keys cannot be renamed in place: rebuild in the same order. Two keys that
                // become equal keep the first value, as a duplicate key would, and are
                // reported. Appended directly, repeats found through a set: ordered_json's
                // own emplace searches linearly, quadratic on a hostile object.
                json fixed = json::object();
                auto& members = fixed.get_ref<json::object_t&>();
                std::unordered_set<std::string> seen;
                seen.reserve(v->size());
                for (auto it = v->begin(); it != v->end(); ++it) {
                    std::string key = to_valid_utf8(it.key());
                    if (!seen.insert(key).second) {
                        if (merged_key && merged_key->empty()) *merged_key = std::move(key);
                        continue;
                    }
                    members.emplace_back(std::move(key), std::move(*it));
                }
                *v = std::move(fixed);
                changed = true;
            }
            for (auto& e : *v) pending.push_back(&e);
        }
    }
    return changed;
}

std::string excerpt(std::string_view s, std::size_t max_bytes) {
    if (s.size() <= max_bytes) return std::string(s);
    constexpr std::string_view ellipsis = "...";
    std::size_t cut = max_bytes > ellipsis.size() ? max_bytes - ellipsis.size() : 0;
    // Back to the first byte of the character the cut would split.
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    std::string out(s.substr(0, cut));
    out += ellipsis;
    return out;
}

}  // namespace toolgram::detail
