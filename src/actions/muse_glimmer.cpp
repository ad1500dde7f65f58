// Reader for the muse_glimmer family (grammars/muse_glimmer.hpp): ATEM invokes with named
// text parameters in the messages Muse Glimmer addresses to a tool. Every such message is
// reported: one whose body holds no ATEM block is one rejected candidate named after its
// recipient, never text left in the content. ATEM markup outside a message to a tool is
// read (the framing may have been dropped upstream) and refused when the output is framed.
#include "readers/grammar_def.hpp"
#include "muse_glimmer.hpp"
#include "readers/named_call_reader.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {
namespace muse_glimmer_reader {
namespace {

namespace mg = grammar::muse_glimmer;

template <typename Rule>
struct muse_glimmer_action : params::shape_action<Rule> {};
template <> struct muse_glimmer_action<mg::invoke_start> : params::tag_begin {};
template <> struct muse_glimmer_action<mg::invoke_open> : params::call_name_attribute {};
template <> struct muse_glimmer_action<mg::parameter_start> : params::tag_begin {};
template <> struct muse_glimmer_action<mg::parameter_open> : params::param_key_attribute {};
template <> struct muse_glimmer_action<mg::parameter_value> : params::param_value {};
template <> struct muse_glimmer_action<mg::invoke> : params::call_end {};
template <> struct muse_glimmer_action<mg::loose_invoke> : params::call_end {};

// For a header alone: its recipient.
template <typename Rule>
struct muse_glimmer_header_action : tao::pegtl::nothing<Rule> {};
template <> struct muse_glimmer_header_action<mg::recipient> {
    template <typename Input>
    static void apply(const Input& in, BlockState& st) { set_attribute(st, "recipient", in.string()); }
};

// `<|start|>` opens every message but the turn's first, whose header starts at `to=` (the
// prompt wrote `<|start|>assistant`); the ATEM openers find the markup when the framing is
// gone.
std::vector<std::string> markers(const Settings&) { return {"<|start|>", "to=", "<atem:function_calls>", "<atem:invoke"}; }

// The template writes `<atem:parameter name="K">` + value + `</atem:parameter>` and says
// "spaces for string values are not stripped": values verbatim.
constexpr ValueLayout layout{};

constexpr std::string_view atem_open = "<atem:function_calls>";
// Where a message's body ends: its end token, or the next message's start.
constexpr std::string_view body_ends[] = {"<|eom|>", "<|eot|>", "<|start|>"};

// A message to a tool whose body is no ATEM block: raw text up to the message's end, one
// rejected candidate named after the recipient. A body that is empty, or the block's
// opener alone, at the end of output was cut there.
Block read_raw_body(ScanContext& ctx, std::size_t at, std::size_t body, const BlockState& st) {
    const std::string_view text = ctx.text();
    const std::string* r = st.attribute("recipient");
    const std::string recipient = r ? *r : std::string();
    // The earliest terminator is final once found; only when none is there yet does the
    // answer depend on text still to come.
    std::size_t stop = std::string_view::npos;
    for (std::string_view t : body_ends) stop = std::min(stop, ctx.find_quiet(t, body));
    if (stop == std::string_view::npos) {
        for (std::string_view t : body_ends) ctx.awaited(t);
        stop = text.size();
    }
    const std::string inside = trim_text(text.substr(body, stop - body));
    if (stop == text.size() && (inside.empty() || atem_open.substr(0, inside.size()) == inside)) {
        note_end(text);
        FailureInfo cut{Failure::cut, body, "output cut in the message to " + recipient + ", before its <atem:invoke>"};
        Block b = failed_block("muse_glimmer", at, text.size(), cut, ctx.settings().limits.max_depth);
        b.candidates.front().name = recipient;
        return b;
    }
    const std::size_t end = text.compare(stop, 7, "<|eom|>") == 0 || text.compare(stop, 7, "<|eot|>") == 0 ? stop + 7 : stop;
    Candidate c = candidate_from_state("muse_glimmer", at, end, st);
    c.name = recipient;
    c.problem = "the message to " + recipient + (inside.empty() ? " is empty" : " holds no <atem:invoke>") +
                ": a tool is called with <atem:function_calls><atem:invoke name=…>";
    c.problem_offset = body;
    Block b;
    b.begin = at;
    b.end = end;
    b.candidates.push_back(std::move(c));
    return b;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view text = ctx.text();
    if (text.compare(at, 3, "to=") == 0 || text.compare(at, 9, "<|start|>") == 0) {
        if (std::optional<Block> b = read_params_block<mg::tool_message, muse_glimmer_action>(ctx, at, "muse_glimmer",
                                                                                "</atem:function_calls>", layout))
            return b;
        BlockState st;
        const RunResult header = run_rule_at<mg::header, muse_glimmer_header_action>(ctx, at, st);
        if (!header.matched) return std::nullopt;  // prose, another family's header, a message to self or user
        return read_raw_body(ctx, at, header.end, st);
    }
    std::optional<Block> b = read_params_block<mg::unframed, muse_glimmer_action>(ctx, at, "muse_glimmer", "</atem:function_calls>", layout);
    // In a framed output, markup outside a message to a tool stands in reasoning or in the
    // answer: a call the model wrote about, not one it made (the engines select the tool
    // messages and read nothing else).
    if (b && ctx.find_quiet("<|message|>", 0) < at)
        for (auto& c : b->candidates)
            if (c.problem.empty()) {
                c.problem = "ATEM markup outside a message addressed to a tool (to=NAME<|message|>): not a call";
                c.problem_offset = at;
            }
    return b;
}

// As Muse Glimmer writes calls (and its template renders them back): one message per call,
// addressed to the tool, one invoke inside; strings as they are, anything else as JSON.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) {
        const std::string open = "<|start|>assistant to=" + c.name + "<|message|><atem:function_calls>\n";
        out += render_params_calls({c}, {open, "</atem:function_calls><|eom|>", "<atem:invoke name=\"", "\">\n",
                                         "</atem:invoke>\n", "<atem:parameter name=\"", "\">", "</atem:parameter>\n"});
    }
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write a message addressed to it (to=NAME) holding an <atem:function_calls> block with one "
           "<atem:invoke> and one <atem:parameter> per argument:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "\nWrite strings as they are, and lists and objects as JSON inside the parameter.";
}

}  // namespace
}  // namespace muse_glimmer_reader

constexpr BlockSpec muse_glimmer_blocks[] = {
    {"<atem:function_calls>", "</atem:function_calls>"},
};

constexpr AliasSpec muse_glimmer_aliases[] = {
    {"vLLM", "muse_glimmer", "Muse Glimmer"},
    {"SGLang", "muse", "Muse Glimmer"},
};

namespace {
// Muse Glimmer routes each message by its recipient: reasoning is the message to self,
// ended by <|eom|> (which ends tool messages too, so a closer before any opener does not
// mean the output started inside reasoning); the answer is the message to user. The
// message headers and end tokens frame the answer. A damaged turn leaves its reasoning
// unclosed before a message to a tool, which the engines still take as the call.
void configure_muse_glimmer(Settings& s) {
    add_reasoning(s, {"to=self<|message|>", "<|eom|>", false});
    for (const char* m : {"<|start|>assistant", "to=user<|message|>", "<|eom|>", "<|eot|>"}) add_content_marker(s, m);
    s.reasoning_ends_at_call = true;
}

// A header with no recipient opens an answer too, and <|end_of_text|> ends the text when
// special tokens are kept; both are ordinary text to other families. The header is matched
// with what stands before its <|message|>, never <|message|> alone, which would take the
// tail of `to=self<|message|>` cut by the input limit.
void configure_muse_glimmer_own(Settings& s) {
    for (const char* m : {"<|start|>assistant<|message|>", " <|message|>", "<|end_of_text|>"}) add_content_marker(s, m);
}
}  // namespace

constexpr ProfileSpec muse_glimmer_profiles[] = {
    {
        .name = "muse_glimmer",
        .models = "Muse Glimmer 30B",
        .description = "<|start|>assistant to=NAME<|message|><atem:function_calls><atem:invoke name=NAME><atem:parameter name=K>V"
                       "</atem:parameter></atem:invoke></atem:function_calls><|eom|>; reasoning to=self, the answer to=user",
        .configure = configure_muse_glimmer,
        .configure_own = configure_muse_glimmer_own,
    },
};

constexpr TemplateSignature muse_glimmer_signatures[] = {
    // Muse Glimmer renders an earlier call as its own message to the tool:
    // '<|start|>assistant to=' + name + '<|message|>' then the ATEM block.
    {
        .family = "Muse Glimmer: <|start|>assistant to=NAME<|message|><atem:function_calls><atem:invoke name=…>",
        .all = {"<atem:function_calls>", "<atem:invoke name="},
        .engines = {{"vLLM", "muse_glimmer"}, {"SGLang", "muse"}},
    },
};

constexpr RuleVariant muse_glimmer_variants[] = {
    {"muse_glimmer::bare_invokes", "<atem:invoke> without <atem:function_calls> around it"},
};

extern const GrammarDef muse_glimmer_grammar{
    .name = "muse_glimmer",
    .summary = "<|start|>assistant to=NAME<|message|><atem:function_calls><atem:invoke name=NAME><atem:parameter name=K>V"
        "</atem:parameter></atem:invoke></atem:function_calls><|eom|>",
    .markers = muse_glimmer_reader::markers,
    .read_at = muse_glimmer_reader::read_at,
    .instruction = muse_glimmer_reader::instruction,
    .render = muse_glimmer_reader::render,
    .blocks = muse_glimmer_blocks,
    .aliases = muse_glimmer_aliases,
    .profiles = muse_glimmer_profiles,
    .signatures = muse_glimmer_signatures,
    .variants = muse_glimmer_variants,
};

}  // namespace toolgram::detail
