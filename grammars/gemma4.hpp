// Gemma 4:
//
//   <|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>
//
// One block per call (several blocks follow one another, with or without text between);
// the call is gemma_call's syntax with `<|"|>` as the string quote. Arguments come in key
// order (the chat template sorts them); some template revisions put a newline before
// `<tool_call|>`. Reasoning is `<|channel>thought…<channel|>` (the profile's settings).
// Arguments may come in parentheses too (gemma_call.hpp).
//
// An engine that strips special tokens from the text (vLLM's pythonic parser on Gemma 4,
// openclaude#380) leaves `call:write_file{content:hello,path:a.txt}`: no opener, no
// closer, no quote tokens. That is `stripped_block`, read by the grammar gemma4_stripped,
// which the gemma4 profile runs as a gated fallback only: the call must end the output.
#pragma once

#include "common/gemma_call.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::gemma4 {

struct dialect {
    using quote = str<"<|\"|>">;                  // the string quote token
    using close = literal<str<"<tool_call|>">>;  // the block's closer, a Getter
};
struct open : str<"<|tool_call>"> {};
struct block : gemma_call::block<open, dialect> {};

// The stripped form: strings unquoted (a quote token left standing still quotes).
struct stripped_dialect : dialect {
    using bare_text = gemma_call::bare_text<quote>;
};
struct stripped_block : gemma_call::stripped_block<stripped_dialect> {};

}  // namespace toolgram::grammar::gemma4
