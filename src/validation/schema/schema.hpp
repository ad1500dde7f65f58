// toolgram's JSON Schema validator for tool schemas: compiled once per tool when a Parser is
// built, then run on every call's arguments. This header is all the rest of toolgram sees.
//
// Why our own: the arguments come from a model, so the validator is the part of toolgram an
// attacker reaches most directly. It must be linear in the value, never recurse deeper than
// the value's own nesting (plus a bound the schema cannot raise), compare numbers exactly
// (no wrap at 2^63, multipleOf on decimals, big integers), count string lengths in code
// points over the whole string, and run regular expressions in linear time (RE2). A schema
// that cannot be honoured (a $ref cycle, multipleOf 0, a pattern with a backreference, an
// unknown type) is an error naming the JSON pointer, reported when the Parser is built; the
// tool's calls are then refused, never validated loosely.
//
// Keywords: those of drafts 4, 6, 7, 2019-09 and 2020-12 that constrain values (see
// compile.cpp for the list), OpenAPI's `nullable`, `$ref` within the document ($defs,
// definitions, $id, $anchor). Annotations (title, description, default, examples, content*)
// are ignored, as are unknown keywords and formats; the assertion keywords we do not
// implement (unevaluated*, $dynamicRef, $recursiveRef) are errors, so nothing is waved through.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace toolgram::detail::schema {

using json = nlohmann::ordered_json;

// Which draft's meaning applies where drafts disagree: whether `$ref` hides its siblings
// (7 and before) and whether 1.0 is an integer (6 and after). A `$schema` naming a draft
// overrides the option. Keyword spellings of every draft are read in any case.
enum class Draft { draft4, draft6, draft7, draft2019_09, draft2020_12 };

struct CompileOptions {
    Draft draft = Draft::draft2020_12;
};

// A schema nested deeper than this (JSON levels) is refused: every later walk of it is
// recursive, and tool schemas are a few levels deep.
constexpr std::size_t max_schema_nesting = 128;
// The most applicator steps on one value with no descent between ($ref, allOf, anyOf, oneOf,
// not, if/then/else, dependentSchemas). Acyclic chains longer than this are refused.
constexpr std::size_t max_applicator_chain = 32;
// The most nested evaluation steps (a value level, or a same-value step such as a $ref) one
// validation may take, and the most stack it may use; past either the value is refused with a
// reason. A value within Limits::max_depth meets a sane schema in 2-3 steps per level. In a
// release build 512 steps take about 100 KiB, so validation fits a 256 KiB worker thread with
// room for the parse above it; the byte budget stops builds with larger frames (-O0,
// sanitizers) before their stack does.
constexpr std::size_t max_evaluation_depth = 512;
constexpr std::size_t max_evaluation_stack = 128 * 1024;

struct Verdict {
    bool pass = true;
    std::string reason;     // why not: "arguments/city: expected string, got integer"
    std::size_t steps = 0;  // subschemas evaluated: at most a few per (node, value node) pair
};

// How strict validation is at the top level: fallback candidates (guesses in prose) may not
// carry a property the schema does not declare, even where the schema allows extra ones.
enum class Undeclared { as_schema_says, refused_at_top };

class Schema {
public:
    // Never throws on a bad schema: usable() is false and error() says what and where
    // ("/properties/when/pattern: ..."). Throws only std::bad_alloc.
    static Schema compile(const json& document, const CompileOptions& options = {});

    Schema();
    ~Schema();
    Schema(Schema&&) noexcept;
    Schema& operator=(Schema&&) noexcept;

    bool usable() const { return program_ != nullptr; }
    std::size_t node_count() const;  // subschemas compiled (0 when unusable)
    const std::string& error() const { return error_; }

    // Linear in the value (each shared subschema is evaluated once per value node). An
    // unusable schema refuses every value with its error. Thread-safe: a compiled schema is
    // never changed by validation.
    Verdict validate(const json& value, Undeclared undeclared = Undeclared::as_schema_says) const;

    struct Program;  // compiled form (program.hpp)

private:
    std::shared_ptr<const Program> program_;
    std::string error_;
};

// JSON nesting of a value (a scalar is 0, `[]` is 1), found without recursion and without
// walking further than `stop_at`: returns at most stop_at + 1.
std::size_t nesting_depth(const json& value, std::size_t stop_at);

}  // namespace toolgram::detail::schema
