// The rule variants the coverage report names: the paths through a grammar that say how
// a model wrote its calls (a closer dropped or cut off, a wrapper left out, a fence, a
// lenient-JSON liberty). One row per rule or branch key of rule_coverage.hpp; the report
// shows, per model and grammar, the share of blocks that took each path. A rule not
// listed is still in the json report's "rules", and `--rules TEXT` lists any rule whose
// key contains TEXT.
//
// The paths of one grammar's own rules are in its record (GrammarDef::variants, beside
// its reader); this file adds those of the kits many grammars share, the closers before
// the grammars' own rows and the value readers' liberties after them, so a report lists
// each grammar's variants in that order.
//
// Keys are checked against the grammars by tests/unit/coverage_test.cpp, which parses
// outputs that take each path, so a renamed rule cannot leave a dead row behind.
#include "coverage/coverage.hpp"
#include "readers/grammar_def.hpp"

namespace toolgram::coverage {

const std::vector<Variant>& variant_table() {
    using E = VariantEvent;
    static const std::vector<Variant> table = [] {
        std::vector<Variant> out = {
            // Closers: JSON blocks (grammars/common/json_block.hpp, common/runtime_literal.hpp).
            {"json_block::missing_end_tag", E::success, "closer missing: the block ends at its payload"},
            {"json_block::end_cut_off", E::success, "closer cut off by the end of output (healed)"},
            {"literal_prefix_at_end", E::success, "closer cut mid-tag by the end of output (healed)"},
            {"skip_to_literal", E::success, "stray text before the closer (ignored)"},
            {"json_block::fenced_payload", E::success, "payload inside a ``` fence"},
            // Closers: named-parameter families (grammars/common/params.hpp).
            {"params::wrapper_close_missing", E::success, "wrapper closer missing"},
            {"params::wrapper_cut_off", E::success, "wrapper closer cut off by the end of output (healed)"},
            {"params::call_close_missing", E::success, "call closer left out before the next call"},
            {"params::call_cut_off", E::success, "call closer cut off by the end of output (healed)"},
            {"params::value_cut", E::success, "parameter value cut by the end of output"},
        };
        // Each grammar's own paths: closers, wrappers left out, forms of its syntax.
        for (const detail::GrammarDef* g : detail::all_grammars())
            for (const detail::RuleVariant& v : g->variants)
                out.push_back({v.key, v.on_failure ? E::failure : E::success, v.label});
        out.insert(out.end(), {
            // Gemma's call arguments (grammars/common/gemma_call.hpp).
            {"gemma_call::keyword_arguments", E::success, "Gemma arguments in parentheses, (key: value) or (key=value)"},
            // Liberties with JSON and Python values (lenient value reader, in any grammar).
            {"lenient::healed_end", E::success, "value cut with only closers missing (healed)"},
            {"lenient::sq_string", E::success, "single-quoted strings"},
            {"lenient::bare_key", E::success, "unquoted keys"},
            {"lenient::trailing_comma", E::success, "trailing comma"},
            {"lenient::comment", E::success, "comments inside JSON"},
            {"lenient::py_true", E::success, "Python True"},
            {"lenient::py_false", E::success, "Python False"},
            {"lenient::py_none", E::success, "Python None"},
            // Markup values (grammars/common/markup.hpp).
            {"markup::text_cut", E::success, "element text cut by the end of output"},
            {"markup::cdata", E::success, "CDATA section"},
        });
        return out;
    }();
    return table;
}

}  // namespace toolgram::coverage
