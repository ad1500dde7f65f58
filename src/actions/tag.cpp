// Actions and reader for the tag format (grammars/tag.hpp).
//
// The payload's value becomes one candidate per call object; `<tool name="…">` takes the
// name from the attribute and the whole payload as arguments. Notes record what the block
// lacked or carried: a cut-off or missing end tag, a fence inside the tags, stray text.
#include "block_reader.hpp"
#include "grammar_def.hpp"
#include "markup_actions.hpp"
#include "tag.hpp"

namespace toolgram::detail {
namespace {

namespace tg = grammar::tag;

struct TagState : BlockState {
    json payload;
    bool has_payload = false;
    bool named = false;
    std::size_t skipped_from = 0, skipped_to = 0;
};

template <typename Rule>
struct action : attribute_action<Rule> {};

template <>
struct action<tg::payload> {
    template <typename Input>
    static void apply(const Input&, TagState& st) {
        st.payload = st.take_root();
        st.has_payload = true;
    }
};
template <>
struct action<grammar::fence::open> {
    template <typename Input>
    static void apply(const Input&, TagState& st) {
        st.fence_opened = true;
        st.note("fence_inside_tags");
    }
};
template <>
struct action<grammar::fence::close> {
    template <typename Input>
    static void apply(const Input&, TagState& st) { st.fence_closed = true; }
};
template <>
struct action<tg::end_cut_off> {
    template <typename Input>
    static void apply(const Input&, TagState& st) {
        st.note("missing_end_tag");
        st.healed = true;
    }
};
template <>
struct action<tg::missing_end_tag> {
    template <typename Input>
    static void apply(const Input&, TagState& st) { st.note("missing_end_tag"); }
};
template <>
struct action<tg::named_open> {
    template <typename Input>
    static void apply(const Input&, TagState& st) { st.named = true; }
};

template <typename Getter>
struct skip_action {
    template <typename Input>
    static void apply(const Input& in, TagState& st) {
        st.note("trailing_text_ignored");
        st.skipped_from = st.offset_of(in.begin());
        st.skipped_to = st.offset_of(in.end());
    }
};
template <>
struct action<grammar::skip_to_literal<tg::close_tag_of>> : skip_action<tg::close_tag_of> {};
template <>
struct action<grammar::skip_to_literal<tg::named_close>> : skip_action<tg::named_close> {};
template <>
struct action<grammar::skip_to_literal<tg::tool_call_close>> : skip_action<tg::tool_call_close> {};

std::vector<std::string> markers(const Settings& s) { return {s.tag_open, "<tool ", "<tool_call>"}; }

std::string close_for(const ScanContext& ctx, std::size_t at) {
    const std::string_view text = ctx.text().substr(at);
    if (text.rfind("<tool_call>", 0) == 0) return "</tool_call>";
    if (text.rfind("<tool ", 0) == 0) return "</tool>";
    return ctx.settings().tag_close;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    TagState st;
    RunResult r = run_rule_at<tg::block, action>(ctx, at, st);
    // Stray text skipped up to an end tag must not swallow another block's opening.
    if (r.matched && st.skipped_to > st.skipped_from) {
        const auto skipped = ctx.text().substr(st.skipped_from, st.skipped_to - st.skipped_from);
        for (const auto& m : markers(ctx.settings())) {
            if (skipped.find(m) != std::string_view::npos) {
                st = TagState{};
                st.allow_skip = false;
                r = run_rule_at<tg::block, action>(ctx, at, st);
                break;
            }
        }
    }
    if (r.failed) {
        const std::string close = close_for(ctx, at);
        std::size_t end = ctx.text().size();
        if (r.failure.kind != Failure::cut) {
            const std::size_t found = ctx.find(close, r.failure.offset);
            if (found != std::string_view::npos) end = found + close.size();
        }
        return failed_block("tag", at, end, r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || !st.has_payload) return std::nullopt;
    settle_fence(st, ctx.text(), r.end);

    Block block;
    block.begin = at;
    block.end = r.end;
    Candidate proto = candidate_from_state("tag", at, r.end, st);
    if (st.named) {
        const std::string* name = st.attribute("name");
        Candidate c = proto;
        if (name) {
            c.name = *name;
            c.arguments = st.payload;
        } else {
            c.problem = "<tool> has no name attribute";
            c.problem_offset = at;
        }
        block.candidates.push_back(std::move(c));
    } else {
        candidates_from_payload(st.payload, proto, NameRule::required_in_syntax, block.candidates);
    }
    return block;
}

std::string instruction(const Settings& s) {
    return "Write each tool call as a JSON object between " + s.tag_open + " and " + s.tag_close +
           ", with the tool's name under \"name\" and its arguments object under \"arguments\":\n" + s.tag_open +
           "{\"name\": \"TOOL_NAME\", \"arguments\": {\"PARAM\": \"VALUE\"}}" + s.tag_close +
           "\nFor several calls, write several blocks. Write nothing else inside the tags.";
}

}  // namespace

extern const GrammarDef tag_grammar{
    "tag",
    "JSON payload between tags: [TOOL_CALL]…[/TOOL_CALL] (configurable), <tool name=…>, <tool_call>",
    markers,
    read_at,
    nullptr,
    instruction,
};

}  // namespace toolgram::detail
