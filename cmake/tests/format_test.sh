#!/usr/bin/env bash
# Every tracked C++ and CUDA source is in the project's format (.clang-format, clang-format 14,
# Debian's, which ci/setup installs): fails listing each file clang-format would change (ci/format
# rewrites them). Exits 77 (skipped) where there is no clang-format 14: another version formats
# differently, so its verdict would not be this project's.
# usage: format_test.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
tool=$(command -v clang-format-14 || true)
if [ -z "$tool" ]; then
  echo "format_test: no clang-format-14 on PATH (ci/setup installs it): skipped"
  exit 77
fi
if [ -e .git ] && files=$(git ls-files -- '*.cpp' '*.hpp' '*.h' '*.cc' '*.cu' '*.cuh' 2>/dev/null); then :; else
  files=$(find . \( -path ./build -o -path './.*' -o -path ./reports \) -prune -o -type f \
            \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' \) -print)
fi
count=$(echo "$files" | grep -c .)
[ "$count" -gt 0 ] || { echo "FAIL: no C++ source found under $1"; exit 1; }
unformatted=$(echo "$files" | xargs -P "$(nproc)" -n 20 "$tool" --style=file --dry-run 2>&1 |
              sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: \(warning\|error\): code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$unformatted" ]; then
  echo "$unformatted"
  echo "FAIL: $(echo "$unformatted" | grep -c .) of $count sources are not in .clang-format's format (run ci/format)"
  exit 1
fi
echo "format_test: all $count sources are in .clang-format's format"
