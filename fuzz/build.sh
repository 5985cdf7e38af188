#!/bin/bash -eu
# OSS-Fuzz build script (https://google.github.io/oss-fuzz/getting-started/new-project-guide/rust-lang/):
# builds every target into $OUT with its seed corpus ($OUT/<target>_seed_corpus.zip) and
# dictionary ($OUT/<target>.dict). Outside OSS-Fuzz: OUT=/tmp/out fuzz/build.sh.
cd "$(dirname "$0")/.."
OUT=${OUT:?set OUT to the output directory}
mkdir -p "$OUT"
cargo fuzz build -O --fuzz-dir fuzz
TARGETS="tgsi_parse nv_parse valhall_decode inputs_json differential_tgsi differential_nv reduce"
FUZZ_BIN=fuzz/target/x86_64-unknown-linux-gnu/release
for t in $TARGETS; do
  cp "$FUZZ_BIN/$t" "$OUT/"
done
fuzz/make-seeds.sh
for t in $TARGETS; do
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "fuzz/corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
done
cp fuzz/dict/tgsi.dict "$OUT/tgsi_parse.dict"
cp fuzz/dict/nv.dict "$OUT/nv_parse.dict"
cp fuzz/dict/inputs_json.dict "$OUT/inputs_json.dict"
