// toolgram_conformance: a peer project's parser tests, run as toolgram cases under ctest.
//
// The cases (llamacpp.jsonl beside this file, see README.md there for its source) say what
// the peer's parser returns for a model output: the calls, the content, the reasoning. Each
// case is parsed through the public API with the case's profile, tools and settings, once
// in one go and once as a stream cut into small chunks. A case passes when the calls are
// exactly the expected ones (names, arguments as JSON values with 1 == 1.0, ids where the
// case gives one) and content and reasoning equal the expected ones once both are stripped
// of ASCII whitespace (the peer strips). Where the peer's own settings name a convention
// toolgram offers too (reasoning kept in the content), the case runs with it.
//
// A case that does not pass must stand in the deviations file with the reason toolgram's
// answer is the right one; a listed case that passes, or a listed id with no case, fails the
// run too, so the file says exactly where toolgram differs. A stream that differs from the
// one-shot parse fails whatever the file says. Prints per-category counts and a last line:
//
//   llamacpp.jsonl: 348 pass, 46 deviations (listed), 0 unexpected, 0 stale, …; calls right …
//
//   toolgram_conformance CASES.jsonl DEVIATIONS.txt [--show]
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <toolgram/toolgram.hpp>

using json = nlohmann::ordered_json;

namespace {

constexpr const char* kSpace = " \t\n\v\f\r";

std::string strip(const std::string& s) {
    const auto b = s.find_first_not_of(kSpace);
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

// Arguments compare as JSON values with every number as a double (the peer writes 1 where
// toolgram keeps 1.0, and the other way round); a string holding JSON is read first, as
// peers give arguments either way.
nlohmann::json normalised(const nlohmann::json& v) {
    if (v.is_number()) return v.get<double>();
    if (v.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& x : v) out.push_back(normalised(x));
        return out;
    }
    if (v.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [k, x] : v.items()) out[k] = normalised(x);
        return out;
    }
    return v;
}

nlohmann::json arguments_value(const json& a) {
    if (a.is_string()) {
        nlohmann::json parsed = nlohmann::json::parse(a.get<std::string>(), nullptr, false);
        if (!parsed.is_discarded()) return normalised(parsed);
    }
    return normalised(nlohmann::json::parse(a.dump()));
}

// The case's "settings" are toolgram settings (the scorer the file came with turns the
// same keys into CLI flags); an unknown key is an error in the case file.
void apply_settings(const json& settings, toolgram::Settings& s, const std::string& id) {
    if (!settings.is_object()) return;
    for (const auto& [key, value] : settings.items()) {
        if (key == "reasoning_start") {
            const std::string v = value.get<std::string>();
            s.reasoning_start = v == "inside"    ? toolgram::ReasoningStart::inside
                                : v == "outside" ? toolgram::ReasoningStart::outside
                                                 : toolgram::ReasoningStart::guess;
        } else if (key == "tool_required") {
            s.tool_required = value.get<bool>();
        } else if (key == "accept_calls_in_reasoning") {
            s.accept_calls_in_reasoning = value.get<bool>();
        } else if (key == "tag_open") {
            s.tag_open = value.get<std::string>();
        } else if (key == "tag_close") {
            s.tag_close = value.get<std::string>();
        } else if (key == "fallback_max_bytes") {
            s.fallback_max_bytes = value.get<std::size_t>();
        } else {
            throw std::invalid_argument(id + ": unknown setting \"" + key + "\"");
        }
    }
}

struct Outcome {
    bool calls_ok = false, content_ok = true, reasoning_ok = true;
    bool stream_ok = true;
    std::size_t false_calls = 0;
    std::string detail;  // what differed, for the report
    bool pass() const { return calls_ok && content_ok && reasoning_ok; }
};

// The stream fed in chunks of `step` bytes must end in exactly the one-shot result.
bool stream_equals(const toolgram::Parser& parser, const std::string& text, const toolgram::Result& one_shot,
                   std::size_t step) {
    toolgram::StreamParser stream(parser);
    for (std::size_t at = 0; at < text.size(); at += step)
        static_cast<void>(stream.feed(std::string_view(text).substr(at, step)));
    return toolgram::to_json(stream.finish().result) == toolgram::to_json(one_shot);
}

Outcome run_case(const json& c) {
    const std::string id = c.at("id").get<std::string>();
    toolgram::Profile profile = toolgram::builtin_profile(c.at("profile").get<std::string>());
    apply_settings(c.value("settings", json::object()), profile.settings, id);
    // llama.cpp's `reasoning_format: none` keeps reasoning in the content; toolgram offers
    // the same convention, so the case runs with it rather than being listed as a deviation.
    // (The legacy tests say it as `reasoning_in_content`.)
    if (c.contains("peer") && (c.at("peer").value("reasoning_format", "") == "none" ||
                               c.at("peer").value("reasoning_in_content", false)))
        profile.settings.reasoning_format = toolgram::ReasoningFormat::in_content;
    const toolgram::Parser parser(profile, toolgram::tools_from_json(c.value("tools", json::array())));
    const std::string text = c.at("text").get<std::string>();
    const toolgram::Result r = parser.parse(text);

    Outcome o;
    const json& expect = c.at("expect");
    const json want_calls = expect.value("calls", json::array());
    std::ostringstream detail;
    o.calls_ok = want_calls.size() == r.calls.size();
    for (std::size_t i = 0; o.calls_ok && i < r.calls.size(); ++i) {
        const json& w = want_calls[i];
        const toolgram::Call& h = r.calls[i];
        o.calls_ok = w.at("name").get<std::string>() == h.name &&
                     arguments_value(w.value("arguments", json::object())) ==
                         arguments_value(h.arguments) &&
                     (!w.contains("id") || w.at("id").get<std::string>() == h.id);
    }
    o.false_calls = r.calls.size() > want_calls.size() ? r.calls.size() - want_calls.size() : 0;
    if (!o.calls_ok) {
        json got = json::array();
        for (const auto& h : r.calls)
            got.push_back({{"name", h.name}, {"arguments", h.arguments}});
        json why = json::array();
        for (const auto& rej : r.telemetry.rejected) why.push_back(rej.name + ": " + rej.reason);
        detail << "\n   want calls " << want_calls.dump() << "\n   got calls  " << got.dump();
        if (!why.empty()) detail << "\n   rejected   " << why.dump();
    }
    if (expect.contains("content") && strip(expect.at("content").get<std::string>()) != strip(r.content)) {
        o.content_ok = false;
        detail << "\n   want content " << json(expect.at("content")).dump() << "\n   got content  "
               << json(r.content).dump(-1, ' ', false, json::error_handler_t::replace);
    }
    if (expect.contains("reasoning") && strip(expect.at("reasoning").get<std::string>()) != strip(r.reasoning)) {
        o.reasoning_ok = false;
        detail << "\n   want reasoning " << json(expect.at("reasoning")).dump() << "\n   got reasoning  "
               << json(r.reasoning).dump(-1, ' ', false, json::error_handler_t::replace);
    }
    for (std::size_t step : {std::size_t{1}, std::size_t{7}}) {
        if (!stream_equals(parser, text, r, step)) {
            o.stream_ok = false;
            detail << "\n   the stream in chunks of " << step << " bytes differs from the one-shot parse";
        }
    }
    o.detail = detail.str();
    return o;
}

// Lines `ID | REASON`; # starts a comment. The reason says why toolgram's answer is right.
std::map<std::string, std::string> read_deviations(const std::string& path) {
    std::map<std::string, std::string> out;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        const std::string t = strip(line);
        if (t.empty() || t[0] == '#') continue;
        const auto bar = t.find('|');
        if (bar == std::string::npos || strip(t.substr(bar + 1)).empty())
            throw std::runtime_error(path + ":" + std::to_string(n) + ": not `ID | REASON`");
        const std::string id = strip(t.substr(0, bar));
        if (!out.emplace(id, strip(t.substr(bar + 1))).second)
            throw std::runtime_error(path + ":" + std::to_string(n) + ": " + id + " is listed twice");
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: toolgram_conformance CASES.jsonl DEVIATIONS.txt [--show]\n";
        return 2;
    }
    const std::string cases_path = argv[1];
    const bool show = argc > 3 && std::string(argv[3]) == "--show";
    try {
        const std::map<std::string, std::string> deviations = read_deviations(argv[2]);
        std::ifstream in(cases_path);
        if (!in) throw std::runtime_error("cannot read " + cases_path);

        std::map<std::string, std::array<std::size_t, 2>> by_category;  // pass, total
        std::vector<std::string> category_order;
        std::set<std::string> seen;
        std::size_t total = 0, passed = 0, listed = 0, unexpected = 0, stale = 0, stream_bad = 0;
        std::size_t calls_right = 0, false_calls = 0, text_differs = 0;
        std::string line;
        while (std::getline(in, line)) {
            if (strip(line).empty()) continue;
            const json c = json::parse(line);
            const std::string id = c.at("id").get<std::string>();
            if (!seen.insert(id).second) throw std::runtime_error(id + ": two cases with this id");
            const Outcome o = run_case(c);
            ++total;
            calls_right += o.calls_ok;
            false_calls += o.false_calls;
            text_differs += !o.content_ok || !o.reasoning_ok;
            const std::string category = c.value("category", "?");
            if (!by_category.count(category)) category_order.push_back(category);
            auto& counts = by_category[category];
            ++counts[1];
            const bool deviates = deviations.count(id) > 0;
            if (o.pass()) {
                ++passed;
                ++counts[0];
                if (deviates) {
                    ++stale;
                    std::cout << "STALE " << id << ": listed as a deviation but passes\n";
                }
            } else if (deviates) {
                ++listed;
                if (show) std::cout << "deviation " << id << " (" << deviations.at(id) << ")" << o.detail << "\n";
            } else {
                ++unexpected;
                std::cout << "FAIL " << id << " [" << c.at("profile").get<std::string>() << "]\n   text: "
                          << json(c.at("text")).dump().substr(0, 400) << o.detail << "\n";
            }
            if (!o.stream_ok) {
                ++stream_bad;
                if (o.pass() || deviates) std::cout << "STREAM " << id << o.detail << "\n";
            }
        }
        for (const auto& [id, reason] : deviations)
            if (!seen.count(id)) {
                ++stale;
                std::cout << "STALE " << id << ": listed as a deviation, but no case has this id\n";
            }
        for (const auto& category : category_order)
            std::cout << "  " << category << ": " << by_category[category][0] << "/" << by_category[category][1]
                      << " pass\n";
        const std::string file = cases_path.substr(cases_path.find_last_of('/') + 1);
        std::cout << file << ": " << passed << " pass, " << listed << " deviations (listed), " << unexpected
                  << " unexpected, " << stale << " stale, " << stream_bad << " stream != one-shot; calls right "
                  << calls_right << "/" << total << ", content or reasoning differs in " << text_differs
                  << ", false calls " << false_calls << "\n";
        return unexpected == 0 && stale == 0 && stream_bad == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "toolgram_conformance: " << e.what() << "\n";
        return 2;
    }
}
