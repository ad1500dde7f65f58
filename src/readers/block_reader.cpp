// Shared pieces of the grammar readers (see block_reader.hpp): failed blocks, and the key
// aliases that turn a JSON object into a candidate.
#include "readers/block_reader.hpp"

#include <algorithm>
#include <iterator>
#include <span>
#include <type_traits>

#include "readers/grammar_def.hpp"

namespace toolgram::detail {

Block failed_block(std::string_view grammar, std::size_t begin, std::size_t end, const FailureInfo& failure,
                   std::size_t limit_depth) {
    Candidate c;
    c.grammar = std::string(grammar);
    c.begin = begin;
    c.end = end;
    if (failure.kind == Failure::too_deep) set_too_deep(c, limit_depth);
    else c.problem = failure.message;
    c.problem_offset = failure.offset;
    c.cut = failure.kind == Failure::cut;
    Block b;
    b.begin = begin;
    b.end = end;
    b.candidates.push_back(std::move(c));
    return b;
}

std::size_t broken_bare_end(std::string_view text, std::size_t at, const FailureInfo& failure) {
    if (failure.kind == Failure::cut) return text.size();
    // Where the brackets do not close (a closer left out: whatever follows may be prose,
    // or the next call), the end of the line where it broke. The look for them is bounded,
    // so a run of broken calls costs a constant each (linear time).
    constexpr std::size_t reach = 1024;
    const std::size_t line_end = std::min(text.find('\n', failure.offset), text.size());
    const std::size_t stop = std::min(text.size(), failure.offset + reach);
    auto closes = [](char open, char close) {
        return (open == '{' && close == '}') || (open == '[' && close == ']') || (open == '(' && close == ')');
    };
    std::string open;  // the brackets open, innermost last
    char quote = 0;
    bool escaped = false;
    for (std::size_t i = at; i < stop; ++i) {
        if (i >= failure.offset && open.empty() && !quote) return std::max(i, failure.offset);
        const char c = text[i];
        if (c == '\n' && i >= failure.offset) {
            // A blank line after the failure: prose resumes.
            std::size_t k = i + 1;
            while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) ++k;
            if (k < text.size() && text[k] == '\n') return line_end;
            if (k == text.size()) {  // that line may yet be blank: the end decides
                note_end(text);
                return line_end;
            }
        }
        if (quote) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == quote || (c == '\n' && quote == '\'')) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '{' || c == '[' || c == '(') {
            open.push_back(c);
        } else if (!open.empty() && closes(open.back(), c)) {
            open.pop_back();
            if (open.empty() && i + 1 >= failure.offset) return i + 1;
        }
    }
    // Cut short by the end of the text so far (a stream's read is then not final: the
    // brackets may close yet), or past the reach.
    if (stop == text.size() || line_end == text.size()) note_end(text);
    return line_end;
}

std::optional<Block> read_unreadable(ScanContext& ctx, std::size_t at, std::string_view open, std::string_view close,
                                     std::string_view grammar) {
    const std::string_view text = ctx.text();
    if (open.empty() || close.empty() || text.compare(at, open.size(), open) != 0) return std::nullopt;
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    // Where the opener stands is known now; only then is the closer looked for, so a
    // stream does not hold back prose that merely names the tag.
    std::size_t before = at;
    while (before > 0 && blank(text[before - 1])) --before;
    if (before > 0 && text[before - 1] != '\n' && text[before - 1] != '>' && text[before - 1] != ']') return std::nullopt;
    const std::size_t inner = at + open.size();
    std::size_t first = inner;  // the first byte inside that is not blank
    while (first < text.size() && (blank(text[first]) || text[first] == '\n')) ++first;
    // A closer of "\n": the opener has none, and its block is the first line after it.
    const bool line = close == "\n";
    if (line && first == text.size()) {
        note_end(text);  // an opener with nothing after it yet
        return std::nullopt;
    }
    std::size_t closed = ctx.find(close, line ? first : inner);
    if (closed == std::string_view::npos) {
        if (!line) return std::nullopt;
        closed = text.size();  // the line runs to the end of output (ctx.find told the stream)
    }
    const std::size_t again = ctx.find_quiet(open, inner);
    if (again != std::string_view::npos && again < closed) return std::nullopt;  // that one may be a call
    const std::size_t end = line ? closed : closed + close.size();
    {
        std::size_t e = end;
        while (!line && e < text.size() && blank(text[e])) ++e;
        if (e == text.size()) note_end(text);  // what follows decides: more text may come
        else if (!line && text[e] != '\n' && text[e] != '<' && text[e] != '[') return std::nullopt;
    }
    Block b;
    b.begin = at;
    b.end = end;
    if (first >= closed) return b;  // nothing inside: syntax that holds no call
    Candidate c;
    c.grammar = std::string(grammar);
    c.begin = at;
    c.end = end;
    c.problem = line ? "nothing after " + std::string(open) + " reads as a call in this syntax"
                     : "nothing between " + std::string(open) + " and " + std::string(close) +
                           " reads as a call in this syntax";
    c.problem_offset = first;
    b.candidates.push_back(std::move(c));
    return b;
}

Candidate candidate_from_state(std::string_view grammar, std::size_t begin, std::size_t end, const BlockState& st) {
    Candidate c;
    c.grammar = std::string(grammar);
    c.begin = begin;
    c.end = end;
    c.repairs = st.repairs;
    c.healed = st.healed;
    c.unfinished = st.unfinished;
    c.notes = st.notes;
    return c;
}

std::string json_text(const json& value) {
    // nlohmann's compact dump has no spaces; models (and their chat templates) write
    // `{"a": 1, "b": 2}`. Rebuild with spaces outside strings.
    const std::string compact = value.dump(-1, ' ', false, json::error_handler_t::replace);
    std::string out;
    out.reserve(compact.size() + compact.size() / 8);
    bool in_string = false;
    for (std::size_t i = 0; i < compact.size(); ++i) {
        const char c = compact[i];
        out += c;
        if (in_string) {
            if (c == '\\') out += compact[++i];
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == ':' || c == ',') {
            out += ' ';
        }
    }
    return out;
}

std::string call_object_text(const Call& call, std::string_view name_key, std::string_view arguments_key) {
    return "{" + json(std::string(name_key)).dump() + ": " + json(call.name).dump() + ", " +
           json(std::string(arguments_key)).dump() + ": " + json_text(call.arguments) + "}";
}

namespace {

// A call object's fields and the keys each may stand under (docs/formats.md lists them).
constexpr const char* name_keys[] = {"name", "tool_name", "tool", "function"};
constexpr const char* arguments_keys[] = {"arguments", "parameters", "params", "args", "input"};
constexpr const char* id_keys[] = {"id", "tool_call_id", "call_id"};
// What a call object's "type" says it is, in the shapes models copy (OpenAI, Llama,
// Anthropic): syntax, not an argument.
constexpr const char* call_types[] = {"function", "tool_use", "tool_call", "function_call"};

template <std::size_t N>
std::vector<std::string> listed(const char* const (&keys)[N]) {
    return std::vector<std::string>(std::begin(keys), std::end(keys));
}

template <std::size_t N>
bool one_of(std::string_view key, const char* const (&keys)[N]) {
    for (const char* k : keys)
        if (key == k) return true;
    return false;
}

// Whether a key of a call object is part of the call's syntax: a field under one of its
// aliases, the nested OpenAI object, what the call is (`"type": "function"`), and, beside
// OpenAI's nested object, its position in a streamed list (`"index"`).
bool is_call_syntax(std::string_view key, const json& value, bool outer, bool nested_shape) {
    if (one_of(key, name_keys) || one_of(key, arguments_keys)) return true;
    if (!outer) return false;
    if (one_of(key, id_keys)) return true;
    if (key == "type" && value.is_string()) return one_of(value.get_ref<const std::string&>(), call_types);
    return nested_shape && key == "index" && value.is_number_unsigned();
}

// One object to look a field up in, and how its keys are shown in a reason.
struct Level {
    const json* object;
    const char* prefix;          // "" or "function." (OpenAI's nested object)
    bool function_is_nested;     // its "function" key holds the nested object, not a name
};

// A field found under its alias keys. Models sometimes write two (`"tool"` beside
// `"name"`); a downstream reader may pick either, so two that disagree make the call
// ambiguous, as a repeated key does: `conflict` says which two keys. Two that agree are
// one value written twice: taken, and reported (`agreed`).
struct Resolved {
    const json* value = nullptr;
    std::string key;
    bool agreed = false;
    std::string conflict;
};

template <std::size_t N>
Resolved resolve_alias(std::span<const Level> levels, const char* const (&keys)[N], const char* field) {
    Resolved r;
    for (const Level& level : levels) {
        for (const char* k : keys) {
            if (level.function_is_nested && std::string_view(k) == "function") continue;
            auto it = level.object->find(k);
            if (it == level.object->end()) continue;
            const std::string key = std::string(level.prefix) + k;
            if (!r.value) {
                r.value = &*it;
                r.key = key;
            } else if (*it == *r.value) {
                r.agreed = true;
            } else if (r.conflict.empty()) {
                r.conflict = std::string("the call gives its ") + field + " under both \"" + r.key + "\" and \"" + key +
                             "\", with different values; which counts is ambiguous";
            }
        }
    }
    return r;
}

}  // namespace

namespace {

// `Object` is `json` when the caller gives the payload up: the arguments and the keys
// beside are then moved out of it rather than copied (a call's arguments are most of
// its payload).
template <typename Object>
bool read_call_object_from(Object& object, Candidate& c) {
    constexpr bool take = !std::is_const_v<Object>;
    if (!object.is_object()) return false;
    const json* fn = nullptr;
    // OpenAI: {"type": "function", "function": {"name": …, "arguments": …}, "id": …}
    if (auto it = object.find("function"); it != object.end() && it->is_object()) fn = &*it;
    // The nested object is read first; the outer one's aliases count too, so a name or
    // arguments given at both levels are compared, never one of them dropped unread.
    const Level outer{&object, "", fn != nullptr};
    const Level nested{fn, "function.", false};
    const Level nested_first[] = {nested, outer}, outer_first[] = {outer, nested};
    const std::span<const Level> only_outer(&outer, 1);
    const std::span<const Level> name_and_arguments = fn ? std::span<const Level>(nested_first) : only_outer;
    const std::span<const Level> ids = fn ? std::span<const Level>(outer_first) : only_outer;  // the outer id first, as OpenAI writes it

    const Resolved name = resolve_alias(name_and_arguments, name_keys, "name");
    if (!name.value || (!name.value->is_string() && name.conflict.empty())) return false;
    if (name.value->is_string()) c.name = name.value->get<std::string>();

    const Resolved args = resolve_alias(name_and_arguments, arguments_keys, "arguments");
    const Resolved id = resolve_alias(ids, id_keys, "id");
    if (id.value && id.value->is_string()) c.id = id.value->get<std::string>();
    else if (id.value && id.value->is_number()) c.id = id.value->dump();

    // Every other key is kept, for phase two to place or refuse (Candidate::keys_beside).
    for (const Level& level : name_and_arguments) {
        const bool outer_level = level.object == &object;
        for (auto it = level.object->begin(); it != level.object->end(); ++it) {
            if (is_call_syntax(it.key(), it.value(), outer_level, fn != nullptr)) continue;
            if constexpr (take) c.keys_beside.push_back({it.key(), std::string(level.prefix) + it.key(), std::move(it.value())});
            else c.keys_beside.push_back({it.key(), std::string(level.prefix) + it.key(), it.value()});
        }
    }
    // After the keys beside: those were told from call syntax by key alone, and the
    // arguments' value may now be moved out.
    if (args.value) {
        if constexpr (take) c.arguments = std::move(const_cast<json&>(*args.value));  // inside `object`, ours
        else c.arguments = *args.value;
        c.has_arguments = true;
    } else {
        c.arguments = json::object();
        c.has_arguments = false;
    }

    for (const Resolved* r : {&name, &args, &id}) {
        if (!r->conflict.empty() && c.problem.empty()) {
            c.problem = r->conflict;
            c.problem_offset = c.begin;
        }
        if (r->agreed && std::find(c.notes.begin(), c.notes.end(), "alias_keys_agree") == c.notes.end())
            c.notes.push_back("alias_keys_agree");
    }
    return true;
}


template <typename Payload>
void candidates_from(Payload& payload, const Candidate& proto, NameRule rule, CandidateList& out) {
    if (payload.is_object()) {
        if (auto it = payload.find("tool_calls"); it != payload.end() && it->is_array()) {
            candidates_from(*it, proto, rule, out);
            return;
        }
        Candidate c = proto;
        if (read_call_object_from(payload, c)) {
            out.push_back(std::move(c));
        } else if (rule == NameRule::required_in_syntax) {
            c.problem = "the call object names no tool (expected a \"name\" key, or tool_name, tool, function)";
            c.problem_offset = proto.begin;
            out.push_back(std::move(c));
        }
        return;
    }
    if (payload.is_array()) {
        std::size_t index = 0;
        for (auto& element : payload) {
            Candidate c = proto;
            if (read_call_object_from(element, c)) {
                out.push_back(std::move(c));
            } else if (rule == NameRule::required_in_syntax) {
                c.problem = "element " + std::to_string(index) + " of the call list is not a call object with a name";
                c.problem_offset = proto.begin;
                out.push_back(std::move(c));
            }
            ++index;
        }
        return;
    }
    if (rule == NameRule::required_in_syntax) {
        Candidate c = proto;
        c.problem = "the payload is not a call object or a list of them";
        c.problem_offset = proto.begin;
        out.push_back(std::move(c));
    }
}

}  // namespace

bool read_call_object(const json& object, Candidate& c) { return read_call_object_from(object, c); }

void candidates_from_payload(const json& payload, const Candidate& proto, NameRule rule, CandidateList& out) {
    candidates_from(payload, proto, rule, out);
}
void take_candidates_from_payload(json& payload, const Candidate& proto, NameRule rule, CandidateList& out) {
    candidates_from(payload, proto, rule, out);
}

CallObjectKeys call_object_keys() {
    return {listed(name_keys), listed(arguments_keys), listed(id_keys), listed(call_types)};
}

}  // namespace toolgram::detail
