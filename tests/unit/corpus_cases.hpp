// The corpus cases, as the golden test and the stream property test read them: each
// corpus/<folder>/<case>.txt with its .expect.json, which names the profile (default: the
// folder's, else auto) or a profile file (`"profile_file": "x.profile.json"`, beside the
// case), the tools and the settings.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "test_files.hpp"
#include "toolgram/toolgram.hpp"

namespace fs = std::filesystem;


namespace toolgram_test {

using toolgram::json;

inline const fs::path corpus_root = fs::path(TOOLGRAM_SOURCE_DIR) / "corpus";

struct Case {
    fs::path text;
    fs::path expect;
};

inline std::vector<Case> all_cases() {
    std::vector<Case> out;
    for (const auto& dir : fs::directory_iterator(corpus_root)) {
        if (!dir.is_directory()) continue;
        for (const auto& f : fs::directory_iterator(dir.path())) {
            if (f.path().extension() != ".txt") continue;
            fs::path e = f.path();
            e.replace_extension(".expect.json");
            out.push_back({f.path(), e});
        }
    }
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.text < b.text; });
    return out;
}

inline void apply_case_settings(toolgram::Profile& p, const json& spec);

inline toolgram::Profile profile_for(const json& spec, const fs::path& dir) {
    if (spec.contains("profile_file")) {  // a profile file, its path relative to the case's folder
        toolgram::Profile p = toolgram::load_profile_file((dir / spec["profile_file"].get<std::string>()).string());
        apply_case_settings(p, spec);
        return p;
    }
    std::string name = spec.value("profile", "");
    if (name.empty()) {
        const auto names = toolgram::builtin_profile_names();
        name = std::find(names.begin(), names.end(), dir.filename().string()) != names.end() ? dir.filename().string() : "auto";
    }
    toolgram::Profile p = toolgram::builtin_profile(name);
    apply_case_settings(p, spec);
    return p;
}

// The settings a case's expect file gives, applied to a profile (built-in or from a file);
// what it does not give stays the profile's.
inline void apply_case_settings(toolgram::Profile& p, const json& spec) {
    const json s = spec.value("settings", json::object());
    p.settings.tool_required = s.value("tool_required", p.settings.tool_required);
    p.settings.accept_calls_in_reasoning = s.value("accept_calls_in_reasoning", p.settings.accept_calls_in_reasoning);
    p.settings.accept_healed_calls = s.value("accept_healed_calls", p.settings.accept_healed_calls);
    p.settings.tag_open = s.value("tag_open", p.settings.tag_open);
    p.settings.tag_close = s.value("tag_close", p.settings.tag_close);
    p.settings.fallback_max_bytes = s.value("fallback_max_bytes", p.settings.fallback_max_bytes);
    if (s.contains("reasoning_start")) {
        const std::string start = s["reasoning_start"];
        p.settings.reasoning_start = start == "inside"    ? toolgram::ReasoningStart::inside
                                     : start == "outside" ? toolgram::ReasoningStart::outside
                                                          : toolgram::ReasoningStart::guess;
    }
    if (s.contains("reasoning_format"))
        p.settings.reasoning_format = s["reasoning_format"] == "in_content" ? toolgram::ReasoningFormat::in_content
                                                                            : toolgram::ReasoningFormat::separate;
    if (s.contains("intent_markers")) p.settings.intent_markers = s["intent_markers"].get<std::vector<std::string>>();
}

// "tools": "none" is no tool list at all: names as written, nothing validated.
inline std::optional<std::vector<toolgram::Tool>> tools_for(const json& spec) {
    const json t = spec.value("tools", json("default"));
    if (t == "none") return std::nullopt;
    if (t == "default") return toolgram::tools_from_json(json::parse(slurp(corpus_root / "tools.json")));
    return toolgram::tools_from_json(t);
}

inline toolgram::Parser parser_with(toolgram::Profile profile, const std::optional<std::vector<toolgram::Tool>>& tools) {
    return tools ? toolgram::Parser(std::move(profile), *tools) : toolgram::Parser(std::move(profile));
}

}  // namespace toolgram_test
