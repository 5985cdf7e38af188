//! The spec-derived ARB suite (`gen --lang nv --spec --arb-only`): one program per ARB
//! instruction and stage (ARB_fragment_program §3.11.5, ARB_vertex_program §2.14.5), plus
//! an `_SAT` variant of each fragment instruction with a result (§3.11.4.3), run on
//! [`EDGE_VALUES`] in every operand channel.
//!
//! Operand layout: vector instructions read `fragment.texcoord[0..2]` (vertex:
//! `vertex.attrib[1..3]`) and write `result.color` (vertex: `result.texcoord[0]`); scalar
//! instructions are written four times, once per channel, so every channel sees its own
//! edge value. Invocation `i`, channel `c` of operand `k` holds
//! `EDGE_VALUES[(i / 32^k + 7c) % 32]` for the first two operands (every pair of edge
//! values meets in 1024 invocations) and `EDGE_VALUES[(13i + 5c) % 32]` for the third.

use shaderdiff_model::File;
use shaderdiff_model::{Inputs, RegKey};
use shaderdiff_nv::Lowered;

use super::{finish, SpecCase};

/// Binary32 edge values: signed zeros, ±1, halves, the range ends of the transcendentals
/// (±pi, 127, -126, 128), tiny and huge magnitudes, the largest and smallest normals, a
/// denormal of each sign, ±inf and a NaN.
pub const EDGE_VALUES: [u32; 32] = [
    0x0000_0000, // 0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0xbf00_0000, // -0.5
    0x4000_0000, // 2
    0x4040_0000, // 3
    0x3fc9_0fdb, // pi/2
    0x4049_0fdb, // pi
    0xc049_0fdb, // -pi
    0x4120_0000, // 10
    0x42c8_0000, // 100
    0xc2c8_0000, // -100
    0x2edb_e6ff, // 1e-10
    0x5015_02f9, // 1e10
    0x7149_f2ca, // 1e30
    0xf149_f2ca, // -1e30
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x7fc0_0000, // NaN
    0x0000_6ce4, // 3.9e-41 (denormal)
    0x8000_6ce4, // -3.9e-41 (denormal)
    0x7f7f_ffff, // largest finite
    0x0080_0000, // smallest normal
    0x3dcc_cccd, // 0.1
    0x42fe_0000, // 127
    0xc2fc_0000, // -126
    0x4300_0000, // 128
    0x3fc0_0000, // 1.5
    0x3e80_0000, // 0.25
    0xbf40_0000, // -0.75
];

/// Invocations of every suite program (32 x 32 operand pairs).
pub const INVOCATIONS: usize = 1024;

/// (opcode, vector operands, scalar operands, stages `f`/`v`).
const OPS: &[(&str, usize, usize, &str)] = &[
    ("ABS", 1, 0, "fv"),
    ("ADD", 2, 0, "fv"),
    ("CMP", 3, 0, "f"),
    ("COS", 0, 1, "f"),
    ("DP3", 2, 0, "fv"),
    ("DP4", 2, 0, "fv"),
    ("DPH", 2, 0, "fv"),
    ("DST", 2, 0, "fv"),
    ("EX2", 0, 1, "fv"),
    ("EXP", 0, 1, "v"),
    ("FLR", 1, 0, "fv"),
    ("FRC", 1, 0, "fv"),
    ("LG2", 0, 1, "fv"),
    ("LIT", 1, 0, "fv"),
    ("LOG", 0, 1, "v"),
    ("LRP", 3, 0, "f"),
    ("MAD", 3, 0, "fv"),
    ("MAX", 2, 0, "fv"),
    ("MIN", 2, 0, "fv"),
    ("MOV", 1, 0, "fv"),
    ("MUL", 2, 0, "fv"),
    ("POW", 0, 2, "fv"),
    ("RCP", 0, 1, "fv"),
    ("RSQ", 0, 1, "fv"),
    ("SCS", 0, 1, "f"),
    ("SGE", 2, 0, "fv"),
    ("SIN", 0, 1, "f"),
    ("SLT", 2, 0, "fv"),
    ("SUB", 2, 0, "fv"),
    ("SWZ", 1, 0, "fv"),
    ("XPD", 2, 0, "fv"),
];

fn body(op: &str, vec: usize, scalars: usize, frag: bool, sat: &str) -> String {
    let (src, dst) = if frag {
        ("fragment.texcoord", "result.color")
    } else {
        ("vertex.attrib", "result.texcoord[0]")
    };
    let base = usize::from(!frag);
    let operand = |k: usize| format!("{src}[{}]", base + k);
    let mut t = format!("!!ARB{}1.0\nTEMP r;\n", if frag { "fp" } else { "vp" });
    match op {
        "SWZ" => t += &format!("SWZ{sat} {dst}, {}, -x, 1, 0, -w;\n", operand(0)),
        // §3.11.5.24: SCS writes x (cos) and y (sin) only.
        "SCS" => t += &format!("SCS{sat} r.xy, {}.x;\nMOV {dst}, r;\n", operand(0)),
        _ if scalars > 0 => {
            for c in ["x", "y", "z", "w"] {
                let args: Vec<String> = (0..scalars)
                    .map(|k| format!("{}.{c}", operand(k)))
                    .collect();
                t += &format!("{op}{sat} r.{c}, {};\n", args.join(", "));
            }
            t += &format!("MOV {dst}, r;\n");
        }
        _ => {
            let args: Vec<String> = (0..vec).map(operand).collect();
            t += &format!("{op}{sat} {dst}, {};\n", args.join(", "));
        }
    }
    if op == "XPD" {
        // §3.11.5.27: XPD leaves w undefined; write x, y, z only.
        t = t.replace(&format!("XPD{sat} {dst},"), &format!("XPD{sat} {dst}.xyz,"));
    }
    t + "END\n"
}

fn kil_body() -> String {
    "!!ARBfp1.0\nKIL fragment.texcoord[0];\nMOV result.color, fragment.texcoord[1];\nEND\n".into()
}

/// Inputs: operand `k` of the layout in the module docs, for every `IN` the program reads.
fn edge_inputs(l: &Lowered) -> Inputs {
    let mut inputs = Inputs {
        invocations: INVOCATIONS,
        ..Inputs::default()
    };
    for k in 0..3usize {
        let names = [
            format!("fragment.texcoord[{k}]"),
            format!("vertex.attrib[{}]", k + 1),
        ];
        let Some((f, i)) = names.iter().find_map(|n| l.names.lookup(l.stage, n)) else {
            continue;
        };
        if f != File::Input {
            continue;
        }
        let v = (0..INVOCATIONS)
            .map(|inv| {
                let mut w = [0u32; 4];
                for (c, slot) in w.iter_mut().enumerate() {
                    let j = match k {
                        0 => inv + 7 * c,
                        1 => inv / 32 + 7 * c,
                        _ => 13 * inv + 5 * c,
                    };
                    *slot = EDGE_VALUES[j % 32];
                }
                w
            })
            .collect();
        inputs.registers.insert(RegKey::new(f, i), v);
    }
    inputs
}

/// The whole suite, in a fixed order.
///
/// Errors: a program that does not parse or lower (a generator bug).
pub fn suite() -> Result<Vec<SpecCase>, String> {
    let mut texts = Vec::new();
    for &(op, vec, scalars, stages) in OPS {
        for (stage, frag, ext) in [('f', true, "arbfp"), ('v', false, "arbvp")] {
            if !stages.contains(stage) {
                continue;
            }
            let s = if frag { "fp" } else { "vp" };
            texts.push((
                format!("arb-spec-{s}-{}", op.to_lowercase()),
                ext,
                body(op, vec, scalars, frag, ""),
            ));
            if frag {
                texts.push((
                    format!("arb-spec-{s}-{}-sat", op.to_lowercase()),
                    ext,
                    body(op, vec, scalars, frag, "_SAT"),
                ));
            }
        }
    }
    texts.push(("arb-spec-fp-kil".into(), "arbfp", kil_body()));
    texts
        .into_iter()
        .map(|(name, ext, text)| {
            let (_, lowered) = finish(&text).map_err(|e| format!("{name}: {e}\n{text}"))?;
            let inputs = edge_inputs(&lowered);
            Ok(SpecCase {
                name,
                ext,
                text,
                lowered,
                inputs,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lowers_and_covers_every_arb_instruction() {
        let s = suite().expect("valid");
        for &(op, _, _, stages) in OPS {
            for (st, s_name) in [('f', "fp"), ('v', "vp")] {
                if stages.contains(st) {
                    let name = format!("arb-spec-{s_name}-{}", op.to_lowercase());
                    assert!(s.iter().any(|c| c.name == name), "{name}");
                }
            }
        }
        // Every pair of edge values meets in operands 0 and 1 (module docs).
        let add = s.iter().find(|c| c.name == "arb-spec-fp-add").unwrap();
        let regs: Vec<&Vec<[u32; 4]>> = add.inputs.registers.values().collect();
        let pairs: std::collections::BTreeSet<(u32, u32)> = (0..INVOCATIONS)
            .map(|i| (regs[0][i][0], regs[1][i][0]))
            .collect();
        assert_eq!(pairs.len(), 32 * 32);
    }
}
