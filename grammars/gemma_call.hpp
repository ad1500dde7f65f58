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
#pragma once

#include <tao/pegtl.hpp>

#include "error_messages.hpp"
#include "json_block.hpp"
#include "lenient_value.hpp"
#include "runtime_literal.hpp"
#include "spelling.hpp"

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

// Values.
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
struct value : sor<string_value<D>, lenient::string_value, lenient::number, object<D>, array<D>, lenient::literal> {};

// Calls.
struct call_keyword : str<"call:"> {};
struct function_name : plus<sor<alnum, one<'_', '-', '.'>>> {};
template <typename D>
struct arguments : object<D> {};
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
struct json_instead_of_call : seq<at<one<'{'>>, raise<call_keyword>> {};
struct block_start : sor<at<call_keyword>, json_instead_of_call> {};
template <typename Open, typename D>
struct block : seq<Open, ws, block_start, calls<D>, ws, json_block::end<typename D::close>> {};

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
inline constexpr const char* message<gemma_call::arguments<D>> = "'{' expected after the function name";
template <>
inline constexpr const char* message<gemma_call::function_name> = "function name expected after call:";
template <>
inline constexpr const char* message<gemma_call::call_keyword> =
    "call:NAME{key:value,…} expected after the opening token, not JSON";
}  // namespace toolgram::grammar::errors
