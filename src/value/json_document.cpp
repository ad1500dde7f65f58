// Bounded JSON documents (json_document.hpp): nlohmann's lexer and iterative SAX parser
// do the reading; a builder with an explicit stack turns the events into a value,
// refusing depth and repeated keys as it goes, so a bad document stops at its first
// problem instead of being built whole and checked afterwards.
#include "value/json_document.hpp"

#include <iterator>
#include <stdexcept>
#include <unordered_set>
#include <utility>
#include <vector>

namespace toolgram::detail {
namespace {

// A pointer into the text that publishes how far the lexer has read. SAX events carry no
// position, but the parser calls start_object/start_array right after reading the
// bracket and key right after the key's closing quote, so the last byte read tells where
// a refused token is. nlohmann copies the iterator into its input adapter, hence the
// shared cell rather than a member.
class TrackedChar {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackedChar(const char* at, const char** read_up_to) : at_(at), read_up_to_(read_up_to) {}
    reference operator*() const { return *at_; }
    TrackedChar& operator++() {
        *read_up_to_ = ++at_;
        return *this;
    }
    TrackedChar operator++(int) {
        TrackedChar before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackedChar& other) const { return at_ == other.at_; }
    bool operator!=(const TrackedChar& other) const { return at_ != other.at_; }

private:
    const char* at_;
    const char** read_up_to_;
};

// Where a byte offset stands, 1-based, columns in bytes (as nlohmann's own messages count).
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t offset) {
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    return {line, offset - line_start + 1};
}

// nlohmann's parse_error text without its "[json.exception.parse_error.101] " tag, and
// with the "last read" token cut short: that token can be a whole megabyte-long string,
// and an error message should point at the problem, not repeat the document.
std::string syntax_message(const std::string& what) {
    std::string out = what;
    if (out.rfind("[json.exception.", 0) == 0)
        if (const auto tag_end = out.find("] "); tag_end != std::string::npos) out.erase(0, tag_end + 2);
    constexpr std::string_view last_read = "; last read: '";
    constexpr std::size_t shown_bytes = 40;
    if (const auto at = out.find(last_read); at != std::string::npos) {
        const std::size_t token = at + last_read.size();
        if (out.size() > token + shown_bytes + 1) {
            std::size_t cut = token + shown_bytes;
            while (cut > token && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
            out.resize(cut);
            out += "…'";
        }
    }
    return "not valid JSON: " + out;
}

class Builder {
public:
    Builder(std::string_view text, const char* const* read_up_to) : text_(text), read_up_to_(read_up_to) {}

    bool null() { return add(json(nullptr)); }
    bool boolean(bool v) { return add(json(v)); }
    bool number_integer(json::number_integer_t v) { return add(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t&) { return add(json(v)); }
    bool string(json::string_t& v) { return add(json(std::move(v))); }
    bool binary(json::binary_t& v) { return add(json(std::move(v))); }  // never from JSON text
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(json::string_t& k) {
        Frame& f = frames_.back();
        if (is_repeated(f, k)) {
            f.key = std::move(k);
            fail(DocumentError::Kind::repeated_key, key_start(), "given twice in the same object");
            return false;
        }
        f.key = std::move(k);
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
        // `position` counts the bytes read, the offending one included.
        error_ = DocumentError{};
        error_->kind = DocumentError::Kind::syntax;
        error_->offset = position > 0 ? position - 1 : 0;
        std::tie(error_->line, error_->column) = line_and_column(text_, error_->offset);
        error_->where = where();
        error_->message = syntax_message(e.what());
        return false;
    }

    DocumentRead take() {
        DocumentRead out;
        if (error_) out.error = std::move(error_);
        else out.value = std::move(root_);
        return out;
    }

private:
    struct Frame {
        json container;
        std::string key;  // an object's member being read
        // An object's keys once it has many: ordered_json finds a key by a linear search,
        // and 10^5 keys must not cost 10^10 comparisons. A small object is searched
        // directly (no allocation).
        std::unordered_set<std::string> keys;
    };
    static constexpr std::size_t small_object = 16;

    static bool is_repeated(Frame& f, const std::string& k) {
        const auto& members = f.container.get_ref<const json::object_t&>();
        if (members.size() < small_object) {
            for (const auto& m : members)
                if (m.first == k) return true;
            return false;
        }
        if (f.keys.empty())
            for (const auto& m : members) f.keys.insert(m.first);
        return !f.keys.insert(k).second;
    }

    bool open(json container) {
        if (frames_.size() >= max_document_depth) {
            // The bracket that goes one level too deep is the last byte read.
            fail(DocumentError::Kind::too_deep, read_offset() - 1,
                 "nesting deeper than " + std::to_string(max_document_depth) + " levels");
            return false;
        }
        frames_.push_back({std::move(container), {}, {}});
        return true;
    }

    bool close() {
        json done = std::move(frames_.back().container);
        frames_.pop_back();
        return add(std::move(done));
    }

    bool add(json v) {
        if (frames_.empty()) {
            root_ = std::move(v);
            return true;
        }
        Frame& f = frames_.back();
        if (f.container.is_array()) {
            f.container.get_ref<json::array_t&>().push_back(std::move(v));
        } else {
            // Appended without ordered_map's search: key() has made sure the key is new.
            f.container.get_ref<json::object_t&>().emplace_back(std::move(f.key), std::move(v));
        }
        return true;
    }

    std::size_t read_offset() const { return static_cast<std::size_t>(*read_up_to_ - text_.data()); }

    // The key's opening quote: back from its closing quote (the last byte read) to the
    // first quote not escaped, that is, preceded by an even run of backslashes.
    std::size_t key_start() const {
        std::size_t q = read_offset() - 1;
        while (q > 0) {
            --q;
            if (text_[q] != '"') continue;
            std::size_t slashes = 0;
            while (q > slashes && text_[q - 1 - slashes] == '\\') ++slashes;
            if (slashes % 2 == 0) break;
        }
        return q;
    }

    // The member path of what is being read: `a.b[2].c`.
    std::string where() const {
        std::string out;
        for (const Frame& f : frames_) {
            if (f.container.is_array()) {
                out += '[';
                out += std::to_string(f.container.size());
                out += ']';
            } else {
                if (!out.empty()) out += '.';
                out += f.key;
            }
        }
        return out;
    }

    void fail(DocumentError::Kind kind, std::size_t offset, const std::string& what) {
        error_ = DocumentError{};
        error_->kind = kind;
        error_->offset = offset;
        std::tie(error_->line, error_->column) = line_and_column(text_, offset);
        error_->where = where();
        const std::string place = " at line " + std::to_string(error_->line) + ", column " + std::to_string(error_->column);
        error_->message = kind == DocumentError::Kind::repeated_key ? error_->where + ": " + what + place : what + place;
    }

    std::string_view text_;
    const char* const* read_up_to_;
    std::vector<Frame> frames_;
    json root_;
    std::optional<DocumentError> error_;
};

}  // namespace

DocumentRead read_json_document(std::string_view text) {
    const char* read_up_to = text.data();
    Builder builder(text, &read_up_to);
    json::sax_parse(TrackedChar(text.data(), &read_up_to), TrackedChar(text.data() + text.size(), &read_up_to), &builder,
                    json::input_format_t::json, /*strict=*/true);
    return builder.take();
}

json parse_json_document(std::string_view text) {
    DocumentRead r = read_json_document(text);
    if (r.error) throw std::invalid_argument(r.error->message);
    return std::move(r.value);
}

}  // namespace toolgram::detail
