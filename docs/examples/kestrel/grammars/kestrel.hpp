// kestrel: Kestrel 2, Kestrel 2 Mini — an invented syntax, the worked example of
// docs/adding-a-grammar.md (no real model writes it):
//
//   <<call get_weather>>
//   city = Paris
//   days = 3
//   <</call>>
//
// One block per call; prose may come before, between and after. The name sits in the
// opener; each argument is a line `key = value`. A value is the rest of its line (text,
// typed from the tool's schema later, as XML-style values are), or a JSON string in
// double quotes for text that needs escapes: line breaks, spaces at its ends, a leading
// quote. Quotes do not change the type: the schema does.
//
// A value ends at its line break, or at `<</call>>` on the same line; a value with
// neither before the end of output was cut there and is never accepted. `<</call>>` may
// be left out before the next `<<call`, or cut off by the end of output (healed). An
// opener whose `>>` is not followed by a line break, `<</call>>` or the end of output is
// a mention in prose, not a call; after that the call commits: a line that is not an
// argument before `<</call>>` makes a rejected call with a reason.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/params.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"  // str<"…">: a string rule

namespace toolgram::grammar::kestrel {
using namespace tao::pegtl;

struct open : str<"<<call"> {};
struct close : str<"<</call>>"> {};

// <<call NAME>> and the end of its line.
struct name_char : sor<alnum, one<'_', '-', '.'>> {};
struct call_name : seq<sor<alpha, one<'_'>>, star<name_char>> {};
struct header_end : seq<star<blank>, str<">>">, star<blank>, sor<eol, at<close>, eof>> {};
struct call_open : seq<open, plus<blank>, call_name, header_end> {};

// key = value
struct key : seq<sor<alpha, one<'_'>>, star<name_char>> {};
struct equals : seq<star<blank>, one<'='>, star<blank>> {};
struct escape : seq<one<'\\'>, sor<one<'"', '\\', '/', 'b', 'f', 'n', 'r', 't'>, seq<one<'u'>, rep<4, xdigit>>>> {};
struct quoted_value
    : seq<one<'"'>, star<sor<escape, not_one<'"', '\\', '\r', '\n'>>>, one<'"'>, at<star<blank>, sor<eol, close, eof>>> {};
struct line_value : text_until_first<literal<str<"\n">>, literal<str<"<</call>>">>> {};
struct argument : seq<key, equals, sor<quoted_value, line_value, params::value_cut>> {};

// Where a call ends: its closer; the end of output, or a part of the closer there (cut
// off: healed); or, the closer left out, the next call's opener.
struct closer_cut_off : literal_prefix_at_end<literal<str<"<</call>>">>> {};
struct call_end : sor<close, params::call_cut_off, closer_cut_off, params::call_close_missing<open>> {};
// After the opener only arguments until the call's end: anything else raises with the
// message of `argument` below.
struct call : seq<call_open, params::ws, until<call_end, must<argument>, params::ws>> {};
struct block : seq<call> {};

}  // namespace toolgram::grammar::kestrel

namespace toolgram::grammar {
template <> inline constexpr bool listened_rule<kestrel::name_char> = false;  // one per character
}  // namespace toolgram::grammar

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<kestrel::argument> = "a line `key = value`, or <</call>>, expected";
}  // namespace toolgram::grammar::errors
