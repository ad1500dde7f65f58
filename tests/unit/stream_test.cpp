// Streaming: the stream parser against the one-shot parse.
//
// The property: for every corpus case, under its own profile and under every other, and
// for many ways of cutting it into chunks (every byte alone, fixed and random sizes, and a
// single cut at each byte of every marker and multi-byte character), streaming gives the
// one-shot result, and its deltas concatenate to that result's content, reasoning and
// arguments. Held-back text and the events' order are tested by hand below.
#include <random>

#include <catch2/catch.hpp>

#include "corpus_cases.hpp"
#include "stream_agreement.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace stream_test {

using namespace toolgram_test;
using toolgram::Parser;
using toolgram::StreamEvent;
using toolgram::StreamParser;

namespace {

using Kind = StreamEvent::Kind;

// Calls the stream withdrew because the call as finally read differs from what it had
// sent (stream.cpp's end_accepted), and sent again.
std::size_t withdrawals(const std::vector<StreamEvent>& events) {
    return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [](const StreamEvent& e) {
        return e.kind == Kind::call_end && e.rejection_code == toolgram::RejectionCode::changed;
    }));
}

std::vector<std::vector<std::size_t>> chunkings(std::string_view text, const std::vector<std::string>& markers,
                                                std::uint32_t seed) {
    std::vector<std::vector<std::size_t>> out;
    out.push_back({});  // whole
    std::vector<std::size_t> every;
    for (std::size_t i = 1; i < text.size(); ++i) every.push_back(i);
    out.push_back(every);
    for (std::size_t step : {2u, 3u, 7u, 16u}) {
        std::vector<std::size_t> c;
        for (std::size_t i = step; i < text.size(); i += step) c.push_back(i);
        out.push_back(c);
    }
    std::mt19937 rng(seed);
    for (int k = 0; k < 3; ++k) {
        std::vector<std::size_t> c;
        for (std::size_t i = 1 + rng() % 9; i < text.size(); i += 1 + rng() % 9) c.push_back(i);
        out.push_back(c);
    }
    // One cut inside each marker occurrence and each multi-byte character.
    std::vector<bool> inside(text.size() + 1, false);
    for (const auto& m : markers) {
        if (m.size() < 2) continue;
        for (std::size_t at = text.find(m); at != std::string_view::npos; at = text.find(m, at + 1))
            for (std::size_t i = at + 1; i < at + m.size(); ++i) inside[i] = true;
    }
    for (std::size_t i = 1; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) inside[i] = true;
    for (std::size_t i = 1; i < text.size(); ++i)
        if (inside[i]) out.push_back({i});
    return out;
}

std::vector<std::string> all_markers(const toolgram::Profile& p) {
    std::vector<std::string> out;
    for (const auto& d : p.settings.reasoning) out.insert(out.end(), {d.open, d.close});
    for (const auto& m : p.settings.content_markers) out.push_back(m);
    for (const char* m : {"<tool_call>", "</tool_call>", "[TOOL_CALLS]", "[ARGS]", "<|tool_call_begin|>", "<｜tool▁call▁begin｜>",
                          "<function=", "<parameter=", "</parameter>", "```", "<|python_tag|>", "<|channel|>"})
        out.push_back(m);
    return out;
}

}  // namespace

TEST_CASE("stream = one-shot on every corpus case, under its own profile, for every chunking", "[stream][corpus]") {
    std::size_t runs = 0;
    for (const auto& c : all_cases()) {
        const json spec = json::parse(slurp(c.expect));
        const toolgram::Profile profile = profile_for(spec, c.text.parent_path());
        const Parser parser = parser_with(profile, tools_for(spec));
        const std::string text = slurp(c.text);
        const toolgram::Result want = parser.parse(text);
        std::uint32_t seed = 1;
        for (const auto& cuts : chunkings(text, all_markers(profile), seed++)) {
            const Streamed streamed = stream(parser, text, cuts);
            std::string why = disagreement(streamed, want);
            // Under its own profile, what a stream sends early is never taken back: a call
            // announced is the call read at the end, or refused there.
            if (why.empty() && withdrawals(streamed.events) > 0) why = "a call was withdrawn and sent again";
            if (!why.empty()) {
                std::string cut_text;
                for (auto k : cuts) cut_text += std::to_string(k) + " ";
                FAIL_CHECK(c.text.parent_path().filename().string() << "/" << c.text.stem().string() << " ["
                                                                   << profile.name << "] cuts " << cut_text.substr(0, 200)
                                                                   << ": " << why);
                break;
            }
            ++runs;
        }
    }
    WARN("stream runs: " << runs);
    CHECK(runs > 1000);
}

// Other profiles' outputs are hostile input for a profile: mentions, half syntax, markers
// of other families. Fewer chunkings here: whole, one random, and a cut inside each marker
// and multi-byte character; every byte once per profile (under guess). The profiles are split in two halves, two tests
// (the longest of the suite), so that ctest runs them side by side.
static void stream_every_case_under_profiles(std::size_t half) {
    const auto cases = all_cases();
    static std::size_t runs = 0;  // Catch enters the test once per section: count across them
    const auto names = toolgram::builtin_profile_names();
    for (std::size_t i = half; i < names.size(); i += 2) {
        const std::string& name = names[i];
        DYNAMIC_SECTION(name) {
            for (const char* start : {"guess", "outside"}) {
                toolgram::Profile profile = toolgram::builtin_profile(name);
                profile.settings.reasoning_start =
                    std::string(start) == "guess" ? toolgram::ReasoningStart::guess : toolgram::ReasoningStart::outside;
                const Parser parser = parser_with(profile, tools_for(json::object()));
                for (const auto& c : cases) {
                    const std::string text = slurp(c.text);
                    const toolgram::Result want = parser.parse(text);
                    auto all = chunkings(text, all_markers(profile), 7);
                    // Every byte a chunk (the costliest) once per profile, under guess:
                    // outside differs only in where content may start going out.
                    std::vector<std::vector<std::size_t>> some{all[0], all[6]};
                    if (std::string(start) == "guess") some.push_back(all[1]);
                    some.insert(some.end(), all.begin() + 9, all.end());
                    for (const auto& cuts : some) {
                        ++runs;
                        const std::string why = disagreement(stream(parser, text, cuts), want);
                        if (!why.empty()) {
                            std::string cut_text;
                            for (auto k : cuts) cut_text += std::to_string(k) + " ";
                            FAIL_CHECK(c.text.parent_path().filename().string()
                                       << "/" << c.text.stem().string() << " [" << name << ", " << start << "] cuts "
                                       << cut_text.substr(0, 200) << ": " << why);
                            break;
                        }
                    }
                }
            }
        }
    }
    WARN("streams compared: " << runs);
}

TEST_CASE("stream = one-shot on every corpus case under every profile: the first half", "[stream][corpus][profiles]") {
    stream_every_case_under_profiles(0);
}

TEST_CASE("stream = one-shot on every corpus case under every profile: the second half", "[stream][corpus][profiles]") {
    stream_every_case_under_profiles(1);
}

TEST_CASE("stream = one-shot with reasoning kept in content, on every corpus case, each way the output may start",
          "[stream][corpus][reasoning]") {
    // ReasoningFormat::in_content sends reasoning as content: the framing tokens inside a
    // block stay, those outside go, and a block a call may still end (reasoning_ends_at_call)
    // holds its text. Under the case's own profile and under auto.
    std::size_t runs = 0;
    for (const auto& c : all_cases()) {
        const json spec = json::parse(slurp(c.expect));
        const std::string text = slurp(c.text);
        for (const bool own : {true, false}) {
            for (const auto start : {toolgram::ReasoningStart::guess, toolgram::ReasoningStart::inside,
                                     toolgram::ReasoningStart::outside}) {
                toolgram::Profile profile = own ? profile_for(spec, c.text.parent_path()) : toolgram::builtin_profile("auto");
                if (!own) apply_case_settings(profile, spec);
                profile.settings.reasoning_format = toolgram::ReasoningFormat::in_content;
                profile.settings.reasoning_start = start;
                const Parser parser = parser_with(profile, tools_for(spec));
                const toolgram::Result want = parser.parse(text);
                if (!want.reasoning.empty()) FAIL_CHECK(c.text.stem().string() << ": reasoning kept in content, yet reasoning");
                auto all = chunkings(text, all_markers(profile), 11);
                std::vector<std::vector<std::size_t>> some{all[0], all[1], all[3], all[6]};
                some.insert(some.end(), all.begin() + 9, all.end());
                for (const auto& cuts : some) {
                    ++runs;
                    const std::string why = disagreement(stream(parser, text, cuts), want);
                    if (!why.empty()) {
                        std::string cut_text;
                        for (auto k : cuts) cut_text += std::to_string(k) + " ";
                        FAIL_CHECK(c.text.parent_path().filename().string()
                                   << "/" << c.text.stem().string() << " [" << profile.name << ", start "
                                   << static_cast<int>(start) << "] cuts " << cut_text.substr(0, 200) << ": " << why);
                        break;
                    }
                }
            }
        }
    }
    WARN("streams compared with reasoning in content: " << runs);
    CHECK(runs > 1000);
}

TEST_CASE("stream = one-shot under the shipped profile files, on the corpora of the families they reproduce",
          "[stream][corpus][profile-file]") {
    // The run-time grammar reads its markers from the file: the cuts inside markers come
    // from the file's syntax too (every spelling of every token).
    std::size_t runs = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(TOOLGRAM_SOURCE_DIR) / "docs" / "profiles")) {
        const std::string family = entry.path().stem().string();
        const toolgram::Profile file_profile = toolgram::load_profile_file(entry.path().string());
        std::vector<std::string> markers = all_markers(file_profile);
        const toolgram::DeclaredSyntax& d = *file_profile.settings.declared_syntax;
        for (const auto* list : {&d.call.open, &d.call.close, &d.arguments.parameter.open, &d.arguments.parameter.close,
                                 &d.arguments.parameter.key_end, &d.arguments.parameter.value_open})
            markers.insert(markers.end(), list->begin(), list->end());
        if (d.section) {
            markers.insert(markers.end(), d.section->open.begin(), d.section->open.end());
            markers.insert(markers.end(), d.section->close.begin(), d.section->close.end());
        }
        if (d.header) markers.insert(markers.end(), d.header->end.begin(), d.header->end.end());
        std::size_t cases = 0;
        for (const auto& c : all_cases()) {
            if (c.text.parent_path().filename() != family) continue;
            ++cases;
            const json spec = json::parse(slurp(c.expect));
            toolgram::Profile profile = file_profile;
            apply_case_settings(profile, spec);
            const Parser parser = parser_with(profile, tools_for(spec));
            const std::string text = slurp(c.text);
            const toolgram::Result want = parser.parse(text);
            std::uint32_t seed = 1;
            for (const auto& cuts : chunkings(text, markers, seed++)) {
                const std::string why = disagreement(stream(parser, text, cuts), want);
                if (!why.empty()) {
                    std::string cut_text;
                    for (auto k : cuts) cut_text += std::to_string(k) + " ";
                    FAIL_CHECK(family << "/" << c.text.stem().string() << " [file " << entry.path().filename().string()
                                      << "] cuts " << cut_text.substr(0, 200) << ": " << why);
                    break;
                }
                ++runs;
            }
        }
        CAPTURE(family);
        CHECK(cases > 0);
    }
    WARN("streams compared under profile files: " << runs);
    CHECK(runs > 1000);
}

// ---------------------------------------------------------------------------------------
// Held-back text, calls as they form, rejection after deltas, cancellation, reasoning.

namespace {

toolgram::Profile profile_outside(const std::string& name) {
    toolgram::Profile p = toolgram::builtin_profile(name);
    p.settings.reasoning_start = toolgram::ReasoningStart::outside;
    return p;
}

std::vector<toolgram::Tool> corpus_tools() { return *tools_for(json::object()); }

// Feeds `text` a byte at a time; returns the events sent before finish().
std::vector<StreamEvent> feed_bytes(StreamParser& sp, std::string_view text) {
    std::vector<StreamEvent> out;
    for (char ch : text)
        for (auto& e : sp.feed(std::string_view(&ch, 1))) out.push_back(std::move(e));
    return out;
}

std::string joined(const std::vector<StreamEvent>& events, Kind kind) {
    std::string out;
    for (const auto& e : events)
        if (e.kind == kind) out += e.text;
    return out;
}

std::size_t count(const std::vector<StreamEvent>& events, Kind kind) {
    return static_cast<std::size_t>(
        std::count_if(events.begin(), events.end(), [&](const StreamEvent& e) { return e.kind == kind; }));
}

}  // namespace

TEST_CASE("stream: a marker mentioned in prose is released as content before the end", "[stream]") {
    const std::string text = "You can write <tool_call> tags to wrap a call, or <tool_call alone, and then keep "
                             "writing plain prose for a while longer.";
    for (const char* name : {"hermes", "qwen3_coder", "auto"}) {
        CAPTURE(name);
        const Parser parser(profile_outside(name), corpus_tools());
        StreamParser sp(parser);
        const std::string early = joined(feed_bytes(sp, text), Kind::content);
        // Everything but the last word is out before the stream ends; the mention with it.
        CHECK(early.rfind("You can write <tool_call> tags to wrap a call, or <tool_call alone, and then keep", 0) == 0);
        const auto fin = sp.finish();
        CHECK(early + joined(fin.events, Kind::content) == text);
        CHECK(fin.result.calls.empty());
    }
}

TEST_CASE("stream: a marker cut by a chunk boundary is never sent in part", "[stream]") {
    const Parser parser(profile_outside("hermes"), corpus_tools());
    StreamParser sp(parser);
    std::string content = joined(sp.feed("Let me look that up.\n<tool_"), Kind::content);
    CHECK(content == "Let me look that up.");
    content += joined(sp.feed("call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_"), Kind::content);
    content += joined(sp.feed("call>\nDone."), Kind::content);
    const auto fin = sp.finish();
    content += joined(fin.events, Kind::content);
    CHECK(content == "Let me look that up.\nDone.");
    CHECK(content.find('<') == std::string::npos);
    REQUIRE(fin.result.calls.size() == 1);
}

TEST_CASE("stream: a JSON call begins and sends its arguments before its closer arrives", "[stream]") {
    const std::string head = "<tool_call>\n{\"name\": \"send_email\", \"arguments\": {\"to\": [\"ana@example.com\"], "
                             "\"subject\": \"Quarterly numbers\", \"body\": \"Hi Ana, the figures are attached; the "
                             "summary is in the first tab.\", \"cc\": \"bo@example.com\"}}";
    const Parser parser(profile_outside("hermes"), corpus_tools());
    StreamParser sp(parser);
    const auto before_closer = feed_bytes(sp, head);
    REQUIRE(count(before_closer, Kind::call_begin) == 1);
    CHECK(before_closer.front().kind == Kind::call_begin);
    CHECK(before_closer.front().name == "send_email");
    CHECK(before_closer.front().id == "call_0");
    // Members go out once the next one has begun (reads are spaced by a quarter of the
    // block's length, so the latest may lag); no call_end yet.
    const std::string args = joined(before_closer, Kind::call_arguments);
    CHECK(args.rfind(R"({"to":["ana@example.com"],"subject":"Quarterly numbers")", 0) == 0);
    CHECK(count(before_closer, Kind::call_end) == 0);
    auto rest = feed_bytes(sp, "\n</tool_call>");
    for (auto& e : sp.finish().events) rest.push_back(std::move(e));
    REQUIRE(count(rest, Kind::call_end) == 1);
    const StreamEvent& end = rest.back().kind == Kind::call_end ? rest.back() : *std::find_if(rest.begin(), rest.end(), [](const StreamEvent& e) { return e.kind == Kind::call_end; });
    REQUIRE(end.call);
    CHECK(args + joined(rest, Kind::call_arguments) ==
          R"({"to":["ana@example.com"],"subject":"Quarterly numbers","body":"Hi Ana, the figures are attached; the summary is in the first tab.","cc":"bo@example.com"})");
}

TEST_CASE("stream: XML-style parameters stream typed, before the call closes", "[stream]") {
    const std::string head = "<tool_call>\n<function=search_web>\n<parameter=query>\nbest ramen in Sapporo\n</parameter>\n"
                             "<parameter=max_results>\n5\n</parameter>\n<parameter=safe>\ntrue\n</parameter>\n";
    // (Only declared parameters: one search_web does not declare, after a closer, leaves
    // where the value before it ends in doubt, and the call is refused; param_value_test.cpp.)
    const Parser parser(profile_outside("qwen3_coder"), corpus_tools());
    StreamParser sp(parser);
    const auto early = feed_bytes(sp, head);
    REQUIRE(count(early, Kind::call_begin) == 1);
    // The integer is typed from the schema already in the delta.
    CHECK(joined(early, Kind::call_arguments).rfind(R"({"query":"best ramen in Sapporo")", 0) == 0);
    auto rest = feed_bytes(sp, "</function>\n</tool_call>");
    for (auto& e : sp.finish().events) rest.push_back(std::move(e));
    const std::string all = joined(early, Kind::call_arguments) + joined(rest, Kind::call_arguments);
    CHECK(all == R"({"query":"best ramen in Sapporo","max_results":5,"safe":true})");
}

TEST_CASE("stream: a call followed by prose ends when it is complete, not when the stream ends", "[stream]") {
    // Every family that writes calls, a call then prose, a byte at a time. The call's end
    // comes while the prose is still arriving: at its closer where the grammar awaits one
    // by name, otherwise within the re-read policy's bound (the block grown by a quarter,
    // plus the few bytes a grammar looks past its call). The XML-parameter families once
    // held it to the end of the stream: their values await either terminator, and the one
    // that never came kept every read of the call provisional.
    //
    // Except where the call's closer ends the block (glm45, hyperclovax_seed_think, GLM's
    // syntax with JSON values, minicpm5, and the shipped profile files iquest_q1,
    // iquest_coder_v2 and telechat4, GLM's body in other tags: no wrapper closer follows it): a value's closer and the call's
    // closer followed by text may be a value holding that pair (a file holding the syntax's
    // tags, issue 14), which a later closer would show, so the one-shot parse decides with
    // the rest of the output and the stream can end the call only when a next call, or the
    // end, arrives (the next test).
    const toolgram::Call call{"", "get_weather", {{"city", "Paris"}, {"unit", "celsius"}, {"days", 3}}};
    for (const auto& name : toolgram::builtin_profile_names()) {
        if (name == "auto" || name == "json" || name == "text_kv") continue;  // no syntax of their own to write
        if (name == "generic") continue;  // the whole output is the object: prose after it is not its syntax
        if (name == "glm45" || name == "hyperclovax_seed_think" || name == "minicpm5" || name == "iquest_q1" ||
            name == "iquest_coder_v2" || name == "telechat4")
            continue;
        const toolgram::Profile p = profile_outside(name);
        const std::string head = "Let me check the weather for you.\n";
        const std::string written = toolgram::render_calls(p, {call});
        const std::string text = head + written + "\nDone, and here is some more prose that follows the call for a while, "
                                                  "long enough for any grammar to see that the call is over.";
        const Parser parser(p, corpus_tools());
        StreamParser sp(parser);
        std::size_t ended_at = 0;
        for (std::size_t i = 0; i < text.size() && ended_at == 0; ++i)
            for (const auto& e : sp.feed(std::string_view(text).substr(i, 1)))
                if (e.kind == Kind::call_end) ended_at = i + 1;
        const std::size_t complete_at = head.size() + written.size();
        CAPTURE(name, written, complete_at, ended_at);
        CHECK(ended_at >= complete_at - 1);  // a closer's last byte may be implied
        CHECK(ended_at > 0);                 // before finish
        CHECK(ended_at <= complete_at + written.size() / 4 + 32);
        if (name == "hermes" || name == "tag" || name == "minimax_m2" || name == "step3")
            CHECK(ended_at <= complete_at + 1);  // at the closer itself
    }
}

TEST_CASE("stream: where the call's closer ends the block, a call ends once the next call begins", "[stream]") {
    // glm45 (and hyperclovax_seed_think), minicpm5, iquest_q1, iquest_coder_v2 and telechat4
    // write no wrapper closer after a call: after a value's closer and the call's closer, the next call's opener (or
    // the end of output) shows the call is over; prose there leaves it open to a later
    // closer (issue 14), so it waits.
    const toolgram::Call call{"", "get_weather", {{"city", "Paris"}, {"unit", "celsius"}, {"days", 3}}};
    for (const std::string name :
         {"glm45", "hyperclovax_seed_think", "minicpm5", "iquest_q1", "iquest_coder_v2", "telechat4"}) {
        const toolgram::Profile p = profile_outside(name);
        const std::string head = "Let me check the weather for you.\n";
        const std::string written = toolgram::render_calls(p, {call});
        const std::string text = head + written + "\n" + written + "\nDone, and some prose after the calls.";
        const Parser parser(p, corpus_tools());
        StreamParser sp(parser);
        std::size_t ended_at = 0;
        for (std::size_t i = 0; i < text.size() && ended_at == 0; ++i)
            for (const auto& e : sp.feed(std::string_view(text).substr(i, 1)))
                if (e.kind == Kind::call_end) ended_at = i + 1;
        const std::size_t complete_at = head.size() + written.size();
        CAPTURE(name, written, complete_at, ended_at);
        // Once the next opener stands, within the re-read policy's bound (the block grown by
        // a quarter): the reads its bytes bring on early are spent on the closers before it.
        CHECK(ended_at >= complete_at + 1 + written.find_first_of(" >\n"));
        CHECK(ended_at <= complete_at + written.size() / 4 + 32);
        static_cast<void>(sp.feed(std::string_view(text).substr(ended_at)));
        CHECK(sp.finish().result.calls.size() == 2);
    }
}

// A long string argument (a file, a script) goes out as the model writes it: each piece
// once it is decided (a whole escape, a whole character), written as the call's JSON
// writes it, not once the call is complete.
TEST_CASE("stream: a string argument goes out as the model writes it, each escape once whole", "[stream]") {
    const std::string head = "<tool_call>\n{\"name\": \"send_email\", \"arguments\": {\"to\": [\"ana@example.com\"], "
                             "\"subject\": \"Draft\", \"body\": \"";
    const std::string body = R"(Line one\nSays \"hi\" \\ back\u00e9 café \ud83d\ude00 \/end)";
    const std::string tail = "\"}}\n</tool_call>";
    const std::string sent_head = R"({"to":["ana@example.com"],"subject":"Draft","body":")";
    const Parser parser(profile_outside("hermes"), corpus_tools());
    // Raw bytes of the body written so far -> the body as sent so far.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", ""},
        {"Line one", "Line one"},
        {R"(Line one\)", "Line one"},  // an escape's backslash alone: wait
        {R"(Line one\n)", R"(Line one\n)"},
        {R"(Line one\nSays \")", R"(Line one\nSays \")"},
        {R"(Line one\nSays \"hi\" \\)", R"(Line one\nSays \"hi\" \\)"},
        {R"(Line one\nSays \"hi\" \\ back\u00)", R"(Line one\nSays \"hi\" \\ back)"},
        {R"(Line one\nSays \"hi\" \\ back\u00e9)", R"(Line one\nSays \"hi\" \\ backé)"},
        {"Line one\\nSays \\\"hi\\\" \\\\ back\\u00e9 caf\xC3", R"(Line one\nSays \"hi\" \\ backé caf)"},  // é cut
        {R"(Line one\nSays \"hi\" \\ back\u00e9 café \ud83d)", R"(Line one\nSays \"hi\" \\ backé café )"},
        {R"(Line one\nSays \"hi\" \\ back\u00e9 café \ud83d\ude0)", R"(Line one\nSays \"hi\" \\ backé café )"},
        {R"(Line one\nSays \"hi\" \\ back\u00e9 café \ud83d\ude00)", R"(Line one\nSays \"hi\" \\ backé café 😀)"},
        {R"(Line one\nSays \"hi\" \\ back\u00e9 café \ud83d\ude00 \/end)", R"(Line one\nSays \"hi\" \\ backé café 😀 /end)"},
    };
    for (const auto& [written, sent] : cases) {
        CAPTURE(written);
        StreamParser sp(parser);
        const auto early = feed_bytes(sp, head + written);
        CHECK(count(early, Kind::call_begin) == 1);
        CHECK(count(early, Kind::call_end) == 0);
        CHECK(joined(early, Kind::call_arguments) == sent_head + sent);
    }
    // Whole, a byte at a time: one call, never withdrawn, its deltas the call's arguments.
    StreamParser sp(parser);
    auto events = feed_bytes(sp, head + body + tail);
    auto fin = sp.finish();
    for (auto& e : fin.events) events.push_back(std::move(e));
    REQUIRE(fin.result.calls.size() == 1);
    CHECK(count(events, Kind::call_begin) == 1);
    CHECK(withdrawals(events) == 0);
    CHECK(joined(events, Kind::call_arguments) ==
          sent_head + R"(Line one\nSays \"hi\" \\ backé café 😀 /end"})");
}

// What the lenient reader would repair is not decided by the stream: the string waits for
// the block's reader, and nothing sent is taken back.
TEST_CASE("stream: a string argument with what JSON has not stops going out early, and nothing is withdrawn", "[stream]") {
    const std::string head = "<tool_call>\n{\"name\": \"send_email\", \"arguments\": {\"to\": [\"ana@example.com\"], "
                             "\"body\": \"Total: 5";
    const Parser parser(profile_outside("hermes"), corpus_tools());
    for (const std::string odd : {R"(\x41)", R"(\ud800 lone)", "\xFF\xFE bytes", R"(\q)"}) {
        CAPTURE(odd);
        StreamParser sp(parser);
        auto events = feed_bytes(sp, head + odd + " and more text after it\"}}\n</tool_call>");
        const std::string early = joined(events, Kind::call_arguments);
        CHECK(early.find(R"("body":"Total: 5)") != std::string::npos);
        CHECK(early.find("more text") == std::string::npos);
        auto fin = sp.finish();
        for (auto& e : fin.events) events.push_back(std::move(e));
        CHECK(withdrawals(events) == 0);
        CHECK(disagreement(Streamed{events, fin.result}, parser.parse(head + odd + " and more text after it\"}}\n</tool_call>")) == "");
    }
}

// A named parameter's text in markup goes out as written too, when the tool's schema
// makes it a string: up to its first '<' (which may be a token that ends it), less the
// line break the family's layout may yet remove.
TEST_CASE("stream: a parameter's text goes out as the model writes it, up to what may end it", "[stream]") {
    const std::string head = "<tool_call>\n<function=run_sql>\n<parameter=limit>\n10\n</parameter>\n<parameter=query>";
    const std::string tail = "\n</parameter>\n</function>\n</tool_call>";
    const Parser parser(profile_outside("qwen3_coder"), corpus_tools());
    // Raw text of the value written so far -> the arguments sent so far.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", R"({"limit":10,"query":")"},
        {"\n", R"({"limit":10,"query":")"},  // the layout's line break, not the value's
        {"\nSELECT name", R"({"limit":10,"query":"SELECT name)"},
        {"\nSELECT name\n", R"({"limit":10,"query":"SELECT name)"},  // may be layout: held
        {"\nSELECT name\nFROM t\t", R"({"limit":10,"query":"SELECT name\nFROM t\t)"},
        {"\nSELECT name\nFROM café", R"({"limit":10,"query":"SELECT name\nFROM café)"},
        {"\nSELECT name\nFROM caf\xC3", R"({"limit":10,"query":"SELECT name\nFROM caf)"},
        {"\nSELECT \"name\" FROM t WHERE n <", R"({"limit":10,"query":"SELECT \"name\" FROM t WHERE n )"},
        {"\nSELECT \"name\" FROM t WHERE n <= 5 AND m > 2", R"({"limit":10,"query":"SELECT \"name\" FROM t WHERE n <= 5 AND m > 2)"},
        // `<t` may begin a token (`<tool_call>`): what follows waits for the block's reader
        {"\nSELECT \"name\" FROM t WHERE n <= 5 AND m<t AND k = 1", R"({"limit":10,"query":"SELECT \"name\" FROM t WHERE n <= 5 AND m)"},
    };
    for (const auto& [written, sent] : cases) {
        CAPTURE(written);
        StreamParser sp(parser);
        const auto early = feed_bytes(sp, head + written);
        CHECK(count(early, Kind::call_begin) == 1);
        CHECK(count(early, Kind::call_end) == 0);
        CHECK(joined(early, Kind::call_arguments) == sent);
    }
    // Whole, a byte at a time: what was held or stopped at goes out when the call ends.
    const std::string value = "\nSELECT \"name\" FROM t WHERE n <= 5 AND m<t AND k = 1";
    StreamParser sp(parser);
    auto events = feed_bytes(sp, head + value + tail);
    auto fin = sp.finish();
    for (auto& e : fin.events) events.push_back(std::move(e));
    REQUIRE(fin.result.calls.size() == 1);
    CHECK(withdrawals(events) == 0);
    CHECK(joined(events, Kind::call_arguments) == R"({"limit":10,"query":"SELECT \"name\" FROM t WHERE n <= 5 AND m<t AND k = 1"})");
}

// Where the schema does not make a parameter's text a string, the text may yet be typed
// otherwise (a number, null), so it goes out whole when the call ends.
TEST_CASE("stream: a parameter typed otherwise than string goes out whole", "[stream]") {
    const std::string head = "<tool_call>\n<function=run_sql>\n<parameter=query>\nSELECT 1\n</parameter>\n<parameter=limit>\n12";
    const Parser parser(profile_outside("qwen3_coder"), corpus_tools());
    StreamParser sp(parser);
    auto events = feed_bytes(sp, head);
    CHECK(joined(events, Kind::call_arguments).find("limit") == std::string::npos);
    for (auto& e : feed_bytes(sp, "5\n</parameter>\n</function>\n</tool_call>")) events.push_back(std::move(e));
    auto fin = sp.finish();
    for (auto& e : fin.events) events.push_back(std::move(e));
    CHECK(withdrawals(events) == 0);
    CHECK(joined(events, Kind::call_arguments) == R"({"query":"SELECT 1","limit":125})");
}

// One send_email call whose body is ~6 KB of `line` (numbered), written by `profile` after
// a sentence and streamed 4 bytes at a time: the share of its arguments JSON sent when half
// and nine tenths of the text had arrived, in percent of what was sent in all, after
// checking that the stream is one call, never withdrawn, and equal to the one-shot parse.
struct LongArgumentShares {
    std::size_t at_half = 0, at_90 = 0;
};
LongArgumentShares stream_long_argument(const std::string& profile, const std::string& line) {
    std::string body;
    for (int i = 0; body.size() < 6000; ++i) body += "line " + std::to_string(i) + line;
    toolgram::Call call;
    call.name = "send_email";
    call.id = "call_0";
    call.arguments = json{{"to", json::array({"ana@example.com"})}, {"subject", "Draft"}, {"body", body}};
    const Parser parser(profile_outside(profile), corpus_tools());
    const std::string text = "Sending it now.\n" + toolgram::render_calls(parser.profile(), {call});
    StreamParser sp(parser);
    std::vector<StreamEvent> events;
    std::size_t sent = 0, at_half = 0, at_90 = 0;
    for (std::size_t i = 0; i < text.size(); i += 4) {
        for (auto& e : sp.feed(std::string_view(text).substr(i, 4))) {
            if (e.kind == Kind::call_arguments) sent += e.text.size();
            events.push_back(std::move(e));
        }
        const std::size_t fed = std::min(text.size(), i + 4);
        if (fed <= text.size() / 2) at_half = sent;
        if (fed <= text.size() * 9 / 10) at_90 = sent;
    }
    auto fin = sp.finish();
    for (auto& e : fin.events) events.push_back(std::move(e));
    REQUIRE(fin.result.calls.size() == 1);
    CHECK(withdrawals(events) == 0);
    CHECK(disagreement(Streamed{events, fin.result}, parser.parse(text)) == "");
    const std::size_t total = joined(events, Kind::call_arguments).size();
    return {at_half * 100 / total, at_90 * 100 / total};
}

// Every family whose arguments are named text parameters, likewise.
TEST_CASE("stream: every markup family sends a long string parameter as it arrives", "[stream]") {
    for (const char* name : {"qwen3_coder", "seed_oss", "glm45", "minimax_m2", "step3", "deepseek_v32", "gigachat35",
                             "hy_v3", "kimi_k3", "muse_glimmer", "dots", "iquest_q1", "k2_horizon"}) {
        CAPTURE(name);
        CHECK(stream_long_argument(name, ": tell \"the team\" \\ café 😀 & more\n\t").at_half >= 45);
    }
}

// Every family whose arguments are JSON: at half the output, the client holds nearly half
// of a long argument (the issue's bar is 45%), and at 90% nearly all of it.
TEST_CASE("stream: every JSON-argument family sends a long string argument as it arrives", "[stream]") {
    for (const char* name : {"hermes", "tag", "marker", "bracket", "longcat", "kimi_k2", "deepseek_r1", "deepseek_v31",
                             "mistral", "llama3_json", "pythonic", "granite", "granite_20b_fc", "functionary_v31",
                             "functionary_v32", "functools", "command_r", "harmony", "jamba", "apriel", "nemotron",
                             "internlm", "xlam", "apertus", "gigachat", "solar_open", "lfm2_json", "inkling"}) {
        CAPTURE(name);
        const LongArgumentShares shares = stream_long_argument(name, ": tell \"the team\" \\ café 😀\n\t");
        CHECK(shares.at_half >= 45);
        CHECK(shares.at_90 >= 85);
    }
}

TEST_CASE("stream: a call that fails its schema at the end is ended with a rejection", "[stream]") {
    // days must be 1..14: only the whole call shows it, after deltas went out.
    const std::string text = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lima\", \"unit\": "
                             "\"celsius\", \"days\": 30}}\n</tool_call>";
    const Parser parser(profile_outside("hermes"), corpus_tools());
    StreamParser sp(parser);
    auto events = feed_bytes(sp, text);
    const auto fin = sp.finish();
    for (const auto& e : fin.events) events.push_back(e);
    REQUIRE(count(events, Kind::call_begin) == 1);
    CHECK(count(events, Kind::call_arguments) >= 1);
    const auto end = std::find_if(events.begin(), events.end(), [](const StreamEvent& e) { return e.kind == Kind::call_end; });
    REQUIRE(end != events.end());
    CHECK_FALSE(end->call);
    CHECK(end->rejection.find("schema") != std::string::npos);
    CHECK(end->rejection_code == toolgram::RejectionCode::schema_mismatch);
    CHECK(toolgram::to_json(*end)["code"] == "schema_mismatch");
    CHECK(fin.result.calls.empty());
}

// A call announced, and the output ends inside it: withdrawn at finish, as incomplete
// (or with the reason the one-shot parse gave its candidate).
TEST_CASE("stream: a call the output cuts is withdrawn at finish with its code", "[stream]") {
    toolgram::Profile p = profile_outside("hermes");
    p.settings.accept_healed_calls = false;
    const Parser parser(p, corpus_tools());
    StreamParser sp(parser);
    auto events = feed_bytes(sp, "<tool_call>\n{\"name\": \"run_sql\", \"arguments\": {\"query\": \"SELECT 1\", "
                                 "\"limit\": 5, \"note\": \"half");
    REQUIRE(count(events, Kind::call_begin) == 1);
    const auto fin = sp.finish();
    const auto end = std::find_if(fin.events.begin(), fin.events.end(), [](const StreamEvent& e) { return e.kind == Kind::call_end; });
    REQUIRE(end != fin.events.end());
    CHECK_FALSE(end->call);
    REQUIRE(fin.result.telemetry.candidates.size() == 1);
    CHECK(end->rejection_code == fin.result.telemetry.candidates[0].code);
    CHECK(end->rejection == fin.result.telemetry.candidates[0].reason);
    CHECK(end->rejection_code != toolgram::RejectionCode::none);
}

TEST_CASE("stream: dropping a stream mid-call reports no call as complete", "[stream]") {
    const Parser parser(profile_outside("hermes"), corpus_tools());
    std::vector<StreamEvent> events;
    {
        StreamParser sp(parser);
        events = feed_bytes(sp, "<tool_call>\n{\"name\": \"run_sql\", \"arguments\": {\"query\": \"SELECT 1\", "
                                "\"limit\": 5, \"note\": \"half");
    }  // destroyed here, without finish()
    CHECK(count(events, Kind::call_begin) == 1);
    CHECK(count(events, Kind::call_end) == 0);
}

TEST_CASE("stream: reasoning flows at once when the prompt opened it, and waits when guessed", "[stream]") {
    const std::string text = "The user wants Paris weather; I should call the tool.</think>\n\n<tool_call>\n"
                             "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
    toolgram::Profile p = toolgram::builtin_profile("hermes");
    SECTION("inside: reasoning deltas before the closer") {
        p.settings.reasoning_start = toolgram::ReasoningStart::inside;
        const Parser parser(p, corpus_tools());
        StreamParser sp(parser);
        const auto early = feed_bytes(sp, text.substr(0, text.find("</think>")));
        CHECK(joined(early, Kind::reasoning).rfind("The user wants Paris weather; I should call the", 0) == 0);
        const auto fin = sp.finish();
        CHECK(fin.result.reasoning == "The user wants Paris weather; I should call the tool.");
    }
    SECTION("guess: held until a delimiter tells, then sent as reasoning") {
        const Parser parser(p, corpus_tools());
        StreamParser sp(parser);
        CHECK(feed_bytes(sp, text.substr(0, text.find("</think>"))).empty());
        const auto after = feed_bytes(sp, "</think>\n\nSunny");
        CHECK(joined(after, Kind::reasoning) == "The user wants Paris weather; I should call the tool.");
        CHECK(joined(after, Kind::content) == "Sunny");
    }
}

// Issue 28: with every setting at its default, a stream on a profile whose family's
// templates never open reasoning sends the text before a call as it arrives, and the call
// after it, not everything at the end. (Before, every profile defaulted to guess: nothing
// went out before the end, and then the call before the text that preceded it.)
TEST_CASE("stream: under the defaults, text flows from the first token where the family never opens reasoning",
          "[stream][reasoning]") {
    const std::string before = "Let me check the weather for you first.\n";
    toolgram::Call call;
    call.id = "call_0";
    call.name = "get_weather";
    call.arguments = json{{"city", "Paris"}};
    std::size_t profiles = 0;
    for (const auto& name : toolgram::builtin_profile_names()) {
        const toolgram::Profile profile = toolgram::builtin_profile(name);
        if (profile.settings.reasoning_start != toolgram::ReasoningStart::outside) continue;
        CAPTURE(name);
        ++profiles;
        const std::string text = before + toolgram::render_calls(profile, {call});
        const Parser parser(profile, corpus_tools());
        const toolgram::Result want = parser.parse(text);
        REQUIRE(want.calls.size() == 1);
        CHECK(want.calls[0].arguments == call.arguments);
        // The text before the call is out before the call's block has arrived.
        StreamParser sp(parser);
        std::vector<StreamEvent> events = feed_bytes(sp, before);
        CHECK_THAT(joined(events, Kind::content), Catch::StartsWith("Let me check the weather for you"));
        const std::size_t early = events.size();
        for (auto& e : feed_bytes(sp, std::string_view(text).substr(before.size()))) events.push_back(std::move(e));
        auto fin = sp.finish();
        for (auto& e : fin.events) events.push_back(std::move(e));
        CHECK(early > 0);
        // In order: no call event before the content that precedes the call.
        const auto first_call = std::find_if(events.begin(), events.end(), [](const StreamEvent& e) {
            return e.kind == Kind::call_begin;
        });
        REQUIRE(first_call != events.end());
        CHECK(static_cast<std::size_t>(first_call - events.begin()) >= early);
        CHECK(joined(events, Kind::content) == want.content);
        CHECK(fin.result.calls.size() == 1);
    }
    CHECK(profiles >= 10);
}

// Issue 28: a stream left guessing to the end (hermes and qwen3_coder by default, whose
// families' templates may open reasoning) sends what it held in the text's order: the
// text before a call, then the call, then the text after it. (Before, finish sent the
// call first and all the content after it.)
TEST_CASE("stream: a guess settled at the end sends the text before a call before the call", "[stream][reasoning]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"hermes", "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n"
                   "</tool_call>\nDone."},
        {"qwen3_coder", "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
                        "</function>\n</tool_call>\nDone."},
    };
    for (const auto& [name, text] : cases) {
        CAPTURE(name);
        const toolgram::Profile profile = toolgram::builtin_profile(name);
        REQUIRE(profile.settings.reasoning_start == toolgram::ReasoningStart::guess);
        const Parser parser(profile, corpus_tools());
        StreamParser sp(parser);
        CHECK(feed_bytes(sp, text).empty());  // held: a </think> may yet come
        const auto fin = sp.finish();
        std::vector<std::string> order;
        for (const auto& e : fin.events)
            order.push_back(e.kind == Kind::content ? "content:" + e.text
                            : e.kind == Kind::call_begin ? "begin:" + e.name
                            : e.kind == Kind::call_end   ? "end:" + e.name
                                                         : "");
        order.erase(std::remove(order.begin(), order.end(), ""), order.end());
        CHECK(order == std::vector<std::string>{"content:Let me check.", "begin:get_weather", "end:get_weather",
                                                "content:\nDone."});
        CHECK(fin.result.content == "Let me check.\nDone.");
        REQUIRE(fin.result.calls.size() == 1);
        CHECK(fin.result.calls[0].arguments == json{{"city", "Paris"}});
    }
}

// The sink overloads hand the events over as they complete: the same events, in the same
// order, and the same result, as the returning calls give, on every corpus case (each under
// its own profile and guessing the reasoning, so the end decides the most) cut every 7
// bytes. A sink's exception leaves feed, and the stream takes no more text.
TEST_CASE("stream: events handed to a sink are the events returned in the same order", "[stream]") {
    std::size_t compared = 0;
    for (const auto& c : all_cases()) {
        const json spec = json::parse(slurp(c.expect));
        toolgram::Profile profile = profile_for(spec, c.text.parent_path());
        profile.settings.reasoning_start = toolgram::ReasoningStart::guess;
        const Parser parser = parser_with(profile, tools_for(spec));
        const std::string text = slurp(c.text);
        StreamParser returned(parser), sunk(parser);
        std::vector<json> want, got;
        const StreamParser::EventSink sink = [&](StreamEvent&& e) { got.push_back(toolgram::to_json(e)); };
        for (std::size_t at = 0; at < text.size(); at += 7) {
            const std::string_view chunk = std::string_view(text).substr(at, 7);
            for (const auto& e : returned.feed(chunk)) want.push_back(toolgram::to_json(e));
            sunk.feed(chunk, sink);
            REQUIRE(got.size() == want.size());  // nothing kept back past the feed
        }
        auto fin = returned.finish();
        for (const auto& e : fin.events) want.push_back(toolgram::to_json(e));
        const toolgram::Result result = sunk.finish(sink);
        INFO(c.text.parent_path().filename().string() << "/" << c.text.stem().string());
        CHECK(got == want);
        CHECK(toolgram::to_json(result) == toolgram::to_json(fin.result));
        ++compared;
    }
    CHECK(compared > 500);

    toolgram::Profile hermes = toolgram::builtin_profile("hermes");
    hermes.settings.reasoning_start = toolgram::ReasoningStart::outside;  // the text goes out at once
    const Parser parser(hermes, {});
    StreamParser sp(parser);
    const StreamParser::EventSink refuse = [](StreamEvent&&) { throw std::runtime_error("client gone"); };
    CHECK_THROWS_WITH(sp.feed("Hello there.\n\nMore text", refuse), "client gone");
    CHECK_THROWS_AS(sp.feed("more"), std::logic_error);
}

TEST_CASE("stream: feed after finish is a usage error", "[stream]") {
    const Parser parser(profile_outside("hermes"));
    StreamParser sp(parser);
    static_cast<void>(sp.feed("hi"));
    static_cast<void>(sp.finish());
    CHECK_THROWS_AS(sp.feed("more"), std::logic_error);
}

TEST_CASE("stream: reasoning kept in content flows as content once the prompt opened it", "[stream][reasoning]") {
    toolgram::Profile p = toolgram::builtin_profile("qwen3_coder");
    p.settings.reasoning_start = toolgram::ReasoningStart::inside;
    p.settings.reasoning_format = toolgram::ReasoningFormat::in_content;
    const Parser parser(p, corpus_tools());
    StreamParser sp(parser);
    const std::string thinking = "The user wants the weather in Paris, so I will call the tool for it";
    const auto early = feed_bytes(sp, thinking + " now.");
    CHECK(joined(early, Kind::content).rfind(thinking, 0) == 0);
    CHECK(count(early, Kind::reasoning) == 0);
    const auto after = feed_bytes(sp, "</think>\n\nSunny.");
    const auto fin = sp.finish();
    CHECK(joined(early, Kind::content) + joined(after, Kind::content) + joined(fin.events, Kind::content) ==
          thinking + " now.</think>\n\nSunny.");
    CHECK(fin.result.content == thinking + " now.</think>\n\nSunny.");
    CHECK(fin.result.reasoning.empty());
}

// The stream holds what waits to be sent, not all it sent (issue 29, item 10): past 64 KiB
// sent, the content assembler drops what went out, and finish checks the result against a
// digest of what was sent. Corpus cases are shorter than that, so a long output checks
// that nothing is lost or joined differently across many drops: paragraphs with breaks of
// every strength, calls removed between them, fenced and inline markup, cut in chunks of
// several sizes.
TEST_CASE("stream: a long output comes out whole once what was sent is dropped", "[stream]") {
    std::string text;
    std::size_t calls = 0;
    for (int i = 0; i < 3500; ++i) {
        text += "Paragraph " + std::to_string(i) + " says what the weather in Oslo was   on day " + std::to_string(i % 31);
        text += i % 3 == 0 ? ".\n\n" : i % 3 == 1 ? ".\n" : ".  ";
        if (i % 97 == 0) {
            text += "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>\n";
            ++calls;
        }
        if (i % 211 == 0) text += "An aside about <tool_call> tags in prose, and   trailing blanks   \n";
    }
    REQUIRE(text.size() > 200 * 1024);
    const Parser parser(profile_outside("hermes"), corpus_tools());
    const toolgram::Result whole = parser.parse(text);
    REQUIRE(whole.calls.size() == calls);
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
        CAPTURE(chunk);
        StreamParser sp(parser);
        std::vector<StreamEvent> events;
        for (std::size_t at = 0; at < text.size(); at += chunk)
            for (auto& e : sp.feed(std::string_view(text).substr(at, chunk))) events.push_back(std::move(e));
        // Most of it went out before the end, so the assembler dropped what it had sent.
        CHECK(joined(events, Kind::content).size() > 150 * 1024);
        auto fin = sp.finish();
        for (auto& e : fin.events) events.push_back(std::move(e));
        CHECK(joined(events, Kind::content) == whole.content);
        CHECK(toolgram::to_json(fin.result) == toolgram::to_json(whole));
        CHECK(count(events, Kind::call_end) == calls);
    }
}

// The drop in the case above at its edge: the assembler drops what it sent while the
// blanks after it still wait (they may join the next piece), and then a call removed in
// between makes that join. The last byte sent is kept so the join knows text came
// before; without it the break between the two pieces was lost.
TEST_CASE("stream: blanks waiting when what was sent is dropped still join the next piece", "[stream]") {
    const std::string first = std::string(70000, 'a') + ".\n\n";
    const std::string call = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>";
    const std::string text = first + call + "\nNext.";
    const Parser parser(profile_outside("hermes"), corpus_tools());
    const toolgram::Result whole = parser.parse(text);
    REQUIRE(whole.content == std::string(70000, 'a') + ".\n\nNext.");
    StreamParser sp(parser);
    std::vector<StreamEvent> events = sp.feed(first);
    CHECK(joined(events, Kind::content) == std::string(70000, 'a') + ".");  // the blanks wait
    for (auto& e : sp.feed("<tool_call>")) events.push_back(std::move(e));  // the drop happens here
    for (auto& e : sp.feed(std::string_view(text).substr(first.size() + 11))) events.push_back(std::move(e));
    auto fin = sp.finish();
    for (auto& e : fin.events) events.push_back(std::move(e));
    CHECK(joined(events, Kind::content) == whole.content);
    CHECK(toolgram::to_json(fin.result) == toolgram::to_json(whole));
}

// Issue 29, "Speed on ordinary work": families that write their calls inside one section
// (kimi_k2's <|tool_calls_section_begin|>…<|tool_calls_section_end|>, DeepSeek V3.1's and
// R1's <｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>, Solar Open's, PLaMo 3's) should announce each call, and stream its
// arguments, as it is written, as the families whose calls are independent blocks do
// (only the section's first call went out before the section closed: perfbench's
// calls10 sent 10% of the arguments at half the message).
TEST_CASE("stream: each call of a section is announced as it is written, before the section closes",
          "[stream][sections]") {
    std::vector<toolgram::Call> calls;
    for (int i = 0; i < 10; ++i) {
        std::string query;
        for (int w = 0; query.size() < 1000; ++w) query += "term" + std::to_string(i) + "_" + std::to_string(w) + " ";
        calls.push_back({"", "search_web", {{"query", query}, {"max_results", 5 + i}}});
    }
    // A call's arguments JSON as the events write it (stream_agreement.hpp).
    const auto args_json = [](const toolgram::Call& c) {
        return toolgram::json(c.arguments).dump(-1, ' ', false, toolgram::json::error_handler_t::replace);
    };
    for (const auto& [name, closer] : {std::pair<std::string, std::string>{"kimi_k2", "<|tool_call_end|>"},
                                       {"deepseek_v31", "<｜tool▁call▁end｜>"},
                                       {"deepseek_r1", "<｜tool▁call▁end｜>"},
                                       {"solar_open", "<|tool_call:end|>"},
                                       {"plamo3", "<|plamo:end_tool_request:plamo|>"}}) {
        const toolgram::Profile p = profile_outside(name);
        const Parser parser(p, corpus_tools());
        const std::string text = "Let me look these up.\n" + toolgram::render_calls(p, calls);
        std::vector<std::size_t> closed_at;  // where each call's closer ends
        for (std::size_t f = text.find(closer); f != std::string::npos; f = text.find(closer, f + 1))
            closed_at.push_back(f + closer.size());
        CAPTURE(name, text.substr(0, 400));
        REQUIRE(closed_at.size() == calls.size());
        const toolgram::Result want = parser.parse(text);
        REQUIRE(want.calls.size() == calls.size());
        StreamParser sp(parser);
        std::vector<StreamEvent> events;
        std::size_t k = 0;  // calls whose closer has been fed
        for (std::size_t from = 0; from < text.size(); from += 5) {
            for (auto& e : sp.feed(std::string_view(text).substr(from, 5))) events.push_back(std::move(e));
            const std::size_t fed = std::min(from + 5, text.size());
            if (k < closed_at.size() && fed >= closed_at[k] && fed < closed_at.back() + 1) {
                ++k;
                if (k == closed_at.size()) break;  // the section's closer may come with the last
                CAPTURE(k, fed);
                // k calls announced; those before the k-th ended with their whole arguments,
                // the k-th's arguments sent in part at least.
                CHECK(count(events, Kind::call_begin) >= k);
                std::vector<std::string> args(calls.size());
                for (const auto& e : events)
                    if (e.kind == Kind::call_arguments && e.index < args.size()) args[e.index] += e.text;
                for (std::size_t i = 0; i + 1 < k; ++i)
                    CHECK(args[i] == args_json(want.calls[i]));
                CHECK(!args[k - 1].empty());
                CHECK(args_json(want.calls[k - 1]).rfind(args[k - 1], 0) == 0);
            }
        }
        const Streamed all = stream(parser, text, cuts_every(text.size(), 5));
        CHECK(disagreement(all, want).empty());
    }
}

// Judging a section's calls before the section closes must decide each as the one-shot
// parse does: a call refused in the middle, the candidate limit reached inside the
// section, and a section cut off after its last call (only that call healed), at every
// chunk size.
TEST_CASE("stream: a section's calls judged before it closes decide as the one-shot parse", "[stream][sections]") {
    std::vector<toolgram::Call> calls;
    for (int i = 0; i < 6; ++i)
        calls.push_back({"", i == 2 ? "no_such_tool" : "get_weather", {{"city", "City" + std::to_string(i)}}});
    toolgram::Profile p = profile_outside("kimi_k2");
    const std::string section = toolgram::render_calls(p, calls);
    const std::string closer = "<|tool_calls_section_end|>";
    REQUIRE(section.size() > closer.size());
    const std::string cut = section.substr(0, section.size() - closer.size());
    for (const std::size_t limit : {std::size_t{3}, std::size_t{100}}) {
        p.settings.limits.max_candidates = limit;
        const Parser parser(p, corpus_tools());
        for (const std::string& text : {"Checking.\n" + section + "\nDone.", "Checking.\n" + cut}) {
            const toolgram::Result want = parser.parse(text);
            CAPTURE(limit, text);
            REQUIRE(want.calls.size() == (limit == 3 ? 2u : 5u));
            // Cut off after its last call, that call alone is healed.
            for (std::size_t i = 0; i < want.calls.size(); ++i)
                CHECK(want.calls[i].healed == (text.size() < section.size() && limit == 100 && i + 1 == want.calls.size()));
            for (const std::size_t chunk : {1, 3, 7, 40}) {
                CAPTURE(chunk);
                const Streamed got = stream(parser, text, cuts_every(text.size(), chunk));
                CHECK(disagreement(got, want).empty());
                CHECK(count(got.events, Kind::call_begin) == want.calls.size());
            }
        }
    }
}

}  // namespace stream_test
