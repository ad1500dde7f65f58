#!/usr/bin/env bash
# A family's facts live in its own files (issue 30): what the runtime derives from them
# must not name a family. This check takes every model family's grammar name from the
# records in src/actions/ (`.name = "NAME"`; the generic formats tag, xml, marker, json,
# generic, bracket, text_kv and the run-time `declared` are not families) and fails,
# naming the file and the family, where one of the files below names a family as a word.
# A family's profiles count as its names too (`.name = "NAME"` of GrammarDef::profiles:
# apriel, in jamba's record).
# A table that moves into the families' records joins the list.
#
#   tests/family_names_test.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}"

family_free=(
    src/readers/grammar_def.hpp       # the record's type
    src/readers/unreadable_syntax.cpp # each grammar's blocks: GrammarDef::blocks
    src/profiles/profile_aliases.cpp  # the engines' parser names: GrammarDef::aliases
    src/profiles/profiles.cpp         # the built-in profiles: GrammarDef::profiles
    src/profiles/chat_template.cpp    # the chat-template signatures: GrammarDef::signatures
    src/coverage/coverage_variants.cpp  # the coverage report's rule paths: GrammarDef::variants
)

mapfile -t families < <(grep -hoE '^ {4}( {4})?\.name = "[a-z0-9_]*"' src/actions/*.cpp | sed 's/.*"\(.*\)"/\1/' |
    grep -vxE 'tag|xml|marker|json|generic|bracket|text_kv|declared' | sort -u)
[ "${#families[@]}" -ge 40 ] || { echo "family names: found only ${#families[@]} families in src/actions/" >&2; exit 1; }

bad=0
for file in "${family_free[@]}"; do
    [ -f "$file" ] || { echo "family names: $file is gone: update tests/family_names_test.sh" >&2; exit 1; }
    for name in "${families[@]}"; do
        if grep -qw -- "$name" "$file"; then
            echo "family names: $file names the family $name: $(grep -nw -- "$name" "$file" | head -1)" >&2
            bad=1
        fi
    done
done
[ "$bad" -eq 0 ] || exit 1
echo "family names: ${#family_free[@]} files name none of ${#families[@]} families"
