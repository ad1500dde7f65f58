// The marker format: the keyword TOOL_CALL, then a JSON object, with no closing tag.
//
//   TOOL_CALL {"tool_name": "get_weather", "parameters": {"city": "Antwerp"}}
//   TOOL_CALL:
//   ```json
//   {"tool": "get_weather", "params": {"city": "Antwerp"}}
//   ```
//
// The block ends where the object ends, so prose may follow. The keyword must stand as a
// word of its own (not `[TOOL_CALL]`, which is the tag format, nor `CALL_TOOL`); the scan
// checks the byte before it, the rule checks the byte after.
#pragma once

#include <tao/pegtl.hpp>

#include "common/fence.hpp"
#include "common/lenient_value.hpp"

namespace toolgram::grammar::marker {
using namespace tao::pegtl;
using lenient::ws;

struct keyword : string<'T', 'O', 'O', 'L', '_', 'C', 'A', 'L', 'L'> {};
struct keyword_alone : not_at<sor<identifier_other, one<']'>>> {};
struct colon : seq<star<blank>, one<':'>> {};
struct payload : seq<at<one<'{'>>, lenient::value> {};
struct fenced_payload : seq<fence::open, ws, payload, ws, opt<fence::close>> {};
struct block : seq<keyword, keyword_alone, opt<colon>, ws, sor<fenced_payload, payload>> {};

}  // namespace toolgram::grammar::marker
