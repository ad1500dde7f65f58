// Reader for the nemotron family (grammars/nemotron.hpp): json_block with <TOOLCALL> tags,
// whose payload is a list of call objects.
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"
#include "nemotron.hpp"

namespace toolgram::detail {
namespace nemotron_reader {
namespace {

std::vector<std::string> markers(const Settings&) { return {"<TOOLCALL>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::nemotron::block>(ctx, at, "nemotron", "</TOOLCALL>", markers);
}

// All calls in one list, as Nemotron writes them.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<TOOLCALL>[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]</TOOLCALL>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write a JSON list of objects, each with the function name and its arguments, within "
           "<TOOLCALL></TOOLCALL> tags:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "\nFor several calls, put several objects in the one list.";
}

}  // namespace
}  // namespace nemotron_reader

constexpr BlockSpec nemotron_blocks[] = {
    {"<TOOLCALL>", "</TOOLCALL>"},
};

constexpr AliasSpec nemotron_aliases[] = {
    {"llama.cpp", "Nemotron V2", "Nemotron Nano v2"},
};

constexpr ProfileSpec nemotron_profiles[] = {
    {
        .name = "nemotron",
        .models = "Nemotron Nano v2",
        .description = "<TOOLCALL>[{\"name\": …, \"arguments\": …}]</TOOLCALL>",
    },
};

constexpr TemplateSignature nemotron_signatures[] = {
    {
        .family = "Nemotron Nano v2: <TOOLCALL>[{\"name\": …, \"arguments\": …}]</TOOLCALL>",
        .all = {"<TOOLCALL>"},
        .engines = {{"llama.cpp", "Nemotron V2"}},
    },
};

extern const GrammarDef nemotron_grammar{
    .name = "nemotron",
    .summary = "<TOOLCALL>[{\"name\": …, \"arguments\": …}, …]</TOOLCALL>",
    .markers = nemotron_reader::markers,
    .read_at = nemotron_reader::read_at,
    .instruction = nemotron_reader::instruction,
    .render = nemotron_reader::render,
    .blocks = nemotron_blocks,
    .aliases = nemotron_aliases,
    .profiles = nemotron_profiles,
    .signatures = nemotron_signatures,
};

}  // namespace toolgram::detail
