#!/usr/bin/env bash
# A family lives in its own files (issue 30): everything the runtime knows about a family
# is declared in its record, beside its reader, and every table is derived from the
# records. So, for every family, the files under src/ and include/ that name it are its
# own, and a file that names another family's grammar says why below. This check fails,
# naming the file, the family and the line, on any other.
#
# The families are the names of the records in src/actions/ (`.name = "NAME"` of a
# GrammarDef or of one of its profiles: apriel is a profile in jamba's record) and of the
# shipped profile files (grammars/declared/NAME.json), but for
# the generic formats (tag, xml, marker, json, generic, bracket, text_kv) and the
# run-time `declared`, which any model may be prompted with and the runtime may name.
# A family's own files: the one in src/actions/ that holds its record, and beside it
# STEM_reader.hpp where the family's reader is shared (deepseek_v32_reader.hpp). A name is
# a word of letters, digits, `_` and `-` (so `granite-20b-functioncalling` does not name
# granite).
#
#   tests/family_names_test.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}"

# The files that may name another family, as "FILE FAMILY  # why".
allowed=(
    # One profile reads another family's grammar too.
    "src/actions/pythonic.cpp lfm2_json"       # LFM2 writes Python or JSON between the same markers
    # A grammar built from another family's rules or reader.
    "src/actions/hy_v3.cpp glm45"              # Hy3's tags are GLM's
    "src/actions/seed_oss.cpp qwen3_coder"     # Seed-OSS writes Qwen3-Coder's syntax in its own wrapper
    "src/actions/declared.cpp pythonic"        # a profile file's Python calls use pythonic's wrapper rules
    # A family's marker spelt like another family's name.
    "src/actions/llama3_json.cpp functools"    # a Llama 3 template never writes FireFunction's `functools[`
    # `pythonic` as a profile file's argument style ("style": "pythonic"), not the family.
    "include/toolgram/toolgram.hpp pythonic"
    "src/declared/declared_syntax.hpp pythonic"
    "src/declared/declared_syntax.cpp pythonic"
    "src/profiles/profile_file.cpp pythonic"
)

# "FAMILY FILE" for every record name, FILE the record's: a C++ record's, or a shipped
# profile file's (grammars/declared/NAME.json, a family declared as data, which no file
# under src/ or include/ may name).
mapfile -t records < <({
    grep -oE '^ {4}( {4})?\.name = "[a-z0-9_]*"' src/actions/*.cpp | sed -E 's/^([^:]*):.*"([a-z0-9_]*)"$/\2 \1/'
    for f in grammars/declared/*.json; do n=${f##*/}; echo "${n%.json} $f"; done
} | grep -vE '^(tag|xml|marker|json|generic|bracket|text_kv|declared) ' | sort -u)
[ "${#records[@]}" -ge 40 ] || { echo "family names: found only ${#records[@]} families in src/actions/" >&2; exit 1; }

mapfile -t files < <(find src include -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) | sort)
bad=0
checked=0
for record in "${records[@]}"; do
    name=${record%% *}
    own=${record#* }
    reader=${own%.cpp}_reader.hpp
    pattern="(?<![A-Za-z0-9_-])${name}(?![A-Za-z0-9_-])"
    while IFS= read -r file; do
        [ "$file" = "$own" ] || [ "$file" = "$reader" ] && continue
        ok=0
        for a in "${allowed[@]}"; do
            [ "$a" = "$file $name" ] && ok=1
        done
        [ "$ok" = 1 ] && continue
        echo "family names: $file names the family $name (its own file is $own): $(grep -nP -m1 -- "$pattern" "$file")" >&2
        bad=1
    done < <(grep -lP -- "$pattern" "${files[@]}" || true)
    checked=$((checked + 1))
done
# An allowance that no longer holds is removed, so the list stays the truth.
for a in "${allowed[@]}"; do
    file=${a%% *}
    name=${a#* }
    if [ ! -f "$file" ] || ! grep -qP -- "(?<![A-Za-z0-9_-])${name}(?![A-Za-z0-9_-])" "$file"; then
        echo "family names: $file no longer names $name: remove it from the allowed list" >&2
        bad=1
    fi
done
[ "$bad" -eq 0 ] || exit 1
echo "family names: each of $checked families is named under src/ and include/ only in its own files (${#files[@]} files, ${#allowed[@]} allowances)"
