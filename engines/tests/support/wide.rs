//! Value tables for the 64-bit opcodes (tgsi.rst "Double ISA", "64-bit Integer ISA") on
//! every engine that supports them.
//!
//! A [`Row64`] applies one opcode to scalar operands (a 64-bit value per 64-bit source, a
//! 32-bit word per 32-bit source) and states the expected result ([`Want64`]). Rows of one
//! opcode run as one vertex program `OP OUT[0].<mask>, IN[0], ...`, one row per invocation,
//! and every row is checked twice: invocation `i` carries row `i` in the first slot (the xy
//! pair, or channel x of a 32-bit operand) and row `i + 1` in the second slot (the zw pair,
//! or channel y / z), so both channel pairs are exercised with different values. Where a
//! slot lives follows tgsi.rst's formulas for each opcode:
//!
//! | opcodes | 64-bit sources | 32-bit sources | result |
//! |---|---|---|---|
//! | most | xy, zw | — | xy, zw |
//! | DLDEXP | src0 xy, zw | src1.x, src1.z | xy, zw |
//! | U64SHL U64SHR I64SHR | src0 xy, zw | count src1.x; src1.y = src1.z | xy, zw |
//! | F2D I2D U2D F2I64 F2U64 I2I64 U2I64 | — | src.x, src.y | xy, zw |
//! | D2F D2I D2U U642F I642F | xy, zw | — | x, y (writemask .xy) |
//! | DS*, U64S*, I64S* comparisons | xy, zw | — | x, z (writemask .xz) |
//!
//! Engines: [`ENGINES_64`] (interp, jit and valhall) must run every table; any other engine
//! may answer `Unsupported` (noted, not a failure) — extend the list when an engine
//! implements them. An engine that answers is
//! checked like the others. Engines of another precision class than the oracle also pass a
//! value the precision contract accepts (as in [`super::rows`]).

use std::panic::Location;

use shaderdiff_backends::Inputs;
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Opcode};

use super::rows::Want;
use super::{contract_mismatches, engines, parse, Report, ORACLE};

/// Engines that implement every double and 64-bit integer opcode; each must run every
/// 64-bit table. Other engines may answer `Unsupported`.
pub const ENGINES_64: &[&str] = &["interp", "jit", "valhall"];

/// The expected result of one slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Want64 {
    /// A binary64: exactly these bits, except that an expected NaN matches any NaN.
    F64(u64),
    /// Exactly these 64 bits (integers).
    Bits64(u64),
    /// Within this many binary64 ulps of this value (an approximate opcode's bound).
    Ulps64(u64, u64),
    /// A 32-bit result (comparisons, 64 → 32-bit conversions).
    Word(Want),
    /// +0.0 or -0.0 (binary64; which zero is unspecified), defined.
    AnyZero,
    /// The specification leaves the result undefined: the oracle must flag it.
    Undefined,
}

/// One row: `op` applied to one scalar per source (64-bit sources: the whole value; 32-bit
/// sources: the low 32 bits).
#[derive(Clone, Debug)]
pub struct Row64 {
    /// The opcode.
    pub op: Opcode,
    /// One operand per source.
    pub srcs: Vec<u64>,
    /// The expected result.
    pub want: Want64,
    /// Where the row is written.
    pub at: &'static Location<'static>,
}

/// A row.
#[track_caller]
pub fn row(op: Opcode, srcs: &[u64], want: Want64) -> Row64 {
    Row64 {
        op,
        srcs: srcs.to_vec(),
        want,
        at: Location::caller(),
    }
}

/// A row expecting the binary64 `want` (NaN = any NaN).
#[track_caller]
pub fn dbl(op: Opcode, srcs: &[u64], want: u64) -> Row64 {
    row(op, srcs, Want64::F64(want))
}

/// A row expecting exactly the 64 bits `want`.
#[track_caller]
pub fn b64(op: Opcode, srcs: &[u64], want: u64) -> Row64 {
    row(op, srcs, Want64::Bits64(want))
}

/// A row expecting exactly the 32-bit word `want`.
#[track_caller]
pub fn word(op: Opcode, srcs: &[u64], want: u32) -> Row64 {
    row(op, srcs, Want64::Word(Want::Bits(want)))
}

/// A row expecting the binary32 `want` (NaN = any NaN).
#[track_caller]
pub fn single(op: Opcode, srcs: &[u64], want: u32) -> Row64 {
    row(op, srcs, Want64::Word(Want::F32(want)))
}

/// A row whose result the specification leaves undefined.
#[track_caller]
pub fn undef(op: Opcode, srcs: &[u64]) -> Row64 {
    row(op, srcs, Want64::Undefined)
}

/// Where the operands and results of `op` live (module docs table).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Pair,
    Ldexp,
    Shift,
    Widen,
    Narrow,
    Compare,
}

fn form(op: Opcode) -> Form {
    use Opcode::*;
    match op {
        DLDEXP => Form::Ldexp,
        U64SHL | U64SHR | I64SHR => Form::Shift,
        F2D | I2D | U2D | F2I64 | F2U64 | I2I64 | U2I64 => Form::Widen,
        D2F | D2I | D2U | U642F | I642F => Form::Narrow,
        DSEQ | DSNE | DSLT | DSGE | U64SEQ | U64SNE | U64SLT | U64SGE | I64SLT | I64SGE => {
            Form::Compare
        }
        _ => Form::Pair,
    }
}

/// Source `k`'s vec4 with `a` in the first slot and `b` in the second.
fn operand(op: Opcode, k: usize, a: u64, b: u64) -> [u32; 4] {
    let lo = |v: u64| v as u32;
    let hi = |v: u64| (v >> 32) as u32;
    match (form(op), k) {
        (Form::Widen, _) => [lo(a), lo(b), 0, 0],
        (Form::Ldexp, 1) => [lo(a), 0, lo(b), 0],
        (Form::Shift, 1) => [lo(a), lo(b), lo(b), 0],
        _ => [lo(a), hi(a), lo(b), hi(b)],
    }
}

/// The result channels of the two slots and the writemask.
fn result_channels(op: Opcode) -> ([usize; 2], u8, bool) {
    match form(op) {
        Form::Narrow => ([0, 1], 0b0011, false),
        Form::Compare => ([0, 2], 0b0101, false),
        _ => ([0, 2], 0b1111, true),
    }
}

/// Runs every row on every engine and panics listing every failure.
pub fn check_rows64(rows: &[Row64]) {
    check_rows64_modified(rows, &[]);
}

/// [`check_rows64`] with source modifiers: source `k` is written `{mods[k].0}IN[k]{mods[k].1}`
/// (`("-", "")`, `("|", "|")`, `("-|", "|")`); sources past `mods.len()` are plain. Each
/// row's expected value is the opcode applied to the modified operands.
pub fn check_rows64_modified(rows: &[Row64], mods: &[(&str, &str)]) {
    let engines = engines();
    let mut report = Report::default();
    let mut ops: Vec<Opcode> = Vec::new();
    for r in rows {
        if !ops.contains(&r.op) {
            ops.push(r.op);
        }
    }
    for op in ops {
        let group: Vec<&Row64> = rows.iter().filter(|r| r.op == op).collect();
        for r in &group {
            assert_eq!(r.srcs.len(), usize::from(op.info().num_src), "{:?}", r.at);
        }
        run_group(&engines, op, &group, mods, &mut report);
    }
    report.finish();
}

fn run_group(
    engines: &[Box<dyn shaderdiff_backends::Engine>],
    op: Opcode,
    group: &[&Row64],
    mods: &[(&str, &str)],
    report: &mut Report,
) {
    let n = group.len();
    let nsrc = usize::from(op.info().num_src);
    let (chans, mask, wide) = result_channels(op);
    let suffix: String = "xyzw"
        .chars()
        .enumerate()
        .filter(|(c, _)| mask >> c & 1 != 0)
        .map(|(_, ch)| ch)
        .collect();
    let srcs: String = (0..nsrc)
        .map(|k| {
            let (before, after) = mods.get(k).copied().unwrap_or(("", ""));
            format!(", {before}IN[{k}]{after}")
        })
        .collect();
    let decl = if nsrc == 1 {
        "DCL IN[0]\n".to_string()
    } else {
        format!("DCL IN[0..{}]\n", nsrc - 1)
    };
    let text = format!("VERT\n{decl}DCL OUT[0], GENERIC[0]\n{op} OUT[0].{suffix}{srcs}\nEND\n");
    let program = parse(&text);
    let inputs = Inputs {
        invocations: n,
        registers: (0..nsrc)
            .map(|k| {
                let vals = (0..n)
                    .map(|i| operand(op, k, group[i].srcs[k], group[(i + 1) % n].srcs[k]))
                    .collect();
                (RegKey::new(File::Input, k as u32), vals)
            })
            .collect(),
        ..Inputs::default()
    };
    let key = RegKey::new(File::Output, 0);
    for e in engines {
        let name = e.name();
        let out = match e.execute(&program, &inputs) {
            Ok(out) => out,
            Err(err) => {
                let not_on: &[(&str, &str)] = if ENGINES_64.contains(&name) {
                    &[]
                } else {
                    &[(
                        name,
                        "64-bit opcodes are not implemented by this engine yet",
                    )]
                };
                report.engine_error(name, &err, not_on, &format!("{op} ({n} rows)"));
                continue;
            }
        };
        let contract_bad: Option<Vec<(usize, String)>> =
            contract_mismatches(&program, &inputs, name, &out)
                .map(|ms| ms.into_iter().map(|m| (m.invocation, m.channel)).collect());
        for i in 0..n {
            report.checked += 1;
            let vals = out.registers[&key][i];
            let flags = out.undefined.get(&key).map_or(0, |u| u[i]);
            for (slot, &c) in chans.iter().enumerate() {
                let r = group[(i + slot) % n];
                let chan_name = if wide {
                    ["xy", "zw"][c / 2]
                } else {
                    ["x", "y", "z", "w"][c]
                };
                let accepted = contract_bad
                    .as_ref()
                    .is_some_and(|bad| !bad.iter().any(|(j, ch)| *j == i && ch == chan_name));
                let flagged = if wide { flags >> c & 3 } else { flags >> c & 1 } != 0;
                let got = if wide {
                    vals[c] as u64 | (vals[c + 1] as u64) << 32
                } else {
                    vals[c] as u64
                };
                let at = format!(
                    "[{name}] {}:{} {op}({}) .{chan_name} (invocation {i})",
                    r.at.file().rsplit('/').next().unwrap_or(""),
                    r.at.line(),
                    r.srcs
                        .iter()
                        .map(|s| format!("{s:#x}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                if r.want == Want64::Undefined {
                    if name == ORACLE && !flagged {
                        report.fail(format!("{at}: not flagged undefined (got {got:#x})"));
                    }
                    continue;
                }
                if name == ORACLE && flagged {
                    report.fail(format!("{at}: flagged undefined, want {:?}", r.want));
                }
                if !accepts(r.want, got) && !accepted {
                    report.fail(format!("{at}: got {got:#x}, want {:x?}", r.want));
                }
            }
            // Channels outside the writemask keep the initial 0.
            for c in (0..4).filter(|c| mask >> c & 1 == 0) {
                if vals[c] != 0 {
                    report.fail(format!("[{name}] {op} invocation {i}: channel {c} written"));
                }
            }
        }
    }
}

fn key64(w: u64) -> i128 {
    if w >> 63 != 0 {
        -((w & !(1 << 63)) as i128)
    } else {
        w as i128
    }
}

fn accepts(want: Want64, got: u64) -> bool {
    let nan = |w: u64| f64::from_bits(w).is_nan();
    match want {
        Want64::F64(w) if nan(w) => nan(got),
        Want64::F64(w) | Want64::Bits64(w) => got == w,
        Want64::Ulps64(w, _) if nan(w) => nan(got),
        Want64::Ulps64(w, n) => !nan(got) && key64(w).abs_diff(key64(got)) <= n as u128,
        Want64::Word(w) => w.accepts(got as u32),
        Want64::AnyZero => got << 1 == 0,
        Want64::Undefined => true,
    }
}
