// Results as JSON: toolgram's own shape, and an OpenAI chat-completion assistant message.
//
// Output JSON is always valid UTF-8: content, reasoning, names and telemetry keep the
// model's bytes in `Result`, and any invalid sequence among them becomes U+FFFD here, so
// `to_json(r).dump()` never throws (nlohmann's default dump refuses invalid UTF-8).
#include "io/result_json.hpp"

#include "io/json_writer.hpp"
#include "toolgram/toolgram.hpp"
#include "text/utf8.hpp"

namespace toolgram {

std::string_view to_string(SchemaVerdict verdict) {
    switch (verdict) {
        case SchemaVerdict::pass: return "pass";
        case SchemaVerdict::fail: return "fail";
        case SchemaVerdict::skipped: break;
    }
    return "skipped";
}

std::string_view to_string(ParseMode mode) {
    switch (mode) {
        case ParseMode::primary: return "primary";
        case ParseMode::fallback: return "fallback";
        case ParseMode::none: break;
    }
    return "none";
}

std::string_view to_string(RejectionCode code) {
    switch (code) {
        case RejectionCode::none: break;
        case RejectionCode::no_intent: return "no_intent";
        case RejectionCode::echo: return "echo";
        case RejectionCode::too_large: return "too_large";
        case RejectionCode::malformed: return "malformed";
        case RejectionCode::unfinished: return "unfinished";
        case RejectionCode::repeated_key: return "repeated_key";
        case RejectionCode::example: return "example";
        case RejectionCode::in_reasoning: return "in_reasoning";
        case RejectionCode::fallback_too_large: return "fallback_too_large";
        case RejectionCode::fallback_no_tools: return "fallback_no_tools";
        case RejectionCode::fallback_not_single: return "fallback_not_single";
        case RejectionCode::healed: return "healed";
        case RejectionCode::no_tools: return "no_tools";
        case RejectionCode::unknown_tool: return "unknown_tool";
        case RejectionCode::ambiguous_tool: return "ambiguous_tool";
        case RejectionCode::empty_name: return "empty_name";
        case RejectionCode::bad_arguments: return "bad_arguments";
        case RejectionCode::wrapped_arguments: return "wrapped_arguments";
        case RejectionCode::ambiguous_number: return "ambiguous_number";
        case RejectionCode::too_deep: return "too_deep";
        case RejectionCode::unusable_schema: return "unusable_schema";
        case RejectionCode::schema_mismatch: return "schema_mismatch";
        case RejectionCode::input_limit: return "input_limit";
        case RejectionCode::candidate_limit: return "candidate_limit";
        case RejectionCode::not_a_call: return "not_a_call";
        case RejectionCode::changed: return "changed";
        case RejectionCode::incomplete: return "incomplete";
    }
    return "none";
}

namespace {

const char* role_name(Role r) { return r == Role::primary ? "primary" : "fallback"; }

json candidate_json(const CandidateReport& c) {
    json j = {
        {"grammar", c.grammar},
        {"role", role_name(c.role)},
        {"span", {c.begin, c.end}},
        {"raw_name", c.raw_name},
        {"name", c.name},
        {"repairs", c.repairs},
        {"healed", c.healed},
        {"schema", to_string(c.schema)},
        {"accepted", c.accepted},
    };
    if (!c.schema_reason.empty()) j["schema_reason"] = c.schema_reason;
    if (!c.reason.empty()) {
        j["code"] = to_string(c.code);
        j["reason"] = c.reason;
    }
    return j;
}

json error_json(const FormatError& e) {
    return {
        {"message", e.message},
        {"offset", e.offset},
        {"line", e.line},
        {"column", e.column},
        {"expected", e.expected},
        {"correction_prompt", e.correction_prompt},
    };
}

// A healed call says so where it is handed on; `healed` is written only when true, so an
// ordinary call keeps the shape clients expect (OpenAI's tool_calls entry, unchanged).
void mark_healed(json& call, const Call& c) {
    if (c.healed) call["healed"] = true;
}

}  // namespace

json to_json(const Result& r) { return to_json(Result(r)); }

json detail::result_document(Result&& r) {
    json calls = json::array();
    for (auto& c : r.calls) {
        json call = {{"id", c.id}, {"name", c.name}, {"arguments", std::move(c.arguments)}};
        mark_healed(call, c);
        calls.push_back(std::move(call));
    }
    const Telemetry& t = r.telemetry;
    json schema_validation = json::array();
    json candidates = json::array();
    for (std::size_t i = 0; i < t.candidates.size(); ++i) {
        const auto& c = t.candidates[i];
        candidates.push_back(candidate_json(c));
        json v = {{"candidate", i}, {"name", c.name.empty() ? detail::excerpt(c.raw_name) : c.name}, {"verdict", to_string(c.schema)}};
        if (!c.schema_reason.empty()) v["reason"] = c.schema_reason;
        schema_validation.push_back(std::move(v));
    }
    json rejected = json::array();
    for (const auto& x : t.rejected)
        rejected.push_back(
            {{"name", x.name}, {"grammar", x.grammar}, {"code", to_string(x.code)}, {"reason", x.reason},
             {"span", {x.begin, x.end}}, {"text", x.text}});
    json telemetry = {
        {"parse_mode", to_string(t.parse_mode)},
        {"grammar", t.grammar},
        {"fallback_used", t.fallback_used},
        {"candidate_count", t.candidate_count},
        {"repairs", t.repairs},
        {"healed", t.healed},
        {"schema_validation", schema_validation},
        {"saw_tool_syntax", t.saw_tool_syntax},
        {"validated", t.validated},
        {"rejected", rejected},
        {"candidates", candidates},
    };
    json error = nullptr;
    if (r.error) error = error_json(*r.error);
    // Member by member, into room made first: an initializer list copies what it holds,
    // and so does the object's array when it grows (its keys are const, so its members
    // cannot move), while the content may be most of the output's size.
    json out = json::object();
    out.get_ref<json::object_t&>().reserve(5);
    out["calls"] = std::move(calls);
    out["content"] = std::move(r.content);
    out["reasoning"] = std::move(r.reasoning);
    out["telemetry"] = std::move(telemetry);
    out["error"] = std::move(error);
    return out;
}

json to_json(Result&& r) {
    json out = detail::result_document(std::move(r));
    detail::make_valid_utf8(out);
    return out;
}

json to_openai_message(const Result& r) {
    json msg = {{"role", "assistant"}};
    msg["content"] = r.content.empty() ? json(nullptr) : json(r.content);
    if (!r.reasoning.empty()) msg["reasoning_content"] = r.reasoning;
    if (!r.calls.empty()) {
        json calls = json::array();
        for (const auto& c : r.calls) {
            json call = {{"id", c.id},
                         {"type", "function"},
                         {"function",
                          {{"name", c.name}, {"arguments", detail::compact_json(c.arguments)}}}};
            mark_healed(call, c);
            calls.push_back(std::move(call));
        }
        msg["tool_calls"] = calls;
    }
    detail::make_valid_utf8(msg);
    return msg;
}

namespace {

// A text delta as {"event", "text"}; the text moved in, not copied (one delta may hold
// most of the output: the held text a stream sends at its end).
json text_event(const char* name, std::string&& text) {
    json j = json::object();
    j.get_ref<json::object_t&>().reserve(2);  // growing would copy the text (to_json(Result&&))
    j["event"] = name;
    j["text"] = std::move(text);
    return j;
}

json event_json(StreamEvent&& e) {
    using K = StreamEvent::Kind;
    switch (e.kind) {
        case K::content: return text_event("content", std::move(e.text));
        case K::reasoning: return text_event("reasoning", std::move(e.text));
        case K::call_begin:
            return {{"event", "tool_call_begin"}, {"index", e.index}, {"id", e.id}, {"name", e.name}};
        case K::call_arguments:
            return {{"event", "tool_call_arguments"}, {"index", e.index}, {"id", e.id}, {"text", e.text}};
        case K::call_end: {
            json j = {{"event", "tool_call_end"}, {"index", e.index}, {"id", e.id}, {"name", e.name}};
            if (e.call) {
                j["accepted"] = true;
                j["arguments"] = std::move(e.call->arguments);
                mark_healed(j, *e.call);
            } else {
                j["accepted"] = false;
                j["code"] = to_string(e.rejection_code);
                j["rejection"] = e.rejection;
            }
            return j;
        }
        case K::format_error: return {{"event", "format_error"}, {"error", e.error ? error_json(*e.error) : json(nullptr)}};
    }
    return {};
}

}  // namespace

json to_json(const StreamEvent& e) { return to_json(StreamEvent(e)); }

json to_json(StreamEvent&& e) {
    json out = event_json(std::move(e));
    detail::make_valid_utf8(out);  // a delta never ends inside a character, so this is per byte as in to_json(Result)
    return out;
}

}  // namespace toolgram
