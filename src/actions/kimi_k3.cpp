// Reader for the kimi_k3 syntax (grammars/kimi_k3.hpp): Kimi K3's XTML tools channel,
// one `call` element per call, its name and each argument's key in attributes, the
// argument's `type` attribute saying whether its value is text or JSON; or one JSON object
// in place of the arguments. Read with the named-parameter machinery (src/readers/params_reader.hpp),
// so text values are typed from the tool's schema in phase two.
#include "readers/grammar_def.hpp"
#include "kimi_k3.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {
namespace kimi_k3_reader {
namespace {

namespace k = grammar::kimi_k3;

// The template escapes `&` and `"` in attribute values (its escape_attr macro); one pass
// left to right undoes both, so `&amp;quot;` stays the text `&quot;` it stood for.
std::string unescape_attribute(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        if (s.compare(i, 6, "&quot;") == 0) {
            out += '"';
            i += 6;
        } else if (s.compare(i, 5, "&amp;") == 0) {
            out += '&';
            i += 5;
        } else {
            out += s[i++];
        }
    }
    return out;
}

std::string escape_attribute(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

struct call_open_read {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* tool = st.attribute("tool");
        st.begin_call(tool ? unescape_attribute(*tool) : std::string{}, st.offset_of(in.begin()));
    }
};

struct argument_open_read {
    template <typename Input>
    static void apply(const Input&, ParamsState& st) {
        const std::string* key = st.attribute("key");
        st.key = key ? trim_text(unescape_attribute(*key)) : std::string{};
    }
};

// `type="string"` (or no type: the engines' default) is text; any other type is JSON, kept
// as text with a note when it does not read as JSON (vLLM and SGLang keep it as text too).
// The attributes read are the argument opener's: a value's own scan reads openers only on
// a scratch state.
struct argument_value_read {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* type = st.attribute("type");
        if (type && trim_text(*type) != "string") params::param_json_value::apply(in, st);
        else params::param_value::apply(in, st);
    }
};

template <typename Rule>
struct kimi_k3_action : params::shape_action<Rule> {};
template <> struct kimi_k3_action<k::call_start> : params::tag_begin {};
template <> struct kimi_k3_action<k::call_open> : call_open_read {};
template <> struct kimi_k3_action<k::argument_start> : params::tag_begin {};
template <> struct kimi_k3_action<k::argument_open> : argument_open_read {};
template <> struct kimi_k3_action<k::argument_value> : argument_value_read {};
template <> struct kimi_k3_action<k::json_arguments> : params::json_arguments {};
template <> struct kimi_k3_action<k::call> : params::call_end {};

// The channel's opener, and a call's for a call written without the channel.
std::vector<std::string> markers(const Settings&) { return {"<|open|>tools<|sep|>", "<|open|>call"}; }

// Kimi K3's template writes `<|open|>argument …<|sep|>` + value + `<|close|>argument<|sep|>`:
// values verbatim.
constexpr ValueLayout layout{};

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    const bool channel = ctx.text().compare(at, 20, "<|open|>tools<|sep|>") == 0;
    return read_params_block<k::block, kimi_k3_action>(ctx, at, "kimi_k3",
                                               channel ? "<|close|>tools<|sep|>" : "<|close|>call<|sep|>", layout);
}

// The type attribute the template gives a value (its xtml_type macro).
const char* xtml_type(const json& v) {
    if (v.is_boolean()) return "boolean";
    if (v.is_null()) return "null";
    if (v.is_number()) return "number";
    if (v.is_string()) return "string";
    if (v.is_object()) return "object";
    return "array";
}

// As Kimi K3's template writes calls: one tools channel, `index` counting from 1, no line
// breaks; strings verbatim, anything else as JSON.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<|open|>tools<|sep|>";
    std::size_t index = 0;
    for (const auto& c : calls) {
        out += "<|open|>call tool=\"" + escape_attribute(c.name) + "\" index=\"" + std::to_string(++index) + "\"<|sep|>";
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it)
            out += "<|open|>argument key=\"" + escape_attribute(it.key()) + "\" type=\"" + xtml_type(*it) + "\"<|sep|>" +
                   parameter_text(*it) + "<|close|>argument<|sep|>";
        out += "<|close|>call<|sep|>";
    }
    return out + "<|close|>tools<|sep|>";
}

std::string instruction(const Settings& s) {
    return "To call functions, end your response with one tools channel holding one call per function call and one "
           "argument per parameter; type=\"string\" for a text value written as it is, type=\"number\", \"boolean\", "
           "\"null\", \"array\" or \"object\" for a value written as JSON:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}, {"COUNT", 3}}}}, s);
}

}  // namespace
}  // namespace kimi_k3_reader

constexpr BlockSpec kimi_k3_blocks[] = {
    {"<|open|>tools<|sep|>", "<|close|>tools<|sep|>"},
    {"<|open|>call", "<|close|>call<|sep|>"},
};

constexpr AliasSpec kimi_k3_aliases[] = {
    {"vLLM", "kimi_k3", "Kimi K3 (XTML)"},
    {"SGLang", "kimi_k3", "Kimi K3 (XTML)"},
};

namespace {
// Kimi K3 (XTML): the prompt opens the think channel (or, thinking off, the response
// channel), so an output starts inside one; the answer is the response channel's text and
// the turn ends with the message's closer (and <|end_of_msg|> when special tokens are kept).
// An output cut by max_tokens may end between a closer's token and its channel's name and
// `<|sep|>`: the closers' cut forms are framing too (SGLang strips them alike).
void configure_kimi_k3(Settings& s) {
    add_reasoning(s, {"<|open|>think<|sep|>", "<|close|>think<|sep|>"});
    for (const char* m : {"<|open|>response<|sep|>", "<|close|>response<|sep|>", "<|close|>message<|sep|>",
                          "<|end_of_msg|>", "<|close|>response", "<|close|>message"})
        add_content_marker(s, m);
}
}  // namespace

constexpr ProfileSpec kimi_k3_profiles[] = {
    {
        .name = "kimi_k3",
        .models = "Kimi K3",
        .description = "<|open|>tools<|sep|><|open|>call tool=NAME index=N<|sep|><|open|>argument key=K type=T<|sep|>V"
                       "<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>; reasoning in the think channel, the "
                       "answer in the response channel",
        .configure = configure_kimi_k3,
    },
};

constexpr TemplateSignature kimi_k3_signatures[] = {
    {
        .family = "Kimi K3 (XTML): <|open|>call tool=\"NAME\"<|sep|><|open|>argument key=…<|sep|>…<|close|>call<|sep|>",
        .all = {"<|open|>", "<|close|>", "<|sep|>"},
        .engines = {{"vLLM", "kimi_k3"}, {"SGLang", "kimi_k3"}},
    },
};

constexpr RuleVariant kimi_k3_variants[] = {
    {"kimi_k3::argument>kimi_k3::argument_close", "<|close|>argument<|sep|> missing (left out, or the value was cut)", true},
    {"kimi_k3::block>kimi_k3::call", "call without the tools channel"},
    {"kimi_k3::json_arguments", "one JSON object (<|open|>json) in the call in place of arguments"},
};

extern const GrammarDef kimi_k3_grammar{
    .name = "kimi_k3",
    .summary = "<|open|>tools<|sep|><|open|>call tool=NAME index=N<|sep|><|open|>argument key=K type=T<|sep|>V"
        "<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|> (type string: text; else JSON), or "
        "<|open|>json<|sep|>{…}<|close|>json<|sep|> in the call",
    .markers = kimi_k3_reader::markers,
    .read_at = kimi_k3_reader::read_at,
    .instruction = kimi_k3_reader::instruction,
    .render = kimi_k3_reader::render,
    .blocks = kimi_k3_blocks,
    .aliases = kimi_k3_aliases,
    .profiles = kimi_k3_profiles,
    .signatures = kimi_k3_signatures,
    .variants = kimi_k3_variants,
};

}  // namespace toolgram::detail
