// The scan context: per-parse state shared by every grammar's reader.
//
// It answers "where is the next occurrence of this closer?" from a cache, which is what
// keeps scanning linear: a closer searched for once from position p is known to be at q
// (or absent) for every later search from p..q. Without it, n unclosed openers would each
// search the rest of the input (quadratic).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <functional>
#include <unordered_map>

#include "end_watch.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

class ScanContext {
public:
    ScanContext(std::string_view text, const Settings& settings) : text_(text), settings_(&settings) {}

    std::string_view text() const { return text_; }
    const Settings& settings() const { return *settings_; }

    // The first occurrence of `needle` at or after `from`, or npos.
    std::size_t find(std::string_view needle, std::size_t from) {
        // Looked up by view: a closer is searched for once per block, so building a key
        // string each time would allocate on the hot path.
        auto found = cache_.find(needle);
        if (found == cache_.end()) found = cache_.emplace(std::string(needle), Entry{}).first;
        auto& entry = found->second;
        if (entry.valid && from >= entry.searched_from && (entry.found == std::string_view::npos || from <= entry.found)) {
            if (entry.found == std::string_view::npos) note_end(text_);
            return entry.found;
        }
        entry.valid = true;
        entry.searched_from = from;
        entry.found = text_.find(needle, from);
        if (entry.found == std::string_view::npos) note_end(text_);
        return entry.found;
    }

private:
    struct Entry {
        bool valid = false;
        std::size_t searched_from = 0;
        std::size_t found = std::string_view::npos;
    };
    std::string_view text_;
    const Settings* settings_;
    struct ViewHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::unordered_map<std::string, Entry, ViewHash, std::equal_to<>> cache_;
};

}  // namespace toolgram::detail
