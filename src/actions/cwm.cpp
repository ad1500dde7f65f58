// Reader for CWM (grammars/cwm.hpp): a `<tool: LABEL>` block's label and free-text body
// become a call.
//
// The name: the label, as CWM's prompting guide writes calls; but a label `function` that
// is no declared tool is vLLM's variant, whose body begins with the tool's name (the first
// word), the rest being the input. The shorthand without `>` takes the label.
//
// The arguments: a body that is one strict JSON object is the arguments (vLLM's reading);
// an empty body is `{}`; any other body is text, the tool's own input, which vLLM wraps as
// `{"command": text}`. toolgram puts it in a parameter only where the declared tool's
// schema says which one takes it: `command` when declared (and it may be a string), else
// the tool's only parameter when that may be a string, reported as the repair
// `body_text_as_argument`. Otherwise, or with no tool list to tell, the call is refused
// with the reason, never given a parameter the tool does not have.
//
// A block stands as blocks stand: `<tool:` first on its line (after blanks) or right
// after a tag's `>` (vLLM's tests write `</think> <tool: python …`); anywhere else it is
// prose naming the syntax. A block whose body holds another `<tool:` opening a line lost
// its `</tool>`: it is refused, and ends where the next block begins.
#include <algorithm>

#include "cwm.hpp"
#include "readers/grammar_def.hpp"
#include "readers/json_block_reader.hpp"
#include "readers/params_reader.hpp"  // trim_text
#include "value/strict_value.hpp"
#include "validation/toolset.hpp"

namespace toolgram::detail {
// The reader's helpers live in a namespace named for it: the library compiles its files
// in groups (a unity build), and two files' `read_at` must not meet.
namespace cwm_reader {
namespace {

namespace cw = grammar::cwm;

struct CwmState : BlockState {
    std::size_t label_begin = 0, label_end = 0, body_begin = 0, body_end = 0;
    bool shorthand = false, cut = false, unclosed = false;
};

template <typename Rule>
struct cwm_action : pg::nothing<Rule> {};
template <> struct cwm_action<cw::label> {
    template <typename Input>
    static void apply(const Input& in, CwmState& st) {
        st.label_begin = st.offset_of(in.begin());
        st.label_end = st.offset_of(in.end());
    }
};
template <> struct cwm_action<cw::shorthand> {
    template <typename Input>
    static void apply(const Input&, CwmState& st) { st.shorthand = true; }
};
template <> struct cwm_action<cw::body> {
    template <typename Input>
    static void apply(const Input& in, CwmState& st) {
        st.body_begin = st.offset_of(in.begin());
        st.body_end = st.offset_of(in.end());
    }
};
template <> struct cwm_action<cw::body_unclosed> {
    template <typename Input>
    static void apply(const Input&, CwmState& st) { st.unclosed = true; }
};
template <> struct cwm_action<cw::body_cut> {
    template <typename Input>
    static void apply(const Input&, CwmState& st) { st.cut = true; }
};

// vLLM reads the tags in any case; these are the spellings the scanner looks for.
std::vector<std::string> markers(const Settings&) { return {"<tool:", "<Tool:", "<TOOL:"}; }

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_space(char c) { return is_blank(c) || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// `<tool:` first on its line, or right after a tag.
bool stands_as_block(std::string_view text, std::size_t at) {
    std::size_t p = at;
    while (p > 0 && is_blank(text[p - 1])) --p;
    return p == 0 || text[p - 1] == '\n' || text[p - 1] == '\r' || text[p - 1] == '>';
}

// The deepest nesting of brackets in a JSON-looking text, strings skipped: a JSON body
// the strict reader declined for its depth is refused with the limit, not taken for text.
std::size_t nesting(std::string_view s) {
    std::size_t depth = 0, deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

// Whether a property's schema lets it hold a string: no type given, or "string" among them.
bool may_be_string(const json& property) {
    if (!property.is_object()) return true;
    const auto type = property.find("type");
    if (type == property.end()) return true;
    if (type->is_string()) return type->get_ref<const std::string&>() == "string";
    if (type->is_array())
        return std::any_of(type->begin(), type->end(), [](const json& t) { return t.is_string() && t == "string"; });
    return false;
}

std::string names_of(const json& properties) {
    std::string out;
    for (auto it = properties.begin(); it != properties.end(); ++it) out += (out.empty() ? "" : ", ") + it.key();
    return out;
}

// Puts a text body in the one parameter that takes it, or says why none does.
void fill_from_text(ScanContext& ctx, Candidate& c, std::string text) {
    const std::string lead = "the body of the <tool: " + c.name + "> call is text, not a JSON object of arguments, and ";
    const ToolSet* tools = ctx.tools();
    if (!tools || tools->empty()) {
        c.problem = lead + "with no tool list given which parameter it fills cannot be told";
        c.problem_offset = c.begin;
        return;
    }
    const int index = tools->resolve(c.name).index;
    if (index < 0) {  // refused as an unknown tool by validation, with the names it knows
        c.arguments = json::object({{"command", std::move(text)}});
        return;
    }
    const json& schema = tools->schema(index);
    const auto props = schema.is_object() ? schema.find("properties") : schema.end();
    const bool has_props = props != schema.end() && props->is_object() && !props->empty();
    std::string key;
    if (has_props) {
        if (const auto command = props->find("command"); command != props->end() && may_be_string(*command))
            key = "command";
        else if (props->size() == 1 && may_be_string(props->begin().value()))
            key = props->begin().key();
    }
    if (key.empty()) {
        c.problem = lead + (has_props ? c.name + " declares no parameter to hold it (a \"command\", or one text "
                                                 "parameter alone); it declares: " + names_of(*props)
                                      : c.name + " declares no parameters");
        c.problem_offset = c.begin;
        return;
    }
    c.arguments = json::object({{key, std::move(text)}});
    c.notes.push_back("body_text_as_argument");
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const std::string_view text = ctx.text();
    if (!stands_as_block(text, at)) return std::nullopt;
    CwmState st;
    const RunResult r = run_rule_at<cw::block, cwm_action>(ctx, at, st);
    if (!r.matched) return std::nullopt;
    const std::string label(text.substr(st.label_begin, st.label_end - st.label_begin));
    if (st.unclosed) {  // the body stopped at the line where the next block opens
        std::size_t next = st.body_end + 1;
        while (is_blank(text[next])) ++next;
        FailureInfo lost{Failure::syntax, next,
                         "the <tool: " + label + "> block has no </tool> before the next <tool: block begins"};
        Block b = failed_block("cwm", at, next, lost, ctx.settings().limits.max_depth);
        b.candidates.front().name = label;
        return b;
    }
    if (st.cut) {
        FailureInfo cut{Failure::cut, text.size(), "output cut inside the <tool: " + label + "> block, before </tool>"};
        Block b = failed_block("cwm", at, text.size(), cut, ctx.settings().limits.max_depth);
        b.candidates.front().name = label;
        return b;
    }
    std::string body = trim_text(text.substr(st.body_begin, st.body_end - st.body_begin));
    Candidate c = candidate_from_state("cwm", at, r.end, st);
    c.name = label;
    const ToolSet* tools = ctx.tools();
    const bool label_is_tool = tools && !tools->empty() && tools->resolve(label).index >= 0;
    if (!st.shorthand && !label_is_tool && iequals(label, "function")) {
        // vLLM's variant: the body's first word names the tool.
        std::size_t word = 0;
        while (word < body.size() && !is_space(body[word])) ++word;
        if (word == 0) {
            c.problem = "the <tool: function> block names no tool: its body is empty";
            c.problem_offset = at;
            Block b;
            b.begin = at;
            b.end = r.end;
            b.candidates.push_back(std::move(c));
            return b;
        }
        c.name = body.substr(0, word);
        body = trim_text(std::string_view(body).substr(word));
    }
    if (body.empty()) {
        c.arguments = json::object();
    } else {
        json value;
        const std::size_t took = body.front() == '{'
                                     ? read_strict_value(body.data(), body.data() + body.size(),
                                                         ctx.settings().limits.max_depth, value)
                                     : 0;
        const std::size_t max_depth = ctx.settings().limits.max_depth;
        if (took == body.size() && value.is_object()) {
            c.arguments = std::move(value);
        } else if ((body.front() == '{' || body.front() == '[') && nesting(body) > max_depth) {
            set_too_deep(c, max_depth);
            c.problem_offset = st.body_begin;
        } else {
            fill_from_text(ctx, c, std::move(body));
        }
    }
    Block b;
    b.begin = at;
    b.end = r.end;
    b.candidates.push_back(std::move(c));
    return b;
}

// A call's arguments as a JSON object in its own block; the round-trip tests parse this
// back (the label names a declared tool, so the body is read as its arguments).
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out;
    for (const auto& c : calls) out += "<tool: " + c.name + ">\n" + json_text(c.arguments) + "\n</tool>\n";
    return out;
}

std::string instruction(const Settings& s) {
    return "To call a tool, write <tool: NAME> on a line of its own, then the call's arguments as a JSON object "
           "(or, for a tool whose one parameter is text, that text as it is), then </tool> on a line of its own:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace
}  // namespace cwm_reader

constexpr AliasSpec cwm_aliases[] = {
    {"vLLM", "cwm", "CWM, Code World Model (<tool: NAME>…</tool>; a pull request)"},
};

namespace {
// CWM reasons in <think>…</think>, its prompt opening <think> when reasoning is on
// (facebookresearch/cwm PROMPTING_GUIDE.md); <|eot_id|> ends its turn.
void configure_cwm(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<|eot_id|>");
}
}  // namespace

constexpr ProfileSpec cwm_profiles[] = {
    {
        .name = "cwm",
        .models = "CWM (Code World Model)",
        .description = "<tool: NAME> on a line of its own, the tool's INPUT, </tool>: INPUT a JSON object of arguments, or the text "
                       "of the tool's command (or only) parameter; also vLLM's <tool: function> with NAME first in the body, and "
                       "<tool: NAME INPUT </tool>; reasoning <think>",
        .configure = configure_cwm,
    },
};

constexpr RuleVariant cwm_variants[] = {
    {"cwm::shorthand", "<tool: LABEL with the > left out, the label naming the tool (vLLM's shorthand)"},
};

extern const GrammarDef cwm_grammar{
    .name = "cwm",
    .summary = "<tool: NAME> INPUT </tool>, one block a call, INPUT a JSON object of arguments or the text of one parameter",
    .markers = cwm_reader::markers,
    .read_at = cwm_reader::read_at,
    .instruction = cwm_reader::instruction,
    .render = cwm_reader::render,
    .aliases = cwm_aliases,
    .profiles = cwm_profiles,
    .variants = cwm_variants,
};

}  // namespace toolgram::detail
