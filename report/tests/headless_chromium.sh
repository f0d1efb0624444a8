# Shared by the report tests (source it): $browser, the headless chromium, and "${flags[@]}", its
# flags with a throwaway profile that is removed on exit. Exits 77 (ctest: skipped) when chromium
# is not installed.
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "$(basename "$0"): chromium is not installed (ci/setup installs it): skipped"
  exit 77
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$profile")
