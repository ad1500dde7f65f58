// Gemma 4:
//
//   <|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>
//
// One block per call (several blocks follow one another, with or without text between);
// the call is gemma_call's syntax with `<|"|>` as the string quote. Arguments come in key
// order (the chat template sorts them); some template revisions put a newline before
// `<tool_call|>`. Reasoning is `<|channel>thought…<channel|>` (the profile's settings).
#pragma once

#include "gemma_call.hpp"
#include "spelling.hpp"

namespace toolgram::grammar::gemma4 {

struct dialect {
    using quote = str<"<|\"|>">;                  // the string quote token
    using close = literal<str<"<tool_call|>">>;  // the block's closer, a Getter
};
struct open : str<"<|tool_call>"> {};
struct block : gemma_call::block<open, dialect> {};

}  // namespace toolgram::grammar::gemma4
