// Actions and reader for the strict JSON format (grammars/strict_json.hpp): the whole
// trimmed output is the payload. Text after the value is ignored and reported.
//
// Two grammar definitions share this reader: `json` reads a call object, a list of them,
// or {"tool_calls": […]}; `generic` reads llama.cpp's generic format, the whole output one
// object that wraps either the calls or the answer:
//
//   {"tool_call": {"name": "get_weather", "arguments": {"city": "Paris"}}}
//   {"tool_calls": [{"name": …, "arguments": …, "id": "call_1"}, …]}
//   {"response": "It is sunny in Paris."}
//
// `response` is the model's plain answer: its text is the content, the object around it
// framing. Only `generic` reads it so; in any other syntax a JSON object is the model's
// text, which no reader rewrites.
#include <algorithm>
#include <iterator>

#include "readers/block_reader.hpp"
#include "readers/grammar_def.hpp"
#include "strict_json.hpp"

namespace toolgram::detail {
namespace strict_json_reader {
namespace {

namespace sj = grammar::strict_json;

struct JsonState : BlockState {
    json payload;
    bool has_payload = false;
    std::size_t payload_end = 0;
};

template <typename Rule>
struct strict_json_action : value_action<Rule> {};

template <>
struct strict_json_action<sj::payload> {
    template <typename Input>
    static void apply(const Input& in, JsonState& st) {
        st.payload = st.take_root();
        st.has_payload = true;
        st.payload_end = st.offset_of(in.end());
    }
};
template <>
struct strict_json_action<sj::fence_open> {
    template <typename Input>
    static void apply(const Input&, JsonState& st) {
        st.fence_opened = true;
        st.note("fenced_payload");
    }
};
template <>
struct strict_json_action<sj::fence_close> {
    template <typename Input>
    static void apply(const Input& in, JsonState& st) {
        st.fence_closed = true;
        st.payload_end = st.offset_of(in.end());
    }
};
template <>
struct strict_json_action<sj::trailing_text> {
    template <typename Input>
    static void apply(const Input&, JsonState& st) { st.note("trailing_text_ignored"); }
};

std::optional<Block> read_whole(ScanContext& ctx, std::size_t begin, std::size_t end) {
    const std::string_view text = ctx.text();
    if (begin >= end || (text[begin] != '{' && text[begin] != '[' && text[begin] != '`')) return std::nullopt;
    JsonState st;
    const RunResult r = run_rule_at<sj::document, strict_json_action>(ctx, begin, st, end);
    if (r.failed) {
        // Only a payload that is plainly JSON-shaped counts as broken tool syntax.
        return failed_block("json", begin, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || !st.has_payload) return std::nullopt;
    settle_fence(st, text, st.payload_end);
    // The block ends with the value (or its fence); ignored text after it stays content.
    Block block;
    block.begin = begin;
    block.end = st.payload_end;
    candidates_from_payload(st.payload, candidate_from_state("json", begin, st.payload_end, st), NameRule::optional_in_prose,
                            block.candidates);
    if (block.candidates.empty()) return std::nullopt;
    return block;
}

// llama.cpp's generic format. The wrapper keys, and whether `key` is one.
constexpr const char* wrapper_keys[] = {"tool_call", "tool_calls", "response"};
bool is_wrapper_key(std::string_view key) {
    return std::any_of(std::begin(wrapper_keys), std::end(wrapper_keys), [&](const char* k) { return key == k; });
}

// Whether the object at `at` gives "response" as its first key: an answer, which when cut
// or broken stays the text the model wrote, never tool syntax.
bool opens_with_response(std::string_view text, std::size_t at) {
    constexpr std::string_view blank = " \t\r\n";
    if (text.compare(at, 3, "```") == 0) at = text.find('\n', at);  // past the fence's line
    at = text.find_first_not_of(blank, at == std::string_view::npos ? text.size() : at);
    if (at == std::string_view::npos || text[at] != '{') return false;
    at = text.find_first_not_of(blank, at + 1);
    return at != std::string_view::npos && text.compare(at, 10, "\"response\"") == 0;
}

std::optional<Block> read_generic(ScanContext& ctx, std::size_t begin, std::size_t end) {
    const std::string_view text = ctx.text();
    if (begin >= end || (text[begin] != '{' && text[begin] != '`')) return std::nullopt;
    JsonState st;
    const RunResult r = run_rule_at<sj::document, strict_json_action>(ctx, begin, st, end);
    if (r.failed) {
        if (!opens_with_response(text, begin))
            return failed_block("generic", begin, end, r.failure, ctx.settings().limits.max_depth);
        // An answer cut off or broken is no tool syntax: the text stays as the model wrote it.
        Block block;
        block.begin = begin;
        block.end = end;
        block.framing().answer = std::string(text.substr(begin, end - begin));
        return block;
    }
    if (!r.matched || !st.has_payload || !st.payload.is_object()) return std::nullopt;
    std::vector<std::string> wrappers, others;
    for (auto it = st.payload.begin(); it != st.payload.end(); ++it)
        (is_wrapper_key(it.key()) ? wrappers : others).push_back(it.key());
    // Not this format's object: a bare call object is for the json grammar after it.
    if (wrappers.empty()) return std::nullopt;
    const bool answer = wrappers.size() == 1 && wrappers.front() == "response";
    // An answer with more beside it is not one this format writes, and one with a key
    // given twice might be either text: the object stays the text the model wrote.
    if (answer && (!others.empty() || (st.repairs & repair_duplicate_key))) return std::nullopt;
    settle_fence(st, text, st.payload_end);
    Block block;
    block.begin = begin;
    block.end = st.payload_end;
    Candidate proto = candidate_from_state("generic", begin, st.payload_end, st);
    if (answer) {
        const json& response = st.payload.at("response");
        block.framing().answer = response.is_string() ? response.get<std::string>() : response.dump(2);
        return block;
    }
    // One wrapper key, nothing beside it: anything else leaves which part is the call
    // ambiguous, or drops what stands beside it unread.
    std::string problem;
    if (wrappers.size() > 1) {
        problem = "the object gives both \"" + wrappers[0] + "\" and \"" + wrappers[1] +
                  "\": whether it calls a tool or answers is ambiguous";
    } else if (!others.empty()) {
        problem = "the object gives \"" + others.front() + "\" beside \"" + wrappers.front() +
                  "\": expected only one of \"tool_call\", \"tool_calls\" or \"response\"";
    } else if (wrappers.front() == "tool_calls" && !st.payload.at("tool_calls").is_array()) {
        problem = "\"tool_calls\" is not a list of call objects";
    }
    if (!problem.empty()) {
        proto.problem = problem;
        proto.problem_offset = begin;
        block.candidates.push_back(std::move(proto));
        return block;
    }
    const json& calls = st.payload.at(wrappers.front());
    if (wrappers.front() == "tool_call" && !calls.is_object()) {
        proto.problem = "\"tool_call\" is not a call object";
        proto.problem_offset = begin;
        block.candidates.push_back(std::move(proto));
        return block;
    }
    candidates_from_payload(calls, proto, NameRule::required_in_syntax, block.candidates);
    return block;  // `{"tool_calls": []}`: syntax holding no call
}

std::string instruction(const Settings&) {
    return "When you call a tool, answer with nothing but one JSON object: {\"name\": \"TOOL_NAME\", \"arguments\": "
           "{\"PARAM\": \"VALUE\"}}. For several calls, answer with a JSON array of such objects.";
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    if (calls.size() == 1) return call_object_text(calls.front());
    std::string out = "[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]";
}

std::string generic_render(const std::vector<Call>& calls, const Settings&) {
    if (calls.size() == 1) return "{\"tool_call\": " + call_object_text(calls.front()) + "}";
    std::string out = "{\"tool_calls\": [";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]}";
}

std::string generic_instruction(const Settings& s) {
    return "Answer with nothing but one JSON object. To call a tool, write it under \"tool_call\":\n" +
           generic_render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s) +
           "\nFor several calls, write a list of such call objects under \"tool_calls\". To reply to the user "
           "instead, write your reply as a string under \"response\": {\"response\": \"YOUR REPLY\"}";
}
}  // namespace
}  // namespace strict_json_reader

constexpr ProfileSpec json_profiles[] = {
    {
        .name = "json",
        .models = "any model in JSON mode",
        .description = "the whole output is a JSON call, array of calls, or {\"tool_calls\": […]}",
        .distinctive = false,
    },
};

constexpr RuleVariant json_variants[] = {
    {"strict_json::fence_open", "output inside a ``` fence"},
    {"strict_json::trailing_text", "text after the JSON"},
};

extern const GrammarDef json_grammar{
    .name = "json",
    .summary = "the whole output is one JSON call object, an array of them, or {\"tool_calls\": […]}",
    .read_whole = strict_json_reader::read_whole,
    .instruction = strict_json_reader::instruction,
    .render = strict_json_reader::render,
    .profiles = json_profiles,
    .variants = json_variants,
    .files = "strict_json",
};

constexpr GrammarUseSpec generic_profile_grammars[] = {{"generic"}, {"json"}};
constexpr ProfileSpec generic_profiles[] = {
    // llama.cpp's "Generic" chat format, for models it has no template of their own for:
    // the wrapper object, or a bare call object as `json` reads it.
    {
        .name = "generic",
        .models = "any model under llama.cpp's generic JSON format",
        .description = "{\"tool_call\": {…}}, {\"tool_calls\": […]} or {\"response\": \"…\"}: the whole output is one object",
        .grammars = generic_profile_grammars,
        .distinctive = false,
    },
};

constexpr AliasSpec generic_aliases[] = {
    {"llama.cpp", "Generic", "any model (llama.cpp's generic JSON format)"},
};

extern const GrammarDef generic_grammar{
    .name = "generic",
    .summary = "llama.cpp's generic JSON: the whole output is {\"tool_call\": {…}}, {\"tool_calls\": […]} or {\"response\": "
        "\"…\"} (the answer)",
    .read_whole = strict_json_reader::read_generic,
    .instruction = strict_json_reader::generic_instruction,
    .render = strict_json_reader::generic_render,
    .aliases = generic_aliases,
    .profiles = generic_profiles,
    .files = "strict_json",
};

}  // namespace toolgram::detail
