// From a chat template to a profile. A model's Jinja chat template writes its tool calls in
// the family's syntax (Hermes's `<tool_call>`, GLM's `<arg_key>`, Mistral's `[TOOL_CALLS]`),
// so the markers it writes name the profile that reads them: match_chat_template says which,
// with the evidence (`toolgram profiles --for-template FILE` prints it). Families that share
// a marker are told apart by the markers each must and must not write; the most specific
// signature wins, and a tie names every profile tied.
//
// Apart from toolgram.hpp: it is for choosing a profile, and a program that parses needs
// none of it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolgram {

// Where a template writes one marker: its first occurrence in a tool-call branch (a
// `{% for tool_call in message.tool_calls %}` or the like) when there is one, else its
// first one. Occurrences inside `{# comments #}` and `{% if … %}` tests are not writes.
struct TemplateMarker {
    std::string marker;
    std::size_t line = 0;  // 1-based
    // The innermost enclosing `{% … %}` that concerns tools, trimmed (`{%- for tool_call
    // in message.tool_calls %}`), or empty when no enclosing block mentions tools.
    std::string block;
    bool in_tool_call_branch = false;  // that block mentions tool_call(s)/function_call
};

struct TemplateCandidate {
    std::string profile;  // empty: a syntax the engines read and toolgram does not yet
    std::string family;   // the models and the syntax, for people
    std::vector<std::string> engines;  // the engines' names for it: `SGLang qwen25`, `llama.cpp "Generic"`
    std::vector<TemplateMarker> found;    // the signature's markers, where written
    std::vector<std::string> absent;      // markers it must not show, shown by none (the tell from look-alikes)
    std::string note;                     // what else to know (a marker is a special token, …)
};

struct TemplateMatch {
    enum class Verdict {
        matched,       // one profile: `profile`
        ambiguous,     // signatures of several profiles fit equally well: `candidates`
        not_read_yet,  // the syntax of a family toolgram does not read yet: `candidates[0]`
        unknown,       // no tool-call syntax toolgram knows of
    };
    Verdict verdict = Verdict::unknown;
    std::string profile;                       // matched: the profile to use
    std::vector<TemplateCandidate> candidates;  // matched: the winner first, then others that fit less well
    std::vector<TemplateMarker> seen;  // every signature marker the template writes (evidence when unknown)
    bool mentions_tools = false;       // the template handles `tools` or `tool_calls` at all
    // Whether the prompt the template ends with (what it writes under `{% if
    // add_generation_prompt %}`) leaves a reasoning block open, so that the model's output
    // starts inside it (R1's `<think>\n`, Qwen3.5's unless enable_thinking is false):
    // llama.cpp's "thinking forced open". When it does: the first opener written there with
    // no closer after it in the same write, its line, and the innermost branch it is in
    // (`{%- else %} of {%- if enable_thinking is defined and enable_thinking is false %}`).
    // Openers are those of the built-in profiles' reasoning blocks, read in the text and
    // string literals the branch writes, and through a variable a `{% set %}` gives one
    // (`thinking_start_token`); one written through a macro's argument is not seen.
    std::optional<TemplateMarker> reasoning_opened;
    std::string explanation;           // one line for people
};

// Reads a chat template's text (the Jinja source) and names the profile whose markers it
// writes. Linear in the text; a text longer than max_chat_template_bytes is `unknown`
// with an explanation saying so. Never throws on any text.
inline constexpr std::size_t max_chat_template_bytes = std::size_t{16} << 20;
TemplateMatch match_chat_template(std::string_view template_text);

// The chat template a file holds: a tokenizer_config.json or chat_template.json's
// "chat_template" (a string, or a list of {"name", "template"} where "tool_use" is taken,
// else "default", else the first), or, when the file is not a JSON object (a .jinja
// file), the file itself. `json_file` (a name ending in .json) makes JSON required. JSON
// is read with the bounded document reader (256 levels, no repeated keys). Throws
// std::invalid_argument saying what is wrong (not JSON, no "chat_template", a wrong
// type, an empty template).
struct ChatTemplateText {
    std::string text;
    std::string from;  // "the file", "chat_template", "chat_template[\"tool_use\"]"
};
ChatTemplateText chat_template_from_file(std::string_view file_text, bool json_file);

}  // namespace toolgram
