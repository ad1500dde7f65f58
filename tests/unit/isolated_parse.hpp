// Runs Parser::parse in a forked child and brings its result back as JSON, so a test
// can assert "never a crash" on hostile input: a crash becomes a failed assertion in
// that one test instead of ending the whole test run. POSIX only (the project targets
// Debian).
#pragma once

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string>
#include <string_view>

#include "toolgram/toolgram.hpp"

namespace toolgram_test {

struct IsolatedParse {
    bool exited_normally = false;  // false: the child died (signal) or could not run
    int signal = 0;                // the signal that ended the child, when it died
    toolgram::json result;         // to_json(result) when the child finished
};

inline IsolatedParse parse_isolated(const toolgram::Parser& parser, std::string_view text) {
    IsolatedParse out;
    int fds[2];
    if (pipe(fds) != 0) return out;
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return out;
    }
    if (pid == 0) {
        close(fds[0]);
        const std::string s = toolgram::to_json(parser.parse(text)).dump(-1, ' ', false,
                                                                        toolgram::json::error_handler_t::replace);
        std::size_t done = 0;
        while (done < s.size()) {
            const ssize_t n = write(fds[1], s.data() + done, s.size() - done);
            if (n <= 0) _exit(2);
            done += static_cast<std::size_t>(n);
        }
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    std::string buffer;
    char chunk[4096];
    for (;;) {
        const ssize_t n = read(fds[0], chunk, sizeof chunk);
        if (n <= 0) break;
        buffer.append(chunk, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        out.signal = WTERMSIG(status);
        return out;
    }
    out.exited_normally = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (out.exited_normally) out.result = toolgram::json::parse(buffer, nullptr, false);
    return out;
}

}  // namespace toolgram_test
