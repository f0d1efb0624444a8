#!/usr/bin/env bash
# The repository carries its own documentation (docs/): no tracked file points at notes outside
# it: the team's shared folder, its design, maths or style notes, or its numbered reference
# reports. Files are git's tracked ones (every file under SOURCE_DIR but build output without
# git, as in a copy of the tree).
# usage: no_outside_references_test.sh SOURCE_DIR
set -u
cd "$1" || exit 2
# Written so that this file does not match itself.
pattern='\.\./shared|/wor[k]/shared|(DESIGN|MATH|STYLE)\.md|reference/00[0-9]'

files() {
  if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git ls-files -z
  else
    find . -path ./build -prune -o -path ./.bundle -prune -o -path ./.venv -prune -o -path ./reports -prune -o \
      -type f -print0
  fi
}

# The check must be able to fail: a line that points outside is found.
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
printf '%s\n' "// see ../sha""red/DES""IGN.md" "(MA""TH.md \"LoRA\")" "reference/00""0_abc.txt" > "$probe"
hits=$(grep -cE "$pattern" "$probe")
[ "$hits" -eq 3 ] || { echo "FAIL: the pattern finds $hits of 3 outside references in a probe file"; exit 1; }

found=$(files | xargs -0 grep -nIE "$pattern" -- 2> /dev/null)
if [ -n "$found" ]; then
  echo "FAIL: these lines point outside the repository; point at docs/ instead:"
  echo "$found"
  exit 1
fi
echo "no tracked file points outside the repository ($(files | tr -cd '\0' | wc -c) files)"
