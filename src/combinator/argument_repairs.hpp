// The repairs and refusals of a call's arguments that phase two makes before the schema
// sees them (parser.cpp's judge, in this order): arguments written as a JSON string,
// keys written beside the arguments, arguments under a wrapper key, numbers with leading
// zeros. Each returns false with the problem when the call must be refused, and notes
// what it repaired on the candidate.
#pragma once

#include <cstddef>
#include <string>

#include "readers/candidate.hpp"
#include "toolgram/toolgram.hpp"
#include "validation/toolset.hpp"

namespace toolgram::detail {

// Arguments that arrive as a JSON-encoded string (even twice) become an object.
bool decode_arguments(Candidate& c, std::size_t max_depth, std::string& problem);

// Keys the call object gave beside its name and arguments join the arguments where the
// tool declares them; anything else refuses the call.
bool place_keys_beside(Candidate& c, const json* schema, const std::string& tool, std::string& problem);

// Numbers with leading zeros are kept as text where the schema wants text there, and
// refuse the call anywhere else.
bool settle_ambiguous_numbers(Candidate& c, const ToolSet& toolset, int tool_index, std::string& problem);

// Arguments that are one object under a key the tool does not declare are that object
// when it passes the tool's schema; otherwise the call is refused, with `code`.
bool unwrap_arguments(Candidate& c, const ToolSet& toolset, int tool_index, const std::string& tool,
                      std::size_t max_depth, std::string& problem, RejectionCode& code);

}  // namespace toolgram::detail
