// toolgram_stack_depth: how much stack one level of nesting costs, per profile, so that
// Limits::max_depth_ceiling stays a ceiling the stack survives (issue 13).
//
// Every grammar recurses once per bracket or element level (depth_limited), and so do
// nlohmann's copy, dump and comparison of the value read, and schema validation. The
// bench parses a call whose argument nests k deep, in every built-in profile and shipped
// profile file, on a thread whose stack it owns: the stack is painted with a pattern
// first, and the lowest byte no longer holding the pattern after the run is the
// high-water mark. Two depths give the cost of one level (the difference over the levels
// between them), which does not depend on what the thread had on its stack before.
//
//   toolgram_stack_depth [--profiles NAME|FILE.json,…] [--depths K1,K2] [--stack KIB] [--max-depth N]
//
// Columns, bytes per level: `grammar` (an argument deeper than the limit, rejected when
// the grammar reaches it: the grammar's own recursion, nothing built), `parse` (an
// accepted call: grammar, copies, schema validation), `use` (parse, then what a caller
// does with the result: to_json(…).dump(), to_openai_message, a copy and a comparison),
// `stream` (a StreamParser fed 16-byte chunks). The last lines give nlohmann's own
// recursions and the worst cost times the ceiling. Build it in each configuration of
// interest (Release, Debug -O0, sanitizers): the figures differ by several times.
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace {

using toolgram::json;

// Runs fn on a thread with a stack of `size` bytes (a guard page below it) and returns
// the bytes of it that were used, or 0 when the thread could not start.
std::size_t stack_used(std::size_t size, const std::function<void()>& fn) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    size = (size + page - 1) / page * page;
    void* mem = mmap(nullptr, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (mem == MAP_FAILED) return 0;
    mprotect(mem, page, PROT_NONE);  // an overflow faults instead of writing past the stack
    unsigned char* base = static_cast<unsigned char*>(mem) + page;
    std::memset(base, 0xA5, size);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstack(&attr, base, size);
    pthread_t thread;
    auto call = [](void* f) -> void* {
        (*static_cast<const std::function<void()>*>(f))();
        return nullptr;
    };
    std::size_t used = 0;
    if (pthread_create(&thread, &attr, call, const_cast<std::function<void()>*>(&fn)) == 0) {
        pthread_join(thread, nullptr);
        std::size_t i = 0;
        while (i < size && base[i] == 0xA5) ++i;
        used = size - i;
    }
    pthread_attr_destroy(&attr);
    munmap(mem, size + page);
    return used;
}

json nested(std::size_t k, bool objects) {
    json v = "bottom";
    for (std::size_t i = 0; i < k; ++i) v = objects ? json{{"a", std::move(v)}} : json::array({std::move(v)});
    return v;
}

std::vector<toolgram::Tool> tools() {
    return toolgram::tools_from_json(json::parse(R"([
      {"name": "store", "parameters": {"type": "object", "properties": {"record": {"type": ["object", "array"]}},
       "required": ["record"]}},
      {"name": "tree", "parameters": {"type": "object", "properties": {"record": {"$ref": "#/definitions/node"}},
       "required": ["record"], "definitions": {"node": {"type": ["array", "integer"], "items": {"$ref": "#/definitions/node"}}}}}
    ])"));
}

// The output for one call whose record nests k deep, in the profile's syntax: the call
// rendered with a number for the record, the number replaced by the nesting (every
// syntax writes a number bare and reads JSON's brackets and quoted keys), as
// tests/unit/hostile_depth_test.cpp does. Shapes: objects ({"a": {"a": … 1}}), arrays
// ([[… 1]]), tree (arrays for the tool whose schema refers to itself once per level, so
// validation recurses as deep as the value), elements (xml only: <a><a>…</a></a>).
std::string output_for(const toolgram::Profile& p, std::size_t k, const std::string& shape) {
    if (shape == "elements") {
        std::string s = "<tool_call><name>store</name><arguments><record>";
        for (std::size_t i = 0; i < k; ++i) s += "<a>";
        s += "x";
        for (std::size_t i = 0; i < k; ++i) s += "</a>";
        return s + "</record></arguments></tool_call>";
    }
    const std::string tool = shape == "tree" ? "tree" : "store";
    // text_kv has only a fallback, which render_calls does not write with: its lines here.
    std::string text;
    if (p.name == "text_kv") text.append("Action: ").append(tool).append("\nAction Input: {\"record\": 7777777}\n");
    else text = toolgram::render_calls(p, {toolgram::Call{"", tool, {{"record", 7777777}}}});
    std::string nesting;
    for (std::size_t i = 0; i < k; ++i) nesting += shape == "objects" ? "{\"a\": " : "[";
    nesting += '1';
    nesting.append(k, shape == "objects" ? '}' : ']');
    text.replace(text.find("7777777"), 7, nesting);
    return text;
}

struct Outcome {
    std::size_t used = 0;
    std::string verdict;
};

std::string verdict(const toolgram::Result& r) {
    std::string v = r.calls.size() == 1 ? "accepted" : r.telemetry.rejected.empty() ? "nothing" : r.telemetry.rejected[0].reason;
    return v.size() > 60 ? v.substr(0, 57) + "..." : v;
}

// Workloads: grammar and parse run Parser::parse (the result destroyed), use adds what a
// caller does with the result (to_json(…).dump(), to_openai_message, a copy and a
// comparison), stream feeds a StreamParser 16-byte chunks and finishes.
Outcome run(const toolgram::Parser& parser, const std::string& text, const std::string& workload, std::size_t stack) {
    Outcome o;
    o.used = stack_used(stack, [&] {
        if (workload == "stream") {
            toolgram::StreamParser s(parser);
            for (std::size_t i = 0; i < text.size(); i += 16) (void)s.feed(std::string_view(text).substr(i, 16));
            o.verdict = verdict(s.finish().result);
            return;
        }
        const toolgram::Result r = parser.parse(text);
        o.verdict = verdict(r);
        if (workload == "use") {
            const std::string a = toolgram::to_json(r).dump();
            const std::string b = toolgram::to_openai_message(r).dump();
            const toolgram::Result copy = r;
            if (!r.calls.empty() && !(copy.calls[0].arguments == r.calls[0].arguments)) o.verdict += " (copy differs)";
            if (a.empty() || b.empty()) o.verdict += " (empty dump)";
        }
    });
    return o;
}

toolgram::Profile profile_of(const std::string& source) {
    return source.size() > 5 && source.compare(source.size() - 5, 5, ".json") == 0 ? toolgram::load_profile_file(source)
                                                                                   : toolgram::builtin_profile(source);
}

toolgram::Profile with_depth(toolgram::Profile p, std::size_t depth) {
    p.settings.limits.max_depth = depth;
    p.settings.tool_required = true;               // json and text_kv are read by fallbacks only:
    p.settings.fallback_max_bytes = 1u << 20;      // their gates must not stop a deep call first
    return p;
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string x; std::getline(in, x, ',');)
        if (!x.empty()) out.push_back(x);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> profiles = toolgram::builtin_profile_names();
    for (const char* file : {"hermes", "kimi_k2", "deepseek_v31", "mistral", "qwen3_coder", "glm45", "minimax_m2", "pythonic"})
        profiles.push_back(std::string(TOOLGRAM_SOURCE_DIR) + "/docs/profiles/" + file + ".json");
    std::size_t k1 = 64, k2 = 0, stack = 64u << 20, max_depth = toolgram::Limits::max_depth_ceiling;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--profiles") profiles = split(value);
        else if (flag == "--depths") {
            const auto d = split(value);
            if (d.size() == 2) k1 = std::stoul(d[0]), k2 = std::stoul(d[1]);
        } else if (flag == "--stack") stack = std::stoul(value) << 10;
        else if (flag == "--max-depth") max_depth = std::stoul(value);
        else {
            std::fprintf(stderr, "usage: toolgram_stack_depth [--profiles A,B] [--depths K1,K2] [--stack KIB] [--max-depth N]\n");
            return 2;
        }
    }
    const std::size_t ceiling = toolgram::Limits::max_depth_ceiling;
    if (k2 == 0) k2 = max_depth - 8;  // leaves room for the levels a syntax adds around the record
    if (k2 <= k1 || k2 > max_depth) {
        std::fprintf(stderr, "toolgram_stack_depth: depths must satisfy K1 < K2 <= max_depth\n");
        return 2;
    }
    std::printf("bytes of stack per nesting level, between depths %zu and %zu (max_depth %zu)\n"
                "grammar: an argument too deep, rejected when the grammar reaches the limit (max_depth %zu, then %zu);\n"
                "parse, use, stream: an accepted call (see the file's head)\n\n",
                k1, k2, max_depth, k1, k2);
    std::printf("| profile | shape | grammar | parse | use | stream | at depth %zu: used bytes, verdict |\n"
                "|---|---|---|---|---|---|---|\n",
                k2);
    double worst = 0;
    std::size_t worst_used = 0;
    for (const auto& source : profiles) {
        const toolgram::Profile p = with_depth(profile_of(source), max_depth);
        const toolgram::Parser parser(p, tools());
        const toolgram::Parser at_k1(with_depth(p, k1), tools()), at_k2(with_depth(p, k2), tools());
        std::vector<std::string> shapes = {"objects", "arrays", "tree"};
        if (source == "xml") shapes.push_back("elements");
        for (const auto& shape : shapes) {
            std::string t1, t2, too_deep;
            try {
                t1 = output_for(p, k1, shape);
                t2 = output_for(p, k2, shape);
                too_deep = output_for(p, k2 + 64, shape);
            } catch (const std::exception& e) {
                std::printf("| %s | %s | cannot render: %s |\n", source.c_str(), shape.c_str(), e.what());
                continue;
            }
            std::printf("| %s | %s ", source.c_str(), shape.c_str());
            const Outcome g1 = run(at_k1, too_deep, "parse", stack), g2 = run(at_k2, too_deep, "parse", stack);
            double per_level = (double(g2.used) - double(g1.used)) / double(k2 - k1);
            worst = std::max(worst, per_level);
            std::printf("| %.0f ", per_level);
            Outcome deep;
            for (const char* workload : {"parse", "use", "stream"}) {
                const Outcome a = run(parser, t1, workload, stack);
                const Outcome b = run(parser, t2, workload, stack);
                per_level = (double(b.used) - double(a.used)) / double(k2 - k1);
                worst = std::max(worst, per_level);
                worst_used = std::max(worst_used, b.used);
                std::printf("| %.0f ", per_level);
                if (std::string(workload) == "use") deep = b;
            }
            std::printf("| %zu, %s |\n", deep.used, deep.verdict.c_str());
            std::fflush(stdout);
        }
    }
    // What a caller (or a validator) does with the value read, on its own: nlohmann's
    // copy, dump, comparison and conversion to its sorted-map json recurse once a level;
    // destruction does not (since 3.10), shown for contrast.
    std::printf("\nnlohmann::ordered_json alone, bytes per level:");
    for (const char* op : {"copy", "dump", "compare", "to_json", "destroy"}) {
        std::size_t used[2] = {0, 0};
        const std::size_t depth[2] = {k1, k2};
        for (int i = 0; i < 2; ++i) {
            const json v = nested(depth[i], true);
            used[i] = stack_used(stack, [&] {
                const std::string o = op;
                if (o == "copy") {
                    const json c = v;
                } else if (o == "dump") {
                    (void)v.dump();
                } else if (o == "compare") {
                    const json c = v;
                    if (!(c == v)) std::printf("!");
                } else if (o == "to_json") {
                    const nlohmann::json plain(v);
                    (void)plain;
                } else {
                    json c = nested(depth[i], true);
                }
            });
        }
        const double per_level = (double(used[1]) - double(used[0])) / double(k2 - k1);
        worst = std::max(worst, per_level);
        std::printf(" %s %.0f", op, per_level);
    }
    std::printf("\n");
    std::printf("\nworst: %.0f bytes per level; deepest run used %zu bytes; %zu levels at the worst cost take %.0f KiB "
                "of a 256 KiB stack\n",
                worst, worst_used, ceiling, worst * double(ceiling) / 1024.0);
    return 0;
}
