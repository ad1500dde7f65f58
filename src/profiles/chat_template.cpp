// From a chat template to a profile (match_chat_template), and the template a
// tokenizer_config.json or chat_template.json holds (chat_template_from_file).
//
// A model's chat template renders the assistant's earlier tool calls in the very syntax
// the model writes them in, and often describes that syntax in the tools prompt, so the
// markers a template writes name its family. Each family's record gives its signatures
// (GrammarDef::signatures), the markers that must be written and those that must not;
// this file reads them and knows no family. Families sharing a marker (`<tool_call>` is
// Hermes's, Qwen3-Coder's with `<function=`, GLM's with `<arg_key>`, …) are told apart by
// what else they write, and by what they do not (Apriel writes `<tool_calls>`, and names
// `<tool_call>` in its prose). Among the signatures that
// fit, the one with the most required markers wins; a tie between profiles is reported
// as such, never settled by table order.
//
// "Written" means in text or an expression the template outputs, not in a `{# comment #}`
// nor in the test of an `{% if %}` (Qwen3 tests `'</think>' in content`, gpt-oss refuses
// `<|channel|>` in a message): one pass over the `{% %}` and `{# #}` tags keeps the
// stack of open blocks, so each occurrence is also placed in its tool-call branch (`{% for
// tool_call in message.tool_calls %}`) or tools prompt (`{% if tools %}`) for the evidence.
// The markers are found with the marker index, one pass over the text, so a hostile
// template costs linear time; the block stack is bounded, and a template past
// max_chat_template_bytes is not read.
//
// A signature with no profile names the engines' parser of a syntax toolgram does not read
// yet: the answer is then "not read yet" rather than "unknown", and when that engine name
// gets a profile in profile_aliases.cpp the signature resolves to it with no change here.
#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "readers/grammar_def.hpp"
#include "text/ascii.hpp"
#include "value/json_document.hpp"
#include "scan/marker_index.hpp"
#include "toolgram/chat_template.hpp"
#include "toolgram/toolgram.hpp"

namespace toolgram {
namespace {

// A signature as match_chat_template reads it: the record's, its empty slots dropped.
struct Signature {
    std::string profile;  // "": resolved through engines[0] in profile_aliases (a syntax not read yet)
    std::string_view family;
    std::vector<std::string_view> all;   // each must be written
    std::vector<std::string_view> none;  // none may be written
    std::vector<detail::EngineParserName> engines;
    std::string_view note;
};

Signature from_spec(const detail::TemplateSignature& t, std::string_view profile) {
    Signature s{std::string(profile), t.family, {}, {}, {}, t.note};
    for (std::string_view m : t.all)
        if (!m.empty()) s.all.push_back(m);
    for (std::string_view m : t.none)
        if (!m.empty()) s.none.push_back(m);
    for (const auto& e : t.engines)
        if (!e.engine.empty()) s.engines.push_back(e);
    return s;
}

// Every family's signatures (GrammarDef::signatures, each checked against the real
// templates in tests/data/templates/, whose README names the source of each; a shipped
// profile file's `template_signatures`), in registry order.
const std::vector<Signature>& signatures() {
    static const std::vector<Signature> table = [] {
        std::vector<Signature> out;
        for (const detail::GrammarDef* g : detail::all_records())
            for (const auto& t : g->signatures) out.push_back(from_spec(t, t.profile.empty() ? g->name : t.profile));
        return out;
    }();
    return table;
}

std::string engine_label(const detail::EngineParserName& e) {
    const std::string name(e.name);
    return std::string(e.engine) + " " + (name.find(' ') == std::string::npos ? name : "\"" + name + "\"");
}

// The profile a row names, or the one its first engine name resolves to (empty: not read yet).
std::string resolved_profile(const Signature& s) {
    if (!s.profile.empty() || s.engines.empty()) return s.profile;
    for (const auto& a : profile_aliases())
        if (a.engine == s.engines.front().engine && a.name == s.engines.front().name) return a.profile;
    return "";
}

// Every marker of the table, indexed once.
struct MarkerTable {
    std::vector<std::string> markers;
    std::map<std::string, std::size_t, std::less<>> ids;
    detail::MarkerSet set;
    MarkerTable() {
        for (const auto& s : signatures())
            for (const auto* list : {&s.all, &s.none})
                for (std::string_view m : *list)
                    if (ids.emplace(m, markers.size()).second) {
                        markers.emplace_back(m);
                        set.add(m);
                    }
    }
};
const MarkerTable& marker_table() {
    static const MarkerTable table;
    return table;
}

bool mentions(std::string_view text, std::string_view word) { return text.find(word) != std::string_view::npos; }

bool concerns_tool_calls(std::string_view tag) {
    return mentions(tag, "tool_call") || mentions(tag, "function_call") || mentions(tag, "toolcall");
}
bool concerns_tools(std::string_view tag) { return mentions(tag, "tool") || mentions(tag, "function"); }

// A tag for the evidence: whitespace runs as one space, at most 100 bytes (cut at a
// UTF-8 character's start). Reads no more of a long tag than it shows.
std::string shown_tag(std::string_view tag) {
    std::string out;
    for (char c : tag) {
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (space && (out.empty() || out.back() == ' ')) continue;
        out += space ? ' ' : c;
        if (out.size() > 100) break;
    }
    if (out.size() > 100) {
        std::size_t cut = 97;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
        out = out.substr(0, cut) + "...";
    }
    return out;
}

// The first word of a `{% … %}` tag: `if`, `for`, `endfor`, `set`, …
std::string_view statement_keyword(std::string_view tag) {
    std::size_t i = 2;
    while (i < tag.size() && (tag[i] == '-' || tag[i] == '+' || tag[i] == ' ' || tag[i] == '\n' || tag[i] == '\t' ||
                              tag[i] == '\r'))
        ++i;
    std::size_t j = i;
    while (j < tag.size() && ((tag[j] >= 'a' && tag[j] <= 'z') || tag[j] == '_')) ++j;
    return tag.substr(i, j - i);
}

// A block statement that a matching `end…` closes. `set` only in its block form (no `=`).
bool opens_block(std::string_view keyword, std::string_view tag) {
    for (const char* k : {"if", "for", "macro", "call", "filter", "block", "with", "raw"})
        if (keyword == k) return true;
    return keyword == "set" && tag.find('=') == std::string_view::npos;
}

// A `{% … %}` tag as the evidence needs it, read once (a tag may be long: each is
// classified when met, never again per occurrence).
struct TagInfo {
    bool tool_calls = false;  // mentions tool_call(s) or function_call
    bool tools = false;       // mentions tools or functions
    std::string shown;        // for the evidence, when it mentions either
};
TagInfo tag_info(std::string_view tag) {
    TagInfo t;
    t.tool_calls = concerns_tool_calls(tag);
    t.tools = t.tool_calls || concerns_tools(tag);
    if (t.tools) t.shown = shown_tag(tag);
    return t;
}

constexpr std::size_t max_open_blocks = 256;  // deeper nesting is counted, not kept

// The next tag at or after `pos`: a statement `{%…%}` or a comment `{#…#}`, and with
// `expressions` an expression `{{…}}` too; a tag left open runs to the end of the text.
// `begin` is npos when no tag follows. Both passes over a template (the markers it writes,
// the reasoning its generation prompt opens) walk it with this.
struct TemplateTag {
    std::size_t begin = std::string_view::npos, end = std::string_view::npos;
    char kind = '\0';  // '%', '#' or '{'
};
TemplateTag next_tag(std::string_view text, std::size_t pos, bool expressions) {
    for (std::size_t b = text.find('{', pos); b != std::string_view::npos && b + 1 < text.size();
         b = text.find('{', b + 1)) {
        const char kind = text[b + 1];
        if (kind != '%' && kind != '#' && !(expressions && kind == '{')) continue;
        const char* closer = kind == '{' ? "}}" : kind == '%' ? "%}" : "#}";
        const std::size_t e = text.find(closer, b + 2);
        return {b, e == std::string_view::npos ? text.size() : e + 2, kind};
    }
    return {};
}
constexpr std::size_t max_hits_per_marker = 256;

// The spans of the template that write nothing: comments `{# #}` and the tests of `{% if
// %}` and `{% elif %}` (outside `{% raw %}`, where every tag is text), in order. The
// occurrences in them are skipped before any is counted: 256 commented `<function=`
// before the one written must not hide it (issue 29, item 15).
std::vector<std::pair<std::size_t, std::size_t>> unwritten_spans(std::string_view text) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    bool in_raw = false;
    for (std::size_t pos = 0; pos < text.size();) {
        const TemplateTag t = next_tag(text, pos, false);
        if (t.begin == std::string_view::npos) break;
        const std::string_view tag = text.substr(t.begin, t.end - t.begin);
        const std::string_view keyword = t.kind == '%' ? statement_keyword(tag) : std::string_view();
        if (in_raw) {
            if (keyword == "endraw") in_raw = false;
        } else if (t.kind == '#' || keyword == "if" || keyword == "elif") {
            out.emplace_back(t.begin, t.end);
        } else if (keyword == "raw") {
            in_raw = true;
        }
        pos = t.end;
    }
    return out;
}

struct Occurrence {
    std::size_t pos;
    std::size_t marker;
};

// ---------------------------------------------------------------------------------------
// The generation prompt's reasoning (TemplateMatch::reasoning_opened). A thinking model's
// template may end its prompt with the reasoning opener (`<｜Assistant｜><think>\n`), so
// the output starts inside the block and shows only its closer: a stream cannot tell that
// reasoning from an answer until a delimiter appears, unless it is told. What the branch
// under `{% if add_generation_prompt %}` writes says which: one pass over the template's
// tags and text, keeping the stack of open blocks as match_chat_template does.

// The opening and closing delimiters of every built-in profile's reasoning blocks (auto
// holds their union), each with both halves: a block with no opener of its own (Apriel's)
// cannot be seen opening.
const std::vector<Delimiters>& reasoning_pairs() {
    static const std::vector<Delimiters> pairs = [] {
        std::vector<Delimiters> out;
        for (const auto& d : builtin_profile("auto").settings.reasoning)
            if (!d.open.empty() && !d.close.empty()) out.push_back(d);
        return out;
    }();
    return pairs;
}

bool identifier_char(char c) { return detail::is_alpha(c) || detail::is_digit(c) || c == '_'; }

// `{% set NAME = 'literal' %}` (or "literal"): NAME and the literal's text; nothing for
// any other statement. DeepSeek V3.2 writes its opener as `thinking_start_token`.
std::optional<std::pair<std::string, std::string>> string_variable(std::string_view tag) {
    std::size_t i = tag.find("set");
    if (i == std::string_view::npos) return std::nullopt;
    i += 3;
    while (i < tag.size() && tag[i] == ' ') ++i;
    std::size_t j = i;
    while (j < tag.size() && identifier_char(tag[j])) ++j;
    if (j == i) return std::nullopt;
    std::string name(tag.substr(i, j - i));
    while (j < tag.size() && tag[j] == ' ') ++j;
    if (j >= tag.size() || tag[j] != '=') return std::nullopt;
    ++j;
    while (j < tag.size() && tag[j] == ' ') ++j;
    if (j >= tag.size() || (tag[j] != '\'' && tag[j] != '"')) return std::nullopt;
    const char quote = tag[j];
    const std::size_t end = tag.find(quote, j + 1);
    if (end == std::string_view::npos) return std::nullopt;
    std::size_t k = end + 1;
    while (k < tag.size() && (tag[k] == ' ' || tag[k] == '-' || tag[k] == '%' || tag[k] == '}')) ++k;
    if (k != tag.size()) return std::nullopt;  // an expression, not a plain literal
    return std::make_pair(std::move(name), std::string(tag.substr(j + 1, end - j - 1)));
}

// A test that holds when the generation prompt is asked for (not `not add_generation_prompt`).
bool asks_generation_prompt(std::string_view tag) {
    return mentions(tag, "add_generation_prompt") && !mentions(tag, "not add_generation_prompt");
}

constexpr std::size_t max_string_variables = 64;

std::optional<TemplateMarker> generation_prompt_opener(std::string_view text) {
    const auto& pairs = reasoning_pairs();
    // A variable stands for its literal where it holds a delimiter.
    struct Variable {
        std::string name;
        std::size_t pair;
        bool opener;
    };
    std::vector<Variable> variables;

    struct Branch {
        bool generation = false;  // the branch under a test asking for the generation prompt
        std::string header;       // the block's opening tag, shown
        std::string shown;        // the branch's own tag, shown
    };
    std::vector<Branch> open;
    std::size_t dropped = 0, in_generation = 0;

    // The first opener in a write with no closer of its pair after it there.
    auto opener_left_open = [&](std::string_view unit, bool expression) -> std::optional<std::pair<std::size_t, std::size_t>> {
        struct Event {
            std::size_t pos;
            std::size_t pair;
            bool opener;
        };
        std::vector<Event> events;
        for (std::size_t p = 0; p < pairs.size(); ++p)
            for (const bool opener : {true, false}) {
                const std::string& needle = opener ? pairs[p].open : pairs[p].close;
                for (std::size_t at = unit.find(needle); at != std::string_view::npos; at = unit.find(needle, at + 1))
                    events.push_back({at, p, opener});
            }
        if (expression)
            for (const auto& v : variables)
                for (std::size_t at = unit.find(v.name); at != std::string_view::npos; at = unit.find(v.name, at + 1)) {
                    const std::size_t end = at + v.name.size();
                    if ((at > 0 && identifier_char(unit[at - 1])) || (end < unit.size() && identifier_char(unit[end])))
                        continue;
                    events.push_back({at, v.pair, v.opener});
                }
        std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.pos < b.pos; });
        // From the end: a pair's closer seen later closes every opener of it before.
        std::vector<bool> closed_later(pairs.size(), false);
        std::optional<std::pair<std::size_t, std::size_t>> first;
        for (auto e = events.rbegin(); e != events.rend(); ++e) {
            if (!e->opener) closed_later[e->pair] = true;
            else if (!closed_later[e->pair]) first = std::make_pair(e->pos, e->pair);
        }
        return first;
    };
    auto found_at = [&](std::size_t unit_begin, std::size_t within, std::size_t pair) {
        const std::size_t pos = unit_begin + within;
        TemplateMarker m;
        m.marker = pairs[pair].open;
        m.line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
        for (auto b = open.rbegin(); b != open.rend(); ++b)
            if (!b->shown.empty()) {
                m.block = b->shown;
                break;
            }
        return m;
    };

    std::size_t pos = 0;
    bool in_raw = false;
    while (pos < text.size()) {
        const TemplateTag t = next_tag(text, pos, true);
        const std::size_t begin = t.begin;
        const std::size_t text_end = begin == std::string_view::npos ? text.size() : begin;
        // Text between tags is written as it stands.
        if (in_generation > 0 && text_end > pos)
            if (auto o = opener_left_open(text.substr(pos, text_end - pos), false)) return found_at(pos, o->first, o->second);
        if (begin == std::string_view::npos) break;
        const char kind = t.kind;
        const std::string_view tag = text.substr(begin, t.end - begin);
        pos = t.end;
        if (kind == '#') continue;
        const std::string_view keyword = kind == '%' ? statement_keyword(tag) : std::string_view();
        if (in_raw && keyword != "endraw") {
            if (in_generation > 0)
                if (auto o = opener_left_open(tag, false)) return found_at(begin, o->first, o->second);
            continue;
        }
        if (kind == '{' || keyword == "set") {
            if (keyword == "set" && variables.size() < max_string_variables)
                if (auto v = string_variable(tag))
                    for (std::size_t p = 0; p < pairs.size(); ++p)
                        for (const bool opener : {true, false})
                            if (v->second == (opener ? pairs[p].open : pairs[p].close)) variables.push_back({v->first, p, opener});
            // An expression writes; a `set` inside the branch builds what it will write (Reka
            // Edge's `ns.out ~ "assistant: <think>\n"`).
            if (in_generation > 0)
                if (auto o = opener_left_open(tag, true)) return found_at(begin, o->first, o->second);
            if (keyword != "set" || tag.find('=') != std::string_view::npos) continue;
        }
        if (keyword == "raw") in_raw = true;
        if (keyword == "endraw") in_raw = false;
        if (keyword.substr(0, 3) == "end") {
            if (dropped > 0) --dropped;
            else if (!open.empty()) {
                if (open.back().generation) --in_generation;
                open.pop_back();
            }
        } else if ((keyword == "elif" || keyword == "else") && dropped == 0 && !open.empty()) {
            Branch& b = open.back();
            if (b.generation) --in_generation;
            b.generation = keyword == "elif" && asks_generation_prompt(tag);
            if (b.generation) ++in_generation;
            b.shown = shown_tag(tag) + (b.header.empty() ? "" : " of " + b.header);
        } else if (opens_block(keyword, tag)) {
            if (open.size() < max_open_blocks && dropped == 0) {
                Branch b;
                b.generation = keyword == "if" && asks_generation_prompt(tag);
                if (b.generation) ++in_generation;
                if (keyword == "if") b.header = b.shown = shown_tag(tag);
                open.push_back(std::move(b));
            } else {
                ++dropped;
            }
        }
    }
    return std::nullopt;
}

}  // namespace

TemplateMatch match_chat_template(std::string_view text) {
    TemplateMatch out;
    if (text.size() > max_chat_template_bytes) {
        out.explanation = "the template is longer than " + std::to_string(max_chat_template_bytes) +
                          " bytes, the most a chat template is read to; it was not read";
        return out;
    }
    out.reasoning_opened = generation_prompt_opener(text);
    const MarkerTable& table = marker_table();
    const detail::MarkerIndex index(table.set, text);

    // Each marker's written occurrences, the first few hundred (enough to place a written
    // one in its tool-call branch in any real template; a hostile one stays bounded). An
    // occurrence in a comment or an if-test is passed over to the span's end, so skipping
    // costs one search per span, and the first written occurrence is always found.
    const std::vector<std::pair<std::size_t, std::size_t>> unwritten = unwritten_spans(text);
    std::vector<Occurrence> hits;
    for (std::size_t m = 0; m < table.markers.size(); ++m) {
        std::size_t from = 0;
        for (std::size_t n = 0; n < max_hits_per_marker;) {
            const std::size_t at = index.find(table.markers[m], from);
            if (at == std::string_view::npos) break;
            // The span that starts last at or before `at`, if `at` is inside it.
            auto span = std::upper_bound(unwritten.begin(), unwritten.end(), at,
                                         [](std::size_t p, const std::pair<std::size_t, std::size_t>& sp) {
                                             return p < sp.first;
                                         });
            if (span != unwritten.begin() && at < std::prev(span)->second) {
                from = std::prev(span)->second;
                continue;
            }
            hits.push_back({at, m});
            ++n;
            from = at + 1;
        }
    }
    std::sort(hits.begin(), hits.end(), [](const Occurrence& a, const Occurrence& b) {
        return a.pos != b.pos ? a.pos < b.pos : a.marker < b.marker;
    });

    // One pass over the tags and the occurrences in order: the open blocks at each
    // occurrence, and whether it is written at all.
    std::vector<std::optional<TemplateMarker>> first(table.markers.size());
    std::vector<TagInfo> open;
    std::size_t dropped = 0;  // blocks opened past max_open_blocks, still to be closed
    std::size_t line = 1, counted_to = 0;
    auto line_at = [&](std::size_t pos) {
        line += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted_to),
                                                    text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
        counted_to = pos;
        return line;
    };
    auto record = [&](const Occurrence& h) {
        TemplateMarker found{table.markers[h.marker], line_at(h.pos), "", false};
        // The innermost block that concerns tool calls, else the innermost about tools.
        auto consider = [&](const TagInfo& tag) {
            if (found.in_tool_call_branch) return;
            if (tag.tool_calls) {
                found.block = tag.shown;
                found.in_tool_call_branch = true;
            } else if (found.block.empty() && tag.tools) {
                found.block = tag.shown;
            }
        };
        for (auto b = open.rbegin(); b != open.rend(); ++b) consider(*b);
        auto& slot = first[h.marker];
        if (!slot || (found.in_tool_call_branch && !slot->in_tool_call_branch)) slot = std::move(found);
    };

    std::size_t next_hit = 0;
    std::size_t pos = 0;
    bool in_raw = false;
    for (;;) {
        const TemplateTag t = next_tag(text, pos, false);
        const bool at_end = t.begin == std::string_view::npos;
        // Occurrences before the tag are in text or `{{ }}` expressions: written.
        while (next_hit < hits.size() && hits[next_hit].pos < (at_end ? text.size() : t.begin)) record(hits[next_hit++]);
        if (at_end) break;
        const char kind = t.kind;
        const std::size_t begin = t.begin, tag_end = t.end;
        const std::string_view tag = text.substr(begin, tag_end - begin);
        const std::string_view keyword = kind == '%' ? statement_keyword(tag) : std::string_view();
        if (in_raw && keyword != "endraw") {
            // Inside {% raw %} everything is text: tags too.
            while (next_hit < hits.size() && hits[next_hit].pos < tag_end) record(hits[next_hit++]);
            pos = tag_end;
            continue;
        }
        // Occurrences inside the tag: a comment or an if/elif test writes nothing.
        const bool writes = kind == '%' && keyword != "if" && keyword != "elif";
        while (next_hit < hits.size() && hits[next_hit].pos < tag_end) {
            if (writes) record(hits[next_hit]);
            ++next_hit;
        }
        if (kind == '%') {
            if (keyword == "raw") in_raw = true;
            if (keyword == "endraw") in_raw = false;
            if (keyword.substr(0, 3) == "end") {
                if (dropped > 0) --dropped;
                else if (!open.empty()) open.pop_back();
            } else if (keyword == "elif") {
                if (dropped == 0 && !open.empty()) open.back() = tag_info(tag);
                // (an `else` keeps its block's header: `{% if message.tool_calls %}` still
                // says what the branch is about)
            } else if (opens_block(keyword, tag)) {
                if (open.size() < max_open_blocks && dropped == 0) open.push_back(tag_info(tag));
                else ++dropped;
            }
            if (!out.mentions_tools && (mentions(tag, "tools") || mentions(tag, "tool_calls"))) out.mentions_tools = true;
        }
        pos = tag_end;
    }
    if (!out.mentions_tools) out.mentions_tools = mentions(text, "tool_calls");

    for (const auto& f : first)
        if (f) out.seen.push_back(*f);
    std::sort(out.seen.begin(), out.seen.end(),
              [](const TemplateMarker& a, const TemplateMarker& b) { return a.line < b.line; });

    // The signatures that fit, the most specific first.
    struct Fit {
        const Signature* row;
        std::string profile;
    };
    std::vector<Fit> fits;
    for (const auto& s : signatures()) {
        auto written = [&](std::string_view m) { return first[table.ids.find(m)->second].has_value(); };
        if (!std::all_of(s.all.begin(), s.all.end(), written)) continue;
        if (std::any_of(s.none.begin(), s.none.end(), written)) continue;
        fits.push_back({&s, resolved_profile(s)});
    }
    std::stable_sort(fits.begin(), fits.end(),
                     [](const Fit& a, const Fit& b) { return a.row->all.size() > b.row->all.size(); });

    auto candidate = [&](const Fit& f) {
        TemplateCandidate c;
        c.profile = f.profile;
        c.family = f.row->family;
        for (const auto& e : f.row->engines) c.engines.push_back(engine_label(e));
        for (std::string_view m : f.row->all) c.found.push_back(*first[table.ids.find(m)->second]);
        for (std::string_view m : f.row->none) c.absent.emplace_back(m);
        c.note = f.row->note;
        return c;
    };
    // A row's profile tells rows apart; for a syntax not read yet, the engine parser that
    // reads it (two rows of one parser agree), else its family.
    auto key = [](const Fit& f) {
        if (!f.profile.empty()) return f.profile;
        if (!f.row->engines.empty()) return "?" + engine_label(f.row->engines.front());
        return "?" + std::string(f.row->family);
    };

    if (fits.empty()) {
        out.verdict = TemplateMatch::Verdict::unknown;
        if (!out.seen.empty()) {
            std::string markers;
            for (const auto& m : out.seen) markers += (markers.empty() ? "" : ", ") + m.marker;
            out.explanation = "it writes " + markers + ", but no family's signature fits";
        } else if (out.mentions_tools) {
            out.explanation = "it handles tools, but writes no tool-call marker toolgram knows (the model's syntax "
                              "may be in its vocabulary or training only)";
        } else {
            out.explanation = "it neither handles tools nor writes any tool-call marker: a template without tool use";
        }
        return out;
    }
    // The fits as specific as the first, one per profile (two rows of one profile agree).
    std::vector<const Fit*> top;
    for (const auto& f : fits) {
        if (f.row->all.size() < fits.front().row->all.size()) break;
        if (std::none_of(top.begin(), top.end(), [&](const Fit* t) { return key(*t) == key(f); })) top.push_back(&f);
    }
    for (const Fit* t : top) out.candidates.push_back(candidate(*t));
    if (top.size() > 1) {
        out.verdict = TemplateMatch::Verdict::ambiguous;
        std::string names;
        for (const Fit* t : top) names += (names.empty() ? "" : " and ") + (t->profile.empty() ? std::string(t->row->family) : t->profile);
        out.explanation = "the signatures of " + names + " fit equally well";
        return out;
    }
    // The less specific fits follow the winner, as evidence of what else was considered.
    for (const auto& f : fits)
        if (key(f) != key(*top.front())) out.candidates.push_back(candidate(f));
    const std::string others =
        out.candidates.size() > 1 ? ", the most specific of " + std::to_string(out.candidates.size()) + " that fit" : "";
    if (top.front()->profile.empty()) {
        out.verdict = TemplateMatch::Verdict::not_read_yet;
        const auto& engines = top.front()->row->engines;
        out.explanation = "its markers fit the signature of a syntax toolgram does not read yet" +
                          (engines.empty() ? std::string() : " (" + engine_label(engines.front()) + ")") + others;
        return out;
    }
    out.verdict = TemplateMatch::Verdict::matched;
    out.profile = top.front()->profile;
    out.explanation = "its markers fit " + out.profile + "'s signature" + others;
    return out;
}

ChatTemplateText chat_template_from_file(std::string_view file_text, bool json_file) {
    // A Jinja file may well begin with `{{`, `{%` or `{#`; a JSON object begins with `{`
    // followed by a key or `}`.
    std::string_view body = file_text;
    if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
    const std::size_t start = body.find_first_not_of(" \t\r\n");
    bool is_json = json_file;
    if (!is_json && start != std::string_view::npos && body[start] == '{') {
        const std::size_t next = body.find_first_not_of(" \t\r\n", start + 1);
        is_json = next == std::string_view::npos || (body[next] != '{' && body[next] != '%' && body[next] != '#');
    }
    if (!is_json) {
        if (start == std::string_view::npos) throw std::invalid_argument("the file is empty: it holds no template");
        return {std::string(file_text), "the file"};
    }
    detail::DocumentRead doc = detail::read_json_document(body);
    if (doc.error) throw std::invalid_argument(doc.error->message);
    if (!doc.value.is_object())
        throw std::invalid_argument("the JSON is not an object holding \"chat_template\" (it is " +
                                    std::string(doc.value.type_name()) + ")");
    const auto it = doc.value.find("chat_template");
    if (it == doc.value.end()) throw std::invalid_argument("the JSON object has no \"chat_template\"");
    const json& t = *it;
    auto checked = [](const json& s, std::string from) -> ChatTemplateText {
        if (!s.is_string())
            throw std::invalid_argument(from + " is a " + std::string(s.type_name()) + ", not a string");
        std::string text = s.get<std::string>();
        if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw std::invalid_argument(from + " is empty");
        return {std::move(text), std::move(from)};
    };
    if (t.is_string()) return checked(t, "chat_template");
    if (!t.is_array())
        throw std::invalid_argument("chat_template is a " + std::string(t.type_name()) +
                                    ", not a string nor a list of {\"name\", \"template\"}");
    if (t.empty()) throw std::invalid_argument("chat_template is an empty list");
    for (std::size_t i = 0; i < t.size(); ++i) {
        const json& e = t[i];
        const std::string at = "chat_template[" + std::to_string(i) + "]";
        if (!e.is_object() || !e.contains("name") || !e["name"].is_string() || !e.contains("template"))
            throw std::invalid_argument(at + " is not a {\"name\", \"template\"} object");
    }
    for (const char* wanted : {"tool_use", "default"})
        for (const json& e : t)
            if (e["name"] == wanted) return checked(e["template"], std::string("chat_template[\"") + wanted + "\"]");
    return checked(t[0]["template"], "chat_template[\"" + t[0]["name"].get<std::string>() + "\"]");
}

}  // namespace toolgram
