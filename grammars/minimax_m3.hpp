// minimax_m3: MiniMax-M3. Every structural tag carries the namespace token `]<]minimax[>[`
// (NS below) in front of it, and a parameter is an element named after the parameter:
//
//   NS<tool_call>
//   NS<invoke name="create_order">NS<user_id>42NS</user_id>NS<shipping>NS<city>PortoNS</city>NS</shipping>NS<items>NS<item>NS<sku>b-1NS</sku>NS</item>NS</items>NS</invoke>
//   NS<invoke name="get_time">NS</invoke>
//   NS</tool_call>
//
// Several invokes per block, one line each in the template's rendering; none of the
// parameters is separated from the next. A value is text up to the next NS (its closer, or
// its first child): the template writes strings verbatim, numbers and booleans as their
// JSON text, an object as one child element per member and an array as one `item` child
// per element, recursively. Which of those a value is, and how a text leaf is typed, the
// reader decides from the tool's schema (src/actions/minimax_m3.cpp); the rules only see
// elements and text.
//
// The engines' readers tolerate blanks between NS and its tag (SGLang normalises them),
// and so do these rules. A text leaf holds anything but NS, so `<`, `>` and code are text;
// an NS inside a value that starts no element nor closer is not the syntax's and raises,
// so the call is refused with a reason instead of guessed at. An element's closer may be
// left out where the invoke or the block visibly ends (healed, noted); a closer that names
// another element refuses the call (the reader compares the names, which PEGTL cannot).
// Output ending inside a value is a cut (never accepted); the invoke's and the block's
// closers may be cut off at the end (healed). The wrapper alone, before prose, is a
// mention; before another NS tag than an invoke it is broken syntax, refused; once an
// invoke opens inside it the call commits.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/lenient_value.hpp"  // depth_limited
#include "common/params.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::minimax_m3 {
using namespace tao::pegtl;

struct ns : str<"]<]minimax[>["> {};
struct tag_gap : plus<space> {};  // blanks SGLang's reader removes between NS and its tag

struct block_open : seq<ns, opt<tag_gap>, str<"<tool_call>">> {};
struct block_close : seq<ns, opt<tag_gap>, str<"</tool_call>">> {};
struct invoke_start : seq<ns, opt<tag_gap>, str<"<invoke">> {};
struct invoke_open : params::attribute_open<invoke_start> {};
struct invoke_close : seq<ns, opt<tag_gap>, str<"</invoke>">> {};

// Element names are the tool's parameter names and the members of its objects: anything
// JSON keys hold but markup punctuation and blanks (`$filter`, `año`, `param-1`). The
// structural tags' own names are not element names, so a block or invoke that starts
// where a value's closer is due ends the value rather than nesting in it.
struct name_char : not_one<'<', '>', '/', '"', '\'', '=', ' ', '\t', '\r', '\n'> {};
struct reserved_name : seq<sor<str<"tool_call">, str<"invoke">>, one<'>'>> {};
struct element_name : seq<not_at<reserved_name>, plus<name_char>> {};
struct element_open : seq<ns, opt<tag_gap>, one<'<'>, element_name, one<'>'>> {};
struct close_name : seq<not_at<reserved_name>, plus<name_char>> {};
struct element_close : seq<ns, opt<tag_gap>, str<"</">, close_name, one<'>'>> {};

// Text up to the next NS: a leaf's value, or the blanks between children.
struct text : star<not_at<ns>, any> {};

// Where an element ends: its closer; the invoke's or the block's tags, the element's closer
// left out; or the end of output inside the value (a cut).
struct structure_ahead : sor<invoke_close, invoke_start, block_close, block_open> {};
struct element_close_missing : at<structure_ahead> {};
struct value_cut : eof {};  // not params::value_cut, which takes the rest: here a value ends at NS
struct element_end : sor<element_close, element_close_missing, value_cut> {};

struct element;
struct content : seq<text, star<element, text>> {};
struct element_body : seq<element_open, content, must<element_end>> {};
struct element : lenient::depth_limited<element_body> {};

// A parameter is an element at the invoke's level (the reader keeps its own stack).
struct parameter : seq<element> {};

struct invoke : params::committed_call<invoke_open, parameter, invoke_close, sor<invoke_start, block_close, block_open>> {};
// Prose never holds the namespace token, so a block whose first tag is another than an
// invoke is broken tool syntax, refused with a reason, not a mention. (An empty block is
// syntax holding no call: src/readers/unreadable_syntax.cpp reads it.)
// `invoke_required` is invoke_open under another name: the message belongs to this one
// place, not to invoke_open, which fails quietly wherever the block may end.
struct invoke_required : invoke_open {};
struct invoke_expected : seq<not_at<block_close>, at<ns>, must<invoke_required>> {};
struct first_invoke : sor<invoke, invoke_expected> {};
struct block : seq<block_open, params::ws, first_invoke, params::ws, star<invoke, params::ws>,
                   sor<block_close, params::wrapper_cut_off, params::wrapper_close_missing>> {};

}  // namespace toolgram::grammar::minimax_m3

namespace toolgram::grammar {
template <> inline constexpr bool listened_rule<minimax_m3::name_char> = false;  // one per character
}  // namespace toolgram::grammar

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<minimax_m3::parameter> =
    "]<]minimax[>[<NAME>value]<]minimax[>[</NAME> or ]<]minimax[>[</invoke> expected";
template <> inline constexpr const char* message<minimax_m3::invoke_required> =
    "]<]minimax[>[<invoke name=\"NAME\"> expected after ]<]minimax[>[<tool_call>";
template <> inline constexpr const char* message<minimax_m3::element_end> =
    "]<]minimax[>[ inside a value starts no element and no closer";
}  // namespace toolgram::grammar::errors
