#!/usr/bin/env bash
# The one command for a machine with an NVIDIA GPU (docs/engines-nvidia.md "Device check").
#
#   scripts/device-check.sh [--bin PATH] [--out DIR] [--glvnd DIR] [--fuzz-programs N]
#                           [--seed S] [--jobs N] [--dry-run]
#
# Builds shaderdiff (release) unless --bin names a prebuilt binary, checks that an EGL device
# whose GL_VENDOR is NVIDIA exists (fails loudly, exit 4, if not), then:
#   1. conform conformance/nv-spec and conformance/arb-spec with --backends interp,nvidia
#      (worker processes: a driver crash is a Crash row, never the end of the run), and the
#      same suites through `diff` for the mismatch report;
#   2. fuzz --lang nv --programs N (default 5000) --backends interp,nvidia, and `diff` of the
#      storage compute programs (the ones the engine dispatches) among gen --lang nv's first 400;
#   3. a capture in the shared format (../shared/captures/nvidia-h200/README.md): per program
#      NAME.<ext>, NAME.inputs.json, NAME.gl.fp|NAME.gl.vp (the text sent to the driver) and
#      NAME.nvidia.json (the engine's outputs in the `run --format json` shape plus engine,
#      driver, program; inputs_not_carried / not_drawn are empty: the exact transport carries
#      every input of NV programs and draws every point), refused-by-driver.json;
#   4. summary.txt and summary.json.
# Output: DIR (default results/captures/nvidia-<UTC date>/).
#
# Headless NVIDIA machines: glvnd's libEGL.so.1 must be loadable (--glvnd DIR is prepended to
# LD_LIBRARY_PATH when the loader libraries are not installed) and __EGL_VENDOR_LIBRARY_FILENAMES
# must name the driver's 10_nvidia.json where glvnd does not find it (searched below).
#
# --dry-run runs everything against Mesa's EGL device (llvmpipe, SHADERDIFF_NVIDIA_VENDOR=Mesa):
# the CPU check of this script. NV programs are then unsupported (Mesa has no NV_gpu_program4).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=""
OUT=""
GLVND=""
FUZZ=5000
SEED=1
COMPUTE_GEN=400
JOBS=$(nproc 2>/dev/null || echo 4)
DRY=0
die() { echo "device-check: error: $1" >&2; exit "${2:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --glvnd) GLVND=$2; shift 2 ;;
    --fuzz-programs) FUZZ=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
[ -n "$OUT" ] || OUT=$ROOT/results/captures/nvidia-$(date -u +%Y-%m-%d)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
command -v python3 >/dev/null || die "python3 is needed to assemble the capture"
START=$(date +%s)
step() { echo; echo "=== device-check [$(($(date +%s) - START))s] $*"; }

step "EGL setup"
if [ "$DRY" = 1 ]; then
  export SHADERDIFF_NVIDIA_VENDOR=Mesa
  echo "dry run: Mesa's EGL device (llvmpipe) stands in for NVIDIA's"
else
  unset SHADERDIFF_NVIDIA_VENDOR
  if [ -n "$GLVND" ]; then
    export LD_LIBRARY_PATH="$GLVND${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  if ! ldconfig -p 2>/dev/null | grep -q 'libEGL.so.1 ' && [ -z "$GLVND" ]; then
    echo "warning: glvnd's libEGL.so.1 is not in the linker cache; pass --glvnd DIR (a folder with libEGL.so.1 and libGLdispatch.so.0) or install libegl1" >&2
  fi
  if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ]; then
    for d in /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d /usr/local/share/glvnd/egl_vendor.d /usr/lib/x86_64-linux-gnu/glvnd/egl_vendor.d; do
      if [ -f "$d/10_nvidia.json" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES="$d/10_nvidia.json"; break; fi
    done
  fi
  if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && ldconfig -p 2>/dev/null | grep -q libEGL_nvidia.so.0; then
    # The driver's EGL library is installed but its glvnd vendor file is not: write one.
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}\n' >"$OUT/10_nvidia.json"
    export __EGL_VENDOR_LIBRARY_FILENAMES="$OUT/10_nvidia.json"
  fi
  echo "__EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-<glvnd default>}"
fi

step "binary"
if [ -z "$BIN" ]; then
  cargo build --release -p shaderdiff </dev/null
  BIN=$ROOT/target/release/shaderdiff
  [ -z "${CARGO_TARGET_DIR:-}" ] || BIN=$CARGO_TARGET_DIR/release/shaderdiff
fi
[ -x "$BIN" ] || die "binary $BIN not found or not executable"
echo "$BIN"

step "NVIDIA EGL device"
PROBE=$(mktemp -d)
trap 'rm -rf "$PROBE"' EXIT
printf '!!ARBfp1.0\nMOV result.color, fragment.texcoord[0];\nEND\n' >"$PROBE/probe.arbfp"
"$BIN" diff "$PROBE/probe.arbfp" --backends interp,nvidia </dev/null >"$PROBE/out" 2>"$PROBE/err" || true
if grep -q 'engine nvidia is not available here' "$PROBE/err"; then
  echo "device-check: FAILED: no EGL device whose GL_VENDOR is NVIDIA." >&2
  sed 's/^/  /' "$PROBE/err" >&2
  echo "  Check: nvidia-smi; libEGL_nvidia.so.0 installed; glvnd's libEGL.so.1 loadable (--glvnd DIR);" >&2
  echo "  __EGL_VENDOR_LIBRARY_FILENAMES naming the driver's 10_nvidia.json." >&2
  exit 4
fi
SHADERDIFF_GL_LISTING=$PROBE/probe "$BIN" run "$PROBE/probe.arbfp" --backend nvidia </dev/null >/dev/null
DRIVER=$(sed -n '3p;2p' "$PROBE/probe.driver" | tac | paste -sd '/' | sed 's|/| / |')
echo "driver: $DRIVER"
cp "$PROBE/probe.driver" "$OUT/driver.txt"

SUITES=(conformance/nv-spec conformance/arb-spec)
for s in "${SUITES[@]}"; do
  n=$(basename "$s")
  step "conform $s --backends interp,nvidia (isolated workers)"
  # conform reads *.tgsi and *.nv: stage the suite as NAME.nv + NAME.inputs.json links.
  STAGE=$PROBE/stage-$n
  mkdir -p "$STAGE"
  for f in "$s"/*.nvfp "$s"/*.nvvp "$s"/*.arbfp "$s"/*.arbvp; do
    [ -f "$f" ] || continue
    b=$(basename "${f%.*}")
    ln -sf "$ROOT/$f" "$STAGE/$b.nv"
    [ ! -f "${f%.*}.inputs.json" ] || ln -sf "$ROOT/${f%.*}.inputs.json" "$STAGE/$b.inputs.json"
  done
  rc=0
  "$BIN" conform "$STAGE" --backends interp,nvidia --out "$OUT/conform-$n" --junit "$OUT/conform-$n/junit.xml" --jobs "$JOBS" </dev/null >"$OUT/conform-$n.txt" 2>&1 || rc=$?
  echo "exit $rc" >>"$OUT/conform-$n.txt"
  tail -3 "$OUT/conform-$n.txt"
  [ "$rc" -le 1 ] || die "conform $s exited $rc (see $OUT/conform-$n.txt)" 4
  step "diff $s --backends interp,nvidia"
  rc=0
  "$BIN" diff "$s" --backends interp,nvidia </dev/null >"$OUT/diff-$n.txt" 2>"$OUT/diff-$n.err" || rc=$?
  echo "diff exit $rc: $(grep -c ': agree' "$OUT/diff-$n.txt" || true) agree, $(grep -c ': known' "$OUT/diff-$n.txt" || true) known (results/triage/nvidia), $(grep -c ': MISMATCH' "$OUT/diff-$n.txt" || true) mismatch, $(grep -c ': unsupported' "$OUT/diff-$n.txt" || true) unsupported"
done

step "fuzz --lang nv --programs $FUZZ --backends interp,nvidia"
rc=0
"$BIN" fuzz --lang nv --programs "$FUZZ" --seed "$SEED" --backends interp,nvidia --out "$OUT/fuzz" </dev/null >"$OUT/fuzz.txt" 2>&1 || rc=$?
echo "fuzz exit $rc" | tee -a "$OUT/fuzz.txt"
[ "$rc" -le 1 ] || die "fuzz exited $rc (see $OUT/fuzz.txt)" 4

# The stream's compute programs with STORAGE results (no global memory) are the ones the
# engine dispatches (docs/engines-nvidia.md): diff them on their own so the summary says
# how many ran and how they compared.
step "storage compute programs of gen --lang nv --seed $SEED --count $COMPUTE_GEN: diff --backends interp,nvidia"
CS=$PROBE/compute
mkdir -p "$CS/gen" "$CS/storage"
rc=0
"$BIN" gen --lang nv --seed "$SEED" --count "$COMPUTE_GEN" --out "$CS/gen" </dev/null >/dev/null 2>"$OUT/gen-compute.err" || rc=$?
[ "$rc" = 0 ] || die "gen --lang nv exited $rc (see $OUT/gen-compute.err)" 4
ncs=0
for f in "$CS"/gen/*.nvcp; do
  [ -f "$f" ] && grep -q 'STB.U32X4 r0,' "$f" || continue
  b=$(basename "${f%.*}")
  cp "$f" "$CS/storage/$b.nvcp"
  cp "${f%.*}.inputs.json" "$CS/storage/$b.inputs.json"
  ncs=$((ncs + 1))
done
rc=0
"$BIN" diff "$CS/storage" --backends interp,nvidia </dev/null >"$OUT/diff-compute.txt" 2>"$OUT/diff-compute.err" || rc=$?
echo "diff exit $rc: $ncs programs, $(grep -c '\.nvcp: agree' "$OUT/diff-compute.txt" || true) agree, $(grep -c '\.nvcp: known' "$OUT/diff-compute.txt" || true) known, $(grep -c '\.nvcp: MISMATCH' "$OUT/diff-compute.txt" || true) mismatch, $(grep -c '\.nvcp: unsupported' "$OUT/diff-compute.txt" || true) unsupported"

step "capture (shared format)"
CAP=$OUT/capture
mkdir -p "$CAP/raw"
export BIN CAP
# One process per program (the engine's context is per process), in parallel.
find "${SUITES[@]}" -name '*.nvfp' -o -name '*.nvvp' -o -name '*.arbfp' -o -name '*.arbvp' | sort >"$CAP/raw/list.txt"
xargs -P "$JOBS" -I{} sh -c '
  f={}; n=$(basename "${f%.*}"); i="${f%.*}.inputs.json"
  [ -f "$i" ] || exit 0
  rc=0
  SHADERDIFF_GL_LISTING="$CAP/raw/$n" "$BIN" run "$f" --backend nvidia --inputs "$i" --format json \
    >"$CAP/raw/$n.json" 2>"$CAP/raw/$n.err" </dev/null || rc=$?
  echo "$rc" >"$CAP/raw/$n.rc"
' <"$CAP/raw/list.txt"
python3 - "$CAP" "$DRIVER" <<'PY'
import json, os, shutil, sys
cap, driver = sys.argv[1], sys.argv[2]
raw = os.path.join(cap, 'raw'); count = {'captured': 0, 'refused': 0, 'unsupported': 0, 'failed': 0}
refused = []
for f in open(os.path.join(raw, 'list.txt')).read().split():
    base, ext = os.path.splitext(f); n = os.path.basename(base)
    rcf = os.path.join(raw, n + '.rc')
    if not os.path.exists(rcf): continue
    rc = int(open(rcf).read()); err = open(os.path.join(raw, n + '.err')).read().strip()
    if rc == 3:
        if 'rejected' in err:
            count['refused'] += 1; refused.append({'program': n, 'error': err})
        else:
            count['unsupported'] += 1
        continue
    if rc != 0:
        count['failed'] += 1; continue
    doc = json.load(open(os.path.join(raw, n + '.json')))
    vertex = ext.endswith('vp')
    shutil.copy(f, os.path.join(cap, n + ext)); shutil.copy(base + '.inputs.json', os.path.join(cap, n + '.inputs.json'))
    own = os.path.join(raw, n + ('.vp' if vertex else '.fp'))
    if os.path.exists(own): shutil.copy(own, os.path.join(cap, n + ('.gl.vp' if vertex else '.gl.fp')))
    out = {'engine': 'nvidia', 'driver': driver, 'program': n + ext, 'invocations': doc['invocations'],
           'registers': doc['registers']}
    if 'killed' in doc: out['killed'] = doc['killed']
    if 'undefined' in doc: out['undefined'] = doc['undefined']
    # NV programs: integer attributes, FLAT inputs: every input is carried exactly.
    if open(f).read().lstrip().startswith('!!NV'):
        out['not_drawn' if vertex else 'inputs_not_carried'] = []
    json.dump(out, open(os.path.join(cap, n + '.nvidia.json'), 'w'), separators=(',', ':'))
    count['captured'] += 1
json.dump(refused, open(os.path.join(cap, 'refused-by-driver.json'), 'w'), indent=1)
json.dump(count, open(os.path.join(cap, 'count.json'), 'w'))
print(count)
PY
rm -rf "$CAP/raw"

step "summary"
python3 - "$OUT" "$DRIVER" "$DRY" "$FUZZ" "$SEED" <<'PY'
import csv, json, os, sys, collections
out, driver, dry, fuzz, seed = sys.argv[1], sys.argv[2], sys.argv[3] == '1', int(sys.argv[4]), int(sys.argv[5])
s = {'driver': driver, 'dry_run': dry, 'suites': {}, 'fuzz': None,
     'capture': json.load(open(os.path.join(out, 'capture', 'count.json')))}
for n in ('nv-spec', 'arb-spec'):
    st = collections.Counter()
    p = os.path.join(out, f'conform-{n}', 'results.csv')
    if os.path.exists(p):
        for r in csv.DictReader(open(p)) if open(p).readline().startswith('program') else csv.reader(open(p)):
            row = list(r.values()) if isinstance(r, dict) else r
            if len(row) > 2 and row[1] == 'nvidia': st[row[2]] += 1
    d = open(os.path.join(out, f'diff-{n}.txt')).read().splitlines()
    s['suites'][n] = {'conform': dict(st), 'diff_agree': sum(': agree' in l for l in d),
                      'diff_known': sum(': known ' in l for l in d),
                      'diff_mismatch': sum(': MISMATCH' in l for l in d), 'diff_unsupported': sum(': unsupported' in l for l in d)}
dc = os.path.join(out, 'diff-compute.txt')
if os.path.exists(dc):
    d = open(dc).read().splitlines()
    s['storage_compute'] = {k: sum(f'.nvcp: {w}' in l for l in d) for k, w in
                            (('diff_agree', 'agree'), ('diff_known', 'known'), ('diff_mismatch', 'MISMATCH'), ('diff_unsupported', 'unsupported'))}
fs = os.path.join(out, 'fuzz', 'summary.json')
if os.path.exists(fs):
    f = json.load(open(fs)); s['fuzz'] = {k: f.get(k) for k in ('seed', 'programs', 'mismatches', 'unique_findings', 'unsupported', 'elapsed_s')}
    s['fuzz']['findings'] = sorted(os.listdir(os.path.join(out, 'fuzz', 'findings'))) if os.path.isdir(os.path.join(out, 'fuzz', 'findings')) else []
json.dump(s, open(os.path.join(out, 'summary.json'), 'w'), indent=1)
lines = [f'device-check: {driver}' + (' (DRY RUN on Mesa EGL)' if dry else '')]
for n, v in s['suites'].items():
    lines.append(f"{n}: conform {v['conform']}; diff {v['diff_agree']} agree, {v['diff_known']} known, {v['diff_mismatch']} mismatch, {v['diff_unsupported']} unsupported")
if s.get('storage_compute'):
    v = s['storage_compute']
    lines.append(f"storage compute programs (gen --lang nv seed {seed}): diff {v['diff_agree']} agree, {v['diff_known']} known, {v['diff_mismatch']} mismatch, {v['diff_unsupported']} unsupported")
if s['fuzz']: lines.append(f"fuzz --lang nv seed {seed}: {s['fuzz']['programs']} programs, {s['fuzz']['mismatches']} mismatches, {s['fuzz']['unique_findings']} unique findings, {s['fuzz']['unsupported']} unsupported")
lines.append(f"capture: {s['capture']}")
open(os.path.join(out, 'summary.txt'), 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
echo "device-check: done in $(($(date +%s) - START))s; output in $OUT"
