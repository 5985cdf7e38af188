//! Probing: an instrumented copy of a program that makes every intermediate result an
//! output, so the first diverging instruction can be found on any engine from outputs alone
//! (no engine-specific tracing).
//!
//! [`instrument`] in [`ProbeMode::Last`] inserts, after every instruction with a register
//! destination, a `MOV OUT[k].<writemask>, <destination>` into a fresh output register (a
//! *result probe*), and at the start of every block body (after IF/UIF, ELSE, BGNLOOP,
//! CASE, DEFAULT and BGNSUB) a counter `UADD TEMP[t].c, TEMP[t].c, 1` copied to a fresh
//! output (a *block probe*: how often the body was entered). A probe holds the last value
//! its instruction wrote in each invocation. In [`ProbeMode::First`] the result probes keep
//! the first value instead, and each IF/UIF records its first decision, so a divergence in
//! a loop body is seen before loop-carried registers carry it to earlier instructions. The
//! program's own registers and outputs are untouched, so its outputs are those of the
//! original; probes of instructions that never ran stay zero on every engine.
//!
//! Not probed: destinations in the NULL or ADDR files, and 2-D output spaces (programs with
//! `OUT[v][i]` declarations are not instrumented at all).

use shaderdiff_model::{
    Declaration, Dst, File, ImmType, Immediate, Instruction, Opcode, Program, Register, Src,
    IDENTITY_SWIZZLE,
};

use crate::edit::rebuild;

/// Most probes one program gets (beyond it, [`instrument`] gives up).
pub const MAX_PROBES: usize = 4096;

/// What a probe observes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeKind {
    /// The value the instruction wrote (the channels of its writemask).
    Result,
    /// How many times the body opened by the instruction was entered (`.x`... channel
    /// `mask` of the probe register).
    Block,
    /// Which body of an IF/UIF its first encounter entered: 1 the IF body, 2 the ELSE
    /// body (`.x` of the probe register; 0 when never reached).
    Decision,
}

/// One probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Index of the observed instruction in the *original* program.
    pub instruction: usize,
    /// The `OUT` register index holding the probe.
    pub register: u32,
    /// Channels of the probe register that carry it.
    pub mask: u8,
    /// What it observes.
    pub kind: ProbeKind,
}

/// An instrumented program.
#[derive(Clone, Debug)]
pub struct Probed {
    /// The program with probes (valid whenever the original is).
    pub program: Program,
    /// Every probe, in program order.
    pub probes: Vec<Probe>,
    /// First `OUT` index used by probes: lower indices are the program's own outputs.
    pub first_probe_register: u32,
}

impl Probed {
    /// The probe held in `OUT[register]`, if any.
    pub fn probe_at(&self, register: u32) -> Option<&Probe> {
        let k = register.checked_sub(self.first_probe_register)? as usize;
        self.probes.get(k)
    }
}

/// Whether instruction `op` opens a body at the next instruction.
fn opens_body(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, IF | UIF | ELSE | BGNLOOP | CASE | DEFAULT | BGNSUB)
}

/// Whether the destination of `insn` can be probed.
pub(crate) fn probe_dst(insn: &Instruction) -> Option<Dst> {
    let d = *insn.dst.first()?;
    if insn.opcode.info().num_dst != 1
        || matches!(d.reg.file, File::Null | File::Address)
        || d.writemask == 0
        || insn.opcode.info().is_branch
    {
        return None;
    }
    Some(d)
}

/// One past the highest index of `file` any declaration or operand names (1-D use), or
/// `None` when `file` is used with two brackets.
/// What every instrumentation of `p` starts from: the first free output and temporary
/// indices ([`extent`]), the program's block structure, and the number of probe sites
/// (instructions `site` accepts). `None` when `p` cannot be instrumented: 2-D outputs or
/// temporaries, no site, or more than [`MAX_PROBES`] probes at `per_site` probes a site.
pub(crate) fn plan(
    p: &Program,
    per_site: usize,
    site: impl Fn(&Instruction) -> bool,
) -> Option<(u32, u32, shaderdiff_model::Structure, usize)> {
    let out_base = extent(p, File::Output)?;
    let temp_base = extent(p, File::Temp)?;
    let st = shaderdiff_model::Structure::analyse(p).ok()?;
    let planned = p.instructions.iter().filter(|i| site(i)).count();
    if planned == 0 || per_site.saturating_mul(planned) > MAX_PROBES {
        return None;
    }
    Some((out_base, temp_base, st, planned))
}

pub(crate) fn extent(p: &Program, file: File) -> Option<u32> {
    let mut end = 0u32;
    for d in p.decls(file) {
        if d.dimension.is_some() {
            return None;
        }
        end = end.max(d.last + 1);
    }
    for insn in &p.instructions {
        let regs = insn
            .dst
            .iter()
            .map(|d| d.reg)
            .chain(insn.src.iter().map(|s| s.reg));
        for r in regs.filter(|r| r.file == file) {
            if r.dimension.is_some() {
                return None;
            }
            end = end.max(r.index.value.max(0) as u32 + 1);
        }
    }
    Some(end)
}

/// Which value a probe keeps when its instruction runs more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeMode {
    /// The last value written, and block entry counts ([`ProbeKind::Result`],
    /// [`ProbeKind::Block`]).
    Last,
    /// The value of the first execution in each invocation, and the decision of each IF/UIF
    /// the first time it is reached ([`ProbeKind::Result`], [`ProbeKind::Decision`]): the
    /// first divergence of a loop body, before loop-carried values spread it.
    First,
}

/// Inserted instructions of one instrumentation (see [`instrument`]).
pub(crate) struct Builder {
    pub(crate) new: Vec<(Option<usize>, Instruction)>,
    pub(crate) probes: Vec<Probe>,
    pub(crate) out_base: u32,
    pub(crate) temp_base: u32,
    /// Flag or counter channels allocated so far (4 per temporary).
    pub(crate) slots: u32,
    /// Immediate `{1, 2, 0, 0}` (UINT32; the timed probes put their step bound in `.z`).
    pub(crate) imm: i32,
}

impl Builder {
    /// An empty instrumentation of `p` with room for `planned` probes of about `per_probe`
    /// inserted instructions each; the counter immediate is appended after `p`'s own.
    pub(crate) fn new(
        p: &Program,
        out_base: u32,
        temp_base: u32,
        planned: usize,
        per_probe: usize,
    ) -> Builder {
        Builder {
            new: Vec::with_capacity(p.instructions.len() + per_probe * planned),
            probes: Vec::new(),
            out_base,
            temp_base,
            slots: 0,
            imm: p.immediates.len() as i32,
        }
    }

    pub(crate) fn slot(&mut self) -> (Register, u8) {
        let t = Register::new(File::Temp, (self.temp_base + self.slots / 4) as i32);
        let c = (self.slots % 4) as u8;
        self.slots += 1;
        (t, c)
    }

    pub(crate) fn imm(&self, c: u8) -> Src {
        let mut s = Src::new(Register::new(File::Immediate, self.imm));
        s.swizzle = [c; 4];
        s
    }

    pub(crate) fn push(&mut self, op: Opcode, dst: Vec<Dst>, src: Vec<Src>) {
        self.new.push((None, Instruction::new(op, dst, src)));
    }

    /// A fresh probe register for instruction `i`.
    pub(crate) fn probe(&mut self, instruction: usize, mask: u8, kind: ProbeKind) -> Register {
        let register = self.out_base + self.probes.len() as u32;
        self.probes.push(Probe {
            instruction,
            register,
            mask,
            kind,
        });
        Register::new(File::Output, register as i32)
    }

    /// `MOV out, src` unless flag channel `(t, c)` is set, then set it:
    /// `UIF flag / ELSE / MOV out, src / MOV flag, 1 / ENDIF`. Writes sharing a flag
    /// happen once in all, the first of them reached in each invocation.
    fn first_write(&mut self, (t, c): (Register, u8), out: Dst, src: Src) {
        let mut flag = Src::new(t);
        flag.swizzle = [c; 4];
        self.push(Opcode::UIF, vec![], vec![flag]);
        self.push(Opcode::ELSE, vec![], vec![]);
        self.push(Opcode::MOV, vec![out], vec![src]);
        let set = Dst {
            reg: t,
            writemask: 1 << c,
        };
        let one = self.imm(0);
        self.push(Opcode::MOV, vec![set], vec![one]);
        self.push(Opcode::ENDIF, vec![], vec![]);
    }
}

/// The instrumented copy of `p` (module docs) in `mode`, or `None` when `p` cannot be
/// instrumented (2-D outputs or temporaries, more than [`MAX_PROBES`] probes, or nothing
/// to probe).
///
/// [`ProbeMode::First`] probes results like [`ProbeMode::Last`] but behind a per-probe flag,
/// and probes each IF/UIF's first decision: `.x` of its probe register becomes 1 when the
/// first encounter entered the IF body and 2 when it entered the ELSE body (an ELSE is
/// added to an IF without one). Other block openers get no probe in this mode.
pub fn instrument(p: &Program, mode: ProbeMode) -> Option<Probed> {
    let is_if = |op: Opcode| matches!(op, Opcode::IF | Opcode::UIF);
    let (out_base, temp_base, st, planned) = plan(p, 1, |i| match mode {
        ProbeMode::Last => opens_body(i.opcode) || probe_dst(i).is_some(),
        ProbeMode::First => is_if(i.opcode) || probe_dst(i).is_some(),
    })?;
    let mut b = Builder::new(p, out_base, temp_base, planned, 6);
    // Decision probe register and flag of each IF/UIF (First mode), by instruction index.
    let mut decision: Vec<Option<(Register, (Register, u8))>> = vec![None; p.instructions.len()];
    // The IF/UIF an ELSE or ENDIF closes (Structure: IF → ELSE or ENDIF, ENDIF → IF).
    let opener = |i: usize| -> Option<usize> {
        match p.instructions[i].opcode {
            Opcode::ENDIF => Some(st.partner[i] as usize).filter(|&q| q < i),
            Opcode::ELSE => (0..i)
                .rev()
                .find(|&k| st.partner[k] as usize == i && is_if(p.instructions[k].opcode)),
            _ => None,
        }
    };
    for (i, insn) in p.instructions.iter().enumerate() {
        let op = insn.opcode;
        if mode == ProbeMode::First && op == Opcode::ENDIF {
            // An IF without ELSE gets one, so a not-taken first decision is seen.
            if let Some(o) = opener(i).filter(|&o| st.partner[o] as usize == i) {
                if let Some((reg, flag)) = decision[o] {
                    b.push(Opcode::ELSE, vec![], vec![]);
                    let two = b.imm(1);
                    b.first_write(flag, Dst { reg, writemask: 1 }, two);
                }
            }
        }
        b.new.push((Some(i), insn.clone()));
        match mode {
            ProbeMode::Last if opens_body(op) => {
                let (t, c) = b.slot();
                let counter = Dst {
                    reg: t,
                    writemask: 1 << c,
                };
                let mut read = Src::new(t);
                read.swizzle = [c; 4];
                let one = b.imm(0);
                b.push(Opcode::UADD, vec![counter], vec![read, one]);
                let reg = b.probe(i, 1 << c, ProbeKind::Block);
                b.push(
                    Opcode::MOV,
                    vec![Dst {
                        reg,
                        writemask: 1 << c,
                    }],
                    vec![read],
                );
            }
            ProbeMode::First if is_if(op) => {
                let reg = b.probe(i, 1, ProbeKind::Decision);
                let flag = b.slot();
                decision[i] = Some((reg, flag));
                let one = b.imm(0);
                b.first_write(flag, Dst { reg, writemask: 1 }, one);
            }
            ProbeMode::First if op == Opcode::ELSE => {
                if let Some((reg, flag)) = opener(i).and_then(|o| decision[o]) {
                    let two = b.imm(1);
                    b.first_write(flag, Dst { reg, writemask: 1 }, two);
                }
            }
            _ => {
                if let Some(d) = probe_dst(insn) {
                    let mut src = Src::new(d.reg);
                    src.swizzle = IDENTITY_SWIZZLE;
                    let reg = b.probe(i, d.writemask, ProbeKind::Result);
                    let out = Dst {
                        reg,
                        writemask: d.writemask,
                    };
                    match mode {
                        ProbeMode::Last => b.push(Opcode::MOV, vec![out], vec![src]),
                        ProbeMode::First => {
                            let flag = b.slot();
                            b.first_write(flag, out, src)
                        }
                    }
                }
            }
        }
    }
    let Builder {
        new, probes, slots, ..
    } = b;
    let mut program = rebuild(p, new);
    program.declarations.push(Declaration::new(
        File::Output,
        out_base,
        out_base + probes.len() as u32 - 1,
    ));
    if slots > 0 {
        program.declarations.push(Declaration::new(
            File::Temp,
            temp_base,
            temp_base + (slots - 1) / 4,
        ));
        program.immediates.push(Immediate {
            ty: ImmType::U32,
            words: [1, 2, 0, 0],
        });
    }
    program.source_map.declarations.clear();
    Some(Probed {
        program,
        probes,
        first_probe_register: out_base,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::is_valid;
    use shaderdiff_tgsi as tgsi;

    #[test]
    fn probes_follow_results_and_blocks() {
        let src = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
            IMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
            ADD TEMP[0].xy, IN[0], IMM[0]\nIF TEMP[0].xxxx\nMUL TEMP[1], TEMP[0], IN[0]\n\
            ENDIF\nMOV OUT[0], TEMP[1]\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let pr = instrument(&p, ProbeMode::Last).unwrap();
        assert!(is_valid(&pr.program), "{}", tgsi::print(&pr.program));
        assert_eq!(pr.first_probe_register, 1);
        let kinds: Vec<(usize, ProbeKind, u8)> = pr
            .probes
            .iter()
            .map(|p| (p.instruction, p.kind, p.mask))
            .collect();
        use ProbeKind::*;
        assert_eq!(
            kinds,
            vec![
                (0, Result, 0b0011),
                (1, Block, 1),
                (2, Result, 0xF),
                (4, Result, 0xF)
            ]
        );
        let text = tgsi::print(&pr.program);
        assert!(text.contains("MOV OUT[1].xy, TEMP[0]"), "{text}");
        assert!(
            text.contains("UADD TEMP[2].x, TEMP[2].xxxx, IMM[1].xxxx"),
            "{text}"
        );
        assert!(text.contains("DCL OUT[1..4]"), "{text}");
        assert_eq!(pr.probe_at(3).map(|p| p.instruction), Some(2));
        assert_eq!(pr.probe_at(0), None);
    }
}

#[cfg(test)]
mod first_tests {
    use super::*;
    use crate::edit::is_valid;
    use shaderdiff_oracles::interp::{run, InterpConfig};
    use shaderdiff_oracles::io::{Inputs, RegKey};
    use shaderdiff_tgsi as tgsi;

    /// A loop run twice: ADD writes 1.0 then 2.0; the UIF is not taken, then taken.
    const TWICE: &str = "VERT\nDCL OUT[0]\nDCL TEMP[0..1]\n\
        IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\nIMM[1] UINT32 {1, 2, 0, 0}\n\
        BGNLOOP\nADD TEMP[0].x, TEMP[0], IMM[0]\nUADD TEMP[1].x, TEMP[1], IMM[1]\n\
        USEQ TEMP[1].y, TEMP[1].xxxx, IMM[1].yyyy\nUIF TEMP[1].yyyy\nBRK\nENDIF\n\
        ENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n";

    fn probe_x(pr: &Probed, instruction: usize, kind: ProbeKind) -> u32 {
        let probe = pr
            .probes
            .iter()
            .find(|p| p.instruction == instruction && p.kind == kind)
            .unwrap();
        let inputs = Inputs {
            invocations: 4,
            ..Default::default()
        };
        let out = run(&pr.program, &inputs, &InterpConfig::default()).unwrap();
        let c = probe.mask.trailing_zeros() as usize;
        out.registers[&RegKey::new(File::Output, probe.register)][0][c]
    }

    #[test]
    fn first_mode_keeps_the_first_value_and_the_first_decision() {
        let p = tgsi::parse(TWICE, "t").unwrap();
        let first = instrument(&p, ProbeMode::First).unwrap();
        assert!(is_valid(&first.program), "{}", tgsi::print(&first.program));
        // tgsi.rst ADD: 0 + 1 = 1.0 on the first iteration, 2.0 on the second.
        assert_eq!(probe_x(&first, 1, ProbeKind::Result), 1.0f32.to_bits());
        // The UIF's first encounter (counter 1 != 2) took the (added) ELSE body.
        assert_eq!(probe_x(&first, 4, ProbeKind::Decision), 2);
        let last = instrument(&p, ProbeMode::Last).unwrap();
        assert!(is_valid(&last.program), "{}", tgsi::print(&last.program));
        assert_eq!(probe_x(&last, 1, ProbeKind::Result), 2.0f32.to_bits());
        // The loop body was entered twice, the UIF body once.
        assert_eq!(probe_x(&last, 0, ProbeKind::Block), 2);
        assert_eq!(probe_x(&last, 4, ProbeKind::Block), 1);
    }

    #[test]
    fn first_decision_of_an_if_with_else() {
        // Second iteration: the IF (counter == 2) is taken; first: its ELSE.
        let src = TWICE.replace(
            "UIF TEMP[1].yyyy\nBRK\nENDIF",
            "UIF TEMP[1].yyyy\nBRK\nELSE\nNOP\nENDIF",
        );
        let p = tgsi::parse(&src, "t").unwrap();
        let first = instrument(&p, ProbeMode::First).unwrap();
        assert!(is_valid(&first.program), "{}", tgsi::print(&first.program));
        assert_eq!(probe_x(&first, 4, ProbeKind::Decision), 2);
        let src = src.replace("USEQ", "USNE");
        let p = tgsi::parse(&src, "t").unwrap();
        let first = instrument(&p, ProbeMode::First).unwrap();
        // USNE: taken at once (1 != 2): the loop ends after one iteration.
        assert_eq!(probe_x(&first, 4, ProbeKind::Decision), 1);
        assert_eq!(probe_x(&first, 1, ProbeKind::Result), 1.0f32.to_bits());
    }
}
