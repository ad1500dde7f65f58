#!/usr/bin/env bash
# scripts/new-grammar writes a grammar that works, and the worked example of
# docs/adding-a-grammar.md is what the doc says. Two ctest tests run this script:
#
# toolgram.new_grammar_scaffold (no example=): the script, run into a scratch copy of what
# it edits (grammars/, the registry, corpus/tools.json), never into the source tree:
#  - refused names and markers exit 2 with a reason and leave the copy byte for byte as it was;
#  - a good name writes every file, its record declaring its profile, adds exactly one
#    registry declaration and one table entry and changes no other file, and the fuzz
#    build's reading of the registry (fuzz/registered_grammars.cmake) finds the new grammar
#    and loses none; a second run refuses the name;
#  - what it wrote compiles without warnings, and, linked ahead of the built library in
#    place of the tree's registry, passes the real tests a new grammar must
#    pass after a plain build: the golden corpus runner (tests/unit/corpus_test.cpp) on its
#    example case, the render -> parse round trip and the auto-agreement test
#    (tests/unit/families_test.cpp) and its own PEGTL analyze test;
#  - and that run can fail: the same binary fails once an expected call is changed.
#
# toolgram.adding_a_grammar_example (example=NAME): the scaffold command the doc gives for
# NAME, then the finished files of docs/examples/NAME/ copied over what it wrote (the
# rules, the reader, the unit tests, the corpus), checked the same way over every case of
# the example, with the example's own unit tests ([NAME]) and the stream = one-shot test
# (tests/unit/stream_test.cpp) on its corpus; and the doc must show the example's grammar
# and reader (its record, profile included) exactly as they are in docs/examples/NAME/.
#
# Only the new and edited sources and the test files run are compiled (-O0); rebuilding a
# copy of the tree would cost CI many minutes for the same evidence.
#
# usage: new_grammar_test.sh src=DIR work=DIR cxx=COMPILER cxxflags=FLAGS ldflags=FLAGS
#                            lib=LIBTOOLGRAM catch_main=LIBCATCH2MAIN [example=NAME] [include=DIR…]
# (KEY=VALUE arguments, so that an empty flags value cannot shift the others.)
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true  # `&` in ${var/pattern/replacement} is literal

src="" work="" cxx="" cxxflags="" ldflags="" lib="" catch_main="" example=""
includes=()
for arg in "$@"; do
    value=${arg#*=}
    case "$arg" in
        src=*) src=$value ;;
        work=*) work=$value ;;
        cxx=*) cxx=$value ;;
        cxxflags=*) cxxflags=$value ;;
        ldflags=*) ldflags=$value ;;
        lib=*) lib=$value ;;
        catch_main=*) catch_main=$value ;;
        example=*) example=$value ;;
        # The compiler's own system directory, given with -I, breaks libstdc++'s #include_next.
        include=/usr/include | include=/usr/local/include | include=) ;;
        include=*) includes+=("-I$value") ;;
        *) echo "new_grammar_test: unknown argument $arg" >&2; exit 2 ;;
    esac
done
for v in src work cxx lib catch_main; do
    [ -n "${!v}" ] || { echo "new_grammar_test: $v= is required" >&2; exit 2; }
done

fail() {
    echo "new_grammar_test: FAIL: $*" >&2
    exit 1
}
step() { echo "new_grammar_test: $*"; }

rm -rf "$work"
root=$work/tree
mkdir -p "$root/src/readers" "$root/corpus"
cp -r "$src/grammars" "$root/"
cp -r "$src/src/actions" "$root/src/"  # the records, which hold every profile's name
cp "$src/src/readers/grammar_registry.cpp" "$root/src/readers/"
cp "$src/corpus/tools.json" "$root/corpus/"
scaffold=$src/scripts/new-grammar

registered() { cmake -DREGISTRY="$1" -P "$src/fuzz/registered_grammars.cmake"; }
snapshot() { (cd "$root" && find . -type f -print0 | sort -z | xargs -0 md5sum); }

# ---------------------------------------------------------------------------------------
# toolgram.new_grammar_scaffold: refusals (exit 2, a reason on stderr, nothing written),
# then a grammar with a marker that needs escaping in C++ and JSON, then the defaults.
# Sets name, and sabotage (an expectation file and the text in it to change).

scaffold_checks() {

before=$(snapshot)
refused=0
expect_refusal() {
    local why=$1
    shift
    local err rc=0
    err=$("$scaffold" "$@" --root "$root" 2>&1 >/dev/null) || rc=$?
    [ "$rc" = 2 ] || fail "new-grammar $* exited $rc, not 2 ($why)"
    [[ "$err" == *"$why"* ]] || fail "new-grammar $*: expected a reason with \"$why\", got: $err"
    [ "$(snapshot)" = "$before" ] || fail "new-grammar $* was refused but changed the tree"
    refused=$((refused + 1))
}
expect_refusal "is not a grammar name" Bad_name
expect_refusal "is not a grammar name" 9lives
expect_refusal "is not a grammar name" dash-name
expect_refusal "exists already" hermes
expect_refusal "exists already" json             # the strict JSON grammar, in grammars/strict_json.hpp
expect_refusal "exists already" lenient          # a namespace of grammars/common/lenient_value.hpp
expect_refusal "exists already" apriel           # a profile in jamba's record, no grammar of its own
expect_refusal "built-in profile" auto
expect_refusal "C++ keyword" class
expect_refusal "give --close" fresh --marker "[CALL]"
expect_refusal "control character" fresh --marker $'<a\nb>' --close "</a>"
expect_refusal "backslash" fresh --marker '<a\b>' --close "</a>"
expect_refusal "the same text" fresh --marker "<x>" --close "<x>"
expect_refusal "unknown option" fresh --bogus
step "$refused refusals, each with its reason, the tree untouched"

name=scaffold_probe
open='<|probe "q" & x|>'
close='<|/probe|>'
grammars_before=$(registered "$root/src/readers/grammar_registry.cpp")
"$scaffold" "$name" --marker "$open" --close "$close" --models 'Probe-1 "test" & co' --root "$root" >/dev/null

for f in "grammars/$name.hpp" "src/actions/$name.cpp" "tests/unit/grammar_${name}_test.cpp" \
         "corpus/$name/single.txt" "corpus/$name/single.expect.json"; do
    [ -s "$root/$f" ] || fail "new-grammar did not write $f"
done
[ "$(grep -cxF "extern const GrammarDef ${name}_grammar;" "$root/src/readers/grammar_registry.cpp")" = 1 ] ||
    fail "the registry does not declare ${name}_grammar exactly once"
[ "$(grep -cxF "        &${name}_grammar," "$root/src/readers/grammar_registry.cpp")" = 1 ] ||
    fail "the registry table does not list &${name}_grammar exactly once"
[ "$(grep -cxF "        .name = \"$name\"," "$root/src/actions/$name.cpp")" = 1 ] &&
    [ "$(grep -cxF "    .profiles = ${name}_profiles," "$root/src/actions/$name.cpp")" = 1 ] ||
    fail "src/actions/$name.cpp does not declare one profile $name in its record"
[ "$(registered "$root/src/readers/grammar_registry.cpp")" = "$grammars_before"$'\n'"$name" ] ||
    fail "the fuzz build would not read the registry as before plus $name"
grep -qF "$open" "$root/corpus/$name/single.txt" || fail "the example case does not use the opener as given"
# Only the registry changed among the files that were there: the family's profile is in
# its own record.
changed=$(cd "$root" && echo "$before" | md5sum --check --quiet 2>/dev/null | sed 's/: FAILED$//' | sort | tr '\n' ' ') || true
[ "$changed" = "./src/readers/grammar_registry.cpp " ] || fail "files changed beyond the registry: $changed"
step "$name: files written, its profile in its record, one declaration, one entry, the fuzz build finds it"

after=$(snapshot)
before=$after
expect_refusal "exists already" "$name"

# The defaults: <NAME_call> and </NAME_call>, the models left for the author to name.
defaults=$work/defaults
mkdir -p "$defaults/src/readers"
cp "$src/src/readers/grammar_registry.cpp" "$defaults/src/readers/"
"$scaffold" scaffold_defaults --root "$defaults" >/dev/null
grep -qF 'str<"<scaffold_defaults_call>">' "$defaults/grammars/scaffold_defaults.hpp" ||
    fail "the default opener is not <NAME_call>"
grep -qF 'str<"</scaffold_defaults_call>">' "$defaults/grammars/scaffold_defaults.hpp" ||
    fail "the default closer is not </NAME_call>"
grep -qxF '        .models = "TODO: the models that write this syntax",' "$defaults/src/actions/scaffold_defaults.cpp" ||
    fail "the default models text is not the TODO"
step "defaults: <NAME_call> … </NAME_call>, models TODO"
sabotage=("$root/corpus/$name/single.expect.json" '"city": "Paris"' '"city": "Lyon"')
}

# ---------------------------------------------------------------------------------------
# toolgram.adding_a_grammar_example: the doc's scaffold command, then the finished example.

example_checks() {
name=$example
local doc=$src/docs/adding-a-grammar.md finished=$src/docs/examples/$example
[ -d "$finished" ] || fail "no example $finished"
if [ -e "$src/grammars/$name.hpp" ] || [ -e "$src/corpus/$name" ]; then
    # Someone followed the doc in this tree: its own $name is tested like every grammar.
    echo "new_grammar_test: the tree has a $name grammar of its own; the doc's example is checked in a tree without one (skipped)"
    exit 77
fi
# The command as the doc gives it (its first line starting `scripts/new-grammar NAME`),
# its quoted arguments split as a shell would.
local line
line=$(grep -m1 -E "^scripts/new-grammar $example( |\$)" "$doc") || fail "the doc gives no scripts/new-grammar $example command"
local -a args
eval "args=(${line#scripts/new-grammar })"
"$scaffold" "${args[@]}" --root "$root" >/dev/null || fail "the doc's command failed: $line"
step "the doc's command: $line"
# The doc shows the finished grammar and reader whole: they must be the files tested here.
local f
for f in "grammars/$name.hpp" "src/actions/$name.cpp"; do
    awk -v file="$finished/$f" '
        BEGIN { while ((getline l < file) > 0) want[n++] = l }
        { lines[m++] = $0 }
        END { for (i = 0; i + n <= m; ++i) { for (k = 0; k < n && lines[i + k] == want[k]; ++k) {} if (k == n) exit 0 } exit 1 }
    ' "$doc" || fail "the doc's copy of $f differs from docs/examples/$example/$f"
done
step "the doc shows grammars/$name.hpp and src/actions/$name.cpp as they are"
# The finished files replace what the scaffold wrote; its example case goes (as
# docs/examples/NAME/README.md says to do).
rm "$root/corpus/$name/single.txt" "$root/corpus/$name/single.expect.json"
local part
for part in grammars src tests corpus; do
    [ ! -d "$finished/$part" ] || cp -r "$finished/$part" "$root/"
done
step "$(find "$root/corpus/$name" -name '*.txt' | wc -l) cases in corpus/$name"
extra_tests=("stream = one-shot on every corpus case under every profile: the first half"
             "stream = one-shot on every corpus case under every profile: the second half" "[$name]")
extra_sources=("$src/tests/unit/stream_test.cpp")
local positive
positive=$(grep -l '"call_0"' "$root/corpus/$name"/*.expect.json | head -n 1)
[ -n "$positive" ] || fail "the example has no case with a call"
sabotage=("$positive" '"call_0"' '"call_9"')
}

extra_tests=()
extra_sources=()
if [ -z "$example" ]; then scaffold_checks; else example_checks; fi

# ---------------------------------------------------------------------------------------
# Compile what was written (warnings are errors there), link it ahead of the library, and
# run the tests a new grammar meets after a plain build.

read -r -a flags <<<"$cxxflags"
read -r -a link_flags <<<"$ldflags"
common=(-std=c++20 -O0 "${flags[@]}" "-I$root/grammars" "-I$src/src" "-I$src/include" "${includes[@]}")
strict=(-Wall -Wextra -Wpedantic -Werror)
objects=()
compile() {  # compile OUT SOURCE EXTRA…
    local out=$work/$1 source=$2
    shift 2
    "$cxx" "${common[@]}" "$@" -c "$source" -o "$out" || fail "$source does not compile"
    objects+=("$out")
}
started=$SECONDS
compile reader.o "$root/src/actions/$name.cpp" "${strict[@]}"
compile registry.o "$root/src/readers/grammar_registry.cpp" "${strict[@]}"
compile grammar_test.o "$root/tests/unit/grammar_${name}_test.cpp" "${strict[@]}"
for source in "$src/tests/unit/corpus_test.cpp" "$src/tests/unit/families_test.cpp" "${extra_sources[@]}"; do
    compile "$(basename "$source" .cpp).o" "$source" "-DTOOLGRAM_SOURCE_DIR=\"$root\""
done
# The new registry comes first: the linker then takes nothing from the library's own copy (an archive member is pulled only for a symbol still undefined).
"$cxx" "${objects[@]}" "$lib" "$catch_main" "${link_flags[@]}" -o "$work/check" || fail "the check does not link"
step "compiled and linked in $((SECONDS - started)) s"

tests=("golden corpus: each model output parses to its expected result"
       "round trip: calls rendered in each profile's syntax parse back to the same calls"
       "auto agrees with each family's own profile on that family's corpus"
       "every family profile names the models it serves and teaches a syntax it reads"
       "PEGTL analyze finds no cycle without progress in the $name grammar"
       "${extra_tests[@]}")
spec=$(IFS=,; echo "${tests[*]}")
for t in "${tests[@]}"; do  # a name that matches nothing would pass unnoticed
    [ -n "$("$work/check" --list-test-names-only "$t")" ] || fail "no test \"$t\" in the check"
done
"$work/check" "$spec" || fail "the $name grammar fails the tests a new grammar must pass"

# The check can fail: change one expected call and the golden test must say where.
sabotaged_case=$(basename "${sabotage[0]}" .expect.json)
expected=$(cat "${sabotage[0]}")
printf '%s\n' "${expected/"${sabotage[1]}"/"${sabotage[2]}"}" >"${sabotage[0]}"
if "$work/check" "golden corpus: each model output parses to its expected result" >"$work/sabotaged.log" 2>&1; then
    fail "the golden test passed with a wrong expectation in $name/$sabotaged_case"
fi
grep -qF "$name/$sabotaged_case" "$work/sabotaged.log" || fail "the golden test failed, but not on $name/$sabotaged_case"
step "the check fails on a wrong expectation, naming $name/$sabotaged_case"
step "PASS"
