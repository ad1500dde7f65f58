// `toolgram coverage`, the data side (coverage.hpp): reading labelled outputs, parsing
// them under the rule-coverage collector (ranges of them on threads), aggregating per model
// and grammar, the json form of the report and its reading back, the merging of shards'
// reports, and the comparison with a previous run. Rendering for people is in
// coverage_render.cpp.
#include "coverage/coverage.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <exception>
#include <limits>
#include <set>
#include <system_error>
#include <thread>

#include "io/bounded_read.hpp"
#include "value/json_document.hpp"
#include "profiles/profile_file.hpp"
#include "validation/record_tools.hpp"

namespace toolgram::coverage {

namespace fs = std::filesystem;
using detail::DocumentRead;
using detail::document_limit;
using detail::FileTypes;
using detail::InputFile;
using detail::LineReader;
using detail::output_limit;
using detail::read_file;
using detail::read_json_document;
using detail::ReadError;
using detail::ReadLimit;

namespace {

// Ids made unique in the order they come: the first keeps its id, a later copy the first
// "#k" (k from 2) that no output holds yet, so `x`, `x#2`, `x` give `x`, `x#2`, `x#3`.
// Each id's next k is kept: n copies of one id cost n steps, not n^2 / 2 (an id tried and
// found taken is another output's, met once per base: linear over all).
//
// The ids taken sit one after another in one buffer, found through an open-addressing
// table reserved for the whole merge. A slot is 4 bytes (the id's number, and what fits
// of its hash), so the table of a million ids is 8 MiB, not the 48 of whole hashes,
// offsets and sizes (or a node a string in a std::unordered_set): every id lands in a
// slot at random, and at 8x the outputs the table outgrew the cache and each insertion
// waited on memory. The next k of an id copied lives beside the id, not in a map by string,
// and a copy's "#k" is looked up only when an id given may hold it (made_in_table_).
class UniqueIds {
public:
    void reserve(std::size_t n) {
        if (n > max_ids) throw std::length_error("more than 2^30 output ids");
        if (slots_for(n) > slots_.size()) rehash(slots_for(n));
        ids_.reserve(n);
    }
    // The id made unique, a few ids later: its slot is fetched now, and is in the cache by
    // the time the ids queued before it are taken. The id must stay where it is until flush().
    void queue(std::string& id) {
        const std::uint64_t h = hash(id);
        if (!slots_.empty()) __builtin_prefetch(&slots_[home(h)]);
        Queued& q = queued_[queued_count_++ % queued_.size()];
        if (queued_count_ > queued_.size()) take(*q.id, q.hash);
        q = {&id, h};
    }
    void flush() {
        const std::size_t first = queued_count_ > queued_.size() ? queued_count_ - queued_.size() : 0;
        for (std::size_t i = first; i < queued_count_; ++i) {
            const Queued& q = queued_[i % queued_.size()];
            take(*q.id, q.hash);
        }
        queued_count_ = 0;
    }

private:
    static std::uint64_t hash(std::string_view id) { return std::hash<std::string_view>{}(id); }
    void take(std::string& id, std::uint64_t h) {
        // The first id given with a '#' may be a "#k" made before: from now on those are
        // looked up, so all of them go into the table.
        if (!made_in_table_ && id.find('#') != std::string::npos) {
            made_in_table_ = true;
            rehash(std::max(slots_for(ids_.size() + 1), slots_.size()));
        }
        const auto [at, added] = find_or_add(id, h);
        if (added) return;
        // Another output holds the id: its first "#k" not taken, k from where its last copy stopped.
        std::size_t k = ids_[at].next_k;
        candidate_.assign(id);
        candidate_ += '#';
        const std::size_t base = candidate_.size();
        for (;; ++k) {
            char digits[24];
            const auto end = std::to_chars(std::begin(digits), std::end(digits), k).ptr;
            candidate_.resize(base);
            candidate_.append(digits, end);
            if (!made_in_table_) {
                // No id given so far holds a '#', and made ones never meet (each is its id's
                // with a k of its own): this one is free.
                add_unslotted(candidate_);
                break;
            }
            if (find_or_add(candidate_, hash(candidate_)).second) break;
        }
        ids_[at].next_k = k + 1;
        id.append(candidate_, base - 1);
        if (!made_in_table_) return;
        // Copies of one id tend to come together (records that all carry one id): the
        // slot of a later copy's "#k" is fetched now, as queue() fetches a given id's.
        char digits[24];
        const auto end = std::to_chars(std::begin(digits), std::end(digits), k + queued_.size()).ptr;
        candidate_.resize(base);
        candidate_.append(digits, end);
        __builtin_prefetch(&slots_[home(hash(candidate_))]);
    }

    struct Id {
        std::size_t end;         // where the id ends in text_ (it starts where the one before ends)
        std::size_t next_k = 2;  // the k its next copy tries first
    };
    // A slot: 0 is free; else the id's number + 1 in its low index_bits_ bits (the table
    // has twice as many slots as ids), above them what fits of the hash's low bits. The
    // slot's place comes from the hash's high 32 bits, so the two parts are independent.
    using Slot = std::uint32_t;
    Slot tag_of(std::uint64_t h) const { return static_cast<Slot>(h) << index_bits_; }
    Slot index_mask() const { return (Slot{1} << index_bits_) - 1; }

    // The table for n ids: a power of two, at least twice n (a probe then ends soon).
    static std::size_t slots_for(std::size_t n) {
        std::size_t want = 16;
        while (want < 2 * n) want *= 2;
        return want;
    }
    std::size_t home(std::uint64_t h) const { return (h >> 32) & (slots_.size() - 1); }
    std::string_view text_of(std::size_t i) const {
        const std::size_t begin = i == 0 ? 0 : ids_[i - 1].end;
        return std::string_view(text_).substr(begin, ids_[i].end - begin);
    }

    // The id's number, and whether it was added (not there before).
    std::pair<std::size_t, bool> find_or_add(std::string_view id, std::uint64_t h) {
        if (slots_for(ids_.size() + 1) > slots_.size()) rehash(std::max(slots_for(ids_.size() + 1), 2 * slots_.size()));
        const Slot tag = tag_of(h), index = index_mask();
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = home(h);
        for (; slots_[i] != 0; i = (i + 1) & mask) {
            if ((slots_[i] & ~index) != tag) continue;
            const std::size_t n = (slots_[i] & index) - 1;
            if (text_of(n) == id) return {n, false};
        }
        add_unslotted(id);
        slots_[i] = tag | static_cast<Slot>(ids_.size());
        return {ids_.size() - 1, true};
    }
    // An id taken, kept in order but not (yet) in the table.
    void add_unslotted(std::string_view id) {
        if (ids_.size() >= max_ids) throw std::length_error("more than 2^30 output ids");
        text_.append(id);
        ids_.push_back({text_.size()});
    }
    void rehash(std::size_t n) {
        slots_.assign(n, 0);
        index_bits_ = 0;
        while ((std::size_t{1} << index_bits_) < n) ++index_bits_;
        for (std::size_t id = 0; id < ids_.size(); ++id) {
            // Before an id is given with a '#', those with one are all made ones.
            if (!made_in_table_ && text_of(id).find('#') != std::string_view::npos) continue;
            const std::uint64_t h = hash(text_of(id));
            std::size_t i = home(h);
            while (slots_[i] != 0) i = (i + 1) & (n - 1);
            slots_[i] = tag_of(h) | static_cast<Slot>(id + 1);
        }
    }

    static constexpr std::size_t max_ids = std::size_t{1} << 30;  // the table's slots then fit 31 bits of index
    std::vector<Slot> slots_;
    unsigned index_bits_ = 0;  // log2 of the slots
    std::vector<Id> ids_;    // in the order taken
    std::string text_;       // every id taken, one after another
    std::string candidate_;  // the "id#k" being tried
    // Whether the "#k" made are in the table. Until an id is given with a '#', none need
    // be: a made one is met again only as a given id (the next copy of its id tries a
    // greater k, another id's copies make other texts), and each costs no lookup, no
    // slot: a million copies of one id stay in the cache.
    bool made_in_table_ = false;
    struct Queued {
        std::string* id;
        std::uint64_t hash;
    };
    std::array<Queued, 8> queued_{};  // queue()'s ring: ids fetched, not yet taken
    std::size_t queued_count_ = 0;    // ever queued since the last flush()
};

// ---------------------------------------------------------------------------------------
// Inputs.

// A file of a corpus folder, read whole. Only a regular file is opened: a FIFO would block
// the run, a device (or a symlink to one) would never end.
std::string read_corpus_file(const fs::path& p, const ReadLimit& limit) {
    return read_file(p.string(), limit, FileTypes::regular_only);
}

// A JSON document of a corpus folder (expect.json, tools.json). Errors start with `name`.
json corpus_document(const fs::path& p, const std::string& name) {
    DocumentRead doc = read_json_document(read_corpus_file(p, document_limit()));
    if (doc.error) throw std::invalid_argument(name + ": " + doc.error->message);
    return std::move(doc.value);
}

// Whether a folder entry is there at all (a dangling symlink is there, and fails when
// read). Errors other than "not found" (a folder that cannot be searched) are thrown.
bool entry_exists(const fs::path& p) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(p, ec);
    if (st.type() == fs::file_type::not_found) return false;
    if (ec) throw std::invalid_argument("cannot read " + p.string() + ": " + ec.message());
    return true;
}

bool is_builtin_profile(const std::string& name) {
    const auto names = builtin_profile_names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The settings an input may adjust, spelled as in .expect.json (tests/unit/corpus_test.cpp)
// and checked as a profile file's (profile_file.hpp).
Profile with_settings(Profile p, const json& settings) {
    apply_input_settings(p, settings);
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

// One labelled output, from a JSONL line or a record given in memory (`what` names it in
// messages: "the line", "the record"). Throws std::invalid_argument saying what is wrong.
Sample sample_from_record(const json& in, const std::string& where, const LoadOptions& o, const std::string& what) {
    if (!in.is_object()) throw std::invalid_argument(what + " is not a JSON object");
    auto text_field = in.find("text");
    if (text_field == in.end() || !text_field->is_string()) throw std::invalid_argument(what + " has no \"text\" string");
    Sample s;
    if (auto m = in.find("model"); m != in.end() && m->is_string() && !m->get<std::string>().empty())
        s.model = m->get<std::string>();
    else if (o.model)
        s.model = *o.model;
    else
        throw std::invalid_argument(what + " has no \"model\" label (add one, or pass --model NAME)");
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
    // `"tools": null` fails the record, as on a `parse --jsonl` line (src/validation/record_tools.hpp).
    if (auto t = in.find("tools"); t != in.end()) s.tools = detail::tools_of_record(*t);
    else if (o.tools) s.tools = *o.tools;
    s.expect_calls = expected_calls(in);
    s.text = text_field->get<std::string>();
    return s;
}

// Ids key the comparison with an earlier run, so each must be unique.
void make_ids_unique(Inputs& in) {
    UniqueIds ids;
    ids.reserve(in.samples.size());
    for (auto& s : in.samples) ids.queue(s.id);
    ids.flush();
}

// Lines are read one at a time, each within the output limit (a longer one is a problem
// and its rest is skipped unread), the whole file within coverage_input_limit.
void load_jsonl(const fs::path& path, const LoadOptions& o, Inputs& out) {
    InputFile file(path.string(), FileTypes::any_but_directory);
    LineReader lines(file, output_limit(o.profile_file ? o.profile_file->settings.limits : Limits{}),
                     detail::coverage_input_limit());
    std::string line;
    for (;;) {
        LineReader::Status status;
        try {
            status = lines.next(line);
        } catch (const ReadError& e) {
            // Lines already read stay in the report; the rest of the file is one problem.
            out.problems.push_back({path.string(), std::string(e.what()) + "; the rest of the file was not read"});
            return;
        }
        if (status == LineReader::Status::end) return;
        const std::size_t n = lines.line_number();
        if (status == LineReader::Status::too_long) {
            out.problems.push_back({path.string() + ":" + std::to_string(n),
                                    "the line is longer than " + std::to_string(lines.limit().bytes) + " bytes (" +
                                        lines.limit().why + "); skipped"});
            continue;
        }
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = path.string() + ":" + std::to_string(n);
        try {
            DocumentRead doc = read_json_document(line);
            if (doc.error) throw std::invalid_argument("the line: " + doc.error->message);
            out.samples.push_back(sample_from_record(doc.value, where, o, "the line"));
        } catch (const std::exception& e) {
            out.problems.push_back({where, e.what()});
        }
    }
}

// The CASE.txt entries of a folder, whatever each turns out to be: one that is no regular
// file (a FIFO, a folder, a symlink loop) is a problem of its own case when it is read,
// neither skipped in silence nor a reason to stop the run. Throws std::invalid_argument
// when the folder cannot be listed.
std::vector<fs::path> cases_in(const fs::path& dir) {
    std::vector<fs::path> cases;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".txt") cases.push_back(it->path());
    if (ec) throw std::invalid_argument("cannot read " + dir.string() + ": " + ec.message());
    std::sort(cases.begin(), cases.end());
    return cases;
}

std::string shown(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

// The profile file a case names, as a path inside the case's folder (`root`, its real
// path). A corpus may come from anywhere (a download, a colleague's archive), and its
// expect.json must not make toolgram read, and quote in a message, a file outside it
// (/etc/hostname, /dev/zero): absolute paths, `..` that climbs out and symlinks that lead
// out are refused, by the real path of what the name resolves to. The messages name the
// path as written, never what lies outside.
fs::path case_profile_file(const fs::path& case_dir, const fs::path& root, const json& name) {
    if (!name.is_string() || name.get<std::string>().empty())
        throw std::invalid_argument("\"profile_file\" must be a non-empty string, the name of a file in the case's folder");
    const std::string written = name.get<std::string>();
    const fs::path given(written);
    if (given.has_root_path())
        throw std::invalid_argument("\"profile_file\" " + shown(written) +
                                    " is an absolute path; it must name a file in the case's folder");
    const fs::path normal = given.lexically_normal();
    if (!normal.empty() && *normal.begin() == "..")
        throw std::invalid_argument("\"profile_file\" " + shown(written) + " leads out of the case's folder");
    std::error_code ec;
    const fs::path real = fs::canonical(case_dir / given, ec);
    if (ec) throw std::invalid_argument("\"profile_file\" " + shown(written) + ": cannot read: " + ec.message());
    const auto [in_root, in_real] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
    if (in_root != root.end() || in_real == real.end())
        throw std::invalid_argument("\"profile_file\" " + shown(written) +
                                    " leads out of the case's folder through a symbolic link");
    return real;
}

// A folder as an absolute path without a trailing separator, so that "corpus/NAME/" and
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
                try {
                    if (!entry_exists(p)) continue;
                    const json doc = corpus_document(p, p.string());  // its errors name the file
                    try {
                        corpus_tools = tools_from_json(doc);
                    } catch (const std::exception& e) {
                        corpus_tools_error = p.string() + ": " + e.what();
                    }
                } catch (const std::exception& e) {
                    corpus_tools_error = e.what();
                }
                break;
            }
        }
        if (corpus_tools_error) throw std::invalid_argument(*corpus_tools_error);
        return corpus_tools ? &*corpus_tools : nullptr;
    };
    std::vector<fs::path> cases;
    try {
        cases = cases_in(dir);
    } catch (const std::invalid_argument& e) {
        out.problems.push_back({folder, e.what()});
        return;
    }
    std::optional<fs::path> real_dir;  // for profile_file, resolved at the first case that names one
    for (const fs::path& txt : cases) {
        fs::path expect = txt;
        expect.replace_extension(".expect.json");
        const std::string where = folder + "/" + txt.stem().string();
        try {
            json spec = json::object();
            if (entry_exists(expect)) {
                spec = corpus_document(expect, expect.filename().string());
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
            if (auto f = spec.find("profile_file"); f != spec.end() && !o.profile && !o.profile_file) {
                if (!real_dir) real_dir = fs::canonical(dir);  // throws filesystem_error: a problem of this case
                const fs::path file = case_profile_file(dir, *real_dir, *f);
                const std::string label = (dir / f->get<std::string>()).string();
                s.profile = with_settings(profile_from_file_text(read_corpus_file(file, document_limit()), label), settings);
            } else if (o.profile_file && !spec.contains("profile"))
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
            s.text = read_corpus_file(txt, output_limit(s.profile.settings.limits));
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
        if (ec) throw InputFileError("cannot read " + arg + ": " + ec.message());
        if (!fs::is_directory(status)) {
            try {
                load_jsonl(path, options, out);
            } catch (const ReadError& e) {
                throw InputFileError(e.what());
            }
            continue;
        }
        std::vector<fs::path> own_cases;
        try {
            own_cases = cases_in(path);
        } catch (const std::invalid_argument& e) {
            throw InputFileError(e.what());
        }
        if (!own_cases.empty()) {
            load_folder(path, options, out);
            continue;
        }
        // A folder of corpus folders. An entry that cannot be looked at (a symlink loop, a
        // folder that cannot be listed) is a problem; plain files beside the folders
        // (tools.json, a README) are not cases and are passed over.
        std::vector<fs::path> folders;
        const std::size_t problems_before = out.problems.size();
        for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code entry_ec;
            const bool is_folder = it->is_directory(entry_ec);
            try {
                if (entry_ec) throw std::invalid_argument("cannot read " + it->path().string() + ": " + entry_ec.message());
                if (is_folder && !cases_in(it->path()).empty()) folders.push_back(it->path());
            } catch (const std::invalid_argument& e) {
                out.problems.push_back({it->path().filename().string(), e.what()});
            }
        }
        if (ec) throw InputFileError("cannot read " + arg + ": " + ec.message());
        if (folders.empty() && out.problems.size() == problems_before)
            throw InputFileError(arg + " holds no cases: a corpus folder has CASE.txt files, or folders of them");
        std::sort(folders.begin(), folders.end());
        for (const auto& f : folders) load_folder(f, options, out);
    }
    make_ids_unique(out);
    return out;
}

Inputs load_records(const json& records, const LoadOptions& options) {
    if (!records.is_array()) throw std::invalid_argument("records must be an array of objects");
    Inputs out;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const std::string where = "records[" + std::to_string(i) + "]";
        try {
            out.samples.push_back(sample_from_record(records[i], where, options, "the record"));
        } catch (const std::exception& e) {
            out.problems.push_back({where, e.what()});
        }
    }
    make_ids_unique(out);
    return out;
}

// ---------------------------------------------------------------------------------------
// Running.

namespace {

// Without key order: an object's members are a set (the parser keeps the model's order).
nlohmann::json unordered(const json& j) { return nlohmann::json::parse(j.dump(-1, ' ', false, json::error_handler_t::replace)); }

// A refusal of the name itself: no tool of that name, or more than one.
bool is_name_rejection(RejectionCode code) {
    return code == RejectionCode::unknown_tool || code == RejectionCode::ambiguous_tool;
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

namespace {

// The samples [begin, end) as a report of their own (no inputs, no input problems). The
// collector is per thread (rule_listener.hpp), so ranges can run side by side.
Report run_samples(const Sample* begin, const Sample* end) {
    Report report;
    std::map<std::string, std::size_t> row_of;
    detail::RuleCoverage collector;
    detail::RuleCoverageScope scope(collector);

    for (const Sample* sp = begin; sp != end; ++sp) {
        const Sample& s = *sp;
        std::optional<Parser> parser;
        try {
            if (s.tools) parser.emplace(s.profile, *s.tools);
            else parser.emplace(s.profile);
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
        rec.parse_mode = std::string(to_string(tm.parse_mode));
        rec.saw_tool_syntax = tm.saw_tool_syntax;
        for (const Call& c : r.calls) rec.calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
        rec.content = r.content;
        if (r.error) rec.error = r.error->message;
        for (const Rejection& j : tm.rejected)
            rec.rejected.push_back(
                {{"name", j.name}, {"grammar", j.grammar}, {"code", to_string(j.code)}, {"reason", j.reason}});

        ++row.outputs;
        if (!r.calls.empty()) ++row.with_calls;
        else if (tm.saw_tool_syntax) ++row.syntax_no_call;
        else ++row.no_syntax;

        std::map<std::string, std::pair<bool, bool>> matched;  // grammar → (primary, fallback)
        for (const CandidateReport& c : tm.candidates) {
            GrammarCell& g = cell(row, c.grammar);
            ++g.candidates;
            if (c.schema == SchemaVerdict::fail) ++g.schema_failures;
            if (c.accepted) {
                ++g.calls;
                if (!c.repairs.empty()) ++g.repaired;
                if (c.healed) ++g.healed;
                for (const auto& rp : c.repairs) ++g.repairs[rp];
                auto& m = matched[c.grammar];
                (c.role == Role::primary ? m.first : m.second) = true;
            } else {
                ++g.rejected;
                if (is_name_rejection(c.code)) {
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

}  // namespace

Report run_coverage(const Inputs& inputs, unsigned jobs) {
    const std::size_t n = inputs.samples.size();
    const Sample* first = inputs.samples.data();
    if (jobs <= 1 || n < 2) {
        Report report = run_samples(first, first + n);
        report.problems.insert(report.problems.begin(), inputs.problems.begin(), inputs.problems.end());
        return report;
    }
    // Ranges several times more than threads, taken in turn, so one slow range does not
    // leave the other cores idle; merged in input order, which makes the report the one a
    // single thread makes (merge keeps first-appearance order and sums counts).
    const std::size_t ranges = std::min<std::size_t>(n, static_cast<std::size_t>(jobs) * 8);
    std::vector<Report> parts(ranges + 1);  // the input problems first
    std::vector<std::exception_ptr> failures(ranges);
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t r; (r = next.fetch_add(1)) < ranges;) {
            try {
                parts[r + 1] = run_samples(first + n * r / ranges, first + n * (r + 1) / ranges);
            } catch (...) {
                failures[r] = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < std::min<std::size_t>(jobs, ranges); ++t) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    for (const auto& f : failures)
        if (f) std::rethrow_exception(f);
    parts[0].problems = inputs.problems;
    return merge(std::move(parts));
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

// `blocks`: blocks in which the rule succeeded; `failed_blocks`: in which it failed (what
// the variants of VariantEvent::failure count, and what a merge must carry).
json count_json(const detail::RuleCount& c, std::size_t blocks, std::size_t failed_blocks) {
    return {{"start", c.start},   {"success", c.success}, {"failure", c.failure},
            {"raise", c.raise},   {"unwind", c.unwind},   {"blocks", blocks},
            {"failed_blocks", failed_blocks}};
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
    auto blocks_of = [](const std::map<std::string, std::size_t>& m, const std::string& key) -> std::size_t {
        auto it = m.find(key);
        return it == m.end() ? 0 : it->second;
    };
    for (const auto& [key, count] : c.rules.rules)
        rules[key] = count_json(count, blocks_of(c.rules.blocks_with_success, key),
                                blocks_of(c.rules.blocks_with_failure, key));
    j["rules"] = std::move(rules);
    return j;
}

json output_summary(const json& o) {
    return {{"grammar", o.value("grammar", "")},
            {"calls", o.value("calls", json::array())},
            {"content", o.value("content", "")},
            {"error", o.value("error", json())}};
}

// Defined with the report reader below: the fields of an old output --diff reads (id,
// model, grammar, calls, content, error), each checked as the reader checks it where
// present (an old report may leave out what --diff does not read).
void check_diffed_fields(const json& output, const std::string& at);

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
    if (!old.is_object() || !old.contains("format") || !old["format"].is_string() ||
        old["format"].get<std::string>() != "toolgram-coverage" || !old.contains("outputs") ||
        !old["outputs"].is_array())
        throw std::invalid_argument("not a toolgram coverage report (write one with --format json)");
    std::map<std::string, const json*> before;
    std::vector<std::string> old_order;
    const json& old_outputs = old["outputs"];
    for (std::size_t i = 0; i < old_outputs.size(); ++i) {
        const json& o = old_outputs[i];
        if (!o.is_object() || !o.contains("id") || !o["id"].is_string())
            throw std::invalid_argument("an output of the old report has no \"id\" string");
        // The fields compared and shown, checked as --merge checks them, so a damaged
        // report is refused naming the field rather than failing half-way through.
        check_diffed_fields(o, "outputs[" + std::to_string(i) + "]");
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

// ---------------------------------------------------------------------------------------
// Merging: shards of a run, each reported alone, summed into the report of the whole.

namespace {

// A count summed across reports: a sum past what a count holds (2^64 - 1) would wrap to a
// small number and be reported as fact, so it is refused, naming the count. `where` makes
// the count's name, only when it is needed.
template <class Where>
void add_count(std::size_t& into, std::size_t more, const Where& where) {
    if (more > std::numeric_limits<std::size_t>::max() - into)
        throw std::invalid_argument("the merged reports' " + where() + " add up past " +
                                    std::to_string(std::numeric_limits<std::size_t>::max()) +
                                    ", the largest count a report holds: refused rather than wrapped");
}

std::string shown_key(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

template <class Where>
void add_counts(std::map<std::string, std::size_t>& into, const std::map<std::string, std::size_t>& from,
                const Where& where) {
    // (Not structured bindings: clang 14, which builds the fuzzers, cannot capture them.)
    for (const auto& entry : from) {
        const std::string& k = entry.first;
        const std::size_t v = entry.second;
        std::size_t& sum = into[k];
        add_count(sum, v, [&] { return where() + "[" + shown_key(k) + "]"; });
        sum += v;
    }
}

void add_cell(GrammarCell& into, const GrammarCell& from, const std::string& model, const std::string& grammar) {
    const auto at = [&](const char* field) {
        return [&model, &grammar, field] {
            return "model " + shown_key(model) + ", grammar " + shown_key(grammar) + ": " + field;
        };
    };
    const std::pair<std::size_t GrammarCell::*, const char*> fields[] = {
        {&GrammarCell::outputs, "outputs"},
        {&GrammarCell::primary, "primary"},
        {&GrammarCell::fallback, "fallback"},
        {&GrammarCell::calls, "calls"},
        {&GrammarCell::repaired, "repaired"},
        {&GrammarCell::healed, "healed"},
        {&GrammarCell::candidates, "candidates"},
        {&GrammarCell::schema_failures, "schema_failures"},
        {&GrammarCell::rejected, "rejected"},
        {&GrammarCell::name_rejections, "name_rejections"},
        {&GrammarCell::syntax_no_call, "syntax_no_call"},
        {&GrammarCell::expected, "expected"},
        {&GrammarCell::exact, "exact"},
    };
    for (const auto& [member, name] : fields) {
        add_count(into.*member, from.*member, at(name));
        into.*member += from.*member;
    }
    add_counts(into.rejected_names, from.rejected_names, at("rejected_names"));
    add_counts(into.repairs, from.repairs, at("repairs"));
    // The rule tallies, checked the same way (GrammarRuleTally's += is for one run's
    // threads, whose counts come from real parses).
    add_count(into.rules.blocks, from.rules.blocks, at("blocks"));
    into.rules.blocks += from.rules.blocks;
    for (const auto& rule : from.rules.rules) {
        const auto& key = rule.first;
        const auto& count = rule.second;
        detail::RuleCount& sum = into.rules.rules[key];
        const auto rule_at = [&](const char* field) {
            return [&, field] { return at("rules")() + "[" + shown_key(key) + "]." + field; };
        };
        const std::pair<std::size_t detail::RuleCount::*, const char*> counts[] = {
            {&detail::RuleCount::start, "start"},     {&detail::RuleCount::success, "success"},
            {&detail::RuleCount::failure, "failure"}, {&detail::RuleCount::raise, "raise"},
            {&detail::RuleCount::unwind, "unwind"},
        };
        for (const auto& [member, name] : counts) {
            add_count(sum.*member, count.*member, rule_at(name));
            sum.*member += count.*member;
        }
    }
    add_counts(into.rules.blocks_with_success, from.rules.blocks_with_success, at("rules' blocks"));
    add_counts(into.rules.blocks_with_failure, from.rules.blocks_with_failure, at("rules' failed_blocks"));
}

// Reading a report back: each field checked, the error naming it ("models[2].grammars[0]
// .calls: …"), since a report is a file someone may have edited or truncated.
class ReportReader {
public:
    explicit ReportReader(const json& doc) : doc_(doc) {}

    Report read() {
        if (!doc_.is_object() || doc_.value("format", "") != "toolgram-coverage")
            throw std::invalid_argument("not a toolgram coverage report (write one with --format json)");
        if (doc_.value("version", 0) != 1) throw std::invalid_argument("version: only version 1 reports can be read");
        Report r;
        for (const json& i : array(doc_, "inputs", "")) r.inputs.push_back(string(i, "inputs[]"));
        const json& models = array(doc_, "models", "");
        for (std::size_t m = 0; m < models.size(); ++m) r.models.push_back(model(models[m], "models[" + std::to_string(m) + "]"));
        const json& outputs = array(doc_, "outputs", "");
        for (std::size_t o = 0; o < outputs.size(); ++o)
            r.outputs.push_back(output(outputs[o], "outputs[" + std::to_string(o) + "]"));
        const json& problems = array(doc_, "problems", "");
        for (std::size_t p = 0; p < problems.size(); ++p) {
            const std::string at = "problems[" + std::to_string(p) + "]";
            r.problems.push_back({string(field(problems[p], "where", at), at + ".where"),
                                  string(field(problems[p], "message", at), at + ".message")});
        }
        return r;
    }

private:
    // `at`: where `obj` is in the report ("" for the report itself).
    static std::string path(const std::string& at, const char* key) { return at.empty() ? key : at + "." + key; }
    static const json& field(const json& obj, const char* key, const std::string& at) {
        if (!obj.is_object()) throw std::invalid_argument((at.empty() ? "report" : at) + ": not an object");
        auto it = obj.find(key);
        if (it == obj.end()) throw std::invalid_argument(path(at, key) + ": missing");
        return *it;
    }
    static const json& array(const json& obj, const char* key, const std::string& at) {
        const json& a = field(obj, key, at);
        if (!a.is_array()) throw std::invalid_argument(path(at, key) + ": not an array");
        return a;
    }
    static std::string string(const json& j, const std::string& at) {
        if (!j.is_string()) throw std::invalid_argument(at + ": not a string");
        return j.get<std::string>();
    }
    static std::size_t count(const json& j, const std::string& at) {
        if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<std::int64_t>() >= 0))
            throw std::invalid_argument(at + ": not a count");
        return j.get<std::size_t>();
    }
    static std::size_t count_of(const json& obj, const char* key, const std::string& at) {
        return count(field(obj, key, at), path(at, key));
    }
    static std::map<std::string, std::size_t> counts(const json& obj, const char* key, const std::string& at) {
        const json& m = field(obj, key, at);
        if (!m.is_object()) throw std::invalid_argument(at + "." + key + ": not an object");
        std::map<std::string, std::size_t> out;
        for (auto it = m.begin(); it != m.end(); ++it) out[it.key()] = count(it.value(), at + "." + key + "." + it.key());
        return out;
    }

    static GrammarCell cell(const json& g, const std::string& at) {
        GrammarCell c;
        c.outputs = count_of(g, "outputs", at);
        c.primary = count_of(g, "primary", at);
        c.fallback = count_of(g, "fallback", at);
        c.calls = count_of(g, "calls", at);
        c.repaired = count_of(g, "repaired", at);
        c.healed = count_of(g, "healed", at);
        c.candidates = count_of(g, "candidates", at);
        c.schema_failures = count_of(g, "schema_failures", at);
        c.rejected = count_of(g, "rejected", at);
        c.name_rejections = count_of(g, "name_rejections", at);
        c.syntax_no_call = count_of(g, "syntax_no_call", at);
        c.expected = count_of(g, "expected", at);
        c.exact = count_of(g, "exact", at);
        c.rejected_names = counts(g, "rejected_names", at);
        c.repairs = counts(g, "repairs", at);
        c.rules.blocks = count_of(g, "blocks", at);
        const json& rules = field(g, "rules", at);
        if (!rules.is_object()) throw std::invalid_argument(at + ".rules: not an object");
        for (auto it = rules.begin(); it != rules.end(); ++it) {
            const std::string rat = at + ".rules." + it.key();
            const json& v = it.value();
            detail::RuleCount rc;
            rc.start = count_of(v, "start", rat);
            rc.success = count_of(v, "success", rat);
            rc.failure = count_of(v, "failure", rat);
            rc.raise = count_of(v, "raise", rat);
            rc.unwind = count_of(v, "unwind", rat);
            c.rules.rules[it.key()] = rc;
            if (const std::size_t b = count_of(v, "blocks", rat)) c.rules.blocks_with_success[it.key()] = b;
            if (const std::size_t b = count_of(v, "failed_blocks", rat)) c.rules.blocks_with_failure[it.key()] = b;
        }
        return c;
    }

    static ModelRow model(const json& m, const std::string& at) {
        ModelRow row;
        row.model = string(field(m, "model", at), at + ".model");
        row.outputs = count_of(m, "outputs", at);
        row.with_calls = count_of(m, "with_calls", at);
        row.syntax_no_call = count_of(m, "syntax_no_call", at);
        row.no_syntax = count_of(m, "no_syntax", at);
        row.expected = count_of(m, "expected", at);
        row.exact = count_of(m, "exact", at);
        const json& grammars = array(m, "grammars", at);
        for (std::size_t g = 0; g < grammars.size(); ++g) {
            const std::string gat = at + ".grammars[" + std::to_string(g) + "]";
            const std::string name = string(field(grammars[g], "grammar", gat), gat + ".grammar");
            if (!row.grammars.emplace(name, cell(grammars[g], gat)).second)
                throw std::invalid_argument(gat + ".grammar: \"" + name + "\" listed twice");
        }
        return row;
    }

    static OutputRecord output(const json& o, const std::string& at) {
        OutputRecord rec;
        rec.id = string(field(o, "id", at), at + ".id");
        rec.model = string(field(o, "model", at), at + ".model");
        rec.profile = string(field(o, "profile", at), at + ".profile");
        rec.grammar = string(field(o, "grammar", at), at + ".grammar");
        rec.parse_mode = string(field(o, "parse_mode", at), at + ".parse_mode");
        rec.calls = calls(array(o, "calls", at), at + ".calls");
        rec.content = string(field(o, "content", at), at + ".content");
        if (const json& e = field(o, "error", at); !e.is_null()) rec.error = string(e, at + ".error");
        rec.rejected = array(o, "rejected", at);
        for (std::size_t i = 0; i < rec.rejected.size(); ++i) {
            const std::string rat = at + ".rejected[" + std::to_string(i) + "]";
            for (const char* key : {"name", "grammar", "reason"}) string(field(rec.rejected[i], key, rat), path(rat, key));
            // Reports written before refusals had codes have none.
            if (const auto code = rec.rejected[i].find("code"); code != rec.rejected[i].end()) string(*code, path(rat, "code"));
        }
        const json& saw = field(o, "saw_tool_syntax", at);
        if (!saw.is_boolean()) throw std::invalid_argument(at + ".saw_tool_syntax: not a boolean");
        rec.saw_tool_syntax = saw.get<bool>();
        if (const json& x = field(o, "exact", at); !x.is_null()) {
            if (!x.is_boolean()) throw std::invalid_argument(at + ".exact: not a boolean or null");
            rec.exact = x.get<bool>();
        }
        const json& variants = field(o, "variants", at);
        if (!variants.is_object()) throw std::invalid_argument(at + ".variants: not an object");
        for (auto it = variants.begin(); it != variants.end(); ++it) {
            const std::string vat = at + ".variants." + it.key();
            if (!it.value().is_array()) throw std::invalid_argument(vat + ": not an array");
            auto& keys = rec.variants[it.key()];
            for (const json& k : it.value()) keys.push_back(string(k, vat + "[]"));
        }
        return rec;
    }

public:
    // A list of calls as to_json writes it: [{"id", "name", "arguments"}], the id a string
    // (empty where the model gave none), the arguments an object.
    static const json& calls(const json& list, const std::string& at) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string cat = at + "[" + std::to_string(i) + "]";
            const json& c = list[i];
            if (!c.is_object()) throw std::invalid_argument(cat + ": not an object");
            string(field(c, "name", cat), cat + ".name");
            if (const auto id = c.find("id"); id != c.end()) string(*id, cat + ".id");
            if (!field(c, "arguments", cat).is_object()) throw std::invalid_argument(cat + ".arguments: not an object");
        }
        return list;
    }

    static void diffed_fields(const json& o, const std::string& at) {
        for (const char* key : {"model", "grammar", "content"})
            if (const auto v = o.find(key); v != o.end()) string(*v, path(at, key));
        if (const auto e = o.find("error"); e != o.end() && !e->is_null()) string(*e, path(at, "error"));
        if (o.contains("calls")) calls(array(o, "calls", at), path(at, "calls"));
    }

private:
    const json& doc_;
};

void check_diffed_fields(const json& output, const std::string& at) { ReportReader::diffed_fields(output, at); }

}  // namespace

Report report_from_json(const json& doc) { return ReportReader(doc).read(); }

Report merge(std::vector<Report> parts) {
    Report into;
    std::map<std::string, std::size_t> row_of;
    UniqueIds ids;
    std::size_t outputs = 0;
    for (const Report& from : parts) outputs += from.outputs.size();
    into.outputs.reserve(outputs);  // moved in once, not again at each growth
    ids.reserve(outputs);
    for (Report& from : parts) {
        into.inputs.insert(into.inputs.end(), std::make_move_iterator(from.inputs.begin()),
                           std::make_move_iterator(from.inputs.end()));
        for (ModelRow& row : from.models) {
            auto [at, added] = row_of.try_emplace(row.model, into.models.size());
            if (added) {
                into.models.push_back(std::move(row));
                continue;
            }
            ModelRow& sum = into.models[at->second];
            const std::pair<std::size_t ModelRow::*, const char*> fields[] = {
                {&ModelRow::outputs, "outputs"},   {&ModelRow::with_calls, "with_calls"},
                {&ModelRow::syntax_no_call, "syntax_no_call"}, {&ModelRow::no_syntax, "no_syntax"},
                {&ModelRow::expected, "expected"}, {&ModelRow::exact, "exact"},
            };
            for (const auto& [member, name] : fields) {
                add_count(sum.*member, row.*member, [&, name = name] { return "model " + shown_key(row.model) + ": " + name; });
                sum.*member += row.*member;
            }
            for (const auto& [g, c] : row.grammars) add_cell(sum.grammars[g], c, row.model, g);
        }
        // Ids stay unique, as load_inputs keeps them: two shards may each hold a line
        // with the same id.
        for (OutputRecord& o : from.outputs) {
            into.outputs.push_back(std::move(o));
            ids.queue(into.outputs.back().id);  // in place: the outputs were reserved
        }
        into.problems.insert(into.problems.end(), std::make_move_iterator(from.problems.begin()),
                             std::make_move_iterator(from.problems.end()));
    }
    ids.flush();
    return into;
}

}  // namespace toolgram::coverage
