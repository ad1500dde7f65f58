// The call syntax Google's Gemma models write, shared by gemma4 and functiongemma:
//
//   call:NAME{city:Q Paris Q,days:3,tags:[Q a Q,Q b Q],opts:{deep:true},note:null}
//
// where Q is the dialect's string quote token (Gemma 4: `<|"|>`, FunctionGemma:
// `<escape>`). Keys are bare (or quoted); strings are raw text between two quote tokens,
// with no escapes (a string cannot hold the quote token; it may hold `{`, `}`, `[`, `,`
// and newlines); numbers, `true`/`false`/`null` are bare; objects and arrays nest in the
// same style. Names may hold `.` and `-` (`tools.shell-exec`). JSON's and Python's
// quoted strings are taken too, since models slip into them.
//
// Every rule is a template on the dialect D, which names `quote` (a string rule) and
// `close` (the block's closer, a Getter): a string ends at the next quote token, and one
// that meets the block's closer first is broken (not cut). Numbers, literals, separators,
// healing at the end of output and the depth guard are the lenient value grammar's, so a
// value cut by the end of output is refused and one missing only closers heals. Once
// `call:` is seen the call commits: malformed text after it raises at its byte.
//
// Gemma 4 also writes its arguments in parentheses, Python's way, with `:` or `=` after
// each key (hermes-agent#7457: `call:search(query: "blockchain news")`; quartermaster's
// tests: `call:list_orders(status='active')`): the same members, read as the braces' are.
// A dialect may name `bare_text`, a value written with no quotes at all: what an engine
// leaves when it strips the quote tokens with the other special tokens (openclaude#380:
// `call:write_file{content:hello,path:a.txt}`). It is text, typed from the schema later.
#pragma once

#include <tao/pegtl.hpp>

#include "common/error_messages.hpp"
#include "common/json_block.hpp"
#include "common/lenient_value.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::gemma_call {
using namespace tao::pegtl;
using lenient::ws;

// Strings.
template <typename D>
struct string_open : D::quote {};
template <typename D>
struct string_text : text_until_first<literal<typename D::quote>, typename D::close> {};
template <typename D>
struct string_close : D::quote {};
template <typename D>
struct quoted_string : seq<string_open<D>, must<string_text<D>>, must<string_close<D>>> {};
template <typename D>
struct string_value : quoted_string<D> {};

// Keys.
struct bare_key : plus<sor<alnum, one<'_', '-'>>> {};
template <typename D>
struct quoted_key : quoted_string<D> {};
template <typename D>
struct key : sor<quoted_key<D>, lenient::key_string, bare_key> {};

// Values. A dialect's unquoted text, if it has one, is tried first: there `3` and `true`
// are text too, since the quotes that told them apart are gone.
template <typename D>
struct bare_text_of {
    using type = failure;
};
template <typename D>
    requires requires { typename D::bare_text; }
struct bare_text_of<D> {
    using type = typename D::bare_text;
};
template <typename D>
struct value;
template <typename D>
struct member : seq<key<D>, ws, must<lenient::name_separator>, ws, must<value<D>>> {};
template <typename D>
struct object_body : seq<ws, until<lenient::object_end, must<member<D>>, ws, must<lenient::member_end>>> {};
template <typename D>
struct object : seq<lenient::object_open, lenient::depth_limited<object_body<D>>> {};
template <typename D>
struct array_body : seq<ws, until<lenient::array_end, must<value<D>>, ws, must<lenient::element_end>>> {};
template <typename D>
struct array : seq<lenient::array_open, lenient::depth_limited<array_body<D>>> {};
template <typename D>
struct value : sor<typename bare_text_of<D>::type, string_value<D>, lenient::string_value, lenient::number, object<D>,
                   array<D>, lenient::literal> {};

// Unquoted text: up to the next separator or bracket (a value holding one is not read:
// `hello, world` leaves ` world` where a key must stand, and the call is refused). A value
// that opens with a quote is a quoted string's.
template <typename Quote>
struct bare_text : seq<not_at<sor<Quote, one<'"', '\''>>>, plus<not_one<',', '{', '}', '[', ']', '(', ')'>>> {};

// Arguments in parentheses: `(key: value, …)` or `(key=value, …)`.
struct keyword_separator : one<':', '='> {};
template <typename D>
struct keyword_member : seq<key<D>, ws, must<keyword_separator>, ws, must<value<D>>> {};
struct keyword_member_end : sor<lenient::trailing_comma, seq<lenient::value_separator, ws>, at<one<')'>>, at<eof>,
                                lenient::block_closer_ahead> {};
struct keywords_open : one<'('> {};
struct keywords_close : one<')'> {};
struct keywords_end : sor<keywords_close, lenient::healed_end, lenient::closed_at_block_end> {};
template <typename D>
struct keywords_body : seq<ws, until<keywords_end, must<keyword_member<D>>, ws, must<keyword_member_end>>> {};
template <typename D>
struct keyword_arguments : seq<keywords_open, lenient::depth_limited<keywords_body<D>>> {};

// Calls.
struct call_keyword : str<"call:"> {};
struct function_name : plus<sor<alnum, one<'_', '-', '.'>>> {};
template <typename D>
struct arguments : sor<object<D>, keyword_arguments<D>> {};
template <typename D>
struct call : seq<call_keyword, must<function_name>, ws, must<arguments<D>>> {};
struct calls_open : success {};
template <typename D>
struct calls : seq<calls_open, call<D>, star<ws, call<D>>> {};

// A block: the opener, one or more calls, and json_block's end (the closer; the end of
// output, healed; stray text then the closer, reported; or no closer at all). A JSON
// object straight after the opener is what an outdated chat template made models write
// (`{{"name": …}}`): broken tool syntax, reported as such. Anything else after the opener
// is prose that mentions the token.
struct json_instead_of_call : seq<at<one<'{'>>, errors::raise<call_keyword>> {};
struct block_start : sor<at<call_keyword>, json_instead_of_call> {};
template <typename Open, typename D>
struct block : seq<Open, ws, block_start, calls<D>, ws, json_block::end<typename D::close>> {};

// Calls with their tokens stripped (no opener, no closer, no quotes): only where `call:`,
// a name and its arguments' bracket stand, and only as the rest of the output, so that a
// call shown mid-prose is no call. The reader's caller decides what may precede it.
struct stripped_start : at<call_keyword, function_name, ws, one<'{', '('>> {};
template <typename D>
struct stripped_block : seq<stripped_start, calls<D>, ws, eof> {};

}  // namespace toolgram::grammar::gemma_call

namespace toolgram::grammar::errors {
template <typename D>
inline constexpr const char* message<gemma_call::string_text<D>> = "unterminated string";
template <typename D>
inline constexpr const char* message<gemma_call::string_close<D>> = "string not closed before the end of the call";
template <typename D>
inline constexpr const char* message<gemma_call::member<D>> = "key expected";
template <typename D>
inline constexpr const char* message<gemma_call::value<D>> = "value expected";
template <typename D>
inline constexpr const char* message<gemma_call::arguments<D>> = "'{' or '(' expected after the function name";
template <typename D>
inline constexpr const char* message<gemma_call::keyword_member<D>> = "key expected";
template <>
inline constexpr const char* message<gemma_call::keyword_separator> = "':' or '=' expected after the key";
template <>
inline constexpr const char* message<gemma_call::keyword_member_end> = "',' or ')' expected";
template <>
inline constexpr const char* message<gemma_call::function_name> = "function name expected after call:";
template <>
inline constexpr const char* message<gemma_call::call_keyword> =
    "call:NAME{key:value,…} expected after the opening token, not JSON";
}  // namespace toolgram::grammar::errors
