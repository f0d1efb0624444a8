# Shared by the shell tests of every folder (source it): a scratch directory, a failure counter,
#   fail MESSAGE...
# which prints "FAIL: MESSAGE" and counts a failure, and
#   expect STATUS MESSAGE-SUBSTRING -- command...
# which runs the command and counts a failure unless it exits STATUS and prints the substring.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

expect() {
  local want=$1 text=$2
  shift 3
  local out status
  out=$("$@" 2>&1)
  status=$?
  if [ "$status" != "$want" ] || [[ "$out" != *"$text"* ]]; then
    fail "'$*' exited $status (want $want), output lacks '$text':"
    echo "$out" | tail -20
  else
    echo "ok:   $* -> $status"
  fi
}
