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

#include <tao/pegtl.hpp>

#include "fence.hpp"
#include "lenient_value.hpp"
#include "runtime_literal.hpp"

namespace toolgram::grammar::json_block {
using namespace tao::pegtl;
using lenient::ws;

struct payload : seq<at<one<'{', '['>>, lenient::value> {};
struct fenced_payload : seq<fence::open, ws, payload, ws, opt<fence::close>> {};
struct body : seq<ws, sor<fenced_payload, payload>, ws> {};

struct end_cut_off : eof {};          // output ended where the closer was due: healed
struct missing_end_tag : success {};  // no closer follows at all: the block ends here

// Close is a Getter (literal<TAO_PEGTL_STRING("…")>, fixed<…>, or a settings reader).
template <typename Close>
struct end : sor<runtime_literal<Close>, end_cut_off, literal_prefix_at_end<Close>, skip_to_literal<Close>,
                 missing_end_tag> {};

template <typename Open, typename Close>
struct block : seq<Open, body, end<Close>> {};

// No closer at all: the payload ends the block (TOOL_CALL {…}, <|python_tag|>{…}).
template <typename Open>
struct open_block : seq<Open, body> {};

}  // namespace toolgram::grammar::json_block
