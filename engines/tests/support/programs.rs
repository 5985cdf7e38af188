//! Whole-program tests on every engine: a TGSI program, its inputs and an [`Expect`]ation
//! per output register, invocation and channel ([`Ch`]), plus the killed invocations.
//!
//! Rules ([`check_program`]), for every engine: `V` channels must hold exactly the given
//! bits, except in killed invocations of engines other than the oracle (INTERFACE.md: a
//! killed invocation's register values are not part of any comparison; what the oracle
//! keeps there is its own documented behaviour, so it is still checked on the oracle).
//! `U` channels must be flagged undefined by the oracle and are not compared on other
//! engines. On the oracle, `V` channels must not be flagged. `X` channels are not checked.

use std::collections::BTreeMap;

use shaderdiff_backends::{EngineConfig, Inputs, Outputs, Registry, REGISTRY};
use shaderdiff_model::File;
use shaderdiff_model::{RegKey, Vec4};

use super::{engines_in, parse, show, Report, ORACLE};

/// The expectation for one channel of one invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ch {
    /// Exactly these bits (and defined).
    V(u32),
    /// Undefined: the oracle must flag it; not compared elsewhere.
    U,
    /// Not checked.
    X,
}

/// Four `V` channels.
pub fn v(x: Vec4) -> [Ch; 4] {
    x.map(Ch::V)
}

/// Only channel x checked, as `V(x)`.
pub fn vx(x: u32) -> [Ch; 4] {
    [Ch::V(x), Ch::X, Ch::X, Ch::X]
}

/// All four channels undefined.
pub const U4: [Ch; 4] = [Ch::U; 4];

/// What a program must produce.
#[derive(Clone, Debug, Default)]
pub struct Expect {
    regs: Vec<(RegKey, Vec<[Ch; 4]>)>,
    killed: Option<Option<Vec<bool>>>,
    emits: Option<Vec<Vec<(u32, u32)>>>,
    no_undefined: bool,
    exact_registers: bool,
    not_on: Vec<(&'static str, &'static str)>,
}

impl Expect {
    /// Nothing expected yet.
    pub fn new() -> Expect {
        Expect::default()
    }

    /// Register `key`, one entry per invocation (all invocations must be listed).
    pub fn reg(mut self, key: RegKey, per_invocation: Vec<[Ch; 4]>) -> Expect {
        self.regs.push((key, per_invocation));
        self
    }

    /// Register `key` fully defined with these values.
    pub fn vals(self, key: RegKey, values: &[Vec4]) -> Expect {
        self.reg(key, values.iter().copied().map(v).collect())
    }

    /// Channel x of register `key` per invocation (other channels unchecked).
    pub fn xs(self, key: RegKey, xs: &[u32]) -> Expect {
        self.reg(key, xs.iter().copied().map(vx).collect())
    }

    /// The `killed` report: `Some(per invocation)` for fragment programs, `None` otherwise.
    pub fn killed(mut self, killed: Option<Vec<bool>>) -> Expect {
        self.killed = Some(killed);
        self
    }

    /// Geometry programs: per invocation, the emitted vertices as `(stream, primitive)`.
    pub fn emits(mut self, per_invocation: Vec<Vec<(u32, u32)>>) -> Expect {
        self.emits = Some(per_invocation);
        self
    }

    /// The oracle flags nothing undefined anywhere.
    pub fn no_undefined(mut self) -> Expect {
        self.no_undefined = true;
        self
    }

    /// The engine reports exactly the listed registers, no others.
    pub fn exact_registers(mut self) -> Expect {
        self.exact_registers = true;
        self
    }

    /// Marks the program not applicable to `engine` (an `Unsupported` answer is accepted).
    pub fn not_on(mut self, engine: &'static str, why: &'static str) -> Expect {
        self.not_on.push((engine, why));
        self
    }
}

/// Parses `text`, runs it with `inputs` on every engine and checks `expect` (rules in the
/// module docs); panics listing every difference on every engine.
#[track_caller]
pub fn check_program(text: &str, inputs: &Inputs, expect: &Expect) {
    check_program_on(&REGISTRY, text, inputs, expect);
}

/// [`check_program`] on the engines of `registry` ([`super::engines_in`]); returns the
/// names of the engines whose outputs were checked (the others answered `Unsupported`
/// where that is accepted).
#[track_caller]
pub fn check_program_on(
    registry: &Registry<'_>,
    text: &str,
    inputs: &Inputs,
    expect: &Expect,
) -> Vec<&'static str> {
    let at = std::panic::Location::caller();
    let what = format!(
        "{}:{}",
        at.file().rsplit('/').next().unwrap_or(""),
        at.line()
    );
    let program = parse(text);
    let mut report = Report::default();
    let mut checked = Vec::new();
    for e in engines_in(registry, &EngineConfig::default()) {
        let name = e.name();
        match e.execute(&program, inputs) {
            Ok(out) => {
                check_outputs(name, &what, inputs, &out, expect, &mut report);
                checked.push(name);
            }
            Err(err) => report.engine_error(name, &err, &expect.not_on, &what),
        }
    }
    report.finish();
    checked
}

fn check_outputs(
    engine: &str,
    what: &str,
    inputs: &Inputs,
    out: &Outputs,
    expect: &Expect,
    report: &mut Report,
) {
    report.checked += 1;
    let oracle = engine == ORACLE;
    let mut fail = |m: String| report.fail(format!("[{engine}] {what}: {m}"));
    if out.invocations != inputs.invocations {
        fail(format!(
            "{} invocations, want {}",
            out.invocations, inputs.invocations
        ));
        return;
    }
    if let Some(k) = &expect.killed {
        if out.killed != *k {
            fail(format!("killed {:?}, want {k:?}", out.killed));
        }
    }
    if let Some(want) = &expect.emits {
        let got: Option<Vec<Vec<(u32, u32)>>> = out.emits.as_ref().map(|e| {
            e.iter()
                .map(|vs| vs.iter().map(|r| (r.stream, r.primitive)).collect())
                .collect()
        });
        if got.as_ref() != Some(want) {
            fail(format!("emitted {got:?}, want {want:?}"));
        }
    }
    let killed: Vec<bool> = match (&expect.killed, &out.killed) {
        (Some(Some(k)), _) | (None, Some(k)) => k.clone(),
        _ => vec![false; inputs.invocations],
    };
    if oracle && expect.no_undefined && !out.undefined.is_empty() {
        fail(format!("undefined channels reported: {:?}", out.undefined));
    }
    if expect.exact_registers {
        let want: Vec<RegKey> = expect.regs.iter().map(|(k, _)| *k).collect();
        let mut want = want;
        want.sort();
        let got: Vec<RegKey> = out.registers.keys().copied().collect();
        if got != want {
            fail(format!("registers {got:?}, want exactly {want:?}"));
        }
    }
    for (key, per_inv) in &expect.regs {
        assert_eq!(
            per_inv.len(),
            inputs.invocations,
            "{key}: one entry per invocation"
        );
        let Some(vals) = out.registers.get(key) else {
            fail(format!("{key} missing from outputs"));
            continue;
        };
        if vals.len() != inputs.invocations {
            fail(format!("{key} has {} vec4s", vals.len()));
            continue;
        }
        let flags = out.undefined.get(key);
        for (i, chans) in per_inv.iter().enumerate() {
            let f = flags.and_then(|u| u.get(i)).copied().unwrap_or(0);
            for (c, want) in chans.iter().enumerate() {
                let chan = "xyzw".as_bytes()[c] as char;
                let flagged = f >> c & 1 != 0;
                let got = vals[i][c];
                match *want {
                    Ch::X => {}
                    Ch::U => {
                        if oracle && !flagged {
                            fail(format!(
                                "{key}[{i}].{chan} not flagged undefined ({})",
                                show(got)
                            ));
                        }
                    }
                    Ch::V(w) => {
                        if oracle && flagged {
                            fail(format!(
                                "{key}[{i}].{chan} flagged undefined, want {}",
                                show(w)
                            ));
                        }
                        if (oracle || !killed[i]) && got != w {
                            fail(format!(
                                "{key}[{i}].{chan}: got {}, want {}",
                                show(got),
                                show(w)
                            ));
                        }
                    }
                }
            }
        }
    }
}

/// `IN[i]`.
pub fn input(i: u32) -> RegKey {
    RegKey::new(File::Input, i)
}

/// `SV[i]`.
pub fn sv(i: u32) -> RegKey {
    RegKey::new(File::SystemValue, i)
}

/// `OUT[i]`.
pub fn out(i: u32) -> RegKey {
    RegKey::new(File::Output, i)
}

/// A 2-D register key `file[dimension][index]`.
pub fn key2(file: File, dimension: u32, index: u32) -> RegKey {
    RegKey {
        file,
        dimension: Some(dimension),
        index,
    }
}

/// Inputs with one vec4 per invocation for each listed register.
pub fn inputs(invocations: usize, regs: &[(RegKey, Vec<Vec4>)]) -> Inputs {
    Inputs {
        invocations,
        registers: regs.iter().cloned().collect::<BTreeMap<_, _>>(),
        ..Inputs::default()
    }
}

/// A vec4 of i32 bits.
pub fn iv(v: [i32; 4]) -> Vec4 {
    v.map(|x| x as u32)
}
