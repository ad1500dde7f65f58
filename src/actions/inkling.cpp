// Reader for the inkling family (grammars/inkling.hpp): a JSON call block, headed by
// <|message_model|>NAME, headless at the output's start (the prompt wrote the role token),
// or bare. The kind tokens are special tokens, so a block that stands where blocks stand
// and holds no JSON call is still tool syntax: it is refused with its reason, never left
// in the content. That covers the free-text invocation (<|content_invoke_tool_text|>),
// which names no tool with arguments a schema can check: vLLM shows its text as content,
// SGLang makes a call of it, toolgram reports it.
//
// The header is the model's own statement of the tool it calls. Both engines now ignore
// it and take the payload's name; where the two disagree toolgram cannot tell which tool
// was meant, and refuses the call rather than guess.
#include "readers/grammar_def.hpp"
#include "inkling.hpp"
#include "readers/named_call_reader.hpp"

namespace toolgram::detail {
namespace inkling_reader {
namespace {

namespace ik = grammar::inkling;

constexpr std::string_view role_token = "<|message_model|>";
constexpr std::string_view json_kind = "<|content_invoke_tool_json|>";
constexpr std::string_view text_kind = "<|content_invoke_tool_text|>";
constexpr std::string_view closers[] = {"<|end_message|>", "<|content_model_end_sampling|>"};

template <typename Rule>
struct inkling_action : json_block_action<Rule> {};

// Tokens that open a block: stray text skipped before a closer must hold none of them,
// or the skip would swallow the next block.
const std::vector<std::string>& openers() {
    static const std::vector<std::string> list = {std::string(role_token), std::string(json_kind),
                                                  std::string(text_kind), "<|content_text|>",
                                                  "<|content_thinking|>", "<|content_tool_error|>"};
    return list;
}

std::vector<std::string> markers(const Settings&) {
    return {std::string(role_token), std::string(json_kind), std::string(text_kind)};
}

bool starts_with_at(std::string_view text, std::size_t at, std::string_view s) {
    return text.compare(at, s.size(), s) == 0;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

// A bare kind token claims its block only where blocks stand: at the output's start, on
// a line of its own, or right after another token. Elsewhere it is named in prose.
bool stands_as_block(std::string_view text, std::size_t at) {
    std::size_t before = at;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t' || text[before - 1] == '\r')) --before;
    return before == 0 || text[before - 1] == '\n' || text[before - 1] == '>';
}

// Where a block that holds no call ends: past its closer, or before the next message,
// or (neither written yet) at the end of output.
std::size_t block_extent(ScanContext& ctx, std::size_t from) {
    std::size_t end = std::string_view::npos;
    for (const std::string_view c : closers)
        if (const std::size_t f = ctx.find_quiet(c, from); f != std::string_view::npos) end = std::min(end, f + c.size());
    if (const std::size_t next = ctx.find_quiet(role_token, from); next != std::string_view::npos && next < end)
        end = next;
    if (end != std::string_view::npos) return end;
    for (const std::string_view c : closers) ctx.awaited(c);
    ctx.awaited(role_token);
    return ctx.text().size();
}

Block refused_block(ScanContext& ctx, std::size_t at, std::size_t inside, std::string_view header, std::string problem) {
    Block b;
    b.begin = at;
    b.end = block_extent(ctx, inside);
    Candidate c;
    c.grammar = "inkling";
    c.begin = b.begin;
    c.end = b.end;
    c.name = std::string(header);
    c.problem = std::move(problem);
    c.problem_offset = inside;
    b.candidates.push_back(std::move(c));
    return b;
}

Block refused_text_block(ScanContext& ctx, std::size_t at, std::size_t inside, std::string_view header) {
    return refused_block(ctx, at, inside, header,
                         "a <|content_invoke_tool_text|> block gives the tool invocation as free text, not as a JSON "
                         "object with the tool's name and its \"args\": no call can be read from it");
}

// The JSON call block matched by Rule at `at`, its header (maybe empty) already known.
template <typename Rule>
Block read_tool(ScanContext& ctx, std::size_t at, std::size_t kind_at, std::string_view header) {
    std::optional<Block> b = read_json_block<Rule, inkling_action>(ctx, at, "inkling", closers[0], openers());
    const std::size_t inside = kind_at + json_kind.size();
    if (!b)
        return refused_block(ctx, at, inside, header,
                             "the <|content_invoke_tool_json|> block holds no JSON call object "
                             "({\"name\": …, \"args\": {…}})");
    if (!header.empty()) {
        for (Candidate& c : b->candidates) {
            if (!c.problem.empty() || c.name == header) continue;
            c.problem = "the message header names the tool \"" + std::string(header) + "\" but its call object names \"" +
                        c.name + "\": which tool is called is ambiguous";
            c.problem_offset = at;
        }
    }
    return *b;
}

// The output's start as the rest of a message whose <|message_model|> the prompt wrote:
// the header's name, then a call block (or a free-text one, refused).
std::optional<Block> read_head(ScanContext& ctx, std::size_t begin) {
    const std::string_view text = ctx.text();
    const std::size_t kind_at = match_at<ik::headless_header>(ctx, begin);
    if (kind_at == std::string_view::npos) return std::nullopt;
    const std::string_view header = trimmed(text.substr(begin, kind_at - begin));
    if (starts_with_at(text, kind_at, json_kind)) return read_tool<ik::headless_call>(ctx, begin, kind_at, header);
    if (starts_with_at(text, kind_at, text_kind)) return refused_text_block(ctx, begin, kind_at + text_kind.size(), header);
    // A kind token may be arriving still: what follows decides.
    const std::string_view rest = text.substr(kind_at);
    if (!rest.empty() && (json_kind.substr(0, rest.size()) == rest || text_kind.substr(0, rest.size()) == rest))
        note_end(text);
    return std::nullopt;
}

// The first block of its kind may be headless, its header at the output's start. Tried
// at the first such kind token only, so the start is read once, not once per block.
std::optional<Block> read_head_before(ScanContext& ctx, std::size_t at, std::string_view kind) {
    const std::size_t start = skip_space(ctx.text(), 0);
    if (start >= at || ctx.find_quiet(kind, 0) != at) return std::nullopt;
    std::optional<Block> b = read_head(ctx, start);
    if (b && b->end > at) return b;
    return std::nullopt;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view text = ctx.text();
    if (starts_with_at(text, at, role_token)) {
        // A message of another kind (text, thinking) declines: its role token is framing.
        if (const std::size_t e = match_at<ik::header_then_json>(ctx, at); e != std::string_view::npos) {
            const std::size_t kind_at = e - json_kind.size();
            return read_tool<ik::headed_call>(ctx, at, kind_at,
                                              trimmed(text.substr(at + role_token.size(), kind_at - at - role_token.size())));
        }
        if (const std::size_t e = match_at<ik::header_then_text>(ctx, at); e != std::string_view::npos) {
            const std::size_t kind_at = e - text_kind.size();
            return refused_text_block(ctx, at, e,
                                      trimmed(text.substr(at + role_token.size(), kind_at - at - role_token.size())));
        }
        return std::nullopt;
    }
    if (starts_with_at(text, at, text_kind)) {
        if (std::optional<Block> b = read_head_before(ctx, at, text_kind)) return b;
        if (!stands_as_block(text, at)) return std::nullopt;
        return refused_text_block(ctx, at, at + text_kind.size(), {});
    }
    if (std::optional<Block> b = read_head_before(ctx, at, json_kind)) return b;
    if (!stands_as_block(text, at))  // named in prose, unless a call object follows
        return read_json_block<ik::call, inkling_action>(ctx, at, "inkling", closers[0], openers());
    return read_tool<ik::call>(ctx, at, at, {});
}

// One message per call, headed by the tool's name as the engines' structural tags write it.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls)
        out += std::string(role_token) + c.name + std::string(json_kind) + call_object_text(c, "name", "args") +
               std::string(closers[0]);
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write a model message: <|message_model|>, the tool's name, <|content_invoke_tool_json|>, "
           "then a JSON object with the tool's \"name\" and its arguments under \"args\", and end it with "
           "<|end_message|>. One message per call:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace inkling_reader

constexpr BlockSpec inkling_blocks[] = {
    {"<|content_invoke_tool_json|>", "<|end_message|>"},
    {"<|content_invoke_tool_text|>", "<|end_message|>"},
};

constexpr AliasSpec inkling_aliases[] = {
    {"vLLM", "inkling", "Inkling"},
    {"SGLang", "inkling", "Inkling"},
};

namespace {
// Inkling writes typed blocks, each ended by <|end_message|> (or, where sampling stopped,
// <|content_model_end_sampling|>): thinking is reasoning; the role, text-kind and end
// tokens frame the answer. <|end_message|> ends every kind of block, so (as for gpt-oss's
// <|end|>) one seen before any opener never means the output started inside reasoning.
// A call block written straight into an unclosed thinking block ends it, as vLLM's
// parser has it (a thinking-to-tool transition).
void configure_inkling(Settings& s) {
    add_reasoning(s, {"<|content_thinking|>", "<|end_message|>", false});
    for (const char* m : {"<|message_model|>", "<|content_text|>", "<|content_tool_error|>", "<|end_message|>",
                          "<|content_model_end_sampling|>"})
        add_content_marker(s, m);
    s.reasoning_ends_at_call = true;
}
}  // namespace

constexpr ProfileSpec inkling_profiles[] = {
    {
        .name = "inkling",
        .models = "Inkling",
        .description = "<|message_model|>NAME<|content_invoke_tool_json|>{\"name\": …, \"args\": {…}}<|end_message|> per call; "
                       "reasoning <|content_thinking|>…<|end_message|>, the answer in <|content_text|>…<|end_message|>",
        .configure = configure_inkling,
    },
};

constexpr RuleVariant inkling_variants[] = {
    {"inkling::header", "<|message_model|>NAME header before the call (Inkling)"},
    {"inkling::headless_header", "NAME at the output's start, <|message_model|> in the prompt (Inkling)"},
};

extern const GrammarDef inkling_grammar{
    .name = "inkling",
    .summary = "<|message_model|>NAME<|content_invoke_tool_json|>{\"name\": …, \"args\": {…}}<|end_message|>, one message per "
        "call",
    .markers = inkling_reader::markers,
    .read_at = inkling_reader::read_at,
    .instruction = inkling_reader::instruction,
    .render = inkling_reader::render,
    .read_head = inkling_reader::read_head,
    .blocks = inkling_blocks,
    .aliases = inkling_aliases,
    .profiles = inkling_profiles,
    .variants = inkling_variants,
};

}  // namespace toolgram::detail
