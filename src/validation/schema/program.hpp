// The compiled form of a schema, shared by the compiler (compile.cpp), which builds it once,
// and the evaluator (validate.cpp), which only reads it.
//
// A schema becomes a graph of nodes, one per subschema reached from the root, each holding
// its keywords already checked and converted (numbers as JSON numbers, patterns compiled,
// property names sorted for binary search). Subschemas refer to each other by index; a
// `$ref` is an edge like any other, so recursive schemas are cycles through a keyword that
// descends into the value (properties, items, …), never through same-value keywords (the
// compiler refuses those).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "validation/schema/formats.hpp"
#include "validation/schema/schema.hpp"

namespace re2 {
class RE2;
}

namespace toolgram::detail::schema {

// JSON types as a bit set. `integer` is its own bit so `"type": "integer"` can refuse 2.5.
enum TypeBit : std::uint8_t {
    type_null = 1u << 0,
    type_boolean = 1u << 1,
    type_object = 1u << 2,
    type_array = 1u << 3,
    type_number = 1u << 4,
    type_integer = 1u << 5,
    type_string = 1u << 6,
};

constexpr int no_node = -1;

struct Node {
    enum class Kind : std::uint8_t { checks, accept_all, reject_all } kind = Kind::checks;
    std::string pointer;  // where it stands in the schema document, for messages
    bool shared = false;  // reached by $ref: memoised per value node (linear time)

    // Any type
    std::uint8_t types = 0;  // 0: any
    bool nullable = false;   // OpenAPI: null passes `type` and `enum` too
    std::vector<json> enum_values;  // as written: messages quote them
    // Each member's canonical text (equal for JSON-equal values) to its index, hashed once
    // when compiled: a value costs one lookup, where a scan compared it with every member
    // (100,000 members and 100,000 items took 35 s). Equal members: the first is kept.
    std::unordered_map<std::string, std::size_t> enum_index;
    bool has_enum = false;
    json const_value;
    bool has_const = false;
    int ref = no_node;

    // Numbers (JSON numbers as read: int64, uint64 or double)
    std::optional<json> minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of;

    // Strings: lengths in code points
    std::optional<std::uint64_t> min_length, max_length;
    int pattern = -1;  // into Program::patterns
    Format format = Format::none;

    // Arrays
    std::vector<int> prefix_items;
    int items = no_node;  // the elements past prefix_items
    int contains = no_node;
    std::optional<std::uint64_t> min_items, max_items, min_contains, max_contains;
    bool unique_items = false;

    // Objects
    std::vector<std::pair<std::string, int>> properties;        // sorted by name
    std::vector<std::pair<int, int>> pattern_properties;        // (pattern, node)
    int additional_properties = no_node;
    int property_names = no_node;
    std::vector<std::string> required;
    std::optional<std::uint64_t> min_properties, max_properties;
    std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;
    std::vector<std::pair<std::string, int>> dependent_schemas;

    // Applicators on the same value
    std::vector<int> all_of, any_of, one_of;
    int not_schema = no_node, if_schema = no_node, then_schema = no_node, else_schema = no_node;
};

// A text equal for JSON-equal values, and only for them (1 and 1.0 alike, object members in
// any order): uniqueItems sorts by it, enum looks values up by it. Recursive, on values
// whose nesting the caller has bounded.
void canonical_text(const json& v, std::string& out);

struct Pattern {
    std::string source;  // as the schema wrote it (ECMA-262), for messages
    std::unique_ptr<re2::RE2> regex;
    Pattern();
    Pattern(Pattern&&) noexcept;
    Pattern& operator=(Pattern&&) noexcept;
    ~Pattern();
};

struct Schema::Program {
    std::vector<Node> nodes;  // nodes[0] is the root
    std::vector<Pattern> patterns;
    Draft draft = Draft::draft2020_12;
    bool any_shared = false;  // whether evaluation needs a memo at all
};

}  // namespace toolgram::detail::schema
