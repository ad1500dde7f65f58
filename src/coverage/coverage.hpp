// `toolgram coverage`: how each model's outputs fare with each grammar.
//
// Inputs are labelled model outputs (JSONL lines, or corpus folders of CASE.txt with
// CASE.expect.json); each is parsed with its profile while a rule-coverage collector
// listens (rule_coverage.hpp). The report aggregates, per model and grammar, the Result
// telemetry (calls, primary or fallback, repairs, healing, schema failures, rejected
// names, tool syntax without a call), exact-call accuracy where an expectation is given,
// and the rule variants the outputs exercised. It renders as a terminal table, Markdown,
// CSV, JSON (which `--diff` reads back) and one self-contained HTML page.
//
// Data flows one way: inputs → samples → parse → per-output records → per-model rows →
// renderers. Nothing here changes how anything parses.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "readers/rule_coverage.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::coverage {

// ---------------------------------------------------------------------------------------
// Inputs.

struct Sample {
    std::string id;       // unique in a run: the line's "id", FILE:LINE, or FOLDER/CASE
    std::string model;    // the label the report groups by
    Profile profile;
    std::optional<std::vector<Tool>> tools;  // none: no tool list (names as written, nothing validated)
    std::string text;
    std::optional<json> expect_calls;  // [{"name", "arguments", "id"?}], ids not compared
};

// A line or case that could not be used, with where and why; the run goes on.
struct InputProblem {
    std::string where;
    std::string message;
};

struct Inputs {
    std::vector<Sample> samples;
    std::vector<InputProblem> problems;
};

struct LoadOptions {
    std::optional<std::string> profile;             // --profile: beats a folder's own profile
    std::optional<Profile> profile_file;            // --profile-file: the same, from a profile file
    std::optional<std::vector<Tool>> tools;         // --tools: for JSONL lines without "tools"
    std::optional<std::string> model;               // --model: label for unlabelled lines
};

// A path that cannot be read at all, or holds nothing to read: the run stops.
struct InputFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Each path is a JSONL file, a corpus folder (CASE.txt files), or a folder of corpus
// folders (such as corpus/). A bad line or case becomes a problem, not a stop.
Inputs load_inputs(const std::vector<std::string>& paths, const LoadOptions& options);
// The same from records in memory (an array of JSONL lines' objects, as from Python):
// a record that cannot be used is a problem at "records[I]", and its id when it has none.
Inputs load_records(const json& records, const LoadOptions& options);

// ---------------------------------------------------------------------------------------
// The report.

struct GrammarCell {
    std::size_t outputs = 0;          // outputs in which the grammar produced a call
    std::size_t primary = 0, fallback = 0;  // of those, by the role the grammar ran in
    std::size_t calls = 0;            // accepted calls
    std::size_t repaired = 0;         // accepted calls that needed any repair
    std::size_t healed = 0;           // accepted calls healed after truncation
    std::size_t candidates = 0;       // candidates the grammar found
    std::size_t schema_failures = 0;  // candidates whose arguments failed the schema
    std::size_t rejected = 0;         // candidates rejected, for any reason
    std::size_t name_rejections = 0;  // candidates rejected because the name is no tool
    std::size_t syntax_no_call = 0;   // outputs whose tool syntax (first found by this grammar) gave no call
    std::size_t expected = 0, exact = 0;  // outputs attributed to the grammar that had an expectation
    std::map<std::string, std::size_t> rejected_names;  // as the model wrote them
    std::map<std::string, std::size_t> repairs;         // repair → accepted calls
    detail::GrammarRuleTally rules;
};

struct ModelRow {
    std::string model;
    std::size_t outputs = 0;
    std::size_t with_calls = 0;
    std::size_t syntax_no_call = 0;
    std::size_t no_syntax = 0;
    std::size_t expected = 0, exact = 0;
    std::map<std::string, GrammarCell> grammars;
};

struct OutputRecord {
    std::string id, model, profile;
    std::string grammar, parse_mode;
    json calls = json::array();  // [{"name", "arguments"}]
    std::string content;
    std::optional<std::string> error;
    json rejected = json::array();  // [{"name", "grammar", "reason"}]
    bool saw_tool_syntax = false;
    std::optional<bool> exact;
    std::map<std::string, std::vector<std::string>> variants;  // grammar → variant keys exercised
};

// An output whose result differs from the previous run's (--diff), or that only one run has.
struct Change {
    std::string id, model;
    std::string kind;                 // changed | added | removed
    std::vector<std::string> fields;  // of calls, content, error
    json before = nullptr, after = nullptr;  // {"grammar", "calls", "content", "error"}
};

struct Report {
    std::vector<std::string> inputs;
    std::vector<ModelRow> models;   // in order of first appearance
    std::vector<OutputRecord> outputs;
    std::vector<InputProblem> problems;
    std::optional<std::vector<Change>> changes;
    std::optional<std::string> diff_against;
    std::string rule_filter;        // --rules: list rules whose key contains it, not the variant table
};

// `jobs` threads parse the samples side by side (each with its own parsers and rule
// collector); the report is the same, byte for byte, whatever the number.
Report run_coverage(const Inputs& inputs, unsigned jobs = 1);

// The report of several runs' inputs taken together, from the reports of each (shards of an
// evaluation set, run on other cores or machines): inputs, outputs and problems in the
// order given, each model's counts and rule tallies summed, models in order of first
// appearance. Merging the reports of a split equals the report of the whole run, except
// `changes` (--diff), which is not merged. An output id met twice gets "#2" as load_inputs
// gives it. Throws std::invalid_argument naming the count when a sum would pass 2^64 - 1.
Report merge(std::vector<Report> parts);
// A report's json form (to_json) read back. Throws std::invalid_argument naming the field
// that is missing or ill-typed ("models[0].grammars[1].calls: not a count").
Report report_from_json(const json& doc);

// Exact-call equality: same number of calls, in order, same names and arguments
// (arguments compared as JSON values, key order ignored); ids are not compared.
bool same_calls(const json& got, const json& want);

// ---------------------------------------------------------------------------------------
// Rule variants that matter, by key (rule_coverage.hpp), each with what it means.

enum class VariantEvent { success, failure };
struct Variant {
    std::string_view key;    // "json_block::missing_end_tag", "tag::block>tag::named_block"
    VariantEvent event;      // counted when the rule (or branch) succeeded, or failed
    std::string_view label;  // for people
};
const std::vector<Variant>& variant_table();

struct VariantShare {
    std::string key, label;
    std::size_t blocks = 0;  // blocks that exercised it
    std::size_t of = 0;      // blocks the grammar read in this model's outputs
};
// The variants a cell exercised (table order), or, with a filter, every rule key that
// contains it (succeeded in any block).
std::vector<VariantShare> variants_of(const GrammarCell& cell, std::string_view filter = {});

// ---------------------------------------------------------------------------------------
// Output.

json to_json(const Report& report);
// Throws std::invalid_argument when `old` is not a coverage report in the json format.
std::vector<Change> diff(const Report& now, const json& old);

std::string render_table(const Report& report);
std::string render_markdown(const Report& report);
std::string render_csv(const Report& report);
const std::vector<std::string>& csv_columns();  // the header of render_csv without --diff
std::string render_html(const Report& report);
// The report in a format named as `--format` names it: table, markdown, csv, json (what
// --diff and --merge read) or html. Empty for another name; known_format says which are.
std::string render(const Report& report, std::string_view format);
bool known_format(std::string_view format);

// The grammars that appear in the report, ordered so the models × grammars matrix reads
// along its diagonal: each model's grammars by outputs, in model order.
std::vector<std::string> grammar_columns(const Report& report);

}  // namespace toolgram::coverage
