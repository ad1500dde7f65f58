// Running the built CLI from a test: its exit code, standard output and standard error,
// under a time limit so that a hang fails the test instead of stopping the suite. For
// the tests of the command line (cli_test, coverage_test, hostile_files_test), which
// define TOOLGRAM_CLI as the CLI's path.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "test_files.hpp"

#ifndef TOOLGRAM_CLI
#error "TOOLGRAM_CLI (the path of the built CLI) must be defined for this test"
#endif

namespace toolgram_test {

// `s` as one word of a POSIX shell command.
inline std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

struct Run {
    int exit_code = -1;  // 124: the time limit ended it (a hang); -1: a signal did
    std::string out;
    std::string err;
};

// Runs the CLI with already-quoted arguments (and optional shell redirections), with
// stdout captured unless the arguments redirect it and stderr read from a file in
// `scratch`; `before` is shell text run first (a writer started in the background).
inline Run run_cli(const Scratch& scratch, const std::string& args, int seconds = 60, const std::string& before = "") {
    const std::string err_path = scratch.path("stderr.txt");
    const std::string command = before + "timeout " + std::to_string(seconds) + " " + shell_quote(TOOLGRAM_CLI) + " " +
                                args + " 2>" + shell_quote(err_path);
    Run r;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[65536];
    std::size_t n = 0;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
    const int status = pclose(pipe);
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    r.err = slurp(err_path);
    return r;
}

// The lines of `text`, without their line breaks.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) out.push_back(line);
    return out;
}

}  // namespace toolgram_test
