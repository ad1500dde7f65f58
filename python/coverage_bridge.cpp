// The coverage side of the Python module (see coverage_bridge.hpp): src/coverage/coverage.hpp's
// functions, wrapped so that bindings.cpp never includes PEGTL.
#include "coverage_bridge.hpp"

#include "coverage/coverage.hpp"

namespace toolgram::python {

namespace {

coverage::LoadOptions load_options(const CoverageOptions& o) {
    coverage::LoadOptions load;
    load.profile = o.profile;
    load.profile_file = o.profile_file;
    load.tools = o.tools;
    load.model = o.model;
    return load;
}

}  // namespace

ReportPtr coverage_of_paths(const std::vector<std::string>& paths, const CoverageOptions& options) {
    coverage::Inputs in;
    try {
        in = coverage::load_inputs(paths, load_options(options));
    } catch (const coverage::InputFileError& e) {
        throw CoverageInputError(e.what());
    }
    auto report = std::make_shared<coverage::Report>(coverage::run_coverage(in, options.jobs));
    report->inputs = paths;
    return report;
}

ReportPtr coverage_of_records(const json& records, const CoverageOptions& options) {
    const coverage::Inputs in = coverage::load_records(records, load_options(options));
    auto report = std::make_shared<coverage::Report>(coverage::run_coverage(in, options.jobs));
    report->inputs = {"records"};
    return report;
}

ReportPtr report_from_json(const json& doc) { return std::make_shared<coverage::Report>(coverage::report_from_json(doc)); }

ReportPtr merge(const std::vector<ReportPtr>& reports) {
    std::vector<coverage::Report> parts;
    parts.reserve(reports.size());
    for (const auto& r : reports) parts.push_back(*r);
    return std::make_shared<coverage::Report>(coverage::merge(std::move(parts)));
}

json report_json(const ReportPtr& report) { return coverage::to_json(*report); }

std::string render(const ReportPtr& report, const std::string& format) {
    if (coverage::known_format(format)) return coverage::render(*report, format);
    throw std::invalid_argument("unknown format \"" + format + "\" (table, markdown, csv, json or html)");
}

std::size_t output_count(const ReportPtr& report) { return report->outputs.size(); }

std::vector<std::pair<std::string, std::string>> problems(const ReportPtr& report) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : report->problems) out.emplace_back(p.where, p.message);
    return out;
}

}  // namespace toolgram::python
