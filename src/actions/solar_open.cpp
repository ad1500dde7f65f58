// Reader for Upstage Solar Open (grammars/solar_open.hpp): named json_blocks, each with the
// model's call id, in a `<|tool_calls|>` section; Solar Open 2's calls with named text
// arguments, read by the shared params reader.
#include "readers/grammar_def.hpp"
#include "readers/named_call_reader.hpp"
#include "readers/params_reader.hpp"
#include "solar_open.hpp"

namespace toolgram::detail {
namespace solar_open_reader {
namespace {

namespace so = grammar::solar_open;

template <typename Rule>
struct solar_open_action : json_block_action<Rule> {};
template <> struct solar_open_action<so::function_name> : named_call::name {};
template <> struct solar_open_action<so::call_id> : named_call::id {};
template <> struct solar_open_action<so::call_header> : named_call::header {};

template <typename Rule>
struct solar_open_v2_action : params::shape_action<Rule> {};
template <> struct solar_open_v2_action<so::v2_name> : params::call_name {};
template <> struct solar_open_v2_action<so::arg_name> : params::param_key {};
template <> struct solar_open_v2_action<so::v2_value_text> : params::param_value {};
template <> struct solar_open_v2_action<so::v2_call> : params::call_end {};

const std::vector<std::string>& openers() {
    static const std::vector<std::string> list = {"<|tool_calls|>", "<|tool_call:begin|>"};
    return list;
}

constexpr std::string_view v2_opener = "<|tool_call:start|>";

std::vector<std::string> markers(const Settings&) {
    std::vector<std::string> out = openers();
    out.emplace_back(v2_opener);
    return out;
}

std::optional<Block> read_call(ScanContext& ctx, std::size_t at) {
    return read_named_call<so::call, so::call_header, solar_open_action>(ctx, at, "solar_open", "<|tool_call:end|>", openers());
}

// Solar Open 2's template writes `<|tool_arg:value|>` + value + `<|tool_arg:end|>`: values
// verbatim.
constexpr ValueLayout v2_layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    if (ctx.text().compare(at, v2_opener.size(), v2_opener) == 0)
        return read_params_block<so::v2_call, solar_open_v2_action>(ctx, at, "solar_open", "<|tool_call:end|>", v2_layout);
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
}  // namespace solar_open_reader

constexpr BlockSpec solar_open_blocks[] = {
    {"<|tool_call:begin|>", "<|tool_call:end|>"},
    {"<|tool_calls|>", "\n"},
    {"<|tool_call:start|>", "<|tool_call:end|>"},
};

constexpr AliasSpec solar_open_aliases[] = {
    {"vLLM", "solar_open2", "Upstage Solar Open 2"},
    {"llama.cpp", "Solar Open", "Upstage Solar Open"},
};

namespace {
// Solar Open: reasoning in <|think|>…<|end|>; <|end|> also ends the answer, so (as for
// gpt-oss) a closer before any opener never means the output started inside reasoning.
// Each message of the turn opens with <|begin|>assistant, the answer with <|content|>;
// <|calls|> and <|flush|> end the turn.
// Solar Open 2 reasons in <|think:start|>…<|think:end|>, the opener prefilled by its prompt.
void configure_solar_open(Settings& s) {
    add_reasoning(s, {"<|think|>", "<|end|>", false});
    add_reasoning(s, {"<|think:start|>", "<|think:end|>"});
    for (const char* m : {"<|begin|>assistant", "<|content|>", "<|end|>", "<|calls|>", "<|flush|>"})
        add_content_marker(s, m);
}
}  // namespace

constexpr ProfileSpec solar_open_profiles[] = {
    {
        .name = "solar_open",
        .models = "Solar Open 100B, Solar Open 2",
        .description = "<|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…<|calls|>; "
                       "reasoning <|think|>…<|end|>, the answer after <|content|>; Solar Open 2: <|tool_call:start|>NAME "
                       "<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|> <|tool_call:end|>",
        .configure = configure_solar_open,
    },
};

constexpr TemplateSignature solar_open_signatures[] = {
    {
        .family = "Solar Open: <|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>",
        .all = {"<|tool_call:begin|>", "<|tool_call:name|>"},
    },
    {
        .family = "Solar Open 2: <|tool_call:start|>NAME<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|>",
        .all = {"<|tool_call:start|>", "<|tool_arg:start|>"},
        .engines = {{"vLLM", "solar_open2"}},
    },
};

extern const GrammarDef solar_open_grammar{
    .name = "solar_open",
    .summary = "<|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…<|calls|>",
    .markers = solar_open_reader::markers,
    .read_at = solar_open_reader::read_at,
    .instruction = solar_open_reader::instruction,
    .render = solar_open_reader::render,
    .blocks = solar_open_blocks,
    .aliases = solar_open_aliases,
    .profiles = solar_open_profiles,
    .signatures = solar_open_signatures,
};

}  // namespace toolgram::detail
