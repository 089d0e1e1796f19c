#!/bin/sh
# bench/mkdoc.sh: rewrite Documentation/performance.rst's results section
# from build/bench/results.md (run after `make bench`; commit the result).
set -eu
doc=Documentation/performance.rst
res=${1:-build/bench/results.md}
tmp=$(mktemp)
sed '/^\.\. results-begin/q' "$doc" >"$tmp"
{ echo; echo '::'; echo; sed 's/^/    /; s/^    $//' "$res"; echo; } >>"$tmp"
sed -n '/^\.\. results-end/,$p' "$doc" >>"$tmp"
mv "$tmp" "$doc"
