// Hostile-input limits in every profile: hitting a limit rejects with the limit named in
// telemetry, never throws out of the API, and keeps the rest of the result (the other
// calls, the content). combinator_test.cpp pins each limit's wording on the tag format;
// this file runs the same situations through every profile that can write calls, so a
// new family is covered the moment its row exists.
//
// Each case writes a good call and an offending one in the profile's own syntax, one
// rendering each, with prose around them.
#include <algorithm>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace limits_test {

using toolgram::json;

namespace {

std::vector<toolgram::Tool> tools() {
    return toolgram::tools_from_json(json::parse(R"([
      {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
       "required": ["city"]}},
      {"name": "search_web", "parameters": {"type": "object", "properties": {"query": {}}, "required": ["query"]}},
      {"name": "store", "parameters": {"type": "object", "properties": {"record": {"type": "object"}}}}
    ])"));
}

const toolgram::Call good{"", "get_weather", {{"city", "Antwerp"}}};

// Profiles that render calls; json and generic hold one call or list as the whole output,
// so two renderings side by side are not their syntax.
std::vector<std::string> writing_profiles() {
    std::vector<std::string> out;
    for (const auto& n : toolgram::builtin_profile_names())
        if (n != "auto" && n != "text_kv" && n != "json" && n != "generic") out.push_back(n);
    return out;
}

std::string two_calls(const toolgram::Profile& p, const toolgram::Call& first, const toolgram::Call& second) {
    return "Checking.\n" + toolgram::render_calls(p, {first}) + "\n" + toolgram::render_calls(p, {second});
}

std::vector<std::string> reasons(const toolgram::Result& r) {
    std::vector<std::string> out;
    for (const auto& x : r.telemetry.rejected) out.push_back(x.reason);
    return out;
}

bool has_call(const toolgram::Result& r, const toolgram::Call& c) {
    return std::any_of(r.calls.begin(), r.calls.end(),
                       [&](const toolgram::Call& x) { return x.name == c.name && x.arguments == c.arguments; });
}

}  // namespace

TEST_CASE("limits in every profile: too deep is rejected with its reason, the other call kept", "[limits]") {
    const std::string name = GENERATE(from_range(writing_profiles()));
    toolgram::Profile p = toolgram::builtin_profile(name);
    p.settings.limits.max_depth = 8;
    json deep = "bottom";
    for (int i = 0; i < 20; ++i) deep = json{{"level", deep}};
    // Typed as an object, so the text-valued families read it as JSON too.
    const toolgram::Call deep_call{"", "store", {{"record", deep}}};
    const std::string text = two_calls(p, good, deep_call);
    const toolgram::Result r = toolgram::Parser(p, tools()).parse(text);
    DYNAMIC_SECTION(name) {
        INFO(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(has_call(r, good));
        CHECK(r.calls.size() == 1);
        const auto rs = reasons(r);
        CHECK(std::any_of(rs.begin(), rs.end(), [](const std::string& s) {
            return s.find("nesting deeper than the limit of 8 levels") != std::string::npos;
        }));
        CHECK(r.content.find("Checking.") == 0);
        CHECK_FALSE((r.error && r.error->message.rfind("internal error", 0) == 0));
    }
}

TEST_CASE("limits in every profile: a call over max_candidate_bytes is rejected, the other kept", "[limits]") {
    const std::string name = GENERATE(from_range(writing_profiles()));
    toolgram::Profile p = toolgram::builtin_profile(name);
    p.settings.limits.max_candidate_bytes = 400;
    const toolgram::Call big{"", "search_web", {{"query", std::string(1000, 'x')}}};
    const std::string text = two_calls(p, good, big);
    const toolgram::Result r = toolgram::Parser(p, tools()).parse(text);
    DYNAMIC_SECTION(name) {
        INFO(text.substr(0, 600));
        INFO(toolgram::to_json(r).dump(2).substr(0, 4000));
        CHECK(has_call(r, good));
        CHECK(r.calls.size() == 1);
        const auto rs = reasons(r);
        REQUIRE(rs.size() == 1);
        CHECK(rs[0].find("bytes exceeds the limit of 400") != std::string::npos);
        CHECK(r.content.find("Checking.") == 0);
        CHECK(r.content.find(std::string(1000, 'x')) == std::string::npos);  // rejected syntax is not content
    }
}

TEST_CASE("limits in every profile: past max_candidates one rejection counts the rest, calls before are kept",
          "[limits]") {
    const std::string name = GENERATE(from_range(writing_profiles()));
    toolgram::Profile p = toolgram::builtin_profile(name);
    p.settings.limits.max_candidates = 1;
    const toolgram::Call second{"", "search_web", {{"query", "tides"}}};
    const std::string text = two_calls(p, good, second);
    const toolgram::Result r = toolgram::Parser(p, tools()).parse(text);
    DYNAMIC_SECTION(name) {
        INFO(text);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(has_call(r, good));
        CHECK(r.calls.size() == 1);
        CHECK(reasons(r) == std::vector<std::string>{"candidate limit of 1 reached: 1 more candidates not judged"});
        CHECK(r.telemetry.candidate_count == 2);
        CHECK(r.content == "Checking.");
    }
}

TEST_CASE("limits in every profile: past max_input_bytes the rest is content, calls before are kept", "[limits]") {
    const std::string name = GENERATE(from_range(writing_profiles()));
    toolgram::Profile p = toolgram::builtin_profile(name);
    const toolgram::Call late{"", "search_web", {{"query", "tides"}}};
    const std::string head = "Checking.\n" + toolgram::render_calls(p, {good}) + "\n";
    const std::string tail = toolgram::render_calls(p, {late});
    p.settings.limits.max_input_bytes = head.size();  // the second call starts at the limit
    const toolgram::Result r = toolgram::Parser(p, tools()).parse(head + tail);
    DYNAMIC_SECTION(name) {
        INFO(head + tail);
        INFO(toolgram::to_json(r).dump(2));
        CHECK(has_call(r, good));
        CHECK(r.calls.size() == 1);
        CHECK(reasons(r) == std::vector<std::string>{"input of " + std::to_string(head.size() + tail.size()) +
                                                    " bytes exceeds the limit of " + std::to_string(head.size()) +
                                                    "; the rest was not scanned for calls"});
        CHECK(r.content.find("Checking.") == 0);
        CHECK(r.content.find("tides") != std::string::npos);  // unscanned text is content
    }
}

// Found by fuzzing (fuzz_grammar_bracket, _harmony, _apertus, _minicpm5, _deepseek_v31 with
// tight limits): a reasoning opener cut by max_input_bytes opened a region whose inside
// began past its end, and building its text threw out of parse(). A delimiter counts only
// whole before the limit; the stream agrees at every chunking tried.
TEST_CASE("limits in every profile: a reasoning opener cut by max_input_bytes is content", "[limits]") {
    const std::string name = GENERATE(from_range(toolgram::builtin_profile_names()));
    const toolgram::Profile base = toolgram::builtin_profile(name);
    for (const auto& d : base.settings.reasoning) {
        if (d.open.size() < 2) continue;
        const std::string head = "Before.\n";
        const std::string text = head + d.open + "inside" + d.close + " after";
        for (std::size_t cut = 1; cut < d.open.size(); ++cut) {
            // Catch runs the test case again for each section: the parse goes inside it, so
            // each cut is parsed once, not once per section of the profile.
            DYNAMIC_SECTION(name << " " << d.open << " cut after " << cut << " bytes") {
                toolgram::Profile p = base;
                p.settings.limits.max_input_bytes = head.size() + cut;
                const toolgram::Parser parser(p, tools());
                const toolgram::Result r = parser.parse(text);
                INFO(toolgram::to_json(r).dump(2));
                CHECK(r.calls.empty());
                CHECK(r.reasoning.empty());
                // All of it is content, the opener whole: no part of it was taken as a delimiter.
                CHECK(r.content == text);
                CHECK_FALSE((r.error && r.error->message.rfind("internal error", 0) == 0));
                for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, text.size()}) {
                    toolgram::StreamParser sp(parser);
                    for (std::size_t at = 0; at < text.size(); at += chunk)
                        static_cast<void>(sp.feed(std::string_view(text).substr(at, chunk)));
                    CHECK(toolgram::to_json(sp.finish().result) == toolgram::to_json(r));
                }
            }
        }
    }
}

}  // namespace limits_test
