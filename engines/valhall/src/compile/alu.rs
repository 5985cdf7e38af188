//! Opcode semantics of the valhall engine: every TGSI ALU opcode the oracle implements,
//! as Valhall instruction sequences, plus KILL/DEMOTE, derivatives, geometry output and
//! (module `subgroup`) the inter-lane votes.
//!
//! The TGSI meaning of each opcode is tgsi.rst's (with the oracle's decisions where it is
//! silent, `shaderdiff_oracles::interp::alu`); the Valhall instructions are ISA.xml's with
//! SEMANTICS.md's rules. Sequences without a single instruction follow what Mesa's
//! Valhall compiler emits where SEMANTICS.md records it (exp2, log2: §3.6) and otherwise
//! standard expansions (integer division by reciprocal estimate and correction, as NIR's
//! `nir_lower_idiv`; sin/cos by the FSIN/FCOS tables and a second-order Taylor step).

use shaderdiff_model::{Instruction, Opcode};

use super::lower::Lower;
use super::vcode::{VDst, VSrc, Val};
use super::CompileError;

type M = &'static [(&'static str, &'static str)];

const ROW: usize = 0;

impl Lower<'_> {
    /// Lowers an ALU, kill, derivative or geometry instruction.
    pub(super) fn op(&mut self, i: usize) -> Result<(), CompileError> {
        let insn = self.program.instructions[i].clone();
        use Opcode::*;
        match insn.opcode {
            KILL | KILP => {
                let z = self.code.konst(0);
                self.code
                    .ins("DISCARD.f32", VDst::None, &[z, z], &[("cmp", "eq")]);
                return Ok(());
            }
            KILL_IF | KIL => {
                // tgsi.rst KILL_IF: any of the four swizzled components < 0.0 (ordered: NaN
                // and -0.0 do not kill).
                for c in 0..4 {
                    let x = self.fetch(&insn, 0, c)?;
                    let z = self.code.konst(0);
                    self.code
                        .ins("DISCARD.f32", VDst::None, &[x, z], &[("cmp", "lt")]);
                }
                return Ok(());
            }
            DEMOTE => {
                let d = match self.demoted {
                    Some(d) => d,
                    None => {
                        let d = self.code.vreg();
                        self.demoted = Some(d);
                        d
                    }
                };
                let one = self.code.konst(super::lower::STATUS_DEMOTED);
                self.code.ins("MOV.i32", VDst::V(d), &[one], &[]);
                return Ok(());
            }
            EMIT | ENDPRIM => return self.emit(&insn),
            _ => {}
        }
        if super::wide64::layout(insn.opcode).is_some() {
            return self.op64(i, &insn);
        }
        let Some(dst) = insn.dst.first().copied() else {
            return Ok(());
        };
        let replicate = replicates(insn.opcode);
        let mut results = Vec::new();
        let mut shared: Option<VSrc> = None;
        for c in 0..4u8 {
            if dst.writemask & (1 << c) == 0 {
                continue;
            }
            let v = match shared {
                Some(v) if replicate => v,
                _ => {
                    let v = self.channel(&insn, c)?;
                    let v = self.saturate(insn.saturate, v);
                    if replicate {
                        shared = Some(v);
                    }
                    v
                }
            };
            results.push((c, v));
        }
        self.write_results(&dst.reg, results)
    }

    /// Writes the per-channel `results` of one instruction to `reg`. A result that is one
    /// of the registers this instruction writes (a move from an aliased source:
    /// MOV TEMP[0], TEMP[0].yxzw) is copied before any write.
    pub(super) fn write_results(
        &mut self,
        reg: &shaderdiff_model::Register,
        mut results: Vec<(u8, VSrc)>,
    ) -> Result<(), CompileError> {
        let written: Vec<Val> = results
            .iter()
            .filter_map(|&(c, _)| self.reg_vreg_if_direct(reg, c).map(Val::V))
            .collect();
        for (_, v) in results.iter_mut() {
            if written.contains(&v.val) {
                *v = self.code.op("MOV.i32", &[*v], &[]);
            }
        }
        for (c, v) in results {
            self.write(reg, c, v)?;
        }
        Ok(())
    }

    /// Channel `c` of the result of `insn`.
    fn channel(&mut self, insn: &Instruction, c: u8) -> Result<VSrc, CompileError> {
        use Opcode::*;
        let op = insn.opcode;
        if super::interp::INTERP_OPCODES.contains(&op) {
            return self.interpolate(insn, c);
        }
        // Sources in channel c (componentwise opcodes).
        let n = insn.src.len().min(4);
        let mut s = Vec::with_capacity(n);
        let componentwise = !replicates(op)
            && !matches!(
                op,
                LIT | EXP
                    | LOG
                    | DST
                    | XPD
                    | UP2H
                    | DDX
                    | DDY
                    | DDX_FINE
                    | DDY_FINE
                    | VOTE_ANY
                    | VOTE_ALL
                    | VOTE_EQ
                    | READ_FIRST
            );
        if componentwise {
            for k in 0..n {
                s.push(self.fetch(insn, k, c)?);
            }
        }
        let code = &mut self.code;
        Ok(match op {
            MOV | UARL => plain(code, s[0]),
            ABS => plain(code, s[0].abs()),
            ADD => code.op("FADD.f32", &[s[0], s[1]], &[]),
            SUB => code.op("FADD.f32", &[s[0], s[1].negated()], &[]),
            MUL => mul(code, s[0], s[1]),
            DIV => {
                let r = code.op("FRCP.f32", &[s[1]], &[]);
                mul(code, s[0], r)
            }
            MAD | FMA => code.op("FMA.f32", &[s[0], s[1], s[2]], &[]),
            LRP => {
                // a·b + (1 − a)·c with the second product fused (precision.toml LRP).
                let one = code.f(1.0);
                let t = code.op("FADD.f32", &[one, s[0].negated()], &[]);
                let tc = mul(code, t, s[2]);
                code.op("FMA.f32", &[s[0], s[1], tc], &[])
            }
            MIN => code.op("FMIN.f32", &[s[0], s[1]], &[]),
            MAX => code.op("FMAX.f32", &[s[0], s[1]], &[]),
            SLT => fcmp(code, s[0], s[1], "lt", "f1"),
            SGE => fcmp(code, s[0], s[1], "ge", "f1"),
            SGT => fcmp(code, s[0], s[1], "gt", "f1"),
            SLE => fcmp(code, s[0], s[1], "le", "f1"),
            SEQ => fcmp(code, s[0], s[1], "eq", "f1"),
            SNE => fcmp(code, s[0], s[1], "ne", "f1"),
            FSLT => fcmp(code, s[0], s[1], "lt", "m1"),
            FSGE => fcmp(code, s[0], s[1], "ge", "m1"),
            FSEQ => fcmp(code, s[0], s[1], "eq", "m1"),
            FSNE => fcmp(code, s[0], s[1], "ne", "m1"),
            CMP => {
                let z = code.konst(0);
                let a = plain(code, s[0]);
                let b = plain(code, s[1]);
                let d = plain(code, s[2]);
                code.op("CSEL.f32", &[a, z, b, d], &[("cmp", "lt")])
            }
            SSG => {
                let z = code.konst(0);
                let p = fcmp(code, s[0], z, "gt", "f1");
                let m = fcmp(code, s[0], z, "lt", "f1");
                code.op("FADD.f32", &[p, m.negated()], &[])
            }
            FLR => code.op("FROUND.f32", &[s[0]], &[("roundmode", "rtn")]),
            CEIL => code.op("FROUND.f32", &[s[0]], &[("roundmode", "rtp")]),
            TRUNC => code.op("FROUND.f32", &[s[0]], &[("roundmode", "rtz")]),
            ROUND => code.op("FROUND.f32", &[s[0]], &[("roundmode", "rte")]),
            FRC => {
                let f = code.op("FROUND.f32", &[s[0]], &[("roundmode", "rtn")]);
                code.op("FADD.f32", &[s[0], f.negated()], &[])
            }
            LDEXP => code.op("LDEXP.f32", &[s[0], s[1]], &[]),
            I2F => code.op("S32_TO_F32", &[s[0]], &[]),
            U2F => code.op("U32_TO_F32", &[s[0]], &[]),
            F2I => code.op("F32_TO_S32", &[s[0]], &[("roundmode", "rtz")]),
            F2U => code.op("F32_TO_U32", &[s[0]], &[("roundmode", "rtz")]),
            ARL => code.op("F32_TO_S32", &[s[0]], &[("roundmode", "rtn")]),
            ARR => {
                // floor(a) + (a − floor(a) >= 0.5), as the oracle (round half up).
                let f = code.op("FROUND.f32", &[s[0]], &[("roundmode", "rtn")]);
                let d = code.op("FADD.f32", &[s[0], f.negated()], &[]);
                let half = code.f(0.5);
                let up = fcmp(code, d, half, "ge", "f1");
                let r = code.op("FADD.f32", &[f, up], &[]);
                code.op("F32_TO_S32", &[r], &[("roundmode", "rtz")])
            }
            UADD => code.op("IADD.u32", &[s[0], s[1]], &[]),
            UMUL => code.op("IMUL.i32", &[s[0], s[1]], &[]),
            UMAD => {
                let p = code.op("IMUL.i32", &[s[0], s[1]], &[]);
                code.op("IADD.u32", &[p, s[2]], &[])
            }
            UMUL_HI => umul_hi(code, s[0], s[1]),
            IMUL_HI => imul_hi(code, s[0], s[1]),
            UDIV => udiv(code, s[0], s[1], false),
            UMOD => udiv(code, s[0], s[1], true),
            IDIV => idiv(code, s[0], s[1], false),
            MOD => idiv(code, s[0], s[1], true),
            INEG => {
                let z = code.konst(0);
                code.op("ISUB.s32", &[z, s[0]], &[])
            }
            IABS => code.op("IABS.s32", &[s[0]], &[]),
            ISSG => {
                let z = code.konst(0);
                let p = icmp(code, s[0], z, "gt", "i1", true);
                let m = icmp(code, s[0], z, "lt", "i1", true);
                code.op("ISUB.s32", &[p, m], &[])
            }
            IMAX => code.op("CSEL.s32", &[s[0], s[1], s[0], s[1]], &[("cmp", "gt")]),
            IMIN => code.op("CSEL.s32", &[s[0], s[1], s[0], s[1]], &[("cmp", "lt")]),
            UMAX => code.op("CSEL.u32", &[s[0], s[1], s[0], s[1]], &[("cmp", "gt")]),
            UMIN => code.op("CSEL.u32", &[s[0], s[1], s[0], s[1]], &[("cmp", "lt")]),
            ISGE => icmp(code, s[0], s[1], "ge", "m1", true),
            ISLT => icmp(code, s[0], s[1], "lt", "m1", true),
            USEQ => icmp(code, s[0], s[1], "eq", "m1", false),
            USNE => icmp(code, s[0], s[1], "ne", "m1", false),
            USGE => icmp(code, s[0], s[1], "ge", "m1", false),
            USLT => icmp(code, s[0], s[1], "lt", "m1", false),
            NOT => {
                let z = code.konst(0);
                let sh = code.lane_const(0);
                code.op("LSHIFT_OR.i32", &[s[0], sh, z], &[("not_result", "")])
            }
            AND => bitop(code, "LSHIFT_AND.i32", s[0], s[1]),
            OR => bitop(code, "LSHIFT_OR.i32", s[0], s[1]),
            XOR => bitop(code, "LSHIFT_XOR.i32", s[0], s[1]),
            SHL => shift(code, "LSHIFT_OR.i32", s[0], s[1], &[]),
            USHR => shift(code, "RSHIFT_OR.i32", s[0], s[1], &[]),
            ISHR => shift(code, "RSHIFT_OR.i32", s[0], s[1], &[("signed", "")]),
            UCMP => {
                let b = plain(code, s[1]);
                let d = plain(code, s[2]);
                code.op("MUX.i32", &[d, b, s[0]], &[("mux", "int_zero")])
            }
            UBFE => bfe(code, s[0], s[1], s[2], false),
            IBFE => bfe(code, s[0], s[1], s[2], true),
            BFI => bfi(code, s[0], s[1], s[2], s[3]),
            BREV => code.op("BITREV.i32", &[s[0]], &[]),
            POPC => code.op("POPCOUNT.i32", &[s[0]], &[]),
            LSB => {
                let r = code.op("BITREV.i32", &[s[0]], &[]);
                let z = code.op("CLZ.u32", &[r], &[]);
                let m1 = code.konst(u32::MAX);
                code.op("MUX.i32", &[m1, z, s[0]], &[("mux", "int_zero")])
            }
            UMSB => msb(code, s[0]),
            IMSB => {
                let sh = code.lane_const(31);
                let z = code.konst(0);
                let sign = code.op("RSHIFT_OR.i32", &[s[0], sh, z], &[("signed", "")]);
                let z0 = code.lane_const(0);
                let v = code.op("LSHIFT_XOR.i32", &[s[0], z0, sign], &[]);
                msb(code, v)
            }
            _ => return self.channel_special(insn, c),
        })
    }

    /// Replicating and channel-dependent opcodes (their sources are read per channel).
    fn channel_special(&mut self, insn: &Instruction, c: u8) -> Result<VSrc, CompileError> {
        use Opcode::*;
        let op = insn.opcode;
        let x = |l: &mut Self, k: usize, ch: u8| l.fetch(insn, k, ch);
        Ok(match op {
            RCP => {
                let a = x(self, 0, 0)?;
                self.code.op("FRCP.f32", &[a], &[])
            }
            RSQ => {
                let a = x(self, 0, 0)?;
                self.code.op("FRSQ.f32", &[a], &[])
            }
            SQRT => {
                // precision.toml SQRT, class gpu: inherited from 1 / rsq(x).
                let a = x(self, 0, 0)?;
                let r = self.code.op("FRSQ.f32", &[a], &[]);
                self.code.op("FRCP.f32", &[r], &[])
            }
            EX2 => {
                let a = x(self, 0, 0)?;
                ex2(&mut self.code, a)
            }
            LG2 => {
                let a = x(self, 0, 0)?;
                lg2(&mut self.code, a)
            }
            POW => {
                let a = x(self, 0, 0)?;
                let b = x(self, 1, 0)?;
                pow(&mut self.code, a, b)
            }
            SIN | COS => {
                let a = x(self, 0, 0)?;
                sincos(&mut self.code, a, op == COS)
            }
            DP2 | DP3 | DP4 | DPH => {
                let len = match op {
                    DP2 => 2,
                    DP4 => 4,
                    _ => 3,
                };
                let mut acc: Option<VSrc> = None;
                for ch in 0..len {
                    let a = x(self, 0, ch)?;
                    let b = x(self, 1, ch)?;
                    acc = Some(match acc {
                        None => mul(&mut self.code, a, b),
                        Some(p) => self.code.op("FMA.f32", &[a, b, p], &[]),
                    });
                }
                let acc = acc.unwrap_or_else(|| self.code.konst(0));
                if op == DPH {
                    let w = x(self, 1, 3)?;
                    self.code.op("FADD.f32", &[acc, w], &[])
                } else {
                    acc
                }
            }
            DST => match c {
                0 => self.code.f(1.0),
                1 => {
                    let a = x(self, 0, 1)?;
                    let b = x(self, 1, 1)?;
                    mul(&mut self.code, a, b)
                }
                2 => {
                    let a = x(self, 0, 2)?;
                    plain(&mut self.code, a)
                }
                _ => {
                    let b = x(self, 1, 3)?;
                    plain(&mut self.code, b)
                }
            },
            XPD => {
                if c == 3 {
                    self.code.f(1.0)
                } else {
                    let (i, j) = [(1, 2), (2, 0), (0, 1)][c as usize];
                    let ai = x(self, 0, i)?;
                    let bj = x(self, 1, j)?;
                    let aj = x(self, 0, j)?;
                    let bi = x(self, 1, i)?;
                    let t = mul(&mut self.code, aj, bi);
                    self.code.op("FMA.f32", &[ai, bj, t.negated()], &[])
                }
            }
            EXP => {
                let a = x(self, 0, 0)?;
                super::special::exp(&mut self.code, a, c)
            }
            LOG => {
                let a = x(self, 0, 0)?;
                super::special::log(&mut self.code, a, c)
            }
            LIT => {
                let comps = [x(self, 0, 0)?, x(self, 0, 1)?, x(self, 0, 3)?];
                super::special::lit(&mut self.code, comps, c)
            }
            PK2H => {
                let a = x(self, 0, 0)?;
                let b = x(self, 0, 1)?;
                self.code.op("V2F32_TO_V2F16", &[a, b], &[])
            }
            UP2H => {
                let a = x(self, 0, 0)?;
                let lane = if c % 2 == 0 { "h0" } else { "h1" };
                self.code.op("F16_TO_F32", &[a.sel(lane)], &[])
            }
            PK2US | PK4B | PK4UB => {
                let n = if op == PK2US { 2 } else { 4 };
                let mut comps = Vec::new();
                for ch in 0..n {
                    comps.push(x(self, 0, ch)?);
                }
                super::special::pack_norm(&mut self.code, op, &comps)
            }
            DDX | DDY | DDX_FINE | DDY_FINE => {
                let a = x(self, 0, c)?;
                self.derivative(op, a)?
            }
            VOTE_ANY | VOTE_ALL | VOTE_EQ | READ_FIRST => {
                let a = x(self, 0, c)?;
                self.vote(op, a)?
            }
            _ => {
                return Err(CompileError::unsupported(
                    None,
                    &format!("opcode {op} is not supported by the valhall compiler"),
                ))
            }
        })
    }

    /// DDX/DDY (INTERFACE.md "Fragment quads", oracle contract): fine derivatives within
    /// the invocation's row/column, coarse ones from the top row / left column; the other
    /// lanes are read with CLPER (SEMANTICS.md §7 Subgroup).
    fn derivative(&mut self, op: Opcode, a: VSrc) -> Result<VSrc, CompileError> {
        let lanes = self.lanes.ok_or_else(|| {
            CompileError::unsupported(None, "derivatives outside fragment programs")
        })?;
        let (lo, hi) = match op {
            Opcode::DDX_FINE => (lanes.row[0], lanes.row[1]),
            Opcode::DDY_FINE => (lanes.col[0], lanes.col[1]),
            Opcode::DDX => (lanes.quad[0], lanes.quad[1]),
            _ => (lanes.quad[0], lanes.quad[2]),
        };
        let _ = ROW;
        let a = plain(&mut self.code, a);
        let mods: M = &[("lane_op", "none"), ("inactive_result", "zero")];
        let l = self
            .code
            .op("CLPER.i32", &[a, VSrc::v(lo).sel("b00")], mods);
        let h = self
            .code
            .op("CLPER.i32", &[a, VSrc::v(hi).sel("b00")], mods);
        Ok(self.code.op("FADD.f32", &[h, l.negated()], &[]))
    }
}

/// Opcodes whose one result (from the sources' x channels or whole vectors) is
/// replicated to every written channel (tgsi.rst "Basics").
fn replicates(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        RCP | RSQ
            | SQRT
            | EX2
            | LG2
            | POW
            | SIN
            | COS
            | DP2
            | DP3
            | DP4
            | DPH
            | PK2H
            | PK2US
            | PK4B
            | PK4UB
    )
}

/// The value with its float modifiers applied (for instructions without absneg sources).
pub(super) fn plain(code: &mut super::vcode::VCode, s: VSrc) -> VSrc {
    if s.neg || s.abs {
        code.apply_absneg(s)
    } else {
        s
    }
}

/// `a · b` rounded once: FMA with −0.0 as addend, so the sign of a zero product survives.
pub(super) fn mul(code: &mut super::vcode::VCode, a: VSrc, b: VSrc) -> VSrc {
    let z = code.konst(0).negated();
    code.op("FMA.f32", &[a, b, z], &[])
}

/// Float compare with result type `ty` (SEMANTICS.md §5).
pub(super) fn fcmp(
    code: &mut super::vcode::VCode,
    a: VSrc,
    b: VSrc,
    cond: &'static str,
    ty: &'static str,
) -> VSrc {
    let z = code.konst(0);
    code.op(
        "FCMP_OR.f32",
        &[a, b, z],
        &[("cmp", cond), ("result_type", ty)],
    )
}

/// Integer compare, signed or unsigned.
pub(super) fn icmp(
    code: &mut super::vcode::VCode,
    a: VSrc,
    b: VSrc,
    cond: &'static str,
    ty: &'static str,
    signed: bool,
) -> VSrc {
    let z = code.konst(0);
    let name = if signed { "ICMP_OR.s32" } else { "ICMP_OR.u32" };
    code.op(name, &[a, b, z], &[("cmp", cond), ("result_type", ty)])
}

/// AND/OR/XOR as the shift instructions with shift 0 (SEMANTICS.md §4).
fn bitop(code: &mut super::vcode::VCode, name: &'static str, a: VSrc, b: VSrc) -> VSrc {
    let z = code.lane_const(0);
    code.op(name, &[a, z, b], &[])
}

/// A shift by the low byte of `n` (mod 32: SEMANTICS.md §4; TGSI masks to 5 bits).
fn shift(code: &mut super::vcode::VCode, name: &'static str, a: VSrc, n: VSrc, mods: M) -> VSrc {
    let z = code.konst(0);
    code.op(name, &[a, n.sel("b00"), z], mods)
}

/// `31 − clz(v)`: the index of the most significant set bit, −1 for 0.
fn msb(code: &mut super::vcode::VCode, v: VSrc) -> VSrc {
    let z = code.op("CLZ.u32", &[v], &[]);
    let k = code.konst(31);
    code.op("ISUB.s32", &[k, z], &[])
}

/// The high word of the unsigned 64-bit product (IMULD.u64, ISA.xml IMUL group).
pub(super) fn umul_hi(code: &mut super::vcode::VCode, a: VSrc, b: VSrc) -> VSrc {
    let pair = super::abi::ADDR_REG;
    code.ins("IMULD.u64", VDst::P(pair), &[a.sel("w0"), b.sel("w0")], &[]);
    code.op("MOV.i32", &[VSrc::new(Val::P(pair + 1))], &[])
}

/// The high word of the signed product: unsigned high word minus the sign corrections.
fn imul_hi(code: &mut super::vcode::VCode, a: VSrc, b: VSrc) -> VSrc {
    let hi = umul_hi(code, a, b);
    let sh = code.lane_const(31);
    let z = code.konst(0);
    let z0 = code.lane_const(0);
    let sa = code.op("RSHIFT_OR.i32", &[a, sh, z], &[("signed", "")]);
    let sb = code.op("RSHIFT_OR.i32", &[b, sh, z], &[("signed", "")]);
    let ta = code.op("LSHIFT_AND.i32", &[sa, z0, b], &[]);
    let tb = code.op("LSHIFT_AND.i32", &[sb, z0, a], &[]);
    let r = code.op("ISUB.u32", &[hi, ta], &[]);
    code.op("ISUB.u32", &[r, tb], &[])
}

/// Unsigned division or remainder (Valhall has no divider): a reciprocal estimate refined
/// by one Newton–Raphson step in integers, a high multiply and two corrections (the
/// expansion of NIR's `nir_lower_idiv`). Division by zero gives 0xFFFFFFFF for both, as
/// tgsi.rst UDIV/UMOD and the oracle define.
fn udiv(code: &mut super::vcode::VCode, n: VSrc, d: VSrc, rem: bool) -> VSrc {
    let df = code.op("U32_TO_F32", &[d], &[]);
    let rf = code.op("FRCP.f32", &[df], &[]);
    let scale = code.konst(0x4f7f_fffe); // 4294966784.0 = 2^32 − 512
    let rs = mul(code, rf, scale);
    let rcp = code.op("F32_TO_U32", &[rs], &[("roundmode", "rtz")]);
    let z = code.konst(0);
    let negd = code.op("ISUB.u32", &[z, d], &[]);
    let e = code.op("IMUL.i32", &[negd, rcp], &[]);
    let corr = umul_hi(code, rcp, e);
    let rcp = code.op("IADD.u32", &[rcp, corr], &[]);
    let mut q = umul_hi(code, n, rcp);
    let qd = code.op("IMUL.i32", &[q, d], &[]);
    let mut r = code.op("ISUB.u32", &[n, qd], &[]);
    for _ in 0..2 {
        let ge = icmp(code, r, d, "ge", "m1", false);
        q = code.op("ISUB.u32", &[q, ge], &[]);
        let z0 = code.lane_const(0);
        let sub = code.op("LSHIFT_AND.i32", &[ge, z0, d], &[]);
        r = code.op("ISUB.u32", &[r, sub], &[]);
    }
    let res = if rem { r } else { q };
    let ones = code.konst(u32::MAX);
    code.op("MUX.i32", &[ones, res, d], &[("mux", "int_zero")])
}

/// Signed division / remainder from the unsigned one (the oracle flags division by zero
/// and i32::MIN / −1 as undefined; the remainder takes the dividend's sign).
fn idiv(code: &mut super::vcode::VCode, a: VSrc, b: VSrc, rem: bool) -> VSrc {
    let ua = code.op("IABS.s32", &[a], &[]);
    let ub = code.op("IABS.s32", &[b], &[]);
    let q = udiv(code, ua, ub, rem);
    let z0 = code.lane_const(0);
    let sign = if rem {
        a
    } else {
        code.op("LSHIFT_XOR.i32", &[a, z0, b], &[])
    };
    let z = code.konst(0);
    let neg = code.op("ISUB.u32", &[z, q], &[]);
    code.op("MUX.i32", &[neg, q, sign], &[("mux", "neg")])
}

/// UBFE/IBFE: `(v << (32 − o − b)) >> (32 − b)`, 0 when `b == 0` (oracle; offsets and
/// widths outside 0..=32 are undefined there).
fn bfe(code: &mut super::vcode::VCode, v: VSrc, o: VSrc, b: VSrc, signed: bool) -> VSrc {
    let k32 = code.konst(32);
    let t = code.op("ISUB.u32", &[k32, o], &[]);
    let l = code.op("ISUB.u32", &[t, b], &[]);
    let r = code.op("ISUB.u32", &[k32, b], &[]);
    let z = code.konst(0);
    let up = code.op("LSHIFT_OR.i32", &[v, l.sel("b00"), z], &[]);
    let mods: M = if signed { &[("signed", "")] } else { &[] };
    let down = code.op("RSHIFT_OR.i32", &[up, r.sel("b00"), z], mods);
    code.op("MUX.i32", &[z, down, b], &[("mux", "int_zero")])
}

/// BFI: `mask = ((1 << b) − 1) << o`, built as `(~0 >> (32 − b)) << o` (0 when b = 0).
fn bfi(code: &mut super::vcode::VCode, base: VSrc, ins: VSrc, o: VSrc, b: VSrc) -> VSrc {
    let k32 = code.konst(32);
    let z = code.konst(0);
    let ones = code.konst(u32::MAX);
    let r = code.op("ISUB.u32", &[k32, b], &[]);
    let m0 = code.op("RSHIFT_OR.i32", &[ones, r.sel("b00"), z], &[]);
    let m0 = code.op("MUX.i32", &[z, m0, b], &[("mux", "int_zero")]);
    let mask = code.op("LSHIFT_OR.i32", &[m0, o.sel("b00"), z], &[]);
    let shifted = code.op("LSHIFT_OR.i32", &[ins, o.sel("b00"), z], &[]);
    code.op("MUX.i32", &[shifted, base, mask], &[("mux", "bit")])
}

/// exp2 as Mesa's Valhall compiler emits it (SEMANTICS.md §3.6): t = x·2^24, its 8:24
/// fixed-point value, then `FEXP fixed, t` (t for the special cases). Mesa scales with
/// FMA_RSCALE; a multiplication by the uniform 2^24 is the same exact scaling.
pub(super) fn ex2(code: &mut super::vcode::VCode, a: VSrc) -> VSrc {
    let scale = code.f(16_777_216.0);
    let t = mul(code, a, scale);
    let fixed = code.op("F32_TO_S32", &[t], &[("roundmode", "rte")]);
    code.op("FEXP.f32", &[fixed, t], &[])
}

/// log2 as Mesa's Valhall compiler emits it (SEMANTICS.md §3.6).
pub(super) fn lg2(code: &mut super::vcode::VCode, a: VSrc) -> VSrc {
    let a = plain(code, a);
    let e = code.op("FREXPE.f32", &[a], &[("log", "")]);
    let ef = code.op("S32_TO_F32", &[e], &[]);
    let m1 = code.f(1.0).negated();
    let d = code.op("FADD_LSCALE.f32", &[m1, a], &[]);
    let l = code.op("FLOGD.f32", &[a], &[]);
    code.op("FMA.f32", &[l, d, ef], &[])
}

/// pow(a, b) = exp2(b · log2(a)) (precision.toml POW, class gpu).
pub(super) fn pow(code: &mut super::vcode::VCode, a: VSrc, b: VSrc) -> VSrc {
    let l = lg2(code, a);
    let p = mul(code, b, l);
    ex2(code, p)
}

/// sin/cos: k = round(x · 32/π); the FSIN/FCOS tables give sin/cos(kπ/32) (SEMANTICS.md
/// §3.6), and with e = x − kπ/32 (|e| ≤ π/64): sin x ≈ S + C·e − S·e²/2,
/// cos x ≈ C − S·e − C·e²/2. The neglected e³/6 term is below 2^-15, inside the gpu bound
/// of 2^-11 on [−π, π] (precision.toml SIN, COS).
fn sincos(code: &mut super::vcode::VCode, a: VSrc, cos: bool) -> VSrc {
    let a = plain(code, a);
    let inv = code.f((32.0 / std::f64::consts::PI) as f32);
    let q = mul(code, a, inv);
    let k = code.op("F32_TO_S32", &[q], &[("roundmode", "rte")]);
    let kf = code.op("S32_TO_F32", &[k], &[]);
    let step = code.f(-(std::f64::consts::PI / 32.0) as f32);
    let e = code.op("FMA.f32", &[kf, step, a], &[]);
    let s = code.op("FSIN_TABLE.u6", &[k], &[]);
    let c = code.op("FCOS_TABLE.u6", &[k], &[]);
    let (main, other, sign) = if cos { (c, s, true) } else { (s, c, false) };
    // main + (±other)·e − main·e²/2
    let oe = if sign { other.negated() } else { other };
    let first = code.op("FMA.f32", &[oe, e, main], &[]);
    let e2 = mul(code, e, e);
    let half = code.f(-0.5);
    let h = mul(code, e2, half);
    code.op("FMA.f32", &[main, h, first], &[])
}
