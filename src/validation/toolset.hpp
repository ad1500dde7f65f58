// Phase two's knowledge of the tools: the allow-list, name normalisation, schemas compiled
// once (src/validation/schema/, toolgram's own validator), and typing of text values from a schema.
//
// Built once per Parser. A tool whose schema cannot be compiled does not stop the others:
// it stays on the list (so its calls are recognised and refused with the reason, never
// taken for another tool's) and is reported in problems().
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "toolgram/toolgram.hpp"

#include "validation/schema/schema.hpp"

namespace toolgram::detail {

class ToolSet {
public:
    explicit ToolSet(const std::vector<Tool>& tools);
    ~ToolSet();
    ToolSet(ToolSet&&) noexcept;
    ToolSet& operator=(ToolSet&&) noexcept;

    bool empty() const { return entries_.empty(); }
    std::size_t size() const { return entries_.size(); }

    struct Resolution {
        int index = -1;          // into the tool list, -1 when unresolved
        std::string how;         // exact | case | namespace | loose
        std::string error;       // why unresolved
        RejectionCode code = RejectionCode::none;  // the same, as a code
    };
    // Exact, then case-insensitive, then namespace tail (functions.x, default_api.x), then
    // loose alphanumeric (get-weather). An ambiguous match is no match. A `qualified` name
    // is one whose namespace is part of it (gpt-oss's built-in `browser.search` is not a
    // function `search`): exact or case-insensitive only.
    Resolution resolve(std::string_view raw, bool qualified = false) const;

    const Tool& tool(int index) const;
    const json& schema(int index) const;  // the normalised schema

    // Whether the tool's schema compiled; when not, schema_error says why and every call
    // to the tool is refused.
    bool usable(int index) const;
    const std::string& schema_error(int index) const;
    // The tools whose schema cannot be used, in declaration order.
    const std::vector<ToolProblem>& problems() const { return problems_; }

    // The schema's verdict; `strict` also refuses top-level properties the schema does not
    // declare (fallback candidates are guesses in prose).
    using Verdict = schema::Verdict;
    Verdict validate(int index, const json& arguments, bool strict) const;

private:
    struct Entry;
    std::vector<std::unique_ptr<Entry>> entries_;
    std::vector<ToolProblem> problems_;
};

// Rewrites `nullable: true` as a union with "null", recursively.
json normalise_schema(const json& schema);

// Types one XML-style text value from its property schema (README, "How a parse works":
// a string stays the text, other types read it as JSON or a Python literal). Adds a note when the text does not fit and is kept. An object
// or array nested deeper than `max_depth` (Limits::max_depth) does not fit and sets
// `too_deep`: the caller rejects the call with the limit, as a JSON payload would be.
// `quoted`: the model quoted the value (Gemma's <escape>…<escape>), so the text "null"
// is null only when the schema allows no other type it fits.
// `escaped_json`: the family may write a JSON value escaped once more (GLM 4.6/4.7:
// `[{\"id\": \"1\"}]`, or the value as a JSON string `"[1, 2]"`). Only where the text as
// written fits none of the property's types and the property takes an object or an array
// is the text read once as the inside of a JSON string; if what that gives fits an object
// or array type, it is the value, with the repair `value_unescaped_once_more`. A property
// the text fits as written (any string property) keeps the text exactly.
json type_text_value(std::string text, const json* property_schema, const std::string& key,
                     std::vector<std::string>& notes, std::size_t max_depth = 64, bool* too_deep = nullptr,
                     bool quoted = false, bool escaped_json = false, const json* root = nullptr);

}  // namespace toolgram::detail
