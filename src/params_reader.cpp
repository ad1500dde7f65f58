// Candidate building for named-parameter families (see params_reader.hpp).
#include "params_reader.hpp"

namespace toolgram::detail {

std::string_view strip_layout_newlines(std::string_view s) {
    if (s.size() >= 2 && s[0] == '\r' && s[1] == '\n') s.remove_prefix(2);
    else if (!s.empty() && s.front() == '\n') s.remove_prefix(1);
    if (!s.empty() && s.back() == '\n') {
        s.remove_suffix(1);
        if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    }
    return s;
}

std::string trim_text(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

void ParamsState::begin_call(std::string_view name, std::size_t begin) {
    current = Candidate{};
    current.name = trim_text(name);
    current.begin = begin;
    current.arguments = json::object();
    current.arguments_are_text = true;
    key.clear();
    in_call = true;
}

void ParamsState::set_text(std::string_view raw) { set_argument(current, key, std::string(strip_layout_newlines(raw))); }

void ParamsState::set_json_value(std::string_view raw) {
    const std::string text = trim_text(raw);
    // The value is bounded by its closing tag, so it is complete: read it with a newline
    // after it, or a number that ends the text ("3") would count as cut off.
    const ValueRead r = read_value(text + "\n", 0, max_depth);
    if (r.ok && !r.healed && r.end == text.size()) {
        set_argument(current, key, r.value);
        current.repairs |= r.repairs;
    } else {
        set_argument(current, key, text);  // typed (or refused) from the schema in phase two
        current.notes.push_back("parameter \"" + key + "\" marked as JSON is not JSON; kept as text");
    }
}

void ParamsState::end_call(std::size_t end) {
    current.end = end;
    calls.push_back(std::move(current));
    current = Candidate{};
    in_call = false;
}

std::string parameter_text(const json& value) {
    return value.is_string() ? value.get<std::string>() : json_text(value);
}

std::string render_params_calls(const std::vector<Call>& calls, const ParamsLayout& l) {
    std::string out(l.section_open);
    for (const auto& c : calls) {
        out.append(l.call_open).append(c.name).append(l.call_name_end);
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it)
            out.append(l.param_open).append(it.key()).append(l.param_key_end).append(parameter_text(*it)).append(l.param_close);
        out.append(l.call_close);
    }
    return out.append(l.section_close);
}

}  // namespace toolgram::detail
