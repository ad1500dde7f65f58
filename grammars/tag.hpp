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

#include "common/json_block.hpp"
#include "common/markup.hpp"
#include "common/runtime_literal.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::tag {
using namespace tao::pegtl;

struct open_tag_of {
    template <typename State>
    static std::string_view get(const State& st) { return st.settings->tag_open; }
};
struct close_tag_of {
    template <typename State>
    static std::string_view get(const State& st) { return st.settings->tag_close; }
};

// [TOOL_CALL] … [/TOOL_CALL], tags from the settings.
struct configured_open : runtime_literal<open_tag_of> {};
struct configured_block : json_block::block<configured_open, close_tag_of> {};

// <tool name="NAME"> ARGS </tool>
struct named_open : seq<string<'<', 't', 'o', 'o', 'l'>, plus<space>, markup::attributes, star<space>, one<'>'>> {};
struct named_block : json_block::block<named_open, literal<str<"</tool>">>> {};

// <tool_call> … </tool_call>
struct tool_call_open : str<"<tool_call>"> {};
struct tool_call_block : json_block::block<tool_call_open, literal<str<"</tool_call>">>> {};

struct block : sor<configured_block, named_block, tool_call_block> {};

}  // namespace toolgram::grammar::tag
