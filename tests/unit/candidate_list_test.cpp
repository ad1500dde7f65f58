// A block's candidate list (src/readers/candidate.hpp): the vector-like container whose one
// allocation also carries the block's rare parts, so a block record stays 32 bytes.
// Checked here as a vector would be (order, erase, copies, growth with a candidate of the
// list itself), and for what is its own: the allocation is given back once the list holds
// nothing, and a block's dropped count stays exact past 32 bits.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "readers/candidate.hpp"

namespace candidate_list_test {

using toolgram::detail::Block;
using toolgram::detail::Candidate;
using toolgram::detail::CandidateList;

Candidate named(std::string name) {
    Candidate c;
    c.name = std::move(name);
    c.arguments = {{"path", "/tmp/" + c.name}};
    return c;
}

std::vector<std::string> names(const CandidateList& l) {
    std::vector<std::string> out;
    for (const Candidate& c : l) out.push_back(c.name);
    return out;
}

TEST_CASE("a candidate list keeps order through growth, erase and copy", "[candidates]") {
    CandidateList l;
    CHECK(l.empty());
    CHECK(l.begin() == l.end());
    for (int i = 0; i < 37; ++i) l.push_back(named("f" + std::to_string(i)));
    REQUIRE(l.size() == 37);
    CHECK(l.front().name == "f0");
    CHECK(l.back().name == "f36");
    CHECK(l[17].arguments.at("path") == "/tmp/f17");

    // A candidate of the list itself, pushed while the list must grow: copied first.
    l.shrink_to_fit();
    l.push_back(l[3]);
    CHECK(l.back().name == "f3");
    CHECK(l[3].name == "f3");

    auto it = l.erase(l.begin() + 1, l.begin() + 35);  // f1..f34 go
    CHECK(it->name == "f35");
    CHECK(names(l) == std::vector<std::string>{"f0", "f35", "f36", "f3"});
    it = l.erase(l.begin());
    CHECK(it->name == "f35");

    const CandidateList copy = l;
    l[0].name = "changed";
    CHECK(names(copy) == std::vector<std::string>{"f35", "f36", "f3"});
    CHECK(names(l) == std::vector<std::string>{"changed", "f36", "f3"});

    CandidateList moved = std::move(l);
    CHECK(l.empty());  // NOLINT: a moved-from list is empty, as the stream relies on
    CHECK(moved.size() == 3);
    moved.clear();
    CHECK(moved.empty());
    CHECK(moved.begin() == moved.end());
}

TEST_CASE("a block's record is 32 bytes and its rare parts live in the list's allocation", "[candidates]") {
    CHECK(sizeof(Block) == 32);
    Block b;
    b.begin = 10;
    b.end = 90;
    b.candidates.push_back(named("a"));
    b.framing().content.emplace_back(20, 30);
    b.framing().answer = "the answer";

    // Emptying the candidates keeps the framing it carries.
    b.candidates.clear();
    b.candidates.shrink_to_fit();
    REQUIRE(b.has_framing());
    CHECK(b.content() == std::vector<std::pair<std::size_t, std::size_t>>{{20, 30}});
    CHECK(b.answer() == "the answer");

    const Block copy = b;
    b.framing().content.clear();
    CHECK(copy.content().size() == 1);
    CHECK(copy.answer() == "the answer");

    Block plain;
    CHECK_FALSE(plain.has_framing());
    CHECK(plain.content().empty());
    CHECK_FALSE(plain.answer().has_value());
}

TEST_CASE("a block counts dropped candidates exactly past 32 bits", "[candidates]") {
    Block b;
    b.add_dropped(3);
    CHECK(b.dropped() == 3);
    CHECK(b.candidates.empty());
    const std::size_t big = std::size_t{1} << 33;
    b.add_dropped(big);
    CHECK(b.dropped() == big + 3);
    b.add_dropped(UINT32_MAX);
    CHECK(b.dropped() == big + 3 + UINT32_MAX);
    // The spill lives beside the candidates; they come and go without touching it.
    b.candidates.push_back(named("x"));
    b.candidates.clear();
    CHECK(b.dropped() == big + 3 + UINT32_MAX);
    const Block copy = b;
    CHECK(copy.dropped() == b.dropped());
}

TEST_CASE("keep_first_candidates counts the rest as dropped and gives their room back", "[candidates]") {
    Block b;
    for (int i = 0; i < 5; ++i) {
        Candidate c = named("g" + std::to_string(i));
        if (i != 3) c.problem = "broken";
        b.candidates.push_back(std::move(c));
    }
    toolgram::detail::keep_first_candidates(b, 2);
    CHECK(names(b.candidates) == std::vector<std::string>{"g0", "g1"});
    CHECK(b.dropped() == 3);
    CHECK(b.dropped_clean);  // g3 was read without a problem
    toolgram::detail::keep_first_candidates(b, 0);
    CHECK(b.candidates.empty());
    CHECK(b.dropped() == 5);
}

}  // namespace candidate_list_test
