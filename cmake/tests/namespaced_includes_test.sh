#!/usr/bin/env bash
# Every include of one of parity's headers by its path from the source root is written
# <parity/DIR/...>, as a consumer of the installed package writes it (the installed headers
# include each other that way): fails listing each "DIR/..." include left in a C++ or CUDA file
# or a Markdown code example. ci/namespace-includes rewrites them.
# usage: namespaced_includes_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
dirs=$(sed -n 's/^set(PARITY_HEADER_DIRS \(.*\))$/\1/p' cmake/ParityIncludeRoot.cmake | tr ' ' '|')
[ -n "$dirs" ] || { echo "FAIL: no PARITY_HEADER_DIRS in cmake/ParityIncludeRoot.cmake"; exit 1; }
left=$(find . \( -path ./build -o -path './.*' -o -path ./reports \) -prune -o -type f \
         \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' -o -name '*.md' \) \
         -print0 | xargs -0 grep -nE "#include \"($dirs)/" || true)
if [ -n "$left" ]; then
  echo "$left"
  echo "FAIL: $(printf '%s\n' "$left" | wc -l) includes of parity's headers not written <parity/...> (run ci/namespace-includes)"
  exit 1
fi
echo "every include of parity's headers is <parity/...>"
