//! Spec-derived programs for the memory opcodes the oracle runs (tgsi.rst "Resource Access
//! Opcodes", "Atomic opcodes", "Inter-thread synchronization opcodes"; the model is in
//! `shaderdiff_oracles::interp`'s docs, "Memory model"): LOAD at aligned, unaligned and
//! out-of-range byte addresses, STORE with every single-channel writemask and out of
//! range, RESQ, every ATOM* with edge operands and two invocations per address, and
//! BARRIER / MEMBAR passing values between the invocations of a workgroup.

use shaderdiff_model::{File, Opcode};
use shaderdiff_model::{Inputs, RegKey};
use shaderdiff_tgsi::parse;

use super::edges::INT;
use super::SpecCase;

/// Byte addresses of the LOAD/STORE cases over a 32-byte buffer: aligned, unaligned, the
/// last dwords, just out of range, far out of range.
const ADDRESSES: &[u32] = &[
    0,
    1,
    2,
    3,
    4,
    12,
    16,
    20,
    28,
    29,
    32,
    0x7fff_ffff,
    0xffff_fffc,
];

fn buffer(n: usize) -> Vec<u8> {
    (0..n)
        .map(|b| (b as u8).wrapping_mul(37).wrapping_add(11))
        .collect()
}

/// `n` invocations (rounded up to 4) with `key` = `[f(i), i, 0, 0]`.
fn per_invocation(key: RegKey, n: usize, f: impl Fn(usize) -> u32) -> Inputs {
    let n = n.div_ceil(4) * 4;
    let mut inputs = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    inputs
        .registers
        .insert(key, (0..n).map(|i| [f(i), i as u32, 0, 0]).collect());
    inputs
}

fn in0() -> RegKey {
    RegKey::new(File::Input, 0)
}

fn buf(i: u32) -> RegKey {
    RegKey::new(File::Buffer, i)
}

type Template = (Opcode, String, String, Inputs);

fn load_store() -> Vec<Template> {
    let mut out = Vec::new();
    let mut inputs = per_invocation(in0(), ADDRESSES.len(), |i| {
        ADDRESSES.get(i).copied().unwrap_or(0)
    });
    inputs.buffers.insert(buf(0), buffer(32));
    for (variant, wm, swz) in [
        ("xyzw", "", ""),
        ("wm-x", ".x", ""),
        ("wm-w", ".w", ""),
        ("swz-wzyx", "", ".wzyx"),
    ] {
        let text = format!(
            "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL BUFFER[0]\n\
             LOAD OUT[0]{wm}, BUFFER[0]{swz}, IN[0].xxxx\nEND\n"
        );
        out.push((Opcode::LOAD, variant.to_string(), text, inputs.clone()));
    }
    // STORE: invocation i writes its own 16-byte slot (address 16 i), or with `unaligned`
    // 16 i + 2; the last invocations are out of range.
    for (variant, wm, offset) in [
        ("xyzw", "", 0),
        ("wm-x", ".x", 0),
        ("wm-y", ".y", 0),
        ("wm-z", ".z", 0),
        ("wm-w", ".w", 0),
        ("unaligned", ".xy", 2),
    ] {
        let mut inputs = per_invocation(in0(), 8, |i| 16 * i as u32 + offset);
        inputs.buffers.insert(buf(0), buffer(16 * 6 + 6));
        let text = format!(
            "VERT\nDCL IN[0]\nDCL BUFFER[0]\nIMM[0] UINT32 {{305419896, 4294967295, 0, 2147483648}}\n\
             STORE BUFFER[0]{wm}, IN[0].xxxx, IMM[0]\nEND\n"
        );
        out.push((Opcode::STORE, variant.to_string(), text, inputs));
    }
    let mut inputs = per_invocation(in0(), 4, |_| 0);
    inputs.buffers.insert(buf(0), buffer(24));
    out.push((
        Opcode::RESQ,
        "size".into(),
        "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL OUT[1]\nDCL BUFFER[0]\nDCL BUFFER[1]\n\
         RESQ OUT[0].x, BUFFER[0]\nRESQ OUT[1].x, BUFFER[1]\nEND\n"
            .into(),
        inputs,
    ));
    out
}

/// Every atomic: invocation i updates the dword at `4 (i % 2)` (two invocations per
/// address, serial order open) with an integer edge value, and stores what it got in
/// BUFFER[1] at `4 i`; ATOMCAS compares with 0 and the previous edge.
fn atomics() -> Vec<Template> {
    use Opcode::*;
    let ops = [
        ATOMUADD,
        ATOMFADD,
        ATOMXCHG,
        ATOMCAS,
        ATOMAND,
        ATOMOR,
        ATOMXOR,
        ATOMUMIN,
        ATOMUMAX,
        ATOMIMIN,
        ATOMIMAX,
        ATOMINC_WRAP,
        ATOMDEC_WRAP,
    ];
    let n = INT.len();
    ops.into_iter()
        .map(|op| {
            let operands = if op == ATOMCAS {
                "TEMP[0].xxxx, TEMP[0].wwww, SV[0].zzzz"
            } else {
                "TEMP[0].xxxx, SV[0].zzzz"
            };
            let text = format!(
                "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\nDCL TEMP[0..1]\n\
                 IMM[0] UINT32 {{1, 4, 0, 0}}\n\
                 AND TEMP[0].x, SV[0].yyyy, IMM[0].xxxx\n\
                 UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
                 UMUL TEMP[0].z, SV[0].yyyy, IMM[0].yyyy\n\
                 MOV TEMP[0].w, SV[0].wwww\n\
                 {op} TEMP[1].x, BUFFER[0], {operands}\n\
                 STORE BUFFER[1].x, TEMP[0].zzzz, TEMP[1].xxxx\nEND\n"
            );
            let mut inputs = Inputs {
                invocations: n.div_ceil(4) * 4,
                ..Inputs::default()
            };
            let k = inputs.invocations;
            inputs.registers.insert(
                RegKey::new(File::SystemValue, 0),
                (0..k)
                    .map(|i| {
                        [
                            0,
                            i as u32,
                            INT[i % n],
                            if i < 2 { 0 } else { INT[(i - 2) % n] },
                        ]
                    })
                    .collect(),
            );
            inputs.buffers.insert(buf(0), vec![0; 8]);
            inputs.buffers.insert(buf(1), vec![0; 4 * k]);
            (op, "contended".to_string(), text, inputs)
        })
        .collect()
}

/// BARRIER / MEMBAR: a workgroup of 4 passes values around through SHARED memory.
fn barrier() -> Vec<Template> {
    let text = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\n\
                DCL MEMORY[0], SHARED\nDCL TEMP[0..1]\nIMM[0] UINT32 {4, 1, 3, 8}\n\
                AND TEMP[0].w, SV[0].yyyy, IMM[0].zzzz\n\
                UMUL TEMP[0].x, TEMP[0].wwww, IMM[0].xxxx\n\
                UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy\n\
                UADD TEMP[0].z, TEMP[0].wwww, IMM[0].yyyy\n\
                AND TEMP[0].z, TEMP[0].zzzz, IMM[0].zzzz\n\
                UMUL TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx\n\
                UMUL TEMP[1].y, SV[0].yyyy, IMM[0].xxxx\n\
                STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[0].yyyy\n\
                MEMBAR IMM[0].wwww\nBARRIER\n\
                LOAD TEMP[1].x, MEMORY[0], TEMP[0].zzzz\n\
                STORE BUFFER[0].x, TEMP[1].yyyy, TEMP[1].xxxx\nEND\n";
    let mut inputs = per_invocation(RegKey::new(File::SystemValue, 0), 8, |i| INT[i % INT.len()]);
    inputs.buffers.insert(buf(0), vec![0; 32]);
    inputs
        .buffers
        .insert(RegKey::new(File::Memory, 0), vec![0; 16]);
    vec![
        (
            Opcode::BARRIER,
            "shared".into(),
            text.into(),
            inputs.clone(),
        ),
        (Opcode::MEMBAR, "shared".into(), text.into(), inputs),
    ]
}

/// Every memory template as a spec case.
///
/// # Panics
/// Never for the shipped templates (fixed text; a template that does not parse is a bug
/// caught by the crate's tests).
pub(super) fn cases() -> Vec<SpecCase> {
    load_store()
        .into_iter()
        .chain(atomics())
        .chain(barrier())
        .map(|(op, variant, text, inputs)| {
            let program = parse(&text, "template.tgsi")
                .unwrap_or_else(|e| panic!("spec template {op} {variant}: {e}"));
            SpecCase::new(op, &variant, program, inputs, None)
        })
        .collect()
}
