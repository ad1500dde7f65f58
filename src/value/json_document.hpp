// The one reader for JSON documents that come from files and stdin rather than from a
// model: tools files, profile files, JSONL lines, a corpus's expect.json and tools.json,
// an earlier coverage report. Such documents are semi-trusted (written by people, or
// downloaded with a corpus), so reading one must cost linear time and bounded stack
// whatever it holds.
//
// nlohmann's own parser is iterative, but what toolgram then does with a value is not:
// copies, dumps and comparisons recurse once per nesting level, so a 100,000-deep array
// overflows the stack long after it was read. This reader refuses nesting deeper than
// max_document_depth while reading (from nlohmann's SAX events, with an explicit stack),
// so every value it returns can be copied, dumped and compared on a small stack. It also
// appends object members without ordered_map's linear search for the key (toolgram's
// json keeps key order, and that search made 100,000 keys cost 10^10 comparisons), and
// refuses a key given twice in one object, as profile files always have: nlohmann would
// keep one of the two silently, and which one counts is then anyone's guess.
//
// Errors are values: what was wrong, where (byte offset, line and column, and the member
// path such as `settings.reasoning[1].open`), never an exception for a bad document.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

// Tool schemas sit a few levels deep inside a JSONL line, and the schema validator bounds
// a schema at 128 levels of its own; 256 leaves room for both with a wide margin, and
// keeps a copy, dump or comparison within a few tens of KiB of stack.
inline constexpr std::size_t max_document_depth = 256;

struct DocumentError {
    enum class Kind { syntax, too_deep, repeated_key };
    Kind kind = Kind::syntax;
    std::size_t offset = 0;            // byte offset of the offending token
    std::size_t line = 1, column = 1;  // 1-based; the column counts bytes
    std::string where;                 // member path of the offending key or value, empty at the top
    // For people, without the document's name: "nesting deeper than 256 levels at line 1,
    // column 257", "settings.tag_open: given twice in the same object at line 4, column 5",
    // "not valid JSON: parse error at line 1, column 3: syntax error while parsing value - …".
    std::string message;
};

struct DocumentRead {
    json value;                          // null when there is an error
    std::optional<DocumentError> error;
};

// Reads one JSON document (strict JSON, nothing after the value but whitespace).
DocumentRead read_json_document(std::string_view text);

// The same, throwing std::invalid_argument(error.message) on an error, for callers that
// report exceptions.
json parse_json_document(std::string_view text);

}  // namespace toolgram::detail
