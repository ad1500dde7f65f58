// ECMA-262 patterns to RE2 (see pattern.hpp). One pass over the pattern; every construct
// is either written in RE2's spelling of the same meaning or refused with its name.
#include "validation/schema/pattern.hpp"

#include <re2/re2.h>

#include <cstdint>
#include <string>

#include "text/ascii.hpp"

namespace toolgram::detail::schema {
namespace {

// ECMA-262 WhiteSpace and LineTerminator, which `\s` matches (RE2's \s is ASCII only), and
// their complement, as bodies of a character class so they can stand inside one too.
constexpr const char* ecma_space =
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
constexpr const char* ecma_non_space =
    "\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}"
    "\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";


std::string hex_escape(std::uint32_t cp) {
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string out;
    do {
        out.insert(out.begin(), digits[cp & 0xF]);
        cp >>= 4;
    } while (cp);
    return "\\x{" + out + "}";
}

class Translator {
public:
    explicit Translator(std::string_view p) : p_(p) {}

    TranslatedPattern run() {
        TranslatedPattern out;
        while (i_ < p_.size() && error_.empty()) in_class_ ? class_char() : plain_char();
        if (error_.empty() && in_class_) error_ = "a character class is not closed";
        if (!error_.empty()) {
            out.error = error_;
            return out;
        }
        out.ok = true;
        out.source = std::move(out_);
        return out;
    }

private:
    void fail(std::string why) {
        if (error_.empty()) error_ = std::move(why);
    }

    // A `{` that begins {n}, {n,} or {n,m} is a quantifier; any other is a literal brace
    // (ECMA-262 annex B), which RE2 must see escaped.
    // Returns the end of the quantifier starting at `at`, or 0.
    std::size_t quantifier_end(std::size_t at) const {
        std::size_t k = at + 1;
        const std::size_t first = k;
        while (k < p_.size() && is_digit(p_[k])) ++k;
        if (k == first) return 0;
        if (k < p_.size() && p_[k] == ',') {
            ++k;
            while (k < p_.size() && is_digit(p_[k])) ++k;
        }
        return k < p_.size() && p_[k] == '}' ? k + 1 : 0;
    }

    void plain_char() {
        const char c = p_[i_];
        switch (c) {
            case '\\': escape(false); return;
            case '.':
                // ECMA's dot stops at every line terminator, RE2's only at \n.
                out_ += "[^\\n\\r\\x{2028}\\x{2029}]";
                ++i_;
                return;
            case '(': group(); return;
            case '[': open_class(); return;
            case '{':
                if (const std::size_t end = quantifier_end(i_)) {
                    out_.append(p_.substr(i_, end - i_));
                    i_ = end;
                } else {
                    out_ += "\\{";
                    ++i_;
                }
                return;
            case '}': out_ += "\\}"; ++i_; return;
            case ']': out_ += "\\]"; ++i_; return;
            default: out_ += c; ++i_; return;
        }
    }

    void group() {
        if (p_.substr(i_, 2) != "(?") {
            out_ += '(';
            ++i_;
            return;
        }
        const std::string_view rest = p_.substr(i_ + 2);
        if (rest.substr(0, 1) == ":") {
            out_ += "(?:";
            i_ += 3;
        } else if (rest.substr(0, 1) == "=" || rest.substr(0, 1) == "!") {
            fail("lookahead (?" + std::string(rest.substr(0, 1)) + "…) is not supported: RE2 runs patterns in linear time");
        } else if (rest.substr(0, 2) == "<=" || rest.substr(0, 2) == "<!") {
            fail("lookbehind (?" + std::string(rest.substr(0, 2)) + "…) is not supported: RE2 runs patterns in linear time");
        } else if (rest.substr(0, 1) == "<" || rest.substr(0, 2) == "P<") {
            // A named group: RE2 of this vintage spells it (?P<name>…).
            const std::size_t name_at = i_ + 2 + (rest[0] == 'P' ? 2 : 1);
            out_ += "(?P<";
            i_ = name_at;
        } else {
            // Inline flags (?i) (?s) (?m) (?i:…): not ECMA, but RE2 gives them the meaning the
            // schema's author had (Python's), so they are kept rather than refused.
            std::size_t k = i_ + 2;
            while (k < p_.size() && (p_[k] == 'i' || p_[k] == 'm' || p_[k] == 's' || p_[k] == '-')) ++k;
            if (k == i_ + 2 || k >= p_.size() || (p_[k] != ')' && p_[k] != ':')) {
                fail("unknown group syntax (" + std::string(p_.substr(i_ + 1, 2)) + "…");
                return;
            }
            out_.append(p_.substr(i_, k + 1 - i_));
            i_ = k + 1;
        }
    }

    void open_class() {
        // [] matches nothing and [^] any character in ECMA-262; RE2 has no empty class.
        if (p_.substr(i_, 2) == "[]") {
            out_ += "[^\\x{0}-\\x{10FFFF}]";
            i_ += 2;
            return;
        }
        if (p_.substr(i_, 3) == "[^]") {
            out_ += "[\\x{0}-\\x{10FFFF}]";
            i_ += 3;
            return;
        }
        in_class_ = true;
        out_ += '[';
        ++i_;
        if (i_ < p_.size() && p_[i_] == '^') {
            out_ += '^';
            ++i_;
        }
    }

    void class_char() {
        const char c = p_[i_];
        if (c == ']') {
            in_class_ = false;
            out_ += ']';
            ++i_;
        } else if (c == '\\') {
            escape(true);
        } else if (c == '[') {
            // A literal in ECMA; unescaped, RE2 would read [:alpha:] as a POSIX class.
            out_ += "\\[";
            ++i_;
        } else {
            out_ += c;
            ++i_;
        }
    }

    // `\` at i_: every ECMA-262 escape, outside or inside a class.
    void escape(bool in_class) {
        if (i_ + 1 >= p_.size()) {
            fail("the pattern ends with a lone backslash");
            return;
        }
        const char c = p_[i_ + 1];
        i_ += 2;
        switch (c) {
            case 'd': case 'D': case 'w': case 'W': case 't': case 'n': case 'r': case 'f':
                out_ += '\\';
                out_ += c;
                return;
            case 'b': case 'B':
                if (in_class) {
                    if (c == 'b') out_ += "\\x{8}";  // backspace inside a class
                    else fail("\\B inside a character class");
                    return;
                }
                out_ += '\\';
                out_ += c;
                return;
            case 's':
                out_ += in_class ? std::string(ecma_space) : "[" + std::string(ecma_space) + "]";
                return;
            case 'S':
                out_ += in_class ? std::string(ecma_non_space) : "[" + std::string(ecma_non_space) + "]";
                return;
            case 'v': out_ += "\\x{B}"; return;
            case '0':
                if (i_ < p_.size() && is_digit(p_[i_])) {
                    fail("octal escapes (\\0" + std::string(1, p_[i_]) + ") are not ECMA-262 patterns");
                    return;
                }
                out_ += "\\x{0}";
                return;
            case 'c':
                if (i_ < p_.size() && ((p_[i_] >= 'a' && p_[i_] <= 'z') || (p_[i_] >= 'A' && p_[i_] <= 'Z'))) {
                    out_ += hex_escape(static_cast<std::uint32_t>(p_[i_]) % 32);
                    ++i_;
                    return;
                }
                fail("\\c must be followed by a letter");
                return;
            case 'x': {
                if (i_ + 2 > p_.size() || !is_hex(p_[i_]) || !is_hex(p_[i_ + 1])) {
                    fail("\\x must be followed by two hexadecimal digits");
                    return;
                }
                out_ += "\\x{" + std::string(p_.substr(i_, 2)) + "}";
                i_ += 2;
                return;
            }
            case 'u': unicode_escape(); return;
            case 'p': case 'P': property(c); return;
            case 'k': fail("backreferences (\\k<name>) are not supported: RE2 runs patterns in linear time"); return;
            default: break;
        }
        if (is_digit(c)) {
            fail(std::string("backreferences (\\") + c + ") are not supported: RE2 runs patterns in linear time");
            return;
        }
        // Identity escapes: ECMA-262's syntax characters, `/` and `-`.
        static constexpr std::string_view identity = "^$\\.*+?()[]{}|/-";
        if (identity.find(c) != std::string_view::npos) {
            out_ += '\\';
            out_ += c;
            return;
        }
        fail(std::string("unknown escape \\") + c);
    }

    // \uXXXX, a surrogate pair of them, or \u{X…}.
    void unicode_escape() {
        auto hex4 = [&](std::size_t at, std::uint32_t& cp) {
            if (at + 4 > p_.size()) return false;
            cp = 0;
            for (std::size_t k = at; k < at + 4; ++k) {
                if (!is_hex(p_[k])) return false;
                cp = cp * 16 + hex_value(p_[k]);
            }
            return true;
        };
        std::uint32_t cp = 0;
        if (i_ < p_.size() && p_[i_] == '{') {
            const std::size_t close = p_.find('}', i_);
            if (close == std::string_view::npos || close == i_ + 1 || close - i_ - 1 > 6) {
                fail("\\u{…} must hold one to six hexadecimal digits");
                return;
            }
            for (std::size_t k = i_ + 1; k < close; ++k) {
                if (!is_hex(p_[k])) {
                    fail("\\u{…} must hold one to six hexadecimal digits");
                    return;
                }
                cp = cp * 16 + hex_value(p_[k]);
            }
            i_ = close + 1;
        } else if (hex4(i_, cp)) {
            i_ += 4;
            std::uint32_t low = 0;
            if (cp >= 0xD800 && cp <= 0xDBFF && p_.substr(i_, 2) == "\\u" && hex4(i_ + 2, low) && low >= 0xDC00 &&
                low <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                i_ += 6;
            }
        } else {
            fail("\\u must be followed by four hexadecimal digits");
            return;
        }
        if (cp > 0x10FFFF) {
            fail("\\u{…} is past U+10FFFF");
            return;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            const std::string digits = hex_escape(cp);  // \x{D800}
            fail("a lone surrogate (\\u" + digits.substr(3, digits.size() - 4) + ") can never match UTF-8 text");
            return;
        }
        out_ += hex_escape(cp);
    }

    // \p{…}: general categories and scripts, in the short names RE2 knows; ECMA's
    // `Script=` / `General_Category=` prefixes are dropped.
    void property(char c) {
        const std::size_t close = p_.find('}', i_);
        if (i_ >= p_.size() || p_[i_] != '{' || close == std::string_view::npos) {
            fail(std::string("\\") + c + " must be followed by {name}");
            return;
        }
        std::string_view name = p_.substr(i_ + 1, close - i_ - 1);
        for (std::string_view prefix : {"Script=", "sc=", "General_Category=", "gc="})
            if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
        out_ += '\\';
        out_ += c;
        out_ += '{';
        out_.append(name);
        out_ += '}';
        i_ = close + 1;
    }

    std::string_view p_;
    std::size_t i_ = 0;
    bool in_class_ = false;
    std::string out_;
    std::string error_;
};

}  // namespace

TranslatedPattern translate_pattern(std::string_view ecma) { return Translator(ecma).run(); }

std::unique_ptr<re2::RE2> compile_pattern(std::string_view ecma, std::string& error) {
    if (ecma.size() > max_pattern_bytes) {
        error = "the pattern is " + std::to_string(ecma.size()) + " bytes long, past toolgram's limit of " +
                std::to_string(max_pattern_bytes);
        return nullptr;
    }
    TranslatedPattern t = translate_pattern(ecma);
    if (!t.ok) {
        error = t.error;
        return nullptr;
    }
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_encoding(re2::RE2::Options::EncodingUTF8);
    auto regex = std::make_unique<re2::RE2>(t.source, options);
    if (!regex->ok()) {
        error = "RE2 cannot run it: " + regex->error();
        return nullptr;
    }
    return regex;
}

bool pattern_is_valid(std::string_view ecma) {
    std::string error;
    return compile_pattern(ecma, error) != nullptr;
}

bool pattern_found(const re2::RE2& regex, std::string_view text) {
    return regex.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), re2::RE2::UNANCHORED, nullptr, 0);
}

}  // namespace toolgram::detail::schema
