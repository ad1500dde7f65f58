// The text key-value format: name and arguments on labelled lines. Only ever a fallback.
//
//   function.name: get_weather
//   function.arguments: {"city": "Antwerp"}
//
//   Action: get_weather
//   Action Input: {"city": "Antwerp"}
//
// Often wrapped in a history marker ([TOOL_CALL_HISTORY] … [/TOOL_CALL_HISTORY]), which is
// then part of the block. The arguments may sit in a ``` fence. A `status:` line in the
// wrapper (or straight after the pair) makes the block a record of a call already made,
// echoed from the prompt's history (`status: already_called`): read, so it is reported,
// and never a new call.
#pragma once

#include <tao/pegtl.hpp>

#include "common/fence.hpp"
#include "common/lenient_value.hpp"

namespace toolgram::grammar::text_kv {
using namespace tao::pegtl;
using lenient::ws;

// A name is short: at most 256 bytes before the line ends. Unbounded, every label in a
// line with no end (`Action: Action: …`) would read to the end of the input, which is
// quadratic; a longer "name" is prose, not a call.
struct name_text : rep_min_max<1, 256, not_one<'\r', '\n'>> {};
struct line_gap : seq<star<blank>, eol, star<space>> {};
struct arguments_value : seq<at<one<'{', '['>>, lenient::value> {};
struct arguments : seq<ws, sor<seq<fence::open, ws, arguments_value, ws, opt<fence::close>>, arguments_value>> {};

struct function_name_key : string<'f', 'u', 'n', 'c', 't', 'i', 'o', 'n', '.', 'n', 'a', 'm', 'e', ':'> {};
struct function_arguments_key
    : string<'f', 'u', 'n', 'c', 't', 'i', 'o', 'n', '.', 'a', 'r', 'g', 'u', 'm', 'e', 'n', 't', 's', ':'> {};
struct function_pair : seq<function_name_key, star<blank>, name_text, line_gap, function_arguments_key, arguments> {};

struct action_key : string<'A', 'c', 't', 'i', 'o', 'n', ':'> {};
struct action_input_key : string<'A', 'c', 't', 'i', 'o', 'n', ' ', 'I', 'n', 'p', 'u', 't', ':'> {};
struct react_pair : seq<action_key, star<blank>, name_text, line_gap, action_input_key, arguments> {};

struct pair : sor<function_pair, react_pair> {};

struct history_open : string<'[', 'T', 'O', 'O', 'L', '_', 'C', 'A', 'L', 'L', '_', 'H', 'I', 'S', 'T', 'O', 'R', 'Y', ']'> {};
struct history_close
    : string<'[', '/', 'T', 'O', 'O', 'L', '_', 'C', 'A', 'L', 'L', '_', 'H', 'I', 'S', 'T', 'O', 'R', 'Y', ']'> {};
// The outcome of a call in the history: at most 256 bytes before the line ends, as a name.
struct status_key : string<'s', 't', 'a', 't', 'u', 's', ':'> {};
struct status_value : rep_max<256, not_one<'\r', '\n'>> {};
struct status_line : seq<status_key, star<blank>, status_value, at<sor<eol, eof>>> {};
struct status_before : seq<status_line, star<space>> {};
struct status_after : seq<star<space>, status_line> {};
struct wrapped
    : seq<history_open, star<space>, opt<status_before>, pair, opt<status_after>, star<space>, opt<history_close>> {};
struct bare : seq<pair, opt<seq<line_gap, status_line>>> {};

struct block : sor<wrapped, bare> {};

}  // namespace toolgram::grammar::text_kv
