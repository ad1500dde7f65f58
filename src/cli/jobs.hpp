// `--jobs N` for the commands that parse many outputs (`parse --jsonl`, `coverage`): the
// default (every core) and the reading of the flag. Results never depend on N: each
// command keeps its output in input order (see run_jsonl and coverage::run_coverage).
#pragma once

#include <optional>
#include <string>
#include <thread>

namespace toolgram::cli {

constexpr unsigned max_jobs = 1024;

inline unsigned default_jobs() {
    const unsigned n = std::thread::hardware_concurrency();  // 0 when it cannot tell
    return n == 0 ? 1 : n < max_jobs ? n : max_jobs;
}

// What a usage error says of a --jobs value parse_jobs refused.
inline std::string jobs_refused(const std::string& v) {
    return "--jobs needs a whole number from 1 to " + std::to_string(max_jobs) + ", got \"" + v + "\"";
}

// A whole number from 1 to max_jobs, or nothing (the caller reports jobs_refused).
inline std::optional<unsigned> parse_jobs(const std::string& v) {
    if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const unsigned n = static_cast<unsigned>(std::stoul(v));
    if (n < 1 || n > max_jobs) return std::nullopt;
    return n;
}

}  // namespace toolgram::cli
