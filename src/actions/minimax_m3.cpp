// Reader for the minimax_m3 family (grammars/minimax_m3.hpp): invokes inside
// `]<]minimax[>[<tool_call>`, each parameter an element named after it, objects and arrays
// written as nested elements.
//
// The rules see only elements and text; this reader keeps the stack of open elements and
// gives each parameter its value when its element closes. A parameter that is text is
// left to phase two, typed from the schema as every text-valued family's is. A parameter
// with child elements is a container, and only the schema can say which kind: the
// template writes an object as one child per member and an array as one `item` child per
// element, so the reader builds it here, where the tool is known, typing each text leaf
// from the schema node it stands under (an array's `items`, an object's `properties` or
// `additionalProperties`). Without a schema a container whose children are all `item` is
// an array, as the template writes one; any other is an object, a repeated member
// collecting its values in an array as both engines' readers do. Text beside child
// elements, or a closer that names another element, refuses the call: neither is
// something the template writes, and the engines disagree on what it means.
#include <unordered_map>

#include "readers/grammar_def.hpp"
#include "minimax_m3.hpp"
#include "readers/params_reader.hpp"
#include "validation/toolset.hpp"

namespace toolgram::detail {
namespace minimax_m3_reader {
namespace {

namespace m = grammar::minimax_m3;

constexpr std::string_view ns = "]<]minimax[>[";

// One element being read: its name, its text, its children so far.
struct Element {
    std::string name;
    std::string text;
    std::vector<Element> children;
    bool closer_missing = false;  // ended by the invoke's or the block's tag
};

struct M3State : ParamsState {
    std::vector<Element> open;       // outermost first; open.front() is the parameter
    const json* tool_schema = nullptr;  // the call's tool's schema, when tools are known
};

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

enum class Kind { none, array, object };

// Which container a schema node asks for, and the node that says so: its own `type`
// (a union with "null" included), or the single container branch of an anyOf / oneOf.
Kind container_kind(const json* schema, const json** branch) {
    *branch = schema;
    if (!schema || !schema->is_object()) return Kind::none;
    auto kind_of_type = [](const json& t) {
        if (t == "array") return Kind::array;
        if (t == "object") return Kind::object;
        return Kind::none;
    };
    if (const auto t = schema->find("type"); t != schema->end()) {
        if (t->is_string()) return kind_of_type(*t);
        Kind found = Kind::none;
        if (t->is_array())
            for (const auto& one : *t) {
                const Kind k = kind_of_type(one);
                if (k == Kind::none) continue;
                if (found != Kind::none && found != k) return Kind::none;  // both: the text decides
                found = k;
            }
        return found;
    }
    for (const char* key : {"anyOf", "oneOf"}) {
        const auto alts = schema->find(key);
        if (alts == schema->end() || !alts->is_array()) continue;
        Kind found = Kind::none;
        for (const auto& alt : *alts) {
            const json* b = nullptr;
            const Kind k = container_kind(&alt, &b);
            if (k == Kind::none) continue;
            if (found != Kind::none) return Kind::none;  // two container branches: ambiguous
            found = k;
            *branch = b;
        }
        return found;
    }
    return Kind::none;
}

const json* member_schema(const json* object_schema, const std::string& name) {
    if (!object_schema || !object_schema->is_object()) return nullptr;
    if (const auto p = object_schema->find("properties"); p != object_schema->end() && p->is_object())
        if (const auto s = p->find(name); s != p->end()) return &*s;
    if (const auto a = object_schema->find("additionalProperties"); a != object_schema->end() && a->is_object())
        return &*a;
    return nullptr;
}

const json* items_schema(const json* array_schema) {
    if (!array_schema || !array_schema->is_object()) return nullptr;
    const auto i = array_schema->find("items");
    return i != array_schema->end() && i->is_object() ? &*i : nullptr;
}

// Outputs leaked by MiniMax's API show an element's closer written without the token
// (`]<]minimax[>[<query>news</query>]<]minimax[>[<limit>…`): the rules then read the closer
// as text. Where the element's text holds its own closer so, which text is the value is a
// guess, so the call is refused with that reason rather than given `news</query>`.
bool holds_bare_closer(const Element& e) {
    return e.text.find("</" + e.name + ">") != std::string::npos;
}
std::string bare_closer_reason(const Element& e) {
    return "the closer </" + e.name + "> is written without " + std::string(ns) + ": where the value ends is ambiguous";
}

class ContainerBuilder {
public:
    ContainerBuilder(M3State& st, bool typed) : st_(st), typed_(typed) {}

    json value(Element& e, const json* schema, const std::string& path) {
        const json* branch = nullptr;
        const Kind kind = container_kind(schema, &branch);
        if (e.children.empty()) {
            if (kind == Kind::array && blank(e.text)) return json::array();  // an empty list renders as no children
            if (kind == Kind::object && blank(e.text)) return json::object();
            if (!typed_) return e.text;
            return type_text_value(e.text, schema, path, st_.current.notes, st_.max_depth, &too_deep_, false, false,
                                   st_.tool_schema);
        }
        if (!blank(e.text) && problem_.empty())
            problem_ = holds_bare_closer(e) ? bare_closer_reason(e)
                                            : "the value of \"" + path + "\" holds text beside its elements";
        bool as_array = kind == Kind::array;
        if (kind == Kind::none && !typed_) {
            as_array = true;
            for (const auto& c : e.children) as_array = as_array && c.name == "item";
        }
        if (as_array) {
            json out = json::array();
            const json* items = items_schema(branch);
            for (auto& c : e.children) out.push_back(value(c, items, path + "[]"));
            return out;
        }
        // Members in written order; a name given more than once collects its values in an
        // array (the engines' reading), each typed as an element of the member's array
        // schema when it has one.
        json out = json::object();
        auto& members = out.get_ref<json::object_t&>();  // appended: the names are unique by now
        // Grouped through an index: an object of 10^5 members must not cost 10^10 comparisons.
        std::vector<std::string> order;
        std::vector<std::vector<Element*>> groups;
        std::unordered_map<std::string_view, std::size_t> index;
        for (auto& c : e.children) {
            const auto [at, added] = index.emplace(c.name, order.size());
            if (added) {
                order.push_back(c.name);
                groups.emplace_back();
            }
            groups[at->second].push_back(&c);
        }
        for (std::size_t i = 0; i < order.size(); ++i) {
            const json* member = member_schema(branch, order[i]);
            const std::string member_path = path + "." + order[i];
            if (groups[i].size() == 1) {
                members.emplace_back(order[i], value(*groups[i][0], member, member_path));
                continue;
            }
            const json* member_branch = nullptr;
            const json* each = container_kind(member, &member_branch) == Kind::array ? items_schema(member_branch) : member;
            json list = json::array();
            for (Element* c : groups[i]) list.push_back(value(*c, each, member_path + "[]"));
            members.emplace_back(order[i], std::move(list));
        }
        return out;
    }

    const std::string& problem() const { return problem_; }
    bool too_deep() const { return too_deep_; }

private:
    M3State& st_;
    bool typed_;
    std::string problem_;
    bool too_deep_ = false;
};

void set_problem(M3State& st, std::string why, std::size_t offset) {
    if (!st.current.problem.empty()) return;
    st.current.problem = std::move(why);
    st.current.problem_offset = offset;
}


// A parameter's element has closed: its value is the call's.
void finish_parameter(M3State& st, Element& e, std::size_t offset) {
    st.key = e.name;
    const json* property = member_schema(st.tool_schema, e.name);
    if (e.children.empty()) {
        const json* branch = nullptr;
        const Kind kind = container_kind(property, &branch);
        if (kind != Kind::none && blank(e.text)) {  // an empty object or list: no children
            set_argument(st.current, e.name, kind == Kind::array ? json::array() : json::object());
            return;
        }
        // Where the closer was left out, the line break before the next tag is layout.
        st.value_closer_missing(e.closer_missing);
        st.set_text(e.text);  // typed in phase two
        return;
    }
    ContainerBuilder b(st, st.tool_schema != nullptr);
    json v = b.value(e, property, e.name);
    if (!b.problem().empty()) set_problem(st, b.problem(), offset);
    if (b.too_deep() && st.current.problem.empty()) {
        set_too_deep(st.current, st.max_depth);
        st.current.problem_offset = offset;
    }
    set_argument(st.current, e.name, std::move(v));
}

void close_element(M3State& st, std::size_t offset) {
    if (st.open.empty()) return;
    Element e = std::move(st.open.back());
    st.open.pop_back();
    if (!st.open.empty()) st.open.back().children.push_back(std::move(e));
    else finish_parameter(st, e, offset);
}

template <typename Rule>
struct minimax_m3_action : params::shape_action<Rule> {};
template <> struct minimax_m3_action<m::invoke_start> : params::tag_begin {};
template <> struct minimax_m3_action<m::invoke_open> {
    template <typename Input>
    static void apply(const Input& in, M3State& st) {
        params::call_name_attribute::apply(in, st);
        st.open.clear();
        st.tool_schema = nullptr;
        const ToolSet* tools = st.ctx ? st.ctx->tools() : nullptr;
        if (tools && !tools->empty())
            if (const auto r = tools->resolve(st.current.name); r.index >= 0) st.tool_schema = &tools->schema(r.index);
    }
};
// The name is read from the whole tag, not from `element_name` alone: that matches in
// `]<]minimax[>[<invoke name=…` too, before the tag fails, and its action would still run.
std::string tag_name(std::string_view tag, std::string_view after) {
    const auto b = tag.rfind(after) + after.size();
    return std::string(tag.substr(b, tag.size() - 1 - b));
}
template <> struct minimax_m3_action<m::element_open> {
    template <typename Input>
    static void apply(const Input& in, M3State& st) { st.open.push_back(Element{tag_name(in.string_view(), "<"), {}, {}, false}); }
};
template <> struct minimax_m3_action<m::text> {
    template <typename Input>
    static void apply(const Input& in, M3State& st) {
        if (!st.open.empty()) st.open.back().text.append(in.begin(), in.end());
    }
};
template <> struct minimax_m3_action<m::element_close> {
    template <typename Input>
    static void apply(const Input& in, M3State& st) {
        const std::string close_name = tag_name(in.string_view(), "</");
        if (!st.open.empty() && st.open.back().name != close_name)
            set_problem(st,
                        "the closer " + std::string(ns) + "</" + close_name + "> does not match the element <" +
                            st.open.back().name + "> it stands for",
                        st.offset_of(in.begin()));
        close_element(st, st.offset_of(in.begin()));
    }
};
template <> struct minimax_m3_action<m::element_close_missing> {
    template <typename Input>
    static void apply(const Input& in, M3State& st) {
        st.note("missing_end_tag");
        if (!st.open.empty()) {
            st.open.back().closer_missing = true;
            if (holds_bare_closer(st.open.back())) set_problem(st, bare_closer_reason(st.open.back()), st.offset_of(in.begin()));
        }
        close_element(st, st.offset_of(in.begin()));
    }
};
// Output ended inside a value: the call is refused as cut; the elements open are dropped,
// not given their partial text.
template <> struct minimax_m3_action<m::value_cut> {
    template <typename Input>
    static void apply(const Input& in, M3State& st) {
        if (st.open.empty()) return;
        if (st.current.problem.empty()) {  // the first reason is the call's
            st.key = st.open.front().name;
            st.current.problem = "output cut inside the value of parameter \"" + st.key + "\"";
            st.current.problem_offset = st.offset_of(in.begin());
            st.current.cut = true;
        }
        st.open.pop_back();
    }
};
template <> struct minimax_m3_action<m::invoke> : params::call_end {};

std::vector<std::string> markers(const Settings&) { return {std::string(ns) + "<tool_call>"}; }

std::optional<Block> read_at(ScanContext& ctx, std::size_t at) {
    M3State st;
    st.layout = ValueLayout{};  // the template writes values verbatim
    const RunResult r = run_rule_at<m::block, minimax_m3_action>(ctx, at, st);
    if (r.failed) return failed_block_to_closer(ctx, "minimax_m3", at, r.failure, std::string(ns) + "</tool_call>");
    if (!r.matched || st.calls.empty()) return std::nullopt;
    Block block;
    block.begin = at;
    block.end = r.end;
    for (auto& c : st.calls) {
        c.grammar = "minimax_m3";
        c.repairs |= st.repairs;
        c.healed = c.healed || st.healed;
        for (const auto& n : st.notes) c.notes.push_back(n);
        block.candidates.push_back(std::move(c));
    }
    return block;
}

// A value as the template's to_xml writes it: an object's members and a list's items as
// elements, strings verbatim, anything else as JSON text. (The template leaves a null out;
// written as `null` it reads back as null where the schema allows one.)
void write_value(std::string& out, const json& v) {
    if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) {
            out.append(ns).append("<").append(it.key()).append(">");
            write_value(out, *it);
            out.append(ns).append("</").append(it.key()).append(">");
        }
    } else if (v.is_array()) {
        for (const auto& x : v) {
            out.append(ns).append("<item>");
            write_value(out, x);
            out.append(ns).append("</item>");
        }
    } else {
        out.append(parameter_text(v));
    }
}

// As MiniMax-M3's template writes calls: one block, an invoke a line, no break between
// parameters.
std::string render(const std::vector<Call>& calls, const Settings&) {
    std::string out = std::string(ns) + "<tool_call>\n";
    for (const auto& c : calls) {
        out.append(ns).append("<invoke name=\"").append(c.name).append("\">");
        if (c.arguments.is_object()) write_value(out, c.arguments);
        out.append(ns).append("</invoke>\n");
    }
    return out.append(ns).append("</tool_call>");
}

std::string instruction(const Settings& s) {
    return "To call tools, reply with one " + std::string(ns) + "<tool_call> block holding one invoke per call and one "
           "element per argument, named after it, every tag preceded by " + std::string(ns) + ":\n" +
           render({Call{"", "TOOL_NAME", {{"PARAM", "VALUE"}, {"LIST", {"A", "B"}}, {"OBJECT", {{"KEY", "VALUE"}}}}}}, s) +
           "\nWrite an object as one element per member and a list as one <item> element per element.";
}

}  // namespace
}  // namespace minimax_m3_reader

constexpr BlockSpec minimax_m3_blocks[] = {
    {"]<]minimax[>[<tool_call>", "]<]minimax[>[</tool_call>"},
};

constexpr AliasSpec minimax_m3_aliases[] = {
    {"vLLM", "minimax_m3", "MiniMax-M3"},
    {"SGLang", "minimax-m3", "MiniMax-M3"},
};

namespace {
// MiniMax-M3 reasons in <mm:think>…</mm:think> (its template may open the block in the
// prompt). Its namespace token stands before every tag; one outside a block (the engines'
// readers leave a stray one in content) is framing, not the answer's.
void configure_minimax_m3(Settings& s) {
    add_reasoning(s, {"<mm:think>", "</mm:think>"});
    add_content_marker(s, "]<]minimax[>[");
}
}  // namespace

constexpr ProfileSpec minimax_m3_profiles[] = {
    {
        .name = "minimax_m3",
        .models = "MiniMax-M3",
        .description = "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=NAME>]<]minimax[>[<K>V]<]minimax[>[</K>…]<]minimax[>[</invoke>"
                       "]<]minimax[>[</tool_call>, every tag behind the ]<]minimax[>[ token; objects and lists as nested elements; "
                       "<mm:think>",
        .configure = configure_minimax_m3,
    },
};

constexpr TemplateSignature minimax_m3_signatures[] = {
    // MiniMax-M3 writes `<tool_call>` too, every tag behind its namespace token.
    {
        .family = "MiniMax-M3: ]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=…>]<]minimax[>[<K>V…",
        .all = {"]<]minimax[>[", "<tool_call>", "<invoke name="},
        .engines = {{"vLLM", "minimax_m3"}, {"SGLang", "minimax-m3"}},
    },
};

constexpr RuleVariant minimax_m3_variants[] = {
    {"minimax_m3::element_close_missing", "element closer left out before the invoke's or block's tag (MiniMax-M3)"},
    {"minimax_m3::tag_gap", "blanks between ]<]minimax[>[ and its tag (MiniMax-M3)"},
};

extern const GrammarDef minimax_m3_grammar{
    .name = "minimax_m3",
    .summary = "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=NAME>]<]minimax[>[<K>V]<]minimax[>[</K>…]<]minimax[>[</invoke>]<]minimax[>[</tool_call>",
    .markers = minimax_m3_reader::markers,
    .read_at = minimax_m3_reader::read_at,
    .instruction = minimax_m3_reader::instruction,
    .render = minimax_m3_reader::render,
    .blocks = minimax_m3_blocks,
    .aliases = minimax_m3_aliases,
    .profiles = minimax_m3_profiles,
    .signatures = minimax_m3_signatures,
    .variants = minimax_m3_variants,
};

}  // namespace toolgram::detail
