// Reader for Upstage Solar Open (grammars/solar_open.hpp): named json_blocks, each with the
// model's call id, in a `<|tool_calls|>` section.
#include "grammar_def.hpp"
#include "named_call_reader.hpp"
#include "solar_open.hpp"

namespace toolgram::detail {
namespace {

namespace so = grammar::solar_open;

template <typename Rule>
struct action : json_block_action<Rule> {};
template <> struct action<so::function_name> : named_call::name {};
template <> struct action<so::call_id> : named_call::id {};
template <> struct action<so::call_header> : named_call::header {};

const std::vector<std::string>& openers() {
    static const std::vector<std::string> list = {"<|tool_calls|>", "<|tool_call:begin|>"};
    return list;
}

std::vector<std::string> markers(const Settings&) { return openers(); }

std::optional<Block> read_call(ScanContext& ctx, std::size_t at) {
    return read_named_call<so::call, so::call_header, action>(ctx, at, "solar_open", "<|tool_call:end|>", openers());
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_call_section<so::section_open, so::section_close>(ctx, at, read_call);
}

// The ids are the calls' own where they have one, else their index (Solar writes short
// random ids; llama.cpp's tests use indexes).
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|tool_calls|>";
    for (std::size_t i = 0; i < calls.size(); ++i)
        out += "<|tool_call:begin|>" + (calls[i].id.empty() ? std::to_string(i) : calls[i].id) + "<|tool_call:name|>" +
               calls[i].name + "<|tool_call:args|>" + json_text(calls[i].arguments) + "<|tool_call:end|>";
    return out + "<|calls|>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write one <|tool_calls|> section holding every call; each call gives an id, the tool's "
           "name and its arguments as a JSON object:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace

extern const GrammarDef solar_open_grammar{
    "solar_open",
    "<|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…<|calls|>",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
