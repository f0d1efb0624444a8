#!/usr/bin/env bash
# README.md's "Test your own kernel", as a user follows it: installs the build to $HOME/parity
# (HOME a scratch directory), writes the README's CMakeLists.txt and register_subjects.cpp
# snippets as written (between its `<!-- readme-snippet: NAME -->` markers) beside the example's
# other sources, runs the README's run.sh lines (configure, build, ctest -L properties) and its
# replay.sh lines. Holds when they build and pass, the broken copy is caught with a reproducer
# that still fails on it and passes on the host path, and, in a CUDA build, the CUDA kernel's
# test is there (the .cu file was not skipped).
# usage: readme_snippet_test.sh BUILD_DIR README EXAMPLE_DIR CUDA(ON|OFF) [-DVAR=VALUE...]
#   the -D arguments (this build's compilers and flags) are added to the README's configure line.
set -euo pipefail
build=$1 readme=$2 example=$3 cuda=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }

source "$(dirname "$0")/readme_snippets.sh"

mkdir -p "$work/home" "$work/src"
export HOME="$work/home"
cmake --install "$build" --prefix "$HOME/parity" > "$work/install.log"
for f in "$example"/*; do
  case $(basename "$f") in CMakeLists.txt | register_subjects.cpp) ;; *) cp "$f" "$work/src/" ;; esac
done
for name in CMakeLists.txt register_subjects.cpp run.sh replay.sh; do
  snippet "$name" > "$work/src/$name"
  [ -s "$work/src/$name" ] || fail "README.md has no snippet '$name'"
done

# The README's user has the python3 of the torch parity was built with on PATH: here, the
# project's venv when parity was built against it (none for Debian's LibTorch, found in /usr).
venv="$(dirname "$readme")/.venv/bin"
[ -x "$venv/python3" ] && export PATH="$venv:$PATH"

cd "$work/src"
status=0
run_lines run.sh "$work/run.log" "$@" || status=$?
cat "$work/run.log"
[ "$status" -eq 0 ] || fail "a README run.sh line exited $status"
# One test per property for a subject (my-lora-host.lora.<property>); the broken copy is one test.
grep -q "my-lora-host\.lora\.rows_independent .*Passed" "$work/run.log" || fail "my-lora-host's properties did not run and pass"
grep -q "my-lora-host-broken_lora_properties .*Passed" "$work/run.log" || fail "the broken copy was not caught"
if [ "$cuda" = ON ]; then
  grep -q "my-lora-cuda\.lora\." "$work/run.log" || fail "the CUDA kernel's tests are missing"
fi

# The replay lines: the first still fails on the broken copy, the second passes on the host path.
want=(1 0)
i=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  got=0
  eval "$line" > "$work/replay.log" 2>&1 || got=$?
  cat "$work/replay.log"
  [ "$got" -eq "${want[$i]}" ] || fail "'$line' exited $got, want ${want[$i]}"
  i=$((i + 1))
done < replay.sh
[ "$i" -eq 2 ] || fail "README.md's replay.sh has $i lines, not 2"
echo "readme_snippet: README's snippets build and pass as written; the broken copy is caught and replays"
