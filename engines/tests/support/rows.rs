//! ALU value tables on every engine.
//!
//! A [`Row`] applies one opcode to raw source vec4s and states the expected value of each
//! destination channel ([`Want`]). [`check_rows`] packs the rows of one opcode, source count
//! and writemask into one vertex program
//!
//! ```text
//! VERT
//! DCL IN[0..n-1]
//! DCL OUT[0], GENERIC[0]
//! OP OUT[0].<writemask>, IN[0], IN[1], ...
//! END
//! ```
//!
//! (no swizzle, no modifiers: every source arrives bit-exact), where invocation i carries
//! row i's sources, runs it once on every engine and compares every row. Channels outside
//! the writemask must stay 0, the initial value of outputs (INTERFACE.md "Anything not set
//! starts as zero") — and so also show that they were not written.
//!
//! Rows state what tgsi.rst and the oracle compute (for approximate opcodes, the `cpu`
//! class bound). An engine of another precision class (`valhall`: `gpu`, precision.toml)
//! also passes a channel the row's expectation rejects when the precision contract accepts
//! it: the channel lies in the oracle's acceptance interval for that class, as the
//! differential comparator (`shaderdiff_compare::output`) decides.

use std::panic::Location;

use std::collections::HashSet;

use shaderdiff_backends::{Engine, Inputs, Outputs};
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Opcode, Program};

use super::{engines, parse, show, ulps, Report, ORACLE};

/// The expected value of one destination channel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Want {
    /// Exactly these bits.
    Bits(u32),
    /// A float: exactly these bits, except that an expected NaN matches any NaN.
    F32(u32),
    /// The specification leaves the value undefined: the oracle must flag the channel;
    /// other engines are not compared there.
    Undefined,
    /// Within this many ulps of this binary32 value (an approximate opcode's documented
    /// bound). A NaN target requires a NaN.
    Ulps(f32, u32),
    /// +0 or -0 (which zero is unspecified), defined.
    AnyZero,
    /// Within the absolute tolerance (second field) of the value (first field).
    Near(f32, f32),
}

impl Want {
    /// Whether `got` satisfies this expectation (never called for `Undefined`).
    pub fn accepts(self, got: u32) -> bool {
        let g = f32::from_bits(got);
        match self {
            Want::Bits(w) => got == w,
            Want::F32(w) if f32::from_bits(w).is_nan() => g.is_nan(),
            Want::F32(w) => got == w,
            Want::Undefined => true,
            Want::Ulps(t, _) if t.is_nan() => g.is_nan(),
            Want::Ulps(t, n) => !g.is_nan() && ulps(g, t) <= n,
            Want::AnyZero => got & 0x7FFF_FFFF == 0,
            Want::Near(v, tol) => (g - v).abs() <= tol,
        }
    }

    fn describe(self) -> String {
        match self {
            Want::Bits(w) => show(w),
            Want::F32(w) if f32::from_bits(w).is_nan() => "any NaN".into(),
            Want::F32(w) => show(w),
            Want::Undefined => "undefined".into(),
            Want::Ulps(t, n) => format!("{t:e} ({:#010x}) within {n} ulp", t.to_bits()),
            Want::AnyZero => "+0 or -0".into(),
            Want::Near(v, tol) => format!("{v:e} ± {tol:e}"),
        }
    }
}

/// One table row: `op` applied to `srcs` (one raw vec4 per source, exactly as many as the
/// opcode takes) with `writemask`; `want[c]` is the expectation for channel c (ignored
/// outside the writemask, where 0 is expected).
#[derive(Clone, Debug)]
pub struct Row {
    /// The opcode.
    pub op: Opcode,
    /// Source k's four channels, raw bits.
    pub srcs: Vec<[u32; 4]>,
    /// Destination writemask, bit c = channel c.
    pub writemask: u8,
    /// Expectation per channel.
    pub want: [Want; 4],
    /// Engines this row does not apply to, with the reason.
    pub not_on: Vec<(&'static str, &'static str)>,
    /// Where the row is written (for messages).
    pub at: &'static Location<'static>,
}

impl Row {
    /// Restricts the destination writemask.
    pub fn mask(mut self, writemask: u8) -> Row {
        self.writemask = writemask;
        self
    }

    /// Marks the row not applicable to `engine`: an `Unsupported` answer is accepted and its
    /// values are not compared.
    pub fn not_on(mut self, engine: &'static str, why: &'static str) -> Row {
        self.not_on.push((engine, why));
        self
    }

    fn label(&self) -> String {
        let srcs: Vec<String> = self
            .srcs
            .iter()
            .map(|v| {
                if v.iter().all(|&w| w == v[0]) {
                    format!("{:#x}", v[0])
                } else {
                    format!("({:#x}, {:#x}, {:#x}, {:#x})", v[0], v[1], v[2], v[3])
                }
            })
            .collect();
        let file = self.at.file().rsplit('/').next().unwrap_or("");
        format!(
            "{file}:{} {}{}({})",
            self.at.line(),
            self.op,
            mask_suffix(self.writemask),
            srcs.join(", ")
        )
    }
}

/// A row with vec4 sources and a per-channel expectation, writemask xyzw.
#[track_caller]
pub fn vector(op: Opcode, srcs: &[[u32; 4]], want: [Want; 4]) -> Row {
    Row {
        op,
        srcs: srcs.to_vec(),
        writemask: 0xF,
        want,
        not_on: Vec::new(),
        at: Location::caller(),
    }
}

/// A row whose scalar sources are replicated to all four channels and whose four channels
/// all expect `want` (componentwise and replicated opcodes alike).
#[track_caller]
pub fn scalar(op: Opcode, srcs: &[u32], want: Want) -> Row {
    let srcs: Vec<[u32; 4]> = srcs.iter().map(|&s| [s; 4]).collect();
    vector(op, &srcs, [want; 4])
}

/// [`scalar`] expecting the float `want` (an expected NaN matches any NaN).
#[track_caller]
pub fn float(op: Opcode, srcs: &[u32], want: u32) -> Row {
    scalar(op, srcs, Want::F32(want))
}

/// [`scalar`] expecting exactly the bits `want`.
#[track_caller]
pub fn bits(op: Opcode, srcs: &[u32], want: u32) -> Row {
    scalar(op, srcs, Want::Bits(want))
}

/// [`float`], or undefined when `undefined` is set (`want` then unused).
#[track_caller]
pub fn float_or_undef(op: Opcode, srcs: &[u32], want: u32, undefined: bool) -> Row {
    scalar(
        op,
        srcs,
        if undefined {
            Want::Undefined
        } else {
            Want::F32(want)
        },
    )
}

/// [`bits`], or undefined when `undefined` is set (`want` then unused).
#[track_caller]
pub fn bits_or_undef(op: Opcode, srcs: &[u32], want: u32, undefined: bool) -> Row {
    scalar(
        op,
        srcs,
        if undefined {
            Want::Undefined
        } else {
            Want::Bits(want)
        },
    )
}

/// [`scalar`] expecting the exact real value `want` within 1 ulp of its binary32 rounding.
#[track_caller]
pub fn approx(op: Opcode, srcs: &[u32], want: f64) -> Row {
    scalar(op, srcs, Want::Ulps(want as f32, 1))
}

/// Four float expectations from bit patterns (NaN = any NaN).
pub fn floats(v: [u32; 4]) -> [Want; 4] {
    v.map(Want::F32)
}

fn mask_suffix(wm: u8) -> String {
    if wm == 0xF {
        return String::new();
    }
    let s: String = "xyzw"
        .chars()
        .enumerate()
        .filter(|(c, _)| wm >> c & 1 != 0)
        .map(|(_, ch)| ch)
        .collect();
    format!(".{s}")
}

/// The program one group of rows runs in.
fn program_text(op: Opcode, nsrc: usize, writemask: u8) -> String {
    let ins = match nsrc {
        0 => String::new(),
        1 => "DCL IN[0]\n".into(),
        n => format!("DCL IN[0..{}]\n", n - 1),
    };
    let srcs: String = (0..nsrc).map(|k| format!(", IN[{k}]")).collect();
    format!(
        "VERT\n{ins}DCL OUT[0], GENERIC[0]\n{op} OUT[0]{}{srcs}\nEND\n",
        mask_suffix(writemask)
    )
}

/// Runs every row on every engine (see the module docs) and panics listing every row that
/// fails on any engine.
pub fn check_rows(rows: &[Row]) {
    let engines = engines();
    let mut report = Report::default();
    let mut groups: Vec<Vec<&Row>> = Vec::new();
    for row in rows {
        assert_eq!(
            row.srcs.len(),
            usize::from(row.op.info().num_src),
            "{}: source count",
            row.label()
        );
        let key = |r: &Row| (r.op, r.srcs.len(), r.writemask);
        match groups.iter_mut().find(|g| key(g[0]) == key(row)) {
            Some(g) => g.push(row),
            None => groups.push(vec![row]),
        }
    }
    for group in &groups {
        run_group(&engines, group, &mut report);
    }
    report.finish();
}

fn run_group(engines: &[Box<dyn Engine>], group: &[&Row], report: &mut Report) {
    let first = group[0];
    let text = program_text(first.op, first.srcs.len(), first.writemask);
    let program = parse(&text);
    let inputs = Inputs {
        invocations: group.len(),
        registers: (0..first.srcs.len())
            .map(|k| {
                let vals = group.iter().map(|r| r.srcs[k]).collect();
                (RegKey::new(File::Input, k as u32), vals)
            })
            .collect(),
        ..Inputs::default()
    };
    for e in engines {
        let name = e.name();
        let applies = |r: &Row| r.not_on.iter().all(|(n, _)| *n != name);
        if !group.iter().any(|r| applies(r)) {
            continue;
        }
        match e.execute(&program, &inputs) {
            Ok(out) => {
                let contract_ok = contract_accepted(&program, &inputs, name, &out);
                for (i, row) in group.iter().enumerate() {
                    if applies(row) {
                        check_row(name, row, &out, i, contract_ok.as_ref(), report);
                    }
                }
            }
            Err(err) => {
                let what = format!("{} ({} rows from {})", first.op, group.len(), first.label());
                report.engine_error(name, &err, &[], &what);
            }
        }
    }
}

/// For an engine whose precision class is not the oracle's: the (invocation, channel) pairs
/// of OUT[0] that the precision contract accepts ([`super::contract_mismatches`] finds no
/// mismatch there). `None` for engines of the oracle's class, which must meet the rows'
/// expectations exactly.
fn contract_accepted(
    program: &Program,
    inputs: &Inputs,
    engine: &str,
    out: &Outputs,
) -> Option<HashSet<(usize, usize)>> {
    let bad: HashSet<(usize, usize)> = super::contract_mismatches(program, inputs, engine, out)?
        .iter()
        .filter(|m| m.register == "OUT[0]")
        .map(|m| (m.invocation, "xyzw".find(m.channel.as_str()).unwrap_or(4)))
        .collect();
    Some(
        (0..out.invocations)
            .flat_map(|i| (0..4).map(move |c| (i, c)))
            .filter(|k| !bad.contains(k))
            .collect(),
    )
}

fn check_row(
    engine: &str,
    row: &Row,
    out: &Outputs,
    i: usize,
    contract_ok: Option<&HashSet<(usize, usize)>>,
    report: &mut Report,
) {
    report.checked += 1;
    let key = RegKey::new(File::Output, 0);
    let Some(vals) = out.registers.get(&key).and_then(|v| v.get(i)) else {
        report.fail(format!("[{engine}] {}: OUT[0] missing", row.label()));
        return;
    };
    let flags = out.undefined.get(&key).and_then(|u| u.get(i)).copied();
    let flags = flags.unwrap_or(0);
    // (channel, problem) pairs; equal problems of several channels are reported once.
    let mut problems: Vec<(char, String)> = Vec::new();
    for (c, &got) in vals.iter().enumerate() {
        let chan = "xyzw".as_bytes()[c] as char;
        let want = if row.writemask >> c & 1 != 0 {
            row.want[c]
        } else {
            Want::Bits(0)
        };
        let flagged = flags >> c & 1 != 0;
        if want == Want::Undefined {
            if engine == ORACLE && !flagged {
                problems.push((chan, format!("not flagged undefined (got {})", show(got))));
            }
            continue;
        }
        if engine == ORACLE && flagged {
            problems.push((chan, format!("flagged undefined, want {}", want.describe())));
        }
        if !want.accepts(got) && !contract_ok.is_some_and(|ok| ok.contains(&(i, c))) {
            problems.push((chan, format!("got {}, want {}", show(got), want.describe())));
        }
    }
    let mut done = vec![false; problems.len()];
    for k in 0..problems.len() {
        if done[k] {
            continue;
        }
        let mut chans = String::new();
        for j in k..problems.len() {
            if problems[j].1 == problems[k].1 {
                done[j] = true;
                chans.push(problems[j].0);
            }
        }
        report.fail(format!(
            "[{engine}] {} .{chans}: {}",
            row.label(),
            problems[k].1
        ));
    }
}
