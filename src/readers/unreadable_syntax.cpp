// The blocks a grammar's syntax opens and closes, as a scan tries them, and the reading of
// a block that holds nothing its grammar can read. Each grammar declares its blocks in
// its own record (GrammarDef::blocks, beside its reader); this file knows none of them.
//
// A grammar declines what is not its syntax, which is right where several share a marker
// (`<tool_call>` opens the blocks of several families: the payload decides). But a block
// that no grammar of the profile reads, `[TOOL_CALL]not json at all[/TOOL_CALL]`, is still
// tool syntax that yielded no call: it must be reported, with the correction prompt, and
// leave the content. The scanners try these openers only after every grammar declined at
// the place (Parser::Impl::role_markers), so a block some grammar reads is never taken.
//
// An opener with no closer of its own (Mistral's `[TOOL_CALLS]`, Granite's `<|tool_call|>`)
// has the closer "\n": its block is the first line after it, where such families write
// their calls; taking text to the end of output would be a guess.
// Every opener must stand as blocks stand, first on its line or right after a tag, and
// its closer last on its line: prose names special tokens too ("Apertus marks calls with
// <|tools_prefix|> and <|tools_suffix|>"). Declared by no grammar: openers that may
// introduce a built-in tool's raw code (Llama 3.1's `<|python_tag|>`, Functionary's
// `>>>python`), and the marker format's `TOOL_CALL`, a word prose may use.
#include <algorithm>

#include "readers/block_reader.hpp"
#include "declared/declared_syntax.hpp"
#include "readers/grammar_def.hpp"

namespace toolgram::detail {

std::vector<SyntaxBlock> syntax_blocks(const GrammarDef& grammar, const Settings& settings) {
    std::vector<SyntaxBlock> out;
    auto add = [&](std::string_view open, std::string_view close) {
        if (open.empty() || close.empty()) return;
        for (const auto& b : out)
            if (b.open == open && b.close == close) return;
        out.push_back({std::string(open), std::string(close)});
    };
    if (grammar.settings_blocks)
        for (const BlockSpec& b : grammar.settings_blocks(settings)) add(b.open, b.close);
    if (const DeclaredSyntax* declared = declared_syntax_of(grammar, settings)) {
        const DeclaredSyntax& d = *declared;
        for (const auto& b : d.blocks) add(b.open, b.close);  // the file's own first
        if (d.section && !d.section->close.empty())
            for (const auto& o : d.section->open) add(o, d.section->close.front());
        if (!d.call.close.empty() && !d.call.close_optional)  // an optional closer is not looked for
            for (const auto& o : d.call.open) add(o, d.call.close.front());
    }
    for (const BlockSpec& b : grammar.blocks) add(b.open, b.close);
    return out;
}

std::optional<Block> MarkerUse::read(ScanContext& ctx, std::size_t at) const {
    if (broken) return read_unreadable(ctx, at, block.open, block.close, grammar->name);
    return grammar->read_at ? grammar->read_at(ctx, at) : std::nullopt;
}

}  // namespace toolgram::detail
