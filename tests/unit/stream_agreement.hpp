// The stream = one-shot check shared by the test files: feed a text cut at given places,
// then say where what a client holds from the events alone (content and reasoning deltas,
// each call's begin, argument deltas and end) first disagrees with the one-shot parse.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram_test {

using toolgram::Parser;
using toolgram::StreamEvent;
using toolgram::StreamParser;

struct Streamed {
    std::vector<StreamEvent> events;
    toolgram::Result result;
};

inline Streamed stream(const Parser& parser, std::string_view text, const std::vector<std::size_t>& cuts) {
    StreamParser sp(parser);
    Streamed out;
    std::size_t from = 0;
    for (std::size_t cut : cuts) {
        for (auto& e : sp.feed(text.substr(from, cut - from))) out.events.push_back(std::move(e));
        from = cut;
    }
    for (auto& e : sp.feed(text.substr(from))) out.events.push_back(std::move(e));
    auto fin = sp.finish();
    for (auto& e : fin.events) out.events.push_back(std::move(e));
    out.result = std::move(fin.result);
    return out;
}

// Checks the stream's agreement with the one-shot result; returns a description of the
// first disagreement, empty when they agree.
inline std::string disagreement(const Streamed& s, const toolgram::Result& want) {
    const toolgram::json got_json = toolgram::to_json(s.result), want_json = toolgram::to_json(want);
    if (got_json != want_json) return "result differs: " + got_json.dump() + " vs " + want_json.dump();
    std::string content, reasoning;
    struct Open {
        std::string id, name, args;
    };
    std::optional<Open> open;
    std::vector<toolgram::Call> ended;
    for (const auto& e : s.events) {
        switch (e.kind) {
            case StreamEvent::Kind::content: content += e.text; break;
            case StreamEvent::Kind::reasoning: reasoning += e.text; break;
            case StreamEvent::Kind::call_begin:
                if (open) return "a call began before the previous one ended";
                if (e.index != ended.size()) return "call_begin index " + std::to_string(e.index);
                open = Open{e.id, e.name, ""};
                break;
            case StreamEvent::Kind::call_arguments:
                if (!open) return "arguments outside a call";
                open->args += e.text;
                break;
            case StreamEvent::Kind::call_end:
                if (!open) return "call_end without call_begin";
                if (e.id != open->id || e.name != open->name) return "call_end differs from its call_begin";
                if (e.call) {
                    const std::string args = toolgram::json(e.call->arguments).dump(-1, ' ', false, toolgram::json::error_handler_t::replace);
                    if (args != open->args) return "argument deltas '" + open->args + "' but the call has '" + args + "'";
                    if (e.call->id != open->id || e.call->name != open->name) return "call differs from its call_begin";
                    ended.push_back(*e.call);
                }
                open.reset();
                break;
            case StreamEvent::Kind::format_error: break;
        }
    }
    if (open) return "a call never ended";
    if (content != want.content) return "content deltas '" + content + "' vs '" + want.content + "'";
    // As a client reads them (JSON): bytes that are not UTF-8 become the same U+FFFD in the
    // deltas as in the result, which holds only if no delta ends inside a character.
    std::string content_json, reasoning_json;
    for (const auto& e : s.events) {
        if (e.kind == StreamEvent::Kind::content) content_json += toolgram::to_json(e)["text"].get<std::string>();
        if (e.kind == StreamEvent::Kind::reasoning) reasoning_json += toolgram::to_json(e)["text"].get<std::string>();
    }
    if (content_json != want_json["content"] || reasoning_json != want_json["reasoning"])
        return "content or reasoning events, as JSON, differ from the result's";
    if (reasoning != want.reasoning) return "reasoning deltas '" + reasoning + "' vs '" + want.reasoning + "'";
    if (ended.size() != want.calls.size()) return "ended calls differ in number";
    for (std::size_t i = 0; i < ended.size(); ++i)
        if (ended[i].id != want.calls[i].id || ended[i].name != want.calls[i].name ||
            ended[i].arguments != want.calls[i].arguments || ended[i].healed != want.calls[i].healed)
            return "ended call " + std::to_string(i) + " differs";
    return {};
}

// Cut every `step` bytes.
inline std::vector<std::size_t> cuts_every(std::size_t size, std::size_t step) {
    std::vector<std::size_t> cuts;
    for (std::size_t at = step; at < size; at += step) cuts.push_back(at);
    return cuts;
}

}  // namespace toolgram_test
