// Reader for the mistral family (grammars/mistral.hpp): a named or listed json payload
// after [TOOL_CALLS].
#include "grammar_def.hpp"
#include "mistral.hpp"
#include "named_call_reader.hpp"

namespace toolgram::detail {
namespace {

namespace m = grammar::mistral;

template <typename Rule>
struct action : json_block_action<Rule> {};
template <> struct action<m::function_name> : named_call::name {};
template <> struct action<m::call_id> : named_call::id {};
template <> struct action<m::call_header> : named_call::header {};

std::vector<std::string> markers(const Settings&) { return {"[TOOL_CALLS]"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_named_call<m::block, m::named_header, action>(ctx, at, "mistral", "", markers(ctx.settings()));
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "[TOOL_CALLS]" + c.name + "[ARGS]" + json_text(c.arguments);
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write [TOOL_CALLS], the tool's name, [ARGS] and its arguments as a JSON object; "
           "repeat for each call:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace

extern const GrammarDef mistral_grammar{
    "mistral",
    "[TOOL_CALLS]NAME[ARGS]{…} or [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…} per call; old [TOOL_CALLS] [{\"name\": …}]",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
