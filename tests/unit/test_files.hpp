// Files for the tests: a file's bytes (slurp), and a scratch directory that is removed
// with everything in it when the test ends (Scratch), for tests that write the files a
// command or the library reads: tool lists, profile files, reports, links and FIFOs.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace toolgram_test {

namespace fs = std::filesystem;

inline std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// A directory of its own under the system's temporary directory (named for the process
// and a count, so tests running side by side never share one).
class Scratch {
public:
    Scratch() {
        static std::atomic<int> counter{0};
        dir_ = fs::temp_directory_path() /
               ("toolgram_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
        fs::create_directories(dir_);
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

    // Writes `content` to `name` (a path under the directory; its folders are made).
    std::string write(const std::string& name, const std::string& content) const {
        const fs::path p = dir_ / name;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << content;
        return p.string();
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    std::string symlink(const std::string& name, const std::string& target) const {
        fs::create_directories((dir_ / name).parent_path());
        fs::create_symlink(target, dir_ / name);
        return path(name);
    }
    std::string fifo(const std::string& name) const {
        fs::create_directories((dir_ / name).parent_path());
        if (mkfifo(path(name).c_str(), 0600) != 0)  // a test fails on the exception
            throw std::system_error(errno, std::generic_category(), "mkfifo " + path(name));
        return path(name);
    }

private:
    fs::path dir_;
};

}  // namespace toolgram_test
