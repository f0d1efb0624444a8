#!/usr/bin/env bash
# Every tracked C++ and CUDA source is in the project's format (.clang-format, clang-format 14,
# Debian's, which ci/setup installs): fails listing each file clang-format would change or cannot
# format (ci/format rewrites them). Exits 77 (skipped) where there is no clang-format 14: another
# version formats differently, so its verdict would not be this project's.
# First it checks itself: on a copy of .clang-format, a file written unformatted must be listed.
# usage: format_test.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
tool=$(command -v clang-format-14 || true)
if [ -z "$tool" ]; then
  echo "format_test: no clang-format-14 on PATH (ci/setup installs it): skipped"
  exit 77
fi
list=$(mktemp)
probe=$(mktemp -d)
trap 'rm -rf "$list" "$probe"' EXIT
# unformatted_of LIST: the files of the NUL-separated LIST clang-format would change or cannot
# format, each judged by its own exit status (--Werror); one whole line each, sorted.
unformatted_of() {
  xargs -0 -P "$(nproc)" -n 1 sh -c '"$0" --style=file --dry-run --Werror "$1" > /dev/null 2>&1 || echo "$1"' \
    "$tool" < "$1" | sort
}
cp .clang-format "$probe/" || { echo "FAIL: no .clang-format in $1"; exit 1; }
printf 'int  f( ){return 1;}\n' > "$probe/unformatted.cpp"
printf '%s\0' "$probe/unformatted.cpp" > "$probe/list"
[ "$(unformatted_of "$probe/list")" = "$probe/unformatted.cpp" ] ||
  { echo "FAIL: the check does not list a file written unformatted"; exit 1; }
if [ -e .git ] && git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.cc' '*.cu' '*.cuh' > "$list" 2>/dev/null; then :; else
  find . \( -path ./build -o -path './.*' -o -path ./reports \) -prune -o -type f \
    \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' \) -print0 > "$list"
fi
count=$(tr -cd '\0' < "$list" | wc -c)
[ "$count" -gt 0 ] || { echo "FAIL: no C++ source found under $1"; exit 1; }
unformatted=$(unformatted_of "$list")  # a bad .clang-format lists them all
if [ -n "$unformatted" ]; then
  echo "$unformatted"
  echo "FAIL: $(echo "$unformatted" | grep -c .) of $count sources are not in .clang-format's format (run ci/format)"
  exit 1
fi
echo "format_test: all $count sources are in .clang-format's format"
