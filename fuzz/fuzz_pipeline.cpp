// Whole-pipeline harness: a profile with a tool list, on any bytes, with every oracle of
// fuzz_support.hpp (determinism, allow-list and schema, UTF-8 JSON out, content
// accounting). The profile is `auto` unless $TOOLGRAM_FUZZ_PROFILE names another
// built-in one or $TOOLGRAM_FUZZ_PROFILE_FILE a profile file, and the tools are
// corpus/tools.json unless $TOOLGRAM_FUZZ_TOOLS names an OpenAI tools file: that is how
// `scripts/fuzz PROFILE SECONDS [--tools FILE]` and `scripts/fuzz --profile-file FILE
// SECONDS` fuzz the parser a user actually runs.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"

namespace {

toolgram::Profile chosen_profile() {
    if (const char* file = std::getenv("TOOLGRAM_FUZZ_PROFILE_FILE"); file && *file) return toolgram_fuzz::profile_file();
    const char* name = std::getenv("TOOLGRAM_FUZZ_PROFILE");
    return toolgram::builtin_profile(name && *name ? name : "auto");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const toolgram::Parser parser(chosen_profile(), toolgram_fuzz::tools());
    toolgram_fuzz::check_parse(parser, std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
