// One Parser shared by many threads: what the public header promises (a Parser is
// immutable once built; its const members may run on any number of threads at once;
// a StreamParser is one stream, used by one thread at a time). Every corpus case is
// parsed and streamed by eight threads at once, each in its own order, through one
// Parser per case built beforehand, and each result must be the one a single thread
// got. The library keeps its per-parse state thread_local; state shared by mistake shows
// here when it changes a result (a race that only frees memory under a reader takes a
// sanitizer build to see).
#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "corpus_cases.hpp"
#include "toolgram/toolgram.hpp"

// One namespace per test file: the suite compiles its files in groups (a unity build).
namespace threads_test {

using namespace toolgram_test;

namespace {

struct Subject {
    std::string name;
    std::string text;
    std::unique_ptr<toolgram::Parser> parser;
    std::string parsed, streamed;  // as one thread gets them
};

std::string streamed_result(const toolgram::Parser& parser, const std::string& text, std::size_t chunk) {
    toolgram::StreamParser stream(parser);
    for (std::size_t at = 0; at < text.size(); at += chunk) (void)stream.feed(std::string_view(text).substr(at, chunk));
    return toolgram::to_json(stream.finish().result).dump();
}

}  // namespace

TEST_CASE("threads: one Parser shared by eight threads gives each parse and stream the one-thread result") {
    std::vector<Subject> subjects;
    for (const auto& c : all_cases()) {
        const json spec = json::parse(slurp(c.expect));
        Subject s;
        s.name = c.text.parent_path().filename().string() + "/" + c.text.stem().string();
        s.text = slurp(c.text);
        s.parser = std::make_unique<toolgram::Parser>(parser_with(profile_for(spec, c.text.parent_path()), tools_for(spec)));
        s.parsed = toolgram::to_json(s.parser->parse(s.text)).dump();
        s.streamed = streamed_result(*s.parser, s.text, 7);
        subjects.push_back(std::move(s));
    }
    REQUIRE(subjects.size() > 1000);

    constexpr int threads = 8;
    std::atomic<std::size_t> compared{0};
    std::vector<std::vector<std::string>> differ(threads);  // Catch2 asserts on this thread only
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            std::vector<std::size_t> order(subjects.size());
            for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
            std::mt19937 rng(static_cast<unsigned>(t + 1));
            std::shuffle(order.begin(), order.end(), rng);
            for (const std::size_t i : order) {
                const Subject& s = subjects[i];
                if (toolgram::to_json(s.parser->parse(s.text)).dump() != s.parsed) differ[t].push_back("parse " + s.name);
                if (streamed_result(*s.parser, s.text, 7) != s.streamed) differ[t].push_back("stream " + s.name);
                compared += 2;
            }
        });
    }
    for (auto& th : pool) th.join();

    CHECK(compared == 2 * threads * subjects.size());
    for (int t = 0; t < threads; ++t) {
        INFO("thread " << t);
        for (std::size_t k = 0; k < differ[t].size() && k < 5; ++k) UNSCOPED_INFO(differ[t][k]);
        CHECK(differ[t].empty());
    }
}

}  // namespace threads_test
