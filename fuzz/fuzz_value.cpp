// Harness for the lenient value reader (src/value/value_reader.hpp `read_value`, the rules of
// grammars/common/lenient_value.hpp), which every payload grammar uses for its arguments.
//
// Oracles (abort on violation):
//  - the same input read twice gives the same outcome; a read never throws;
//  - a successful read ends inside the input, and its value leaves the library as valid
//    UTF-8 JSON once made valid (utf8.hpp) and once each number with leading zeros, held
//    for phase two as a binary node (value_reader.hpp, ambiguous_number), is settled to
//    its text as a string schema settles it; such a node appears exactly when the read
//    reports the leading_zero_number repair (or fewer, when a repeated key dropped one);
//  - differential, against nlohmann's strict parser: a read that needed no repair and no
//    healing, over valid UTF-8, is strict JSON, and nlohmann must parse the bytes read
//    to the same value; conversely, input nlohmann accepts as a whole must read, with no
//    repair, to the same value (past nesting of 64 the reader refuses by design; a key
//    given twice is the one repair allowed, and then the values differ by design: ours
//    keeps the first, nlohmann the last);
//  - the strict fast path (strict_value.hpp) never changes an outcome: every read equals
//    the lenient rules' alone, at the limit and below it; and a value the fast reader
//    takes is one the rules read to the same value and span with no repair, every string
//    of it valid UTF-8;
//  - the depth limit: a limit of d refuses exactly the values nested deeper than d (the
//    text's nesting, which a repeated key's dropped value, or parentheses the value does
//    not keep, may exceed).
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "value/strict_value.hpp"
#include "text/utf8.hpp"
#include "value/value_reader.hpp"

namespace {

using toolgram::detail::Failure;
using toolgram::detail::ValueRead;
using toolgram::detail::read_value;
using toolgram_fuzz::fail;
using toolgram_fuzz::json;

constexpr std::size_t max_depth = 64;

std::string describe(const ValueRead& r) {
    if (!r.ok)
        return "fail " + std::string(toolgram::detail::failure_kind_name(r.failure.kind)) + "@" +
               std::to_string(r.failure.offset) + " " + r.failure.message;
    return "ok " + r.value.dump(-1, ' ', false, json::error_handler_t::replace) + " end " + std::to_string(r.end) +
           " repairs " + std::to_string(r.repairs) + (r.healed ? " healed" : "");
}

// The deepest nesting of JSON containers in `v`, counted without recursion.
std::size_t depth_of(const json& v) {
    std::size_t deepest = 0;
    std::vector<std::pair<const json*, std::size_t>> pending{{&v, 0}};
    while (!pending.empty()) {
        auto [j, d] = pending.back();
        pending.pop_back();
        if (!j->is_structured()) continue;
        deepest = std::max(deepest, d + 1);
        for (const auto& e : *j) pending.emplace_back(&e, d + 1);
    }
    return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ValueRead r = read_value(text, 0, max_depth);
    if (describe(r) != describe(read_value(text, 0, max_depth))) fail("determinism", "read_value differs on a re-read");
    if (describe(r) != describe(read_value(text, 0, max_depth, false, false)))
        fail("strict fast path", "a read differs from the lenient rules' alone");
    if (describe(read_value(text, 0, 2)) != describe(read_value(text, 0, 2, false, false)))
        fail("strict fast path", "a read at depth limit 2 differs from the lenient rules' alone");
    {
        json fast;
        bool healed = false;
        const std::size_t took =
            toolgram::detail::read_strict_value(text.data(), text.data() + size, max_depth, fast, &healed);
        if (took > 0) {
            const ValueRead rules = read_value(text, 0, max_depth, false, false);
            if (!rules.ok || rules.end != took || rules.repairs != 0 || rules.healed != healed || rules.value != fast)
                fail("strict fast path", "the fast reader took a value the rules read otherwise: " + describe(rules));
            if (healed && took != size) fail("strict fast path", "a healed value ends before the text does");
            if (toolgram::detail::make_valid_utf8(fast)) fail("strict fast path", "the fast reader took invalid UTF-8");
        }
    }

    if (r.ok) {
        if (r.end > size || r.end == 0) fail("value", "a read ends outside the input");
        json v = r.value;
        // A repeated key's dropped value may have been the one with leading zeros: then the
        // repair is reported with no node left to settle.
        const bool leading_zeros = (r.repairs & toolgram::detail::repair_leading_zeros) != 0;
        const bool repeated_key = (r.repairs & toolgram::detail::repair_duplicate_key) != 0;
        const bool held = toolgram_fuzz::settle_ambiguous_as_text(v) > 0;
        if (held && !leading_zeros) fail("value", "a number held for phase two with no leading_zero_number repair");
        if (leading_zeros && !held && !repeated_key)
            fail("value", "a leading_zero_number repair with no number held for phase two");
        toolgram::detail::make_valid_utf8(v);
        toolgram_fuzz::check_json_out(v, "a value read");
        const std::string_view read = text.substr(0, r.end);
        if (r.repairs == 0 && !r.healed && toolgram::detail::is_valid_utf8(read)) {
            const json strict = json::parse(read, nullptr, false);
            if (strict.is_discarded()) fail("differential", "a value read with no repair is not strict JSON");
            if (strict != r.value) fail("differential", "a value read with no repair differs from nlohmann's");
        }
        // The depth limit is exact: the value read at 64 levels reads at its own depth
        // and is refused one level below. Not when a key was repeated: the value keeps the
        // first, and a later one dropped may have nested deeper in the text.
        const std::size_t depth = depth_of(r.value);
        if (depth > max_depth) fail("depth", "a value deeper than the limit was read");
        if (depth > 0 && (r.repairs & toolgram::detail::repair_duplicate_key) == 0) {
            // Parentheses around a value (`(1)` is 1 in Python) are a level of the text
            // that the value does not keep: such a value may need a limit above its depth.
            const bool parenthesized = (r.repairs & toolgram::detail::repair_parenthesized_value) != 0;
            if (!parenthesized && !read_value(text, 0, depth).ok)
                fail("depth", "a value is refused at a limit equal to its depth");
            const ValueRead shallow = read_value(text, 0, depth - 1);
            if (shallow.ok || shallow.failure.kind != Failure::too_deep)
                fail("depth", "a value is not refused as too deep at a limit below its depth");
        }
    }

    // Strict JSON as a whole (followed by a newline: a number touching the end of input
    // may be cut, so the reader refuses it there) must read the same, with no repair.
    const json strict = json::parse(text, nullptr, false);
    if (!strict.is_discarded() && depth_of(strict) <= max_depth) {
        const std::string padded = std::string(text) + "\n";
        const ValueRead again = read_value(padded, 0, max_depth);
        if (!again.ok) fail("differential", "strict JSON is refused: " + describe(again));
        // Repeated keys are valid JSON yet a repair for us (phase two refuses the candidate),
        // and the readers keep different values: ours the first, nlohmann the last. Any other
        // strict JSON reads to nlohmann's value, with no repair at all.
        const bool repeated_key = (again.repairs & toolgram::detail::repair_duplicate_key) != 0;
        if (!repeated_key && again.value != strict) fail("differential", "strict JSON reads to another value");
        // nlohmann skips a UTF-8 byte order mark before the value; the reader takes it as
        // the whitespace it is there, and says so (unicode_whitespace).
        const bool bom = text.substr(0, 3) == "\xEF\xBB\xBF";
        const std::uint32_t allowed =
            toolgram::detail::repair_duplicate_key | (bom ? toolgram::detail::repair_unicode_whitespace : 0u);
        if ((again.repairs & ~allowed) != 0) fail("differential", "strict JSON needed a repair: " + describe(again));
    }
    return 0;
}
