// Stream vs one-shot harness: any bytes, any profile, any chunking.
//
// The first byte picks the profile (every built-in one, `auto` included, and every shipped
// profile file), the second how
// reasoning starts, the third and fourth a chunking (chunk lengths cycle through the
// low bits of those bytes, so one-byte chunks and cuts inside markers both occur); the
// rest is the model output. Oracles (abort on violation): the stream's final result is
// the one-shot result; its content and reasoning deltas concatenate to the result's;
// every call begins before its arguments and ends once, with the argument deltas since
// its begin equal to its arguments JSON; the accepted calls, in order, are the result's;
// every event's JSON is valid UTF-8 (a delta never ends inside a character).
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"

namespace {

using toolgram::json;
using Kind = toolgram::StreamEvent::Kind;

const std::vector<toolgram::Tool>& tools() {
    static const std::vector<toolgram::Tool> t = toolgram::tools_from_json(json::parse(R"([
      {"name": "get_weather", "parameters": {"type": "object", "properties": {
         "city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}}, "required": ["city"]}},
      {"name": "search_web", "parameters": {"type": "object", "properties": {
         "query": {"type": "string"}, "safe": {"type": "boolean"}}, "required": ["query"]}}
    ])"));
    return t;
}

const std::vector<toolgram::Parser>& parsers(toolgram::ReasoningStart start) {
    static std::vector<toolgram::Parser> by_start[3];
    auto& list = by_start[static_cast<int>(start)];
    if (list.empty()) {
        for (const auto& name : toolgram::builtin_profile_names()) {
            toolgram::Profile p = toolgram::builtin_profile(name);
            p.settings.reasoning_start = start;
            list.emplace_back(std::move(p), tools());
        }
        for (toolgram::Profile p : toolgram_fuzz::shipped_profile_files()) {
            p.settings.reasoning_start = start;
            list.emplace_back(std::move(p), tools());
        }
    }
    return list;
}

std::string args_text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return 0;
    const auto start = static_cast<toolgram::ReasoningStart>(data[1] % 3);
    const auto& list = parsers(start);
    const toolgram::Parser& parser = list[data[0] % list.size()];
    const std::uint8_t shape[2] = {data[2], data[3]};
    const std::string_view text(reinterpret_cast<const char*>(data) + 4, size - 4);

    const toolgram::Result want = parser.parse(text);

    toolgram::StreamParser sp(parser);
    std::vector<toolgram::StreamEvent> events;
    std::size_t from = 0;
    for (std::size_t k = 0; from < text.size(); ++k) {
        const std::size_t len = 1 + (shape[k % 2] >> (k % 4)) % 9;  // 1..9 bytes
        const std::size_t n = std::min(len, text.size() - from);
        for (auto& e : sp.feed(text.substr(from, n))) events.push_back(std::move(e));
        from += n;
    }
    auto fin = sp.finish();
    for (auto& e : fin.events) events.push_back(std::move(e));

    if (toolgram::to_json(fin.result) != toolgram::to_json(want)) toolgram_fuzz::fail("stream = one-shot", "final results differ");

    // As JSON (what a client reads): each event is valid UTF-8, and the text deltas join to
    // the result's text, with the same U+FFFD for bytes that are not UTF-8.
    std::string content_json, reasoning_json;
    for (const auto& e : events) {
        const json j = toolgram::to_json(e);
        toolgram_fuzz::check_json_out(j, "stream event");
        if (e.kind == Kind::content) content_json += j["text"].get<std::string>();
        if (e.kind == Kind::reasoning) reasoning_json += j["text"].get<std::string>();
    }
    const json want_json = toolgram::to_json(want);
    if (content_json != want_json["content"] || reasoning_json != want_json["reasoning"])
        toolgram_fuzz::fail("stream = one-shot", "content or reasoning events, as JSON, differ from the result's");

    std::string content, reasoning;
    std::optional<std::pair<std::string, std::string>> open;  // id, arguments so far
    std::vector<toolgram::Call> ended;
    for (const auto& e : events) {
        switch (e.kind) {
            case Kind::content: content += e.text; break;
            case Kind::reasoning: reasoning += e.text; break;
            case Kind::call_begin:
                if (open || e.index != ended.size()) toolgram_fuzz::fail("call events", "a call begins inside another, or out of order");
                open.emplace(e.id, "");
                break;
            case Kind::call_arguments:
                if (!open) toolgram_fuzz::fail("call events", "arguments outside a call");
                open->second += e.text;
                break;
            case Kind::call_end:
                if (!open || e.id != open->first) toolgram_fuzz::fail("call events", "an end without its begin");
                if (e.call) {
                    if (args_text(e.call->arguments) != open->second || e.call->id != e.id)
                        toolgram_fuzz::fail("call events", "argument deltas differ from the arguments");
                    ended.push_back(*e.call);
                }
                open.reset();
                break;
            case Kind::format_error: break;
        }
    }
    if (open) toolgram_fuzz::fail("call events", "a call never ended");
    if (content != want.content || reasoning != want.reasoning)
        toolgram_fuzz::fail("stream = one-shot", "content or reasoning deltas differ from the result");
    if (ended.size() != want.calls.size()) toolgram_fuzz::fail("stream = one-shot", "call count");
    for (std::size_t i = 0; i < ended.size(); ++i)
        if (ended[i].id != want.calls[i].id || ended[i].name != want.calls[i].name ||
            ended[i].arguments != want.calls[i].arguments)
            toolgram_fuzz::fail("stream = one-shot", "a call differs");
    return 0;
}
