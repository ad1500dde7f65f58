// The serving engines' parser names (src/profiles/profile_aliases.cpp): each resolves to the profile
// that reads its syntax, never to two different ones; every name the engines register has one.
#include <map>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include <toolgram/toolgram.hpp>

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace profile_aliases_test {

using toolgram::builtin_profile;
using toolgram::profile_aliases;

TEST_CASE("engine parser names resolve to the profile reading their syntax", "[profiles][aliases]") {
    const auto names = toolgram::builtin_profile_names();
    const std::set<std::string> profiles(names.begin(), names.end());
    std::set<std::pair<std::string, std::string>> seen;
    std::map<std::string, std::string> profile_of_name;
    for (const auto& a : profile_aliases()) {
        CAPTURE(a.engine, a.name);
        CHECK(seen.insert({a.engine, a.name}).second);  // a name once per engine
        CHECK(!a.models.empty());
        // The same name in two engines must mean one profile, or --profile NAME would guess.
        const auto [it, fresh] = profile_of_name.emplace(a.name, a.profile);
        CHECK((fresh || it->second == a.profile));
        // Every syntax the engines register is read (issue 15): no row waits for a profile.
        CHECK(!a.profile.empty());
        if (a.profile.empty()) continue;
        REQUIRE(profiles.count(a.profile) == 1);
        // A name that is a profile's own is that profile.
        if (profiles.count(a.name)) CHECK(a.profile == a.name);
        CHECK(builtin_profile(a.name).name == a.profile);
    }
}

TEST_CASE("engine parser names users type most", "[profiles][aliases]") {
    const std::map<std::string, std::string> expected = {
        {"qwen3_xml", "qwen3_coder"}, {"deepseekv31", "deepseek_v31"}, {"deepseek_v3", "deepseek_r1"},
        {"openai", "harmony"},        {"gpt-oss", "harmony"},         {"llama3", "llama3_json"},
        {"qwen25", "hermes"},         {"glm47", "glm45"},             {"minimax-m2", "minimax_m2"},
        {"Hermes 2 Pro", "hermes"},   {"cohere_command4", "command_r"},
        {"gigachat3", "gigachat"},       {"gigachat35", "gigachat35"},
        {"hy_v3", "hy_v3"},
        {"hy_v4", "hy_v3"},           {"hunyuan", "hy_v3"},           {"hunyuan_a13b", "jamba"},
        {"minimax", "jamba"},         {"lfm2", "pythonic"},           {"LFM2 with JSON tools", "lfm2_json"},
        {"k2_v3", "k2_horizon"},      {"iquest_q1", "iquest_q1"},     {"dots", "dots"},
        {"kimi_k3", "kimi_k3"},       {"inkling", "inkling"},         {"minimax_m3", "minimax_m3"},
        {"minimax-m3", "minimax_m3"}, {"muse_glimmer", "muse_glimmer"}, {"muse", "muse_glimmer"}};
    for (const auto& [name, profile] : expected) {
        CAPTURE(name);
        CHECK(builtin_profile(name).name == profile);
    }
    // Resolved, it parses as its profile does.
    const toolgram::Parser parser(builtin_profile("qwen3_xml"));
    const auto r = parser.parse("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
                                "</function>\n</tool_call>");
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].name == "get_weather");
    CHECK(r.calls[0].arguments == toolgram::json{{"city", "Paris"}});
}

// Names issue 28 found unresolved, each mapped to the profile reading the syntax its engine's
// parser reads: SGLang's `nanbeige` (Nanbeige 4's <tool_call>{JSON}</tool_call>), llama.cpp's
// chat formats "Solar Open", "EXAONE MoE" (K-EXAONE's <tool_call>{JSON}</tool_call>) and
// "peg-gemma4" (Gemma 4's PEG parser), and the smg gateway's tool_parser registry names.
TEST_CASE("the names SGLang, llama.cpp and the smg gateway gave late resolve", "[profiles][aliases]") {
    const std::map<std::string, std::string> expected = {
        {"nanbeige", "hermes"},        {"Solar Open", "solar_open"},     {"EXAONE MoE", "hermes"},
        {"peg-gemma4", "gemma4"},      {"qwen_xml", "qwen3_coder"},      {"qwen_coder", "qwen3_coder"},
        {"llama", "llama3_json"},      {"deepseek", "deepseek_r1"},      {"deepseek31", "deepseek_v31"},
        {"glm45_moe", "glm45"},        {"glm47_moe", "glm45"},           {"kimik2", "kimi_k2"},
        {"cohere", "command_r"}};
    for (const auto& [name, profile] : expected) {
        CAPTURE(name);
        CHECK(builtin_profile(name).name == profile);
    }
    // Under the gateway's name, Kimi K2's section is read as kimi_k2 reads it.
    const toolgram::Parser parser(builtin_profile("kimik2"));
    const auto r = parser.parse("<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
                                "<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>");
    REQUIRE(r.calls.size() == 1);
    CHECK(r.calls[0].name == "get_weather");
    CHECK(r.calls[0].arguments == toolgram::json{{"city", "Paris"}});
}

TEST_CASE("a profile name nobody registers is refused, listing the profiles", "[profiles][aliases]") {
    try {
        (void)builtin_profile("no_such_parser");
        FAIL("no_such_parser resolved");
    } catch (const std::invalid_argument& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("unknown profile \"no_such_parser\" (known: auto, "));
    }
}

}  // namespace profile_aliases_test
