// Reader for the harmony family (grammars/harmony.hpp): a named json_block per message
// addressed to a function.
#include "grammar_def.hpp"
#include "harmony.hpp"
#include "named_call_reader.hpp"

namespace toolgram::detail {
namespace {

namespace h = grammar::harmony;

template <typename Rule>
struct action : json_block_action<Rule> {};
template <> struct action<h::function_name> : named_call::name {};
template <> struct action<h::call_header> : named_call::header {};

std::vector<std::string> markers(const Settings&) { return {"<|channel|>", "<|start|>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_named_call<h::call, h::call_header, action>(ctx, at, "harmony", "<|call|>", markers(ctx.settings()));
}

// gpt-oss writes its arguments compactly; each call after the first opens a new message.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (std::size_t i = 0; i < calls.size(); ++i)
        out += std::string(i ? "<|start|>assistant" : "") + "<|channel|>commentary to=functions." + calls[i].name +
               " <|constrain|>json<|message|>" + calls[i].arguments.dump(-1, ' ', false, json::error_handler_t::replace) +
               "<|call|>";
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write a message on the commentary channel addressed to functions.NAME, with its "
           "arguments as a JSON object, and end it with <|call|>:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace

extern const GrammarDef harmony_grammar{
    "harmony",
    "<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|> (or the recipient before the "
    "channel)",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
