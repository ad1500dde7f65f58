// The section openers DeepSeek R1 and V3.1 share, misspellings included: both readers
// look for the same tokens, and each declines the other's call shape inside.
#pragma once

#include <string>
#include <vector>

namespace toolgram::detail {

inline const std::vector<std::string>& deepseek_section_openers() {
    static const std::vector<std::string> list = {
        "<｜tool▁calls▁begin｜>",     "<｜tool_calls_begin｜>", "<｜tool calls begin｜>",
        "<｜tool\\_calls\\_begin｜>", "<｜tool▁calls｜>",       "<｜tool▁call▁begin｜>",
    };
    return list;
}

}  // namespace toolgram::detail
