// Python call syntax, shared by the bracket format and the pythonic model families:
//
//   get_weather(city="Antwerp", days=3)      ns.tool(flag=True, tags=['a', 'b'])
//
// Argument values are Python literals, read with the lenient value grammar (which knows
// single quotes, True/False/None, tuples, nesting). Keyword arguments only make sense for
// a tool call; a positional argument is matched so it can be reported, not guessed at.
// Once `name(` is seen the call commits: a malformed argument raises at its byte.
#pragma once

#include <tao/pegtl.hpp>

#include "lenient_value.hpp"

namespace toolgram::grammar::python_call {
using namespace tao::pegtl;
using lenient::ws;

struct function_name : list<identifier, one<'.'>> {};
struct call_start : seq<function_name, ws, one<'('>> {};  // lookahead only, under at<>

struct keyword : identifier {};
struct keyword_equals : one<'='> {};
struct keyword_argument : seq<keyword, ws, keyword_equals, ws, must<lenient::value>> {};
struct positional_slot : success {};
struct positional_argument : seq<positional_slot, lenient::value> {};
struct argument : sor<keyword_argument, positional_argument> {};

struct argument_end : sor<lenient::trailing_comma, seq<lenient::value_separator, ws>, at<one<')'>>, at<eof>> {};
struct arguments_open : one<'('> {};
struct arguments_close : one<')'> {};
struct arguments_end : sor<arguments_close, lenient::healed_end> {};
struct arguments_body : seq<ws, until<arguments_end, must<argument>, ws, must<argument_end>>> {};
struct call : seq<function_name, ws, arguments_open, lenient::depth_limited<arguments_body>> {};

}  // namespace toolgram::grammar::python_call

namespace toolgram::grammar::errors {
template <> inline constexpr const char* message<python_call::argument> = "argument expected";
template <> inline constexpr const char* message<python_call::argument_end> = "',' or ')' expected";
}  // namespace toolgram::grammar::errors
