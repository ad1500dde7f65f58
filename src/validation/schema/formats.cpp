// Format checks (see formats.hpp): RFC 3339 dates and times, RFC 5321 mailboxes, RFC 1123
// host names, RFC 3986/3987 URIs and IRIs, RFC 4291 IPv6, RFC 6570 URI templates, RFC 6901
// JSON pointers. Each is a scanner: one pass, bounded state, no backtracking.
#include "validation/schema/formats.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "text/ascii.hpp"
#include "validation/schema/pattern.hpp"

namespace toolgram::detail::schema {
namespace {

// `n` digits at s[i] as a number; false when they are not all digits.
bool digits(std::string_view s, std::size_t i, std::size_t n, int& out) {
    if (i + n > s.size()) return false;
    out = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (!is_digit(s[i + k])) return false;
        out = out * 10 + (s[i + k] - '0');
    }
    return true;
}

// ---------------------------------------------------------------------------------------
// RFC 3339

bool leap_year(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int year, int month) {
    static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && leap_year(year) ? 29 : days[month - 1];
}

// full-date = date-fullyear "-" date-month "-" date-mday
bool full_date(std::string_view s) {
    int y = 0, m = 0, d = 0;
    return s.size() == 10 && digits(s, 0, 4, y) && s[4] == '-' && digits(s, 5, 2, m) && s[7] == '-' &&
           digits(s, 8, 2, d) && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

// full-time = partial-time time-offset; a leap second (:60) only where UTC reads 23:59.
bool full_time(std::string_view s) {
    int h = 0, m = 0, sec = 0;
    if (!(digits(s, 0, 2, h) && s.size() > 8 && s[2] == ':' && digits(s, 3, 2, m) && s[5] == ':' && digits(s, 6, 2, sec)))
        return false;
    if (h > 23 || m > 59 || sec > 60) return false;
    std::size_t i = 8;
    if (s[i] == '.') {
        const std::size_t start = ++i;
        while (i < s.size() && is_digit(s[i])) ++i;
        if (i == start) return false;
    }
    if (i >= s.size()) return false;  // the offset is required
    int offset_minutes = 0;
    if (s[i] == 'Z' || s[i] == 'z') {
        ++i;
    } else if (s[i] == '+' || s[i] == '-') {
        int oh = 0, om = 0;
        if (!(digits(s, i + 1, 2, oh) && i + 3 < s.size() && s[i + 3] == ':' && digits(s, i + 4, 2, om))) return false;
        if (oh > 23 || om > 59) return false;
        offset_minutes = (s[i] == '+' ? 1 : -1) * (oh * 60 + om);
        i += 6;
    } else {
        return false;
    }
    if (i != s.size()) return false;
    if (sec == 60) {
        const int utc = ((h * 60 + m - offset_minutes) % 1440 + 1440) % 1440;
        if (utc != 23 * 60 + 59) return false;
    }
    return true;
}

bool date_time(std::string_view s) {
    return s.size() > 11 && (s[10] == 'T' || s[10] == 't') && full_date(s.substr(0, 10)) && full_time(s.substr(11));
}

// duration (RFC 3339 appendix A): P then Y[M[D]] | M[D] | D, then optionally T and
// H[M[S]] | M[S] | S; or P nW. Units in order, none skipped inside a run.
bool duration(std::string_view s) {
    if (s.size() < 3 || s[0] != 'P') return false;
    std::size_t i = 1;
    auto number_then = [&](char& unit) {
        const std::size_t start = i;
        while (i < s.size() && is_digit(s[i])) ++i;
        if (i == start || i >= s.size()) return false;
        unit = s[i++];
        return true;
    };
    // A run of units from `order`, each the one right after the previous.
    auto run = [&](std::string_view order, bool& any) {
        std::size_t next = 0;  // where in `order` the run may continue
        bool started = false;
        while (i < s.size() && s[i] != 'T') {
            char unit = 0;
            if (!number_then(unit)) return false;
            const std::size_t at = order.find(unit);
            if (at == std::string_view::npos || (started && at != next) || at < next) return false;
            started = true;
            next = at + 1;
        }
        any = started;
        return true;
    };
    if (s.back() == 'W') {
        char unit = 0;
        return number_then(unit) && unit == 'W' && i == s.size();
    }
    bool date_any = false, time_any = false;
    if (!run("YMD", date_any)) return false;
    if (i < s.size()) {
        ++i;  // 'T'
        if (!run("HMS", time_any) || !time_any) return false;
    }
    return i == s.size() && (date_any || time_any);
}

// ---------------------------------------------------------------------------------------
// Host names and addresses

// RFC 1123: labels of letters, digits and hyphens, 1-63 bytes, no hyphen at either end;
// 253 bytes at most.
bool hostname(std::string_view s) {
    if (s.empty() || s.size() > 253) return false;
    std::size_t label = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == '.') {
            if (label == 0 || label > 63 || s[i - 1] == '-') return false;
            label = 0;
            continue;
        }
        const char c = s[i];
        if (!(is_alpha(c) || is_digit(c) || c == '-')) return false;
        if (label == 0 && c == '-') return false;
        ++label;
    }
    return true;
}

// Four decimal octets, no leading zeros (they would be octal to some readers).
bool ipv4(std::string_view s) {
    std::size_t parts = 0, i = 0;
    while (true) {
        const std::size_t start = i;
        int value = 0;
        while (i < s.size() && is_digit(s[i]) && i - start < 3) value = value * 10 + (s[i++] - '0');
        const std::size_t len = i - start;
        if (len == 0 || value > 255 || (len > 1 && s[start] == '0')) return false;
        ++parts;
        if (i == s.size()) break;
        if (s[i] != '.' || parts == 4) return false;
        ++i;
    }
    return parts == 4;
}

// RFC 4291 section 2.2: eight groups of 1-4 hex digits, one `::` standing for one or more
// zero groups, the last 32 bits optionally as an IPv4 address. No zone index.
// The longest address is 45 bytes (six groups and an IPv4 tail), so longer text is refused
// before it is read; the scan itself finds the IPv4 tail once (it follows the last colon),
// where searching the rest of the string at every group was quadratic (email's `[IPv6:…]`
// and a URI's `[…]` host reach this with the model's text).
constexpr std::size_t max_ipv6_length = 45;

bool ipv6(std::string_view s) {
    if (s.size() < 2 || s.size() > max_ipv6_length) return false;
    // An IPv4 tail stands after the last colon, and no dot may stand before it.
    const std::size_t last_colon = s.rfind(':');
    const std::size_t first_dot = s.find('.');
    std::size_t end = s.size();
    if (first_dot != std::string_view::npos) {
        if (last_colon == std::string_view::npos || first_dot < last_colon) return false;
        if (!ipv4(s.substr(last_colon + 1))) return false;
        end = last_colon + 1;  // the groups end with the colon before the tail
    }
    const bool v4_tail = end != s.size();
    std::size_t groups = v4_tail ? 2 : 0, i = 0;
    bool compressed = false;
    if (s.substr(0, 2) == "::") {
        compressed = true;
        i = 2;
        if (i == s.size()) return true;
    } else if (s[0] == ':') {
        return false;
    }
    while (i < end) {
        const std::size_t start = i;
        while (i < end && is_hex(s[i]) && i - start < 4) ++i;
        if (i == start) return false;
        ++groups;
        if (i == s.size()) break;
        if (s[i] != ':') return false;
        ++i;
        if (i < s.size() && s[i] == ':') {
            if (compressed) return false;
            compressed = true;
            ++i;
            if (i == s.size()) break;
        } else if (i == s.size()) {
            return false;  // a single trailing colon
        }
    }
    return compressed ? groups <= 7 : groups == 8;
}

// RFC 5321 mailbox: dot-atom or quoted-string, "@", a host name or an address literal.
bool email(std::string_view s) {
    const std::size_t at = s.rfind('@');
    if (at == std::string_view::npos || at == 0 || at > 64) return false;
    const std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
    if (local.front() == '"') {
        if (local.size() < 2 || local.back() != '"') return false;
        for (std::size_t i = 1; i + 1 < local.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(local[i]);
            if (c == '\\') {
                if (++i + 1 >= local.size()) return false;
            } else if (c == '"' || c < 0x20 || c == 0x7F) {
                return false;
            }
        }
    } else {
        constexpr std::string_view atext_specials = "!#$%&'*+-/=?^_`{|}~";
        bool previous_dot = true;  // no dot first
        for (char c : local) {
            if (c == '.') {
                if (previous_dot) return false;
                previous_dot = true;
            } else if (is_alpha(c) || is_digit(c) || atext_specials.find(c) != std::string_view::npos) {
                previous_dot = false;
            } else {
                return false;
            }
        }
        if (previous_dot) return false;
    }
    if (domain.size() > 2 && domain.front() == '[' && domain.back() == ']') {
        const std::string_view literal = domain.substr(1, domain.size() - 2);
        if (literal.substr(0, 5) == "IPv6:") return ipv6(literal.substr(5));
        return ipv4(literal);
    }
    return hostname(domain);
}

// ---------------------------------------------------------------------------------------
// RFC 3986 URIs (and RFC 3987 IRIs: any non-ASCII character where unreserved ones may be)

class UriReader {
public:
    UriReader(std::string_view s, bool iri) : s_(s), iri_(iri) {}

    // URI-reference; `absolute` requires a scheme (URI rather than relative-ref).
    bool reference(bool absolute) {
        std::size_t end = s_.size();
        const std::size_t hash = s_.find('#');
        if (hash != std::string_view::npos) {
            if (!chars(hash + 1, s_.size(), "/?:@")) return false;
            end = hash;
        }
        const std::size_t question = s_.substr(0, end).find('?');
        if (question != std::string_view::npos) {
            if (!chars(question + 1, end, "/?:@")) return false;
            end = question;
        }
        // A scheme: letters, digits, + - . before the first colon, starting with a letter,
        // and no slash before that colon.
        std::size_t begin = 0;
        const std::size_t colon = s_.substr(0, end).find(':');
        const std::size_t slash = s_.substr(0, end).find('/');
        if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash) && scheme(colon)) {
            begin = colon + 1;
        } else if (absolute) {
            return false;
        } else if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
            return false;  // path-noscheme: no colon in the first segment
        }
        if (s_.substr(begin, 2) == "//") {
            const std::size_t path = std::min(end, s_.find('/', begin + 2));
            return authority(begin + 2, path) && chars(path, end, "/:@");
        }
        return chars(begin, end, "/:@");
    }

private:
    bool scheme(std::size_t end) const {
        if (end == 0 || !is_alpha(s_[0])) return false;
        for (std::size_t i = 1; i < end; ++i)
            if (!(is_alpha(s_[i]) || is_digit(s_[i]) || s_[i] == '+' || s_[i] == '-' || s_[i] == '.')) return false;
        return true;
    }

    bool unreserved(char c) const {
        return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
               (iri_ && static_cast<unsigned char>(c) >= 0x80);
    }
    static bool sub_delim(char c) {
        return c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' ||
               c == ',' || c == ';' || c == '=';
    }

    // [begin, end) holds only unreserved, percent-encoded, sub-delims and `extra`.
    bool chars(std::size_t begin, std::size_t end, std::string_view extra) const {
        for (std::size_t i = begin; i < end; ++i) {
            const char c = s_[i];
            if (c == '%') {
                if (i + 2 >= end) return false;
                if (!is_hex(s_[i + 1]) || !is_hex(s_[i + 2])) return false;
                i += 2;
            } else if (!(unreserved(c) || sub_delim(c) || extra.find(c) != std::string_view::npos)) {
                return false;
            }
        }
        return true;
    }

    // authority = [ userinfo "@" ] host [ ":" port ]
    bool authority(std::size_t begin, std::size_t end) const {
        const std::size_t at = s_.substr(begin, end - begin).find('@');
        if (at != std::string_view::npos) {
            if (!chars(begin, begin + at, ":")) return false;
            begin += at + 1;
        }
        std::size_t host_end = end;
        if (begin < end && s_[begin] == '[') {
            const std::size_t close = s_.substr(begin, end - begin).find(']');
            if (close == std::string_view::npos) return false;
            const std::string_view literal = s_.substr(begin + 1, close - 1);
            if (!(ipv6(literal) || ip_future(literal))) return false;
            host_end = begin + close + 1;
        } else {
            const std::size_t colon = s_.substr(begin, end - begin).find(':');
            if (colon != std::string_view::npos) host_end = begin + colon;
            if (!chars(begin, host_end, "")) return false;
        }
        if (host_end == end) return true;
        if (s_[host_end] != ':') return false;
        for (std::size_t i = host_end + 1; i < end; ++i)
            if (!is_digit(s_[i])) return false;
        return true;
    }

    // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    bool ip_future(std::string_view s) const {
        if (s.size() < 4 || (s[0] != 'v' && s[0] != 'V')) return false;
        std::size_t i = 1;
        while (i < s.size() && is_hex(s[i])) ++i;
        if (i == 1 || i >= s.size() || s[i] != '.' || i + 1 == s.size()) return false;
        for (++i; i < s.size(); ++i)
            if (!(unreserved(s[i]) || sub_delim(s[i]) || s[i] == ':')) return false;
        return true;
    }

    std::string_view s_;
    bool iri_;
};

// RFC 6570 level 4: literals, and expressions `{` [operator] varspec *( "," varspec ) `}`.
bool uri_template(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '{') {
            const std::size_t close = s.find('}', i);
            if (close == std::string_view::npos) return false;
            std::string_view expr = s.substr(i + 1, close - i - 1);
            if (!expr.empty() && std::string_view("+#./;?&=,!@|").find(expr[0]) != std::string_view::npos)
                expr.remove_prefix(1);
            // varspec list
            std::size_t k = 0;
            while (true) {
                const std::size_t start = k;
                bool need_char = true;
                while (k < expr.size()) {
                    const char v = expr[k];
                    if (is_alpha(v) || is_digit(v) || v == '_') {
                        need_char = false;
                        ++k;
                    } else if (v == '%' && k + 2 < expr.size() && is_hex(expr[k + 1]) && is_hex(expr[k + 2])) {
                        need_char = false;
                        k += 3;
                    } else if (v == '.' && !need_char) {
                        need_char = true;
                        ++k;
                    } else {
                        break;
                    }
                }
                if (k == start || need_char) return false;
                if (k < expr.size() && expr[k] == ':') {
                    const std::size_t digits_start = ++k;
                    while (k < expr.size() && is_digit(expr[k]) && k - digits_start < 4) ++k;
                    if (k == digits_start || expr[digits_start] == '0') return false;
                } else if (k < expr.size() && expr[k] == '*') {
                    ++k;
                }
                if (k == expr.size()) break;
                if (expr[k] != ',') return false;
                ++k;
            }
            i = close;
        } else if (c == '}' || c <= 0x20 || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\' || c == '^' ||
                   c == '`' || c == '|' || c == 0x7F) {
            return false;
        } else if (c == '%') {
            if (i + 2 >= s.size() || !is_hex(s[i + 1]) || !is_hex(s[i + 2])) return false;
            i += 2;
        }
    }
    return true;
}

// ---------------------------------------------------------------------------------------
// Identifiers and pointers

bool uuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool hyphen = i == 8 || i == 13 || i == 18 || i == 23;
        if (hyphen ? s[i] != '-' : !is_hex(s[i])) return false;
    }
    return true;
}

// RFC 6901: "" or "/"-prefixed reference tokens, `~` only as ~0 or ~1.
bool json_pointer(std::string_view s) {
    if (!s.empty() && s[0] != '/') return false;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '~' && (i + 1 >= s.size() || (s[i + 1] != '0' && s[i + 1] != '1'))) return false;
    return true;
}

// A non-negative integer (no leading zero), then "#" or a JSON pointer.
bool relative_json_pointer(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == 0 || (i > 1 && s[0] == '0')) return false;
    const std::string_view rest = s.substr(i);
    return rest == "#" || json_pointer(rest);
}

}  // namespace

Format format_named(std::string_view name) {
    static constexpr std::pair<std::string_view, Format> names[] = {
        {"date", Format::date},
        {"time", Format::time},
        {"date-time", Format::date_time},
        {"duration", Format::duration},
        {"email", Format::email},
        {"hostname", Format::hostname},
        {"ipv4", Format::ipv4},
        {"ipv6", Format::ipv6},
        {"uri", Format::uri},
        {"uri-reference", Format::uri_reference},
        {"iri", Format::iri},
        {"iri-reference", Format::iri_reference},
        {"uri-template", Format::uri_template},
        {"uuid", Format::uuid},
        {"json-pointer", Format::json_pointer},
        {"relative-json-pointer", Format::relative_json_pointer},
        {"regex", Format::regex},
    };
    for (const auto& [n, f] : names)
        if (n == name) return f;
    return Format::none;
}

const char* format_description(Format format) {
    switch (format) {
        case Format::none: return "any text";
        case Format::date: return "date (RFC 3339 full-date: YYYY-MM-DD)";
        case Format::time: return "time (RFC 3339 full-time: HH:MM:SS with an offset, Z or +HH:MM)";
        case Format::date_time: return "date-time (RFC 3339: YYYY-MM-DDTHH:MM:SS with an offset, Z or +HH:MM)";
        case Format::duration: return "duration (ISO 8601, as P3DT4H)";
        case Format::email: return "email address";
        case Format::hostname: return "host name (RFC 1123)";
        case Format::ipv4: return "IPv4 address (four decimal octets)";
        case Format::ipv6: return "IPv6 address (RFC 4291)";
        case Format::uri: return "URI with a scheme (RFC 3986)";
        case Format::uri_reference: return "URI reference (RFC 3986)";
        case Format::iri: return "IRI with a scheme (RFC 3987)";
        case Format::iri_reference: return "IRI reference (RFC 3987)";
        case Format::uri_template: return "URI template (RFC 6570)";
        case Format::uuid: return "UUID (8-4-4-4-12 hexadecimal digits)";
        case Format::json_pointer: return "JSON pointer (RFC 6901)";
        case Format::relative_json_pointer: return "relative JSON pointer";
        case Format::regex: return "regular expression (ECMA-262, as RE2 can run it)";
    }
    return "format";
}

bool matches_format(Format format, std::string_view s) {
    switch (format) {
        case Format::none: return true;
        case Format::date: return full_date(s);
        case Format::time: return full_time(s);
        case Format::date_time: return date_time(s);
        case Format::duration: return duration(s);
        case Format::email: return email(s);
        case Format::hostname: return hostname(s);
        case Format::ipv4: return ipv4(s);
        case Format::ipv6: return ipv6(s);
        case Format::uri: return UriReader(s, false).reference(true);
        case Format::uri_reference: return UriReader(s, false).reference(false);
        case Format::iri: return UriReader(s, true).reference(true);
        case Format::iri_reference: return UriReader(s, true).reference(false);
        case Format::uri_template: return uri_template(s);
        case Format::uuid: return uuid(s);
        case Format::json_pointer: return json_pointer(s);
        case Format::relative_json_pointer: return relative_json_pointer(s);
        case Format::regex: return pattern_is_valid(s);
    }
    return true;
}

}  // namespace toolgram::detail::schema
