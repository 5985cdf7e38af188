#!/usr/bin/env bash
# Builds the seed corpora (fuzz/corpus/<target>/) and dictionaries (fuzz/dict/) of the
# fuzz targets from what the repository and ../shared hold:
#   tgsi_parse        ../shared/corpus/tgsi, conformance/ (every program), `shaderdiff gen`
#   nv_parse          ../shared/corpus/nv (every program, the must-fail ones included)
#   inputs_json       conformance/spec/*.inputs.json, `shaderdiff gen` inputs
#   valhall_decode    the 8-byte words of ../shared/spec/valhall/assembler-cases.txt
#   differential_tgsi, differential_nv, reduce
#                     any bytes drive the generator: the first 512 bytes of each TGSI
#                     corpus program and of 64 generated programs
# Dictionaries: TGSI opcode names (model/data/opcodes.csv), register files, modifiers and
# keywords; NV headers, instructions, bindings and modifiers; JSON keys of the inputs file. Sources that are missing (no ../shared, e.g. on
# OSS-Fuzz) are skipped. Needs the shaderdiff binary: SHADERDIFF=path, else
# target/release/shaderdiff (built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${SHADERDIFF_SHARED:-$ROOT/../shared}
BIN=${SHADERDIFF:-$ROOT/target/release/shaderdiff}
if [ ! -x "$BIN" ]; then
  cargo build --release -p shaderdiff >/dev/null
fi
OUT=$ROOT/fuzz/corpus
rm -rf "$OUT"
for t in tgsi_parse nv_parse inputs_json valhall_decode differential_tgsi differential_nv reduce; do
  mkdir -p "$OUT/$t"
done
GEN=$(mktemp -d)
trap 'rm -rf "$GEN"' EXIT
"$BIN" gen --seed 1 --count 64 --out "$GEN" >/dev/null

n=0
copy() { # copy FILE TARGET: content-addressed name, so reruns give the same files
  local h
  h=$(cksum <"$1" | cut -d' ' -f1)
  cp "$1" "$OUT/$2/seed-$h"
  n=$((n + 1))
}
for f in "$SHARED"/corpus/tgsi/*.tgsi "$ROOT"/conformance/corpus/*.tgsi "$GEN"/*.tgsi; do
  [ -f "$f" ] && copy "$f" tgsi_parse
done
# One spec program per opcode is plenty (the other variants differ in modifiers only).
for f in "$ROOT"/conformance/spec/*-edge.tgsi; do
  [ -f "$f" ] && copy "$f" tgsi_parse
done
for f in "$ROOT"/conformance/spec/*-edge.inputs.json "$GEN"/*.inputs.json; do
  [ -f "$f" ] && copy "$f" inputs_json
done
if [ -f "$SHARED/spec/valhall/assembler-cases.txt" ]; then
  k=0
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    hex=${line:0:23}
    printf "$(echo "$hex" | sed 's/\([0-9a-f][0-9a-f]\) */\\x\1/g')" >"$OUT/valhall_decode/case-$k"
    k=$((k + 1))
  done <"$SHARED/spec/valhall/assembler-cases.txt"
fi
for f in "$SHARED"/corpus/tgsi/*.tgsi "$GEN"/*.tgsi; do
  [ -f "$f" ] || continue
  for t in differential_tgsi differential_nv reduce; do
    head -c 512 "$f" >"$OUT/$t/seed-$(cksum <"$f" | cut -d' ' -f1)"
  done
done

for f in "$SHARED"/corpus/nv/*.*; do
  case "$f" in *.md) continue ;; esac
  [ -f "$f" ] && copy "$f" nv_parse
done

mkdir -p "$ROOT/fuzz/dict"
{
  echo '# TGSI text: opcode names (model/data/opcodes.csv), files, modifiers, keywords'
  tail -n +2 "$ROOT/model/data/opcodes.csv" | cut -d, -f2 | sort -u | sed 's/.*/"&"/'
  for w in VERT FRAG GEOM COMP TESS_CTRL TESS_EVAL END DCL IMM PROPERTY IN OUT TEMP CONST \
    SV ADDR SAMP SVIEW BUFFER MEMORY IMAGE FLT32 INT32 UINT32 FLT64 _SAT .xyzw .xxxx \
    .yyyy .wzyx "|" "-" "[" "]" "{" "}" ":" "," ARRAY GENERIC POSITION COLOR CONSTANT \
    LINEAR PERSPECTIVE SHARED ATOMIC GS_INPUT_PRIMITIVE GS_MAX_OUTPUT_VERTICES TRIANGLES; do
    echo "\"$w\""
  done
} >"$ROOT/fuzz/dict/tgsi.dict"
{
  echo '# NV assembly: instruction names, headers, declarations, bindings, modifiers'
  for w in '!!NVfp5.0' '!!NVvp5.0' '!!NVgp5.0' '!!NVtcp5.0' '!!NVtep5.0' '!!NVcp5.0' \
    '!!NVfp4.0' '!!NVvp4.0' '!!ARBfp1.0' '!!ARBvp1.0' END OPTION TEMP ATTRIB PARAM OUTPUT \
    ADDRESS CBUFFER BUFFER TEXTURE LONG SHORT INT UINT FLOAT vertex. fragment. result. \
    program.local program.env program.buffer state. texture .F .S .U .F32 .F64 .S64 .U64 \
    .CC .CC0 .CC1 .SAT .SSAT '(GT.x)' '(EQ)' '(NE1.xyzw)' .xyzw .xxxx '|' '-' '{' '}' \
    '[' ']' ';' ':' , MOV ADD MUL MAD DP3 DP4 RCP RSQ EX2 LG2 CMP KIL TEX TXP SLT SGE \
    MIN MAX LRP FRC FLR SWZ ARL ARA BRA CAL RET IF ELSE ENDIF REP ENDREP BRK CONT \
    SHL SHR BFE BFI BFR BTC BTFL BTFM CVT PK2H UP2H PK64 UP64 I2F F2I SAD RFL X2D \
    XPD SCS NRM DPH DP2A LIT DST DIV MOD LOAD STORE ATOM 2D 3D CUBE RECT; do
    printf '"%s"\n' "$w"
  done
} >"$ROOT/fuzz/dict/nv.dict"
{
  echo '# inputs file: keys and value forms (INTERFACE.md "The inputs file")'
  for w in invocations registers constants buffers global '"IN[0]"' '"CONST[0]"' '"SV[0]"' \
    '"BUFFER[0]"' '"0x3f800000"' nan inf -inf -0.0 '[' ']' '{' '}' ':' ','; do
    printf '"%s"\n' "$(echo "$w" | sed 's/"/\\"/g')"
  done
} >"$ROOT/fuzz/dict/inputs_json.dict"
for t in tgsi_parse nv_parse inputs_json valhall_decode differential_tgsi differential_nv reduce; do
  echo "fuzz/corpus/$t: $(ls "$OUT/$t" | wc -l) seeds"
done
