#!/usr/bin/env bash
# Checks the fault catalogue end to end:
#
#   for every fault NAME that `shaderdiff faults` lists (or only the NAMEs given; a fault
#   in campaign_skip below, which the generator cannot trigger yet, is reported SKIP):
#     1. the plain command `shaderdiff fuzz --inject-fault NAME --seed 3 --programs 2000
#        --out DIR` exits 1 (no generator flags: the catalogue entry carries the mode its
#        fault needs, `--64bit`, `--memory`, `--lang nv --nv-alu-only` ..., and
#        `--inject-fault` switches it on by itself);
#     2. every finding DIR/findings/<signature>/ has a reduced.tgsi (NV faults: reduced.nv)
#        with at most 4 instructions besides END (and NOP), counted on
#        `shaderdiff check --print`;
#     3. `shaderdiff diff reduced.tgsi --inputs inputs.json --inject-fault NAME` exits 1
#        (the finding replays).
#
# Prints one line per fault (programs until the first finding, mismatching programs,
# findings, reduced sizes, seconds) and exits 0 when every fault passes, 1 otherwise.
#
# Usage: scripts/check-faults.sh [--bin PATH] [--programs N] [--keep DIR] [NAME...]
#   --bin PATH     the shaderdiff binary (default: $CARGO_TARGET_DIR/release/shaderdiff or
#                  target/release/shaderdiff; build it with `cargo build --release -p shaderdiff`)
#   --programs N   campaign size (default 2000, the issue's bar)
#   --keep DIR     write campaigns under DIR and keep them (default: a temporary directory)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=""
PROGRAMS=2000
KEEP=""
NAMES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --programs) PROGRAMS=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "check-faults: unknown option $1" >&2; exit 2 ;;
    *) NAMES+=("$1"); shift ;;
  esac
done
if [ -z "$BIN" ]; then
  BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/shaderdiff
fi
if [ ! -x "$BIN" ]; then
  echo "check-faults: no binary at $BIN (cargo build --release -p shaderdiff)" >&2
  exit 2
fi
MAX_INSNS=4

if [ -n "$KEEP" ]; then
  WORK=$KEEP
  mkdir -p "$WORK"
else
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi

CATALOGUE=$("$BIN" faults)
if [ ${#NAMES[@]} -eq 0 ]; then
  mapfile -t NAMES < <(printf '%s\n' "$CATALOGUE" | awk 'NF { print $1 }')
fi
if [ ${#NAMES[@]} -eq 0 ]; then
  echo "check-faults: the catalogue is empty" >&2
  exit 1
fi

# Instructions of a program besides END and NOP: the numbered lines of its canonical form.
count_insns() {
  "$BIN" check --print "$1" | awk '$1 ~ /^[0-9]+:$/ && $2 != "END" && $2 != "NOP" { n++ } END { print n + 0 }'
}

# Instructions of an NV program: the statements of its canonical form that are neither
# declarations nor labels nor END.
count_nv_insns() {
  "$BIN" check --print "$1" | awk '
    /^[ \t]*(#|!!)/ { next }
    { w = $1 }
    w ~ /^(TEMP|LONG|SHORT|PARAM|ATTRIB|OUTPUT|ADDRESS|OPTION|CBUFFER|TEXTURE|BUFFER|BUFFER4|END|[A-Za-z_][A-Za-z0-9_]*:)$/ { next }
    /;[ \t]*$/ { n++ }
    END { print n + 0 }'
}

# first_index of the earliest finding in a summary.json (programs needed = that + 1).
first_found() {
  grep -o '"first_index": *[0-9]*' "$1" | grep -o '[0-9]*$' | sort -n | head -1
}

# Faults whose trigger the fuzz generator cannot draw yet: reported as SKIP with the reason
# (their detection is tested elsewhere), never as passing.
campaign_skip() {
  case "$1" in
    txf-offset-ignored) echo "no NV program of seed 3 fetches a defined texel with a nonzero TXF offset (0 mismatches in 2,000 programs)" ;;
    array-layer-truncated) echo "no NV program of seed 3 samples an array texture at a layer fraction >= 0.5 (0 mismatches in 1,600 programs)" ;;
    *) echo "" ;;
  esac
}

FAILED=()
SKIPPED=()
printf '%-22s %8s %10s %8s  %-10s %6s  %s\n' FAULT FOUND_AT MISMATCHES FINDINGS REDUCED SECONDS RESULT
for name in "${NAMES[@]}"; do
  if ! printf '%s\n' "$CATALOGUE" | awk '{ print $1 }' | grep -qx -- "$name"; then
    echo "check-faults: $name is not in the catalogue" >&2
    FAILED+=("$name")
    continue
  fi
  skip=$(campaign_skip "$name")
  if [ -n "$skip" ]; then
    printf '%-22s %8s %10s %8s  %-10s %6s  %s\n' "$name" - - - - - "SKIP: $skip"
    SKIPPED+=("$name")
    continue
  fi
  out=$WORK/$name
  rm -rf "$out"
  t0=$(date +%s.%N)
  set +e
  "$BIN" fuzz --inject-fault "$name" --seed 3 --programs "$PROGRAMS" --out "$out" \
    >"$WORK/$name.log" 2>&1 </dev/null
  rc=$?
  set -e
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  problems=()
  [ "$rc" -eq 1 ] || problems+=("fuzz exit $rc (want 1)")
  found_at=-
  mismatches=-
  findings=0
  sizes=()
  if [ -f "$out/summary.json" ]; then
    fi=$(first_found "$out/summary.json" || true)
    [ -n "$fi" ] && found_at=$((fi + 1))
    mismatches=$(grep -o '"mismatches": *[0-9]*' "$out/summary.json" | grep -o '[0-9]*$' || echo -)
  fi
  for dir in "$out"/findings/*/; do
    [ -d "$dir" ] || continue
    findings=$((findings + 1))
    sig=$(basename "$dir")
    reduced=reduced.tgsi
    [ -f "$dir/reduced.nv" ] && reduced=reduced.nv
    if [ ! -f "$dir/$reduced" ] || [ ! -f "$dir/inputs.json" ]; then
      problems+=("$sig: no reduced.tgsi/reduced.nv/inputs.json")
      continue
    fi
    case "$sig" in
      *-fail_*) problems+=("$sig: the engine failed (compile error, trap ...) instead of miscompiling") ;;
    esac
    if [ "$reduced" = reduced.nv ]; then
      n=$(count_nv_insns "$dir/$reduced")
    else
      n=$(count_insns "$dir/$reduced")
    fi
    sizes+=("$n")
    [ "$n" -le "$MAX_INSNS" ] || problems+=("$sig: $reduced has $n instructions (max $MAX_INSNS)")
    set +e
    (cd "$dir" && "$BIN" diff "$reduced" --inputs inputs.json --inject-fault "$name" \
      >"$WORK/$name.$sig.replay" 2>&1 </dev/null)
    drc=$?
    set -e
    [ "$drc" -eq 1 ] || problems+=("$sig: replay exit $drc (want 1)")
  done
  [ "$findings" -gt 0 ] || problems+=("no finding")
  result=ok
  if [ ${#problems[@]} -gt 0 ]; then
    result="FAIL: $(IFS=';'; echo "${problems[*]}")"
    FAILED+=("$name")
  fi
  reduced=$(IFS=,; echo "${sizes[*]:-}")
  printf '%-22s %8s %10s %8s  %-10s %6s  %s\n' "$name" "$found_at" "$mismatches" "$findings" \
    "${reduced:--}" "$secs" "$result"
done

if [ ${#FAILED[@]} -gt 0 ]; then
  echo "check-faults: ${#FAILED[@]} of ${#NAMES[@]} faults failed: ${FAILED[*]}${SKIPPED[*]:+ (skipped: ${SKIPPED[*]})}"
  exit 1
fi
CHECKED=$((${#NAMES[@]} - ${#SKIPPED[@]}))
echo "check-faults: all $CHECKED checked faults found, reduced to <= $MAX_INSNS instructions and replayed${SKIPPED[*]:+ (skipped: ${SKIPPED[*]})}"
