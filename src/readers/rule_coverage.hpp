// Rule coverage for `toolgram coverage`: which grammar rules, and which paths through
// them, each output's tool syntax exercised.
//
// The collector listens to the rule events of errors::control (grammars/common/rule_listener.hpp)
// and groups them the way the report needs them:
//  - by grammar: the combinator announces each read of a block (read_begin/read_end in
//    src/combinator/parser.cpp), and events count only for reads that produced a block; a reader
//    that looked at a marker and declined ("not mine") leaves no trace, so one grammar's
//    attempts on another's syntax do not blur the picture. A block counts under the
//    grammar its candidates name (as telemetry does: a variant grammar's calls may name
//    its family's grammar), else under the reader's;
//  - by run: a reader that runs a rule again at the same place (json_block's retry without
//    skipping) replaces the first attempt's counts, so only the path taken counts;
//  - by branch: besides each rule, the edge from its nearest named parent is counted
//    ("tag::block>tag::named_block" is a call written in the tag format's <tool name=…>
//    form), as PEGTL's coverage_entry::branches does.
// Rule events outside a read (phase two decoding a JSON-string argument) are not counted.
//
// Keys drop the `toolgram::grammar::` prefix and template arguments:
// "json_block::missing_end_tag", "literal_prefix_at_end".
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tao/pegtl/contrib/coverage.hpp>

#include "readers/candidate.hpp"
#include "common/rule_listener.hpp"

namespace toolgram::detail {

using RuleCount = tao::pegtl::coverage_info;  // start, success, failure, raise (unwind unused)

// What one grammar's blocks exercised, summed over blocks (and, in a report, over outputs).
struct GrammarRuleTally {
    std::size_t blocks = 0;
    std::map<std::string, RuleCount> rules;                  // events per rule or branch key
    std::map<std::string, std::size_t> blocks_with_success;  // blocks in which the key succeeded
    std::map<std::string, std::size_t> blocks_with_failure;  // blocks in which the key failed

    GrammarRuleTally& operator+=(const GrammarRuleTally& other);
};
using RuleTallies = std::map<std::string, GrammarRuleTally, std::less<>>;  // by grammar name

// "toolgram::grammar::json_block::end<…>" → "json_block::end".
std::string rule_key(std::string_view demangled);

class RuleCoverage final : public grammar::RuleListener {
public:
    void on_rule(std::string_view rule, grammar::RuleEvent event) override;

    void read_begin(std::string_view grammar);
    // `grammar`: the block's candidates' grammar when it differs from the reader's name.
    void read_end(bool produced_block, std::string_view grammar = {});
    void run_begin(const void* rule, std::size_t at);

    // What was counted since the last call, by grammar.
    RuleTallies take();

private:
    using Counts = std::unordered_map<std::size_t, RuleCount>;  // by key index

    std::size_t index_of(std::string_view demangled);
    std::size_t branch_index(std::size_t parent, std::size_t child);
    static void count(Counts& counts, std::size_t key, grammar::RuleEvent event);
    static void merge(Counts& into, const Counts& from);

    std::vector<std::string> keys_;
    std::unordered_map<const char*, std::size_t> by_pointer_;  // demangle() views are static
    std::unordered_map<std::string, std::size_t> by_key_;
    std::unordered_map<std::uint64_t, std::size_t> branches_;

    bool in_read_ = false;
    std::string grammar_;
    std::pair<const void*, std::size_t> last_run_{nullptr, 0};
    std::vector<std::size_t> stack_;  // named rules entered and not yet left
    Counts run_, read_;
    RuleTallies tallies_;
};

// The collector of the current thread; null outside a coverage run.
inline thread_local RuleCoverage* active_rule_coverage = nullptr;

// Installs `c` (as collector and as rule listener) for the current thread while it lives.
class RuleCoverageScope {
public:
    explicit RuleCoverageScope(RuleCoverage& c) : previous_(active_rule_coverage), listener_(grammar::rule_listener) {
        active_rule_coverage = &c;
        grammar::rule_listener = &c;
    }
    ~RuleCoverageScope() {
        active_rule_coverage = previous_;
        grammar::rule_listener = listener_;
    }
    RuleCoverageScope(const RuleCoverageScope&) = delete;
    RuleCoverageScope& operator=(const RuleCoverageScope&) = delete;

private:
    RuleCoverage* previous_;
    grammar::RuleListener* listener_;
};

// The hooks the combinator and run_rule_at call: a null test when no run is active.
inline void coverage_read_begin(std::string_view grammar) {
    if (RuleCoverage* c = active_rule_coverage) [[unlikely]]
        c->read_begin(grammar);
}
inline void coverage_read_end(const std::optional<Block>& block) {
    if (RuleCoverage* c = active_rule_coverage) [[unlikely]] {
        const bool named = block && !block->candidates.empty();
        c->read_end(block.has_value(), named ? std::string_view(block->candidates.front().grammar) : std::string_view{});
    }
}
inline void coverage_run_begin(const void* rule, std::size_t at) {
    if (RuleCoverage* c = active_rule_coverage) [[unlikely]]
        c->run_begin(rule, at);
}

}  // namespace toolgram::detail
