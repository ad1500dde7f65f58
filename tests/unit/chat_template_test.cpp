// From a chat template to a profile (src/profiles/chat_template.cpp): every real template under
// tests/data/templates/ (their README names the source of each) names the profile its
// family's engines use, with the markers as evidence, or is unknown for a good reason;
// look-alike families stay apart; a tie is reported as one; and a hostile file (empty, not
// JSON, nested 100,000 deep, a chat_template of the wrong type, a template past the
// limit) gets a clear answer, never a crash.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <toolgram/chat_template.hpp>
#include <toolgram/toolgram.hpp>

#include "test_files.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace chat_template_test {

using toolgram_test::slurp;

namespace fs = std::filesystem;
using toolgram::TemplateMatch;
using Verdict = toolgram::TemplateMatch::Verdict;

namespace {

const fs::path templates_dir = fs::path(TOOLGRAM_SOURCE_DIR) / "tests" / "data" / "templates";

// What each template must give: a profile, "unknown", "not read yet", or "alias:ENGINE
// NAME" for a family whose engine name toolgram does not read yet (the expectation follows
// the alias table, so giving that name a profile moves the template to it).
const std::map<std::string, std::string>& expected() {
    static const std::map<std::string, std::string> table = {
        {"Apertus-8B-Instruct.jinja", "apertus"},
        {"Apriel-1.6-15b-Thinker-fixed.jinja", "apriel"},
        {"Bielik-11B-v3.0-Instruct.jinja", "hermes"},
        {"ByteDance-Seed-OSS.jinja", "seed_oss"},
        {"Cohere2MoE.jinja", "command_r"},
        {"CohereForAI-c4ai-command-r-plus-tool_use.jinja", "command_r"},
        {"CohereForAI-c4ai-command-r7b-12-2024-default.jinja", "command_r"},
        {"CohereForAI-c4ai-command-r7b-12-2024-rag.jinja", "command_r"},
        {"CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja", "command_r"},
        {"GLM-4.6.jinja", "glm45"},
        {"GLM-4.7-Flash.jinja", "glm45"},
        {"GigaChat3-10B-A1.8B.jinja", "alias:vLLM gigachat3"},
        {"GigaChat3.1-10B-A1.8B.jinja", "alias:vLLM gigachat3"},
        // SmolLM3's template here handles a `tool` role but lists no tools and renders no call.
        {"HuggingFaceTB-SmolLM3-3B.jinja", "unknown"},
        {"Kimi-K2-Instruct.jinja", "kimi_k2"},
        {"Kimi-K2-Thinking.jinja", "kimi_k2"},
        {"Kimi-K3.jinja", "kimi_k3"},
        {"LFM2-8B-A1B.jinja", "pythonic"},
        {"LFM2.5-8B-A1B.jinja", "pythonic"},
        // Lists the tools as plain JSON after "List of tools:" and renders no call.
        {"LFM2.5-Instruct.jinja", "unknown"},
        {"MiMo-VL.jinja", "hermes"},
        {"MiniMax-M2.jinja", "minimax_m2"},
        {"Mistral-Small-3.2-24B-Instruct-2506.jinja", "mistral"},
        {"NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja", "qwen3_coder"},
        {"NVIDIA-Nemotron-Nano-v2.jinja", "nemotron"},
        {"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja", "hermes"},
        {"Qwen-QwQ-32B.jinja", "hermes"},
        {"Qwen-Qwen2.5-7B-Instruct.jinja", "hermes"},
        {"Qwen-Qwen3-0.6B.jinja", "hermes"},
        {"Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja", "qwen3_coder"},
        {"Qwen3-Coder.jinja", "qwen3_coder"},
        {"Qwen3.5-4B.jinja", "qwen3_coder"},
        {"Reka-Edge.jinja", "hermes"},
        {"ServiceNow-AI-Apriel-1.5-15b-Thinker.jinja", "apriel"},
        {"deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja", "deepseek_r1"},
        {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", "deepseek_r1"},
        {"deepseek-ai-DeepSeek-V3.1.jinja", "deepseek_v31"},
        {"deepseek-ai-DeepSeek-V3.2.jinja", "deepseek_v32"},
        {"fireworks-ai-llama-3-firefunction-v2.jinja", "functools"},
        {"gemma4.jinja", "gemma4"},
        {"glm_4_5.jinja", "glm45"},
        // Gemma 2, Phi-3.5 and RWKV templates know no tools at all.
        {"google-gemma-2-2b-it.jinja", "unknown"},
        {"google-gemma-4-31B-it-interleaved.jinja", "gemma4"},
        {"google-gemma-4-31B-it.jinja", "gemma4"},
        {"google-functiongemma.jinja", "functiongemma"},
        {"ibm-granite-granite-3.3-2B-Instruct.jinja", "granite"},
        {"ibm-granite-granite-4.0.jinja", "hermes"},
        {"ibm-granite-granite-4.1.jinja", "hermes"},
        {"llama-cpp-deepseek-r1.jinja", "deepseek_r1"},
        {"llama-cpp-ibm-granite-granite-3.3-2B-Instruct.jinja", "granite"},
        {"llama-cpp-lfm2.jinja", "pythonic"},
        // llama.cpp's own Phi-4-mini template: <|tool_call|>{…}<|/tool_call|>, which no
        // engine parser names (llama.cpp reads it with the parser it derives from templates);
        // granite reads it (Granite 3.0's token, and its closer: corpus/granite/phi4_mini_*).
        {"llama-cpp-microsoft-Phi-4-mini-instruct.jinja", "granite"},
        {"llama-cpp-rwkv-world.jinja", "unknown"},
        {"meetkai-functionary-medium-v3.1.jinja", "functionary_v31"},
        {"meetkai-functionary-medium-v3.2.jinja", "functionary_v32"},
        {"meta-llama-Llama-3.1-8B-Instruct.jinja", "llama3_json"},
        {"meta-llama-Llama-3.2-3B-Instruct.jinja", "llama3_json"},
        {"microsoft-Phi-3.5-mini-instruct.jinja", "unknown"},
        {"microsoft-Phi-4-mini-instruct.jinja", "functools"},
        {"mistralai-Ministral-3-14B-Reasoning-2512.jinja", "mistral"},
        {"mistralai-Mistral-Nemo-Instruct-2407.jinja", "mistral"},
        {"moonshotai-Kimi-K2.jinja", "kimi_k2"},
        {"openai-gpt-oss-120b.jinja", "harmony"},
        {"stepfun-ai-Step-3.5-Flash.jinja", "qwen3_coder"},
        {"unsloth-Apriel-1.5.jinja", "apriel"},
        {"unsloth-Magistral-Small-2509.jinja", "mistral"},
        {"unsloth-Nemotron-3-Nano.jinja", "qwen3_coder"},
        {"unsloth-mistral-Devstral-Small-2507.jinja", "mistral"},
        {"tencent-Hy3.jinja", "hy_v3"},
        {"upstage-Solar-Open-100B.jinja", "solar_open"},
        {"vllm-tool_chat_template_granite_20b_fc.jinja", "granite_20b_fc"},
        {"vllm-tool_chat_template_internlm2_tool.jinja", "internlm"},
        {"vllm-tool_chat_template_llama3.2_pythonic.jinja", "pythonic"},
        {"vllm-tool_chat_template_xlam_qwen.jinja", "xlam"},
    };
    return table;
}

std::string alias_profile(const std::string& engine_and_name) {
    const std::size_t space = engine_and_name.find(' ');
    for (const auto& a : toolgram::profile_aliases())
        if (a.engine == engine_and_name.substr(0, space) && a.name == engine_and_name.substr(space + 1))
            return a.profile;
    FAIL("no alias " << engine_and_name);
    return "";
}

// "vLLM hermes" or `llama.cpp "Hermes 2 Pro"` as profile_aliases spells them.
bool alias_names(const std::string& label, const std::string& profile) {
    const std::size_t space = label.find(' ');
    std::string name = label.substr(space + 1);
    if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.size() - 2);
    for (const auto& a : toolgram::profile_aliases())
        if (a.engine == label.substr(0, space) && a.name == name) return a.profile == profile;
    return false;
}

}  // namespace

TEST_CASE("real chat templates name the profile their family's engines use", "[chat_template]") {
    std::set<std::string> files;
    for (const auto& e : fs::directory_iterator(templates_dir))
        if (e.path().extension() == ".jinja") files.insert(e.path().filename().string());
    // Every template has its expectation, and every expectation its template.
    std::set<std::string> listed;
    for (const auto& [file, want] : expected()) listed.insert(file);
    CHECK(files == listed);
    // And the README names the source of each.
    const std::string readme = slurp(templates_dir / "README.md");
    std::size_t matched = 0, unknown = 0, not_read = 0;
    for (const auto& file : files) {
        CAPTURE(file);
        CHECK(readme.find(file) != std::string::npos);
        const auto it = expected().find(file);
        if (it == expected().end()) continue;
        std::string want = it->second;
        if (want.rfind("alias:", 0) == 0) {
            want = alias_profile(want.substr(6));
            if (want.empty()) want = "not read yet";
        }
        const toolgram::ChatTemplateText source = toolgram::chat_template_from_file(slurp(templates_dir / file), false);
        CHECK(source.from == "the file");
        const TemplateMatch m = toolgram::match_chat_template(source.text);
        CAPTURE(m.explanation);
        if (want == "unknown") {
            ++unknown;
            CHECK(m.verdict == Verdict::unknown);
            CHECK(m.candidates.empty());
            CHECK(!m.explanation.empty());
        } else if (want == "not read yet") {
            ++not_read;
            CHECK(m.verdict == Verdict::not_read_yet);
            REQUIRE(!m.candidates.empty());
            CHECK(m.candidates.front().profile.empty());
        } else {
            ++matched;
            CHECK(m.verdict == Verdict::matched);
            CHECK(m.profile == want);
            REQUIRE(!m.candidates.empty());
            const auto& winner = m.candidates.front();
            CHECK(winner.profile == want);
            // The evidence: each marker of the signature, where it is written.
            CHECK(!winner.found.empty());
            for (const auto& f : winner.found) {
                CAPTURE(f.marker);
                CHECK(f.line > 0);
            }
            // The engines' names it gives are the alias table's, for this very profile.
            for (const auto& e : winner.engines) {
                CAPTURE(e);
                CHECK(alias_names(e, want));
            }
        }
    }
    CHECK(matched + unknown + not_read == files.size());
    WARN(files.size() << " templates: " << matched << " matched, " << not_read << " not read yet, " << unknown
                      << " unknown");
}

TEST_CASE("chat templates: the evidence places a marker in its tool-call branch", "[chat_template]") {
    const TemplateMatch m = toolgram::match_chat_template(slurp(templates_dir / "Qwen-Qwen2.5-7B-Instruct.jinja"));
    REQUIRE(m.verdict == Verdict::matched);
    REQUIRE(m.candidates.front().found.size() == 2);
    const auto& open = m.candidates.front().found[0];
    CHECK(open.marker == "<tool_call>");
    CHECK(open.in_tool_call_branch);
    CHECK(open.block.find("tool_call") != std::string::npos);
    // Hermes is told from its look-alikes by what it does not write.
    const auto& absent = m.candidates.front().absent;
    CHECK(std::find(absent.begin(), absent.end(), "<function=") != absent.end());
    CHECK(std::find(absent.begin(), absent.end(), "<arg_key>") != absent.end());
    // The engines' names for it.
    const auto& engines = m.candidates.front().engines;
    CHECK(std::find(engines.begin(), engines.end(), "SGLang qwen25") != engines.end());
    CHECK(std::find(engines.begin(), engines.end(), "llama.cpp \"Hermes 2 Pro\"") != engines.end());
}

TEST_CASE("chat templates: families sharing <tool_call> are told apart", "[chat_template]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{{- '<tool_call>\\n' + tool_call | tojson + '\\n</tool_call>' }}", "hermes"},
        {"{{- '<tool_call>\\n<function=' + name + '>\\n<parameter=' + k + '>' }}</tool_call>", "qwen3_coder"},
        {"{{- '<tool_call>' + name }}<arg_key>{{ k }}</arg_key><arg_value>{{ v }}</arg_value></tool_call>", "glm45"},
        {"<minimax:tool_call>\n<invoke name=\"{{ name }}\">\n</minimax:tool_call>", "minimax_m2"},
        // MiniMax-M3: the namespace token set once, then written before each tag.
        {"{%- set ns = ']<]minimax[>[' -%}{{- ns ~ '<tool_call>\\n' ~ ns ~ '<invoke name=\"' ~ name ~ '\">' -}}"
         "{{- ns ~ '</invoke>\\n' ~ ns ~ '</tool_call>' -}}",
         "minimax_m3"},
        {"<seed:tool_call>\n<function={{ name }}>\n</seed:tool_call>", "seed_oss"},
        // Apriel names <tool_call></tool_call> in its prose and writes <tool_calls>.
        {"within <tool_call></tool_call> XML tags: <tool_calls>[{{ calls }}]</tool_calls>", "jamba"},
    };
    for (const auto& [text, profile] : cases) {
        CAPTURE(text);
        const TemplateMatch m = toolgram::match_chat_template(text);
        CHECK(m.verdict == Verdict::matched);
        CHECK(m.profile == profile);
    }
}

// Issue 28. GigaChat 3.5 keeps GigaChat 3.1's template (its roles, `<|role_sep|>`, the prompt
// naming the `function call` role) and writes calls as GCML. Its template is not among the
// test data: this one is 3.1's with the call rendered as GigaChat 3.5 writes it (the
// markup vLLM's and SGLang's gigachat35 parsers read, the `｜GCML｜` token llama.cpp's
// gigachat35 chat format preserves). With 3.1's markers and GCML both written, it is
// gigachat35's, not GigaChat 3's.
TEST_CASE("chat templates: GigaChat 3.5's GCML template is gigachat35, not gigachat", "[chat_template]") {
    std::string text = slurp(templates_dir / "GigaChat3.1-10B-A1.8B.jinja");
    const auto replace = [&](const std::string& from, const std::string& to) {
        const std::size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    };
    replace("function_call=\"<|function_call|>\"", "gcml=\"｜GCML｜\"");
    replace("{{- add_tokens.function_call + render_function_call(message.tool_calls[0]) -}}",
            "{{- '<' ~ add_tokens.gcml ~ 'tool_calls>\\n' -}}{%- for call in message.tool_calls -%}"
            "{{- '<' ~ add_tokens.gcml ~ 'invoke name=\"' ~ call.function.name ~ '\">\\n' -}}"
            "{{- '</' ~ add_tokens.gcml ~ 'invoke>\\n' -}}{%- endfor -%}"
            "{{- '</' ~ add_tokens.gcml ~ 'tool_calls>' -}}");
    REQUIRE(text.find("<|function_call|>") == std::string::npos);
    const TemplateMatch m = toolgram::match_chat_template(text);
    CAPTURE(m.explanation);
    CHECK(m.verdict == Verdict::matched);
    CHECK(m.profile == "gigachat35");
    // GigaChat 3.1's own template is still GigaChat 3's family.
    CHECK(toolgram::match_chat_template(slurp(templates_dir / "GigaChat3.1-10B-A1.8B.jinja")).profile == "gigachat");
}

// Issue 28: llama.cpp's Phi-4-mini template was "not read yet" though `auto` reads its calls;
// the profile it names reads them whole, its closing token included.
TEST_CASE("chat templates: llama.cpp's Phi-4-mini template names a profile that reads its calls", "[chat_template]") {
    const TemplateMatch m =
        toolgram::match_chat_template(slurp(templates_dir / "llama-cpp-microsoft-Phi-4-mini-instruct.jinja"));
    REQUIRE(m.verdict == Verdict::matched);
    REQUIRE(m.profile == "granite");
    // The call its system prompt shows, as the model writes it back.
    toolgram::Tool foo;
    foo.name = "foo";
    foo.parameters = toolgram::json::parse(R"({"type": "object", "properties": {"a": {"type": "integer"}}})");
    const auto r = toolgram::Parser(toolgram::builtin_profile(m.profile), {foo})
                       .parse(R"(<|tool_call|>{"name": "foo", "arguments": {"a": 1}}<|/tool_call|>)");
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].name == "foo");
    CHECK(r.calls[0].arguments == toolgram::json{{"a", 1}});
    CHECK(r.content.empty());
}

TEST_CASE("chat templates: comments and if-tests write nothing", "[chat_template]") {
    // A marker only in a comment or a test is not the template's syntax.
    CHECK(toolgram::match_chat_template("{# <TOOLCALL> is Nemotron's #}hello").verdict == Verdict::unknown);
    CHECK(toolgram::match_chat_template("{% if '<TOOLCALL>' in content %}x{% endif %}").verdict == Verdict::unknown);
    // The same marker written in the branch is.
    const TemplateMatch m =
        toolgram::match_chat_template("{% for tool_call in message.tool_calls %}<TOOLCALL>{% endfor %}");
    REQUIRE(m.verdict == Verdict::matched);
    CHECK(m.profile == "nemotron");
    CHECK(m.candidates.front().found.front().in_tool_call_branch);
    CHECK(m.candidates.front().found.front().block == "{% for tool_call in message.tool_calls %}");
    // {% raw %} writes its tags as text.
    CHECK(toolgram::match_chat_template("{% raw %}{% if x %}<TOOLCALL>{% endif %}{% endraw %}").profile == "nemotron");
}

// Issue 29, item 15: each marker's first 256 occurrences were kept, comments and if-tests
// included, so 256 commented `<function=` hid the written one and Qwen3-Coder's template
// was named hermes with confidence. Occurrences that write nothing are skipped first.
TEST_CASE("chat templates: markers in comments and if-tests do not use up the occurrences counted", "[chat_template]") {
    const std::string qwen3_coder =
        "{{- '<tool_call>\\n<function=' + name + '>\\n<parameter=' + k + '>' }}</tool_call>";
    for (const std::string& unwritten : {std::string("{# <function=NAME> #}"), std::string("{% if '<function=' in content %}{% endif %}"),
                                         std::string("{%- elif '<function=' in m -%}")}) {
        CAPTURE(unwritten);
        std::string text;
        for (int i = 0; i < 1000; ++i) text += unwritten;
        const TemplateMatch m = toolgram::match_chat_template(text + qwen3_coder);
        CHECK(m.verdict == Verdict::matched);
        CHECK(m.profile == "qwen3_coder");
        // Alone, the same unwritten markers write nothing.
        CHECK(toolgram::match_chat_template(text).verdict == Verdict::unknown);
    }
    // {% raw %} still writes its tags as text, comments included.
    std::string raw = "{% raw %}";
    for (int i = 0; i < 300; ++i) raw += "{# <TOOLCALL> #}";
    CHECK(toolgram::match_chat_template(raw + "{% endraw %}").profile == "nemotron");
}

// Whether a template's generation prompt leaves reasoning open (llama.cpp's "thinking
// forced open"), read off the real templates: the opener, and the branch it is written in.
TEST_CASE("chat templates: whether the generation prompt opens reasoning", "[chat_template][reasoning]") {
    struct Row {
        std::string file;
        std::string opener;  // empty: the prompt leaves no reasoning open
        std::string block;   // the branch it is written in, the start of it
    };
    const std::vector<Row> rows = {
        // Always, or unless thinking is turned off.
        {"Qwen-QwQ-32B.jinja", "<think>", "{%- if add_generation_prompt %}"},
        {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", "<think>", "{%- if add_generation_prompt and not ns.is_tool -%}"},
        {"llama-cpp-deepseek-r1.jinja", "<think>", "{%- if add_generation_prompt and not ns.is_tool_outputs -%}"},
        {"stepfun-ai-Step-3.5-Flash.jinja", "<think>", "{%- if add_generation_prompt %}"},
        {"MiniMax-M2.jinja", "<think>", "{%- if add_generation_prompt -%}"},
        {"Qwen3.5-4B.jinja", "<think>", "{%- else %} of {%- if enable_thinking is defined and enable_thinking is false %}"},
        {"NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja", "<think>", "{%- if enable_thinking %}"},
        {"NVIDIA-Nemotron-Nano-v2.jinja", "<think>", "{%- else -%} of {%- if ns.enable_thinking is defined"},
        {"deepseek-ai-DeepSeek-V3.1.jinja", "<think>", "{%- else -%} of {%- if not thinking -%}"},
        // Through a variable: {%- set thinking_start_token = '<think>' -%}.
        {"deepseek-ai-DeepSeek-V3.2.jinja", "<think>", "{%- if thinking -%}"},
        // In a conditional expression: '</think>' if … else '<think>'.
        {"GLM-4.7-Flash.jinja", "<think>", "{%- if add_generation_prompt -%}"},
        {"Cohere2MoE.jinja", "<|START_THINKING|>", "{% if reasoning %}"},
        {"Bielik-11B-v3.0-Instruct.jinja", "<think>", "{%- if enable_thinking %}"},
        // Built in a `set`: ns.out ~ "assistant: <think>\n".
        {"Reka-Edge.jinja", "<think>", "{%- if enable_thinking is true -%}"},
        // Never: nothing, a closed block when thinking is off, or no generation prompt at all.
        {"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja", "", ""},
        {"Qwen-Qwen2.5-7B-Instruct.jinja", "", ""},
        {"Qwen-Qwen3-0.6B.jinja", "", ""},
        {"Qwen3-Coder.jinja", "", ""},
        {"GLM-4.6.jinja", "", ""},
        {"ByteDance-Seed-OSS.jinja", "", ""},
        {"Kimi-K2-Thinking.jinja", "", ""},
        {"gemma4.jinja", "", ""},
        {"HuggingFaceTB-SmolLM3-3B.jinja", "", ""},
        {"upstage-Solar-Open-100B.jinja", "", ""},
        {"openai-gpt-oss-120b.jinja", "", ""},
        {"mistralai-Ministral-3-14B-Reasoning-2512.jinja", "", ""},
        {"meta-llama-Llama-3.1-8B-Instruct.jinja", "", ""},
    };
    for (const auto& row : rows) {
        CAPTURE(row.file);
        const TemplateMatch m = toolgram::match_chat_template(slurp(templates_dir / row.file));
        if (row.opener.empty()) {
            CHECK_FALSE(m.reasoning_opened.has_value());
            continue;
        }
        REQUIRE(m.reasoning_opened.has_value());
        CHECK(m.reasoning_opened->marker == row.opener);
        CHECK(m.reasoning_opened->line > 0);
        CHECK_THAT(m.reasoning_opened->block, Catch::StartsWith(row.block));
    }
    // What counts: a write under the generation prompt's test, left open in that write.
    auto opened = [](const std::string& text) { return toolgram::match_chat_template(text).reasoning_opened; };
    CHECK(opened("{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n<think>\\n' }}{% endif %}"));
    CHECK_FALSE(opened("{% if add_generation_prompt %}{{ '<think>\\n\\n</think>\\n\\n' }}{% endif %}"));
    CHECK_FALSE(opened("{{ '<think>\\n' }}"));  // not the generation prompt (an earlier turn's)
    CHECK_FALSE(opened("{% if not add_generation_prompt %}<think>{% endif %}"));
    CHECK_FALSE(opened("{% if add_generation_prompt %}x{% else %}<think>{% endif %}"));
    CHECK_FALSE(opened("{% if add_generation_prompt %}{# <think> #}{% if '<think>' in c %}{% endif %}{% endif %}"));
    CHECK(opened("{% if add_generation_prompt %}x{% elif y %}z{% else %}w{% endif %}"
                 "{% if add_generation_prompt %}[THINK]{% endif %}"));
    const auto line = opened("a\n{% set t = '<seed:think>' %}\n{% if add_generation_prompt %}\n{{ t }}{% endif %}");
    REQUIRE(line);
    CHECK(line->marker == "<seed:think>");
    CHECK(line->line == 4);
}

// Each profile's reasoning_start default is what its family's templates do: no template
// here whose generation prompt opens reasoning names a profile that defaults to outside,
// and each profile that does was read off its family's templates, none of which opens it.
TEST_CASE("chat templates: a profile defaults to outside only where its family's templates never open reasoning",
          "[chat_template][reasoning]") {
    for (const auto& [file, want] : expected()) {
        CAPTURE(file);
        const TemplateMatch m = toolgram::match_chat_template(slurp(templates_dir / file));
        if (m.verdict != Verdict::matched || !m.reasoning_opened) continue;
        CHECK(toolgram::builtin_profile(m.profile).settings.reasoning_start != toolgram::ReasoningStart::outside);
    }
    const std::map<std::string, std::vector<std::string>> families = {
        {"seed_oss", {"ByteDance-Seed-OSS.jinja"}},
        {"kimi_k2", {"Kimi-K2-Instruct.jinja", "Kimi-K2-Thinking.jinja", "moonshotai-Kimi-K2.jinja"}},
        {"mistral",
         {"Mistral-Small-3.2-24B-Instruct-2506.jinja", "mistralai-Ministral-3-14B-Reasoning-2512.jinja",
          "mistralai-Mistral-Nemo-Instruct-2407.jinja", "unsloth-Magistral-Small-2509.jinja",
          "unsloth-mistral-Devstral-Small-2507.jinja"}},
        {"llama3_json", {"meta-llama-Llama-3.1-8B-Instruct.jinja", "meta-llama-Llama-3.2-3B-Instruct.jinja"}},
        {"granite", {"ibm-granite-granite-3.3-2B-Instruct.jinja", "llama-cpp-ibm-granite-granite-3.3-2B-Instruct.jinja"}},
        {"granite_20b_fc", {"vllm-tool_chat_template_granite_20b_fc.jinja"}},
        {"functionary_v31", {"meetkai-functionary-medium-v3.1.jinja"}},
        {"functionary_v32", {"meetkai-functionary-medium-v3.2.jinja"}},
        {"functools", {"fireworks-ai-llama-3-firefunction-v2.jinja", "microsoft-Phi-4-mini-instruct.jinja"}},
        {"harmony", {"openai-gpt-oss-120b.jinja"}},
        {"gemma4", {"gemma4.jinja", "google-gemma-4-31B-it.jinja", "google-gemma-4-31B-it-interleaved.jinja"}},
        {"functiongemma", {"google-functiongemma.jinja"}},
        {"gigachat", {"GigaChat3-10B-A1.8B.jinja", "GigaChat3.1-10B-A1.8B.jinja"}},
        // LFM2's templates (the pythonic profile's by their markers) serve its JSON mode too.
        {"lfm2_json", {"LFM2-8B-A1B.jinja", "LFM2.5-8B-A1B.jinja", "LFM2.5-Instruct.jinja", "llama-cpp-lfm2.jinja"}},
    };
    for (const auto& name : toolgram::builtin_profile_names()) {
        CAPTURE(name);
        const auto it = families.find(name);
        const bool outside = toolgram::builtin_profile(name).settings.reasoning_start == toolgram::ReasoningStart::outside;
        CHECK(outside == (it != families.end()));
        if (it == families.end()) continue;
        for (const auto& file : it->second) {
            CAPTURE(file);
            CHECK_FALSE(toolgram::match_chat_template(slurp(templates_dir / file)).reasoning_opened.has_value());
        }
    }
    // Where one of the family's templates opens it, the profile keeps guess.
    for (const char* name : {"hermes", "qwen3_coder", "deepseek_r1", "deepseek_v31", "deepseek_v32", "glm45", "minimax_m2",
                             "command_r", "nemotron", "auto"}) {
        CAPTURE(name);
        CHECK(toolgram::builtin_profile(name).settings.reasoning_start == toolgram::ReasoningStart::guess);
    }
}

TEST_CASE("chat templates: a tie between profiles is ambiguous, naming both", "[chat_template]") {
    const TemplateMatch m = toolgram::match_chat_template("{{ '<TOOLCALL>' }} or {{ '<|tools_prefix|>' }}");
    CHECK(m.verdict == Verdict::ambiguous);
    CHECK(m.profile.empty());
    REQUIRE(m.candidates.size() == 2);
    std::set<std::string> names{m.candidates[0].profile, m.candidates[1].profile};
    CHECK(names == std::set<std::string>{"nemotron", "apertus"});
    CHECK(m.explanation.find("nemotron") != std::string::npos);
    CHECK(m.explanation.find("apertus") != std::string::npos);
}

TEST_CASE("chat templates: unknown says why", "[chat_template]") {
    const TemplateMatch none = toolgram::match_chat_template("{{ bos_token }}{% for m in messages %}{{ m.content }}{% endfor %}");
    CHECK(none.verdict == Verdict::unknown);
    CHECK(!none.mentions_tools);
    CHECK(none.explanation == "it neither handles tools nor writes any tool-call marker: a template without tool use");
    const TemplateMatch tools = toolgram::match_chat_template("{% if tools %}{{ tools | tojson }}{% endif %}");
    CHECK(tools.verdict == Verdict::unknown);
    CHECK(tools.mentions_tools);
    // A marker of the table alone, short of any signature, is named.
    const TemplateMatch half = toolgram::match_chat_template("{{ '<tool_call>' }}");
    CHECK(half.verdict == Verdict::unknown);
    REQUIRE(half.seen.size() == 1);
    CHECK(half.seen[0].marker == "<tool_call>");
    CHECK(half.explanation == "it writes <tool_call>, but no family's signature fits");
}

TEST_CASE("chat templates: the file forms, and what is wrong with a bad one", "[chat_template][hostile]") {
    using toolgram::chat_template_from_file;
    auto error_of = [](const std::string& text, bool json_file) -> std::string {
        try {
            (void)chat_template_from_file(text, json_file);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "(no error)";
    };
    // A raw template, even one that begins with {{ or {%.
    CHECK(chat_template_from_file("{{ bos_token }}hi", false).from == "the file");
    CHECK(chat_template_from_file("{%- if tools %}{% endif %}", false).from == "the file");
    CHECK(chat_template_from_file("{#- a comment #}", false).from == "the file");
    // A string.
    const auto one = chat_template_from_file(R"({"bos_token": "<s>", "chat_template": "{{ '<TOOLCALL>' }}"})", false);
    CHECK(one.from == "chat_template");
    CHECK(one.text == "{{ '<TOOLCALL>' }}");
    // A list: tool_use first, then default, else the first.
    const auto listed = chat_template_from_file(
        R"({"chat_template": [{"name": "default", "template": "A"}, {"name": "tool_use", "template": "B"}, {"name": "rag", "template": "C"}]})",
        false);
    CHECK(listed.text == "B");
    CHECK(listed.from == "chat_template[\"tool_use\"]");
    CHECK(chat_template_from_file(R"({"chat_template": [{"name": "rag", "template": "C"}, {"name": "default", "template": "A"}]})", true)
              .text == "A");
    CHECK(chat_template_from_file(R"({"chat_template": [{"name": "rag", "template": "C"}]})", true).from ==
          "chat_template[\"rag\"]");

    // Exact outcomes for bad files.
    CHECK(error_of("", false) == "the file is empty: it holds no template");
    CHECK(error_of(" \n\t", false) == "the file is empty: it holds no template");
    CHECK_THAT(error_of("{\"chat_template\": ", false), Catch::StartsWith("not valid JSON: parse error at line 1, column 19"));
    CHECK_THAT(error_of("{{ bos_token }}", true), Catch::StartsWith("not valid JSON"));
    CHECK(error_of("[1, 2]", true) == "the JSON is not an object holding \"chat_template\" (it is array)");
    CHECK(error_of(R"({"bos_token": "<s>"})", false) == "the JSON object has no \"chat_template\"");
    CHECK(error_of(R"({"chat_template": 42})", false) ==
          "chat_template is a number, not a string nor a list of {\"name\", \"template\"}");
    CHECK(error_of(R"({"chat_template": null})", false) ==
          "chat_template is a null, not a string nor a list of {\"name\", \"template\"}");
    CHECK(error_of(R"({"chat_template": []})", false) == "chat_template is an empty list");
    CHECK(error_of(R"({"chat_template": ["x"]})", false) == "chat_template[0] is not a {\"name\", \"template\"} object");
    CHECK(error_of(R"({"chat_template": [{"name": "tool_use", "template": 7}]})", false) ==
          "chat_template[\"tool_use\"] is a number, not a string");
    CHECK(error_of(R"({"chat_template": "  "})", false) == "chat_template is empty");
    CHECK(error_of(R"({"chat_template": "a", "chat_template": "b"})", false) ==
          "chat_template: given twice in the same object at line 1, column 24");
    // 100,000 levels deep: refused while reading, on a small stack.
    const std::string deep = "{\"chat_template\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    CHECK(error_of(deep, false) == "nesting deeper than 256 levels at line 1, column 274");
}

TEST_CASE("chat templates: hostile texts are answered in linear time", "[chat_template][hostile]") {
    // Past the limit: not read, and said so.
    const std::string huge(toolgram::max_chat_template_bytes + 1, ' ');
    const TemplateMatch big = toolgram::match_chat_template(huge);
    CHECK(big.verdict == Verdict::unknown);
    CHECK(big.explanation == "the template is longer than 16777216 bytes, the most a chat template is read to; it was "
                             "not read");
    // 100,000 nested blocks, unclosed tags, markers cut short, a million marker starts.
    std::string nested;
    for (int i = 0; i < 100000; ++i) nested += "{% if tool_calls %}";
    nested += "<TOOLCALL>";
    for (int i = 0; i < 100000; ++i) nested += "{% endif %}";
    const TemplateMatch deep = toolgram::match_chat_template(nested);
    CHECK(deep.verdict == Verdict::matched);
    CHECK(deep.profile == "nemotron");
    CHECK(toolgram::match_chat_template("{% for tool_call in x").verdict == Verdict::unknown);
    CHECK(toolgram::match_chat_template("{# <TOOLCALL>").verdict == Verdict::unknown);
    std::string starts;
    for (int i = 0; i < 1000000; ++i) starts += "<tool_call";
    std::string tags;
    for (int i = 0; i < 1000000; ++i) tags += "{%{#";
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(toolgram::match_chat_template(starts).verdict == Verdict::unknown);
    CHECK(toolgram::match_chat_template(tags).verdict == Verdict::unknown);
    CHECK(toolgram::match_chat_template(std::string(8 << 20, '{')).verdict == Verdict::unknown);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(seconds < 30);  // generous for sanitizer builds: quadratic would take hours
}

}  // namespace chat_template_test
