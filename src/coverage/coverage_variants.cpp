// The rule variants the coverage report names: the paths through a grammar that say how
// a model wrote its calls (a closer dropped or cut off, a wrapper left out, a fence, a
// lenient-JSON liberty). One row per rule or branch key of rule_coverage.hpp; the report
// shows, per model and grammar, the share of blocks that took each path. A rule not
// listed here is still in the json report's "rules", and `--rules TEXT` lists any rule
// whose key contains TEXT.
//
// Keys are checked against the grammars by tests/unit/coverage_test.cpp, which parses
// outputs that take each path, so a renamed rule cannot leave a dead row behind.
#include "coverage/coverage.hpp"

namespace toolgram::coverage {

const std::vector<Variant>& variant_table() {
    using E = VariantEvent;
    static const std::vector<Variant> table = {
        // Closers: JSON blocks (hermes, tag, kimi_k2, harmony, …).
        {"json_block::missing_end_tag", E::success, "closer missing: the block ends at its payload"},
        {"json_block::end_cut_off", E::success, "closer cut off by the end of output (healed)"},
        {"literal_prefix_at_end", E::success, "closer cut mid-tag by the end of output (healed)"},
        {"skip_to_literal", E::success, "stray text before the closer (ignored)"},
        {"json_block::fenced_payload", E::success, "payload inside a ``` fence"},
        // Closers: named-parameter families (qwen3_coder, minimax_m2, step3, …).
        {"params::wrapper_close_missing", E::success, "wrapper closer missing"},
        {"params::wrapper_cut_off", E::success, "wrapper closer cut off by the end of output (healed)"},
        {"params::call_close_missing", E::success, "call closer left out before the next call"},
        {"params::call_cut_off", E::success, "call closer cut off by the end of output (healed)"},
        {"params::value_cut", E::success, "parameter value cut by the end of output"},
        {"qwen3_coder::parameter>qwen3_coder::parameter_close", E::failure, "</parameter> missing (left out, or the value was cut)"},
        {"minimax_m2::parameter>minimax_m2::parameter_close", E::failure, "</parameter> missing (left out, or the value was cut)"},
        {"deepseek_v32::parameter>deepseek_v32::parameter_close", E::failure, "parameter closer missing (left out, or the value was cut)"},
        {"step3::parameter>step3::parameter_close", E::failure, "parameter closer missing (left out, or the value was cut)"},
        {"minicpm5::param>minicpm5::param_close", E::failure, "</param> missing (left out, or the value was cut)"},
        {"glm45::argument>glm45::value_close", E::failure, "</arg_value> missing (left out, or the value was cut)"},
        {"kimi_k3::argument>kimi_k3::argument_close", E::failure, "<|close|>argument<|sep|> missing (left out, or the value was cut)"},
        // Wrappers left out.
        {"qwen3_coder::block>qwen3_coder::unwrapped", E::success, "<function=…> without the <tool_call> wrapper"},
        {"qwen3_coder::orphan_wrapper_close", E::success, "</tool_call> after a call written without its <tool_call>"},
        {"deepseek_v32::block>deepseek_v32::invoke", E::success, "invoke without the function_calls wrapper"},
        {"step3::block>step3::tool_call", E::success, "call without the tool_calls section"},
        {"deepseek_v32::json_arguments", E::success, "one JSON object in the invoke in place of parameters"},
        {"kimi_k3::block>kimi_k3::call", E::success, "call without the tools channel"},
        {"kimi_k3::json_arguments", E::success, "one JSON object (<|open|>json) in the call in place of arguments"},
        {"minicpm5::byte_level_space", E::success, "Ġ (the tokenizer's space) between a tag's name and its attributes"},
        {"minicpm5::space_lost", E::success, "no space between a tag's name and its attributes"},
        {"llama3_json::block>llama3_json::bare", E::success, "call object without <|python_tag|>"},
        {"pythonic::missing_end_tag", E::success, "wrapper closer missing"},
        {"pythonic::end_cut_off", E::success, "wrapper closer cut off by the end of output (healed)"},
        {"pythonic::calls>pythonic::call_lines", E::success, "calls one per line, no list"},
        {"bracket::list_cut_off", E::success, "list `]` cut off by the end of output (healed)"},
        // Forms of one syntax.
        {"tag::configured_block", E::success, "[TOOL_CALL] tags"},
        {"tag::named_block", E::success, "<tool name=…> tag"},
        {"tag::tool_call_block", E::success, "<tool_call> tag"},
        {"mistral::header>mistral::call_header", E::success, "NAME[ARGS] form (not a JSON list)"},
        {"mistral::call_id_token", E::success, "with [CALL_ID]"},
        {"mistral::bare_args", E::success, "NAME{…} with [ARGS] stripped (v11+ tokenizer)"},
        {"granite::v30", E::success, "3.0 <|tool_call|> token"},
        {"granite::v31", E::success, "3.1 <tool_call>[…] list"},
        {"granite::block>granite::tag_close", E::success, "</tool_call> after the list"},
        {"functionary_v32::headless_call", E::success, "headless call (the prompt wrote >>>)"},
        {"functionary_v32::code_header", E::success, ">>>python followed by code, not JSON"},
        {"functionary_v32::headless_code_header", E::success, "headless python message holding code"},
        {"llama3_json::builtin_call", E::success, "built-in tool call <|python_tag|>NAME.call(…)"},
        {"harmony::channel_first", E::success, "<|channel|> before the recipient"},
        {"harmony::recipient_first", E::success, "recipient before <|channel|>"},
        {"command_r::action_block", E::success, "<|START_ACTION|> block"},
        {"command_r::plus_block", E::success, "Action: ```json block (R+)"},
        {"xlam::array_block", E::success, "bare JSON list of calls"},
        {"xlam::tool_calls_object", E::success, "{\"tool_calls\": […]} object"},
        {"xlam::tool_calls_block", E::success, "[TOOL_CALLS] list"},
        {"pythonic::llama4_block", E::success, "<|python_start|> wrapper (Llama 4)"},
        {"pythonic::lfm2_block", E::success, "<|tool_call_start|> wrapper (LFM2)"},
        {"pythonic::olmo_block", E::success, "<function_calls> wrapper (Olmo 3)"},
        {"hy_v3::section", E::success, "<tool_calls> section (Hy3)"},
        {"hy_v3::v4_section", E::success, "<tool_calls:opensource> section (HY-V4)"},
        {"hy_v3::block>hy_v3::v4_call", E::success, "<tool_call:opensource> call without the section (Hy3 MLX)"},
        {"hy_v3::v4_json_arguments", E::success, "one JSON object after <tool_sep:opensource> in place of the pairs"},
        {"gemma_call::keyword_arguments", E::success, "Gemma arguments in parentheses, (key: value) or (key=value)"},
        {"minimax_m3::element_close_missing", E::success, "element closer left out before the invoke's or block's tag (MiniMax-M3)"},
        {"minimax_m3::tag_gap", E::success, "blanks between ]<]minimax[>[ and its tag (MiniMax-M3)"},
        {"inkling::header", E::success, "<|message_model|>NAME header before the call (Inkling)"},
        {"inkling::headless_header", E::success, "NAME at the output's start, <|message_model|> in the prompt (Inkling)"},
        {"muse_glimmer::bare_invokes", E::success, "<atem:invoke> without <atem:function_calls> around it"},
        {"plamo3::empty_arguments", E::success, "a request with no arguments, read as {} (PLaMo 3)"},
        {"cwm::shorthand", E::success, "<tool: LABEL with the > left out, the label naming the tool (vLLM's shorthand)"},
        {"kimi_k2::namespace_prefix", E::success, "functions. prefix on the name"},
        {"kimi_k2::bare_counter", E::success, "bare counter for the id, no name (inferred from the arguments)"},
        {"step3::repeated_name", E::success, "name repeated after <｜tool_sep｜>"},
        {"harmony::namespace_prefix", E::success, "functions. prefix on the recipient"},
        {"deepseek_r1::code_fence_open", E::success, "arguments in a ``` fence"},
        {"llama3_json::next_call", E::success, "several calls joined by ;"},
        {"marker::fenced_payload", E::success, "payload inside a ``` fence"},
        {"strict_json::fence_open", E::success, "output inside a ``` fence"},
        {"strict_json::trailing_text", E::success, "text after the JSON"},
        {"bracket::trailing_text", E::success, "text after the call"},
        {"text_kv::react_pair", E::success, "Action: / Action Input: pair"},
        {"text_kv::function_pair", E::success, "function.name: / function.arguments: pair"},
        // Liberties with JSON and Python values (lenient value reader, in any grammar).
        {"lenient::healed_end", E::success, "value cut with only closers missing (healed)"},
        {"lenient::sq_string", E::success, "single-quoted strings"},
        {"lenient::bare_key", E::success, "unquoted keys"},
        {"lenient::trailing_comma", E::success, "trailing comma"},
        {"lenient::comment", E::success, "comments inside JSON"},
        {"lenient::py_true", E::success, "Python True"},
        {"lenient::py_false", E::success, "Python False"},
        {"lenient::py_none", E::success, "Python None"},
        {"markup::text_cut", E::success, "element text cut by the end of output"},
        {"markup::cdata", E::success, "CDATA section"},
    };
    return table;
}

}  // namespace toolgram::coverage
