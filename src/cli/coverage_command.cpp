// `toolgram coverage INPUT…`: options, inputs, output file and exit codes; the report
// itself is src/coverage/coverage.cpp and src/coverage_render.cpp.
//
// Exit codes as for the other commands: 0 done, 2 usage, 3 an input (or OLD.json) that
// cannot be read or used, 4 (main.cpp) stdout lost. Lines or cases that cannot be used are
// listed in the report and the run goes on, then exits 3 so a script notices; a path that
// cannot be read stops it. Every file is read within a limit (bounded_read.hpp).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "io/bounded_read.hpp"
#include "coverage/coverage.hpp"
#include "value/json_document.hpp"
#include "jobs.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram::cli {

namespace {

constexpr int exit_usage = 2;
constexpr int exit_input = 3;

const char* help =
    "usage: toolgram coverage INPUT... [--format table|markdown|csv|json|html] [--output FILE]\n"
    "                         [--profile NAME | --profile-file FILE] [--tools TOOLS.json]\n"
    "                         [--model NAME] [--jobs N]\n"
    "                         [--diff OLD.json] [--rules TEXT]\n"
    "       toolgram coverage --merge REPORT.json... [--format ...] [--output FILE] [--diff OLD.json]\n"
    "\n"
    "Parses labelled model outputs and reports, per model and grammar: the outputs each grammar\n"
    "produced calls for (as primary or fallback), repairs and healing, schema failures, rejected\n"
    "tool names, tool syntax that gave no call, exact-call accuracy where an expectation is\n"
    "given, and the rule variants the outputs took (a closer dropped, a wrapper left out, ...).\n"
    "\n"
    "inputs:\n"
    "  FILE          JSONL, one output a line: {\"model\", \"text\", \"tools\"?, \"profile\"?,\n"
    "                \"settings\"?, \"id\"?, \"expect\": {\"calls\": [...]}?}\n"
    "  FOLDER        a corpus folder of CASE.txt (with CASE.expect.json, format of\n"
    "                tests/unit/corpus_test.cpp), labelled by the folder's name or the case's\n"
    "                \"model\"; or a folder of such folders, such as corpus/\n"
    "\n"
    "options:\n"
    "  --format F      table (default), markdown, csv, json (what --diff reads), html (one\n"
    "                  self-contained page with a models x grammars heatmap)\n"
    "  --output FILE   write the report to FILE instead of stdout\n"
    "  --profile NAME  profile for inputs that name none (default: auto; a corpus folder named\n"
    "                  after a profile uses that profile unless --profile is given; a case's\n"
    "                  \"profile_file\" names a profile file inside the case's folder)\n"
    "  --profile-file FILE  the same, with a profile file (docs/profile-files.md)\n"
    "  --tools FILE    tools for JSONL lines without \"tools\"\n"
    "  --model NAME    label for JSONL lines without \"model\"\n"
    "  --diff OLD.json compare with an earlier run's json report: list the outputs whose calls,\n"
    "                  content or error changed, and those only one run has\n"
    "  --rules TEXT    list every rule whose name contains TEXT, not the table of variants\n"
    "  --jobs N        parse on N threads (default: every core); the report is the same\n"
    "  --merge         the inputs are json reports (--format json) of parts of one evaluation\n"
    "                  set, run apart (shards, other machines): report them as one run. The\n"
    "                  merged report equals the report of all their inputs run together\n"
    "\n"
    "Exit codes: 0 done, 2 usage, 3 an input or OLD.json that cannot be read or used (a field of\n"
    "the wrong type, named; reports whose counts add up past 2^64 - 1 are refused, not wrapped; the report\n"
    "is still written when only some lines or cases were bad: a FIFO, folder or symlink loop\n"
    "where a case's file should be, a line or case longer than limits.max_input_bytes + 1 MiB,\n"
    "JSON nested deeper than 256 levels), 4 the report could not be written to stdout.\n";

struct Usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A JSON document named on the command line (--tools, --diff), read within `limit` by
// the bounded document reader. A FIFO is fine here (`--tools <(…)`): the user named it.
json read_document(const std::string& path, const char* what, const detail::ReadLimit& limit) {
    std::string text;
    try {
        text = detail::read_file(path, limit, detail::FileTypes::any_but_directory);
    } catch (const detail::ReadError& e) {
        throw coverage::InputFileError(std::string("cannot read ") + what + " " + path + ": " + e.reason);
    }
    detail::DocumentRead doc = detail::read_json_document(text);
    if (doc.error) throw coverage::InputFileError(std::string(what) + " " + path + ": " + doc.error->message);
    return std::move(doc.value);
}

int run(const std::vector<std::string>& args) {
    std::vector<std::string> inputs;
    std::string format = "table";
    std::optional<std::string> output, diff_path;
    std::string rules;
    bool merge = false;
    unsigned jobs = default_jobs();
    coverage::LoadOptions load;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* flag) -> std::string {
            if (i + 1 >= args.size()) throw Usage(std::string(flag) + " needs a value");
            return args[++i];
        };
        if (a == "--help" || a == "-h") {
            std::cout << help;
            return 0;
        } else if (a == "--format") format = value("--format");
        else if (a == "--output" || a == "-o") output = value("--output");
        else if (a == "--profile") load.profile = value("--profile");
        else if (a == "--profile-file") {
            const std::string path = value("--profile-file");
            try {
                load.profile_file = load_profile_file(path);
            } catch (const std::invalid_argument& e) {
                throw coverage::InputFileError(e.what());
            }
        }
        else if (a == "--tools") {
            const std::string path = value("--tools");
            const json tools = read_document(path, "tools file", detail::document_limit());
            try {
                load.tools = tools_from_json(tools);
            } catch (const std::exception& e) {
                throw coverage::InputFileError("tools file " + path + ": " + e.what());
            }
        } else if (a == "--model") load.model = value("--model");
        else if (a == "--diff") diff_path = value("--diff");
        else if (a == "--rules") rules = value("--rules");
        else if (a == "--merge") merge = true;
        else if (a == "--jobs" || a == "-j") {
            const auto n = parse_jobs(value("--jobs"));
            if (!n) throw Usage(jobs_refused(args[i]));
            jobs = *n;
        }
        else if (a.size() > 1 && a[0] == '-') throw Usage("unknown option " + a + " (see toolgram coverage --help)");
        else inputs.push_back(a);
    }
    if (inputs.empty()) throw Usage("no input given (a JSONL file or a corpus folder; see toolgram coverage --help)");
    if (!coverage::known_format(format))
        throw Usage("unknown format \"" + format + "\" (table, markdown, csv, json or html)");
    if (load.profile && load.profile_file) throw Usage("--profile and --profile-file both name a profile: give one");
    if (load.profile) {
        try {
            static_cast<void>(builtin_profile(*load.profile));  // only whether the name is known
        } catch (const std::invalid_argument& e) {
            throw Usage(e.what());
        }
    }
    // Read the old report first: a typo in its path should not cost a whole run.
    std::optional<json> old;
    if (diff_path) old = read_document(*diff_path, "earlier report", detail::report_limit());

    if (merge && (load.profile || load.profile_file || load.tools || load.model))
        throw Usage("--merge reads finished reports: --profile, --profile-file, --tools and --model do not apply");
    coverage::Report report;
    if (merge) {
        std::vector<coverage::Report> parts;
        for (const std::string& path : inputs) {
            const json doc = read_document(path, "report", detail::report_limit());
            try {
                parts.push_back(coverage::report_from_json(doc));
            } catch (const std::invalid_argument& e) {
                throw coverage::InputFileError(path + ": " + e.what());
            }
        }
        try {
            report = coverage::merge(std::move(parts));
        } catch (const std::invalid_argument& e) {
            throw coverage::InputFileError(e.what());  // counts that add up past what a count holds
        }
    } else {
        const coverage::Inputs in = coverage::load_inputs(inputs, load);
        report = coverage::run_coverage(in, jobs);
        report.inputs = inputs;
    }
    report.rule_filter = rules;
    if (old) {
        try {
            report.changes = coverage::diff(report, *old);
        } catch (const std::invalid_argument& e) {
            throw coverage::InputFileError(*diff_path + ": " + e.what());
        }
        report.diff_against = *diff_path;
    }

    const std::string text = coverage::render(report, format);

    if (output) {
        std::ofstream f(*output, std::ios::binary);
        if (!(f << text) || !f.flush())
            throw coverage::InputFileError("cannot write " + *output + ": " + std::strerror(errno));
    } else {
        std::cout << text;
    }
    if (!report.problems.empty()) {
        std::cerr << "toolgram: " << report.problems.size() << " input" << (report.problems.size() == 1 ? "" : "s")
                  << " could not be used";
        if (format == "table") std::cerr << " (listed in the report)\n";
        else {
            std::cerr << ":\n";
            for (const auto& p : report.problems) std::cerr << "  " << p.where << ": " << p.message << "\n";
        }
        return exit_input;
    }
    return 0;
}

}  // namespace

int coverage_command(const std::vector<std::string>& args) {
    try {
        return run(args);
    } catch (const Usage& e) {
        std::cerr << "toolgram: " << e.what() << "\n";
        return exit_usage;
    } catch (const coverage::InputFileError& e) {
        std::cerr << "toolgram: " << e.what() << "\n";
        return exit_input;
    }
}

}  // namespace toolgram::cli
