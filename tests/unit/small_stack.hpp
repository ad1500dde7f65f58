// Runs a piece of test code on a thread with a small stack, in a forked child: a test can
// then assert that something (a copy, a dump, a comparison of a deep JSON value) fits in
// the stack a server's worker thread might have, and a stack overflow becomes a failed
// assertion in that one test instead of ending the whole test run. POSIX only.
#pragma once

#include <pthread.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <functional>

namespace toolgram_test {

struct ChildOutcome {
    bool exited = false;  // false: the child died of a signal (or could not be started)
    int code = -1;        // its exit code: what `body` returned
    int signal = 0;       // the signal that ended it
};

// `body` runs on a pthread whose stack is `stack_bytes`, in a child process; what it
// returns (0 for success, another small number naming the step that failed) becomes the
// child's exit code. Catch2's assertions do not work inside `body`: return a code instead.
inline ChildOutcome run_on_small_stack(std::size_t stack_bytes, const std::function<int()>& body) {
    ChildOutcome out;
    const pid_t pid = fork();
    if (pid < 0) return out;
    if (pid == 0) {
        struct Job {
            const std::function<int()>* body;
            int result = 125;
        } job{&body};
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        if (pthread_attr_setstacksize(&attr, stack_bytes) != 0) _exit(126);
        pthread_t thread;
        auto trampoline = [](void* p) -> void* {
            auto* j = static_cast<Job*>(p);
            try {
                j->result = (*j->body)();
            } catch (...) {
                j->result = 124;
            }
            return nullptr;
        };
        if (pthread_create(&thread, &attr, trampoline, &job) != 0) _exit(127);
        pthread_join(thread, nullptr);
        _exit(job.result);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        out.signal = WTERMSIG(status);
        return out;
    }
    out.exited = WIFEXITED(status);
    out.code = WEXITSTATUS(status);
    return out;
}

}  // namespace toolgram_test
