// Reader for the jamba family (grammars/jamba.hpp): a call list, or one call object a line
// (MiniMax-M1), between <tool_calls> tags.
#include "grammar_def.hpp"
#include "jamba.hpp"
#include "json_block_reader.hpp"

namespace toolgram::detail {
namespace {

// Named for the family, not `action`: GCC gives an instantiation that takes a class
// template from an unnamed namespace as a template template argument weak, external
// linkage, so the linker may merge it with another file's `action` one (seen here: this
// file's specialisation silently replaced by tag.cpp's).
template <typename Rule>
struct jamba_action : json_block_action<Rule> {};

// Each value of the block joins one list: a list's elements, or an object itself.
template <>
struct jamba_action<grammar::json_block::payload> {
    template <typename Input>
    static void apply(const Input&, JsonBlockState& st) {
        json next = st.take_root();
        if (!st.has_payload) {
            st.payload = std::move(next);
            st.has_payload = true;
            return;
        }
        if (!st.payload.is_array()) {
            json list = json::array();
            list.push_back(std::move(st.payload));
            st.payload = std::move(list);
        }
        if (next.is_array()) {
            for (auto& e : next) st.payload.push_back(std::move(e));
        } else {
            st.payload.push_back(std::move(next));
        }
    }
};

std::vector<std::string> markers(const Settings&) { return {"<tool_calls>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    return read_json_block<grammar::jamba::block, jamba_action>(ctx, at, "jamba", "</tool_calls>", markers(ctx.settings()));
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<tool_calls>[";
    for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + call_object_text(calls[i]);
    return out + "]</tool_calls>";
}

std::string instruction(const Settings& s) {
    return "To call tools, write a JSON list of objects, each with the function name and its arguments, within "
           "<tool_calls></tool_calls> tags:\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}}}}, s);
}

}  // namespace

extern const GrammarDef jamba_grammar{
    "jamba", "<tool_calls>[{\"name\": …, \"arguments\": …}, …]</tool_calls>, or one call object a line",
    markers, read_at, nullptr, instruction, render,
};

}  // namespace toolgram::detail
