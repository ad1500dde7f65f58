// The scan context: per-parse state shared by every grammar's reader.
//
// It answers "where is the next occurrence of this closer?" from a cache, which is what
// keeps scanning linear: a closer searched for once from position p is known to be at q
// (or absent) for every later search from p..q. Without it, n unclosed openers would each
// search the rest of the input (quadratic).
//
// A one-shot parse also gives it the marker index (marker_index.hpp): a needle the index
// covers is found by walking the index's hits instead of reading the text again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "scan/end_watch.hpp"
#include "scan/marker_index.hpp"
#include "scan/needle_search.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

class ToolSet;

class ScanContext {
public:
    ScanContext(std::string_view text, const Settings& settings) : text_(text), settings_(&settings) {}

    std::string_view text() const { return text_; }
    const Settings& settings() const { return *settings_; }
    // The marker index over this text (it must outlive the context), or none. Given back
    // (none) before its end, the searches cached so far stand and the next ones read the
    // text itself.
    void use_index(const MarkerIndex* index) {
        index_ = index;
        for (auto& entry : entries_) entry.id = index_ ? index_->id_of(entry.needle) : -1;
    }
    const MarkerIndex* index() const { return index_; }
    // The parser's tools (they must outlive the context), or none: readers that must tell
    // a parameter's tag from text that looks like one ask which parameters a tool declares.
    void use_tools(const ToolSet* tools) { tools_ = tools; }
    const ToolSet* tools() const { return tools_; }

    // As find_ci(text[0, end), needle): where `needle` first occurs ignoring ASCII case,
    // ending by `end`; npos when it does not.
    std::size_t find_ci(std::string_view needle, std::size_t end);

    // The first occurrence of `needle` at or after `from`, or npos (which depends on where
    // the text ends: a stream's end watch is told).
    std::size_t find(std::string_view needle, std::size_t from) {
        const std::size_t at = find_quiet(needle, from);
        if (at == std::string_view::npos) awaited(needle);
        return at;
    }

    // As find, telling the end watch nothing: for a caller that decides whether a miss
    // depends on the end (the earliest of several terminators does not, once one is found).
    std::size_t find_quiet(std::string_view needle, std::size_t from) {
        Entry& entry = entry_for(needle);
        if (entry.valid && from >= entry.searched_from && (entry.found == std::string_view::npos || from <= entry.found))
            return entry.found;
        entry.valid = true;
        entry.searched_from = from;
        entry.found = entry.id >= 0 ? index_->find(entry.id, needle, from) : find_needle(text_, needle, from);
        return entry.found;
    }

    // Tells a stream's end watch that `needle` was looked for and is not in the text yet
    // (how far the text must reach for it is not known: anywhere further).
    void awaited(std::string_view needle) const {
        note_wanted(text_, needle);
        note_end(text_);
    }

private:
    struct Entry {
        std::string needle;
        // head_word(needle).word: the entries' needles mostly differ in it, so most
        // comparisons end there (gpt-oss's markers all begin `<|`: a full comparison each
        // was a measurable share of its parse, docs/bench-notes.md).
        std::uint64_t head = 0;
        int id = -1;  // its number in the marker index, -1 when the text is searched
        bool valid = false;
        std::size_t searched_from = 0;
        std::size_t found = std::string_view::npos;
    };
    // A parse searches for a handful of closers: its first few entries are compared
    // directly, which costs less than hashing each needle at each search (a tenth of a
    // short parse went to it). Past them, a hostile run of distinct needles is looked up
    // through a map, kept linear.
    static constexpr std::size_t few = 16;
    Entry& entry_for(std::string_view needle) {
        if (entries_.size() <= few) {
            std::uint64_t head = 0;
            bool have_head = false;
            for (Entry& e : entries_) {
                if (e.needle.size() != needle.size()) continue;
                if (!have_head) head = head_word(needle).word, have_head = true;
                if (e.head == head &&
                    (needle.size() <= 8 || std::memcmp(e.needle.data() + 8, needle.data() + 8, needle.size() - 8) == 0))
                    return e;
            }
        } else if (const auto it = by_needle_.find(needle); it != by_needle_.end()) {
            return entries_[it->second];
        }
        if (entries_.empty()) entries_.reserve(few / 2);  // a parse's usual few, in one allocation
        Entry& e = entries_.emplace_back();
        e.needle.assign(needle.data(), needle.size());
        e.head = head_word(needle).word;
        e.id = index_ ? index_->id_of(needle) : -1;
        if (entries_.size() > few) {
            if (by_needle_.empty())
                for (std::size_t i = 0; i + 1 < entries_.size(); ++i) by_needle_.emplace(entries_[i].needle, i);
            by_needle_.emplace(e.needle, entries_.size() - 1);
        }
        return e;
    }

    std::string_view text_;
    const Settings* settings_;
    const MarkerIndex* index_ = nullptr;
    const ToolSet* tools_ = nullptr;
    struct ViewHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::vector<Entry> entries_;  // by index: an entry moves when one is added
    std::unordered_map<std::string, std::size_t, ViewHash, std::equal_to<>> by_needle_;
};

// Where `needle` first occurs, ignoring ASCII case (parser_shared.cpp).
std::size_t find_ci(std::string_view hay, std::string_view needle);

inline std::size_t ScanContext::find_ci(std::string_view needle, std::size_t end) {
    end = std::min(end, text_.size());
    if (const int id = index_ ? index_->id_of(needle, true) : -1; id >= 0)
        return index_->find(id, needle, 0, true, end);
    return detail::find_ci(text_.substr(0, end), needle);
}

}  // namespace toolgram::detail
