// Harness for the JSON Schema validator (src/validation/schema/): schema × value.
//
// An input is either `SCHEMA\n---\nVALUE` (both JSON; the seeds in fuzz/seeds/schema/ are cases
// of the official JSON-Schema-Test-Suite and attacks), or one byte choosing a schema of the
// corpus's real tools (corpus/tools.json) followed by the VALUE.
//
// Oracles (abort on violation):
//  - compiling never throws, and validating never throws; the same value gets the same
//    verdict and reason twice;
//  - linear time: the subschemas evaluated stay within 6 × (nodes + 1) × (value size + 1)
//    (a quiet pass visits each (subschema, value node) pair once, the explaining pass
//    repeats at most a few branches); an exponential blow-up breaks this long before the
//    time limit would;
//  - a second reading of the same schema: wrapped as {"allOf": [S]} and as
//    {"anyOf": [false, S]} (S given its own $id, so its "#…" references still mean S) it
//    gives the same verdict; reordering the members of the value's top-level object does
//    not change the verdict (JSON Schema does not see key order);
//  - refusing undeclared top-level properties (fallback candidates) only ever refuses more.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "validation/schema/schema.hpp"

namespace {

namespace schema = toolgram::detail::schema;
using toolgram_fuzz::fail;
using toolgram_fuzz::json;

// Values and object keys: what validation walks.
std::size_t value_size(const json& v) {
    std::size_t n = 0;
    std::vector<const json*> todo{&v};
    while (!todo.empty()) {
        const json* j = todo.back();
        todo.pop_back();
        ++n;
        if (j->is_object()) n += j->size();
        if (j->is_structured())
            for (const auto& c : *j) todo.push_back(&c);
    }
    return n;
}

bool parse_json(std::string_view text, json& out) {
    out = json::parse(text.begin(), text.end(), nullptr, false);
    return !out.is_discarded();
}

bool near_a_limit(const schema::Verdict& v) { return v.reason.find("validation would nest deeper") != std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    json document, value;
    const std::size_t cut = input.find("\n---\n");
    if (cut != std::string_view::npos) {
        if (!parse_json(input.substr(0, cut), document) || !parse_json(input.substr(cut + 5), value)) return 0;
    } else {
        if (size == 0 || toolgram_fuzz::tools().empty()) return 0;
        const auto& tools = toolgram_fuzz::tools();
        document = tools[data[0] % tools.size()].parameters;
        if (!parse_json(input.substr(1), value)) return 0;
    }
    // The harness's own dumps and copies recurse; the validator's depth is not the question here.
    if (schema::nesting_depth(value, 200) > 200 || schema::nesting_depth(document, 200) > 200) return 0;

    const schema::Schema compiled = schema::Schema::compile(document);
    const schema::Verdict first = compiled.validate(value);
    const schema::Verdict again = compiled.validate(value);
    if (first.pass != again.pass || first.reason != again.reason) fail("determinism", first.reason + " | " + again.reason);
    if (!compiled.usable()) {
        if (first.pass || first.reason != compiled.error()) fail("unusable schema refuses with its error", first.reason);
        return 0;
    }

    const std::size_t bound = 6 * (compiled.node_count() + 1) * (value_size(value) + 1);
    if (first.steps > bound)
        fail("linear time", std::to_string(first.steps) + " steps for " + std::to_string(compiled.node_count()) +
                                " nodes and a value of " + std::to_string(value_size(value)));

    const schema::Verdict strict = compiled.validate(value, schema::Undeclared::refused_at_top);
    if (strict.pass && !first.pass) fail("strict refuses more", first.reason);

    if (near_a_limit(first)) return 0;
    if (document.is_object() && !document.contains("$id") && !document.contains("id") && !document.contains("$schema")) {
        json inner = document;
        inner["$id"] = "urn:toolgram:fuzz-inner";
        for (const json& wrapper : {json{{"allOf", json::array({inner})}}, json{{"anyOf", json::array({false, inner})}}}) {
            const schema::Schema wrapped = schema::Schema::compile(wrapper);
            if (!wrapped.usable()) {
                // The wrapper adds a level and a step: at either bound it may be refused.
                const std::string& e = wrapped.error();
                if (e.find("nests deeper") != std::string::npos || e.find("in a row") != std::string::npos) continue;
                fail("a wrapped usable schema compiles", e);
            }
            const schema::Verdict w = wrapped.validate(value);
            if (near_a_limit(w)) continue;
            if (w.pass != first.pass)
                fail("wrapping does not change the verdict", wrapper.dump().substr(0, 200) + ": " + first.reason + " | " + w.reason);
        }
    }
    if (value.is_object() && value.size() > 1) {
        json reversed = json::object();
        auto& members = value.get_ref<json::object_t&>();
        for (auto it = members.rbegin(); it != members.rend(); ++it)
            reversed.get_ref<json::object_t&>().emplace_back(it->first, it->second);
        const schema::Verdict r = compiled.validate(reversed);
        if (!near_a_limit(r) && r.pass != first.pass) fail("key order does not matter", first.reason + " | " + r.reason);
    }
    return 0;
}
