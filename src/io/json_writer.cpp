// The compact JSON writer (see json_writer.hpp). Containers are walked with an explicit
// stack, never by recursion (a value may nest as deep as the limits allow).
#include "io/json_writer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "value/json_string_scan.hpp"
#include "text/utf8.hpp"

namespace toolgram::detail {
namespace {

using json = nlohmann::ordered_json;

// Output gathered in a buffer of bounded size and handed to the stream when it fills;
// a long run of a string goes to the stream directly. Its first bytes may be digested
// and compared with a given prefix's digest instead of kept (compact_json_past).
class Sink {
public:
    explicit Sink(std::ostream* out, std::string start = {}, bool make_valid = false)
        : make_valid(make_valid), out_(out), buf_(std::move(start)) {}
    // Invalid UTF-8 is written with toolgram's replacement (write_compact_json_made_valid),
    // not nlohmann's.
    const bool make_valid;
    void put(char c) {
        if (left_ > 0) {
            put(std::string_view(&c, 1));
            return;
        }
        buf_ += c;
        if (buf_.size() >= flush_at) flush();
    }
    void put(std::string_view s) {
        if (left_ > 0) {
            if (s.size() < left_ && s.size() < block_.size() - gathered_) {  // most pieces
                std::memcpy(block_.data() + gathered_, s.data(), s.size());
                gathered_ += s.size();
                left_ -= s.size();
                return;
            }
            s = gather(s);
            if (s.empty()) return;
        }
        if (out_ && s.size() >= flush_at) {
            flush();
            out_->write(s.data(), static_cast<std::streamsize>(s.size()));
            return;
        }
        buf_.append(s);
        if (buf_.size() >= flush_at) flush();
    }
    void flush() {
        if (!out_ || buf_.empty()) return;
        out_->write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
        buf_.clear();
    }
    std::string take() { return std::move(buf_); }
    // Digest the first bytes written, as many as `prefix` holds, instead of keeping them.
    // (Called before anything is written.)
    void expect(const TextDigest& prefix) {
        expected_ = &prefix;
        left_ = prefix.size();
    }
    // Whether what was written begins with the prefix expected.
    bool began_as_expected() const { return !expected_ || (left_ == 0 && seen_ == *expected_); }

private:
    // Takes what `s` holds of the prefix expected, and returns the rest. Gathered, then
    // digested a block at a time: the digest's cost per piece would dominate the short
    // runs between escapes.
    std::string_view gather(std::string_view s) {
        while (!s.empty() && left_ > 0) {
            if (gathered_ == 0 && s.size() >= block_.size()) {  // a whole block written at once
                const std::size_t n = std::min(s.size(), left_);
                seen_.append(s.substr(0, n));
                left_ -= n;
                s.remove_prefix(n);
                continue;
            }
            const std::size_t n = std::min({s.size(), left_, block_.size() - gathered_});
            std::memcpy(block_.data() + gathered_, s.data(), n);
            gathered_ += n;
            left_ -= n;
            s.remove_prefix(n);
            if (gathered_ == block_.size() || left_ == 0) {
                seen_.append(std::string_view(block_.data(), gathered_));
                gathered_ = 0;
            }
        }
        return s;
    }

    static constexpr std::size_t flush_at = 1 << 16;
    std::ostream* out_;  // null: everything stays in the buffer
    std::string buf_;
    const TextDigest* expected_ = nullptr;
    std::size_t left_ = 0;  // bytes of the prefix not written yet
    TextDigest seen_;
    std::array<char, 4096> block_;  // what is not digested yet of the prefix
    std::size_t gathered_ = 0;
};

// A string as nlohmann writes it with ensure_ascii off: the two-character escapes for
// \b \t \n \f \r " and \\, \u00XX (lower-case hex) for the other control bytes, every
// other byte as it is. A string that is not valid UTF-8 is left to nlohmann's replace
// handler, whose output is the reference.
//
// The escaped text is built in a block on the stack, plain runs copied into it sixteen
// bytes at a time as they are scanned, and the block handed to the sink when full. Put
// to the sink run by run and escape by escape, code with an escape every dozen bytes
// spent most of its time in the sink's own bookkeeping, and this is the whole of the
// stream's check of a long argument when its call closes.
void write_string_body(Sink& sink, std::string_view v) {
    static constexpr char hex[] = "0123456789abcdef";
    constexpr std::size_t room = 4096;
    constexpr std::size_t longest_piece = 6;  // \u00XX; a character is at most 4, U+FFFD 3
    char block[room + plain_copy_slack];
    char* w = block;
    const auto flush = [&] {
        sink.put(std::string_view(block, static_cast<std::size_t>(w - block)));
        w = block;
    };
    const char* p = v.data();
    const char* const end = p + v.size();
    while (p < end) {
        // A plain run is as long written as read, so it may fill what is left of the block.
        std::size_t space = room - static_cast<std::size_t>(w - block);
        if (space < longest_piece) {
            flush();
            space = room;
        }
        const char* const limit = static_cast<std::size_t>(end - p) > space ? p + space : end;
        p = copy_plain_run(p, limit, w);
        if (p == limit) continue;  // the block is full or the string done; a stop at limit is met next
        if (room - static_cast<std::size_t>(w - block) < longest_piece) flush();
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x80) {
            bool valid = false;
            const std::size_t i = static_cast<std::size_t>(p - v.data());
            const std::size_t n = utf8_sequence(v, i, valid);
            if (valid) {
                std::memcpy(w, p, n);
                w += n;
            } else if (sink.make_valid) {
                std::memcpy(w, "\xEF\xBF\xBD", 3);
                w += 3;
            } else {
                // The rest by nlohmann: its replacement of ill-formed bytes is the rule. Its
                // decoder is between characters here, as at a string's start, so the rest
                // comes out as in a dump of the whole. (Results are made valid first.)
                flush();
                const std::string rest = json(std::string(v.substr(i))).dump(-1, ' ', false, json::error_handler_t::replace);
                sink.put(std::string_view(rest).substr(1, rest.size() - 2));  // its quotes are ours
                return;
            }
            p += n;
            continue;
        }
        char escape = 0;
        switch (c) {
            case '"': escape = '"'; break;
            case '\\': escape = '\\'; break;
            case '\b': escape = 'b'; break;
            case '\t': escape = 't'; break;
            case '\n': escape = 'n'; break;
            case '\f': escape = 'f'; break;
            case '\r': escape = 'r'; break;
            default: break;
        }
        *w++ = '\\';
        if (escape) {
            *w++ = escape;
        } else {
            const char u[] = {'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
            std::memcpy(w, u, sizeof u);
            w += sizeof u;
        }
        ++p;
    }
    if (w > block) flush();
}

void write_string(Sink& sink, const std::string& s) {
    sink.put('"');
    write_string_body(sink, s);
    sink.put('"');
}

void write_value(Sink& sink, const json& root) {
    // Each open container with the position of its next element.
    struct Frame {
        const json* container;
        json::const_iterator next;
        bool first;
    };
    std::vector<Frame> stack;
    const json* v = &root;
    for (;;) {
        if (v) {
            switch (v->type()) {
                case json::value_t::object:
                case json::value_t::array:
                    sink.put(v->is_object() ? '{' : '[');
                    stack.push_back({v, v->cbegin(), true});
                    break;
                case json::value_t::string: write_string(sink, v->get_ref<const std::string&>()); break;
                case json::value_t::null: sink.put("null"); break;
                case json::value_t::boolean: sink.put(v->get<bool>() ? "true" : "false"); break;
                default: sink.put(v->dump(-1, ' ', false, json::error_handler_t::replace));  // numbers, binary
            }
            v = nullptr;
        }
        if (stack.empty()) return;
        Frame& top = stack.back();
        if (top.next == top.container->cend()) {
            sink.put(top.container->is_object() ? '}' : ']');
            stack.pop_back();
            continue;
        }
        if (!top.first) sink.put(',');
        top.first = false;
        if (top.container->is_object()) {
            write_string(sink, top.next.key());
            sink.put(':');
        }
        v = &*top.next;
        ++top.next;
    }
}

}  // namespace

void write_compact_json(std::ostream& out, const json& value) {
    Sink sink(&out);
    write_value(sink, value);
    sink.flush();
}

void write_compact_json_made_valid(std::ostream& out, const json& value) {
    Sink sink(&out, {}, true);
    write_value(sink, value);
    sink.flush();
}

std::string compact_json(const json& value) {
    Sink sink(nullptr);
    write_value(sink, value);
    return sink.take();
}

std::optional<std::string> compact_json_past(const json& value, const TextDigest& prefix) {
    Sink sink(nullptr);
    sink.expect(prefix);
    write_value(sink, value);
    if (!sink.began_as_expected()) return std::nullopt;
    return sink.take();
}

std::optional<std::string> compact_json_head(const json& object) {
    if (!object.is_object() || object.empty()) return std::nullopt;
    auto last = object.cend();
    --last;
    if (!last->is_string()) return std::nullopt;
    Sink sink(nullptr);
    sink.put('{');
    for (auto it = object.cbegin(); it != last; ++it) {
        write_string(sink, it.key());
        sink.put(':');
        write_value(sink, it.value());
        sink.put(',');
    }
    write_string(sink, last.key());
    sink.put(":\"");
    return sink.take();
}

std::optional<std::string> compact_json_past_split(const json& object, const TextDigest& head, const TextDigest& body) {
    const std::optional<std::string> h = compact_json_head(object);
    if (!h || h->size() != head.size() || !head.starts(*h)) return std::nullopt;
    const std::string& v = object.back().get_ref<const std::string&>();
    if (!body.starts(v)) return std::nullopt;
    // The body sent ends between characters (it was sent in whole ones), so the rest is
    // written as a dump of the whole string writes it past there.
    Sink sink(nullptr);
    write_string_body(sink, std::string_view(v).substr(body.size()));
    sink.put("\"}");
    return sink.take();
}

void append_json_string_body(std::string& out, std::string_view text) {
    Sink sink(nullptr, std::move(out));  // written onto `out` itself, not copied onto it
    write_string_body(sink, text);
    out = sink.take();
}

}  // namespace toolgram::detail
