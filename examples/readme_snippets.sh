# Shared by the tests that build the snippets of docs/your-kernel.md as written (source it, with
# $readme set to the Markdown file that holds them):
#   snippet NAME      prints the fenced code between <!-- readme-snippet: NAME --> and
#                     <!-- /readme-snippet -->, without its fence's indentation (a list item's)
#   run_lines FILE LOG [-DVAR=VALUE...]
#                     runs each non-empty line of FILE (a run.sh snippet) in the current directory,
#                     echoing it and appending its output to LOG; a `cmake -S .` line gets the -D
#                     arguments appended (the build's compilers and flags). Returns the first
#                     failing line's status, 0 when every line held.
snippet() {
  awk -v name="$1" '
    $0 ~ "<!-- readme-snippet: " name " -->" { on = 1; next }
    on && /<!-- \/readme-snippet -->/ { exit }
    on && /^ *```/ { fence = !fence; match($0, /^ */); indent = RLENGTH; next }
    on && fence { print substr($0, 1, indent) ~ /^ *$/ ? substr($0, indent + 1) : $0 }' "$readme"
}

run_lines() {
  local file=$1 log=$2 line status=0
  shift 2
  local extra
  extra=$(printf ' %q' "$@")
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    local words
    read -r -a words <<< "$line"
    [ "${words[0]:-} ${words[1]:-} ${words[2]:-}" = "cmake -S ." ] && line="$line$extra"
    echo "+ $line"
    eval "$line" >> "$log" 2>&1 || { status=$?; break; }
  done < "$file"
  return "$status"
}
