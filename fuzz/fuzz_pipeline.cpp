// Whole-pipeline harness: the `auto` profile with a tool list, on any bytes.
//
// Oracles (abort on violation): the same input parses to the same result twice; every
// call names a declared tool and its arguments pass that tool's schema; the result dumps
// to valid UTF-8 JSON that parses back to the same value. Sanitizers catch the rest.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "toolgram/toolgram.hpp"
#include "toolset.hpp"

namespace {

using toolgram::json;

const std::vector<toolgram::Tool>& tools() {
    static const std::vector<toolgram::Tool> t = toolgram::tools_from_json(json::parse(R"([
      {"name": "get_weather", "parameters": {"type": "object", "properties": {
         "city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}}, "required": ["city"]}},
      {"name": "search_web", "parameters": {"type": "object", "properties": {
         "query": {"type": "string"}, "safe": {"type": "boolean"}}, "required": ["query"]}}
    ])"));
    return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const toolgram::Parser parser(toolgram::builtin_profile("auto"), tools());
    static const toolgram::detail::ToolSet toolset(tools());
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    const toolgram::Result first = parser.parse(text);
    const toolgram::Result second = parser.parse(text);
    const json a = toolgram::to_json(first);
    if (a != toolgram::to_json(second)) std::abort();

    for (const auto& call : first.calls) {
        const auto res = toolset.resolve(call.name);
        if (res.index < 0) std::abort();
        if (toolset.tool(res.index).name != call.name) std::abort();
        if (!toolset.validate(res.index, call.arguments, false).pass) std::abort();
    }

    const std::string dumped = a.dump(-1, ' ', false, json::error_handler_t::replace);
    const json back = json::parse(dumped, nullptr, false);
    if (back.is_discarded()) std::abort();
    return 0;
}
