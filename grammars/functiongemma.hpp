// FunctionGemma (Gemma 3 270M tuned for function calling):
//
//   <start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>
//
// gemma4's call syntax (grammars/gemma_call.hpp) with `<escape>` as the string quote and
// its own block tokens; one block per call.
#pragma once

#include "gemma_call.hpp"

namespace toolgram::grammar::functiongemma {

struct dialect {
    using quote = TAO_PEGTL_STRING("<escape>");                      // the string quote token
    using close = literal<TAO_PEGTL_STRING("<end_function_call>")>;  // the block's closer, a Getter
};
struct open : TAO_PEGTL_STRING("<start_function_call>") {};
struct block : gemma_call::block<open, dialect> {};

}  // namespace toolgram::grammar::functiongemma
