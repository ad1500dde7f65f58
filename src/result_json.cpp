// Results as JSON: toolgram's own shape, and an OpenAI chat-completion assistant message.
//
// Output JSON is always valid UTF-8: content, reasoning, names and telemetry keep the
// model's bytes in `Result`, and any invalid sequence among them becomes U+FFFD here, so
// `to_json(r).dump()` never throws (nlohmann's default dump refuses invalid UTF-8).
#include "toolgram/toolgram.hpp"
#include "utf8.hpp"

namespace toolgram {
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
        {"schema", c.schema},
        {"accepted", c.accepted},
    };
    if (!c.schema_reason.empty()) j["schema_reason"] = c.schema_reason;
    if (!c.reason.empty()) j["reason"] = c.reason;
    return j;
}

}  // namespace

json to_json(const Result& r) {
    json calls = json::array();
    for (const auto& c : r.calls) calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
    const Telemetry& t = r.telemetry;
    json schema_validation = json::array();
    json candidates = json::array();
    for (std::size_t i = 0; i < t.candidates.size(); ++i) {
        const auto& c = t.candidates[i];
        candidates.push_back(candidate_json(c));
        json v = {{"candidate", i}, {"name", c.name.empty() ? c.raw_name : c.name}, {"verdict", c.schema}};
        if (!c.schema_reason.empty()) v["reason"] = c.schema_reason;
        schema_validation.push_back(std::move(v));
    }
    json rejected = json::array();
    for (const auto& x : t.rejected) rejected.push_back({{"name", x.name}, {"grammar", x.grammar}, {"reason", x.reason}});
    json telemetry = {
        {"parse_mode", t.parse_mode},
        {"grammar", t.grammar},
        {"fallback_used", t.fallback_used},
        {"candidate_count", t.candidate_count},
        {"repairs", t.repairs},
        {"healed", t.healed},
        {"schema_validation", schema_validation},
        {"saw_tool_syntax", t.saw_tool_syntax},
        {"rejected", rejected},
        {"candidates", candidates},
    };
    json error = nullptr;
    if (r.error) {
        error = {
            {"message", r.error->message},
            {"offset", r.error->offset},
            {"line", r.error->line},
            {"column", r.error->column},
            {"expected", r.error->expected},
            {"correction_prompt", r.error->correction_prompt},
        };
    }
    json out = {{"calls", calls}, {"content", r.content}, {"reasoning", r.reasoning}, {"telemetry", telemetry},
                {"error", error}};
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
            calls.push_back({{"id", c.id},
                             {"type", "function"},
                             {"function",
                              {{"name", c.name},
                               {"arguments", c.arguments.dump(-1, ' ', false, json::error_handler_t::replace)}}}});
        }
        msg["tool_calls"] = calls;
    }
    detail::make_valid_utf8(msg);
    return msg;
}

}  // namespace toolgram
