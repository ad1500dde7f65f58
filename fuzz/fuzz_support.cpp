// The oracles and fixtures of fuzz_support.hpp. Every check is linear in the input, so a
// harness stays fast enough for libFuzzer at -max_len.
#include "fuzz_support.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "io/bounded_read.hpp"
#include "readers/grammar_def.hpp"
#include "harmony.hpp"
#include "value/json_document.hpp"
#include "io/json_writer.hpp"
#include "combinator/parser_impl.hpp"  // detail::index_from_bytes
#include "validation/toolset.hpp"
#include "value/value_reader.hpp"

namespace toolgram_fuzz {
namespace {

// corpus/tools.json, embedded by CMake (fuzz_tools.inc.in) so a harness needs no file.
const char* const corpus_tools_json =
#include "fuzz_tools.inc"
    ;

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Whether W(needle) is a subsequence of W(hay), W dropping ASCII whitespace.
bool subsequence_ignoring_space(std::string_view needle, std::string_view hay) {
    std::size_t h = 0;
    for (const char c : needle) {
        if (is_space(c)) continue;
        while (h < hay.size() && hay[h] != c) ++h;
        if (h == hay.size()) return false;
        ++h;
    }
    return true;
}

std::string without_space(std::string_view s) {
    std::string out;
    for (const char c : s)
        if (!is_space(c)) out += c;
    return out;
}

std::string dump_checked(const json& value, std::string_view what) {
    try {
        return value.dump();  // the strict handler: throws on invalid UTF-8
    } catch (const json::exception& e) {
        fail("utf-8", std::string(what) + " does not dump as UTF-8 JSON: " + e.what());
    }
}

// The ToolSet the parser checks calls with, built from the same tools, for the allow-list
// oracle; one per tool list (harnesses use one).
const toolgram::detail::ToolSet& toolset_for(const std::vector<toolgram::Tool>& t) {
    static std::map<const std::vector<toolgram::Tool>*, std::unique_ptr<toolgram::detail::ToolSet>> sets;
    auto& slot = sets[&t];
    if (!slot) slot = std::make_unique<toolgram::detail::ToolSet>(t);
    return *slot;
}

void check_allowed(const toolgram::Parser& parser, const toolgram::Result& r) {
    const auto& tm = r.telemetry;
    std::vector<const toolgram::CandidateReport*> accepted;
    for (const auto& c : tm.candidates)
        if (c.accepted) accepted.push_back(&c);
    if (accepted.size() != r.calls.size())
        fail("allow-list", std::to_string(r.calls.size()) + " calls but " + std::to_string(accepted.size()) +
                               " accepted candidates");
    if (parser.tools().empty()) return;
    const auto& toolset = toolset_for(parser.tools());
    for (std::size_t i = 0; i < r.calls.size(); ++i) {
        const toolgram::Call& call = r.calls[i];
        const auto res = toolset.resolve(call.name);
        if (res.index < 0 || toolset.tool(res.index).name != call.name)
            fail("allow-list", "call " + std::to_string(i) + " names a tool that is not declared");
        if (accepted[i]->name != call.name) fail("allow-list", "call " + std::to_string(i) + " is not its candidate");
        const bool strict = accepted[i]->role == toolgram::Role::fallback;
        const auto verdict = toolset.validate(res.index, call.arguments, strict);
        if (!verdict.pass) fail("schema", "call " + std::to_string(i) + " fails its schema: " + verdict.reason);
        if (call.id.empty()) fail("allow-list", "call " + std::to_string(i) + " has no id");
        for (std::size_t k = 0; k < i; ++k)
            if (r.calls[k].id == call.id) fail("allow-list", "two calls share the id " + call.id);
    }
}

// Grammars whose syntax frames content (Functionary v3.2's `>>>all\n` message header,
// headless when the output starts with `all\n`) remove that framing without a
// candidate, as a content marker is removed (and so does functionary_v32_marked, auto's
// reading of the same messages from a `>>>` on). Whether such framing occurs here: one of
// the grammar's markers in the input, or a headless message read from the whole input.
// Whether `text` holds a header harmony abandons for the next one (grammars/harmony.hpp
// `stray_header`, `<|channel|>commentary to=assistant<|channel|>…`): framing it removes by
// design, with no call and no report, as other families' framing tokens are.
bool holds_harmony_stray_header(std::string_view text) {
    namespace pg = tao::pegtl;
    for (std::size_t at = text.find("<|channel|>"); at != std::string_view::npos; at = text.find("<|channel|>", at + 1)) {
        pg::memory_input<pg::tracking_mode::lazy> in(text.data() + at, text.data() + text.size(), "stray header");
        if (pg::parse<toolgram::grammar::harmony::stray_header>(in)) return true;
    }
    return false;
}

bool frames_content(const toolgram::Profile& profile, std::string_view text) {
    for (const auto& use : profile.grammars)
        if (use.grammar == "harmony" && holds_harmony_stray_header(text)) return true;
    // Functionary's `>>>all` frames text; generic's {"response": …} wraps the answer,
    // whose escapes are decoded in content.
    static constexpr std::string_view framing_grammars[] = {"functionary_v32", "functionary_v32_marked", "generic"};
    for (const auto& use : profile.grammars) {
        if (std::find(std::begin(framing_grammars), std::end(framing_grammars), use.grammar) ==
            std::end(framing_grammars))
            continue;
        const toolgram::detail::GrammarDef* g = toolgram::detail::find_grammar(use.grammar);
        if (g->markers)
            for (const auto& m : g->markers(profile.settings))
                if (!m.empty() && text.find(m) != std::string_view::npos) return true;
        std::size_t begin = 0, end = text.size();
        while (begin < end && is_space(text[begin])) ++begin;
        while (end > begin && is_space(text[end - 1])) --end;
        toolgram::detail::ScanContext ctx(text, profile.settings);
        if (g->read_whole && begin < end && g->read_whole(ctx, begin, end)) return true;
    }
    return false;
}

void check_content(const toolgram::Parser& parser, const toolgram::Result& r, std::string_view text) {
    const toolgram::Settings& settings = parser.profile().settings;
    // The input with every accepted call's span cut out. Calls read from one payload (a
    // JSON array of calls) share its span, so spans may overlap: their union is cut.
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (const auto& c : r.telemetry.candidates) {
        if (c.begin > c.end || c.end > text.size()) fail("spans", "a candidate's span lies outside the input");
        if (c.accepted) spans.emplace_back(c.begin, c.end);
    }
    std::sort(spans.begin(), spans.end());
    std::string rest;
    std::size_t pos = 0;
    for (const auto& [b, e] : spans) {
        if (b > pos) rest.append(text.substr(pos, b - pos));
        pos = std::max(pos, e);
    }
    if (pos < text.size()) rest.append(text.substr(pos));
    if (!subsequence_ignoring_space(r.content, rest))
        fail("content", "content holds bytes that are not in the input outside the accepted calls, in order");
    if (!subsequence_ignoring_space(r.reasoning, rest))
        fail("content", "reasoning holds bytes that are not in the input outside the accepted calls, in order");

    // Nothing seen: then nothing may be missing.
    if (frames_content(parser.profile(), text)) return;
    const auto& tm = r.telemetry;
    if (!tm.candidates.empty() || tm.saw_tool_syntax || tm.candidate_count != 0 || !r.reasoning.empty()) return;
    if (text.size() > settings.limits.max_input_bytes) return;
    for (const auto& d : settings.reasoning)
        if ((!d.open.empty() && text.find(d.open) != std::string_view::npos) ||
            (!d.close.empty() && text.find(d.close) != std::string_view::npos))
            return;
    for (const auto& m : settings.content_markers)
        if (!m.empty() && text.find(m) != std::string_view::npos) return;
    if (without_space(r.content) != without_space(text))
        fail("content", "no tool syntax was seen, yet content lost bytes of the input");
}

}  // namespace

void fail(std::string_view oracle, std::string_view detail) {
    std::fprintf(stderr, "\n==toolgram-fuzz== oracle failed: %.*s: %.*s\n", static_cast<int>(oracle.size()),
                 oracle.data(), static_cast<int>(detail.size()), detail.data());
    std::fflush(stderr);
    std::abort();
}

const std::vector<toolgram::Tool>& tools() {
    static const std::vector<toolgram::Tool> t = [] {
        if (const char* path = std::getenv("TOOLGRAM_FUZZ_TOOLS"); path && *path) {
            // The bounded readers, as the CLI's --tools: a tools file is read the same way everywhere.
            try {
                return toolgram::tools_from_json(toolgram::detail::parse_json_document(
                    toolgram::detail::read_file(path, toolgram::detail::document_limit(),
                                                toolgram::detail::FileTypes::any_but_directory)));
            } catch (const std::exception& e) {
                fail("setup", std::string("$TOOLGRAM_FUZZ_TOOLS ") + path + ": " + e.what());
            }
        }
        return toolgram::tools_from_json(json::parse(corpus_tools_json));
    }();
    return t;
}

const toolgram::Profile& profile_file() {
    static const toolgram::Profile p = [] {
        const char* path = std::getenv("TOOLGRAM_FUZZ_PROFILE_FILE");
        const std::string file = path && *path ? path : TOOLGRAM_FUZZ_DEFAULT_PROFILE_FILE;
        try {
            return toolgram::load_profile_file(file);
        } catch (const std::invalid_argument& e) {
            fail("setup", std::string("cannot use the profile file: ") + e.what());
        }
    }();
    return p;
}

const std::vector<toolgram::Profile>& shipped_profile_files() {
    static const std::vector<toolgram::Profile> list = [] {
        std::vector<toolgram::Profile> out;
        const std::string_view paths = TOOLGRAM_FUZZ_PROFILE_FILES;  // separated by '|'
        for (std::size_t from = 0; from < paths.size();) {
            std::size_t to = paths.find('|', from);
            if (to == std::string_view::npos) to = paths.size();
            try {
                out.push_back(toolgram::load_profile_file(std::string(paths.substr(from, to - from))));
            } catch (const std::invalid_argument& e) {
                fail("setup", std::string("a shipped profile file does not load: ") + e.what());
            }
            from = to + 1;
        }
        return out;
    }();
    return list;
}

toolgram::Settings settings_for_grammar(std::string_view grammar) {
    for (const auto& name : toolgram::builtin_profile_names()) {
        if (name == "auto") continue;
        toolgram::Profile p = toolgram::builtin_profile(name);
        // A shipped profile file (grammars/declared/) is not where `declared` takes its
        // syntax from: $TOOLGRAM_FUZZ_PROFILE_FILE, or the build's default, is.
        if (p.settings.declared_syntax) continue;
        for (const auto& use : p.grammars)
            if (use.grammar == grammar) return p.settings;
    }
    // A grammar no compiled-in profile runs reads its syntax from a profile file (`declared`).
    for (const auto& use : profile_file().grammars)
        if (use.grammar == grammar) return profile_file().settings;
    return {};
}

toolgram::Profile single_grammar_profile(std::string_view grammar, toolgram::Role role) {
    toolgram::Profile p;
    p.name = std::string("fuzz-") + std::string(grammar) + (role == toolgram::Role::primary ? "-primary" : "-fallback");
    p.grammars = {{std::string(grammar), role}};
    p.settings = settings_for_grammar(grammar);
    if (role == toolgram::Role::fallback) p.settings.tool_required = true;
    return p;
}

std::size_t settle_ambiguous_as_text(json& value) {
    std::size_t settled = 0;
    std::string scratch;
    std::vector<json*> pending{&value};
    while (!pending.empty()) {
        json* j = pending.back();
        pending.pop_back();
        if (const std::string* text = toolgram::detail::ambiguous_number_text(*j, scratch)) {
            *j = *text;
            ++settled;
        } else if (j->is_structured()) {
            for (auto& e : *j) pending.push_back(&e);
        }
    }
    return settled;
}

void check_json_out(const json& value, std::string_view what) {
    const std::string dumped = dump_checked(value, what);
    const json back = json::parse(dumped, nullptr, false);
    if (back.is_discarded()) fail("utf-8", std::string(what) + " dumps to text that does not parse as JSON");
    if (back != value) fail("utf-8", std::string(what) + " does not survive dump and parse: " + dumped.substr(0, 400));
    // The CLI prints with the library's own writer: it must give dump's bytes.
    if (toolgram::detail::compact_json(value) != value.dump(-1, ' ', false, json::error_handler_t::replace))
        fail("json writer", std::string(what) + " is written otherwise than dump writes it");
}

toolgram::Result check_parse(const toolgram::Parser& parser, std::string_view text) {
    toolgram::Result first = parser.parse(text);
    // The second parse finds its markers through the marker index whatever the output's
    // length (a short one is searched directly): the same result both ways.
    const std::size_t index_from = toolgram::detail::index_from_bytes;
    toolgram::detail::index_from_bytes = 0;
    const toolgram::Result second = parser.parse(text);
    toolgram::detail::index_from_bytes = index_from;
    const json a = toolgram::to_json(first);
    check_json_out(a, "to_json(result)");
    if (a != toolgram::to_json(second))
        fail("determinism", "the same input parsed twice (once through the marker index) gave different results");
    const json m = toolgram::to_openai_message(first);
    check_json_out(m, "to_openai_message(result)");
    for (const auto& c : first.calls) check_json_out(c.arguments, "a call's arguments");
    if (first.error && first.error->message.rfind("internal error", 0) == 0)
        fail("no-exception", "an exception escaped the parse: " + first.error->message);
    check_allowed(parser, first);
    check_content(parser, first, text);
    return first;
}

}  // namespace toolgram_fuzz
