// The strict one-pass value reader (see strict_value.hpp). Containers are held on an
// explicit stack, never by recursion, and the reader declines as soon as the text leaves
// strict JSON. A byte is read once, but for the rest of a string that has escapes, which
// a memchr pass measures once so the decoded text is allocated once.
#include "value/strict_value.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "text/ascii.hpp"
#include "value/json_string_scan.hpp"
#include "text/utf8.hpp"
#include "value/value_reader.hpp"  // convert_number, the lenient reader's own number conversion

namespace toolgram::detail {

// How far the string's closing quote stands from `p` (inside the string), 0 when the text
// ends first: a quote preceded by an odd run of backslashes is escaped.
//
// Sixty-four bytes at a time: masks of the quotes and backslashes, and from the
// backslashes, which bytes an odd run escapes. Adding to the backslash mask the first bit
// of each run that starts at an even position carries past that run's end; the bit it
// lands on is escaped when the run's length is odd, which for such a run is when that bit
// stands at an odd position (and the other way round for runs starting at odd
// positions). No branch per quote or run: a search for quotes alone stopped at every `\"`
// of code, and counted the backslashes back from each.
std::size_t raw_length(const char* p, const char* end) {
    const char* q = p;
    bool carried = false;  // the previous block ended in a backslash that escapes q[0]
#if defined(__SSE2__)
    constexpr std::uint64_t even = 0x5555555555555555ULL;
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    while (end - q >= 64) {
        std::uint64_t quotes = 0, backslashes = 0;
        for (int i = 0; i < 4; ++i) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 16 * i));
            quotes |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote))))
                      << (16 * i);
            backslashes |= static_cast<std::uint64_t>(
                               static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash))))
                           << (16 * i);
        }
        const std::uint64_t carry_in = carried ? 1 : 0;
        backslashes &= ~carry_in;  // an escaped backslash escapes nothing
        const std::uint64_t starts = backslashes & ~(backslashes << 1);
        const std::uint64_t after_even = (backslashes + (starts & even)) & ~backslashes;
        const std::uint64_t after_odd = (backslashes + (starts & ~even)) & ~backslashes;
        const std::uint64_t escaped = (after_even & ~even) | (after_odd & even) | carry_in;
        if (const std::uint64_t closing = quotes & ~escaped)
            return static_cast<std::size_t>(q - p) + static_cast<std::size_t>(std::countr_zero(closing));
        // The run reaching the block's last byte escapes the next block's first when odd.
        carried = (std::countl_one(backslashes) & 1) != 0;
        q += 64;
    }
#endif
    for (; q < end; ++q) {
        if (carried) {
            carried = false;
        } else if (*q == '\\') {
            carried = true;
        } else if (*q == '"') {
            return static_cast<std::size_t>(q - p);
        }
    }
    return 0;
}

namespace {

using json = nlohmann::ordered_json;

// A byte that may continue a number or a word: the lenient rules would read on (a
// fraction, an exponent, Python's `1_000`, `truex`), so this reader declines before it.
bool continues_token(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '+' ||
           c == '-';
}

class Reader {
public:
    Reader(const char* begin, const char* end, std::size_t max_depth, bool heal)
        : p_(begin), end_(end), max_depth_(max_depth), heal_(heal) {}

    bool read(json& out) {
        if (!begin_value(out)) return false;
        while (!stack_.empty()) {
            if (!next_in_container()) return false;
        }
        return true;
    }
    const char* position() const { return p_; }
    bool healed() const { return healed_; }

private:
    struct Open {
        json* container;
        bool object;
        bool has_items = false;
        // An object's members until it closes. ordered_json keeps them in a vector of
        // pair<const string, json>, which cannot be moved, so each time that vector grew it
        // copied every value already in it, nested objects and all; this one moves them.
        std::vector<std::pair<std::string, json>> members;
        std::unordered_set<std::string> keys;  // filled once the object is large (repeated())
    };

    const char* p_;
    const char* const end_;
    const std::size_t max_depth_;
    const bool heal_;
    bool healed_ = false;
    bool after_separator_ = false;  // a ',' was read and no value has completed since
    std::vector<Open> stack_;

    bool skip_space() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
        return p_ < end_;
    }

    // At a value's first byte: a scalar is read into `slot`; a container is opened there
    // and pushed, to be filled by next_in_container.
    bool begin_value(json& slot) {
        if (p_ >= end_) return false;
        switch (*p_) {
            case '"': {
                std::string s;
                if (!string(s)) return false;
                slot = std::move(s);
                after_separator_ = false;
                return true;
            }
            case '{':
            case '[': {
                if (stack_.size() >= max_depth_) return false;
                const bool object = *p_ == '{';
                slot = object ? json::object() : json::array();
                stack_.push_back(Open{&slot, object, false, {}, {}});
                ++p_;
                return true;
            }
            case 't': return complete(literal("true", json(true), slot));
            case 'f': return complete(literal("false", json(false), slot));
            case 'n': return complete(literal("null", json(nullptr), slot));
            default: return complete(number(slot));
        }
    }

    bool complete(bool read) {
        if (read) after_separator_ = false;
        return read;
    }

    // Moves the top container's members in and pops it.
    void close_top() {
        Open& top = stack_.back();
        if (top.object) {
            auto& members = top.container->get_ref<json::object_t&>();
            members.reserve(top.members.size());
            // Appended without ordered_map's own search: the keys are known distinct.
            for (auto& [key, value] : top.members) members.emplace_back(std::move(key), std::move(value));
        }
        stack_.pop_back();
    }

    // After a container's opener or one of its items: the next item, or the closer.
    bool next_in_container() {
        Open& top = stack_.back();
        if (!skip_space()) {
            // The text ends where a closer was due, every value complete: healed, as the
            // lenient rules heal it (`healed_end`), when the caller asks for that. Not
            // when no value has completed since the last ',' (`[1, [`): the rules then
            // report that more was coming (cut_after_separator), and they read it.
            if (!heal_ || after_separator_) return false;
            while (!stack_.empty()) close_top();
            healed_ = true;
            return true;
        }
        const char closer = top.object ? '}' : ']';
        if (*p_ == closer) {
            ++p_;
            close_top();
            after_separator_ = false;
            return true;
        }
        if (top.has_items) {
            if (*p_ != ',') return false;
            ++p_;
            after_separator_ = true;
            if (!skip_space()) return false;
        }
        top.has_items = true;
        if (!top.object) {
            auto& items = top.container->get_ref<json::array_t&>();
            items.emplace_back();
            return begin_value(items.back());
        }
        if (*p_ != '"') return false;
        std::string key;
        if (!string(key)) return false;
        if (repeated(top, key)) return false;  // the lenient rules keep the first and report it
        if (!skip_space() || *p_ != ':') return false;
        ++p_;
        if (!skip_space()) return false;
        // Room for a tool call's usual few arguments at once, at the first: grown from
        // one, an object of four members was allocated three times before it closed (and
        // an empty object allocates nothing).
        if (top.members.empty()) top.members.reserve(8);
        top.members.emplace_back(std::move(key), nullptr);
        return begin_value(top.members.back().second);
    }

    // Whether `key` is already a key of the open object: a direct search while it is
    // small, a set of its keys once it is large (no quadratic search on a hostile object).
    static bool repeated(Open& top, const std::string& key) {
        constexpr std::size_t small_object = 16;
        if (top.members.size() < small_object) {
            for (const auto& m : top.members)
                if (m.first == key) return true;
            return false;
        }
        if (top.keys.empty())
            for (const auto& m : top.members) top.keys.insert(m.first);
        return !top.keys.insert(key).second;
    }

    bool literal(std::string_view word, json value, json& slot) {
        if (static_cast<std::size_t>(end_ - p_) <= word.size()) return false;  // the end decides
        if (std::memcmp(p_, word.data(), word.size()) != 0) return false;
        if (continues_token(p_[word.size()])) return false;
        p_ += word.size();
        slot = std::move(value);
        return true;
    }

    // JSON's number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, followed by a byte
    // that cannot continue it. Converted by the lenient reader's own conversion, so the
    // two readers give the same value; one it would mark as a repair is declined.
    bool number(json& slot) {
        const char* q = p_;
        if (q < end_ && *q == '-') ++q;
        if (q >= end_ || !is_digit(*q)) return false;
        if (*q == '0') {
            ++q;
        } else {
            while (q < end_ && is_digit(*q)) ++q;
        }
        if (q < end_ && *q == '.') {
            ++q;
            if (q >= end_ || !is_digit(*q)) return false;
            while (q < end_ && is_digit(*q)) ++q;
        }
        if (q < end_ && (*q == 'e' || *q == 'E')) {
            ++q;
            if (q < end_ && (*q == '+' || *q == '-')) ++q;
            if (q >= end_ || !is_digit(*q)) return false;
            while (q < end_ && is_digit(*q)) ++q;
        }
        if (q >= end_ || continues_token(*q)) return false;
        std::uint32_t repairs = 0;
        if (!convert_number(std::string_view(p_, static_cast<std::size_t>(q - p_)), slot, repairs) || repairs != 0)
            return false;
        p_ = q;
        return true;
    }

    // At the opening quote. Plain runs are appended whole; escapes are JSON's only; raw
    // control bytes, ill-formed UTF-8 and lone surrogates are declined (the lenient
    // reader repairs or replaces them, and says so).
    bool string(std::string& out) {
        const char* run = ++p_;
        for (;;) {
            const char* q = json_string_stop(p_, end_);
            if (q >= end_) return false;
            const auto c = static_cast<unsigned char>(*q);
            if (c == '"') {
                out.append(run, q);
                p_ = q + 1;
                return true;
            }
            if (c >= 0x80) {
                if (!skip_utf8(q)) return false;
                continue;
            }
            if (c != '\\') return false;  // a raw control byte
            p_ = q;
            return escaped_string(run, out);
        }
    }

    // The rest of a string from its first escape (at p_), `run` where its text began. The
    // text as written bounds what it decodes to, so the string is sized to that once and
    // written through a pointer, each plain run copied as it is scanned (copy_dense_run):
    // appended piece by piece, code full of `\n` and `\"` spent a third of its parse in
    // the string's append and push_back. Grown by doubling instead, a long argument would
    // hold up to twice its size.
    bool escaped_string(const char* run, std::string& out) {
        StopBlock block;
        const std::size_t raw = raw_length(p_, end_);
        if (raw == 0) return false;  // no closing quote
        const std::size_t before = out.size();
        out.resize(before + static_cast<std::size_t>(p_ - run) + raw + dense_copy_slack);
        char* w = out.data() + before;
        std::memcpy(w, run, static_cast<std::size_t>(p_ - run));
        w += p_ - run;
        const char* q = p_;  // at a byte a plain run stops at
        for (;;) {
            const auto c = static_cast<unsigned char>(*q);
            if (c == '"') {
                out.resize(static_cast<std::size_t>(w - out.data()));
                p_ = q + 1;
                return true;
            }
            if (c >= 0x80) {
                if (!skip_utf8(q)) return false;
                do *w++ = *q++;  // valid: copied as it stands
                while (q < p_);
            } else if (c != '\\' || end_ - q < 2) {
                return false;  // a raw control byte, or an escape cut
            } else {
                p_ = q + 2;
                if (const char plain = json_escaped_char(q[1])) {
                    *w++ = plain;
                } else if (q[1] == 'u') {
                    std::uint32_t cp = 0;
                    if (!hex4(cp)) return false;
                    if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        std::uint32_t low = 0;
                        if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
                        p_ += 2;
                        if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    }
                    w += encode_utf8(cp, w);  // at most 4 bytes, from an escape of 6 or 12
                } else {
                    return false;  // Python's escapes and unknown ones
                }
            }
            q = copy_dense_run(p_, end_, w, block);
            if (q >= end_) return false;
        }
    }

    // A multi-byte character at `q`: p_ moves past it when it is valid UTF-8. The two- and
    // three-byte shapes that need no more than their continuation bytes checked are taken
    // here (for text with an accented letter a line, the call of the full check counted in
    // its decoding); E0, ED and four-byte leads, and anything ill-formed, go to it.
    bool skip_utf8(const char* q) {
        const auto lead = static_cast<unsigned char>(q[0]);
        const auto continues = [&](std::ptrdiff_t i) { return (static_cast<unsigned char>(q[i]) & 0xC0) == 0x80; };
        if (lead >= 0xC2 && lead <= 0xDF && end_ - q >= 2 && continues(1)) {
            p_ = q + 2;
            return true;
        }
        if (lead >= 0xE1 && lead <= 0xEF && lead != 0xED && end_ - q >= 3 && continues(1) && continues(2)) {
            p_ = q + 3;
            return true;
        }
        const std::size_t n = valid_utf8_length(std::string_view(q, static_cast<std::size_t>(end_ - q)), 0);
        if (n == 0) return false;
        p_ = q + n;
        return true;
    }

    // Four hex digits at p_ (a \u escape's), consumed when they are there.
    bool hex4(std::uint32_t& cp) {
        if (!read_hex(std::string_view(p_, static_cast<std::size_t>(end_ - p_)), 0, 4, cp)) return false;
        p_ += 4;
        return true;
    }
};

}  // namespace

std::size_t read_strict_value(const char* begin, const char* end, std::size_t max_depth, json& out, bool* healed) {
    Reader reader(begin, end, max_depth, healed != nullptr);
    json value;
    if (!reader.read(value)) return 0;
    out = std::move(value);
    if (healed) *healed = reader.healed();
    return static_cast<std::size_t>(reader.position() - begin);
}

}  // namespace toolgram::detail
