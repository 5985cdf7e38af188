#!/bin/bash
# Instructions the TGSI and NV parse benches execute per pass, two builds side by side
# (docs/performance.md "Parsers"). Valgrind's callgrind counts them, so the figures do not
# depend on the machine's load, unlike criterion's wall times.
#
#   scripts/parse-insns.sh BASE_TARGET NEW_TARGET
#
# Each TARGET is a target directory in which `cargo bench -p shaderdiff-tgsi
# -p shaderdiff-nv --bench parse --no-run` has built the benches (for the base: a checkout
# of the commit to compare with, the two bench files copied in). Each benchmark runs once
# in criterion's test mode; the same binary with a filter that matches nothing (reading
# the corpus, building the long program) is subtracted.
set -euo pipefail

ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        awk '/Collected :/ {s += $NF} END {print s}'
}

# The parse bench executable of TARGET whose benchmarks are GROUP/...
bench_exe() {
    local f
    for f in "$1"/release/deps/parse-*; do
        [[ -x $f && $f != *.d ]] || continue
        if [[ $("$f" --bench --list 2>/dev/null || true) == *"$2/"* ]]; then
            echo "$f"
            return
        fi
    done
    echo "no $2 bench in $1" >&2
    exit 1
}

printf '%-28s %14s %14s %8s\n' benchmark base new change
for group in tgsi_parse nv_parse; do
    base=$(bench_exe "$1" "$group")
    new=$(bench_exe "$2" "$group")
    base_setup=$(ir "$base" zzz_nothing)
    new_setup=$(ir "$new" zzz_nothing)
    for b in corpus one_line_20000; do
        x=$(($(ir "$base" "$group/$b") - base_setup))
        y=$(($(ir "$new" "$group/$b") - new_setup))
        printf '%-28s %14d %14d %+7.2f%%\n' "$group/$b" "$x" "$y" \
            "$(echo "($y - $x) * 100 / $x" | bc -l)"
    done
done
