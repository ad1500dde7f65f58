#!/usr/bin/env bash
# The coverage report's HTML, opened by a real browser: `toolgram coverage corpus/
# --format html` rendered by headless Chromium (Debian's `chromium`). The unit tests check
# the page's structure; this checks that a browser parses it into the heatmap we wrote
# (one SVG row per model in the DOM Chromium builds) and paints a screenshot of it.
#
# usage: render_html.sh TOOLGRAM_CLI CORPUS_DIR WORK_DIR
# Exits 77 (ctest's "skipped") when no Chromium is installed.
set -euo pipefail

cli=$1 corpus=$2 work=$3
browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [ -z "$browser" ]; then
    echo "render_html: no chromium installed (apt-get install chromium); skipped"
    exit 77
fi

rm -rf "$work"
mkdir -p "$work"
html="$work/coverage.html"
png="$work/coverage.png"
"$cli" coverage "$corpus" --format html --output "$html"

# Root (CI) needs --no-sandbox; a private profile keeps runs from sharing state.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile")

dom="$work/dom.html"
"$browser" "${flags[@]}" --dump-dom "file://$html" >"$dom" 2>"$work/chromium-dom.log"
models=$("$cli" coverage "$corpus" --format csv | awk -F, 'NR > 1 && $2 == "" { n++ } END { print n + 0 }')
rows=$(grep -o '<g class="row">' "$dom" | wc -l)
if [ "$rows" -ne "$models" ] || [ "$models" -eq 0 ]; then
    echo "render_html: the DOM holds $rows heatmap rows, the report $models models" >&2
    exit 1
fi
if ! grep -q '<svg class="heatmap"' "$dom" || ! grep -q '</html>' "$dom"; then
    echo "render_html: the DOM lacks the heatmap or the end of the page" >&2
    exit 1
fi

"$browser" "${flags[@]}" --window-size=1400,1000 --screenshot="$png" "file://$html" >"$work/chromium-shot.log" 2>&1
# A PNG of 1400 x 1000 (IHDR width and height), and not a blank page: a white 1400 x 1000
# PNG is a few kilobytes, the heatmap well over a hundred.
signature=$(od -An -tx1 -N8 "$png" | tr -d ' \n')
size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%d x %d", $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }')
bytes=$(wc -c <"$png")
if [ "$signature" != "89504e470d0a1a0a" ] || [ "$size" != "1400 x 1000" ] || [ "$bytes" -lt 40000 ]; then
    echo "render_html: unexpected screenshot $png: signature $signature, $size, $bytes bytes" >&2
    exit 1
fi
echo "render_html: $browser rendered $rows model rows; screenshot $png ($size, $bytes bytes)"
