// What every fuzz harness shares: the tools the model may call, the settings a grammar
// runs with, and the oracles. An oracle that does not hold prints what it checked and
// the input's size, then calls abort(), which libFuzzer and the replay main both treat as
// a crash (libFuzzer writes the input to crash-<sha1>, scripts/fuzz prints it as base64).
//
// The oracles, for a Parser and an input:
//  - determinism: parsing the same input twice gives the same to_json;
//  - allow-list: every call names a declared tool exactly, its arguments pass that tool's
//    schema (strictly, no undeclared property, for a fallback), and each call matches an
//    accepted candidate in telemetry, in order;
//  - UTF-8: to_json(result).dump() and to_openai_message(result).dump() never throw (the
//    default, strict dump refuses invalid UTF-8) and parse back to the same value; so
//    does each call's arguments.dump();
//  - content accounting (what can be checked from outside, with W(s) = s less its ASCII
//    whitespace, since content joins pieces with normalised whitespace):
//      * W(content) and W(reasoning) are subsequences of W(input with every accepted
//        call's span cut out): every byte of them comes from the input, in order, and no
//        accepted call is also left in the text;
//      * when the parse saw nothing (no candidate, no tool syntax, no reasoning or
//        content-marker token anywhere in the input, input within max_input_bytes),
//        W(content) == W(input): nothing was dropped without a trace.
//
// Stream vs one-shot: see STREAM HARNESS in fuzz/CMakeLists.txt; its oracle belongs here
// (check_stream_matches_one_shot) once StreamParser exists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram_fuzz {

using toolgram::json;

// Prints "oracle failed: <oracle>: <detail>" to stderr and aborts.
[[noreturn]] void fail(std::string_view oracle, std::string_view detail);

// The tools of corpus/tools.json (the corpus seeds call them), or the OpenAI tools file
// named by $TOOLGRAM_FUZZ_TOOLS (scripts/fuzz --tools).
const std::vector<toolgram::Tool>& tools();

// The profile file named by $TOOLGRAM_FUZZ_PROFILE_FILE (scripts/fuzz --profile-file), or
// else the build's default (corpus/declared/arg_lines.profile.json): the syntax the grammar
// `declared` is fuzzed with.
const toolgram::Profile& profile_file();

// Every profile file the project keeps beside the built-in profiles (docs/profiles/*.json,
// corpus/declared/*.profile.json), for the harnesses that run every profile (fuzz_stream,
// fuzz_roundtrip, fuzz_declared). The files compiled in (grammars/declared/) are built-in
// profiles, listed by builtin_profile_names, so not here.
const std::vector<toolgram::Profile>& shipped_profile_files();

// The settings a grammar runs with: those of the first compiled-in profile (auto and the
// shipped profile files excluded) that lists it, so a family grammar meets its own reasoning and content tokens; for a
// grammar no built-in profile lists, the profile file's if it lists it (`declared`, which
// needs a syntax); defaults otherwise.
toolgram::Settings settings_for_grammar(std::string_view grammar);

// A profile running only `grammar`, as primary or as fallback; a fallback profile
// requires a tool call, so its gate opens on any input.
toolgram::Profile single_grammar_profile(std::string_view grammar, toolgram::Role role);

// Parses `text` with `parser` and checks every oracle above; returns the result.
toolgram::Result check_parse(const toolgram::Parser& parser, std::string_view text);

// The UTF-8 oracle alone, for a JSON value about to leave the library.
void check_json_out(const json& value, std::string_view what);
// Replaces each number with leading zeros that the value reader holds for phase two (a
// binary node: value_reader.hpp, ambiguous_number) by its text, as phase two does where
// the schema wants a string (parser.cpp, settle_ambiguous_numbers); returns how many.
std::size_t settle_ambiguous_as_text(json& value);

}  // namespace toolgram_fuzz
