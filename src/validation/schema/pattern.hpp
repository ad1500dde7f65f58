// Regular expressions of `pattern`, `patternProperties` and `format: regex`: JSON Schema
// writes them in ECMA-262 syntax; RE2 runs them, in time linear in the text and without
// growing the stack (libstdc++'s std::regex recursed once per character: a 26 KB argument
// overflowed the stack, and `^([a-zA-Z0-9]+\s?)*$` took exponential time on 31 bytes).
//
// The translation keeps ECMA's meaning where RE2's differs (`.` does not match \r or the
// Unicode line separators, `\s` is ECMA's Unicode white space, `\u` escapes, named groups)
// and refuses what RE2 cannot run in linear time (backreferences, lookaround) or what is not
// ECMA at all (`\Z`), with a message naming the construct. A refused pattern makes its tool
// unusable (its calls are refused): never a crash, never a silent pass.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace toolgram::detail::schema {

// The longest pattern toolgram translates and compiles, in bytes of its ECMA-262 text. A
// pattern is refused past it, before any work: RE2's parse and compile grow many times the
// pattern (a 4 MB pattern took 1.5 GB; one `\S` becomes a class of 17 ranges), and
// `format: regex` compiles the model's own text. Tool schemas' patterns are a few dozen
// bytes; README "Schema validation" documents the limit.
constexpr std::size_t max_pattern_bytes = 4096;

struct TranslatedPattern {
    bool ok = false;
    std::string source;  // RE2 syntax, when ok
    std::string error;   // why not
};
TranslatedPattern translate_pattern(std::string_view ecma);

// The pattern compiled for RE2 (UTF-8, no logging, bounded memory), or null with `error`;
// a pattern longer than max_pattern_bytes is refused unread.
std::unique_ptr<re2::RE2> compile_pattern(std::string_view ecma, std::string& error);

bool pattern_is_valid(std::string_view ecma);

// Whether the pattern occurs anywhere in the text (JSON Schema patterns are not anchored).
bool pattern_found(const re2::RE2& regex, std::string_view text);

}  // namespace toolgram::detail::schema
