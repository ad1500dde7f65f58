// The tag format: a JSON payload between an opening and a closing tag.
//
//   [TOOL_CALL]{"name": "get_weather", "args": {"city": "Antwerp"}}[/TOOL_CALL]
//   <tool name="get_weather">{"city": "Antwerp"}</tool>
//   <tool_call>{"name": …, "arguments": …}</tool_call>
//
// The first pair of tags is configurable at run time (Settings::tag_open/tag_close); the
// payload is one object or an array of objects, optionally in a ``` fence. After the
// payload: the end tag; or the end of output (the tag was cut off: healed); or stray text
// and then the end tag (ignored, reported); or no end tag anywhere (the block ends at the
// payload, reported). A tag followed by anything but a payload is a mention in prose.
#pragma once

#include <tao/pegtl.hpp>

#include "fence.hpp"
#include "lenient_value.hpp"
#include "markup.hpp"
#include "runtime_literal.hpp"

namespace toolgram::grammar::tag {
using namespace tao::pegtl;
using tao::pegtl::opt;  // a using-declaration: valijson brings a global `opt` into view
using lenient::ws;

struct open_tag_of {
    template <typename State>
    static std::string_view get(const State& st) { return st.settings->tag_open; }
};
struct close_tag_of {
    template <typename State>
    static std::string_view get(const State& st) { return st.settings->tag_close; }
};

struct payload : seq<at<one<'{', '['>>, lenient::value> {};
struct fenced_payload : seq<fence::open, ws, payload, ws, opt<fence::close>> {};
struct body : seq<ws, sor<fenced_payload, payload>, ws> {};

struct end_cut_off : eof {};        // output ended where the end tag was due: healed
struct missing_end_tag : success {};  // no end tag follows at all: block ends here

// [TOOL_CALL] … [/TOOL_CALL], tags from the settings.
struct configured_open : runtime_literal<open_tag_of> {};
struct configured_close : runtime_literal<close_tag_of> {};
struct configured_end : sor<configured_close, end_cut_off, skip_to_literal<close_tag_of>, missing_end_tag> {};
struct configured_block : seq<configured_open, body, configured_end> {};

// <tool name="NAME"> ARGS </tool>
struct named_open : seq<string<'<', 't', 'o', 'o', 'l'>, plus<space>, markup::attributes, star<space>, one<'>'>> {};
struct named_close : fixed<'<', '/', 't', 'o', 'o', 'l', '>'> {};
struct named_end : sor<runtime_literal<named_close>, end_cut_off, skip_to_literal<named_close>, missing_end_tag> {};
struct named_block : seq<named_open, body, named_end> {};

// <tool_call> … </tool_call>
struct tool_call_open : string<'<', 't', 'o', 'o', 'l', '_', 'c', 'a', 'l', 'l', '>'> {};
struct tool_call_close : fixed<'<', '/', 't', 'o', 'o', 'l', '_', 'c', 'a', 'l', 'l', '>'> {};
struct tool_call_end
    : sor<runtime_literal<tool_call_close>, end_cut_off, skip_to_literal<tool_call_close>, missing_end_tag> {};
struct tool_call_block : seq<tool_call_open, body, tool_call_end> {};

struct block : sor<configured_block, named_block, tool_call_block> {};

}  // namespace toolgram::grammar::tag
