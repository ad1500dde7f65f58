// Reader for the harmony family (grammars/harmony.hpp): one block per message addressed
// to a recipient. A JSON body is a json_block payload; any other body (a built-in tool's
// code, a shell command) is read as raw text to the message's end and rejected with the
// reason, so every message with a recipient is reported and none leaks into content.
// A header abandoned before its message is framing: removed, not tool syntax.
#include "readers/grammar_def.hpp"
#include "harmony.hpp"
#include "readers/named_call_reader.hpp"

namespace toolgram::detail {
namespace harmony_reader {
namespace {

namespace h = grammar::harmony;

constexpr std::string_view functions_prefix = "functions.";

// The recipient gives the call's name: a function's without `functions.`, a built-in's
// (`browser.search`, `python`) whole, its namespace part of the name.
struct recipient_action {
    template <typename Input>
    static void apply(const Input& in, BlockState& st) {
        std::string_view r = in.string_view().substr(3);  // after `to=`
        set_attribute(st, "recipient", std::string(r));
        const bool function = r.substr(0, functions_prefix.size()) == functions_prefix;
        if (function) r.remove_prefix(functions_prefix.size());
        set_attribute(st, "name", std::string(r));
        set_attribute(st, "qualified", function ? "" : "1");
    }
};
struct content_type_action {
    template <typename Input>
    static void apply(const Input& in, BlockState& st) {
        std::string_view t = in.string_view();
        if (t.substr(0, 13) == "<|constrain|>") t.remove_prefix(13);
        set_attribute(st, "content_type", std::string(t));
    }
};

template <typename Rule>
struct harmony_action : json_block_action<Rule> {};
template <> struct harmony_action<h::recipient> : recipient_action {};
template <> struct harmony_action<h::content_type> : content_type_action {};
template <> struct harmony_action<h::call_header> : named_call::header {};
template <> struct harmony_action<h::headless_header> : named_call::header {};

void name_candidate(const BlockState& st, Candidate& c) {
    if (const std::string* name = st.attribute("name")) c.name = *name;
    if (const std::string* q = st.attribute("qualified")) c.qualified_name = !q->empty();
}

void read_payload(const JsonBlockState& st, json& payload, Candidate& proto, CandidateList& out) {
    Candidate c = std::move(proto);
    name_candidate(st, c);
    c.arguments = std::move(payload);
    out.push_back(std::move(c));
}

std::vector<std::string> markers(const Settings&) { return {"<|channel|>", "<|start|>"}; }

// Where a message's raw body ends: the first token that ends or opens a message.
constexpr std::string_view body_ends[] = {"<|call|>", "<|end|>", "<|return|>", "<|start|>", "<|channel|>"};

// A message whose header reads but whose body is no JSON value: raw text up to the
// message's end, one rejected candidate naming the recipient. Right after the header the
// end of output is a message cut there.
Block read_raw_body(ScanContext& ctx, std::size_t at, std::size_t body, const JsonBlockState& st) {
    const std::string_view text = ctx.text();
    const std::string recipient = st.attribute("recipient") ? *st.attribute("recipient") : std::string();
    if (skip_space(text, body) >= text.size()) {
        FailureInfo cut{Failure::cut, body, "output cut after the call's header, before its arguments"};
        Block b = failed_block("harmony", at, text.size(), cut, ctx.settings().limits.max_depth);
        name_candidate(st, b.candidates.front());
        return b;
    }
    // The earliest terminator is final once found; only when none is there yet does the
    // answer depend on text still to come.
    std::size_t stop = std::string_view::npos;
    for (std::string_view t : body_ends) stop = std::min(stop, ctx.find_quiet(t, body));
    if (stop == std::string_view::npos) {
        for (std::string_view t : body_ends) ctx.awaited(t);
        stop = text.size();
    }
    const std::size_t end = text.compare(stop, 8, "<|call|>") == 0 ? stop + 8 : stop;
    Candidate c = candidate_from_state("harmony", at, end, st);
    name_candidate(st, c);
    const std::string* type = st.attribute("content_type");
    const bool blank = trim_text(text.substr(body, stop - body)).empty();
    c.problem = "the message to " + recipient + (blank ? " has an empty body" : " has a text body") +
                (type && !type->empty() ? " (content type " + *type + ")" : std::string()) +
                ", not a JSON object of arguments";
    c.problem_offset = body;
    Block b;
    b.begin = at;
    b.end = end;
    b.candidates.push_back(std::move(c));
    return b;
}

template <typename Call, typename Header>
std::optional<Block> read_message(ScanContext& ctx, std::size_t at) {
    std::optional<Block> b = read_json_block<Call, harmony_action>(ctx, at, "harmony", "<|call|>", markers, read_payload);
    JsonBlockState st;
    if (b) {
        // A body that broke inside its JSON is one nameless rejected candidate: name it.
        if (b->candidates.size() == 1 && b->candidates.front().name.empty() &&
            run_rule_at<Header, harmony_action>(ctx, at, st).matched)
            name_candidate(st, b->candidates.front());
        return b;
    }
    const RunResult header = run_rule_at<Header, harmony_action>(ctx, at, st);
    if (!header.matched) return std::nullopt;
    return read_raw_body(ctx, at, header.end, st);
}

std::optional<Block> read_head(ScanContext& ctx, std::size_t begin) {
    return read_message<h::headless_call, h::headless_header>(ctx, begin);
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    // The role and recipient may stand before the first `<|channel|>` with `<|start|>` in
    // the prompt: then the block starts at the output's start. Checked at the first
    // `<|channel|>` only.
    const std::string_view text = ctx.text();
    const std::size_t start = skip_space(text, 0);
    if (start < at && text.compare(start, 3, "to=") == 0 && ctx.find("<|channel|>", 0) == at) {
        std::optional<Block> b = read_head(ctx, start);
        if (b && b->end > at) return b;
    }
    if (std::optional<Block> b = read_message<h::call, h::call_header>(ctx, at)) return b;
    // A header given up for the next one is framing: removed, tool syntax of no call (its
    // zero-width content span marks it as layout, as Functionary's text messages are).
    if (const std::size_t end = match_at<h::stray_header>(ctx, at); end != std::string_view::npos) {
        Block b;
        b.begin = at;
        b.end = end;
        b.framing().content.emplace_back(end, end);
        return b;
    }
    return std::nullopt;
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
}  // namespace harmony_reader

constexpr AliasSpec harmony_aliases[] = {
    {"vLLM", "openai", "gpt-oss"},
    {"SGLang", "gpt-oss", "gpt-oss"},
    {"llama.cpp", "GPT-OSS", "gpt-oss"},
};

namespace {
// gpt-oss: reasoning is the analysis channel, closed by <|end|>, which ends every other
// message too, so it never means "the output started inside reasoning". The tokens that
// frame the answer and the preamble are not content.
void configure_harmony(Settings& s) {
    add_reasoning(s, {"<|channel|>analysis<|message|>", "<|end|>", false});
    for (const char* m : {"<|start|>assistant", "<|channel|>final<|message|>", "<|channel|>commentary<|message|>",
                          "<|end|>", "<|return|>", "<|call|>"})
        add_content_marker(s, m);
}
}  // namespace

constexpr ProfileSpec harmony_profiles[] = {
    {
        .name = "harmony",
        .models = "gpt-oss",
        .description = "<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>; reasoning on the analysis "
                       "channel, the answer on the final channel",
        .configure = configure_harmony,
        // its chat templates open no reasoning block: a closer before any opener is plain
        // text.
        .reasoning_start = ReasoningStart::outside,
    },
};

constexpr TemplateSignature harmony_signatures[] = {
    {
        .family = "gpt-oss (harmony): <|channel|>commentary to=functions.NAME …<|message|>{…}<|call|>",
        .all = {"<|channel|>", "<|call|>"},
        .engines = {{"vLLM", "openai"}, {"SGLang", "gpt-oss"}, {"llama.cpp", "GPT-OSS"}},
    },
};

constexpr RuleVariant harmony_variants[] = {
    {"harmony::channel_first", "<|channel|> before the recipient"},
    {"harmony::recipient_first", "recipient before <|channel|>"},
    {"harmony::namespace_prefix", "functions. prefix on the recipient"},
};

extern const GrammarDef harmony_grammar{
    .name = "harmony",
    .summary = "<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|> (or the recipient before the "
        "channel, or with <|start|>assistant in the prompt)",
    .markers = harmony_reader::markers,
    .read_at = harmony_reader::read_at,
    .instruction = harmony_reader::instruction,
    .render = harmony_reader::render,
    .read_head = harmony_reader::read_head,
    .aliases = harmony_aliases,
    .profiles = harmony_profiles,
    .signatures = harmony_signatures,
    .variants = harmony_variants,
};

}  // namespace toolgram::detail
