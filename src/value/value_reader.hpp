// Actions for the lenient value grammar (grammars/common/lenient_value.hpp) and the one entry
// point the rest of toolgram uses to read a value: `read_value`.
//
// The actions build an nlohmann::json with an explicit stack (no recursion beyond the
// grammar's own, which `depth_limited` bounds) and record every repair as a flag. Block
// grammars that embed `lenient::value` derive their state from `ValueBuilder` and their
// action template from `value_action`, so one set of actions serves every payload.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>
#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"  // from grammars/
#include "common/lenient_value.hpp"

namespace toolgram::detail {

using json = nlohmann::ordered_json;

// Repairs the lenient grammar can apply; names are what telemetry prints.
enum Repair : std::uint32_t {
    repair_single_quotes = 1u << 0,
    repair_python_literals = 1u << 1,
    repair_trailing_comma = 1u << 2,
    repair_unquoted_keys = 1u << 3,
    repair_raw_control_chars = 1u << 4,
    repair_comments = 1u << 5,
    repair_tuple_as_array = 1u << 6,
    repair_lone_surrogate = 1u << 7,
    repair_unknown_escape = 1u << 8,
    repair_duplicate_key = 1u << 9,
    repair_lenient_number = 1u << 10,
    repair_python_escapes = 1u << 11,  // \x41, \U0001F600, \' in "…", line continuations
    repair_nonjson_whitespace = 1u << 12,  // \v or \f between tokens
    repair_missing_comma = 1u << 13,       // {"a": 1\n"b": 2}, [{} {}]
    repair_unicode_whitespace = 1u << 14,  // NBSP, U+2000–U+200A, U+3000, BOM… between tokens
    repair_python_int_keys = 1u << 15,     // {2: "x"} in Python syntax: the key "2"
    repair_digit_separators = 1u << 16,    // 1_000 in Python syntax
    repair_parenthesized_value = 1u << 17, // (1) is 1 in Python
    repair_leading_zeros = 1u << 18,       // 0789: an ambiguous number, kept as text (ambiguous_number)
    repair_missing_value_closer = 1u << 19,  // the block's closer stood where a value's closer was due
};
void append_repair_names(std::uint32_t repairs, std::vector<std::string>& out);

// An integer written with leading zeros (`0789`, `-007`) reads as octal in C, Java and
// JavaScript's sloppy mode, is an error to Python 3, and decimal to others: what the model
// meant is not in the text. Until phase two decides with the tool's schema (a string there
// keeps the text; anything else refuses the call), it is held as its text in a binary
// node, a kind of JSON value nothing a model writes can produce. Never read as 789.
json ambiguous_number(std::string_view text);
// The text of such a node; nullptr for any other value.
const std::string* ambiguous_number_text(const json& value, std::string& scratch);
// Whether a value holds such a node anywhere (an explicit walk: no recursion).
bool holds_ambiguous_number(const json& value);

class ScanContext;  // scan_context.hpp

// The state the value actions need. Block grammars derive their state from it.
struct ValueBuilder {
    // What kind of container each element of `stack` is: a tuple becomes an array, or the
    // value itself when it holds one value and no comma (`(1)` is 1 in Python).
    enum class Frame : std::uint8_t { plain, tuple, tuple_with_comma };

    // Where the value is read when a block reader reads it (run_rule_at sets both; null
    // for read_value): the scan, and the start of the text it scans.
    ScanContext* ctx = nullptr;
    const char* base = nullptr;
    std::size_t depth = 0;
    std::size_t max_depth = 64;
    std::uint32_t repairs = 0;
    bool healed = false;
    // The input ended where its syntax shows more was coming (a ',' before the cut): why,
    // for the candidate's refusal. Such a value is still built (a stream reads the members
    // complete so far), but never becomes a call.
    std::string unfinished;
    bool after_separator = false;  // a ',' was read and no value has followed it yet
    bool last_was_string = false;  // the value emitted last was a string (missing_item_comma)
    // Set by the Python call grammars: integer keys and digit separators are Python's.
    bool python_syntax = false;
    // The closer of the block the value stands in (`</tool_call>`), where a block grammar
    // knows it: it may end the value in place of a value's closer (block_closer_ahead).
    std::string_view block_closer;
    // Where the rules raised, and why, recorded instead of thrown (error_messages.hpp): set,
    // the parse is unwinding, and its reader turns it into the failure.
    grammar::errors::Raised raised;
    bool strict_fast_path = true;  // read_strict may run (off only to test it against the rules)
    bool root_strict = false;      // the root was read by read_strict: its strings are valid UTF-8
    json root;
    bool has_root = false;
    std::vector<json> stack;
    // The keys of each open object once it has many, for finding repeats without a
    // linear search: toolgram keeps keys in written order (ordered_json), whose lookup is
    // linear, and an object with 10^5 keys must not cost 10^10 comparisons. A small object
    // is searched directly (emit). One entry per stack element.
    std::vector<std::unordered_set<std::string>> stack_keys;
    std::vector<std::string> keys;
    std::vector<Frame> frames;  // one per stack element
    std::string scratch;

    // Whether the block's closer occurs at or after `p` in the scanned text: a comment the
    // output seems to end in swallowed it (lenient::comment_cut_off). False with no closer
    // or no scan.
    bool block_closer_follows(const char* p);
    void emit(json v);
    // The strict fast path (lenient_value.hpp `strict_value`): reads a strict JSON value at
    // [begin, end) in one pass and emits it; the bytes it took, 0 when it declined.
    std::size_t read_strict(const char* begin, const char* end);
    void open(json container, Frame frame = Frame::plain) {
        stack.push_back(std::move(container));
        stack_keys.emplace_back();
        frames.push_back(frame);
    }
    void close();
    // A ',' inside the innermost container: a tuple with one is a tuple.
    void saw_comma() {
        if (!frames.empty() && frames.back() == Frame::tuple) frames.back() = Frame::tuple_with_comma;
    }
    json take_root() {
        has_root = false;
        return std::move(root);
    }
};

// What each JSON two-character escape `\e` stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
// `\r`, `\t`), '\0' for every other byte. A table, not a switch: the strict reader
// decodes an escape every few bytes of code, where a switch's jump was mispredicted.
inline constexpr std::array<char, 256> json_escapes = [] {
    std::array<char, 256> t{};
    t['"'] = '"';
    t['\\'] = '\\';
    t['/'] = '/';
    t['b'] = '\b';
    t['f'] = '\f';
    t['n'] = '\n';
    t['r'] = '\r';
    t['t'] = '\t';
    return t;
}();

// What `\e` stands for, or '\0' when it is no JSON escape; shared by the lenient decoder
// and the strict reader (strict_value.cpp).
constexpr char json_escaped_char(char e) { return json_escapes[static_cast<unsigned char>(e)]; }

// Reads `n` hex digits at raw[i] into `cp`; false when they are not all there.
bool read_hex(std::string_view raw, std::size_t i, std::size_t n, std::uint32_t& cp);

// Decodes a string's raw content (between its quotes) into `out`, recording repairs.
void decode_string_content(std::string_view raw, char quote, std::string& out, std::uint32_t& repairs);
// Converts a matched number to JSON; false when it is out of range.
bool convert_number(std::string_view text, json& out, std::uint32_t& repairs);

namespace pg = tao::pegtl;
namespace lv = toolgram::grammar::lenient;

template <typename Rule>
struct value_action : pg::nothing<Rule> {};

// ---------------------------------------------------------------------------------------
// One compiled instance of the value grammar.
//
// Nearly every reader embeds `lenient::value` and derives its action template from
// value_action, so PEGTL would instantiate the whole value grammar once per reader (and
// per apply mode): about a third of each reader's object code, and of its compile time.
// Instead a reader's match of `lenient::value` goes through this action's `match`, which
// hands the value to `match_value`, compiled once in value_reader.cpp, whenever the
// reader's input, state and control allow: the input every reader runs on, a state that
// is a ValueBuilder, and a control under which the value rules behave as under
// errors::control (errors::reads_values_as_control). The value then parses with the
// actions below and the same control, so it reads, repairs, raises and reports to a
// coverage run exactly as it would inline. So a reader may not give the value's inner
// rules actions of its own: `keeps_value_actions` checks that at compile time.

class watched_input;  // end_watch.hpp

// value_action without the hand-off: what the compiled instance parses with.
template <typename Rule>
struct value_rules_action : value_action<Rule> {};
template <>
struct value_rules_action<lv::value> : pg::nothing<lv::value> {};

// Whether `Action` keeps value_action's action for each of the value rules that have one.
template <template <typename...> class Action, typename... Rules>
inline constexpr bool keeps_actions_of = (std::is_base_of_v<value_action<Rules>, Action<Rules>> && ...);
template <template <typename...> class Action>
inline constexpr bool keeps_value_actions =
    keeps_actions_of<Action, lv::dq_content, lv::sq_content, lv::string_value, lv::bare_key, lv::int_key, lv::key,
                     lv::number, lv::json_true, lv::json_false, lv::json_null, lv::py_true, lv::py_false, lv::py_none,
                     lv::object_open, lv::array_open, lv::tuple_open, lv::object_close, lv::array_close,
                     lv::tuple_close, lv::value_separator, lv::healed_end, lv::trailing_comma,
                     lv::closed_at_block_end, lv::missing_member_comma, lv::missing_item_comma, lv::unicode_space,
                     lv::comment_cut_off, lv::other_space, lv::comment>;

// Matches one lenient value at `in` with the value actions (`apply`) or none, rewinding
// on failure; a malformed value raises tao::pegtl::parse_error as the rules do.
bool match_value(watched_input& in, ValueBuilder& st, bool apply);

template <>
struct value_action<lv::value> : pg::nothing<lv::value> {
    template <typename Rule, pg::apply_mode A, pg::rewind_mode M, template <typename...> class Action,
              template <typename...> class Control, typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        static_assert(keeps_value_actions<Action>,
                      "a reader's action template gives a rule of the value grammar an action of its own; "
                      "values are read with value_action's (src/value/value_reader.hpp)");
        if constexpr (std::is_same_v<ParseInput, watched_input> && std::is_base_of_v<ValueBuilder, State> &&
                      grammar::errors::reads_values_as_control<Control>)
            return match_value(in, st, A == pg::apply_mode::action);
        else
            return pg::match<Rule, A, M, value_rules_action, Control>(in, st);
    }
};

template <>
struct value_action<lv::dq_content> {
    template <typename Input>
    static void apply(const Input& in, ValueBuilder& b) {
        b.scratch.clear();
        decode_string_content(in.string_view(), '"', b.scratch, b.repairs);
    }
};
template <>
struct value_action<lv::sq_content> {
    template <typename Input>
    static void apply(const Input& in, ValueBuilder& b) {
        b.scratch.clear();
        b.repairs |= repair_single_quotes;
        decode_string_content(in.string_view(), '\'', b.scratch, b.repairs);
    }
};
template <>
struct value_action<lv::string_value> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.emit(json(std::move(b.scratch))); }
};
template <>
struct value_action<lv::bare_key> {
    template <typename Input>
    static void apply(const Input& in, ValueBuilder& b) {
        b.repairs |= repair_unquoted_keys;
        b.scratch.assign(in.begin(), in.end());
    }
};
template <>
struct value_action<lv::int_key> {
    template <typename Input>
    static void apply(const Input& in, ValueBuilder& b) {
        b.repairs |= repair_python_int_keys;
        b.scratch.clear();
        for (char c : in.string_view())
            if (c != '_') b.scratch += c;
        if (b.scratch == "-0") b.scratch = "0";
    }
};
template <>
struct value_action<lv::key> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.keys.push_back(std::move(b.scratch)); }
};
template <>
struct value_action<lv::number> {
    template <typename Input>
    static void apply(const Input& in, ValueBuilder& b) {
        json v;
        if (!convert_number(in.string_view(), v, b.repairs)) {
            grammar::errors::raise_at("number out of range", in, b);
            return;
        }
        b.emit(std::move(v));
    }
};
template <>
struct value_action<lv::json_true> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.emit(json(true)); }
};
template <>
struct value_action<lv::json_false> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.emit(json(false)); }
};
template <>
struct value_action<lv::json_null> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.emit(json(nullptr)); }
};
template <>
struct value_action<lv::py_true> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) {
        b.repairs |= repair_python_literals;
        b.emit(json(true));
    }
};
template <>
struct value_action<lv::py_false> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) {
        b.repairs |= repair_python_literals;
        b.emit(json(false));
    }
};
template <>
struct value_action<lv::py_none> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) {
        b.repairs |= repair_python_literals;
        b.emit(json(nullptr));
    }
};
template <>
struct value_action<lv::object_open> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.open(json::object()); }
};
template <>
struct value_action<lv::array_open> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.open(json::array()); }
};
template <>
struct value_action<lv::tuple_open> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.open(json::array(), ValueBuilder::Frame::tuple); }
};
template <>
struct value_action<lv::object_close> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.close(); }
};
template <>
struct value_action<lv::array_close> : value_action<lv::object_close> {};
template <>
struct value_action<lv::tuple_close> : value_action<lv::object_close> {};
// A ',' says another member, element or argument follows: an output that ends after one
// was cut mid-value, whatever closers healing could supply.
inline constexpr const char* cut_after_separator =
    "the output ends after a ',', so more was coming: a call cut short is never healed";
inline void note_cut_after_separator(ValueBuilder& b) {
    if (b.after_separator && b.unfinished.empty()) b.unfinished = cut_after_separator;
}

template <>
struct value_action<lv::value_separator> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) {
        b.after_separator = true;
        b.saw_comma();
    }
};
template <>
struct value_action<lv::healed_end> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) {
        note_cut_after_separator(b);
        b.healed = true;
        b.close();
    }
};
template <>
struct value_action<lv::trailing_comma> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) {
        b.repairs |= repair_trailing_comma;
        b.saw_comma();
    }
};
// The block's closer where this container's closer was due: closed as at the end of
// output, but the output goes on, so nothing is healed; the repair says what was supplied.
template <>
struct value_action<lv::closed_at_block_end> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) {
        b.repairs |= repair_missing_value_closer;
        b.close();
    }
};
template <>
struct value_action<lv::missing_member_comma> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.repairs |= repair_missing_comma; }
};
template <>
struct value_action<lv::missing_item_comma> : value_action<lv::missing_member_comma> {};
template <>
struct value_action<lv::unicode_space> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.repairs |= repair_unicode_whitespace; }
};
// The output ends inside a comment: cut there, as a value lacking only its closers is.
template <>
struct value_action<lv::comment_cut_off> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.healed = true; }
};
template <>
struct value_action<lv::other_space> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.repairs |= repair_nonjson_whitespace; }
};
template <>
struct value_action<lv::comment> {
    template <typename Input>
    static void apply(const Input&, ValueBuilder& b) { b.repairs |= repair_comments; }
};

// ---------------------------------------------------------------------------------------
// Failures, classified the way the gates need them.

enum class Failure {
    none,
    cut,       // the input ended inside a value: never accepted as a call
    syntax,    // malformed at `offset`
    too_deep,  // nesting limit hit
    unclosed,  // a closer was missing where healing is not allowed (not at end of output)
};

struct FailureInfo {
    Failure kind = Failure::none;
    std::size_t offset = 0;  // absolute byte offset in the text given
    std::string message;
};

// Turns a parse_error raised at absolute `offset` of `text` into a classified failure:
// a raise at the end of input, inside an unterminated string, or on a literal's prefix
// that the input ends in, is a cut.
FailureInfo classify_failure(std::string_view text, std::size_t offset, std::string_view message);

// Reads one lenient value starting at text[pos] (leading whitespace and comments
// allowed). On success `end` is just past the value (trailing whitespace not consumed).
struct ValueRead {
    bool ok = false;
    json value;
    std::size_t end = 0;
    std::uint32_t repairs = 0;
    bool healed = false;
    FailureInfo failure;
};
// `python_syntax`: the value is a Python literal (integer keys, digit separators).
// `strict_fast_path` false reads with the lenient rules alone: for the tests that hold
// the fast path to giving the same outcome (strict_value.hpp).
ValueRead read_value(std::string_view text, std::size_t pos, std::size_t max_depth, bool python_syntax = false,
                     bool strict_fast_path = true);

std::string_view failure_kind_name(Failure kind);

}  // namespace toolgram::detail
