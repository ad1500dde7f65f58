// CWM (Meta's Code World Model): one free-text block per call.
//
//   <tool: bash>
//   ls -la
//   </tool>
//
// The label after `<tool:` names the tool, and the body is the tool's own input, as CWM's
// prompting guide (facebookresearch/cwm PROMPTING_GUIDE.md, "Tool Use") teaches it. vLLM's
// `cwm` parser (vllm/tool_parsers/cwm_tool_parser.py) reads a deployment's variant too,
// whose label is the word `function` and whose body starts with the tool's name
// (`<tool: function>\nterminal echo hi\n</tool>`), and a shorthand without the `>`
// (`<tool: python import os; print(1) </tool>`: the label is the tool). The tags are read
// in any case, as vLLM reads them; whitespace may stand between `<tool:`, the label and `>`.
// The body runs to the first `</tool>`; with no `</tool>` before the end of output the
// call was cut (free text never shows it is complete, so it is never healed). How a body
// becomes arguments (a JSON object, or text put in the one parameter that can take it) is
// the reader's, src/actions/cwm.cpp, which knows the declared tools.
#pragma once

#include <tao/pegtl.hpp>

namespace toolgram::grammar::cwm {
using namespace tao::pegtl;

struct open_tag : istring<'<', 't', 'o', 'o', 'l', ':'> {};
struct close_tag : istring<'<', '/', 't', 'o', 'o', 'l', '>'> {};

// vLLM's `[^>\s]+`, less '<' (so a label cannot swallow a tag written after it).
struct label : plus<not_one<'>', '<', ' ', '\t', '\r', '\n', '\v', '\f'>> {};
// Another block opening a line: this one lost its `</tool>`. The body stops there, so a
// text of openers with no closer is read in linear time, each block to the next.
struct next_block : seq<one<'\n'>, star<blank>, open_tag> {};
struct body : star<not_at<sor<close_tag, next_block>>, any> {};
struct canonical : seq<star<space>, one<'>'>> {};  // `<tool: LABEL>`
struct shorthand : plus<space> {};                  // `<tool: LABEL body`, the `>` left out
struct body_unclosed : at<next_block> {};
struct body_cut : eof {};                           // no `</tool>`: the output ended inside
struct block
    : seq<open_tag, star<space>, label, sor<canonical, shorthand>, body, sor<close_tag, body_unclosed, body_cut>> {};

}  // namespace toolgram::grammar::cwm
