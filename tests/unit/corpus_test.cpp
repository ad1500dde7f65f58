// Golden corpus: every corpus/<folder>/<case>.txt is parsed and compared with
// <case>.expect.json, so a new case is one file pair and no code.
//
// The expect file says which profile, tools and settings to use, then what must come out:
// the calls exactly (ids included), and, where given, the content, the reasoning, a
// subset of telemetry, the rejection reasons (by substring, count exact), the rejections'
// source texts (exact) and the error.
// A folder with no case, or a .txt without its expectation, fails the suite.
#include <algorithm>

#include <catch2/catch.hpp>

#include "toolgram/toolgram.hpp"

#include "corpus_cases.hpp"
#include "combinator/parser_impl.hpp"  // detail::index_from_bytes

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace corpus_test {

using namespace toolgram_test;

TEST_CASE("every corpus folder holds cases, and every case has its expectation", "[corpus]") {
    std::size_t folders = 0;
    for (const auto& dir : fs::directory_iterator(corpus_root)) {
        if (!dir.is_directory()) continue;
        ++folders;
        std::size_t cases = 0;
        for (const auto& f : fs::directory_iterator(dir.path())) {
            if (f.path().extension() != ".txt") continue;
            ++cases;
            fs::path e = f.path();
            e.replace_extension(".expect.json");
            CAPTURE(f.path().string());
            CHECK(fs::exists(e));
        }
        CAPTURE(dir.path().string());
        CHECK(cases > 0);
    }
    CHECK(folders >= 6);
}

TEST_CASE("golden corpus: each model output parses to its expected result", "[corpus]") {
    const auto cases = all_cases();
    REQUIRE(!cases.empty());
    for (const auto& c : cases) {
        DYNAMIC_SECTION(c.text.parent_path().filename().string() << "/" << c.text.stem().string()) {
            REQUIRE(fs::exists(c.expect));
            const json spec = json::parse(slurp(c.expect));
            const json& want = spec.at("expect");
            toolgram::Parser parser = parser_with(profile_for(spec, c.text.parent_path()), tools_for(spec));
            const json got = toolgram::to_json(parser.parse(slurp(c.text)));
            CAPTURE(got.dump(2));

            CHECK(got["calls"] == want.at("calls"));
            if (want.contains("content")) CHECK(got["content"] == want["content"]);
            if (want.contains("reasoning")) CHECK(got["reasoning"] == want["reasoning"]);
            if (want.contains("telemetry")) {
                for (auto it = want["telemetry"].begin(); it != want["telemetry"].end(); ++it) {
                    CAPTURE(it.key());
                    CHECK(got["telemetry"][it.key()] == *it);
                }
            }
            if (want.contains("rejected_reasons")) {
                const json& rejected = got["telemetry"]["rejected"];
                REQUIRE(rejected.size() == want["rejected_reasons"].size());
                for (std::size_t i = 0; i < rejected.size(); ++i) {
                    const std::string reason = rejected[i]["reason"];
                    const std::string part = want["rejected_reasons"][i];
                    CAPTURE(reason, part);
                    CHECK(reason.find(part) != std::string::npos);
                }
            }
            // Each rejection's source text, exactly, in order (what a client shows in place
            // of a refused call).
            if (want.contains("rejected_texts")) {
                const json& rejected = got["telemetry"]["rejected"];
                REQUIRE(rejected.size() == want["rejected_texts"].size());
                for (std::size_t i = 0; i < rejected.size(); ++i) {
                    const std::size_t begin = rejected[i]["span"][0], end = rejected[i]["span"][1];
                    CHECK(rejected[i]["text"] == want["rejected_texts"][i]);
                    CHECK(end - begin == rejected[i]["text"].get<std::string>().size());
                }
            }
            if (want.contains("error")) {
                if (want["error"].is_null()) {
                    CHECK(got["error"].is_null());
                } else {
                    REQUIRE(got["error"].is_object());
                    const std::string msg = got["error"]["message"];
                    const std::string part = want["error"].value("message_contains", "");
                    CAPTURE(msg, part);
                    CHECK(msg.find(part) != std::string::npos);
                    CHECK(!got["error"]["correction_prompt"].get<std::string>().empty());
                }
            }
        }
    }
}

TEST_CASE("golden corpus: each output parses the same through the marker index as without it", "[corpus]") {
    // Outputs under detail::index_from_bytes (all but a few of the corpus's) are searched
    // directly; long ones through the index. Both ways must give the same result, to the
    // byte, so the index's path is held to every golden case too.
    struct Restore {
        std::size_t saved = toolgram::detail::index_from_bytes;
        ~Restore() { toolgram::detail::index_from_bytes = saved; }
    } restore;
    std::size_t compared = 0;
    for (const auto& c : all_cases()) {
        const json spec = json::parse(slurp(c.expect));
        const toolgram::Parser parser = parser_with(profile_for(spec, c.text.parent_path()), tools_for(spec));
        const std::string text = slurp(c.text);
        toolgram::detail::index_from_bytes = std::string::npos;
        const std::string direct = toolgram::to_json(parser.parse(text)).dump(-1, ' ', false, json::error_handler_t::replace);
        toolgram::detail::index_from_bytes = 0;
        const std::string indexed = toolgram::to_json(parser.parse(text)).dump(-1, ' ', false, json::error_handler_t::replace);
        if (direct != indexed) {
            CAPTURE(c.text.string());
            CHECK(direct == indexed);
        }
        ++compared;
    }
    CHECK(compared > 1000);
}

}  // namespace corpus_test
