// The `format` keyword: which formats toolgram checks, and the checks.
//
// Each check is a hand-written scanner over the string, linear and without recursion or
// regular expressions (valijson ran std::regex here, which recursed once per character and
// crashed on a 26 KB date). Formats not listed are annotations, as JSON Schema allows:
// they pass, and the schema's other keywords still apply.
#pragma once

#include <string_view>

namespace toolgram::detail::schema {

enum class Format {
    none,  // no format, or one toolgram does not check
    date,
    time,
    date_time,
    duration,
    email,
    hostname,
    ipv4,
    ipv6,
    uri,
    uri_reference,
    iri,
    iri_reference,
    uri_template,
    uuid,
    json_pointer,
    relative_json_pointer,
    regex,
};

Format format_named(std::string_view name);
// For messages: "date (RFC 3339 full-date, YYYY-MM-DD)".
const char* format_description(Format format);
// Whether `text` (valid UTF-8) is in the format.
bool matches_format(Format format, std::string_view text);

}  // namespace toolgram::detail::schema
