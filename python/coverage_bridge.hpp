// Coverage reports for the Python module, behind a header with no PEGTL in it: the
// report's rule tallies come from PEGTL's coverage types, and Python.h declares a global
// `digit` that PEGTL's grammars cannot then tell from their own. bindings.cpp sees a
// report only as an opaque, shared, immutable handle.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram::coverage {
struct Report;
}

namespace toolgram::python {

using ReportPtr = std::shared_ptr<const coverage::Report>;

struct CoverageOptions {
    std::optional<std::string> profile;
    std::optional<Profile> profile_file;
    std::optional<std::vector<Tool>> tools;
    std::optional<std::string> model;
    unsigned jobs = 1;
};

// Thrown when an input path cannot be read at all (the CLI's exit 3).
struct CoverageInputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

ReportPtr coverage_of_paths(const std::vector<std::string>& paths, const CoverageOptions& options);
ReportPtr coverage_of_records(const json& records, const CoverageOptions& options);
// Throws std::invalid_argument naming the field, as `toolgram coverage --merge` does.
ReportPtr report_from_json(const json& doc);
ReportPtr merge(const std::vector<ReportPtr>& reports);

json report_json(const ReportPtr& report);
// table, markdown, csv, json or html; throws std::invalid_argument for another name.
std::string render(const ReportPtr& report, const std::string& format);
std::size_t output_count(const ReportPtr& report);
std::vector<std::pair<std::string, std::string>> problems(const ReportPtr& report);  // where, message

}  // namespace toolgram::python
