//! Compute programs with STORAGE results and the shared-memory prologue
//! (`emit/stage.rs`): what engine `nvidia` can dispatch, and shared memory defined before
//! any read.

use std::collections::BTreeSet;

use super::*;

/// Whether a compute program stores its results into the STORAGE buffer.
fn storage_results(g: &NvGenerated) -> bool {
    g.kind == NvKind::NvCompute && g.text.contains("STB.U32X4 r0, ")
}

/// About half of the compute programs ([`NvFeatures::storage_compute`] = 50) keep their
/// results in the STORAGE buffer; those use no global memory (no `LOAD` / `STORE` / `ATOM`
/// on addresses, no global region), no CBUFFER and no texture, store every result TEMP
/// into their own slot at `96 + globalid.x * slot`, and set every TEMP and both condition
/// codes before the first statement (NV_gpu_program4 §2.X.3.4, §2.X.3.7: undefined at
/// program start); their statements read `invocation.*` only through the copies `lid`,
/// `gid` with `w` = 0 (NV_compute_program5 Table X.1 leaves `w` undefined). Their statements still cover LDB, STB, ATOMB and the shared-memory
/// instructions.
#[test]
fn storage_result_programs_use_only_storage_and_shared_memory() {
    let (mut compute, mut storage) = (0, 0);
    let mut seen = BTreeSet::new();
    for index in 0..1500 {
        let g = generate(9, index, 40, 16).expect("valid");
        if g.kind != NvKind::NvCompute {
            continue;
        }
        compute += 1;
        if !storage_results(&g) {
            assert!(!g.inputs.global.is_empty(), "{}", g.text);
            continue;
        }
        storage += 1;
        let t = &g.text;
        assert!(g.inputs.global.is_empty(), "{t}");
        for op in ["LOAD.", "STORE.", "ATOM.", "CBUFFER", "texture["] {
            assert!(!t.contains(op), "{op} in\n{t}");
        }
        let temps: Vec<String> = t
            .lines()
            .find(|s| s.starts_with("TEMP t0"))
            .expect("TEMPs")
            .trim_start_matches("TEMP ")
            .trim_end_matches(';')
            .split(", ")
            .map(String::from)
            .collect();
        let slot = 16 * (1 + temps.len());
        assert!(
            t.contains(&format!("MUL.U sc.x, invocation.globalid.x, {slot};")),
            "{t}"
        );
        for (k, r) in std::iter::once("r0")
            .chain(temps.iter().map(String::as_str))
            .enumerate()
        {
            let at = 96 + 16 * k;
            assert!(
                t.contains(&format!("STB.U32X4 {r}, sb[sc.x + {at}];")),
                "{t}"
            );
        }
        let first = &temps[0];
        for line in [
            format!("MOV.U.CC1 {first}, 0;"),
            format!("MOV.U.CC {first}, 0;"),
            "MOV.U lid.xyz, invocation.localid;".into(),
            "MOV.U gid.xyz, invocation.globalid;".into(),
        ] {
            assert!(t.contains(&line), "{line} missing:\n{t}");
        }
        for r in &temps[1..] {
            assert!(t.contains(&format!("MOV.U {r}, 0;")), "{t}");
        }
        let reads = t
            .lines()
            .filter(|s| s.contains("invocation."))
            .filter(|s| !s.starts_with("MOV.U lid.xyz") && !s.starts_with("MOV.U gid.xyz"));
        for line in reads {
            let direct =
                line.contains("invocation.localid.x,") || line.contains("invocation.globalid.x,");
            assert!(direct && line.starts_with("MUL.U sc.x"), "{line}\n{t}");
        }
        for insn in g.ast.instructions() {
            seen.insert(insn.opcode.name().to_string());
        }
    }
    // 1500 programs, 15 % compute: about 225, half of them with STORAGE results.
    assert!(compute > 150, "{compute} compute programs");
    let share = storage * 100 / compute;
    assert!((35..=65).contains(&share), "{storage} of {compute}");
    for op in [
        "LDB", "STB", "ATOMB", "LDS", "STS", "ATOMS", "BAR", "MEMBAR",
    ] {
        assert!(seen.contains(op), "{op} never drawn: {seen:?}");
    }
}

/// The shared-memory prologue writes each of the 96 bytes exactly once per work group
/// before any other shared-memory access, then `BAR` (NV_compute_program5 §2.X.3.Y:
/// shared memory is undefined when a work group starts): invocation `l` (`localid.x`) of
/// a group of `g` stores its `96 / g` bytes at `l * 96 / g`, in stores as wide as divide
/// that share (16, 8 or 4 bytes, so each is aligned to its size).
#[test]
fn shared_memory_is_zeroed_before_use() {
    let mut n = 0;
    for index in 0..1500 {
        let g = generate(9, index, 40, 16).expect("valid");
        if !g.text.contains("SHARED_MEMORY 96;") {
            continue;
        }
        n += 1;
        let lines: Vec<&str> = g.text.lines().collect();
        let group: usize = lines
            .iter()
            .find_map(|s| s.strip_prefix("GROUP_SIZE "))
            .and_then(|s| s.trim_end_matches(';').parse().ok())
            .expect("GROUP_SIZE");
        let share = 96 / group;
        let mul = format!("MUL.U sc.x, invocation.localid.x, {share};");
        let start = lines.iter().position(|s| *s == mul).expect(&mul);
        assert_eq!(lines[start - 1], "MOV.U sc, 0;", "{}", g.text);
        // Every shared-memory access before the prologue's: none.
        let touches = |s: &str| (s.contains("sm[") && !s.starts_with("SHARED ")) || s == "BAR;";
        assert!(!lines[..start].iter().any(|s| touches(s)), "{}", g.text);
        let mut covered = vec![0u32; 96];
        let mut k = start + 1;
        while let Some(rest) = lines[k].strip_prefix("STS.") {
            let (ty, place) = rest.split_once(" sc.y, ").expect("a zero store");
            let width = match ty {
                "U32X4" => 16,
                "U32X2" => 8,
                "U32" => 4,
                other => panic!("{other}"),
            };
            let at: usize = match place.trim_end_matches(';') {
                "sm[sc.x]" => 0,
                p => p
                    .strip_prefix("sm[sc.x + ")
                    .and_then(|p| p.strip_suffix(']'))
                    .and_then(|p| p.parse().ok())
                    .expect(p),
            };
            for l in 0..group {
                let from = l * share + at;
                assert_eq!(from % width, 0, "aligned store");
                for b in &mut covered[from..from + width] {
                    *b += 1;
                }
            }
            k += 1;
        }
        assert_eq!(covered, vec![1; 96], "{}", g.text);
        assert_eq!(lines[k], "BAR;", "{}", g.text);
    }
    assert!(n > 50, "{n} programs with shared memory");
}
