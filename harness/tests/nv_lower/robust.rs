//! The NV lowering and the engines never panic on a parsed program: every opcode of the
//! 64-bit, memory and conversion families with every data-type, storage, clamping and
//! condition-code modifier, on LONG and 32-bit operands in every position. A program either
//! lowers (and then every engine runs it or reports an error) or is refused with a
//! position; parse errors are skipped (the parser has its own robustness tests).

use shaderdiff_backends::{engine, EngineConfig, Inputs, ENGINE_NAMES};
use shaderdiff_nv as nv;

const PRELUDE: &str = "!!NVcp5.0\nGROUP_SIZE 2;\nSHARED_MEMORY 16;\n\
    SHARED sm[] = { program.sharedmem };\nCBUFFER cb[] = { program.buffer[0] };\n\
    STORAGE sb[] = { program.storage[0] };\nPARAM p = program.local[0];\nTEMP t0, t1, t2;\n\
    LONG TEMP L0, L1, L2;\nMOV.U t0, {4, 8, 0, 1};\nMOV.U t1, p;\nMOV.U t2, -p;\n\
    PK64.U L0, p;\nPK64.U L1, t0;\nPK64.U L2, t2;\n";

const OPS: &[&str] = &[
    "ADD", "SUB", "MUL", "MAD", "DIV", "MOD", "MIN", "MAX", "ABS", "MOV", "CMP", "SEQ", "SNE",
    "SLT", "SGE", "SGT", "SLE", "SFL", "STR", "AND", "OR", "XOR", "NOT", "SHL", "SHR", "SAD",
    "RCP", "RSQ", "FRC", "FLR", "CEIL", "TRUNC", "ROUND", "SSG", "I2F", "PK64", "UP64", "CVT",
];

const MODS: &[&str] = &[
    "",
    ".F",
    ".S",
    ".U",
    ".F64",
    ".S64",
    ".U64",
    ".F64.CC",
    ".S64.CC1",
    ".U64.CC",
    ".F64.SAT",
    ".F64.SSAT",
    ".S64.SAT",
    ".U.CC",
    ".F.SAT",
];

const CVT_MODS: &[&str] = &[
    ".F64.F32",
    ".F32.F64",
    ".S64.S32",
    ".U64.U32",
    ".S32.S64",
    ".U32.U64.SAT",
    ".S64.F64.FLR",
    ".U64.F32.CEIL",
    ".F64.S64",
    ".F32.U64.CC",
    ".S8.U64",
    ".F16.F64",
    ".F64.F64.SAT",
];

const MEMORY: &[&str] = &[
    "LOAD.U32 t0, L0.x;",
    "LOAD.F32X4 t0, t1.x;",
    "LOAD.U64X2 L0, L1.y;",
    "LOAD.S8 t0.y, L2.x;",
    "LOAD.F64 t0, L0.x;",
    "STORE.U64X4 L1, L0.x;",
    "STORE.S16 t1, L0.z;",
    "STORE.F32X2 L1, L0.x;",
    "ATOM.ADD.U32 t0, t1, L0.x;",
    "ATOM.CSWAP.S32 t0.xy, t1, L0.w;",
    "ATOM.ADD.F32.CC t0, t1, L0.x;",
    "ATOM.EXCH.U64 L0, L1, L0.x;",
    "LDS.U32 t0, sm[t0.x + 4];",
    "LDS.U64X2 L0, sm[8];",
    "STS.F32X4 t1, sm[t1.y];",
    "ATOMS.IWRAP.U32 t0, t1, sm[12];",
    "ATOMS.MAX.S32 t0, L1, sm[0];",
    "LDC.U16 t0, cb[t0.x + 6];",
    "LDC.F64X2 L2, cb[16];",
    "LOAD.F16X2 t0, L1.x;",
    "STS.F16 t1, sm[t0.y];",
    "LDB.S32X2 t0, sb[t0.z];",
    "STB.U64 L0, sb[8];",
    "ATOMB.XOR.U32 t2, t0, sb[4];",
    "ATOM.DWRAP.U32 t0, t1, L0.x;",
    "ATOMS.DWRAP.U32 t0.xy, t1.y, sm[t0.x];",
    "ATOMB.DWRAP.U32.CC t2, -t0, sb[8];",
    "ATOM.DWRAP.S32 t0, t1, L0.x;",
    "LOAD.U32 t0, sm[0];",
    "BAR;",
    "MEMBAR.CTA;",
];

/// Lowers `body` after [`PRELUDE`]; when it lowers, runs it on every engine (errors are
/// fine, panics are not). Returns whether it lowered.
fn lower_and_run(body: &str) -> bool {
    let text = format!("{PRELUDE}{body}\nEND\n");
    let Ok(p) = nv::parse(&text, "robust.nv") else {
        return false;
    };
    let Ok(l) = nv::lower(&p) else {
        return false;
    };
    let mut inputs = Inputs {
        invocations: 2,
        ..Inputs::default()
    };
    shaderdiff::nv_runtime::prepare(&l.program, &l.names, &mut inputs).expect("prepared");
    for name in ENGINE_NAMES {
        let e = engine(name, &EngineConfig::default()).expect("engine");
        let _ = e.execute(&l.program, &inputs);
    }
    true
}

#[test]
fn every_64_bit_and_conversion_form_lowers_or_is_refused_without_panicking() {
    let operands = [
        "L0, L1, L2, L0",
        "L0.xy, L1.yxzw, -L2.x, |L0|",
        "t0, L1, L2, L0",
        "L0, t1, t2, t0",
        "L0 (NE.x), L1, L2, L1",
        "t0.x, L1.x, L2.x, L1.x",
    ];
    let mut lowered = 0;
    let mut tried = 0;
    for op in OPS {
        let mods: &[&str] = if *op == "CVT" { CVT_MODS } else { MODS };
        for m in mods {
            for ops in operands {
                let n = match *op {
                    "MAD" | "CMP" | "SAD" => 4,
                    "ABS" | "MOV" | "NOT" | "RCP" | "RSQ" | "FRC" | "FLR" | "CEIL" | "TRUNC"
                    | "ROUND" | "SSG" | "I2F" | "PK64" | "UP64" | "CVT" => 2,
                    _ => 3,
                };
                let args: Vec<&str> = ops.split(", ").take(n).collect();
                tried += 1;
                if lower_and_run(&format!("{op}{m} {};", args.join(", "))) {
                    lowered += 1;
                }
            }
        }
    }
    for body in MEMORY {
        tried += 1;
        if lower_and_run(body) {
            lowered += 1;
        } else if std::env::var_os("ROBUST_DEBUG").is_some() {
            let text = format!("{PRELUDE}{body}\nEND\n");
            let r = nv::parse(&text, "r.nv").map(|p| nv::lower(&p).map(|_| ()));
            eprintln!("{body}: {r:?}");
        }
    }
    // Most forms are valid and lower; the rest are parse errors or refusals with a position.
    assert!(lowered > tried / 8, "only {lowered} of {tried} lowered");
}

/// Forms the lowering used to refuse and now lowers (and every engine runs without a
/// panic): NV's DWRAP as a compare-and-swap loop on global, shared and storage memory;
/// CVT.SAT to 32- and 64-bit integers; CVT to and from F16, F16 storage and the 8/16-bit vector storage forms.
#[test]
fn formerly_refused_forms_lower() {
    for body in [
        "ATOM.DWRAP.U32 t0, t1, L0.x;",
        "ATOMS.DWRAP.U32 t0.xy, t1.y, sm[t0.x];",
        "ATOMB.DWRAP.U32.CC t2, -t0, sb[8];",
        "CVT.S32.F32.SAT t0, t1;",
        "CVT.U32.F32.CEIL.SAT.CC t0, t1;",
        "CVT.S32.F64.SAT t0, L1;",
        "CVT.U32.S64.SAT t0.xy, L1;",
        "CVT.S64.F32.SAT L0, t1;",
        "CVT.U64.F64.FLR.SAT L0, L1;",
        "CVT.U64.S32.SAT L0.xz, t1;",
        "CVT.S64.U64.SAT L0, L1;",
        "CVT.F16.F32.CEIL t0, t1;",
        "CVT.F32.F16.SAT t0, t1;",
        "CVT.S16.F16.TRUNC t0.xz, t1;",
        "LOAD.F16X4 t0, L0.x;",
        "STORE.F16 t1, L0.y;",
        "LDS.F16X2 t0, sm[4];",
        "STS.F16X4 t1, sm[8];",
        "LDB.F16 t0.y, sb[t0.x];",
        "STB.F16X2 t1, sb[4];",
        "LDC.F16X4 t0, cb[8];",
        "LOAD.S8X4 t0, L0.x;",
        "STORE.U16X2 t1, L0.y;",
        "LDS.U8X2 t0, sm[2];",
        "STB.S16X4 t1, sb[8];",
    ] {
        assert!(lower_and_run(body), "`{body}` does not lower");
    }
}
