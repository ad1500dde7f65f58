// A JSON payload between an opener and a closer: the shape most tool-call syntaxes share.
//
//   OPEN  [```json]  {…} | […]  [```]  CLOSE
//
// Used by the tag format and by every model family that wraps JSON in its own markers
// (hermes, longcat, nemotron, jamba, command_r, …): a family names its opener and closer
// and composes `block<Open, Close>`. After the payload comes the closer; or the end of
// output, or a part of the closer there (`</tool_`: the closer was cut off; healed); or
// stray text and then the closer (ignored, reported); or no closer anywhere (the block
// ends at the payload, reported). An opener followed by anything but a payload is a
// mention in prose, not a block.
#pragma once

#include <string_view>
#include <utility>

#include <tao/pegtl.hpp>

#include "common/fence.hpp"
#include "common/lenient_value.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::json_block {
using namespace tao::pegtl;
using lenient::ws;

struct payload : seq<at<one<'{', '['>>, lenient::value> {};
struct fenced_payload : seq<fence::open, ws, payload, ws, opt<fence::close>> {};
struct body : seq<ws, sor<fenced_payload, payload>, ws> {};

// Reads Rule; where it raises, the failure goes to the state (`further_failed`) and the
// value is skipped: to the block's closer when one follows, else to where it broke (to
// the end of output when it was cut there). With `NextLine`, for values written one a line,
// a broken value spoils only its own: the skip stops at the next line that opens a value
// in its first column (before the closer), where the block reads on. Declines after a
// naming header (`st.named`).
template <typename Rule, bool NextLine = false>
struct guarded {
    using rule_t = guarded;
    using subs_t = type_list<Rule>;

    template <apply_mode A, rewind_mode M, template <typename...> class Action, template <typename...> class Control,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        if (st.named) return false;
        const auto start = in.iterator();
        const std::size_t begin = st.offset_of(in.current());
        const std::size_t input_begin = st.offset_of(in.begin());
        const std::size_t stack = st.stack.size(), keys = st.keys.size();
        // The value broke at `at` for `why`: skipped, the builder as it was before it (its
        // depth guards unwound already).
        const auto skip = [&](std::size_t at, std::string_view why) {
            st.stack.resize(stack);
            st.stack_keys.resize(stack);
            st.frames.resize(stack);
            st.keys.resize(keys);
            st.after_separator = false;
            const std::size_t skip_to = st.further_failed(begin, at, why, NextLine);
            in.iterator() = start;  // back to the value's start, then past what it spoiled
            in.bump(skip_to - begin);
            return true;
        };
        try {
            const bool matched = Control<Rule>::template match<A, M, Action, Control>(in, st);
            if (!st.raised) return matched;
        } catch (const parse_error& e) {
            return skip(input_begin + static_cast<std::size_t>(e.positions().front().byte), e.message());
        }
        const auto raised = std::exchange(st.raised, {});
        return skip(st.offset_of(raised.at), raised.message);
    }
};

// Another call object after the first, read on its own (a list too, where a family
// writes one value a line: further_value, which also reads on after a broken line, as
// MiniMax-M1's one-object-a-line form needs: an indented `{` is still the broken value's).
struct further_payload : seq<at<one<'{'>>, guarded<lenient::value>> {};
struct further_value : seq<at<one<'{', '['>>, guarded<lenient::value, true>> {};
struct further_payloads : star<ws, further_payload> {};
struct calls_body : seq<ws, sor<fenced_payload, seq<payload, further_payloads>>, ws> {};
// Values one a line (MiniMax-M1's `<tool_calls>` form): each read on its own, and a line
// that breaks spoils only itself.
struct value_lines : seq<payload, star<ws, further_value>> {};
struct lines_body : seq<ws, sor<fenced_payload, value_lines>, ws> {};

struct end_cut_off : eof {};          // output ended where the closer was due: healed
struct missing_end_tag : success {};  // no closer follows at all: the block ends here

// Close is a Getter (literal<str<"…">>, fixed<…>, or a settings reader).
template <typename Close>
struct end : sor<runtime_literal<Close>, end_cut_off, literal_prefix_at_end<Close>, skip_to_literal<Close>,
                 missing_end_tag> {};

template <typename Open, typename Close>
struct block : seq<Open, calls_body, end<Close>> {};

// No closer at all: the payload ends the block (TOOL_CALL {…}, <|python_tag|>{…}).
template <typename Open>
struct open_block : seq<Open, body> {};

}  // namespace toolgram::grammar::json_block

namespace tao::pegtl {
// For analyze<>: the guard matches what its rule matches (and, when it raises, more).
template <typename Name, typename Rule, bool NextLine>
struct analyze_traits<Name, toolgram::grammar::json_block::guarded<Rule, NextLine>>
    : analyze_traits<Name, typename seq<Rule>::rule_t> {};
}  // namespace tao::pegtl
