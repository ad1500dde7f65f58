// Markup pieces shared by the XML-style grammars: tag names, attributes, CDATA, and a
// generic element whose content is either child elements or raw text.
//
// Content is decided per element: child elements when the content starts with a tag and
// parses as elements up to the matching close tag; otherwise raw text up to the close
// tag, found with the scan context's cached search (values may hold `<`, `>`, code).
// CDATA wraps a raw value that may contain anything, including the close tag. The close
// tag must name the element being closed (`matching_close`, a run-time rule). Elements
// nest only up to the run-time depth limit.
#pragma once

#include <tao/pegtl.hpp>

#include "common/lenient_value.hpp"
#include "common/runtime_literal.hpp"

namespace toolgram::grammar::markup {
using namespace tao::pegtl;

struct name_start : sor<alpha, one<'_'>> {};
struct name_rest : star<sor<alnum, one<'_', '-', '.', ':'>>> {};
struct tag_name : seq<name_start, name_rest> {};

struct attr_name : seq<name_start, name_rest> {};
struct attr_dq_text : star<not_one<'"'>> {};
struct attr_sq_text : star<not_one<'\''>> {};
// An unquoted value ends before '<' too: `<function name= <function name= …` must fail at
// the next tag, or each opener's attribute list would run over all the openers after it
// (quadratic on an output of openers that never close).
struct attr_bare_text : plus<not_one<' ', '\t', '\r', '\n', '<', '>', '/', '"', '\''>> {};
struct attr_value
    : sor<seq<one<'"'>, attr_dq_text, one<'"'>>, seq<one<'\''>, attr_sq_text, one<'\''>>, attr_bare_text> {};
struct attribute : seq<attr_name, star<space>, one<'='>, star<space>, attr_value> {};
struct attributes : list<attribute, plus<space>> {};

struct cdata_open : string<'<', '!', '[', 'C', 'D', 'A', 'T', 'A', '['> {};
struct cdata_close : string<']', ']', '>'> {};
struct cdata_text : until<at<cdata_close>> {};
struct cdata : seq<cdata_open, cdata_text, cdata_close> {};

// The close tag of the innermost open element (its name is on the state's stack).
struct open_name_of {
    template <typename State>
    static std::string_view get(const State& st) { return st.close_tag(); }
};
struct matching_close : runtime_literal<open_name_of> {};

struct element;

struct element_open : seq<one<'<'>, tag_name, opt<plus<space>, attributes>, star<space>> {};
struct self_closing : string<'/', '>'> {};
struct open_end : one<'>'> {};

// Children: one or more elements with whitespace between, then the close tag (or the end
// of output, which heals the missing close tags).
struct children_end : sor<matching_close, eof> {};
struct children : seq<star<space>, at<one<'<'>, name_start>, plus<element, star<space>>, children_end> {};

// CDATA value: whitespace, the section, whitespace, the close tag.
struct cdata_content : seq<star<space>, cdata, star<space>, matching_close> {};

// Raw text up to the close tag. Without a close tag the value was cut: the text runs to
// the end of output and the action reports the cut.
struct text_then_close : skip_to_literal<open_name_of> {};
struct text_cut : rest_of_input {};
struct text_content : sor<text_then_close, text_cut> {};

struct content : sor<cdata_content, children, text_content> {};
struct element_body : seq<element_open, sor<self_closing, seq<open_end, content>>> {};
struct element : lenient::depth_limited<element_body> {};

}  // namespace toolgram::grammar::markup
