// Reader for the XML markup format (grammars/xml.hpp): reads the element tree, then finds
// each call's name, id and arguments among the key aliases (docs/formats.md lists them).
//
// Where the arguments are a JSON body (<arguments>{…}</arguments>) they are read with the
// lenient value grammar; where they are elements (<parameter name="k">v</parameter> or
// <k>v</k>) the values stay text and phase two types them from the tool's schema.
#include <algorithm>

#include "readers/block_reader.hpp"
#include "readers/grammar_def.hpp"
#include "readers/markup_tree.hpp"
#include "xml.hpp"

namespace toolgram::detail {
namespace xml_reader {
namespace {

// One leading and one trailing newline around a text value are layout, not value.
std::string value_text(const Element& e) {
    std::string_view s = e.text;
    if (e.cdata) return std::string(s);
    if (!s.empty() && s.front() == '\n') s.remove_prefix(1);
    else if (s.size() > 1 && s[0] == '\r' && s[1] == '\n') s.remove_prefix(2);
    if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return decode_entities(s);
}

std::string trimmed(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

const Element* find_cut(const Element& e) {
    if (e.cut) return &e;
    for (const auto& c : e.children)
        if (const Element* hit = find_cut(c)) return hit;
    return nullptr;
}

bool is_parameter_element(const Element& e) {
    return e.name == "parameter" || e.name == "param" || e.name == "arg" || e.name == "argument";
}

// A call's first problem is its reason; later ones add nothing.
void refuse(Candidate& c, std::string why, std::size_t offset) {
    if (!c.problem.empty()) return;
    c.problem = std::move(why);
    c.problem_offset = offset;
}

// Reads a JSON body (text of an arguments element); false with a problem when broken.
bool read_json_body(ScanContext& ctx, std::string_view body, Candidate& c) {
    const std::string text = trimmed(body);
    const ValueRead r = read_value(text, 0, ctx.settings().limits.max_depth);
    if (!r.ok || r.healed) {
        refuse(c, "arguments are not valid JSON: " + (r.ok ? std::string("unclosed") : r.failure.message), c.begin);
        return false;
    }
    if (r.end != text.size()) c.notes.push_back("trailing_text_ignored");
    c.arguments = r.value;
    c.repairs |= r.repairs;
    return true;
}

// One field of an element (its name, id, arguments, a parameter's key) as the model gave
// it: in an attribute or a child element under any of the field's aliases, repeats
// included, each with the value it gives.
struct Given {
    std::string where;  // `attribute name`, `<tool_name>`
    std::string value;
    const Element* element = nullptr;  // a child element; null for an attribute
};

enum class Children { none, text, decoded_text };
constexpr std::initializer_list<const char*> name_aliases = {"name", "tool_name", "tool", "function"};

std::vector<Given> given(const Element& e, std::initializer_list<const char*> attributes,
                         std::initializer_list<const char*> aliases, Children children) {
    std::vector<Given> out;
    for (const char* a : attributes)
        for (const auto& [k, v] : e.attributes)
            if (k == a) out.push_back({"attribute " + k, v, nullptr});
    if (children == Children::none) return out;
    for (const char* a : aliases)
        for (const auto& ch : e.children)
            if (ch.name == a)
                out.push_back({"<" + ch.name + ">",
                               children == Children::decoded_text ? trimmed(decode_entities(ch.text)) : trimmed(ch.text), &ch});
    return out;
}

// The value of a field given in several places: the first, when all agree (reported);
// a refusal naming two places that disagree otherwise, since a reader of the same markup
// could take either (as with a repeated JSON key).
const Given* resolve_given(const std::vector<Given>& g, const Element& e, const char* field, Candidate& c) {
    if (g.empty()) return nullptr;
    for (std::size_t i = 1; i < g.size(); ++i) {
        // Elements with children (parameters) are compared by nothing short of their
        // reading: two of them are two readings, which disagree as far as we can tell.
        const bool same = g[i].value == g[0].value && !(g[0].element && !g[0].element->children.empty()) &&
                          !(g[i].element && !g[i].element->children.empty());
        if (!same) {
            const std::string places = g[i].where == g[0].where ? " twice, in " + g[0].where
                                                                : " as both " + g[0].where + " and " + g[i].where;
            refuse(c, "<" + e.name + "> gives its " + field + places + ", with different values; which counts is ambiguous",
                   e.begin);
            return &g[0];
        }
    }
    if (g.size() > 1 && std::find(c.notes.begin(), c.notes.end(), "alias_keys_agree") == c.notes.end())
        c.notes.push_back("alias_keys_agree");
    return &g[0];
}

void add_text_parameter(const Element& p, Candidate& c) {
    const std::vector<Given> keys = given(p, {"name", "key"}, {}, Children::none);
    const Given* key = resolve_given(keys, p, "key", c);
    set_argument(c, key ? key->value : p.name, value_text(p));
}

// Whether a JSON body beside a name attribute is a call object (`{"name": …, "arguments":
// …}`, naming the call again) rather than the arguments of the call the attribute names:
// it has a name key and an arguments key, or a name key that repeats the attribute's.
bool body_names_a_call(const json& body, const std::vector<Given>& names) {
    if (!body.is_object()) return true;
    const json* name = nullptr;
    for (const char* k : name_aliases)
        if (auto it = body.find(k); it != body.end() && it->is_string()) name = &*it;
    if (!name) return false;
    for (const char* k : {"arguments", "parameters", "params", "args", "input"})
        if (body.contains(k)) return true;
    return *name == names.front().value;
}

void read_call(ScanContext& ctx, const Element& e, const Candidate& proto, CandidateList& out) {
    Candidate c = proto;
    c.begin = e.begin;
    c.end = e.end;
    c.healed = c.healed || e.healed;

    // A JSON body straight inside the call element: <tool_call>{"name": …}</tool_call>.
    // A name attribute beside it must name the same tool; or, where the body names no call,
    // the attribute names the call and the body is its arguments:
    // <function_call name="Bash">{"command": "pwd"}</function_call>.
    if (e.children.empty() && !e.cut) {
        const std::string body = trimmed(e.text);
        if (!body.empty() && body.front() == '{') {
            const ValueRead r = read_value(body, 0, ctx.settings().limits.max_depth);
            if (r.ok && !r.healed) {
                c.repairs |= r.repairs;
                const std::vector<Given> attribute_names = given(e, name_aliases, {}, Children::none);
                if (!attribute_names.empty() && !body_names_a_call(r.value, attribute_names)) {
                    if (const Given* name = resolve_given(attribute_names, e, "name", c)) c.name = name->value;
                    const std::vector<Given> ids = given(e, {"id"}, {}, Children::none);
                    if (const Given* id = resolve_given(ids, e, "id", c)) c.id = id->value;
                    if (r.end != body.size()) c.notes.push_back("trailing_text_ignored");
                    c.arguments = r.value;
                    c.arguments_are_text = false;
                    out.push_back(std::move(c));
                    return;
                }
                const std::size_t first = out.size();
                candidates_from_payload(r.value, c, NameRule::required_in_syntax, out);
                const std::vector<Given> names = given(e, name_aliases, {}, Children::none);
                for (std::size_t i = first; i < out.size(); ++i) {
                    std::vector<Given> all = names;
                    all.push_back({"the body's call object", out[i].name, nullptr});
                    if (!names.empty()) resolve_given(all, e, "name", out[i]);
                }
                return;
            }
        }
    }

    if (const Element* cut = find_cut(e)) {
        c.problem = "output cut inside <" + cut->name + ">";
        c.problem_offset = cut->begin;
        c.cut = true;
    }

    // Every place a field may be given is looked at, so none is dropped unread.
    const std::vector<Given> names = given(e, name_aliases, name_aliases, Children::decoded_text);
    if (const Given* name = resolve_given(names, e, "name", c)) c.name = name->value;
    const std::vector<Given> ids = given(e, {"id"}, {"id", "tool_call_id"}, Children::text);
    if (const Given* id = resolve_given(ids, e, "id", c)) c.id = id->value;

    c.arguments = json::object();
    c.arguments_are_text = false;
    const std::vector<Given> argument_places =
        given(e, {"arguments"}, {"arguments", "parameters", "params", "args", "input"}, Children::text);
    const Given* args = resolve_given(argument_places, e, "arguments", c);
    const auto parameter = std::find_if(e.children.begin(), e.children.end(), is_parameter_element);
    if (args && parameter != e.children.end())
        refuse(c, "<" + e.name + "> gives its arguments both in " + args->where + " and as <" + parameter->name +
                      "> elements; which counts is ambiguous",
               e.begin);
    if (args && !args->element) {
        read_json_body(ctx, args->value, c);
    } else if (args) {
        if (!args->element->children.empty()) {
            c.arguments_are_text = true;
            for (const auto& p : args->element->children) add_text_parameter(p, c);
        } else if (!args->value.empty() && !args->element->cut) {
            read_json_body(ctx, args->element->text, c);
        }
    } else {
        for (const auto& p : e.children) {
            if (!is_parameter_element(p)) continue;
            c.arguments_are_text = true;
            add_text_parameter(p, c);
        }
    }
    // Text the call holds that was read as nothing (no element could be read from it: a
    // value holding its own close tag breaks them; a JSON body that is not JSON) is never
    // dropped for empty arguments.
    if (!args && e.children.empty() && !e.cut) {
        const std::string body = trimmed(e.text);
        if (!body.empty())
            refuse(c,
                   body.front() == '{'
                       ? "the body of <" + e.name + "> is not valid JSON"
                       : "<" + e.name + "> holds text that is neither elements nor a JSON body (a value that holds "
                         "markup such as </parameter> must be written as <![CDATA[…]]>)",
                   e.begin);
    }
    if (c.name.empty() && c.problem.empty()) {
        c.problem = "<" + e.name + "> names no tool (expected a name attribute or a <name> element)";
        c.problem_offset = e.begin;
    }
    out.push_back(std::move(c));
}

bool is_wrapper(const Element& e) {
    if (e.name == "function_calls" || e.name == "tool_calls") return true;
    // <tool_call><invoke …>…</invoke></tool_call>: a wrapper too.
    return !e.children.empty() && e.child({"invoke", "tool_call", "function_call"}) != nullptr &&
           e.attribute("name") == nullptr && e.child({"name"}) == nullptr;
}

void read_calls(ScanContext& ctx, const Element& e, const Candidate& proto, CandidateList& out) {
    if (is_wrapper(e)) {
        for (const auto& c : e.children) {
            if (c.name == "invoke" || c.name == "tool_call" || c.name == "function_call") read_calls(ctx, c, proto, out);
        }
        if (e.children.empty()) {
            Candidate c = proto;
            c.problem = "<" + e.name + "> holds no call";
            c.problem_offset = e.begin;
            c.cut = e.cut;
            out.push_back(std::move(c));
        }
        return;
    }
    read_call(ctx, e, proto, out);
}

struct XmlState : MarkupState {};

// A bare opening tag followed by prose (`<tool_call> tags wrap calls…`) is a mention:
// markup calls put a child element or JSON first. Decided from the first bytes, so a
// mention neither costs a read to the end of the output nor keeps a stream waiting for
// a closing tag that will never come.
bool prose_after_bare_tag(std::string_view text, std::size_t at) {
    // Only the next 16 bytes may hold the '>': searching further cost a pass over the rest
    // of the output per opener (quadratic on openers that never close; found by
    // toolgram_hostile, markers_open under xml: 59 s at 8 MiB).
    const std::size_t gt = text.substr(0, std::min(text.size(), at + 17)).find('>', at);
    if (gt == std::string_view::npos || gt - at > 16) return false;  // not a bare tag, or not yet known
    if (text.substr(at, gt - at).find(' ') != std::string_view::npos) return false;  // has attributes
    std::size_t body = gt + 1;
    while (body < text.size() && (text[body] == ' ' || text[body] == '\t' || text[body] == '\r' || text[body] == '\n')) ++body;
    if (body == text.size()) return false;
    return std::isalnum(static_cast<unsigned char>(text[body])) != 0;
}

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    if (prose_after_bare_tag(ctx.text(), at)) return std::nullopt;
    XmlState st;
    const RunResult r = run_rule_at<grammar::xml::block, markup_action, markup_control>(ctx, at, st);
    if (r.failed) {
        note_end(ctx.text());  // the broken block runs to the end of the text, wherever that is
        return failed_block("xml", at, ctx.text().size(), r.failure, ctx.settings().limits.max_depth);
    }
    if (!r.matched || st.done.empty()) return std::nullopt;
    const Element& root = st.done.front();
    // An element whose body is plain prose is a mention, not a call. (Only its first
    // character is looked at: declining must not cost a pass over the rest of the output.)
    if (root.children.empty() && root.attribute("name") == nullptr) {
        const std::size_t first = root.text.find_first_not_of(" \t\r\n");
        if (first == std::string_view::npos || root.text[first] != '{') return std::nullopt;
    }
    Block block;
    block.begin = at;
    block.end = r.end;
    Candidate proto = candidate_from_state("xml", at, r.end, st);
    read_calls(ctx, root, proto, block.candidates);
    if (block.candidates.empty()) return std::nullopt;
    return block;
}

std::vector<std::string> markers(const Settings&) { return {"<tool_call", "<function_call", "<invoke"}; }

std::string instruction(const Settings&) {
    return "Write each tool call as XML, one <parameter> element per argument:\n<tool_call>\n<invoke "
           "name=\"TOOL_NAME\">\n<parameter name=\"PARAM\">VALUE</parameter>\n</invoke>\n</tool_call>\nWrite "
           "objects and arrays as JSON inside the parameter element.";
}

std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = "<function_calls>\n";
    for (const auto& c : calls) {
        out += "<invoke name=\"" + c.name + "\">\n";
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it) {
            const std::string v = it->is_string() ? it->get<std::string>() : json_text(*it);
            const bool raw = v.find_first_of("<&") != std::string::npos && v.find("]]>") == std::string::npos;
            out += "<parameter name=\"" + it.key() + "\">" + (raw ? "<![CDATA[" + v + "]]>" : v) + "</parameter>\n";
        }
        out += "</invoke>\n";
    }
    return out + "</function_calls>";
}
}  // namespace
}  // namespace xml_reader

constexpr BlockSpec xml_blocks[] = {
    {"<tool_call>", "</tool_call>"},
    {"<function_call>", "</function_call>"},
};

constexpr ProfileSpec xml_profiles[] = {
    {
        .name = "xml",
        .models = "any model prompted with XML calls",
        .description = "XML markup calls: <tool_call>, <function_call>, <invoke>",
    },
};

extern const GrammarDef xml_grammar{
    .name = "xml",
    .summary = "XML markup: <tool_call>/<function_call> with name and arguments, <invoke name=…><parameter name=…>",
    .markers = xml_reader::markers,
    .read_at = xml_reader::read_at,
    .instruction = xml_reader::instruction,
    .render = xml_reader::render,
    .blocks = xml_blocks,
    .profiles = xml_profiles,
};

}  // namespace toolgram::detail
