// The built-in profiles, as data: a name, the models it serves, its grammars in order,
// and the settings its models need (reasoning delimiters, tokens that frame content).
//
// A profile per model family is one row in `family_rows` (plus its grammar, registered
// in grammar_registry.cpp; scripts/new-grammar adds both). A syntax the grammar `declared`
// can read needs no code at all: a profile file in grammars/declared/NAME.json, compiled in
// (cmake/embed_profile_files.cmake), is the profile NAME and the grammar NAME, loaded and
// checked like any profile file. `auto` is derived from the table and the shipped files,
// so a new family is found by `auto` without another edit: every generic grammar with a
// distinctive marker and every family grammar runs as primary; the grammars that would
// match ordinary prose or JSON (strict JSON, bracket, text KV) are gated fallbacks. Where
// several share a marker, family grammars are tried before generic ones (Parser::Impl),
// and family grammars sharing one check the payload and decline what is not their own.
#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string_view>

#include "declared/declared_syntax.hpp"
#include "readers/grammar_def.hpp"
#include "profiles/profile_file.hpp"
#include "declared/shipped_profiles.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram {
namespace {

struct ProfileRow {
    const char* name;
    const char* models;
    const char* description;
    std::vector<GrammarUse> grammars;
    void (*configure)(Settings&) = nullptr;
    // False for syntaxes with no marker of their own (a bare JSON array, a bare Python
    // call): `auto` can only reach them through its gated fallbacks.
    bool distinctive = true;
    // How `auto` runs a family that is not distinctive as a whole but has some forms with
    // a marker of their own (<|python_tag|>{…}, <|python_start|>[…]): grammars reading
    // just those forms as primaries, the rest as fallbacks (or not at all, where a
    // generic fallback reads the very same syntax). Empty: derived from `distinctive`.
    std::vector<GrammarUse> in_auto = {};
    // Settings only the family's own profile takes, not `auto`: framing tokens that look
    // like ordinary markup (Granite 3.3's <response>), which auto would strip from anyone.
    void (*configure_own)(Settings&) = nullptr;
};

GrammarUse primary(const char* g) { return {g, Role::primary}; }
GrammarUse fallback(const char* g) { return {g, Role::fallback}; }

void add_reasoning(Settings& s, Delimiters d) {
    for (const auto& r : s.reasoning)
        if (r.open == d.open && r.close == d.close) return;
    s.reasoning.push_back(std::move(d));
}
void add_content_marker(Settings& s, const std::string& m) {
    if (std::find(s.content_markers.begin(), s.content_markers.end(), m) == s.content_markers.end())
        s.content_markers.push_back(m);
}

// Family settings (the `configure` of the rows below): reasoning blocks and the tokens
// that frame an answer. All of them here, then the two tables.
void configure_longcat(Settings& s) { add_reasoning(s, {"<longcat_think>", "</longcat_think>"}); }
void configure_granite(Settings& s) { add_content_marker(s, "<|end_of_text|>"); }
// Granite 3.3 frames its answer in <response>…</response> after its <think> block.
void configure_granite_own(Settings& s) {
    add_content_marker(s, "<response>");
    add_content_marker(s, "</response>");
}
void configure_granite_20b_fc(Settings& s) { add_content_marker(s, "<|endoftext|>"); }
void configure_jamba(Settings& s) {
    // Hunyuan-A13B frames its answer (tool calls included) in <answer>…</answer>.
    add_content_marker(s, "<answer>");
    add_content_marker(s, "</answer>");
}
// Apriel 1.5 and 1.6 Thinker reason in plain text and end it with [BEGIN FINAL RESPONSE];
// the opener is no token of their own: 1.6's prompt ends with "Here are my reasoning
// steps:\n", 1.5 writes that line itself. So the block has no opener, only the closer
// that ends what the output started with (an opener "Here are my…" would turn any answer
// quoting it into reasoning). 1.5's template also asks for thoughts in <thinking> tags
// before calls. The answer may end with [END FINAL RESPONSE] and the turn's <|end|>.
void configure_apriel(Settings& s) {
    add_reasoning(s, {"", "[BEGIN FINAL RESPONSE]"});
    add_reasoning(s, {"<thinking>", "</thinking>"});
    for (const char* m : {"[BEGIN FINAL RESPONSE]", "[END FINAL RESPONSE]", "<|end|>"}) add_content_marker(s, m);
}
void configure_command_r(Settings& s) {
    add_reasoning(s, {"<|START_THINKING|>", "<|END_THINKING|>"});
    add_content_marker(s, "<|START_RESPONSE|>");
    add_content_marker(s, "<|END_RESPONSE|>");
    add_content_marker(s, "<|END_OF_TURN_TOKEN|>");
    add_content_marker(s, "<|CHATBOT_TOKEN|>");  // R+ opens its turn with it
    add_content_marker(s, "<|START_TEXT|>");     // Command A frames its answer in these
    add_content_marker(s, "<|END_TEXT|>");
}

void configure_seed_oss(Settings& s) { add_reasoning(s, {"<seed:think>", "</seed:think>"}); }
// HyperCLOVA X SEED Think ends its turn with <|im_end|> (vLLM's parser keeps it out of the
// content); its own profile's only, since auto reads other models' text too.
void configure_hyperclovax_own(Settings& s) { add_content_marker(s, "<|im_end|>"); }
// Hy3's released checkpoint spells its reasoning tags with the suffix its tool tags carry
// (llama.cpp's tencent-Hy3 template); the plain <think> is the defaults'.
void configure_hy_v3(Settings& s) { add_reasoning(s, {"<think:opensource>", "</think:opensource>"}); }
// MiniMax-M3 reasons in <mm:think>…</mm:think> (its template may open the block in the
// prompt). Its namespace token stands before every tag; one outside a block (the engines'
// readers leave a stray one in content) is framing, not the answer's.
void configure_minimax_m3(Settings& s) {
    add_reasoning(s, {"<mm:think>", "</mm:think>"});
    add_content_marker(s, "]<]minimax[>[");
}
// GLM ends a turn that calls tools with <|observation|> when special tokens are kept.
void configure_glm45(Settings& s) { add_content_marker(s, "<|observation|>"); }
void configure_llama3_json(Settings& s) {
    // The tag before a call (kept out of content when it introduces no call) and the
    // end-of-message tokens Llama writes after a call or an answer.
    for (const char* m : {"<|python_tag|>", "<|eom_id|>", "<|eot_id|>"}) add_content_marker(s, m);
}
void configure_pythonic(Settings& s) {
    for (const char* m : {"<|eom|>", "<|eot|>"}) add_content_marker(s, m);  // Llama 4's end tokens
}
void configure_apertus(Settings& s) {
    add_reasoning(s, {"<|inner_prefix|>", "<|inner_suffix|>"});
    add_content_marker(s, "<|assistant_end|>");
}
void configure_gemma4(Settings& s) {
    // Gemma 4 sometimes writes the opener's first token twice: the doubled opener is the
    // same block (not a content marker `<|channel>`, which would also eat part of an
    // opener cut by the input limit).
    add_reasoning(s, {"<|channel><|channel>thought", "<channel|>"});
    add_reasoning(s, {"<|channel>thought", "<channel|>"});
    // Besides the turn's end, the closer Gemma 4 leaves stray after its answer.
    for (const char* m : {"<turn|>", "<|tool_response>", "<channel|>"}) add_content_marker(s, m);
}
void configure_functiongemma(Settings& s) {
    for (const char* m : {"<end_of_turn>", "<start_function_response>"}) add_content_marker(s, m);
}
// Kimi K2-Thinking may write its calls straight after reasoning it never closed.
void configure_kimi_k2(Settings& s) { s.reasoning_ends_at_call = true; }
// R1 and V3.1 start inside <think> (the prompt opens it) and end with their EOS token.
void configure_deepseek(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<｜end▁of▁sentence｜>");
}
void configure_mistral(Settings& s) { add_reasoning(s, {"[THINK]", "[/THINK]"}); }
// gpt-oss: reasoning is the analysis channel, closed by <|end|>, which ends every other
// message too, so it never means "the output started inside reasoning". The tokens that
// frame the answer and the preamble are not content.
void configure_harmony(Settings& s) {
    add_reasoning(s, {"<|channel|>analysis<|message|>", "<|end|>", false});
    for (const char* m : {"<|start|>assistant", "<|channel|>final<|message|>", "<|channel|>commentary<|message|>",
                          "<|end|>", "<|return|>", "<|call|>"})
        add_content_marker(s, m);
}

// GigaChat 3 ends every turn with <|message_sep|>; kept special tokens end the output with
// the EOS </s>, which is ordinary markup elsewhere, so only GigaChat's own profile strips it.
void configure_gigachat(Settings& s) { add_content_marker(s, "<|message_sep|>"); }
void configure_gigachat_own(Settings& s) { add_content_marker(s, "</s>"); }
// GigaChat 3.5 reasons in <think>…</think> (its template opens <think> in the prompt when
// reasoning is on) and keeps GigaChat 3's turn separator.
void configure_gigachat35(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<|message_sep|>");
}
// Solar Open: reasoning in <|think|>…<|end|>; <|end|> also ends the answer, so (as for
// gpt-oss) a closer before any opener never means the output started inside reasoning.
// Each message of the turn opens with <|begin|>assistant, the answer with <|content|>;
// <|calls|> and <|flush|> end the turn.
// Solar Open 2 reasons in <|think:start|>…<|think:end|>, the opener prefilled by its prompt.
void configure_solar_open(Settings& s) {
    add_reasoning(s, {"<|think|>", "<|end|>", false});
    add_reasoning(s, {"<|think:start|>", "<|think:end|>"});
    for (const char* m : {"<|begin|>assistant", "<|content|>", "<|end|>", "<|calls|>", "<|flush|>"})
        add_content_marker(s, m);
}

// PLaMo 3 reasons in <|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>; vLLM's
// reasoning parser reads an output with no opener as begun inside reasoning (the prompt may
// open it), so a closer before any opener means that. <|plamo:tag|> ends the turn.
void configure_plamo3(Settings& s) {
    add_reasoning(s, {"<|plamo:begin_think:plamo|>", "<|plamo:end_think:plamo|>"});
    add_content_marker(s, "<|plamo:tag|>");
}
// CWM reasons in <think>…</think>, its prompt opening <think> when reasoning is on
// (facebookresearch/cwm PROMPTING_GUIDE.md); <|eot_id|> ends its turn.
void configure_cwm(Settings& s) {
    add_reasoning(s, {"<think>", "</think>"});
    add_content_marker(s, "<|eot_id|>");
}

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

// Inkling writes typed blocks, each ended by <|end_message|> (or, where sampling stopped,
// <|content_model_end_sampling|>): thinking is reasoning; the role, text-kind and end
// tokens frame the answer. <|end_message|> ends every kind of block, so (as for gpt-oss's
// <|end|>) one seen before any opener never means the output started inside reasoning.
// A call block written straight into an unclosed thinking block ends it, as vLLM's
// parser has it (a thinking-to-tool transition).
void configure_inkling(Settings& s) {
    add_reasoning(s, {"<|content_thinking|>", "<|end_message|>", false});
    for (const char* m : {"<|message_model|>", "<|content_text|>", "<|content_tool_error|>", "<|end_message|>",
                          "<|content_model_end_sampling|>"})
        add_content_marker(s, m);
    s.reasoning_ends_at_call = true;
}

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

// The generic formats (docs/formats.md), one profile each.
const std::vector<ProfileRow>& generic_rows() {
    static const std::vector<ProfileRow> table = {
        {"tag", "any model prompted with the tag format",
         "[TOOL_CALL]{…}[/TOOL_CALL] (tags configurable), <tool name=…>, <tool_call>{…}</tool_call>", {primary("tag")}},
        {"marker", "any model prompted with the marker format", "TOOL_CALL followed by a JSON object",
         {primary("marker")}},
        {"json", "any model in JSON mode", "the whole output is a JSON call, array of calls, or {\"tool_calls\": […]}",
         {primary("json")}, nullptr, false},
        // llama.cpp's "Generic" chat format, for models it has no template of their own for:
        // the wrapper object, or a bare call object as `json` reads it.
        {"generic", "any model under llama.cpp's generic JSON format",
         "{\"tool_call\": {…}}, {\"tool_calls\": […]} or {\"response\": \"…\"}: the whole output is one object",
         {primary("generic"), primary("json")}, nullptr, false},
        {"bracket", "any model prompted with Python calls", "Python call list [f(a=1), g()] or a bare call",
         {primary("bracket")}, nullptr, false},
        {"xml", "any model prompted with XML calls", "XML markup calls: <tool_call>, <function_call>, <invoke>",
         {primary("xml")}},
        {"text_kv", "ReAct-style agents, echoed call history",
         "function.name:/function.arguments: or Action:/Action Input: (gated: always a fallback)",
         {fallback("text_kv")}, nullptr, false},
    };
    return table;
}

// One row per model family (docs/formats.md).
const std::vector<ProfileRow>& family_rows() {
    static const std::vector<ProfileRow> table = {
        {"hermes", "Hermes 2 Pro / 3, Qwen2.5, Qwen3, QwQ, ERNIE 4.5, EXAONE, Granite 4",
         "<tool_call>{\"name\": …, \"arguments\": …}</tool_call>, one block per call",
         // Hermes 2 Pro's legacy <function=NAME>{…}</function> and <function name="NAME">{…}</function>
         // too; `auto` runs functionary_v31 in its own row's place.
         {primary("hermes"), primary("functionary_v31")}, nullptr, true, {primary("hermes")}},
        {"longcat", "LongCat-Flash",
         "<longcat_tool_call>{\"name\": …, \"arguments\": …}</longcat_tool_call>, one block per call",
         {primary("longcat")}, configure_longcat},
        {"qwen3_coder", "Qwen3-Coder, Qwen3.5/3.6, Nemotron 3 Nano, MiMo, Step 3.5",
         "<tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>", {primary("qwen3_coder")}},
        {"seed_oss", "Seed-OSS",
         "<seed:tool_call><function=NAME><parameter=K>V</parameter></function></seed:tool_call>; <seed:think>",
         {primary("seed_oss")}, configure_seed_oss},
        {"glm45", "GLM-4.5, 4.6, 4.7, 5",
         "<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>, with or without newlines",
         {primary("glm45")}, configure_glm45},
        {"minimax_m2", "MiniMax-M2",
         "<minimax:tool_call><invoke name=NAME><parameter name=K>V</parameter></invoke>…</minimax:tool_call>",
         {primary("minimax_m2")}},
        {"minicpm5", "MiniCPM 5", "<function name=NAME><param name=K>V</param></function>, V plain or CDATA",
         {primary("minicpm5")}},
        {"step3", "Step-3",
         "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=NAME>"
         "<steptml:parameter name=K>V</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
         {primary("step3")}},
        {"kimi_k2", "Kimi K2, K2-Thinking",
         "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}"
         "<|tool_call_end|><|tool_calls_section_end|>",
         {primary("kimi_k2")}, configure_kimi_k2},
        {"deepseek_r1", "DeepSeek R1, R1-0528, V3-0324",
         "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME ```json {…}``` <｜tool▁call▁end｜>"
         "<｜tool▁calls▁end｜>, misspelt section tokens too",
         {primary("deepseek_r1")}, configure_deepseek},
        {"deepseek_v31", "DeepSeek V3.1",
         "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
         {primary("deepseek_v31")}, configure_deepseek},
        {"deepseek_v32", "DeepSeek V3.2, V4, V4.1",
         "<｜DSML｜function_calls|tool_calls><｜DSML｜invoke name=NAME><｜DSML｜parameter name=K string=true|false>V"
         "</｜DSML｜parameter></｜DSML｜invoke> or a JSON object in the invoke; V4.1's <｜DSML｜ calls>; drifted "
         "<|DSML|…>, <DSML|…>, <DSML｜…>, <DSML…>; the prefix lost, <invoke name=NAME>… as xml reads it",
         // DeepSeek also writes its invoke with no DSML prefix at all (`<invoke name="read">
         // <parameter name="filePath">…`, opencode#34676), which `auto` reads through `xml`:
         // the family's profile reads it too. `auto` runs xml in its own row's place.
         {primary("deepseek_v32"), primary("xml")}, nullptr, true, {primary("deepseek_v32")}},
        {"mistral", "Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral",
         "[TOOL_CALLS]NAME[ARGS]{…} (or with [CALL_ID]ID) per call; old [TOOL_CALLS] [{\"name\": …, \"id\": …}]; "
         "reasoning [THINK]…[/THINK]",
         {primary("mistral")}, configure_mistral},
        {"llama3_json", "Llama 3.1 / 3.2 / 3.3 / 4 (JSON mode)",
         "{\"name\": …, \"parameters\": …}, optionally after <|python_tag|>, several joined by ';'",
         {primary("llama3_json")}, configure_llama3_json, false,
         {primary("llama3_json_tagged"), fallback("llama3_json")}},
        {"pythonic", "Llama 3.2 / 4 pythonic, ToolACE, LFM2, Olmo 3",
         "[f(a=1), g()], bare or in <|python_start|>…<|python_end|>, <|tool_call_start|>…<|tool_call_end|>, "
         "<function_calls>…</function_calls>; LFM2's JSON mode [{…}] between its markers too (lfm2_json)",
         // LFM2 writes Python or JSON between the same markers, as its system prompt asks:
         // the payload decides which grammar reads a block (each declines the other's).
         {primary("pythonic"), primary("lfm2_json")}, configure_pythonic, false,
         // The bare list is the bracket format exactly, which auto runs as a fallback.
         {primary("pythonic_tagged")}},
        {"granite", "Granite 3.0 / 3.1 / 3.3",
         "<|tool_call|>[{\"name\": …, \"arguments\": …}] (3.0) or <tool_call>[…] (3.1), no closer",
         {primary("granite")}, configure_granite, true, {}, configure_granite_own},
        {"granite_20b_fc", "granite-20b-functioncalling",
         "<function_call> {\"name\": …, \"arguments\": …} per call, no closer", {primary("granite_20b_fc")},
         configure_granite_20b_fc},
        {"functionary_v31", "Functionary v3.1, Llama 3.1 function tags", "<function=NAME>{…}</function>",
         {primary("functionary_v31")}},
        {"functionary_v32", "Functionary v3.2", ">>>NAME\\n{…} per call, >>>all\\n before text; the first >>> may be in "
         "the prompt", {primary("functionary_v32")}, nullptr, false,
         // A whole output `NAME\n{…}` with no `>>>` has no marker (the `>>>` was in the
         // prompt): auto reads it only as a gated fallback, so that `Result\n{"x": 1}` is
         // not a call named Result nor `CALL_TOOL\n{…}` one named CALL_TOOL.
         {primary("functionary_v32_marked"), fallback("functionary_v32")}},
        {"functools", "FireFunction v2, Phi-4-mini", " functools[{\"name\": …, \"arguments\": …}, …]",
         {primary("functools")}},
        {"command_r", "Command R7B, Command A, Command R+",
         "<|START_ACTION|>[{\"tool_call_id\": …, \"tool_name\": …, \"parameters\": …}]<|END_ACTION|>; "
         "R+: Action: ```json […]```",
         {primary("command_r")}, configure_command_r},
        {"harmony", "gpt-oss",
         "<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>; reasoning on the analysis "
         "channel, the answer on the final channel",
         {primary("harmony")}, configure_harmony},
        {"jamba", "Jamba 1.5, Hunyuan-A13B, MiniMax-M1",
         "<tool_calls>[{\"name\": …, \"arguments\": …}]</tool_calls>, or one call object a line (MiniMax-M1)",
         {primary("jamba")}, configure_jamba},
        {"apriel", "Apriel 1.5, 1.6 Thinker",
         "reasoning up to [BEGIN FINAL RESPONSE], then <tool_calls>[{\"name\": …, \"arguments\": …}]</tool_calls>",
         {primary("jamba")}, configure_apriel},
        {"nemotron", "Nemotron Nano v2", "<TOOLCALL>[{\"name\": …, \"arguments\": …}]</TOOLCALL>",
         {primary("nemotron")}},
        {"internlm", "InternLM 2.5, Intern-S1",
         "<|action_start|><|plugin|>\\n{\"name\": …, \"parameters\": …}<|action_end|>", {primary("internlm")}},
        {"xlam", "xLAM", "[{\"name\": …, \"arguments\": …}], bare, fenced, after </think> or [TOOL_CALLS]",
         {primary("xlam")}, nullptr, false},
        {"apertus", "Apertus", "<|tools_prefix|>[{\"NAME\": {…}}]<|tools_suffix|>", {primary("apertus")},
         configure_apertus},
        {"gemma4", "Gemma 4",
         "<|tool_call>call:NAME{key:<|\"|>text<|\"|>,n:3}<tool_call|>, arguments also (key: value, …); "
         "stripped by the engine, call:NAME{key:text} ending the output (a gated fallback)",
         // The stripped form has no token of its own: auto, which runs only a distinctive
         // row's primaries, never reads it.
         {primary("gemma4"), fallback("gemma4_stripped")}, configure_gemma4},
        {"functiongemma", "FunctionGemma", "<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>",
         {primary("functiongemma")}, configure_functiongemma},
        {"gigachat", "GigaChat 3, GigaChat 3.1",
         "<|message_sep|>function call<|role_sep|>{\"name\": …, \"arguments\": …} (3) or <|function_call|>{…} (3.1), "
         "one call per turn",
         {primary("gigachat")}, configure_gigachat, true, {}, configure_gigachat_own},
        {"solar_open", "Solar Open 100B, Solar Open 2",
         "<|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…<|calls|>; "
         "reasoning <|think|>…<|end|>, the answer after <|content|>; Solar Open 2: <|tool_call:start|>NAME "
         "<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|> <|tool_call:end|>",
         {primary("solar_open")}, configure_solar_open},
        {"gigachat35", "GigaChat 3.5",
         "<｜GCML｜tool_calls><｜GCML｜invoke name=NAME><｜GCML｜parameter name=K string=true|false>V</｜GCML｜parameter>"
         "</｜GCML｜invoke></｜GCML｜tool_calls>; reasoning <think>…</think>",
         {primary("gigachat35")}, configure_gigachat35, true, {}, configure_gigachat_own},
        {"lfm2_json", "LFM2, LFM2.5 (JSON mode)",
         "<|tool_call_start|>[{\"name\": …, \"arguments\": …}]<|tool_call_end|> (the Python mode is pythonic's)",
         {primary("lfm2_json")}},
        {"hy_v3", "Tencent Hy3 (HY-V3), HY-V4",
         "<tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value></tool_call></tool_calls>; "
         "Hy3's and HY-V4's checkpoints: the same tags with a :opensource suffix (HY-V4: no <tool_sep>), a call "
         "also alone, its arguments also one JSON object: <tool_call:opensource>NAME<tool_sep:opensource>{…}"
         "<end_of_tool_call:opensource>; reasoning <think:opensource>",
         {primary("hy_v3")}, configure_hy_v3},
        // GLM's syntax exactly, each value JSON: no marker of its own, so auto reads it with
        // glm45 (values kept as written, quotes and all); the profile decodes them.
        {"hyperclovax_seed_think", "HyperCLOVA X SEED Think 32B",
         "<tool_call>NAME<arg_key>K</arg_key><arg_value>\"V\"</arg_value></tool_call>: GLM's syntax, every value JSON "
         "(a value that is no JSON is its text); reasoning <think>",
         {primary("hyperclovax_seed_think")}, nullptr, false, {primary("glm45")}, configure_hyperclovax_own},
        {"kimi_k3", "Kimi K3",
         "<|open|>tools<|sep|><|open|>call tool=NAME index=N<|sep|><|open|>argument key=K type=T<|sep|>V"
         "<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>; reasoning in the think channel, the "
         "answer in the response channel",
         {primary("kimi_k3")}, configure_kimi_k3},
        {"minimax_m3", "MiniMax-M3",
         "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=NAME>]<]minimax[>[<K>V]<]minimax[>[</K>…]<]minimax[>[</invoke>"
         "]<]minimax[>[</tool_call>, every tag behind the ]<]minimax[>[ token; objects and lists as nested elements; "
         "<mm:think>",
         {primary("minimax_m3")}, configure_minimax_m3},
        {"inkling", "Inkling",
         "<|message_model|>NAME<|content_invoke_tool_json|>{\"name\": …, \"args\": {…}}<|end_message|> per call; "
         "reasoning <|content_thinking|>…<|end_message|>, the answer in <|content_text|>…<|end_message|>",
         {primary("inkling")}, configure_inkling},
        {"muse_glimmer", "Muse Glimmer 30B",
         "<|start|>assistant to=NAME<|message|><atem:function_calls><atem:invoke name=NAME><atem:parameter name=K>V"
         "</atem:parameter></atem:invoke></atem:function_calls><|eom|>; reasoning to=self, the answer to=user",
         {primary("muse_glimmer")}, configure_muse_glimmer, true, {}, configure_muse_glimmer_own},
        {"plamo3", "PLaMo 3",
         "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME"
         "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{…}"
         "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>…<|plamo:end_tool_requests:plamo|>; "
         "reasoning <|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>, the turn ends <|plamo:tag|>",
         {primary("plamo3")}, configure_plamo3},
        {"cwm", "CWM (Code World Model)",
         "<tool: NAME> on a line of its own, the tool's INPUT, </tool>: INPUT a JSON object of arguments, or the text "
         "of the tool's command (or only) parameter; also vLLM's <tool: function> with NAME first in the body, and "
         "<tool: NAME INPUT </tool>; reasoning <think>",
         {primary("cwm")}, configure_cwm},
        // scripts/new-grammar: rows go above this line.
    };
    return table;
}

// The families whose chat templates never open reasoning in the prompt: a closer before any
// opener is then plain text (ReasoningStart::outside), and a stream sends content from the
// first token instead of holding it until a reasoning delimiter or the end tells. Read off
// their templates in tests/data/templates (match_chat_template's reasoning_opened; the
// chat-template test checks that no template there that opens reasoning names one of
// these): Seed-OSS writes <seed:think> closed or not at all, Kimi K2 and K2-Thinking
// `<|im_assistant|>assistant<|im_middle|>`, Mistral's templates no generation prompt at all,
// Gemma 4 a closed thought channel when thinking is off, the others no opener.
// Every other profile keeps `guess`: a template of its family opens it (QwQ's, Bielik's
// and Reka Edge's for hermes; Qwen3.5's, Nemotron 3 Nano's and Step 3.5's for
// qwen3_coder; R1's, V3.1's, V3.2's, GLM-4.7's, MiniMax-M2's, Command A Reasoning's, Nemotron
// Nano v2's, Kimi K3's), the corpus holds such an output for it (Olmo 3 for pythonic, xLAM,
// GigaChat 3.5, Step-3), its opener is no token (Apriel), it serves any model (the generic
// formats), or no template of its family was at hand to check. Apertus's template opens
// none, but its stream under outside announces a call too early and withdraws it
// (corpus/apertus/several_calls_in_one_object cut every 16 bytes: get_weather's city is
// followed on into search_web's query): it keeps guess, which holds its calls to the end,
// until that is fixed.
bool prompt_never_opens_reasoning(std::string_view profile) {
    static constexpr std::string_view never[] = {
        "seed_oss",  "kimi_k2",   "mistral", "llama3_json", "granite", "granite_20b_fc", "functionary_v31",
        "functionary_v32", "functools", "harmony", "gemma4", "functiongemma", "gigachat", "lfm2_json",
    };
    return std::find(std::begin(never), std::end(never), profile) != std::end(never);
}

Profile from_row(const ProfileRow& row, bool own = true) {
    Profile p;
    p.name = row.name;
    p.models = row.models;
    p.description = row.description;
    p.grammars = row.grammars;
    p.distinctive = row.distinctive;
    if (row.configure) row.configure(p.settings);
    if (own && row.configure_own) row.configure_own(p.settings);
    if (prompt_never_opens_reasoning(row.name)) p.settings.reasoning_start = ReasoningStart::outside;
    return p;
}

// `auto`: the generic marker grammars and every distinctive family's grammars as
// primaries; the non-distinctive families' grammars and the generic prose-like grammars as
// fallbacks (a row's `in_auto`, where given, says instead which of its grammars run and
// how); the union of the families' settings.
// What of a family's settings `auto` takes on: its reasoning delimiters, its framing
// tokens, and, where its calls may follow unclosed reasoning (Kimi K2), that too, or auto
// would reject as "inside reasoning" the calls its own profile accepts.
void merge_into_auto(Settings& into, const Settings& family) {
    for (const auto& d : family.reasoning) add_reasoning(into, d);
    for (const auto& m : family.content_markers) add_content_marker(into, m);
    into.reasoning_ends_at_call = into.reasoning_ends_at_call || family.reasoning_ends_at_call;
}

Profile make_auto() {
    Profile p;
    p.name = "auto";
    p.models = "any: recognises every family by its markers";
    p.description = "every syntax with a distinctive marker; strict JSON, bracket and text KV as gated fallbacks";
    auto add = [&](const GrammarUse& use) {
        for (const auto& g : p.grammars)
            if (g.grammar == use.grammar) return;
        p.grammars.push_back(use);
    };
    for (const char* g : {"tag", "xml", "marker"}) add(primary(g));
    for (const auto& row : family_rows()) {
        Profile family = from_row(row, false);
        for (const auto& g : row.grammars)
            if (g.role == Role::primary && row.distinctive && row.in_auto.empty()) add(g);
        for (const auto& g : row.in_auto)
            if (g.role == Role::primary) add(g);
        merge_into_auto(p.settings, family.settings);
    }
    // The shipped profile files' syntaxes, each its own grammar, with their settings.
    for (const auto& shipped : detail::shipped_grammars()) {
        for (const auto& g : shipped.profile->grammars)
            if (g.role == Role::primary) add(g);
        merge_into_auto(p.settings, shipped.profile->settings);
    }
    for (const auto& row : family_rows()) {
        for (const auto& g : row.grammars)
            if (!row.distinctive && row.in_auto.empty()) add({g.grammar, Role::fallback});
        for (const auto& g : row.in_auto)
            if (g.role == Role::fallback) add(g);
    }
    // `generic` after `json`: it reads the wrappers json declines ({"tool_call": {…}}).
    // Only under its own profile is a `{"response": …}` the answer: in auto, a fallback
    // block without a call stays text.
    for (const char* g : {"json", "generic", "bracket", "text_kv"}) add(fallback(g));
    return p;
}

}  // namespace

Profile builtin_profile(std::string_view name) {
    if (name == "auto") return make_auto();
    for (const auto* rows : {&family_rows(), &generic_rows()})
        for (const auto& row : *rows)
            if (name == row.name) return from_row(row);
    // A shipped profile file, read once from its compiled-in text with every check a file
    // on disk gets (errors name grammars/declared/NAME.json); its syntax is its own grammar.
    for (const auto& shipped : detail::shipped_grammars())
        if (name == shipped.grammar->name) return *shipped.profile;
    // An engine's name for a syntax: the profile that reads it (profile_aliases.cpp).
    std::string engines, models;
    for (const auto& alias : profile_aliases()) {
        if (alias.name != name) continue;
        if (!alias.profile.empty()) return builtin_profile(alias.profile);
        engines += (engines.empty() ? "" : " and ") + alias.engine;
        if (models.empty()) models = alias.models;
    }
    if (!engines.empty())
        throw std::invalid_argument("\"" + std::string(name) + "\" is the " + engines + " parser for " + models +
                                    ", a syntax toolgram does not read yet (toolgram profiles --aliases lists "
                                    "the engines' names and the profiles they map to)");
    std::string known;
    for (const auto& n : builtin_profile_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown profile \"" + std::string(name) + "\" (known: " + known + ")");
}

std::vector<std::string> builtin_profile_names() {
    std::vector<std::string> names{"auto"};
    for (const auto& row : generic_rows()) names.emplace_back(row.name);
    for (const auto& row : family_rows()) names.emplace_back(row.name);
    for (const auto& f : detail::shipped_profile_file_texts()) names.emplace_back(f.name);
    return names;
}

std::vector<DeclaredProfileFile> declared_profile_files() {
    std::vector<DeclaredProfileFile> out;
    for (const auto& f : detail::shipped_profile_file_texts())
        out.push_back({std::string(f.name), std::string(f.path), std::string(f.text)});
    return out;
}

std::vector<GrammarInfo> grammar_catalogue() {
    std::vector<GrammarInfo> out;
    for (const auto* g : detail::all_grammars()) out.push_back({std::string(g->name), std::string(g->summary)});
    return out;
}

}  // namespace toolgram
