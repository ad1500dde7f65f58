// `toolgram coverage`, the data side (coverage.hpp): reading labelled outputs, parsing
// them under the rule-coverage collector, aggregating per model and grammar, the json
// form of the report, and the comparison with a previous run. Rendering for people is in
// coverage_render.cpp.
#include "coverage.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <system_error>

namespace toolgram::coverage {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------
// Inputs.

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) throw InputFileError("cannot read " + p.string());
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

bool is_builtin_profile(const std::string& name) {
    const auto names = builtin_profile_names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The settings an input may adjust, spelled as in .expect.json (tests/unit/corpus_test.cpp).
Profile with_settings(Profile p, const json& settings) {
    if (!settings.is_object()) throw std::invalid_argument("\"settings\" must be an object");
    Settings& s = p.settings;
    s.tool_required = settings.value("tool_required", s.tool_required);
    s.accept_calls_in_reasoning = settings.value("accept_calls_in_reasoning", s.accept_calls_in_reasoning);
    s.tag_open = settings.value("tag_open", s.tag_open);
    s.tag_close = settings.value("tag_close", s.tag_close);
    s.fallback_max_bytes = settings.value("fallback_max_bytes", s.fallback_max_bytes);
    if (settings.contains("intent_markers")) s.intent_markers = settings["intent_markers"].get<std::vector<std::string>>();
    return p;
}
Profile make_profile(const std::string& name, const json& settings) {
    return with_settings(builtin_profile(name), settings);  // throws invalid_argument naming the known profiles
}

std::optional<json> expected_calls(const json& spec) {
    auto e = spec.find("expect");
    if (e == spec.end()) return std::nullopt;
    if (!e->is_object()) throw std::invalid_argument("\"expect\" must be an object with \"calls\"");
    auto calls = e->find("calls");
    if (calls == e->end()) return std::nullopt;
    if (!calls->is_array()) throw std::invalid_argument("\"expect\".\"calls\" must be an array");
    for (const auto& c : *calls)
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string())
            throw std::invalid_argument("every expected call needs a \"name\" string");
    return *calls;
}

void load_jsonl(const fs::path& path, const LoadOptions& o, Inputs& out) {
    const std::string text = slurp(path);
    std::istringstream lines(text);
    std::string line;
    std::size_t n = 0;
    while (std::getline(lines, line)) {
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = path.string() + ":" + std::to_string(n);
        try {
            json in;
            try {
                in = json::parse(line);
            } catch (const json::parse_error& e) {
                throw std::invalid_argument(std::string("the line is not valid JSON: ") + e.what());
            }
            if (!in.is_object()) throw std::invalid_argument("the line is not a JSON object");
            auto text_field = in.find("text");
            if (text_field == in.end() || !text_field->is_string())
                throw std::invalid_argument("the line has no \"text\" string");
            Sample s;
            if (auto m = in.find("model"); m != in.end() && m->is_string() && !m->get<std::string>().empty())
                s.model = m->get<std::string>();
            else if (o.model)
                s.model = *o.model;
            else
                throw std::invalid_argument("the line has no \"model\" label (add one, or pass --model NAME)");
            if (auto id = in.find("id"); id != in.end() && !id->is_null())
                s.id = id->is_string() ? id->get<std::string>() : id->dump();
            else
                s.id = where;
            std::string profile = o.profile.value_or("auto");
            if (auto p = in.find("profile"); p != in.end()) {
                if (!p->is_string()) throw std::invalid_argument("\"profile\" must be a string");
                profile = p->get<std::string>();
            }
            if (o.profile_file && in.find("profile") == in.end())
                s.profile = with_settings(*o.profile_file, in.value("settings", json::object()));
            else
                s.profile = make_profile(profile, in.value("settings", json::object()));
            if (auto t = in.find("tools"); t != in.end()) s.tools = tools_from_json(*t);
            else if (o.tools) s.tools = *o.tools;
            s.expect_calls = expected_calls(in);
            s.text = text_field->get<std::string>();
            out.samples.push_back(std::move(s));
        } catch (const std::exception& e) {
            out.problems.push_back({where, e.what()});
        }
    }
}

std::vector<fs::path> cases_in(const fs::path& dir) {
    std::vector<fs::path> cases;
    for (const auto& f : fs::directory_iterator(dir))
        if (f.is_regular_file() && f.path().extension() == ".txt") cases.push_back(f.path());
    std::sort(cases.begin(), cases.end());
    return cases;
}

// A folder as an absolute path without a trailing separator, so that "corpus/hermes/" and
// "." have a name and a parent like any other folder.
fs::path clean_dir(const fs::path& dir) {
    fs::path p = fs::absolute(dir).lexically_normal();
    if (p.filename().empty() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
    return p;
}

// A corpus folder: CASE.txt, with CASE.expect.json when there is an expectation (format
// of tests/unit/corpus_test.cpp; "model" may label a case). Tools: the spec's, else the
// corpus tools.json (the folder's own or its parent's), else --tools, else none.
void load_folder(const fs::path& given, const LoadOptions& o, Inputs& out) {
    const fs::path dir = clean_dir(given);
    const std::string folder = dir.filename().string();
    std::optional<std::vector<Tool>> corpus_tools;
    std::optional<std::string> corpus_tools_error;
    bool corpus_tools_looked = false;
    auto default_tools = [&]() -> const std::vector<Tool>* {
        if (!corpus_tools_looked) {
            corpus_tools_looked = true;
            for (const fs::path& p : {dir / "tools.json", dir.parent_path() / "tools.json"}) {
                std::error_code ec;
                if (!fs::is_regular_file(p, ec)) continue;
                try {
                    corpus_tools = tools_from_json(json::parse(slurp(p)));
                } catch (const std::exception& e) {
                    corpus_tools_error = p.string() + ": " + e.what();
                }
                break;
            }
        }
        if (corpus_tools_error) throw std::invalid_argument(*corpus_tools_error);
        return corpus_tools ? &*corpus_tools : nullptr;
    };
    for (const fs::path& txt : cases_in(dir)) {
        fs::path expect = txt;
        expect.replace_extension(".expect.json");
        const std::string where = folder + "/" + txt.stem().string();
        try {
            json spec = json::object();
            if (fs::exists(expect)) {
                try {
                    spec = json::parse(slurp(expect));
                } catch (const json::parse_error& e) {
                    throw std::invalid_argument(expect.filename().string() + " is not valid JSON: " + e.what());
                }
                if (!spec.is_object()) throw std::invalid_argument(expect.filename().string() + " is not a JSON object");
            }
            Sample s;
            s.id = where;
            s.model = spec.contains("model") && spec["model"].is_string() ? spec["model"].get<std::string>() : folder;
            std::string profile;
            if (auto p = spec.find("profile"); p != spec.end() && p->is_string() && !p->get<std::string>().empty())
                profile = p->get<std::string>();
            else if (o.profile)
                profile = *o.profile;
            else
                profile = is_builtin_profile(folder) ? folder : "auto";
            const json settings = spec.value("settings", json::object());
            if (auto f = spec.find("profile_file"); f != spec.end() && f->is_string() && !o.profile && !o.profile_file)
                s.profile = with_settings(load_profile_file((txt.parent_path() / f->get<std::string>()).string()), settings);
            else if (o.profile_file && !spec.contains("profile"))
                s.profile = with_settings(*o.profile_file, settings);
            else
                s.profile = make_profile(profile, settings);
            const json tools = spec.value("tools", json());
            if (tools.is_null()) {
                if (const auto* t = default_tools()) s.tools = *t;
                else if (o.tools) s.tools = *o.tools;
            } else if (tools == "default") {
                const auto* t = default_tools();
                if (!t) throw std::invalid_argument("\"tools\": \"default\" but there is no tools.json beside the folder");
                s.tools = *t;
            } else if (tools != "none") {
                s.tools = tools_from_json(tools);
            }
            s.expect_calls = expected_calls(spec);
            s.text = slurp(txt);
            out.samples.push_back(std::move(s));
        } catch (const std::exception& e) {
            out.problems.push_back({where, e.what()});
        }
    }
}

}  // namespace

Inputs load_inputs(const std::vector<std::string>& paths, const LoadOptions& options) {
    Inputs out;
    for (const std::string& arg : paths) {
        const fs::path path(arg);
        std::error_code ec;
        const auto status = fs::status(path, ec);
        if (ec || !fs::exists(status)) throw InputFileError("cannot read " + arg + ": no such file or folder");
        if (fs::is_directory(status)) {
            if (!cases_in(path).empty()) {
                load_folder(path, options, out);
                continue;
            }
            std::vector<fs::path> folders;
            for (const auto& d : fs::directory_iterator(path))
                if (d.is_directory() && !cases_in(d.path()).empty()) folders.push_back(d.path());
            if (folders.empty())
                throw InputFileError(arg + " holds no cases: a corpus folder has CASE.txt files, or folders of them");
            std::sort(folders.begin(), folders.end());
            for (const auto& f : folders) load_folder(f, options, out);
        } else {
            load_jsonl(path, options, out);
        }
    }
    // Ids key the comparison with an earlier run, so each must be unique.
    std::map<std::string, std::size_t> seen;
    for (auto& s : out.samples) {
        const std::size_t n = ++seen[s.id];
        if (n > 1) {
            s.id += '#';
            s.id += std::to_string(n);
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// Running.

namespace {

// Without key order: an object's members are a set (the parser keeps the model's order).
nlohmann::json unordered(const json& j) { return nlohmann::json::parse(j.dump(-1, ' ', false, json::error_handler_t::replace)); }

// toolset.cpp's name-resolution failures: "unknown tool \"x\"", "tool name \"x\" is
// ambiguous (…)". Pinned by tests/unit/coverage_test.cpp.
bool is_name_rejection(const std::string& reason) {
    return reason.rfind("unknown tool \"", 0) == 0 ||
           (reason.rfind("tool name \"", 0) == 0 && reason.find("\" is ambiguous") != std::string::npos);
}

GrammarCell& cell(ModelRow& row, const std::string& grammar) { return row.grammars[grammar]; }

bool variant_fired(const detail::GrammarRuleTally& t, const Variant& v) {
    const auto& m = v.event == VariantEvent::success ? t.blocks_with_success : t.blocks_with_failure;
    auto it = m.find(std::string(v.key));
    return it != m.end() && it->second > 0;
}

}  // namespace

bool same_calls(const json& got, const json& want) {
    if (!got.is_array() || !want.is_array() || got.size() != want.size()) return false;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i].value("name", "") != want[i].value("name", "")) return false;
        const json none = json::object();
        const json& a = got[i].contains("arguments") ? got[i]["arguments"] : none;
        const json& b = want[i].contains("arguments") ? want[i]["arguments"] : none;
        if (unordered(a) != unordered(b)) return false;
    }
    return true;
}

Report run_coverage(const Inputs& inputs) {
    Report report;
    report.problems = inputs.problems;
    std::map<std::string, std::size_t> row_of;
    detail::RuleCoverage collector;
    detail::RuleCoverageScope scope(collector);

    for (const Sample& s : inputs.samples) {
        std::optional<Parser> parser;
        try {
            parser.emplace(s.profile, s.tools);
        } catch (const std::exception& e) {
            report.problems.push_back({s.id, e.what()});
            continue;
        }
        collector.take();  // nothing should be pending; start clean regardless
        const Result r = parser->parse(s.text);
        const detail::RuleTallies tallies = collector.take();
        const Telemetry& tm = r.telemetry;

        auto [it, added] = row_of.try_emplace(s.model, report.models.size());
        if (added) report.models.push_back(ModelRow{s.model, 0, 0, 0, 0, 0, 0, {}});
        ModelRow& row = report.models[it->second];

        OutputRecord rec;
        rec.id = s.id;
        rec.model = s.model;
        rec.profile = s.profile.name;
        rec.grammar = tm.grammar;
        rec.parse_mode = tm.parse_mode;
        rec.saw_tool_syntax = tm.saw_tool_syntax;
        for (const Call& c : r.calls) rec.calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
        rec.content = r.content;
        if (r.error) rec.error = r.error->message;
        for (const Rejection& j : tm.rejected) rec.rejected.push_back({{"name", j.name}, {"grammar", j.grammar}, {"reason", j.reason}});

        ++row.outputs;
        if (!r.calls.empty()) ++row.with_calls;
        else if (tm.saw_tool_syntax) ++row.syntax_no_call;
        else ++row.no_syntax;

        std::map<std::string, std::pair<bool, bool>> matched;  // grammar → (primary, fallback)
        for (const CandidateReport& c : tm.candidates) {
            GrammarCell& g = cell(row, c.grammar);
            ++g.candidates;
            if (c.schema == "fail") ++g.schema_failures;
            if (c.accepted) {
                ++g.calls;
                if (!c.repairs.empty()) ++g.repaired;
                if (c.healed) ++g.healed;
                for (const auto& rp : c.repairs) ++g.repairs[rp];
                auto& m = matched[c.grammar];
                (c.role == Role::primary ? m.first : m.second) = true;
            } else {
                ++g.rejected;
                if (is_name_rejection(c.reason)) {
                    ++g.name_rejections;
                    ++g.rejected_names[c.raw_name];
                }
            }
        }
        for (const auto& [grammar, roles] : matched) {
            GrammarCell& g = cell(row, grammar);
            ++g.outputs;
            if (roles.first) ++g.primary;
            if (roles.second) ++g.fallback;
        }
        if (r.calls.empty() && tm.saw_tool_syntax && !tm.grammar.empty()) ++cell(row, tm.grammar).syntax_no_call;

        if (s.expect_calls) {
            const bool exact = same_calls(rec.calls, *s.expect_calls);
            rec.exact = exact;
            ++row.expected;
            row.exact += exact;
            if (!tm.grammar.empty()) {
                GrammarCell& g = cell(row, tm.grammar);
                ++g.expected;
                g.exact += exact;
            }
        }

        for (const auto& [grammar, tally] : tallies) {
            cell(row, grammar).rules += tally;
            std::vector<std::string> fired;
            for (const Variant& v : variant_table())
                if (variant_fired(tally, v)) fired.emplace_back(v.key);
            if (!fired.empty()) rec.variants[grammar] = std::move(fired);
        }
        report.outputs.push_back(std::move(rec));
    }
    return report;
}

std::vector<VariantShare> variants_of(const GrammarCell& cell, std::string_view filter) {
    std::vector<VariantShare> out;
    const auto& t = cell.rules;
    if (!filter.empty()) {
        for (const auto& [key, n] : t.blocks_with_success)
            if (n > 0 && key.find(filter) != std::string::npos) out.push_back({key, key, n, t.blocks});
        return out;
    }
    for (const Variant& v : variant_table()) {
        const auto& m = v.event == VariantEvent::success ? t.blocks_with_success : t.blocks_with_failure;
        auto it = m.find(std::string(v.key));
        if (it != m.end() && it->second > 0) out.push_back({std::string(v.key), std::string(v.label), it->second, t.blocks});
    }
    return out;
}

std::vector<std::string> grammar_columns(const Report& report) {
    std::vector<std::string> columns;
    std::set<std::string> seen;
    for (const ModelRow& row : report.models) {
        std::vector<std::pair<std::string, const GrammarCell*>> cells;
        for (const auto& [g, c] : row.grammars)
            if (!g.empty()) cells.emplace_back(g, &c);
        std::stable_sort(cells.begin(), cells.end(), [](const auto& a, const auto& b) {
            if (a.second->outputs != b.second->outputs) return a.second->outputs > b.second->outputs;
            return a.second->candidates + a.second->rules.blocks > b.second->candidates + b.second->rules.blocks;
        });
        for (const auto& [g, c] : cells)
            if (seen.insert(g).second) columns.push_back(g);
    }
    return columns;
}

// ---------------------------------------------------------------------------------------
// json, and the comparison with an earlier run.

namespace {

json count_json(const detail::RuleCount& c, std::size_t blocks) {
    return {{"start", c.start}, {"success", c.success}, {"failure", c.failure}, {"raise", c.raise}, {"blocks", blocks}};
}

json cell_json(const std::string& grammar, const GrammarCell& c, const ModelRow& row, const std::string& filter) {
    json j = {{"grammar", grammar},
              {"outputs", c.outputs},
              {"share", row.outputs ? static_cast<double>(c.outputs) / static_cast<double>(row.outputs) : 0.0},
              {"primary", c.primary},
              {"fallback", c.fallback},
              {"calls", c.calls},
              {"repaired", c.repaired},
              {"healed", c.healed},
              {"candidates", c.candidates},
              {"schema_failures", c.schema_failures},
              {"rejected", c.rejected},
              {"name_rejections", c.name_rejections},
              {"rejected_names", c.rejected_names},
              {"syntax_no_call", c.syntax_no_call},
              {"expected", c.expected},
              {"exact", c.exact},
              {"repairs", c.repairs},
              {"blocks", c.rules.blocks}};
    json variants = json::array();
    for (const VariantShare& v : variants_of(c, filter))
        variants.push_back({{"rule", v.key}, {"label", v.label}, {"blocks", v.blocks}});
    j["variants"] = std::move(variants);
    json rules = json::object();
    for (const auto& [key, count] : c.rules.rules) {
        auto b = c.rules.blocks_with_success.find(key);
        rules[key] = count_json(count, b == c.rules.blocks_with_success.end() ? 0 : b->second);
    }
    j["rules"] = std::move(rules);
    return j;
}

json output_summary(const json& o) {
    return {{"grammar", o.value("grammar", "")},
            {"calls", o.value("calls", json::array())},
            {"content", o.value("content", "")},
            {"error", o.value("error", json())}};
}

json calls_for_diff(const json& calls) {
    // Arguments without key order; ids kept: a model id read or dropped is a change.
    json out = json::array();
    if (!calls.is_array()) return out;
    for (const auto& c : calls) out.push_back(unordered(c).dump());
    return out;
}

}  // namespace

json to_json(const Report& report) {
    json j = {{"format", "toolgram-coverage"}, {"version", 1}, {"inputs", report.inputs}};
    json models = json::array();
    for (const ModelRow& row : report.models) {
        json m = {{"model", row.model},
                  {"outputs", row.outputs},
                  {"with_calls", row.with_calls},
                  {"syntax_no_call", row.syntax_no_call},
                  {"no_syntax", row.no_syntax},
                  {"expected", row.expected},
                  {"exact", row.exact},
                  {"accuracy", row.expected ? json(static_cast<double>(row.exact) / static_cast<double>(row.expected)) : json()}};
        json grammars = json::array();
        std::vector<std::string> order;
        for (const auto& [g, c] : row.grammars) order.push_back(g);
        std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
            return row.grammars.at(a).outputs > row.grammars.at(b).outputs;
        });
        for (const auto& g : order) grammars.push_back(cell_json(g, row.grammars.at(g), row, report.rule_filter));
        m["grammars"] = std::move(grammars);
        models.push_back(std::move(m));
    }
    j["models"] = std::move(models);
    json outputs = json::array();
    for (const OutputRecord& o : report.outputs) {
        outputs.push_back({{"id", o.id},
                           {"model", o.model},
                           {"profile", o.profile},
                           {"grammar", o.grammar},
                           {"parse_mode", o.parse_mode},
                           {"calls", o.calls},
                           {"content", o.content},
                           {"error", o.error ? json(*o.error) : json()},
                           {"rejected", o.rejected},
                           {"saw_tool_syntax", o.saw_tool_syntax},
                           {"exact", o.exact ? json(*o.exact) : json()},
                           {"variants", o.variants}});
    }
    j["outputs"] = std::move(outputs);
    json problems = json::array();
    for (const auto& p : report.problems) problems.push_back({{"where", p.where}, {"message", p.message}});
    j["problems"] = std::move(problems);
    if (report.changes) {
        json changes = json::array();
        for (const Change& c : *report.changes)
            changes.push_back({{"id", c.id}, {"model", c.model}, {"kind", c.kind}, {"fields", c.fields},
                               {"before", c.before}, {"after", c.after}});
        j["diff_against"] = report.diff_against.value_or("");
        j["changes"] = std::move(changes);
    }
    return j;
}

std::vector<Change> diff(const Report& now, const json& old) {
    if (!old.is_object() || old.value("format", "") != "toolgram-coverage" || !old.contains("outputs") ||
        !old["outputs"].is_array())
        throw std::invalid_argument("not a toolgram coverage report (write one with --format json)");
    std::map<std::string, const json*> before;
    std::vector<std::string> old_order;
    for (const auto& o : old["outputs"]) {
        if (!o.is_object() || !o.contains("id") || !o["id"].is_string())
            throw std::invalid_argument("an output of the old report has no \"id\" string");
        const std::string id = o["id"].get<std::string>();
        if (before.emplace(id, &o).second) old_order.push_back(id);
    }
    const json now_json = to_json(now);
    std::vector<Change> changes;
    std::set<std::string> present;
    for (const auto& o : now_json["outputs"]) {
        const std::string id = o["id"].get<std::string>();
        present.insert(id);
        auto it = before.find(id);
        if (it == before.end()) {
            changes.push_back({id, o["model"].get<std::string>(), "added", {}, nullptr, output_summary(o)});
            continue;
        }
        const json& b = *it->second;
        std::vector<std::string> fields;
        if (calls_for_diff(b.value("calls", json::array())) != calls_for_diff(o["calls"])) fields.emplace_back("calls");
        if (b.value("content", "") != o["content"].get<std::string>()) fields.emplace_back("content");
        if (b.value("error", json()) != o["error"]) fields.emplace_back("error");
        if (!fields.empty())
            changes.push_back({id, o["model"].get<std::string>(), "changed", fields, output_summary(b), output_summary(o)});
    }
    for (const auto& id : old_order) {
        if (present.count(id)) continue;
        const json& b = *before[id];
        changes.push_back({id, b.value("model", ""), "removed", {}, output_summary(b), nullptr});
    }
    return changes;
}

}  // namespace toolgram::coverage
