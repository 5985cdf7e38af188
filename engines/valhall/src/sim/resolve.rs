//! Operand resolution: turning the fields of a decoded [`Instr`] into the plain operand
//! descriptors of [`super::op`] (SEMANTICS.md §2). The per-instruction table is in
//! [`super::ops`].

use super::assume::{self, SpecialValue};
use super::float::{Clamp, Round};
use super::op::{Cond, Dst, FSrc, ISrc, Ins, Src64, VSrc, Val, Widen};
use super::SimError;
use crate::isa::{EnumField, InsDef, Isa, ModKind};
use crate::{Instr, SrcValue};

/// Resolves one decoded instruction (`index` = its position, for errors).
///
/// # Errors
/// [`SimError::Unsupported`] for instructions or modifier values the simulator does not
/// implement, [`SimError::ReservedFlow`] for a reserved flow value.
pub(crate) fn resolve(index: usize, instr: &Instr) -> Result<Ins, SimError> {
    let r = Res {
        index,
        instr,
        def: instr.def(),
        isa: crate::isa(),
    };
    let flow = r
        .isa
        .enums
        .get(r.isa.flow)
        .and_then(|e| e.text(u64::from(instr.flow)))
        .ok_or(SimError::ReservedFlow { index })?;
    let end = flow == "end";
    if !end && assume::flow_has_effect(instr.flow) {
        return Err(r.unsupported(format!("flow .{flow}")));
    }
    let op = super::ops::resolve_op(&r)?;
    Ok(Ins { op, end })
}

/// One instruction being resolved, with helpers for its fields.
pub(crate) struct Res<'a> {
    pub index: usize,
    pub instr: &'a Instr,
    pub def: &'static InsDef,
    pub isa: &'static Isa,
}

impl Res<'_> {
    /// The mnemonic.
    pub(crate) fn name(&self) -> &'static str {
        self.def.name.as_str()
    }

    /// An `Unsupported` error for this instruction.
    pub(crate) fn unsupported(&self, what: impl AsRef<str>) -> SimError {
        SimError::Unsupported {
            index: self.index,
            what: format!("{}: {}", self.def.name, what.as_ref()),
        }
    }

    fn modifier(&self, name: &str) -> Option<(usize, ModKind)> {
        self.def
            .modifiers
            .iter()
            .position(|m| m.name == name)
            .map(|i| (i, self.def.modifiers[i].kind))
    }

    /// Value of flag modifier `name` (false when the instruction has no such modifier).
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.modifier(name)
            .and_then(|(i, _)| self.instr.modifiers.get(i))
            .is_some_and(|&v| v != 0)
    }

    /// Text of enum modifier `name`, or `None` when the instruction has no such modifier.
    ///
    /// # Errors
    /// `Unsupported` for a value with no text (reserved).
    pub(crate) fn text(&self, name: &str) -> Result<Option<&'static str>, SimError> {
        let Some((i, ModKind::Enum(e))) = self.modifier(name) else {
            return Ok(None);
        };
        let v = self.instr.modifiers.get(i).copied().unwrap_or(0);
        self.isa.enums[e]
            .text(u64::from(v))
            .map(Some)
            .ok_or_else(|| self.unsupported(format!("reserved .{name} value {v}")))
    }

    /// Text of an enum modifier the instruction must have.
    pub(crate) fn need_text(&self, name: &str) -> Result<&'static str, SimError> {
        self.text(name)?
            .ok_or_else(|| self.unsupported(format!("no .{name} modifier")))
    }

    /// The round mode (`rte` when the instruction has none).
    pub(crate) fn round(&self) -> Result<Round, SimError> {
        match self.text("roundmode")? {
            None => Ok(Round::Rte),
            Some(t) => Round::from_text(t).ok_or_else(|| self.unsupported(format!("round .{t}"))),
        }
    }

    /// The output clamp (none when the instruction has none).
    pub(crate) fn clamp(&self) -> Result<Clamp, SimError> {
        match self.text("clamp")? {
            None => Ok(Clamp::None),
            Some(t) => Clamp::from_text(t).ok_or_else(|| self.unsupported(format!("clamp .{t}"))),
        }
    }

    /// The `cmp` condition; `int_only` rejects the float-only `gtlt` and `total`
    /// (SEMANTICS.md §5.1).
    pub(crate) fn cond(&self, int_only: bool) -> Result<Cond, SimError> {
        let t = self.need_text("cmp")?;
        Ok(match t {
            "eq" => Cond::Eq,
            "gt" => Cond::Gt,
            "ge" => Cond::Ge,
            "ne" => Cond::Ne,
            "lt" => Cond::Lt,
            "le" => Cond::Le,
            "gtlt" if !int_only => Cond::Gtlt,
            "total" if !int_only => Cond::Total,
            _ => return Err(self.unsupported(format!("condition .{t} on integers"))),
        })
    }

    /// The boolean encoding of `result_type` (SEMANTICS.md §5.2) for lanes of `width`
    /// bits (`f1` = 1.0 in f32 or f16; none for 8-bit lanes). `u1` is rejected.
    pub(crate) fn result_value(&self, width: u32) -> Result<u32, SimError> {
        let t = self.need_text("result_type")?;
        Ok(match (t, width) {
            ("i1", _) => 1,
            ("m1", 32) => 0xFFFF_FFFF,
            ("m1", w) => (1 << w) - 1,
            ("f1", 32) => 0x3F80_0000,
            ("f1", 16) => 0x3C00,
            _ => return Err(self.unsupported(format!("result type .{t}"))),
        })
    }

    /// Immediate `i` (sign-extended when signed).
    pub(crate) fn imm(&self, i: usize) -> Result<i64, SimError> {
        self.instr
            .imms
            .get(i)
            .copied()
            .ok_or_else(|| self.unsupported(format!("missing immediate {i}")))
    }

    /// The destination register, 32-bit.
    pub(crate) fn dst(&self) -> Result<Dst, SimError> {
        let d = self
            .instr
            .dest
            .ok_or_else(|| self.unsupported("missing destination"))?;
        Ok(Dst {
            reg: d.reg & 63,
            mask: assume::write_mask_bits(d.mask),
        })
    }

    /// The destination of a 64-bit result: an even register `rN` (N ≤ 62) written in full.
    pub(crate) fn dst64(&self) -> Result<u8, SimError> {
        let d = self.dst()?;
        if d.mask != 0xFFFF_FFFF {
            return Err(self.unsupported("64-bit result with a half write mask"));
        }
        if d.reg % 2 != 0 {
            return Err(self.unsupported(format!("64-bit destination r{} is not even", d.reg)));
        }
        Ok(d.reg)
    }

    fn src(&self, i: usize) -> Result<&crate::Source, SimError> {
        self.instr
            .srcs
            .get(i)
            .ok_or_else(|| self.unsupported(format!("missing source {i}")))
    }

    /// Text of a per-source enum field (`None` when the field is absent).
    fn field_text(
        &self,
        field: Option<EnumField>,
        value: Option<u8>,
    ) -> Result<Option<&'static str>, SimError> {
        let Some(f) = field else { return Ok(None) };
        let e = &self.isa.enums[f.enum_id];
        let v = value.map_or(e.default.unwrap_or(0) as u64, u64::from);
        e.text(v)
            .map(Some)
            .ok_or_else(|| self.unsupported(format!("reserved {} value {v}", e.name)))
    }

    /// The selection text of source `i`: its swizzle, widen/lanes/half-swizzle or lane
    /// field (whichever it has), or `None`.
    pub(crate) fn sel_text(&self, i: usize) -> Result<Option<&'static str>, SimError> {
        let s = self.src(i)?;
        let d = &self.def.srcs[i];
        if let Some(t) = self.field_text(d.swizzle, s.swizzle)? {
            return Ok(Some(t));
        }
        if let Some(t) = self.field_text(d.widen.map(|(_, f)| f), s.widen)? {
            return Ok(Some(t));
        }
        self.field_text(d.lane, s.lane)
    }

    /// The `Combine` text of source `i`.
    pub(crate) fn combine_text(&self, i: usize) -> Result<&'static str, SimError> {
        let s = self.src(i)?;
        Ok(self
            .field_text(self.def.srcs[i].combine, s.combine)?
            .unwrap_or("none"))
    }

    /// `(abs, neg)` of source `i`.
    pub(crate) fn absneg(&self, i: usize) -> Result<(bool, bool), SimError> {
        let s = self.src(i)?;
        Ok((s.abs, s.neg))
    }

    /// `.not` of source `i`.
    pub(crate) fn not(&self, i: usize) -> Result<bool, SimError> {
        Ok(self.src(i)?.not)
    }

    /// The low 32-bit word source `i` reads (SEMANTICS.md §1 FAU, §2.1 step 1).
    pub(crate) fn val(&self, i: usize) -> Result<Val, SimError> {
        Ok(self.word(self.src(i)?.value, false))
    }

    fn special(&self, page: u8, entry: u8) -> SpecialValue {
        // The decoder rejects reserved entries; treat any that slips through as 0.
        self.isa
            .special_name(page, entry)
            .map_or(SpecialValue::Const(0), assume::special_value)
    }

    /// Word `hi` (0 = low, 1 = high) of the 64-bit quantity a source value names, for
    /// non-register values; registers give `Reg(n + hi)` (checked by the caller).
    fn word(&self, v: SrcValue, hi: bool) -> Val {
        match v {
            SrcValue::Reg { reg, .. } => Val::Reg((reg & 63) + u8::from(hi)),
            SrcValue::Uniform(n) => {
                if !hi {
                    Val::Uni(n)
                } else if n < 255 {
                    Val::Uni(n + 1)
                } else {
                    Val::Imm(0)
                }
            }
            SrcValue::Imm(i) => {
                if hi {
                    Val::Imm(assume::IMMEDIATE_HIGH_WORD)
                } else {
                    Val::Imm(
                        self.isa
                            .immediates
                            .get(usize::from(i))
                            .copied()
                            .unwrap_or(0),
                    )
                }
            }
            SrcValue::Special {
                page,
                entry,
                hi: w1,
            } => {
                let sv = self.special(page, entry);
                match (w1, hi) {
                    (true, true) => Val::Imm(assume::SPECIAL_W1_HIGH_WORD),
                    (false, false) => match sv {
                        SpecialValue::LaneId => Val::LaneId,
                        SpecialValue::WarpId => Val::WarpId,
                        SpecialValue::Const(c) => Val::Imm(c as u32),
                    },
                    _ => match sv {
                        SpecialValue::Const(c) => Val::Imm((c >> 32) as u32),
                        _ => Val::Imm(0),
                    },
                }
            }
        }
    }

    /// The two words of a 64-bit source (an even register pair, a uniform pair, …).
    pub(crate) fn pair(&self, i: usize) -> Result<[Val; 2], SimError> {
        let v = self.src(i)?.value;
        if let SrcValue::Reg { reg, .. } = v {
            if reg % 2 != 0 || reg > 62 {
                return Err(self.unsupported(format!(
                    "64-bit source {i} in r{reg}: not an even register pair"
                )));
            }
        }
        Ok([self.word(v, false), self.word(v, true)])
    }

    /// A lane selection by name (`h0`, `h1`, `b0`–`b3`, or `none`/`w0` = whole word) as
    /// the `(shl, shr)` of [`ISrc`].
    fn select(&self, text: &str) -> Result<(u8, u8), SimError> {
        Ok(match text {
            "none" | "w0" => (0, 0),
            "h0" => (16, 16),
            "h1" => (0, 16),
            "b0" => (24, 24),
            "b1" => (16, 24),
            "b2" => (8, 24),
            "b3" => (0, 24),
            _ => return Err(self.unsupported(format!("lane selection .{text}"))),
        })
    }

    /// Source `i` as a 32-bit integer with its `Swizzles (32-bit)` / `Lane` selection,
    /// extended per `signed`.
    pub(crate) fn isrc(&self, i: usize, signed: bool) -> Result<ISrc, SimError> {
        let v = self.val(i)?;
        let (shl, shr) = match self.sel_text(i)? {
            None => (0, 0),
            Some(t) => self.select(t)?,
        };
        Ok(ISrc {
            v,
            shl,
            shr,
            signed,
        })
    }

    /// Source `i` of a `Lanes (8-bit)` kind (shift amounts, CLPER lane): byte X of
    /// `bXX`, zero-extended.
    pub(crate) fn lanes_src(&self, i: usize) -> Result<ISrc, SimError> {
        let v = self.val(i)?;
        let t = self.sel_text(i)?.unwrap_or("none");
        let byte = match t {
            "b00" | "b0" => "b0",
            "b11" | "b1" => "b1",
            "b22" | "b2" => "b2",
            "b33" | "b3" => "b3",
            "none" => "none",
            _ => return Err(self.unsupported(format!("lane selection .{t}"))),
        };
        let (shl, shr) = self.select(byte)?;
        Ok(ISrc {
            v,
            shl,
            shr,
            signed: false,
        })
    }

    /// Source `i` as a scalar 16-bit value taken from lane 0 of its `Swizzles (16-bit)`
    /// selection (`hXY` → half X, `bXY` → byte X), extended per `signed`.
    pub(crate) fn isrc16(&self, i: usize, signed: bool) -> Result<ISrc, SimError> {
        let v = self.val(i)?;
        let t = self.sel_text(i)?.unwrap_or("h01");
        // Lane 0 of the selection: half X of `hXY`, byte X of `bXY`.
        let sel = match t.as_bytes() {
            [b'h', b'0', _] => "h0",
            [b'h', b'1', _] => "h1",
            [b'b', d @ b'0'..=b'3', _] => ["b0", "b1", "b2", "b3"][usize::from(*d - b'0')],
            _ => return Err(self.unsupported(format!("16-bit selection .{t}"))),
        };
        let (shl, shr) = self.select(sel)?;
        Ok(ISrc {
            v,
            shl,
            shr,
            signed,
        })
    }

    /// Source `i` as an f32: `Widen` (or a 16-bit lane) then `.abs`/`.neg`.
    pub(crate) fn fsrc(&self, i: usize) -> Result<FSrc, SimError> {
        let v = self.val(i)?;
        let widen = match self.sel_text(i)? {
            None | Some("none") => Widen::None,
            Some("h0") | Some("h00") | Some("h01") => Widen::H0,
            Some("h1") | Some("h11") | Some("h10") => Widen::H1,
            Some(t) => return Err(self.unsupported(format!("float selection .{t}"))),
        };
        let (abs, neg) = self.absneg(i)?;
        Ok(FSrc {
            v,
            widen,
            and: if abs { 0x7FFF_FFFF } else { !0 },
            xor: if neg { 0x8000_0000 } else { 0 },
        })
    }

    /// Source `i` as a 64-bit integer with its `Swizzles (64-bit)` selection: `none`
    /// reads an even register pair (or uniform pair); `h0`…`w0` select from the low word
    /// and extend per `signed`.
    pub(crate) fn src64(&self, i: usize, signed: bool) -> Result<Src64, SimError> {
        let t = self.sel_text(i)?.unwrap_or("none");
        if t == "none" {
            let [lo, hi] = self.pair(i)?;
            return Ok(Src64 {
                lo: ISrc::plain(lo),
                hi: Some(hi),
            });
        }
        let (shl, shr) = self.select(t)?;
        Ok(Src64 {
            lo: ISrc {
                v: self.val(i)?,
                shl,
                shr,
                signed,
            },
            hi: None,
        })
    }

    /// Source `i` of a vector instruction with lanes of `width` bits (16 or 8): its
    /// `Swizzles (16-bit)`, `Swizzles (8-bit)` or `Half-swizzles (8-bit)` selection
    /// (identity when it has none), `signed` byte extension, and f16 `.abs`/`.neg`.
    pub(crate) fn vsrc(&self, i: usize, width: u32, signed: bool) -> Result<VSrc, SimError> {
        let v = self.val(i)?;
        let t = self.sel_text(i)?;
        let digits = |t: &str| -> Option<Vec<u8>> {
            t[1..]
                .bytes()
                .map(|b| b.checked_sub(b'0').filter(|&d| d < 4))
                .collect()
        };
        let bad = || self.unsupported(format!("vector selection .{}", t.unwrap_or("?")));
        let (shift, bits) = match (t, width) {
            (None, 16) => ([0, 16, 0, 0], 16),
            (None, _) => ([0, 8, 16, 24], 8),
            (Some(t), 16) if t.starts_with('h') && t.len() == 3 => {
                let d = digits(t).ok_or_else(bad)?;
                ([16 * d[0], 16 * d[1], 0, 0], 16)
            }
            (Some(t), 16) if t.starts_with('b') && t.len() == 3 => {
                let d = digits(t).ok_or_else(bad)?;
                ([8 * d[0], 8 * d[1], 0, 0], 8)
            }
            (Some(t), 8) if t.starts_with('b') && t.len() == 5 => {
                let d = digits(t).ok_or_else(bad)?;
                ([8 * d[0], 8 * d[1], 8 * d[2], 8 * d[3]], 8)
            }
            _ => return Err(bad()),
        };
        let (abs, neg) = self.absneg(i)?;
        let (and, xor) = if width == 16 {
            (
                if abs { 0x7FFF_7FFF } else { !0 },
                if neg { 0x8000_8000 } else { 0 },
            )
        } else {
            if abs || neg {
                return Err(self.unsupported("abs/neg on 8-bit lanes"));
            }
            (!0, 0)
        };
        Ok(VSrc {
            v,
            shift,
            bits,
            signed,
            and,
            xor,
        })
    }
}
