//! Opcodes and instruction modifiers (NV_gpu_program4 §2.X.4.1: `.MOD` pieces, Table X.14,
//! and opcode suffixes, Table X.15), opcode availability by header, option and stage
//! (Table X.13 "V" column; the ARB instruction sets and their NV options), and the
//! modifier rules of Table X.13 and the instruction descriptions.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::*;
use super::lexer::{clip, PResult};
use super::opcodes::{ModKind, NvOpcode, TypeSupport};
use super::parse::Parser;

/// An opcode with its precision suffix, condition-code suffix text and clamp suffix.
pub(super) type Resolved = (NvOpcode, Option<Precision>, &'static str, Option<Clamp>);

/// Splits `w` into opcode and suffixes (Table X.15: precision `R|H|X`, then `C|C0|C1`,
/// then `_SAT|_SSAT`). Returns the opcode, precision, cc suffix text and clamp; the
/// decomposition with the fewest suffixes wins (`RCC` is RCC, not RC + C).
pub(super) fn resolve_opcode(w: &str) -> Option<Resolved> {
    let mut best: Option<(usize, Resolved)> = None;
    for (sat_s, clamp) in [
        ("", None),
        ("_SAT", Some(Clamp::Sat)),
        ("_SSAT", Some(Clamp::SSat)),
    ] {
        let Some(r1) = w.strip_suffix(sat_s) else {
            continue;
        };
        for cc_s in ["", "C", "C0", "C1"] {
            let Some(r2) = r1.strip_suffix(cc_s) else {
                continue;
            };
            for (p_s, prec) in [
                ("", None),
                ("R", Some(Precision::R)),
                ("H", Some(Precision::H)),
                ("X", Some(Precision::X)),
            ] {
                let Some(base) = r2.strip_suffix(p_s) else {
                    continue;
                };
                if let Some(op) = NvOpcode::from_name(base) {
                    let n = [sat_s, cc_s, p_s].iter().filter(|s| !s.is_empty()).count();
                    if best.as_ref().is_none_or(|(m, _)| n < *m) {
                        best = Some((n, (op, prec, cc_s, clamp)));
                    }
                }
            }
        }
    }
    best.map(|(_, r)| r)
}

impl<'a> Parser<'a> {
    /// ARB programs reserve the names of their instructions, with the suffixes they accept
    /// (ARB_vertex_program §2.14.2 and ARB_fragment_program §3.11.2 reserved keywords; the
    /// NV options extend the lists with their instructions).
    pub(super) fn is_arb_opcode_name(&self, w: &str) -> bool {
        self.arb()
            && resolve_opcode(w).is_some_and(|(op, precision, cc_s, clamp)| {
                let mods = Modifiers {
                    precision,
                    clamp,
                    cc: (!cc_s.is_empty()).then_some(0),
                    ..Modifiers::default()
                };
                self.check_available(op, 0).is_ok()
                    && self.check_suffixes(op, &mods, cc_s, 0).is_ok()
            })
    }

    /// Opcode availability by header, options and stage (Table X.13 "V" column; the ARB
    /// instruction sets and their NV options).
    pub(super) fn check_available(&self, op: NvOpcode, off: usize) -> PResult<()> {
        let info = op.info();
        let h = self.header.text();
        if self.arb() {
            let (need, have, opts) = if self.stage() == NvStage::Vertex {
                let have = if self.feat.vp3 {
                    3
                } else if self.feat.vp2 {
                    2
                } else {
                    1
                };
                (
                    info.arb_vp,
                    have,
                    ["", "", "NV_vertex_program2", "NV_vertex_program3"],
                )
            } else {
                let have = if self.feat.fp2 {
                    3
                } else if self.feat.fp_opt {
                    2
                } else {
                    1
                };
                (
                    info.arb_fp,
                    have,
                    ["", "", "NV_fragment_program", "NV_fragment_program2"],
                )
            };
            if need == 0 {
                return self.err_at(
                    off,
                    format!("`{}` is not an instruction of {h} programs", op.name()),
                );
            }
            if need > have {
                return self.err_at(
                    off,
                    format!(
                        "`{}` requires `OPTION {};` in {h} programs",
                        op.name(),
                        opts[need as usize]
                    ),
                );
            }
            return Ok(());
        }
        if info.level == 0 {
            return self.err_at(
                off,
                format!("`{}` is not an instruction of {h} programs", op.name()),
            );
        }
        let have = match self.header.level {
            NvLevel::Nv40 => 40,
            NvLevel::Nv41 => 41,
            _ => 50,
        };
        if info.level > have {
            let v = if info.level == 41 { "4.1" } else { "5.0" };
            return self.err_at(
                off,
                format!(
                    "`{}` requires a `!!NV*{v}` program (this is {h})",
                    op.name()
                ),
            );
        }
        if let Some(st) = info.stage {
            if st != self.stage() {
                let s = match st {
                    NvStage::Fragment => "fragment",
                    NvStage::Geometry => "geometry",
                    _ => "compute",
                };
                return self.err_at(
                    off,
                    format!("`{}` is only valid in {s} programs", op.name()),
                );
            }
        }
        Ok(())
    }

    /// Checks opcode suffixes (Table X.15; NV_fragment_program_option `R H X C _SAT`;
    /// NV_vertex_program2 `C`, NV_vertex_program3 `C0 C1 _SAT`).
    pub(super) fn check_suffixes(
        &self,
        op: NvOpcode,
        m: &Modifiers,
        cc_s: &str,
        off: usize,
    ) -> PResult<()> {
        let info = op.info();
        let name = op.name();
        if let Some(p) = m.precision {
            let ok = match p {
                Precision::R => info.float != TypeSupport::No,
                Precision::H => info.half,
                Precision::X => info.half && self.arb(),
            } && (!self.arb() || (self.stage() == NvStage::Fragment && self.feat.fp_opt));
            if !ok {
                return self.err_at(
                    off,
                    format!("`{name}` takes no `{}` precision suffix here", p.name()),
                );
            }
        }
        if !cc_s.is_empty() {
            let ok = info.cc
                && (!self.arb()
                    || match self.stage() {
                        NvStage::Vertex => self.feat.vp3 || (cc_s == "C" && self.feat.vp2),
                        _ => cc_s == "C" && self.feat.fp_opt,
                    });
            if !ok {
                return self.err_at(
                    off,
                    format!("`{name}` takes no `{cc_s}` condition code suffix here"),
                );
            }
        }
        if let Some(c) = m.clamp {
            let ok = info.sat
                && (!self.arb()
                    || (c == Clamp::Sat && (self.stage() == NvStage::Fragment || self.feat.vp3)));
            if !ok {
                return self.err_at(
                    off,
                    format!("`{name}` takes no `_{}` suffix here", c.name()),
                );
            }
        }
        Ok(())
    }

    /// `.MOD` pieces after the opcode (Table X.14 and the gp5 / extension modifiers).
    pub(super) fn modifiers(&mut self, ins: &mut Instruction) -> PResult<()> {
        while self.t.at(b'.') {
            if self.arb() {
                return self.t.err(
                    "ARB programs take no `.` instruction modifiers (use suffixes such as `_SAT`)",
                );
            }
            self.t.next();
            let tk = self.t.peek();
            let Some(w) = self.t.peek_ident() else {
                return self.t.expected("an instruction modifier");
            };
            self.t.next();
            let m = &mut ins.mods;
            let dup = if let Some(t) = DataType::from_name(w) {
                if m.ty.is_none() {
                    m.ty = Some(t);
                    false
                } else if ins.opcode == NvOpcode::Cvt && m.ty2.is_none() {
                    m.ty2 = Some(t);
                    false
                } else {
                    true
                }
            } else if let Some(r) = match w {
                "CC" | "CC0" => Some(0),
                "CC1" => Some(1),
                _ => None,
            } {
                m.cc.replace(r).is_some()
            } else if let Some(c) = Clamp::from_name(w) {
                m.clamp.replace(c).is_some()
            } else if let Some(x) = MulMod::from_name(w) {
                m.mul.replace(x).is_some()
            } else if let Some(x) = AtomicOp::from_name(w) {
                m.atomic.replace(x).is_some()
            } else if let Some(x) = RoundMode::from_name(w) {
                m.round.replace(x).is_some()
            } else {
                let flag = match w {
                    "NTC" => &mut m.ntc,
                    "PREC" => &mut m.prec,
                    "COH" => &mut m.coh,
                    "VOL" => &mut m.vol,
                    "CTA" => &mut m.cta,
                    _ => {
                        return self.err_at(
                            tk.start,
                            format!("unknown instruction modifier `.{}`", clip(w)),
                        )
                    }
                };
                std::mem::replace(flag, true)
            };
            if dup {
                return self.err_at(
                    tk.start,
                    format!(
                        "more than one modifier of the kind of `.{w}` on `{}`",
                        ins.opcode.name()
                    ),
                );
            }
        }
        Ok(())
    }

    /// Modifiers against Table X.13 and the instruction descriptions (§2.X.4.1: a modifier
    /// the instruction does not support makes the program fail to load).
    pub(super) fn check_modifiers(&self, ins: &Instruction, off: usize) -> PResult<()> {
        let info = ins.opcode.info();
        let m = &ins.mods;
        let name = ins.opcode.name();
        let gp5 = self.level_at_least(NvLevel::Nv50);
        let bad = |what: String| self.err_at(off, format!("`{name}` does not take {what}"));
        if m.cc.is_some() && !info.cc {
            return bad("a condition code update".into());
        }
        if m.clamp.is_some() && !info.sat {
            return bad(format!("`.{}`", m.clamp.map_or("", Clamp::name)));
        }
        // NV_gpu_program4 §2.X.4.1: "Clamping modifiers are not supported on instructions
        // that do not produce floating-point results"; NV_gpu_program5 §2.X.4.1 keeps the
        // rule "with one exception", CVT, whose SAT clamps integer results (§ CVT). The
        // unpack instructions (UP2H, UP2US, UP4B, UP4UB) take the data type of their
        // operand and always produce floating-point results (§ UP2H ...).
        let float_result = matches!(
            ins.opcode,
            NvOpcode::Cvt | NvOpcode::Up2h | NvOpcode::Up2us | NvOpcode::Up4b | NvOpcode::Up4ub
        );
        if let (Some(c), Some(t)) = (m.clamp, m.ty) {
            if t.base() != BaseType::F && !float_result {
                return self.err_at(
                    off,
                    format!(
                        "saturation is not supported on fixed-point results: `{name}.{}` \
                         produces integers, so `.{}` cannot clamp them (NV_gpu_program4 §2.X.4.1)",
                        t.name(),
                        c.name()
                    ),
                );
            }
        }
        let arith = info.float != TypeSupport::No || info.int != TypeSupport::No;
        if (m.ntc || m.prec) && !(info.mods == ModKind::Arith && arith) {
            return bad(if m.ntc { "`.NTC`" } else { "`.PREC`" }.into());
        }
        if m.prec && !gp5 {
            return self.err_at(off, "`.PREC` requires a `!!NV*5.0` program");
        }
        // MUL (NV_gpu_program4 §2.X.8.Z): `S24`/`U24` imply the data type, so no data type
        // modifier may be given; `HI` needs `S` or `U`.
        match m.mul {
            Some(_) if ins.opcode != NvOpcode::Mul => {
                return bad(format!("`.{}`", m.mul.map_or("", MulMod::name)))
            }
            Some(MulMod::Hi) if !m.ty.is_some_and(|t| t.base() != BaseType::F) => {
                return self.err_at(off, "`MUL.HI` needs the `.S` or `.U` data type modifier")
            }
            Some(x @ (MulMod::S24 | MulMod::U24)) if m.ty.is_some() => {
                return self.err_at(
                    off,
                    format!(
                        "`.{}` implies the data type; no data type modifier may be added",
                        x.name()
                    ),
                )
            }
            _ => {}
        }
        if m.round.is_some() && info.mods != ModKind::Cvt {
            return bad("a rounding modifier".into());
        }
        if (m.coh || m.vol)
            && !matches!(
                info.mods,
                ModKind::Storage | ModKind::Atomic | ModKind::Image
            )
        {
            return bad(if m.coh { "`.COH`" } else { "`.VOL`" }.into());
        }
        if m.cta && (info.mods != ModKind::Membar || self.stage() != NvStage::Compute) {
            return bad("`.CTA` (MEMBAR of compute programs only)".into());
        }
        match m.atomic {
            Some(a)
                if info.mods == ModKind::Atomic
                    && !matches!(a, AtomicOp::Incr | AtomicOp::Decr | AtomicOp::Get) => {}
            Some(a)
                if info.mods == ModKind::Counter
                    && matches!(a, AtomicOp::Incr | AtomicOp::Decr | AtomicOp::Get) => {}
            Some(a) => return bad(format!("`.{}`", a.name())),
            None if matches!(info.mods, ModKind::Atomic | ModKind::Counter) => {
                return self.err_at(
                    off,
                    format!("`{name}` needs an atomic operation modifier (`.ADD`, `.EXCH`, ...)"),
                )
            }
            None => {}
        }
        if m.ty2.is_some() && info.mods != ModKind::Cvt {
            return bad("two data type modifiers".into());
        }
        match info.mods {
            ModKind::Cvt => {
                let ok = |t: Option<DataType>| {
                    t.is_some_and(|t| t.components() == 1 && t.bits().is_some())
                };
                if !ok(m.ty) || !ok(m.ty2) {
                    return self.err_at(
                        off,
                        "`CVT` needs two storage modifiers (result, operand) from F16 F32 F64 S8 S16 S32 S64 U8 U16 U32 U64",
                    );
                }
            }
            ModKind::Storage | ModKind::Atomic => match m.ty {
                Some(t) if t.bits().is_none() => {
                    return bad(format!(
                        "the data type `.{}` (it needs a storage modifier such as `.U32`)",
                        t.name()
                    ))
                }
                None => {
                    return self.err_at(
                        off,
                        format!("`{name}` needs a storage modifier (`.U32`, `.F32X4`, ...)"),
                    )
                }
                _ => {}
            },
            ModKind::Image => {}
            ModKind::Arith => {
                if let Some(t) = m.ty {
                    let col = if t.base() == BaseType::F {
                        info.float
                    } else {
                        info.int
                    };
                    let ok = t.is_operation_type()
                        && match t.bits() {
                            None => col != TypeSupport::No,
                            Some(32) => col != TypeSupport::No && gp5,
                            _ => col == TypeSupport::With64 && gp5,
                        };
                    if !ok {
                        return bad(format!("the data type modifier `.{}`", t.name()));
                    }
                }
            }
            ModKind::Counter | ModKind::Membar | ModKind::Plain => {
                if let Some(t) = m.ty {
                    return bad(format!("the data type modifier `.{}`", t.name()));
                }
            }
        }
        Ok(())
    }
}
