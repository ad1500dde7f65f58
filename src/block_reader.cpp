// Shared pieces of the grammar readers (see block_reader.hpp): failed blocks, and the key
// aliases that turn a JSON object into a candidate.
#include "block_reader.hpp"

namespace toolgram::detail {

Block failed_block(std::string_view grammar, std::size_t begin, std::size_t end, const FailureInfo& failure,
                   std::size_t limit_depth) {
    Candidate c;
    c.grammar = std::string(grammar);
    c.begin = begin;
    c.end = end;
    c.problem = failure.kind == Failure::too_deep
                    ? "nesting deeper than the limit of " + std::to_string(limit_depth) + " levels"
                    : failure.message;
    c.problem_offset = failure.offset;
    c.cut = failure.kind == Failure::cut;
    Block b;
    b.begin = begin;
    b.end = end;
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

const json* first_of(const json& object, std::initializer_list<const char*> keys) {
    for (const char* k : keys) {
        auto it = object.find(k);
        if (it != object.end()) return &*it;
    }
    return nullptr;
}

}  // namespace

bool read_call_object(const json& object, Candidate& c) {
    if (!object.is_object()) return false;
    const json* fn = nullptr;
    // OpenAI: {"type": "function", "function": {"name": …, "arguments": …}, "id": …}
    if (auto it = object.find("function"); it != object.end() && it->is_object()) fn = &*it;
    const json& source = fn ? *fn : object;

    const json* name = first_of(source, {"name", "tool_name", "tool", "function"});
    if (!name || !name->is_string()) return false;
    c.name = name->get<std::string>();

    const json* args = first_of(source, {"arguments", "parameters", "params", "args", "input"});
    if (args) {
        c.arguments = *args;
        c.has_arguments = true;
    } else {
        c.arguments = json::object();
        c.has_arguments = false;
    }
    const json* id = first_of(object, {"id", "tool_call_id", "call_id"});
    if (!id && fn) id = first_of(*fn, {"id", "tool_call_id", "call_id"});
    if (id && id->is_string()) c.id = id->get<std::string>();
    else if (id && id->is_number()) c.id = id->dump();
    return true;
}

void candidates_from_payload(const json& payload, const Candidate& proto, NameRule rule, std::vector<Candidate>& out) {
    if (payload.is_object()) {
        if (auto it = payload.find("tool_calls"); it != payload.end() && it->is_array()) {
            candidates_from_payload(*it, proto, rule, out);
            return;
        }
        Candidate c = proto;
        if (read_call_object(payload, c)) {
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
        for (const auto& element : payload) {
            Candidate c = proto;
            if (read_call_object(element, c)) {
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

}  // namespace toolgram::detail
