// A main for fuzz harnesses built without libFuzzer: runs LLVMFuzzerTestOneInput on every
// file under the folders given (recursively), so each harness runs its seeds under ctest
// with any compiler. No input found is a failure: a harness with no seeds proves nothing.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::size_t runs = 0;
    for (int i = 1; i < argc; ++i) {
        std::vector<fs::path> files;
        if (fs::is_directory(argv[i])) {
            for (const auto& e : fs::recursive_directory_iterator(argv[i]))
                if (e.is_regular_file()) files.push_back(e.path());
        } else if (fs::is_regular_file(argv[i])) {
            files.emplace_back(argv[i]);
        }
        for (const auto& f : files) {
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
