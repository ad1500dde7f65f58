// FunctionGemma (Gemma 3 270M tuned for function calling):
//
//   <start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>
//
// gemma4's call syntax (grammars/common/gemma_call.hpp) with `<escape>` as the string quote and
// its own block tokens; one block per call.
#pragma once

#include "common/gemma_call.hpp"
#include "common/spelling.hpp"

namespace toolgram::grammar::functiongemma {

struct dialect {
    using quote = str<"<escape>">;                      // the string quote token
    using close = literal<str<"<end_function_call>">>;  // the block's closer, a Getter
};
struct open : str<"<start_function_call>"> {};
struct block : gemma_call::block<open, dialect> {};

}  // namespace toolgram::grammar::functiongemma
