// toolgram_hostile: the hostile-input benchmark. It generates (never stores) inputs built
// to hurt a parser, parses each at 1 MiB and at 8 MiB with every built-in profile, and
// prints Markdown tables of time, the 8 MiB / 1 MiB time ratio and peak memory. Linear
// time shows as a ratio near 8; a ratio far above 8 is a bug to fix in the library.
//
// Each measurement runs in a child process (fork): the child builds its input, notes its
// peak RSS, parses, and reports the time and the peak RSS grown by parsing (getrusage);
// the parent only collects numbers, so one case's memory never counts against another,
// and a crash or a hang (killed after --timeout seconds) is reported, not fatal.
//
//   toolgram_hostile [--profiles all|generic|NAME,NAME…] [--cases NAME,NAME…] [--full]
//                    [--timeout SECONDS] [--sizes SMALL,LARGE] [--stream CHUNK]
//
// --stream CHUNK streams each input through a StreamParser in CHUNK-byte pieces instead
// of parsing it whole (the time then includes finish's one-shot parse, the authority):
// the stream must be linear too, and within a small factor of the parse.
//
// A NAME ending in .json is a profile file (docs/profile-files.md), measured beside the
// built-in profiles: `--profiles hermes,docs/profiles/hermes.json`.
//
// --sizes (MiB, default 1,8) checks a suspect ratio at other sizes: a pass that is linear
// but memory-bound shows a ratio above 8 when 1 MiB fits the cache and 8 MiB does not,
// and about 2 between 8 and 16 MiB.
//
// Tables: every case for auto and the generic profiles; for the family profiles, per case,
// the worst ratio and the largest memory over all of them (each row with --full).
// The parsers run with the corpus tools and tool_required on (the gated fallbacks judge
// their candidates too), otherwise with each profile's default settings and limits.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "hostile_cases.hpp"
#include "toolgram/toolgram.hpp"

namespace {

using toolgram::json;
using namespace toolgram::bench;

struct Measure {
    bool ok = false;
    std::string failure;  // crashed / timed out
    double ms = 0;
    double parse_mb = 0;  // peak RSS grown by parsing
    double peak_mb = 0;   // the child's peak RSS
    std::size_t calls = 0, candidates = 0;
};

double maxrss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

Measure measure(const toolgram::Parser& parser, const Case& c, std::size_t size, int timeout_s, std::size_t chunk) {
    Measure m;
    int fds[2];
    if (pipe(fds) != 0) return m;
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const std::string input = c.make(parser.profile(), size);
        const double before = maxrss_mb();
        const auto t0 = std::chrono::steady_clock::now();
        toolgram::Result r;
        if (chunk == 0) {
            r = parser.parse(input);
        } else {
            toolgram::StreamParser stream(parser);
            for (std::size_t at = 0; at < input.size(); at += chunk) (void)stream.feed(std::string_view(input).substr(at, chunk));
            r = stream.finish().result;
        }
        const auto t1 = std::chrono::steady_clock::now();
        const double after = maxrss_mb();
        char line[256];
        const int len = std::snprintf(line, sizeof line, "%.3f %.1f %.1f %zu %zu\n",
                                      std::chrono::duration<double, std::milli>(t1 - t0).count(), after - before,
                                      after, r.calls.size(), r.telemetry.candidate_count);
        (void)!write(fds[1], line, static_cast<std::size_t>(len));
        _exit(0);
    }
    close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            close(fds[0]);
            m.failure = "timeout >" + std::to_string(timeout_s) + "s";
            return m;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    char buf[256] = {};
    const ssize_t got = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    if (WIFSIGNALED(status) || got <= 0) {
        m.failure = WIFSIGNALED(status) ? "crashed (signal " + std::to_string(WTERMSIG(status)) + ")" : "no result";
        return m;
    }
    std::istringstream in(buf);
    in >> m.ms >> m.parse_mb >> m.peak_mb >> m.calls >> m.candidates;
    m.ok = true;
    return m;
}

struct Row {
    std::string profile;
    const Case* c;
    Measure small, large;
    double ratio() const { return small.ok && large.ok ? large.ms / std::max(small.ms, 0.001) : 0; }
};

std::string fixed(double v, int digits) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", digits, v);
    return b;
}

std::string cell(const Measure& m) { return m.ok ? fixed(m.ms, 1) : m.failure; }

void print_rows(const std::vector<Row>& rows) {
    std::cout << "| case | profile | small ms | large ms | large/small ratio | parse RSS MB (large) | peak RSS MB | calls | candidates |\n"
              << "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& r : rows)
        std::cout << "| " << r.c->name << " | " << r.profile << " | " << cell(r.small) << " | " << cell(r.large) << " | "
                  << (r.ratio() > 0 ? fixed(r.ratio(), 1) : "-") << " | " << fixed(r.large.parse_mb, 1) << " | "
                  << fixed(r.large.peak_mb, 1) << " | " << r.large.calls << " | " << r.large.candidates << " |\n";
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::string which = "all", only_cases;
    bool full = false;
    int timeout_s = 120;
    std::size_t small_mib = 1, large_mib = 8;
    std::size_t chunk = 0;  // --stream: the chunk size; 0 parses whole
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--profiles" && i + 1 < argc) which = argv[++i];
        else if (a == "--cases" && i + 1 < argc) only_cases = argv[++i];
        else if (a == "--timeout" && i + 1 < argc) timeout_s = std::stoi(argv[++i]);
        else if (a == "--full") full = true;
        else if (a == "--stream" && i + 1 < argc) chunk = std::stoul(argv[++i]);
        else if (a == "--sizes" && i + 1 < argc) {
            const auto sizes = split(argv[++i]);
            if (sizes.size() != 2) return 2;
            small_mib = std::stoul(sizes[0]);
            large_mib = std::stoul(sizes[1]);
        }
        else {
            std::cerr << "usage: toolgram_hostile [--profiles all|generic|NAME,…] [--cases NAME,…] [--full] [--timeout S] "
                         "[--sizes SMALL,LARGE] [--stream CHUNK]\n";
            return 2;
        }
    }
    const std::vector<std::string> generic = {"auto", "tag", "marker", "json", "bracket", "xml", "text_kv"};
    std::vector<std::string> profiles;
    if (which == "all") profiles = toolgram::builtin_profile_names();
    else if (which == "generic") profiles = generic;
    else profiles = split(which);
    const auto wanted_cases = split(only_cases);
    const auto tools = toolgram::tools_from_json(json::parse(hostile_tools_json));

    std::vector<Row> generic_rows, family_rows;
    bool linear = true;
    for (const auto& c : cases()) {
        if (!wanted_cases.empty() && std::find(wanted_cases.begin(), wanted_cases.end(), c.name) == wanted_cases.end())
            continue;
        for (const auto& name : profiles) {
            // A NAME ending in .json is a profile file (its syntax read by the grammar `declared`).
            const bool file = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
            toolgram::Profile p = file ? toolgram::load_profile_file(name) : toolgram::builtin_profile(name);
            p.settings.tool_required = true;
            const toolgram::Parser parser(p, tools);
            Row r{file ? p.name + " (file)" : name, &c, measure(parser, c, small_mib * MiB, timeout_s, chunk),
                  measure(parser, c, large_mib * MiB, timeout_s, chunk)};
            std::cerr << c.name << " " << name << ": " << cell(r.small) << " / " << cell(r.large) << " ms\n";
            // Far above linear (twice it, allowing for noise and cache effects) is not linear.
            const double linear_ratio = static_cast<double>(large_mib) / static_cast<double>(small_mib);
            if (!r.small.ok || !r.large.ok || (r.ratio() > 2 * linear_ratio && r.large.ms > 50)) linear = false;
            (std::find(generic.begin(), generic.end(), name) != generic.end() ? generic_rows : family_rows).push_back(r);
        }
    }

    std::cout << "## Hostile input: auto and the generic profiles\n\n";
    print_rows(generic_rows);
    if (!family_rows.empty()) {
        if (full) {
            std::cout << "\n## Hostile input: family profiles\n\n";
            print_rows(family_rows);
        } else {
            std::cout << "\n## Hostile input: family profiles, worst per case\n\n"
                      << "| case | profiles | worst ratio (profile) | slowest large ms (profile) | largest parse RSS MB "
                         "(profile) |\n|---|---:|---:|---:|---:|\n";
            for (const auto& c : cases()) {
                const Row *worst = nullptr, *slowest = nullptr, *fattest = nullptr;
                std::size_t n = 0;
                for (const auto& r : family_rows) {
                    if (r.c != &c) continue;
                    ++n;
                    if (!worst || r.ratio() > worst->ratio()) worst = &r;
                    if (!slowest || r.large.ms > slowest->large.ms) slowest = &r;
                    if (!fattest || r.large.parse_mb > fattest->large.parse_mb) fattest = &r;
                }
                if (!n) continue;
                std::cout << "| " << c.name << " | " << n << " | " << fixed(worst->ratio(), 1) << " (" << worst->profile
                          << ") | " << cell(slowest->large) << " (" << slowest->profile << ") | "
                          << fixed(fattest->large.parse_mb, 1) << " (" << fattest->profile << ") |\n";
            }
            bool failed = false;
            for (const auto& r : family_rows) failed = failed || !r.small.ok || !r.large.ok;
            if (failed) {
                std::cout << "\nFailures:\n";
                for (const auto& r : family_rows)
                    if (!r.small.ok || !r.large.ok)
                        std::cout << "- " << r.c->name << " / " << r.profile << ": " << cell(r.small) << ", " << cell(r.large) << "\n";
            }
        }
    }
    std::cout << "\nCases:\n";
    for (const auto& c : cases()) std::cout << "- `" << c.name << "`: " << c.what << "\n";
    std::cout << "\nSizes: " << small_mib << " MiB and " << large_mib << " MiB"
              << (chunk ? ", streamed in chunks of " + std::to_string(chunk) + " bytes" : std::string(", parsed whole"))
              << ".\n";
    std::cout << (linear ? "\nAll cases linear (ratio at most twice the size ratio where the large input takes over 50 ms).\n"
                         : "\nNOT LINEAR or FAILED: see the rows above.\n");
    return linear ? 0 : 1;
}
