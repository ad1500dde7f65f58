// Candidate building for named-parameter families (see params_reader.hpp).
#include "readers/params_reader.hpp"

#include <algorithm>

#include "validation/toolset.hpp"

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
    // The parameters the tool declares tell its tags from text that looks like them.
    declared_ = nullptr;
    required_ = nullptr;
    previous_key_.clear();
    held_closer_.clear();
    const ToolSet* tools = ctx ? ctx->tools() : nullptr;
    if (tools && !tools->empty()) {
        const ToolSet::Resolution r = tools->resolve(current.name);
        if (r.index >= 0) {
            const json& schema = tools->schema(r.index);
            if (schema.is_object()) {
                if (const auto p = schema.find("properties"); p != schema.end() && p->is_object()) declared_ = &*p;
                if (const auto r = schema.find("required"); r != schema.end() && r->is_array()) required_ = &*r;
            }
        }
    }
}

namespace {

// The text inside a value that is one CDATA section (blanks around it aside), if it is one.
std::optional<std::string_view> cdata_inner(std::string_view raw) {
    constexpr std::string_view open = "<![CDATA[", close = "]]>";
    const auto b = raw.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos || raw.compare(b, open.size(), open) != 0) return std::nullopt;
    const auto e = raw.find_last_not_of(" \t\r\n") + 1;
    if (e < b + open.size() + close.size() || raw.compare(e - close.size(), close.size(), close) != 0)
        return std::nullopt;
    const std::string_view inner = raw.substr(b + open.size(), e - close.size() - b - open.size());
    if (inner.find(close) != std::string_view::npos) return std::nullopt;  // two sections, or text between
    return inner;
}

}  // namespace

void ParamsState::set_text(std::string_view raw) {
    if (const auto inner = cdata_inner(raw)) {
        set_argument(current, key, std::string(*inner));
        if (!layout.cdata_native && std::find(current.notes.begin(), current.notes.end(), "cdata_unwrapped") == current.notes.end())
            current.notes.push_back("cdata_unwrapped");
    } else if (layout.strip_blanks) {
        set_argument(current, key, std::string(trim_text(raw)));
    } else if (layout.newline_each_side) {
        set_argument(current, key, std::string(strip_layout_newlines(raw)));
    } else {
        std::string_view v = raw;
        if (closer_missing_ && !v.empty() && v.back() == '\n') {
            v.remove_suffix(1);
            if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
        }
        set_argument(current, key, std::string(v));
    }
    closer_missing_ = false;
    weigh_held_closer();
    settle_value_doubt();
}

ParamsState ParamsState::scratch() const {
    ParamsState s;
    s.ctx = ctx;
    s.settings = settings;
    s.base = base;
    s.max_depth = max_depth;
    s.allow_skip = allow_skip;
    return s;
}

bool ParamsState::parameter_undeclared(std::string_view k) const {
    return declared_ && !declared_->contains(trim_text(k));
}

bool ParamsState::parameter_required(std::string_view k) const {
    if (!required_) return false;
    const std::string name = trim_text(k);
    for (const auto& r : *required_)
        if (r.is_string() && r.get_ref<const std::string&>() == name) return true;
    return false;
}

// Two readings of a call stand where a value holds its own closer with text after it (so in
// this call that closer is text) and a value came before it: the closer that ended the value
// before may be text as well, that value running on through this one, which then is no
// parameter at all. Both readings leave one closer unpaired (in the longer value the held
// closer pairs with this value's opener), so the schema decides: when the tool requires this
// parameter, only the reading that has it fits; otherwise both fit, and the call is refused
// as ambiguous. A value that is the call's first has no such rival: running it on through the
// next one would leave more closers unpaired, not fewer.
void ParamsState::weigh_held_closer() {
    if (!held_closer_.empty() && !previous_key_.empty() && !parameter_required(key)) {
        const std::string tool = current.name.empty() ? std::string("the tool") : current.name;
        const std::string shown(std::string_view(held_closer_).substr(0, 64));
        const std::string unrequired = required_ ? tool + " does not require it" : "no schema requires it";
        value_doubt_text("the value of parameter \"" + key + "\" holds " + shown + " with text after it, so the " +
                             shown + " before it may be text too: whether \"" + previous_key_ +
                             "\" ends there or runs on through \"" + key + "\" (" + unrequired + ") is ambiguous",
                         held_offset_);
    }
    held_closer_.clear();
    previous_key_ = key;
}

void ParamsState::value_doubt(grammar::params::doubt kind, std::string_view text, std::size_t offset) {
    if (!doubt_.empty()) return;  // the first reason is the value's
    using grammar::params::doubt;
    std::string why_text;
    const std::string value = "the value of parameter \"" + key + "\"";
    const std::string tool = current.name.empty() ? std::string("the tool") : current.name;
    const std::string shown(text.substr(0, std::min<std::size_t>(text.size(), 64)));
    switch (kind) {
        case doubt::undeclared_after_close:
            why_text = value + " is followed by a parameter \"" + shown + "\" that " + tool +
                       " does not declare: whether that tag ends the value or is part of it is ambiguous";
            break;
        case doubt::undeclared_open:
            why_text = value + " holds a tag of parameter \"" + shown + "\", which " + tool +
                       " does not declare, yet its own closer is missing: whether that tag starts a parameter"
                       " or is part of the value is ambiguous";
            break;
        case doubt::closer_held:
            why_text = value + " holds " + shown +
                       " yet its own closer is missing: which of them ends the value is ambiguous";
            break;
        case doubt::nested_twice:
            why_text = value + " holds a call (" + shown +
                       ") with another call inside it: where the value ends is ambiguous";
            break;
        case doubt::nested_end:
            why_text = value + " holds a call (" + shown +
                       ") whose end cannot be told from the value's: where the value ends is ambiguous";
            break;
        case doubt::ends_in_closer:
            why_text = value + " ends in " + shown +
                       ": whether the model wrote that closer twice or it is the value's is ambiguous";
            break;
        case doubt::call_closer_held:
            why_text = value + " has no closer but holds " + shown +
                       " with text after it: whether that ends the call is ambiguous";
            break;
    }
    value_doubt_text(std::move(why_text), offset);
}

void ParamsState::value_doubt_text(std::string why, std::size_t offset) {
    if (!doubt_.empty()) return;
    doubt_ = std::move(why);
    doubt_offset_ = offset;
}

void ParamsState::settle_value_doubt() {
    if (doubt_.empty()) return;
    if (current.problem.empty()) {
        current.problem = std::move(doubt_);
        current.problem_offset = doubt_offset_;
    }
    doubt_.clear();
}

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
    weigh_held_closer();
    settle_value_doubt();
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
