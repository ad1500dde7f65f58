// Candidates: what phase one (extract) produces and phase two (validate) judges.
//
// A candidate is a possible call as the model wrote it: which grammar found it, where,
// the raw name and arguments, and what the grammar had to repair. Nothing here is a call
// yet; only the combinator (src/combinator/parser.cpp) turns a candidate into one, after the gates
// and validation. A block is the source span a grammar recognised as tool syntax: it
// holds zero or more candidates and is what content extraction removes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <unordered_set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

struct Candidate {
    std::string grammar;
    Role role = Role::primary;
    std::size_t begin = 0, end = 0;  // the call's source span
    std::string name;                // raw, as written
    // The name's namespace is part of it (gpt-oss's built-in recipients `browser.search`,
    // `container.exec`): resolved exactly or ignoring case, never by its tail or loosely.
    bool qualified_name = false;
    std::optional<std::string> id;
    json arguments = json::object();  // as written: object, JSON string, or anything else
    bool arguments_are_text = false;  // XML-style values: typed from the schema in phase two
    // Every string in the arguments and the keys beside is valid UTF-8 already (the payload
    // was read by the strict fast path, which checks it): phase two need not walk them.
    bool arguments_valid_utf8 = false;
    bool text_is_quoted = false;      // those values were quoted (Gemma): "null" stays a string
    // Those values may be JSON escaped once more (GLM 4.6/4.7 write `[{\"id\": \"1\"}]`): an
    // object or array property whose text does not fit may be decoded once (toolset.hpp).
    bool text_may_be_escaped_json = false;
    bool has_arguments = true;        // false when the call had no arguments field at all
    std::uint32_t repairs = 0;        // value_reader.hpp's Repair flags
    std::vector<std::string> notes;   // grammar-level repairs: missing_end_tag, fence_inside_tags…
    bool healed = false;
    // Non-empty: the output ended where the syntax shows more was coming (a ',' before the
    // cut), and why. Not a problem of extraction (a stream still reads the members complete
    // so far), but phase two refuses the candidate: healing supplies closers, not content.
    std::string unfinished;
    std::string problem;              // non-empty: extraction found the call broken, and why
    std::size_t problem_offset = 0;
    bool problem_too_deep = false;    // the problem is nesting past Limits::max_depth
    bool cut = false;                 // the problem is a value cut by the end of output
    // The output ended inside this named parameter's text value (params_reader.hpp): its
    // key, where its raw text begins, and what of the text around it is layout, so that a
    // stream can send the value as it is written (stream.cpp).
    struct CutText {
        std::string key;
        std::size_t begin = 0;
        bool newline_each_side = false, strip_blanks = false;
    };
    std::optional<CutText> cut_text;
    bool in_reasoning = false;
    bool in_example = false;
    // Non-empty: the syntax is a record of a call already made (call history echoed with
    // its outcome), and why; read, so it is reported, never a new call.
    std::string echo;
    // Keys a call object gives beside its name, arguments and id, in written order
    // (`{"name": "f", "arguments": {"a": 1}, "b": 2}`, `{"name": "Bash", "command": "ls"}`).
    // Phase two moves those the tool declares into the arguments, or refuses the call:
    // never dropped unread. `shown` is how the key is named in a reason (`function.b`).
    struct KeyBeside {
        std::string key, shown;
        json value;
    };
    std::vector<KeyBeside> keys_beside;
    // The names given to set_argument, once there are many: a few are compared with the
    // object's keys directly (no node per key), hostile thousands through this set.
    std::unordered_set<std::string> argument_keys;
};

// Sets one named argument. A name given twice is recorded as the duplicate_key repair,
// which phase two refuses (which value counts would be ambiguous); arguments stay in the
// order they were written in.
inline void set_argument(Candidate& c, const std::string& key, json value);

// The problem of a candidate nested past Limits::max_depth, as every reader says it.
inline void set_too_deep(Candidate& c, std::size_t max_depth) {
    c.problem = "nesting deeper than the limit of " + std::to_string(max_depth) + " levels";
    c.problem_too_deep = true;
}

// What few blocks have (content a block only frames, an answer it wraps), kept apart from
// the block: a parse holds a block per call to the end, and a hostile run of tiny calls
// must cost about its own size in blocks, not 128 bytes a call.
struct BlockFraming {
    // Spans inside the block that are content the syntax only frames (Functionary v3.2's
    // `>>>all\n` message text): kept in content, while the rest of the block is removed as
    // syntax even when the block holds no candidate. Sorted, non-overlapping.
    std::vector<std::pair<std::size_t, std::size_t>> content;
    // The model's answer the block wraps, decoded (llama.cpp's generic `{"response": "…"}`):
    // stands in the content where the block stood, which is removed as framing. A block
    // with an answer and no candidate is an answer, not tool syntax.
    std::optional<std::string> answer;
};

// A block's candidates, in one allocation whose header also holds the block's rarer parts
// (its framing, a dropped count past 32 bits). A parse holds a block record per call to
// the end, and a hostile run of tiny calls must cost about its own size in records: with
// the header here, a block is 32 bytes, and one whose candidates were all dropped or
// judged holds a null pointer. The list frees its allocation once it holds nothing.
// Vector-like, for the few operations blocks need; iterators are pointers, invalidated
// by any change, as a vector's are.
class CandidateList {
public:
    using value_type = Candidate;
    using iterator = Candidate*;
    using const_iterator = const Candidate*;

    CandidateList() = default;
    CandidateList(CandidateList&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    CandidateList& operator=(CandidateList&& o) noexcept {
        if (this != &o) {
            release();
            h_ = std::exchange(o.h_, nullptr);
        }
        return *this;
    }
    CandidateList(const CandidateList& o) {
        if (!o.h_) return;
        // Built whole aside: a copy that throws halfway frees what it made.
        CandidateList copy;
        copy.reallocate(o.size());
        for (const Candidate& c : o) copy.push_back(c);
        if (o.h_->framing) copy.h_->framing = std::make_unique<BlockFraming>(*o.h_->framing);
        copy.h_->dropped_over = o.h_->dropped_over;
        h_ = std::exchange(copy.h_, nullptr);
    }
    CandidateList& operator=(const CandidateList& o) { return *this = CandidateList(o); }
    ~CandidateList() { release(); }

    std::size_t size() const { return h_ ? h_->size : 0; }
    bool empty() const { return size() == 0; }
    iterator begin() { return data(); }
    iterator end() { return data() + size(); }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + size(); }
    Candidate& operator[](std::size_t i) { return data()[i]; }
    const Candidate& operator[](std::size_t i) const { return data()[i]; }
    Candidate& front() { return data()[0]; }
    const Candidate& front() const { return data()[0]; }
    Candidate& back() { return data()[size() - 1]; }
    const Candidate& back() const { return data()[size() - 1]; }

    // Moved straight into its room when there is room (a candidate is many strings and a
    // JSON document: each move of it counts in a short parse); moved aside first when the
    // room must grow, in case it is one of this very list's.
    void push_back(Candidate&& c) {
        if (size() == capacity()) {
            Candidate aside(std::move(c));
            reallocate(std::max<std::size_t>(1, 2 * size()));
            new (data() + h_->size) Candidate(std::move(aside));
        } else {
            new (data() + h_->size) Candidate(std::move(c));
        }
        ++h_->size;
    }
    void push_back(const Candidate& c) { push_back(Candidate(c)); }
    void reserve(std::size_t n) {
        if (n > capacity()) reallocate(n);
    }
    iterator erase(const_iterator first, const_iterator last) {
        const auto at = static_cast<std::size_t>(first - data());
        const auto n = static_cast<std::size_t>(last - first);
        if (n == 0) return data() + at;
        Candidate* d = data();
        std::move(d + at + n, d + h_->size, d + at);
        for (std::size_t i = h_->size - n; i < h_->size; ++i) d[i].~Candidate();
        h_->size -= n;
        free_if_unused();
        return data() + at;
    }
    iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
    void clear() { erase(begin(), end()); }
    void shrink_to_fit() {
        if (h_ && h_->size < h_->cap) reallocate(h_->size);
        free_if_unused();
    }

    // The block's rarer parts, kept in the same header (Block's accessors).
    BlockFraming* framing() const { return h_ ? h_->framing.get() : nullptr; }
    BlockFraming& make_framing() {
        if (!h_) reallocate(0);
        if (!h_->framing) h_->framing = std::make_unique<BlockFraming>();
        return *h_->framing;
    }
    std::size_t dropped_over() const { return h_ ? h_->dropped_over : 0; }
    void add_dropped_over(std::size_t n) {
        if (!h_) reallocate(0);
        h_->dropped_over += n;
    }

private:
    struct Header {
        std::size_t size = 0, cap = 0;
        std::unique_ptr<BlockFraming> framing;
        std::size_t dropped_over = 0;
    };
    static_assert(alignof(Candidate) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    static constexpr std::size_t header_room = (sizeof(Header) + alignof(Candidate) - 1) / alignof(Candidate) * alignof(Candidate);

    std::size_t capacity() const { return h_ ? h_->cap : 0; }
    Candidate* data() const {
        return h_ ? reinterpret_cast<Candidate*>(reinterpret_cast<char*>(h_) + header_room) : nullptr;
    }
    // New room for `cap` candidates (at least the ones held), the header moved along.
    void reallocate(std::size_t cap) {
        auto* fresh = new (::operator new(header_room + cap * sizeof(Candidate))) Header{};
        fresh->cap = cap;
        if (h_) {
            auto* to = reinterpret_cast<Candidate*>(reinterpret_cast<char*>(fresh) + header_room);
            Candidate* from = data();
            for (std::size_t i = 0; i < h_->size; ++i) {
                new (to + i) Candidate(std::move(from[i]));
                from[i].~Candidate();
            }
            fresh->size = h_->size;
            fresh->framing = std::move(h_->framing);
            fresh->dropped_over = h_->dropped_over;
            h_->size = 0;
            release();
        }
        h_ = fresh;
    }
    void free_if_unused() {
        if (h_ && h_->size == 0 && !h_->framing && h_->dropped_over == 0) release();
    }
    void release() {
        if (!h_) return;
        Candidate* d = data();
        for (std::size_t i = 0; i < h_->size; ++i) d[i].~Candidate();
        h_->~Header();
        ::operator delete(h_);
        h_ = nullptr;
    }

    Header* h_ = nullptr;
};

struct Block {
    std::size_t begin = 0, end = 0;
    CandidateList candidates;

    // Candidates past the profile's max_candidates are never judged: the combinator keeps
    // only how many there were and whether any was read without a problem, not their
    // documents (thousands of tiny hostile calls would otherwise be held to the end).
    std::size_t dropped() const { return dropped_ + candidates.dropped_over(); }
    void add_dropped(std::size_t n) {
        const std::size_t room = std::numeric_limits<std::uint32_t>::max() - dropped_;
        dropped_ += static_cast<std::uint32_t>(std::min(n, room));
        if (n > room) candidates.add_dropped_over(n - room);  // past 32 bits: in the list's header
    }

private:
    std::uint32_t dropped_ = 0;

public:
    Role role = Role::primary;  // set by the combinator: which part of the profile found it
    bool dropped_clean = false;
    // Where the block stands, set before phase two.
    bool in_reasoning = false, in_example = false;

    const std::vector<std::pair<std::size_t, std::size_t>>& content() const {
        static const std::vector<std::pair<std::size_t, std::size_t>> none;
        const BlockFraming* f = candidates.framing();
        return f ? f->content : none;
    }
    const std::optional<std::string>& answer() const {
        static const std::optional<std::string> none;
        const BlockFraming* f = candidates.framing();
        return f ? f->answer : none;
    }
    BlockFraming& framing() { return candidates.make_framing(); }
    bool has_framing() const { return candidates.framing() != nullptr; }
};
static_assert(sizeof(void*) != 8 || sizeof(Block) == 32, "a block record is 32 bytes: a parse holds one per call");

// Keeps a block's first `room` candidates; the others are only counted (dropped), as past
// max_candidates: the one-shot scan's limit across blocks, and the stream's for blocks
// that wait to be judged.
inline void keep_first_candidates(Block& b, std::size_t room) {
    if (b.candidates.size() <= room) return;
    const auto first_dropped = b.candidates.begin() + static_cast<std::ptrdiff_t>(room);
    b.dropped_clean = b.dropped_clean || std::any_of(first_dropped, b.candidates.end(),
                                                     [](const Candidate& c) { return c.problem.empty(); });
    b.add_dropped(b.candidates.size() - room);
    b.candidates.erase(first_dropped, b.candidates.end());
    b.candidates.shrink_to_fit();  // an emptied vector would still hold its candidates' room
}

// Adds a candidate to a block, or only counts it once the block holds max_candidates: a
// block that is a run of calls (Functionary's messages) keeps no more documents than a
// parse can judge. Of the candidates past max_input_bytes only the first is kept, where
// the combinator cuts the block (clip_to_limit); the others are neither kept nor counted.
inline void add_candidate(Block& b, Candidate c, const Limits& limits) {
    if (c.begin >= limits.max_input_bytes) {
        if (b.candidates.empty() || b.candidates.back().begin < limits.max_input_bytes)
            b.candidates.push_back(std::move(c));
        return;
    }
    if (b.candidates.size() < limits.max_candidates) {
        b.candidates.push_back(std::move(c));
        return;
    }
    b.add_dropped(1);
    b.dropped_clean = b.dropped_clean || c.problem.empty();
}

}  // namespace toolgram::detail

#include "value/value_reader.hpp"

namespace toolgram::detail {

inline void set_argument(Candidate& c, const std::string& key, json value) {
    if (!c.arguments.is_object()) c.arguments = json::object();
    auto& object = c.arguments.get_ref<json::object_t&>();
    constexpr std::size_t few = 16;
    bool repeated = false;
    if (object.size() < few) {
        for (const auto& member : object) repeated = repeated || member.first == key;
    } else {
        if (c.argument_keys.size() != object.size()) {  // first use, or the object was replaced
            c.argument_keys.clear();
            for (const auto& member : object) c.argument_keys.insert(member.first);
        }
        repeated = !c.argument_keys.insert(key).second;
    }
    if (repeated) {
        c.repairs |= repair_duplicate_key;  // refused in phase two; the first stays
        return;
    }
    // Appended directly: ordered_json's own insert searches linearly for the key.
    object.emplace_back(key, std::move(value));
}

}  // namespace toolgram::detail
