// Reader for PLaMo 3 (grammars/plamo3.hpp): named json_blocks in a tool-requests section.
// A call is closed twice, its arguments' token then the request's; the second is checked
// here, after the block: cut off at the end of output it is healed, left out before more
// text it is reported (missing_end_tag), as a section's closer is.
#include "readers/grammar_def.hpp"
#include "readers/named_call_reader.hpp"
#include "plamo3.hpp"

namespace toolgram::detail {
namespace plamo3_reader {
namespace {

namespace pl = grammar::plamo3;

template <typename Rule>
struct plamo3_action : json_block_action<Rule> {};
template <> struct plamo3_action<pl::function_name> : named_call::name {};
template <> struct plamo3_action<pl::call_header> : named_call::header {};
// No payload before the arguments' closer: the call takes no arguments.
template <> struct plamo3_action<pl::empty_arguments> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        st.payload = json::object();
        st.has_payload = true;
    }
};

constexpr std::string_view request_end = "<|plamo:end_tool_request:plamo|>";

const std::vector<std::string>& openers() {
    static const std::vector<std::string> list = {"<|plamo:begin_tool_requests:plamo|>",
                                                  "<|plamo:begin_tool_request:plamo|>"};
    return list;
}

std::vector<std::string> markers(const Settings&) { return openers(); }

void note_missing_end(Block& b, bool at_end) {
    for (Candidate& c : b.candidates) {
        if (!c.problem.empty()) continue;
        if (std::find(c.notes.begin(), c.notes.end(), "missing_end_tag") == c.notes.end())
            c.notes.push_back("missing_end_tag");
        c.healed = c.healed || at_end;
    }
}

// Whether the output ends inside a call's header, at `pos`: the request's opener (or a
// part of it), then as much of the header as was written, its last token whole or not.
// (Ending right after the whole header is read_named_call's cut.)
bool header_cut(std::string_view text, std::size_t pos) {
    enum { no, yes, cut };
    const auto token = [&](std::string_view tok) {
        pos = skip_space(text, pos);  // notes the end where it reaches it
        if (pos >= text.size()) return cut;
        const std::string_view rest = text.substr(pos);
        if (rest.size() < tok.size()) {
            if (tok.substr(0, rest.size()) != rest) return no;
            note_end(text);
            return cut;
        }
        if (rest.substr(0, tok.size()) != tok) return no;
        pos += tok.size();
        return yes;
    };
    for (const std::string_view tok : {"<|plamo:begin_tool_request:plamo|>", "<|plamo:begin_tool_name:plamo|>"})
        if (const auto t = token(tok); t != yes) return t == cut;
    while (pos < text.size() && text[pos] != '<' && text[pos] != '\n' && text[pos] != '\r') ++pos;  // the name
    if (pos >= text.size()) {
        note_end(text);
        return true;
    }
    for (const std::string_view tok : {"<|plamo:end_tool_name:plamo|>", "<|plamo:begin_tool_arguments:plamo|>"})
        if (const auto t = token(tok); t != yes) return t == cut;
    // The optional tokens before the arguments: only a cut inside one is a cut header.
    if (token("<|plamo:constrain|>json") == cut) return true;
    return token("<|plamo:msg|>") == cut;
}

Block cut_block(ScanContext& ctx, std::size_t at, std::string_view why) {
    const std::size_t end = ctx.text().size();
    return failed_block("plamo3", at, end, FailureInfo{Failure::cut, end, std::string(why)},
                        ctx.settings().limits.max_depth);
}

std::optional<Block> read_call(ScanContext& ctx, std::size_t at) {
    std::optional<Block> b = read_named_call<pl::call, pl::call_header, plamo3_action>(
        ctx, at, "plamo3", "<|plamo:end_tool_arguments:plamo|>", openers());
    if (!b) {
        if (header_cut(ctx.text(), at)) return cut_block(ctx, at, "output cut inside the call's header, before its arguments");
        // A whole request holding nothing readable (arguments that are no JSON): one
        // rejected call of the section, which reads on past it to its other calls and its
        // closer, rather than ending there and leaving its closer in the content.
        return read_unreadable(ctx, at, "<|plamo:begin_tool_request:plamo|>", request_end, "plamo3");
    }
    for (const Candidate& c : b->candidates)
        if (c.cut || c.healed) return b;  // the end of output came first: nothing more to close
    const std::string_view text = ctx.text();
    const std::size_t next = skip_space(text, b->end);
    if (text.compare(next, request_end.size(), request_end) == 0) {
        b->end = next + request_end.size();
    } else if (next >= text.size() || request_end.substr(0, text.size() - next) == text.substr(next)) {
        note_end(text);  // `<|plamo:end_tool_req` and the output ends: cut off
        b->end = text.size();
        note_missing_end(*b, true);
    } else {
        note_missing_end(*b, false);
    }
    return b;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    if (std::optional<Block> b = read_call_section<pl::section_open, pl::section_close>(ctx, at, read_call)) return b;
    // The section's opener and then the end of output: the calls were cut off.
    if (const std::size_t opened = match_at<pl::section_open>(ctx, at);
        opened != std::string_view::npos && skip_space(ctx.text(), opened) >= ctx.text().size())
        return cut_block(ctx, at, "output cut after the tool-requests opener, before its first call");
    return std::nullopt;
}

// As the engines' own writers (SGLang's structure_info, vLLM's tests) write it.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|plamo:begin_tool_requests:plamo|>";
    for (const Call& c : calls)
        out += "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>" + c.name +
               "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>" +
               json_text(c.arguments) + "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>";
    return out + "<|plamo:end_tool_requests:plamo|>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write one tool-requests section holding every call; each call gives the tool's name and "
           "its arguments as a JSON object:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace plamo3_reader

constexpr BlockSpec plamo3_blocks[] = {
    {"<|plamo:begin_tool_requests:plamo|>", "<|plamo:end_tool_requests:plamo|>"},
    {"<|plamo:begin_tool_request:plamo|>", "<|plamo:end_tool_request:plamo|>"},
};

constexpr AliasSpec plamo3_aliases[] = {
    {"vLLM", "plamo3", "PLaMo 3"},
    {"SGLang", "plamo3", "PLaMo 3"},
};

namespace {
// PLaMo 3 reasons in <|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>; vLLM's
// reasoning parser reads an output with no opener as begun inside reasoning (the prompt may
// open it), so a closer before any opener means that. <|plamo:tag|> ends the turn.
void configure_plamo3(Settings& s) {
    add_reasoning(s, {"<|plamo:begin_think:plamo|>", "<|plamo:end_think:plamo|>"});
    add_content_marker(s, "<|plamo:tag|>");
}
}  // namespace

constexpr ProfileSpec plamo3_profiles[] = {
    {
        .name = "plamo3",
        .models = "PLaMo 3",
        .description = "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME"
                       "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{…}"
                       "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>…<|plamo:end_tool_requests:plamo|>; "
                       "reasoning <|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>, the turn ends <|plamo:tag|>",
        .configure = configure_plamo3,
    },
};

constexpr RuleVariant plamo3_variants[] = {
    {"plamo3::empty_arguments", "a request with no arguments, read as {} (PLaMo 3)"},
};

extern const GrammarDef plamo3_grammar{
    .name = "plamo3",
    .summary = "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME"
        "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{…}"
        "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>…<|plamo:end_tool_requests:plamo|>",
    .markers = plamo3_reader::markers,
    .read_at = plamo3_reader::read_at,
    .instruction = plamo3_reader::instruction,
    .render = plamo3_reader::render,
    .blocks = plamo3_blocks,
    .aliases = plamo3_aliases,
    .profiles = plamo3_profiles,
    .variants = plamo3_variants,
};

}  // namespace toolgram::detail
