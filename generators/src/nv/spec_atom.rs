//! The ATOM families of the spec-derived NV suite (`gen --lang nv --spec`): one vertex
//! program per atomic modifier × storage modifier of NV_gpu_program5 § ATOM Table X.Y as
//! NV_shader_atomic_float (ADD / EXCH `F32`), NV_shader_atomic_int64 (`S64` for ADD MIN MAX
//! AND OR XOR EXCH CSWAP, `U64` for MIN MAX AND OR XOR) and NV_shader_atomic_float64
//! (ADD and EXCH `F64`) extend it, each in two shapes:
//!
//! * `nv-spec-vp-atom-<op>-<type>`: invocation `i` (32 of them) updates its own 8-byte
//!   slot of a global region at byte `8 i`, which starts as edge value `(7 i + 3) % 32`,
//!   with operand edge value `i` (CSWAP: compare with the slot's value when `i` is even,
//!   with the operand value otherwise, so half hit and half miss; store edge value
//!   `(i + 13) % 32`);
//! * `...-hot`: the same operands, but invocation `i` uses slot `i % 4`, so eight
//!   invocations contend for each location and the atomic-aware comparator judges the
//!   order each engine took.
//!
//! Program: `q.x` = the region's base (`program.local[0]`, lo / hi) plus the byte offset
//! in `vertex.attrib[2].x`; the operand is `vertex.attrib[1]` (64-bit forms: `PK64.U` of
//! it, so `v.x` = (x, y) and CSWAP's `v.y` = (z, w)); the value read goes to
//! `result.attrib[0]` (64-bit: `UP64.U` of the LONG result, `.xy`). Edge values:
//! [`INT_EDGE_VALUES`] (32-bit integers), [`EDGE_VALUES`] (F32), [`EDGE_VALUES_64`]
//! (64-bit; EXCH.F64 moves bits, ADD.F64 adds them as binary64, NaNs and infinities
//! included). The F16 forms are refused by the lowering (`lower_mem.rs`) and not generated.

use std::fmt::Write as _;

use shaderdiff_model::File;
use shaderdiff_model::{Inputs, RegKey};

use super::arb_spec::EDGE_VALUES;
use super::spec::INT_EDGE_VALUES;
use super::{finish, SpecCase};

/// 64-bit edge values: 0, 1, 2, -1, -2, the signed ends (i64::MIN, +1, i64::MAX, -1), the
/// 32-bit boundaries seen from 64 bits (2^31 - 1, 2^31, 2^32 - 1, 2^32, 2^32 + 1, -2^31,
/// -2^32, -2^32 - 1), values whose halves differ in sign (0x0000_0001_FFFF_FFFF,
/// 0xFFFF_FFFE_0000_0001), alternating bit patterns, an arbitrary word and its
/// complement, the binary64 bits of 1.0, -1.0, +inf and a quiet NaN (-0.0 is i64::MIN), and small values.
pub const EDGE_VALUES_64: [u64; 32] = [
    0,
    1,
    2,
    u64::MAX,
    u64::MAX - 1,
    0x8000_0000_0000_0000,
    0x8000_0000_0000_0001,
    0x7FFF_FFFF_FFFF_FFFF,
    0x7FFF_FFFF_FFFF_FFFE,
    0x0000_0000_7FFF_FFFF,
    0x0000_0000_8000_0000,
    0x0000_0000_FFFF_FFFF,
    0x0000_0001_0000_0000,
    0x0000_0001_0000_0001,
    0xFFFF_FFFF_8000_0000,
    0xFFFF_FFFF_0000_0000,
    0xFFFF_FFFE_FFFF_FFFF,
    0x0000_0001_FFFF_FFFF,
    0xFFFF_FFFE_0000_0001,
    0x5555_5555_5555_5555,
    0xAAAA_AAAA_AAAA_AAAA,
    0x1234_5678_9ABC_DEF0,
    0xEDCB_A987_6543_210F,
    0x3FF0_0000_0000_0000,
    0xBFF0_0000_0000_0000,
    0x7FF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    3,
    7,
    100,
    0xFFFF_FFFF_FFFF_FF9C,
    0x0000_0000_0000_FFFF,
];

/// The (atomic modifier, storage modifier) forms generated (module docs).
pub const FORMS: &[(&str, &str)] = &[
    ("ADD", "U32"),
    ("ADD", "S32"),
    ("ADD", "F32"),
    ("MIN", "U32"),
    ("MIN", "S32"),
    ("MAX", "U32"),
    ("MAX", "S32"),
    ("IWRAP", "U32"),
    ("DWRAP", "U32"),
    ("AND", "U32"),
    ("AND", "S32"),
    ("OR", "U32"),
    ("OR", "S32"),
    ("XOR", "U32"),
    ("XOR", "S32"),
    ("EXCH", "U32"),
    ("EXCH", "S32"),
    ("EXCH", "F32"),
    ("CSWAP", "U32"),
    ("CSWAP", "S32"),
    ("ADD", "U64"),
    ("ADD", "S64"),
    ("ADD", "F64"),
    ("MIN", "U64"),
    ("MIN", "S64"),
    ("MAX", "U64"),
    ("MAX", "S64"),
    ("AND", "U64"),
    ("AND", "S64"),
    ("OR", "U64"),
    ("OR", "S64"),
    ("XOR", "U64"),
    ("XOR", "S64"),
    ("EXCH", "U64"),
    ("EXCH", "S64"),
    ("EXCH", "F64"),
    ("CSWAP", "U64"),
    ("CSWAP", "S64"),
];

/// Base address of the global region (above 4 GiB, so addresses need both words).
pub const REGION_BASE: u64 = 0x2_0000_0000;

/// Invocations of every ATOM program.
const INVOCATIONS: usize = 32;

fn wide(ty: &str) -> bool {
    ty.ends_with("64")
}

/// The program text of form `(op, ty)` (module docs).
pub fn program_text(op: &str, ty: &str) -> String {
    let mut t = String::from("!!NVvp5.0\n");
    for o in [
        "NV_shader_atomic_float",
        "NV_shader_atomic_int64",
        "NV_shader_atomic_float64",
    ] {
        let _ = writeln!(t, "OPTION {o};");
    }
    t.push_str(
        "PARAM base = program.local[0];\nLONG TEMP a, q, v, t;\nTEMP o;\nPK64.U a, base;\n\
         CVT.U64.U32 q.x, vertex.attrib[2].x;\nADD.U64 q.x, q.x, a.x;\n",
    );
    if wide(ty) {
        let _ = writeln!(
            t,
            "PK64.U v, vertex.attrib[1];\nPK64.U t, {{0, 0, 0, 0}};\n\
             ATOM.{op}.{ty} t.x, v, q.x;\nUP64.U o, t;"
        );
    } else {
        let _ = writeln!(
            t,
            "MOV.U o, {{0, 0, 0, 0}};\nATOM.{op}.{ty} o.x, vertex.attrib[1], q.x;"
        );
    }
    t.push_str("MOV.U result.attrib[0], o;\nEND\n");
    t
}

/// The edge value `k` of form `ty`, as 64 bits (32-bit forms: zero-extended).
fn edge(ty: &str, k: usize) -> u64 {
    match ty {
        "F32" => u64::from(EDGE_VALUES[k % 32]),
        t if wide(t) => EDGE_VALUES_64[k % 32],
        _ => u64::from(INT_EDGE_VALUES[k % 32]),
    }
}

/// Inputs of form `(op, ty)` (module docs); `hot`: four contended slots.
fn inputs(op: &str, ty: &str, hot: bool, l: &shaderdiff_nv::Lowered) -> Inputs {
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    let slots = if hot { 4 } else { INVOCATIONS };
    let initial: Vec<u64> = (0..slots).map(|s| edge(ty, 7 * s + 3)).collect();
    let mut operand = Vec::new();
    let mut offset = Vec::new();
    for i in 0..INVOCATIONS {
        let slot = i % slots;
        let d = edge(ty, i);
        let (x, y) = if op == "CSWAP" {
            let cmp = if i % 2 == 0 { initial[slot] } else { d };
            (cmp, edge(ty, i + 13))
        } else {
            (d, 0)
        };
        operand.push(if wide(ty) {
            [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32]
        } else {
            [x as u32, y as u32, 0, 0]
        });
        offset.push([8 * slot as u32, 0, 0, 0]);
    }
    for (name, v) in [("vertex.attrib[1]", operand), ("vertex.attrib[2]", offset)] {
        if let Some((File::Input, i)) = l.names.lookup(l.stage, name) {
            inputs.registers.insert(RegKey::new(File::Input, i), v);
        }
    }
    if let Some((f, i)) = l.names.lookup(l.stage, "program.local[0]") {
        let base = [REGION_BASE as u32, (REGION_BASE >> 32) as u32, 0, 0];
        inputs.constants.insert(RegKey::new(f, i), base);
    }
    let mut bytes = Vec::new();
    for v in initial {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    inputs.global.insert(REGION_BASE, bytes);
    inputs
}

/// Every ATOM case, in [`FORMS`] order, the uncontended shape before the `-hot` one.
///
/// Errors: a program that does not parse or lower (a generator bug, or a lost lowering).
pub fn cases() -> Result<Vec<SpecCase>, String> {
    let mut out = Vec::new();
    for &(op, ty) in FORMS {
        let text = program_text(op, ty);
        for hot in [false, true] {
            let name = format!(
                "nv-spec-vp-atom-{}-{}{}",
                op.to_ascii_lowercase(),
                ty.to_ascii_lowercase(),
                if hot { "-hot" } else { "" }
            );
            let (_, lowered) = finish(&text).map_err(|e| format!("{name}: {e}\n{text}"))?;
            let inputs = inputs(op, ty, hot, &lowered);
            out.push(SpecCase {
                name,
                ext: "nvvp",
                text: text.clone(),
                lowered,
                inputs,
            });
        }
    }
    Ok(out)
}
