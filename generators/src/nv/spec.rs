//! The spec-derived NV_gpu_program5 suite (`gen --lang nv --spec`): one `!!NVvp5.0` and
//! one `!!NVfp5.0` program per family of [`super::spec_table`] (Table X.13 instruction ×
//! data type × modifier) that the lowering supports ([`lowered_today`]), run on edge
//! values in every operand channel.
//!
//! Program shape, from the row's "Out" and "Inputs" columns:
//!
//! * operand `k` is `vertex.attrib[k+1]` (vertex) or `fragment.texcoord[k]` (fragment); a
//!   scalar operand (`s`) is its `.x`, except in scalar instructions (`s` result from `s`
//!   operands: COS, EX2, ...), which are written four times, once per channel, so every
//!   channel sees its own edge value;
//! * the result goes to `result.attrib[0]` (vertex) or `result.color` (fragment), under
//!   the write mask of the defined components (XPD, NRM, RFL: `.xyz`; SCS: `.xy`);
//! * `.CC` families also write the flags of CC0 (NV_gpu_program4 §2.X.4.3, Table X.16) to
//!   `result.attrib[1]` / `result.color[1]` (the fragment programs name
//!   `OPTION ARB_draw_buffers;`, NV_fragment_program4 §2.X.3.5), one bit per test through conditional write
//!   masks: 1 = `SF`, 2 = `EQ` (ZF and not SF), 4 = `NAN` (SF and ZF), 8 = `OF`,
//!   16 = `CF`, on the components the instruction wrote;
//! * operand modifiers (the `negabs` families): `-a, |b|, -|c|`;
//! * `KIL.<type> a.x` (fragment; one edge value per invocation decides) is followed by
//!   `MOV.U result.color, b`;
//! * 64-bit families (when [`lowered_today`] admits them) read `LONG TEMP`s packed from
//!   the attributes with `PK64.U` and write their result through `UP64.U`, on `.xy`.
//!
//! Inputs: operand `k`, invocation `i`, channel `c` holds `values[edge_index(..)]`, where
//! `values` is [`EDGE_VALUES`] for a float operand (format `vf`, or `v` / `s` under a
//! float type, CVT from `F*`) and [`INT_EDGE_VALUES`] otherwise, and the index is
//! ([`edge_index`]):
//!
//! * one operand, 32 invocations: `(i + 7c) % 32`, so every channel takes every value;
//! * more operands, 256 invocations, with `q = i % 8`, `r = i / 8`: operand 0 `4q + c`,
//!   operand 1 `(r + 8c) % 32`, operand 2 `(q + 3r + 5c + 11) % 32`. Channel `c` pairs
//!   the operand-0 values `≡ c (mod 4)` with every operand-1 value, so the four channels
//!   together meet every pair, and so does `(a.c, b.x)` for the `v, s` instructions;
//! * BFE / BFI operand 0 (`x` = width, `y` = offset): `x` is `i % 11` and `y` is
//!   `(i / 11) % 11`, the eleven small values 0 to 33 of [`INT_EDGE_VALUES`], so 121
//!   width / offset pairs, in and out of range, meet.

use std::fmt::Write as _;

use shaderdiff_model::File;
use shaderdiff_model::{Inputs, RegKey};
use shaderdiff_nv::Lowered;

use super::arb_spec::EDGE_VALUES;
use super::spec_table::{candidates, lowered_today, Family, Mod, Variant};
use super::{finish, SpecCase};

/// 32-bit integer edge values: 0 to 3, shift counts (7, 8, 15, 16, 31) and the
/// out-of-range 32, 33 and negative counts, -1, -2, -31, INT_MIN, INT_MIN + 1, INT_MAX,
/// INT_MAX - 1, the 8- and 16-bit range ends (127, -128, 255, 256, 32767, -32768, 65535,
/// 65536), alternating bit patterns, an arbitrary word, the bits of 1.0f, and ±100.
pub const INT_EDGE_VALUES: [u32; 32] = [
    0x0000_0000, // 0
    0x0000_0001, // 1
    0x0000_0002, // 2
    0x0000_0003, // 3
    0x0000_0007, // 7
    0x0000_0008, // 8
    0x0000_000f, // 15
    0x0000_0010, // 16
    0x0000_001f, // 31
    0x0000_0020, // 32
    0x0000_0021, // 33
    0xffff_ffff, // -1 / UINT_MAX
    0xffff_fffe, // -2
    0xffff_ffe1, // -31
    0x8000_0000, // INT_MIN
    0x8000_0001, // INT_MIN + 1
    0x7fff_ffff, // INT_MAX
    0x7fff_fffe, // INT_MAX - 1
    0x0000_007f, // 127
    0xffff_ff80, // -128
    0x0000_00ff, // 255
    0x0000_0100, // 256
    0x0000_7fff, // 32767
    0xffff_8000, // -32768
    0x0000_ffff, // 65535
    0x0001_0000, // 65536
    0x5555_5555, // alternating bits
    0xaaaa_aaaa, // alternating bits
    0x1234_5678, // arbitrary
    0x3f80_0000, // bits of 1.0f
    0x0000_0064, // 100
    0xffff_ff9c, // -100
];

/// Bits of CC0 tests written by `.CC` families (module docs): (test, bit value).
const CC_BITS: [(&str, u32); 5] = [("SF", 1), ("EQ", 2), ("NAN", 4), ("OF", 8), ("CF", 16)];

/// The operand formats of a family: one letter group per operand (`v`, `vf`, `s` ...).
fn operand_formats(f: &Family) -> Vec<&'static str> {
    match f.row.op {
        "KIL" => vec!["v", "v"],
        _ => f.row.operands(),
    }
}

/// Whether operand `k` reads floats (the module docs' rule).
fn float_operand(f: &Family, k: usize) -> bool {
    match f.variant {
        Variant::Cvt { from, .. } => from.starts_with('F'),
        Variant::Alu { ty, .. } => match operand_formats(f).get(k).copied() {
            Some("vf") => true,
            Some("vs" | "vu") => false,
            _ => ty.is_float(),
        },
    }
}

fn is_64(f: &Family) -> bool {
    matches!(f.variant, Variant::Alu { ty, .. } if ty.is_64())
}

/// Whether the operands are 64-bit (LONG variables packed from the attributes): 64-bit
/// ALU families, CVT from a 64-bit type, UP64 (NV_gpu_program5 §2.X.8.Z UP64: "a variable
/// declared as LONG").
fn wide_in(f: &Family) -> bool {
    match f.variant {
        Variant::Cvt { from, .. } => from.ends_with("64"),
        _ => is_64(f) || f.row.op == "UP64",
    }
}

/// Whether the result is 64-bit (a LONG variable, unpacked to the output with UP64):
/// 64-bit ALU families except I2F (its result is float, "vf"), CVT to a 64-bit type, PK64.
fn wide_out(f: &Family) -> bool {
    match f.variant {
        Variant::Cvt { to, .. } => to.ends_with("64"),
        _ => (is_64(f) && f.row.op != "I2F") || f.row.op == "PK64",
    }
}

/// The opcode with its modifiers (`ADD.S.CC`, `MUL.U24`, `CVT.S8.F32.TRUNC`).
fn opcode_text(f: &Family) -> String {
    let op = f.row.op;
    match f.variant {
        Variant::Alu { ty, m } => {
            let m = match m {
                Mod::Plain => String::new(),
                Mod::Cc => ".CC".into(),
                Mod::Sat => ".SAT".into(),
                Mod::Ssat => ".SSAT".into(),
                Mod::Hi => ".HI".into(),
                Mod::SatCc => ".SAT.CC".into(),
                Mod::NegAbs => String::new(),
                // The modifier implies the data type (NV_gpu_program4 § MUL).
                Mod::Fast24 => return format!("{op}.{}24", ty.name()),
            };
            format!("{op}.{}{m}", ty.name())
        }
        Variant::Cvt { to, from, round, m } => {
            let r = round.map(|r| format!(".{r}")).unwrap_or_default();
            let m = match m {
                Mod::Sat => ".SAT",
                Mod::Cc => ".CC",
                _ => "",
            };
            format!("{op}.{to}.{from}{r}{m}")
        }
    }
}

/// Result binding `k` (0: the result, 1: the CC flags).
fn output(fragment: bool, k: usize) -> String {
    match (fragment, k) {
        (true, 0) => "result.color".into(),
        (true, _) => format!("result.color[{k}]"),
        (false, _) => format!("result.attrib[{k}]"),
    }
}

fn attribute(fragment: bool, k: usize) -> String {
    if fragment {
        format!("fragment.texcoord[{k}]")
    } else {
        format!("vertex.attrib[{}]", k + 1)
    }
}

/// The components the instruction defines (NOTES.md §10: XPD, NRM, RFL leave w
/// undefined; SCS z and w); 64-bit families use x and y.
fn mask(f: &Family) -> &'static str {
    match f.row.op {
        _ if wide_out(f) => "xy",
        "XPD" | "NRM" | "RFL" => "xyz",
        "SCS" => "xy",
        _ => "xyzw",
    }
}

/// The program text of a family (module docs).
pub fn program_text(f: &Family) -> String {
    let header = if f.fragment { "!!NVfp5.0" } else { "!!NVvp5.0" };
    let operands = if matches!(f.variant, Variant::Alu { m: Mod::NegAbs, .. }) {
        let n = operand_formats(f).len().min(3);
        format!(" with operands {}", ["-a", "|b|", "-|c|"][..n].join(", "))
    } else {
        String::new()
    };
    let mut t = format!(
        "{header}\n# shaderdiff nv-spec: Table X.13 {}{operands}\n",
        opcode_text(f)
    );
    let formats = operand_formats(f);
    let (wide, wout) = (wide_in(f), wide_out(f));
    let cc = matches!(
        f.variant,
        Variant::Alu {
            m: Mod::Cc | Mod::SatCc,
            ..
        } | Variant::Cvt { m: Mod::Cc, .. }
    );
    // NV_fragment_program4 §2.X.3.5: `result.color[n]` (where the CC flags go) needs the
    // ARB_draw_buffers option, or the program fails to load.
    if cc && f.fragment {
        t += "OPTION ARB_draw_buffers;\n";
    }
    let neg_abs = matches!(f.variant, Variant::Alu { m: Mod::NegAbs, .. });
    let mk = mask(f);
    let dot_mask = if mk == "xyzw" {
        String::new()
    } else {
        format!(".{mk}")
    };
    if cc {
        t += "TEMP f;\n";
    }
    let names: Vec<String> = if wide {
        (0..formats.len()).map(|k| format!("a{k}")).collect()
    } else {
        Vec::new()
    };
    let mut longs = names.clone();
    if wout {
        longs.push("r".into());
    }
    if !longs.is_empty() {
        let _ = writeln!(t, "LONG TEMP {};", longs.join(", "));
    }
    for (k, n) in names.iter().enumerate() {
        let _ = writeln!(t, "PK64.U {n}, {};", attribute(f.fragment, k));
    }
    let out = if wout {
        "r".to_string()
    } else {
        output(f.fragment, 0)
    };
    let operand = |k: usize, comp: Option<char>| -> String {
        let base = if wide {
            format!("a{k}")
        } else {
            attribute(f.fragment, k)
        };
        let plain = match comp {
            Some(c) => format!("{base}.{c}"),
            None => base,
        };
        match k {
            _ if !neg_abs => plain,
            0 => format!("-{plain}"),
            1 => format!("|{plain}|"),
            _ => format!("-|{plain}|"),
        }
    };
    let op = opcode_text(f);
    let scalar_op = f.row.out == "s" && !formats.is_empty() && formats.iter().all(|o| *o == "s");
    match f.row.op {
        "SWZ" => {
            let _ = writeln!(t, "{op} {out}, {}, -x, 1, 0, -w;", operand(0, None));
        }
        "KIL" => {
            // Channel x replicated: one edge value decides each invocation's kill.
            let _ = writeln!(t, "{op} {};", operand(0, Some('x')));
            let _ = writeln!(t, "MOV.U {out}, {};", operand(1, None));
        }
        _ if scalar_op => {
            for c in mk.chars() {
                let args: Vec<String> = (0..formats.len()).map(|k| operand(k, Some(c))).collect();
                let _ = writeln!(t, "{op} {out}.{c}, {};", args.join(", "));
            }
        }
        _ => {
            let args: Vec<String> = formats
                .iter()
                .enumerate()
                .map(|(k, o)| operand(k, (*o == "s").then_some('x')))
                .collect();
            let _ = writeln!(t, "{op} {out}{dot_mask}, {};", args.join(", "));
        }
    }
    if wout {
        let _ = writeln!(t, "UP64.U {}, r;", output(f.fragment, 0));
    }
    if cc {
        t += "MOV.U f, {0, 0, 0, 0};\n";
        for (test, bit) in CC_BITS {
            let _ = writeln!(
                t,
                "OR.U f{dot_mask} ({test}), f, {{{bit}, {bit}, {bit}, {bit}}};"
            );
        }
        let _ = writeln!(t, "MOV.U {}, f;", output(f.fragment, 1));
    }
    t + "END\n"
}

/// Invocations of a family's program: 32 with one operand, 256 with more (module docs).
pub fn invocations(f: &Family) -> usize {
    if operand_formats(f).len() > 1 {
        256
    } else {
        32
    }
}

/// Index into the 32 edge values of operand `k`, invocation `i`, channel `c` of family
/// `f` (the layout of the module docs).
pub fn edge_index(f: &Family, k: usize, i: usize, c: usize) -> usize {
    let (q, r) = (i % 8, i / 8);
    match k {
        _ if operand_formats(f).len() == 1 => (i + 7 * c) % 32,
        0 if matches!(f.row.op, "BFE" | "BFI") && c < 2 => [i % 11, (i / 11) % 11][c],
        0 => 4 * q + c,
        1 => (r + 8 * c) % 32,
        _ => (q + 3 * r + 5 * c + 11) % 32,
    }
}

/// Inputs of a lowered family program: every attribute operand of the module docs'
/// layout.
fn edge_inputs(f: &Family, l: &Lowered) -> Inputs {
    let n = invocations(f);
    let mut inputs = Inputs {
        invocations: n,
        ..Inputs::default()
    };
    for k in 0..operand_formats(f).len() {
        let Some((file, i)) = l.names.lookup(l.stage, &attribute(f.fragment, k)) else {
            continue;
        };
        if file != File::Input {
            continue;
        }
        let values = if float_operand(f, k) {
            &EDGE_VALUES
        } else {
            &INT_EDGE_VALUES
        };
        let v = (0..n)
            .map(|inv| [0, 1, 2, 3].map(|c| values[edge_index(f, k, inv, c)]))
            .collect();
        inputs.registers.insert(RegKey::new(file, i), v);
    }
    inputs
}

/// The families generated today: [`candidates`] that [`lowered_today`] admits.
pub fn families() -> Vec<Family> {
    candidates().into_iter().filter(lowered_today).collect()
}

/// The whole suite, in table order (vertex then fragment per row), then the ATOM
/// families of [`super::spec_atom`].
///
/// Errors: a program that does not parse or lower (a generator bug, or a lowering that
/// lost support [`lowered_today`] claims).
pub fn suite() -> Result<Vec<SpecCase>, String> {
    let mut cases = families()
        .iter()
        .map(|f| {
            let name = f.name();
            let text = program_text(f);
            let (_, lowered) = finish(&text).map_err(|e| format!("{name}: {e}\n{text}"))?;
            let inputs = edge_inputs(f, &lowered);
            Ok(SpecCase {
                name,
                ext: if f.fragment { "nvfp" } else { "nvvp" },
                text,
                lowered,
                inputs,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    cases.extend(super::spec_atom::cases()?);
    Ok(cases)
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
