// The names serving engines give their tool-call parsers, mapped to the profile that reads
// the same syntax, so a user moving from vLLM (`--tool-call-parser NAME`), SGLang (the same
// flag) or llama.cpp (the chat format it logs: "Chat format: Hermes 2 Pro") finds their
// model under the name they already type. `builtin_profile` falls back to this table.
// Each grammar declares the names of its own syntax in its record (GrammarDef::aliases,
// beside its reader; a shipped profile file's `engines`), and this file knows no family.
//
// Where an engine registers a parser for a syntax toolgram does not read yet, the row names
// no profile: asking for it says so, instead of "unknown profile". Sources: vLLM's
// `tool_parsers` registry and SGLang's `parser_names.py` / `function_call_parser.py` as of
// 2026-11, llama.cpp's `common_chat_format_name` (chat.cpp); each syntax was checked against
// the engine's parser tests or the model's chat template before it was mapped. smg (SGLang's
// model gateway, the Rust router that parses at the gateway) registers its own names for the
// same syntaxes (`glm47_moe`, `kimik2`, `qwen_xml`, …, its tool_parser registry). A profile
// here may be a shipped profile file (grammars/declared/NAME.json), resolved like any
// built-in profile.
#include <algorithm>
#include <iterator>
#include <string_view>

#include <toolgram/toolgram.hpp>

#include "readers/grammar_def.hpp"

namespace toolgram {

namespace {

// The engines in the order detail::engine_names lists them; each engine's names in byte order.
std::size_t engine_rank(std::string_view engine) {
    const auto& engines = detail::engine_names;
    return static_cast<std::size_t>(std::find(std::begin(engines), std::end(engines), engine) - std::begin(engines));
}

std::vector<ProfileAlias> all_aliases() {
    std::vector<ProfileAlias> table;
    for (const detail::GrammarDef* g : detail::all_records())
        for (const detail::AliasSpec& a : g->aliases)
            table.push_back({std::string(a.engine), std::string(a.name),
                             std::string(a.profile.empty() ? g->name : a.profile), std::string(a.models)});
    std::stable_sort(table.begin(), table.end(), [](const ProfileAlias& a, const ProfileAlias& b) {
        const std::size_t ra = engine_rank(a.engine), rb = engine_rank(b.engine);
        return ra != rb ? ra < rb : a.name < b.name;
    });
    return table;
}

}  // namespace

const std::vector<ProfileAlias>& profile_aliases() {
    static const std::vector<ProfileAlias> table = all_aliases();
    return table;
}

}  // namespace toolgram
