#!/usr/bin/env bash
# cmake/SourceRevision.cmake on a throw-away git repository: the commit and
# the dirty flag as git gives them (untracked files do not count), "unknown"
# outside a checkout, the file left untouched when nothing changed (so a
# build recompiles nothing), a clear error without its arguments. Then the
# binary: a dmbench run's tool.git_revision and tool.git_dirty are what its
# build recorded, and its tool.build_id is the binary's own.
#   source_revision_test.sh SCRIPT DMBENCH BUILT_FILE RUN_CONFIG
set -euo pipefail
script=$1 dmbench=$2 built=$3 run_config=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmbench-source-revision-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "source revision test: FAIL: $*" >&2
  exit 1
}
record() { cmake -D SOURCE_DIR="$1" -D OUTPUT="$tmp/revision.inc" -P "$script"; }
expect() {
  grep -qx "inline constexpr char kBuiltCommit\[\] = \"$1\";" "$tmp/revision.inc" ||
    fail "$3: expected commit $1, got: $(cat "$tmp/revision.inc")"
  grep -qx "inline constexpr bool kBuiltDirty = $2;" "$tmp/revision.inc" ||
    fail "$3: expected dirty $2, got: $(cat "$tmp/revision.inc")"
}

repo=$tmp/repo
mkdir "$repo"
git -C "$repo" init -q
echo one >"$repo/tracked"
git -C "$repo" add tracked
git -C "$repo" -c user.name=test -c user.email=test@example.org commit -q -m one
head=$(git -C "$repo" rev-parse HEAD)

record "$repo"
expect "$head" false "a clean checkout"

# Unchanged: the file keeps its old time, so nothing that includes it rebuilds.
touch -d 2000-01-01 "$tmp/revision.inc"
record "$repo"
[[ $(stat -c %Y "$tmp/revision.inc") == $(date -d 2000-01-01 +%s) ]] ||
  fail "the file was rewritten with nothing changed"

echo untracked >"$repo/new-file"
record "$repo"
expect "$head" false "an untracked file"

echo two >"$repo/tracked"
record "$repo"
expect "$head" true "a changed tracked file"

git -C "$repo" -c user.name=test -c user.email=test@example.org commit -q -am two
record "$repo"
expect "$(git -C "$repo" rev-parse HEAD)" false "a new commit"
[[ $(git -C "$repo" rev-parse HEAD) != "$head" ]] || fail "the second commit kept the first's id"

mkdir "$tmp/plain"
record "$tmp/plain"
expect unknown false "a directory outside any checkout"

if cmake -D SOURCE_DIR="$repo" -P "$script" >"$tmp/no-output.log" 2>&1; then
  fail "ran without OUTPUT"
fi
grep -q "needs -D SOURCE_DIR=DIR -D OUTPUT=FILE" "$tmp/no-output.log" ||
  fail "no clear error without OUTPUT: $(cat "$tmp/no-output.log")"

# The binary carries what its build recorded.
built_commit=$(sed -n 's/^inline constexpr char kBuiltCommit\[\] = "\(.*\)";$/\1/p' "$built")
built_dirty=$(sed -n 's/^inline constexpr bool kBuiltDirty = \(.*\);$/\1/p' "$built")
[[ -n $built_commit && -n $built_dirty ]] || fail "cannot read the build's $built"
"$dmbench" run --config "$run_config" --set workload.keys=20000 --set run.measure_ms=0.05 \
  --set run.warmup_ms=0.01 --set topology.threads_per_compute_server=1 \
  --out "$tmp/result.json" >/dev/null 2>&1 || fail "dmbench run failed"
tool=$(/usr/bin/python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["tool"]
print(t["git_revision"], str(t["git_dirty"]).lower(), t["build_id"])' "$tmp/result.json")
# The build ID as binutils reads it from the binary's notes.
build_id=$(readelf -n "$dmbench" | sed -n 's/^ *Build ID: \([0-9a-f]*\)$/\1/p')
[[ -n $build_id ]] || fail "readelf finds no build ID in $dmbench"
[[ $tool == "$built_commit $built_dirty $build_id" ]] ||
  fail "the result names '$tool', the build recorded '$built_commit $built_dirty $build_id'"
echo "source revision test: passed"
