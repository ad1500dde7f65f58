// Packaging check: a consumer that only sees the installed headers and library (or the
// add_subdirectory() target) parses one tag-style call. Exit code 0 means the package
// works end to end; anything else prints what it got instead.
#include <toolgram/toolgram.hpp>

#include <exception>
#include <iostream>

int main() try {
    toolgram::Parser parser(toolgram::builtin_profile("tag"));
    const toolgram::Result result = parser.parse(
        R"([TOOL_CALL]{"name":"get_weather","arguments":{"city":"Antwerp"}}[/TOOL_CALL])");

    bool ok = result.calls.size() == 1 && result.calls[0].name == "get_weather";
    if (ok) {
        const toolgram::json& arguments = result.calls[0].arguments;
        const auto city = arguments.find("city");
        ok = arguments.is_object() && city != arguments.end() && *city == "Antwerp";
    }
    if (!ok) {
        std::cerr << "toolgram consumer: unexpected result:\n"
                  << toolgram::to_json(result).dump(2) << '\n';
        return 1;
    }
    std::cout << "toolgram consumer: ok\n";
    return 0;
} catch (const std::exception& e) {
    std::cerr << "toolgram consumer: exception: " << e.what() << '\n';
    return 1;
}
