// Actions, reader and rendering for the Gemma call syntax (grammars/common/gemma_call.hpp),
// shared by Gemma 4 and FunctionGemma, which differ only in their tokens.
//
// The actions build the same payload a JSON family would carry, a list of
// {"name": NAME, "arguments": {…}} objects, on the value builder: the function name
// opens a call object, the arguments object is built by the lenient value actions, and
// the end of the calls hands the list to json_block's reader, which then does for these
// families what it does for every marker-wrapped payload (healing a cut-off closer,
// stray text before the closer, a missing closer, failures as rejected candidates).
// Quoted values are text the model chose to quote: phase two types them from the tool's
// schema (`<|"|>3<|"|>` for an integer is 3); bare numbers and literals are typed already.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "common/gemma_call.hpp"
#include "readers/json_block_reader.hpp"

namespace toolgram::detail {

namespace gc = grammar::gemma_call;

template <typename Rule>
struct gemma_call_action : json_block_action<Rule> {};

template <typename D>
struct gemma_call_action<gc::string_text<D>> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) { st.scratch.assign(in.begin(), in.end()); }
};
template <typename D>
struct gemma_call_action<gc::string_value<D>> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.emit(json(std::move(st.scratch))); }
};
// Unquoted text (a stripped dialect's): what the value holds, less the blanks before the
// separator that ends it.
template <typename Quote>
struct gemma_call_action<gc::bare_text<Quote>> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        std::string_view text = in.string_view();
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
            text.remove_suffix(1);
        st.emit(json(std::string(text)));
    }
};
// Arguments in parentheses: an object, as braces make one.
template <>
struct gemma_call_action<gc::keywords_open> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.open(json::object()); }
};
template <>
struct gemma_call_action<gc::keywords_close> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.close(); }
};
template <>
struct gemma_call_action<gc::bare_key> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) { st.scratch.assign(in.begin(), in.end()); }
};
template <typename D>
struct gemma_call_action<gc::key<D>> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.keys.push_back(std::move(st.scratch)); }
};
template <>
struct gemma_call_action<gc::calls_open> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.open(json::array()); }
};
template <>
struct gemma_call_action<gc::function_name> {
    template <typename Input>
    static void apply(const Input& in, JsonBlockState& st) {
        st.open(json::object());
        st.keys.emplace_back("name");
        st.emit(json(in.string()));
        st.keys.emplace_back("arguments");  // filled by the arguments object when it closes
    }
};
template <typename D>
struct gemma_call_action<gc::call<D>> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) { st.close(); }
};
template <typename D>
struct gemma_call_action<gc::calls<D>> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        st.close();
        st.payload = st.take_root();
        st.has_payload = true;
    }
};

inline void read_gemma_payload(const JsonBlockState&, json& payload, Candidate& proto,
                               CandidateList& out) {
    Candidate p = std::move(proto);
    p.arguments_are_text = true;
    p.text_is_quoted = true;  // a bare null is written `null`; a quoted one is text
    candidates_from_payload(payload, p, NameRule::required_in_syntax, out);
}

template <typename Rule>
std::optional<Block> read_gemma_block(ScanContext& ctx, std::size_t at, std::string_view grammar, std::string_view open,
                                      std::string_view close) {
    return read_json_block<Rule, gemma_call_action>(ctx, at, grammar, close, std::vector<std::string>{std::string(open)}, read_gemma_payload);
}

// A value in the Gemma style: strings between quote tokens, keys bare where they can be.
inline std::string gemma_value_text(const json& v, std::string_view quote) {
    if (v.is_string()) return std::string(quote) + v.get<std::string>() + std::string(quote);
    if (v.is_array()) {
        std::string out = "[";
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ',';
            out += gemma_value_text(v[i], quote);  // not `(i ? "," : "") + …`: GCC 12 warns falsely (-Wrestrict)
        }
        return out + "]";
    }
    if (v.is_object()) {
        std::string out = "{";
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            const std::string& k = it.key();
            const bool bare = !k.empty() && std::all_of(k.begin(), k.end(), [](unsigned char c) {
                return std::isalnum(c) || c == '_' || c == '-';
            });
            out += (first ? "" : ",") + (bare ? k : std::string(quote) + k + std::string(quote)) + ":" +
                   gemma_value_text(*it, quote);
            first = false;
        }
        return out + "}";
    }
    return v.dump(-1, ' ', false, json::error_handler_t::replace);  // numbers, true/false, null
}

// Calls as the models write them: one block per call, arguments in key order (the chat
// templates sort them too).
inline std::string render_gemma_calls(const std::vector<Call>& calls, std::string_view open, std::string_view close,
                                      std::string_view quote) {
    std::string out;
    for (const auto& c : calls)
        out += std::string(open) + "call:" + c.name + gemma_value_text(c.arguments, quote) + std::string(close);
    return out;
}

}  // namespace toolgram::detail
