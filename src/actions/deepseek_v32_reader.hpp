// The reader of DSML markup (grammars/deepseek_v32.hpp), one of DeepSeek V3.2's family
// files (five dialects of its tags: V3.2, V4, V4.1), which GigaChat 3.5 builds on (the
// same markup under the prefix `｜GCML｜`). A family names its dialects and markers; the
// actions, the block reader and the way calls are written are these.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deepseek_v32.hpp"
#include "readers/params_reader.hpp"

namespace toolgram::detail {

namespace dsml {

namespace d = grammar::deepseek_v32;

// `string="false"` marks the value as JSON; anything else (`"true"`, no attribute) as
// text, which is also how the engines' parsers of both families take a missing attribute.
struct value {
    template <typename Input>
    static void apply(const Input& in, ParamsState& st) {
        const std::string* s = st.attribute("string");
        if (s && trim_text(*s) == "false") params::param_json_value::apply(in, st);
        else params::param_value::apply(in, st);
    }
};

}  // namespace dsml

// Named for the markup, not `action`: GCC gives an instantiation that takes a class
// template from an unnamed namespace as a template template argument weak, external
// linkage, so the linker may merge it with another file's `action` one.
template <typename Rule>
struct dsml_action : params::shape_action<Rule> {};
template <typename D> struct dsml_action<dsml::d::invoke_start<D>> : params::tag_begin {};
template <typename D> struct dsml_action<dsml::d::invoke_open<D>> : params::call_name_attribute {};
template <typename D> struct dsml_action<dsml::d::parameter_start<D>> : params::tag_begin {};
template <typename D> struct dsml_action<dsml::d::parameter_open<D>> : params::param_key_attribute {};
template <typename D> struct dsml_action<dsml::d::parameter_value<D>> : dsml::value {};
template <typename D> struct dsml_action<dsml::d::json_arguments<D>> : params::json_arguments {};
template <typename D> struct dsml_action<dsml::d::invoke<D>> : params::call_end {};

namespace dsml {

// Pieces joined by appending: GCC 12 warns (-Wrestrict, a false positive) on
// `"<" + std::string` chains once inlined.
template <typename... Pieces>
std::string join(const Pieces&... pieces) {
    std::string out;
    (out.append(std::string_view(pieces)), ...);
    return out;
}

// A dialect's spellings, as text.
template <typename D>
std::string prefix() {
    return std::string(grammar::literal<typename D::prefix>::get(0));
}
template <typename D>
std::string name_a() {
    return std::string(grammar::literal<typename D::name_a>::get(0));
}
template <typename D>
std::string name_b() {
    return std::string(grammar::literal<typename D::name_b>::get(0));
}

// The dialect's openers, as written at a block's or an unwrapped invoke's start.
template <typename D>
void add_markers(std::vector<std::string>& out) {
    const std::string p = prefix<D>();
    for (const std::string& m : {join("<", p, name_a<D>(), ">"), join("<", p, name_b<D>(), ">"), join("<", p, "invoke")})
        if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
}

// Both families' templates write `<…parameter name="K" string="true">` + value +
// `</…parameter>`: values verbatim.
constexpr ValueLayout layout{};

// One block (or unwrapped invoke) at `at`, in dialect D; its closer is the block name's
// that opened it.
// (The spellings are built once per dialect: a read happens at every opener in the text.)
template <typename D>
std::optional<Block> read_block(ScanContext& ctx, std::size_t at, std::string_view grammar) {
    static const std::string open_b = join("<", prefix<D>(), name_b<D>(), ">");
    static const std::string close_a = join("</", prefix<D>(), name_a<D>(), ">");
    static const std::string close_b = join("</", prefix<D>(), name_b<D>(), ">");
    const bool opened_b = ctx.text().compare(at, open_b.size(), open_b) == 0;
    return read_params_block<d::block<D>, dsml_action>(ctx, at, grammar, opened_b ? close_b : close_a, layout);
}

// Calls as the templates write them: one block, one invoke per call, a line per element;
// strings as text (string="true"), anything else as JSON (string="false").
template <typename D>
std::string render(const std::vector<Call>& calls, std::string_view block_name, std::string_view end) {
    const std::string p = prefix<D>();
    std::string out = join("<", p, block_name, ">\n");
    for (const auto& c : calls) {
        out += join("<", p, "invoke name=\"", c.name, "\">\n");
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it) {
            const bool text = it->is_string();
            out += join("<", p, "parameter name=\"", it.key(), "\" string=\"", text ? "true" : "false", "\">",
                        text ? it->template get<std::string>() : json_text(*it), "</", p, "parameter>\n");
        }
        out += join("</", p, "invoke>\n");
    }
    return out + join("</", p, block_name, ">", end);
}

template <typename D>
std::string instruction(std::string_view block_name, std::string_view end) {
    const std::string p = prefix<D>();
    return join("To call functions, reply with one <", p, block_name, "> block holding one <", p,
                "invoke> per call and one <", p,
                "parameter> per argument; string=\"true\" for a text value, string=\"false\" for a number, "
                "boolean, null, array or object written as JSON:\n",
                render<D>({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}, {"COUNT", 3}}}}, block_name, end));
}

}  // namespace dsml

}  // namespace toolgram::detail
