// Reader for the kimi_k2 family (grammars/kimi_k2.hpp): named json_blocks in a section.
#include "grammar_def.hpp"
#include "kimi_k2.hpp"
#include "named_call_reader.hpp"

namespace toolgram::detail {
namespace {

namespace k = grammar::kimi_k2;

template <typename Rule>
struct action : json_block_action<Rule> {};
template <> struct action<k::function_name> : named_call::name {};
template <> struct action<k::call_ref> : named_call::id {};
template <> struct action<k::call_header> : named_call::header {};

const std::vector<std::string>& openers() {
    static const std::vector<std::string> list = {"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>",
                                                  "<|tool_call_begin|>"};
    return list;
}

std::vector<std::string> markers(const Settings&) { return openers(); }

// Kimi's call id is `functions.NAME:INDEX`; `functions.NAME.0` is refused, not read as
// the name `NAME.0` (refuse_dot_for_index).
std::optional<Block> read_call(ScanContext& ctx, std::size_t at) {
    std::optional<Block> b = read_named_call<k::call, k::call_header, action>(ctx, at, "kimi_k2", "<|tool_call_end|>", openers());
    if (b) refuse_dot_for_index(*b, ":");
    return b;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_call_section<k::section_open, k::section_close>(ctx, at, read_call);
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|tool_calls_section_begin|>";
    for (std::size_t i = 0; i < calls.size(); ++i)
        out += "<|tool_call_begin|>functions." + calls[i].name + ":" + std::to_string(i) + "<|tool_call_argument_begin|>" +
               json_text(calls[i].arguments) + "<|tool_call_end|>";
    return out + "<|tool_calls_section_end|>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write one section holding every call; each call names the tool as functions.NAME:INDEX "
           "(INDEX counts the calls from 0) and gives its arguments as a JSON object:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace

extern const GrammarDef kimi_k2_grammar{
    "kimi_k2",
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>…",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
