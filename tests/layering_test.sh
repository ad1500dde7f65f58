#!/usr/bin/env bash
# src/'s folders are the stages of a parse, lowest first; a file includes headers of its
# own stage and of those below it, never above (README, "Layout"). This check reads every
# `#include "STAGE/…"` under src/ and fails, naming the file and the include, on one that
# points up. A new folder must be placed in the order below before anything includes it.
#
#   tests/layering_test.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}"

stages=(text scan value io declared validation readers actions combinator stream profiles coverage cli)
# The one include that points up, and why: the grammar `declared` reads the shipped
# profile files with the profile-file reader (issue 30 turns families into data, which
# settles it).
allowed_up=("src/actions/declared.cpp profiles/profile_file.hpp")

rank() {
    local i
    for i in "${!stages[@]}"; do
        if [ "${stages[$i]}" = "$1" ]; then echo "$i"; return; fi
    done
    echo -1
}

for dir in src/*/; do
    stage=$(basename "$dir")
    [ "$(rank "$stage")" -ge 0 ] || { echo "layering: src/$stage/ is in no stage: add it to tests/layering_test.sh" >&2; exit 1; }
done

bad=0
checked=0
while IFS= read -r line; do
    file=${line%%:*}
    included=${line#*#include \"}
    included=${included%%\"*}
    from=$(echo "$file" | cut -d/ -f2)
    to=${included%%/*}
    checked=$((checked + 1))
    [ "$(rank "$to")" -ge 0 ] || continue  # not one of src/'s stages (grammars/, toolgram/)
    [ "$(rank "$to")" -le "$(rank "$from")" ] && continue
    for pair in "${allowed_up[@]}"; do
        [ "$pair" = "$file $included" ] && continue 2
    done
    echo "layering: $file includes $included, a stage above its own ($from)" >&2
    bad=1
done < <(grep -rnoE '#include "[a-z_]+/[A-Za-z0-9_./]+"' src | sed -E 's/:[0-9]+:/:/')

[ "$checked" -gt 100 ] || { echo "layering: only $checked includes read: is this the source tree?" >&2; exit 1; }
[ "$bad" = 0 ] || exit 1
echo "layering: $checked includes under src/, none pointing up a stage"
