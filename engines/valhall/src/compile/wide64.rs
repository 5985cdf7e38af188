//! The 64-bit opcodes (tgsi.rst "Double ISA" and "64-bit Integer ISA") on the soft-fp64
//! and 64-bit integer sequences of [`super::softfp64`]. A 64-bit value occupies the channel
//! pair xy or zw, low word first (INTERFACE.md; tgsi.rst: the opcodes "reinterpret
//! four-component vectors into two-component vectors").
//!
//! Channel layout, as the oracle resolves the documents (`oracles` `interp::alu::wide`):
//! a pair is computed when either of its channels is enabled and only enabled channels are
//! written; comparisons write `dst.x` from xy and `dst.z` from zw (y and w, which the doc
//! leaves undefined, get the same words); 64 → 32-bit conversions write `dst.x` from xy
//! and `dst.y` from zw (z and w, undefined, get them again); 32 → 64-bit conversions read
//! src.x for xy and src.y for zw; DLDEXP's exponent and the shift counts are src1.x (xy)
//! and src1.z (zw; EXEC-NOTES.md §6, §12.10). Modifiers on 64-bit sources and saturate on
//! 64-bit results have no meaning in tgsi.rst ("Source Modifiers" and "Other Modifiers"
//! are 32-bit): the compiler refuses them, as the oracle does.

use shaderdiff_model::{Instruction, Opcode, Saturate};

use super::lower::Lower;
use super::softfp64::{D, E};
use super::vcode::VSrc;
use super::CompileError;

pub use shaderdiff_model::wide::{layout, Layout64};

impl Lower<'_> {
    /// Lowers the 64-bit instruction `insn` (number `i`).
    pub(super) fn op64(&mut self, i: usize, insn: &Instruction) -> Result<(), CompileError> {
        let op = insn.opcode;
        let info = op.info();
        let wide = |t: Option<&Option<shaderdiff_model::ScalarType>>| {
            t.copied().flatten().is_some_and(|t| t.is_64bit())
        };
        if insn
            .src
            .iter()
            .enumerate()
            .any(|(k, s)| (s.abs || s.neg) && wide(info.src_types.get(k)))
        {
            return Err(CompileError::unsupported(
                self.pos(i),
                "source modifiers on 64-bit operands (tgsi.rst defines only 32-bit modifiers)",
            ));
        }
        if insn.saturate != Saturate::None && wide(Some(&info.dst_type)) {
            return Err(CompileError::unsupported(
                self.pos(i),
                "saturate on a 64-bit result (tgsi.rst: saturate clamps 32-bit stores)",
            ));
        }
        let Some(dst) = insn.dst.first().copied() else {
            return Ok(());
        };
        let wm = dst.writemask;
        let lay =
            layout(op).ok_or_else(|| CompileError::Internal(format!("{op} is not 64-bit")))?;
        let mut results: Vec<(u8, VSrc)> = Vec::new();
        for p in 0..2u8 {
            let (lo_c, hi_c) = match lay {
                Layout64::Narrow => (p, p + 2),
                _ => (2 * p, 2 * p + 1),
            };
            let mask = (1 << lo_c) | (1 << hi_c);
            if wm & mask == 0 {
                continue;
            }
            let (lo, hi) = match lay {
                Layout64::Pair => {
                    let n = insn.src.len();
                    let mut s = Vec::with_capacity(n);
                    for k in 0..n {
                        s.push(self.pair(insn, k, p)?);
                    }
                    let r = self.pair_op(op, &s)?;
                    (r.lo, r.hi)
                }
                Layout64::Ldexp | Layout64::Shift => {
                    let a = self.pair(insn, 0, p)?;
                    let n = self.fetch(insn, 1, 2 * p)?;
                    let n = super::alu::plain(&mut self.code, n);
                    let mut e = E {
                        code: &mut self.code,
                    };
                    let r = match op {
                        Opcode::DLDEXP => e.dldexp(a, n),
                        Opcode::U64SHL => e.ishl64(a, n),
                        Opcode::U64SHR => e.ishr64(a, n, false),
                        _ => e.ishr64(a, n, true),
                    };
                    (r.lo, r.hi)
                }
                Layout64::Compare => {
                    let a = self.pair(insn, 0, p)?;
                    let b = self.pair(insn, 1, p)?;
                    let w = compare(
                        &mut E {
                            code: &mut self.code,
                        },
                        op,
                        a,
                        b,
                    );
                    let w = self.saturate(insn.saturate, w);
                    (w, w)
                }
                Layout64::Narrow => {
                    let a = self.pair(insn, 0, p)?;
                    let mut e = E {
                        code: &mut self.code,
                    };
                    let w = match op {
                        Opcode::D2F => e.d2f(a),
                        Opcode::D2I => e.d2i64(a, true).lo,
                        Opcode::D2U => e.d2i64(a, false).lo,
                        Opcode::I642F => e.i2f64(a, true),
                        _ => e.i2f64(a, false),
                    };
                    let w = self.saturate(insn.saturate, w);
                    (w, w)
                }
                Layout64::Widen => {
                    let x = self.fetch(insn, 0, p)?;
                    let x = super::alu::plain(&mut self.code, x);
                    // FAULT HOOK: `i2d-unsigned` selects the unsigned conversion.
                    let op = match op {
                        Opcode::I2D if self.fault == Some(crate::faults::Fault::I2dUnsigned) => {
                            Opcode::U2D
                        }
                        op => op,
                    };
                    let r = widen(
                        &mut E {
                            code: &mut self.code,
                        },
                        op,
                        x,
                    );
                    (r.lo, r.hi)
                }
            };
            if wm & (1 << lo_c) != 0 {
                results.push((lo_c, lo));
            }
            if wm & (1 << hi_c) != 0 {
                results.push((hi_c, hi));
            }
        }
        results.sort_by_key(|&(c, _)| c);
        self.write_results(&dst.reg, results)
    }

    /// Source `k`'s channel pair `p` (channels 2p and 2p+1 after the swizzle).
    fn pair(&mut self, insn: &Instruction, k: usize, p: u8) -> Result<D, CompileError> {
        Ok(D {
            lo: self.fetch(insn, k, 2 * p)?,
            hi: self.fetch(insn, k, 2 * p + 1)?,
        })
    }

    /// The [`Layout64::Pair`] opcodes on one pair of each source.
    fn pair_op(&mut self, op: Opcode, s: &[D]) -> Result<D, CompileError> {
        use Opcode::*;
        let no_carry = self.fault == Some(crate::faults::Fault::U64AddNoCarry);
        let neg_sub = self.fault == Some(crate::faults::Fault::DnegAsSubFromZero);
        let drop_cross = self.fault == Some(crate::faults::Fault::U64MulDropsCrossProduct);
        let mut e = E {
            code: &mut self.code,
        };
        let one = |e: &mut E| D {
            lo: e.k(0),
            hi: e.k(0x3ff0_0000),
        };
        let get = |k: usize| {
            s.get(k)
                .copied()
                .ok_or_else(|| CompileError::invalid(None, &format!("{op}: missing source")))
        };
        let a = get(0)?;
        Ok(match op {
            DABS => e.dabs(a),
            // FAULT HOOK: `dneg-as-sub-from-zero` computes 0.0 + (-x).
            DNEG if neg_sub => {
                let z = D {
                    lo: e.k(0),
                    hi: e.k(0),
                };
                let n = e.dneg(a);
                e.dadd(z, n)
            }
            DNEG => e.dneg(a),
            DADD => e.dadd(a, get(1)?),
            DMUL => e.dmul(a, get(1)?),
            DDIV => e.ddiv(a, get(1)?),
            // DMAD: precision.toml accepts the fused result (`fused_or_unfused`).
            DMAD | DFMA => e.dfma(a, get(1)?, get(2)?),
            DMIN => e.dminmax(a, get(1)?, false),
            DMAX => e.dminmax(a, get(1)?, true),
            DRCP => {
                let o = one(&mut e);
                e.ddiv(o, a)
            }
            DSQRT => e.dsqrt(a),
            DRSQ => {
                // 1 / √x with two roundings: within precision.toml DRSQ's 2 ulp (gpu).
                let r = e.dsqrt(a);
                let o = one(&mut e);
                e.ddiv(o, r)
            }
            DFRAC => e.dfrac(a),
            DTRUNC => e.dtrunc(a),
            DCEIL => e.dfloor_ceil(a, true),
            DFLR => e.dfloor_ceil(a, false),
            DROUND => e.dround(a),
            DSSG => e.dssg(a),
            I64ABS => e.iabs64(a),
            I64NEG => e.ineg64(a),
            I64SSG => e.issg64(a),
            // FAULT HOOK: `u64add-no-carry` drops the carry into the high word.
            U64ADD => e.iadd64(a, get(1)?, !no_carry),
            // FAULT HOOK: `u64mul-drops-cross-product` leaves out a.hi * b.lo.
            U64MUL if drop_cross => {
                let b = get(1)?;
                let z = e.k(0);
                e.imul64(D { lo: a.lo, hi: z }, b)
            }
            U64MUL => e.imul64(a, get(1)?),
            I64MIN | I64MAX | U64MIN | U64MAX => {
                let b = get(1)?;
                let lt = e.lt64(a, b, matches!(op, I64MIN | I64MAX));
                if matches!(op, I64MIN | U64MIN) {
                    e.sel_d(lt, a, b)
                } else {
                    e.sel_d(lt, b, a)
                }
            }
            I64DIV => e.idivmod64(a, get(1)?, false),
            I64MOD => e.idivmod64(a, get(1)?, true),
            U64DIV => e.udivmod64(a, get(1)?).0,
            U64MOD => e.udivmod64(a, get(1)?).1,
            D2I64 => e.d2i64(a, true),
            D2U64 => e.d2i64(a, false),
            I642D => e.i2d64(a, true),
            U642D => e.i2d64(a, false),
            _ => return Err(CompileError::Internal(format!("{op} is not a pair opcode"))),
        })
    }
}

/// The comparisons: all ones or zero.
fn compare(e: &mut E, op: Opcode, a: D, b: D) -> VSrc {
    use Opcode::*;
    match op {
        DSEQ => e.deq(a, b),
        DSNE => {
            let eq = e.deq(a, b);
            e.not(eq)
        }
        DSLT => e.dlt(a, b),
        DSGE => e.dge(a, b),
        U64SEQ => e.eq64(a, b),
        U64SNE => {
            let eq = e.eq64(a, b);
            e.not(eq)
        }
        U64SLT => e.lt64(a, b, false),
        I64SLT => e.lt64(a, b, true),
        U64SGE => {
            let lt = e.lt64(a, b, false);
            e.not(lt)
        }
        _ => {
            let lt = e.lt64(a, b, true);
            e.not(lt)
        }
    }
}

/// The 32 → 64-bit conversions of the word `x`.
fn widen(e: &mut E, op: Opcode, x: VSrc) -> D {
    use Opcode::*;
    let z = e.k(0);
    match op {
        F2D => e.f2d(x),
        F2I64 | F2U64 => {
            let d = e.f2d(x);
            e.d2i64(d, op == F2I64)
        }
        I2D => {
            let hi = e.sar(x, 31);
            e.i2d64(D { lo: x, hi }, true)
        }
        U2D => e.i2d64(D { lo: x, hi: z }, false),
        I2I64 => D {
            lo: x,
            hi: e.sar(x, 31),
        },
        _ => D { lo: x, hi: z },
    }
}
