// Reader for the functionary_v32 family (grammars/functionary_v32.hpp): a run of
// `>>>RECIPIENT\n` messages, calls as named json payloads, `all` as framed content, and
// `python` messages holding code as calls of the python tool.
#include "functionary_v32.hpp"
#include "readers/grammar_def.hpp"
#include "readers/named_call_reader.hpp"

namespace toolgram::detail {
namespace functionary_v32_reader {
namespace {

namespace f = grammar::functionary_v32;

template <typename Rule>
struct functionary_v32_action : json_block_action<Rule> {};
template <> struct functionary_v32_action<f::recipient> : named_call::name {};
template <> struct functionary_v32_action<f::call_header> : named_call::header {};
template <> struct functionary_v32_action<f::headless_call_header> : named_call::header {};

std::vector<std::string> markers(const Settings&) { return {">>>"}; }

// Where a message whose body is free text (`all`'s text, `python`'s code) ends: at the
// next `>>>` that starts a call message (`>>> print(1)` in an answer is text), or the end
// of the output. Searched directly, not through the scan context, whose cache for ">>>"
// answers where the first one stands; each body is searched once.
std::size_t message_end(ScanContext& ctx, std::size_t body) {
    const std::string_view text = ctx.text();
    std::size_t stop = text.find(">>>", body);
    while (stop != std::string_view::npos && match_at<f::call_header>(ctx, stop) == std::string_view::npos)
        stop = text.find(">>>", stop + 3);
    if (stop == std::string_view::npos) {
        note_end(text);
        stop = text.size();
    }
    return stop;
}

// A message to `python` holding code, not JSON: one candidate, `python` with the code as
// written as its "code" argument. A message with no code is refused: nothing to run.
void read_code(ScanContext& ctx, std::size_t header, std::size_t body, Block& out) {
    const std::size_t stop = message_end(ctx, body);
    Candidate c;
    c.grammar = "functionary_v32";
    c.begin = header;
    c.end = stop;
    c.name = "python";
    const std::string_view code = ctx.text().substr(body, stop - body);
    if (code.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        c.problem = "the message to python holds no code";
        c.problem_offset = body;
    }
    c.arguments = json::object();
    c.arguments["code"] = std::string(code);
    add_candidate(out, std::move(c), ctx.settings().limits);
    out.end = stop;
}

template <typename TextHeader, typename CodeHeader, typename Call, typename CallHeader>
bool read_message(ScanContext& ctx, Block& out) {
    if (const std::size_t body = match_at<TextHeader>(ctx, out.end); body != std::string_view::npos) {
        const std::size_t stop = message_end(ctx, body);
        out.framing().content.emplace_back(body, stop);
        out.end = stop;
        return true;
    }
    if (const std::size_t body = match_at<CodeHeader>(ctx, out.end); body != std::string_view::npos) {
        read_code(ctx, out.end, body, out);
        return true;
    }
    std::optional<Block> b =
        read_named_call<Call, CallHeader, functionary_v32_action>(ctx, out.end, "functionary_v32", "", markers);
    if (!b || b->end <= out.end) return false;
    bool cut = false;
    for (auto& c : b->candidates) {
        cut = cut || c.cut;
        add_candidate(out, std::move(c), ctx.settings().limits);
    }
    out.end = b->end;
    return !cut;
}

// Messages from `begin` on, as long as each is followed by the next `>>>`; the first
// lacks its `>>>` when `headless`.
std::optional<Block> read_messages(ScanContext& ctx, std::size_t begin, bool headless) {
    const std::string_view text = ctx.text();
    Block out;
    out.begin = out.end = begin;
    bool more = headless ? read_message<f::headless_text_header, f::headless_code_header, f::headless_call,
                                        f::headless_call_header>(ctx, out)
                         : read_message<f::text_header, f::code_header, f::call, f::call_header>(ctx, out);
    while (more && text.compare(out.end, 3, ">>>") == 0)
        more = read_message<f::text_header, f::code_header, f::call, f::call_header>(ctx, out);
    if (out.end == begin) return std::nullopt;
    return out;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    // The first `>>>` may follow a headless message (its `>>>` was in the prompt): then
    // the block starts at the output's start. Checked once, at the first `>>>` only.
    const std::size_t start = skip_space(ctx.text(), 0);
    if (start < at && ctx.find(">>>", 0) == at) {
        std::optional<Block> b = read_messages(ctx, start, true);
        if (b && b->end > at) return b;
    }
    return read_messages(ctx, at, false);
}

// A whole output without a `>>>`: one headless message (or a run of them) from the
// answer's start to its end; anything less is prose, not this syntax.
std::optional<Block> read_whole(ScanContext& ctx, std::size_t begin, std::size_t end) {
    std::optional<Block> b = read_messages(ctx, begin, true);
    if (!b || skip_space(ctx.text(), b->end) < end) return std::nullopt;
    return b;
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += ">>>" + c.name + "\n" + json_text(c.arguments);
    return out;
}

std::string instruction(const Settings& s) {
    return "Start every message with >>> and its recipient on one line: >>>all for text to the user, >>> and the "
           "function's name for a call, followed by its arguments as a JSON object:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

std::optional<Block> read_head(ScanContext& ctx, std::size_t begin) { return read_messages(ctx, begin, true); }

}  // namespace
}  // namespace functionary_v32_reader

constexpr AliasSpec functionary_v32_aliases[] = {
    {"llama.cpp", "Functionary v3.2", "Functionary v3.2"},
};

constexpr GrammarUseSpec functionary_v32_in_auto[] = {{"functionary_v32_marked"}, {"functionary_v32", Role::fallback}};
constexpr ProfileSpec functionary_v32_profiles[] = {
    {
        .name = "functionary_v32",
        .models = "Functionary v3.2",
        .description = ">>>NAME\\n{…} per call, >>>all\\n before text; the first >>> may be in "
                       "the prompt",
        .distinctive = false,
        // A whole output `NAME\n{…}` with no `>>>` has no marker (the `>>>` was in the
        // prompt): auto reads it only as a gated fallback, so that `Result\n{"x": 1}` is
        // not a call named Result nor `CALL_TOOL\n{…}` one named CALL_TOOL.
        .in_auto = functionary_v32_in_auto,
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature functionary_v32_signatures[] = {
    {
        .family = "Functionary v3.2: >>>NAME\\n{…}, >>>all\\n before text",
        .all = {">>>all"},
        .engines = {{"llama.cpp", "Functionary v3.2"}},
    },
};

constexpr RuleVariant functionary_v32_variants[] = {
    {"functionary_v32::headless_call", "headless call (the prompt wrote >>>)"},
    {"functionary_v32::code_header", ">>>python followed by code, not JSON"},
    {"functionary_v32::headless_code_header", "headless python message holding code"},
};

extern const GrammarDef functionary_v32_grammar{
    .name = "functionary_v32",
    .summary = ">>>NAME\\n{…} per call, >>>all\\n for text, >>>python\\n then code; the first >>> may be in the prompt",
    .markers = functionary_v32_reader::markers,
    .read_at = functionary_v32_reader::read_at,
    .read_whole = functionary_v32_reader::read_whole,
    .instruction = functionary_v32_reader::instruction,
    .render = functionary_v32_reader::render,
    .read_head = functionary_v32_reader::read_head,
    .aliases = functionary_v32_aliases,
    .profiles = functionary_v32_profiles,
    .signatures = functionary_v32_signatures,
    .variants = functionary_v32_variants,
};

// Only what a `>>>` shows to be Functionary's: the messages from the first `>>>` on, and a
// headless first message before it. `auto` runs this as a primary; a whole output that is
// one headless message (`WORD\n{…}`) has no marker, so `auto` reads it only through the
// full grammar as a gated fallback: otherwise any `Result\n{"x": 1}` would be a call named
// `Result`, and the intent marker in `CALL_TOOL\n{…}` a call named `CALL_TOOL`.
extern const GrammarDef functionary_v32_marked_grammar{
    .name = "functionary_v32_marked",
    .summary = "Functionary v3.2's messages from a >>> on (auto's primary; the headless whole output is a fallback)",
    .markers = functionary_v32_reader::markers,
    .read_at = functionary_v32_reader::read_at,
    .instruction = functionary_v32_reader::instruction,
    .render = functionary_v32_reader::render,
    .read_head = functionary_v32_reader::read_head,
    .files = "functionary_v32",
};

}  // namespace toolgram::detail
