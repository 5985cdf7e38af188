//! Probing: an instrumented copy of a program that makes every intermediate result an
//! output, so the first diverging instruction can be found on any engine from outputs alone
//! (no engine-specific tracing).
//!
//! [`instrument`] inserts, after every instruction with a register destination, a
//! `MOV OUT[k].<writemask>, <destination>` into a fresh output register (a *result probe*),
//! and at the start of every block body (after IF/UIF, ELSE, BGNLOOP, CASE, DEFAULT and
//! BGNSUB) a counter `UADD TEMP[t].c, TEMP[t].c, 1` copied to a fresh output (a *block
//! probe*: how often the body was entered). The program's own registers and outputs are
//! untouched, so its outputs are those of the original. A probe holds the last value its
//! instruction wrote in each invocation; probes of instructions that never ran stay zero on
//! every engine.
//!
//! Not probed: destinations in the NULL or ADDR files, and 2-D output spaces (programs with
//! `OUT[v][i]` declarations are not instrumented at all).

use shaderdiff_ir::{
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
fn probe_dst(insn: &Instruction) -> Option<Dst> {
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
fn extent(p: &Program, file: File) -> Option<u32> {
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

/// The instrumented copy of `p` (module docs), or `None` when `p` cannot be instrumented
/// (2-D outputs or temporaries, more than [`MAX_PROBES`] probes).
pub fn instrument(p: &Program) -> Option<Probed> {
    let out_base = extent(p, File::Output)?;
    let temp_base = extent(p, File::Temp)?;
    let planned = p
        .instructions
        .iter()
        .filter(|i| opens_body(i.opcode) || probe_dst(i).is_some())
        .count();
    if planned == 0 || planned > MAX_PROBES {
        return None;
    }
    let one = p.immediates.len() as i32;
    let mut probes = Vec::new();
    let mut blocks = 0u32;
    let mut new = Vec::with_capacity(p.instructions.len() + 2 * planned);
    for (i, insn) in p.instructions.iter().enumerate() {
        new.push((Some(i), insn.clone()));
        let register = out_base + probes.len() as u32;
        if opens_body(insn.opcode) {
            let t = Register::new(File::Temp, (temp_base + blocks / 4) as i32);
            let c = (blocks % 4) as u8;
            blocks += 1;
            let counter = Dst {
                reg: t,
                writemask: 1 << c,
            };
            let mut read = Src::new(t);
            read.swizzle = [c; 4];
            let mut imm = Src::new(Register::new(File::Immediate, one));
            imm.swizzle = [0; 4];
            new.push((
                None,
                Instruction::new(Opcode::UADD, vec![counter], vec![read, imm]),
            ));
            let dst = Dst {
                reg: Register::new(File::Output, register as i32),
                writemask: 1 << c,
            };
            new.push((None, Instruction::new(Opcode::MOV, vec![dst], vec![read])));
            probes.push(Probe {
                instruction: i,
                register,
                mask: 1 << c,
                kind: ProbeKind::Block,
            });
        } else if let Some(d) = probe_dst(insn) {
            let mut src = Src::new(d.reg);
            src.swizzle = IDENTITY_SWIZZLE;
            let dst = Dst {
                reg: Register::new(File::Output, register as i32),
                writemask: d.writemask,
            };
            new.push((None, Instruction::new(Opcode::MOV, vec![dst], vec![src])));
            probes.push(Probe {
                instruction: i,
                register,
                mask: d.writemask,
                kind: ProbeKind::Result,
            });
        }
    }
    let mut program = rebuild(p, new);
    program.declarations.push(Declaration::new(
        File::Output,
        out_base,
        out_base + probes.len() as u32 - 1,
    ));
    if blocks > 0 {
        program.declarations.push(Declaration::new(
            File::Temp,
            temp_base,
            temp_base + (blocks - 1) / 4,
        ));
        program.immediates.push(Immediate {
            ty: ImmType::I32,
            words: [1, 0, 0, 0],
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
    use shaderdiff_ir::tgsi;

    #[test]
    fn probes_follow_results_and_blocks() {
        let src = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
            IMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
            ADD TEMP[0].xy, IN[0], IMM[0]\nIF TEMP[0].xxxx\nMUL TEMP[1], TEMP[0], IN[0]\n\
            ENDIF\nMOV OUT[0], TEMP[1]\nEND\n";
        let p = tgsi::parse(src, "t").unwrap();
        let pr = instrument(&p).unwrap();
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
