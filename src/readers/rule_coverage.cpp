// The rule-coverage collector (see rule_coverage.hpp): event counting per run, per read,
// per grammar, with rule names turned into short keys once per rule type.
#include "readers/rule_coverage.hpp"

namespace toolgram::detail {

namespace {

void add(RuleCount& into, const RuleCount& from) {
    into.start += from.start;
    into.success += from.success;
    into.failure += from.failure;
    into.unwind += from.unwind;
    into.raise += from.raise;
}

}  // namespace

GrammarRuleTally& GrammarRuleTally::operator+=(const GrammarRuleTally& other) {
    blocks += other.blocks;
    for (const auto& [k, v] : other.rules) add(rules[k], v);
    for (const auto& [k, v] : other.blocks_with_success) blocks_with_success[k] += v;
    for (const auto& [k, v] : other.blocks_with_failure) blocks_with_failure[k] += v;
    return *this;
}

std::string rule_key(std::string_view demangled) {
    constexpr std::string_view prefix = "toolgram::grammar::";
    if (demangled.substr(0, prefix.size()) == prefix) demangled.remove_prefix(prefix.size());
    if (const auto lt = demangled.find('<'); lt != std::string_view::npos) demangled = demangled.substr(0, lt);
    return std::string(demangled);
}

std::size_t RuleCoverage::index_of(std::string_view demangled) {
    if (auto it = by_pointer_.find(demangled.data()); it != by_pointer_.end()) return it->second;
    // Two views of one name may differ in address (one copy per translation unit), and
    // instantiations of one template share a key: both resolve through the key map.
    std::string key = rule_key(demangled);
    auto [it, inserted] = by_key_.try_emplace(key, keys_.size());
    if (inserted) keys_.push_back(std::move(key));
    by_pointer_.emplace(demangled.data(), it->second);
    return it->second;
}

std::size_t RuleCoverage::branch_index(std::size_t parent, std::size_t child) {
    const std::uint64_t id = (static_cast<std::uint64_t>(parent) << 32) | static_cast<std::uint32_t>(child);
    if (auto it = branches_.find(id); it != branches_.end()) return it->second;
    std::string key = keys_[parent] + ">" + keys_[child];
    auto [k, inserted] = by_key_.try_emplace(key, keys_.size());
    if (inserted) keys_.push_back(std::move(key));
    branches_.emplace(id, k->second);
    return k->second;
}

void RuleCoverage::count(Counts& counts, std::size_t key, grammar::RuleEvent event) {
    RuleCount& c = counts[key];
    switch (event) {
        case grammar::RuleEvent::start: ++c.start; break;
        case grammar::RuleEvent::success: ++c.success; break;
        case grammar::RuleEvent::failure: ++c.failure; break;
        case grammar::RuleEvent::raise: ++c.raise; break;
    }
}

void RuleCoverage::merge(Counts& into, const Counts& from) {
    for (const auto& [k, v] : from) add(into[k], v);
}

void RuleCoverage::on_rule(std::string_view rule, grammar::RuleEvent event) {
    if (!in_read_) return;
    const std::size_t key = index_of(rule);
    using grammar::RuleEvent;
    if (event == RuleEvent::success || event == RuleEvent::failure) {
        // Leaving the rule: it is the top of the stack unless a raise unwound past it.
        if (!stack_.empty() && stack_.back() == key) stack_.pop_back();
    }
    count(run_, key, event);
    if (!stack_.empty()) count(run_, branch_index(stack_.back(), key), event);
    if (event == RuleEvent::start) stack_.push_back(key);
}

void RuleCoverage::read_begin(std::string_view grammar) {
    in_read_ = true;
    grammar_.assign(grammar);
    last_run_ = {nullptr, 0};
    stack_.clear();
    run_.clear();
    read_.clear();
}

void RuleCoverage::run_begin(const void* rule, std::size_t at) {
    if (!in_read_) return;
    const std::pair<const void*, std::size_t> run{rule, at};
    if (run != last_run_) merge(read_, run_);  // else: a retry, which replaces the last run
    run_.clear();
    stack_.clear();  // a run that raised left its rules entered
    last_run_ = run;
}

void RuleCoverage::read_end(bool produced_block, std::string_view grammar) {
    if (!in_read_) return;
    in_read_ = false;
    merge(read_, run_);
    run_.clear();
    if (!produced_block) return;
    if (!grammar.empty()) grammar_.assign(grammar);
    GrammarRuleTally& t = tallies_[grammar_];
    ++t.blocks;
    for (const auto& [k, v] : read_) {
        const std::string& key = keys_[k];
        add(t.rules[key], v);
        if (v.success) ++t.blocks_with_success[key];
        if (v.failure) ++t.blocks_with_failure[key];
    }
    read_.clear();
}

RuleTallies RuleCoverage::take() {
    RuleTallies out;
    out.swap(tallies_);
    return out;
}

}  // namespace toolgram::detail
