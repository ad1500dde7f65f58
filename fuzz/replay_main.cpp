// A main for fuzz harnesses built without libFuzzer: runs LLVMFuzzerTestOneInput on every
// file under the folders given (recursively, in sorted order), so each harness runs its
// seeds under ctest with any compiler. No input found is a failure: a harness with no
// seeds proves nothing. When an input crashes the harness (an oracle's abort(), a
// sanitizer, a signal), the file's path is printed first, so the log names the reproducer.
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// The path of the input being run, for the crash handler (which may only write(2)).
char current[4096] = "";

extern "C" void on_crash(int sig) {
    static const char head[] = "\n==toolgram-replay== crashed on input: ";
    (void)!write(STDERR_FILENO, head, sizeof head - 1);
    (void)!write(STDERR_FILENO, current, std::strlen(current));
    (void)!write(STDERR_FILENO, "\n", 1);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

}  // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_crash);
    std::size_t runs = 0;
    for (int i = 1; i < argc; ++i) {
        std::vector<fs::path> files;
        if (fs::is_directory(argv[i])) {
            for (const auto& e : fs::recursive_directory_iterator(argv[i]))
                if (e.is_regular_file()) files.push_back(e.path());
        } else if (fs::is_regular_file(argv[i])) {
            files.emplace_back(argv[i]);
        }
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            std::snprintf(current, sizeof current, "%s", f.c_str());
            std::ifstream in(f, std::ios::binary);
            const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
            ++runs;
        }
    }
    std::printf("replayed %zu inputs\n", runs);
    if (runs == 0) {
        std::fprintf(stderr, "no inputs found: a harness without seeds tests nothing\n");
        return 1;
    }
    return 0;
}
