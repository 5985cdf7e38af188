//! The compiler's intermediate form: Valhall instructions over *virtual* registers, with
//! labels instead of branch offsets. [`VCode`] is built by the lowering, legalized for the
//! FAU rules of ENCODING.md §3.3 as it is built, and turned into machine words by
//! `regalloc` and `finish`.

use super::inline::InlineList;
use super::texts::TextCache;
use crate::isa::InsDef;
use crate::{isa, SrcValue, WriteMask};

/// Most sources an ISA.xml instruction has (`<src>` elements).
pub const MAX_SRCS: usize = 4;
/// Most immediates an ISA.xml instruction has (`<imm>` elements).
pub const MAX_IMMS: usize = 2;
/// Most virtual registers an instruction reads: its sources and a staging register.
pub const MAX_USES: usize = MAX_SRCS + 1;

/// A virtual 32-bit register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

/// Where a source value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    /// A virtual register.
    V(VReg),
    /// A physical register the ABI reserves (never allocated): the record pointer, the
    /// address scratch pair.
    P(u8),
    /// A FAU source: uniform word, immediate-table entry or special value (§3.3).
    Fau(SrcValue),
}

/// One source operand: value plus the modifiers the instruction's `<src>` may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VSrc {
    /// The value.
    pub val: Val,
    /// `.neg` (float sources with absneg).
    pub neg: bool,
    /// `.abs` (float sources with absneg).
    pub abs: bool,
    /// Text of the swizzle / widen / lanes / lane selection (`"b00"`, `"w0"`, `"h1"` ...);
    /// `None` = the enum default.
    pub sel: Option<&'static str>,
    /// `.not` (third source of the shifts).
    pub not: bool,
}

impl Default for VSrc {
    /// Register `r0` (a placeholder: [`super::inline::InlineList`] fills unused slots).
    fn default() -> VSrc {
        VSrc::new(Val::P(0))
    }
}

impl VSrc {
    /// A plain source.
    pub fn new(val: Val) -> VSrc {
        VSrc {
            val,
            neg: false,
            abs: false,
            sel: None,
            not: false,
        }
    }
    /// A virtual register source.
    pub fn v(r: VReg) -> VSrc {
        VSrc::new(Val::V(r))
    }
    /// This source negated (float sign flip).
    pub fn negated(mut self) -> VSrc {
        self.neg = !self.neg;
        self
    }
    /// This source's absolute value (float; clears a pending negation, as `|x|` does).
    pub fn abs(mut self) -> VSrc {
        self.abs = true;
        self.neg = false;
        self
    }
    /// This source with a lane/swizzle selection.
    pub fn sel(mut self, s: &'static str) -> VSrc {
        self.sel = Some(s);
        self
    }
    /// This source complemented (`.not`).
    pub fn complemented(mut self) -> VSrc {
        self.not = true;
        self
    }
}

/// The destination of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VDst {
    /// No destination.
    None,
    /// A virtual register (32-bit).
    V(VReg),
    /// A reserved physical register (64-bit destinations write the pair).
    P(u8),
}

/// A label (branch target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

/// The flow field of an instruction (ISA.xml enum `Flow`, ENCODING.md §9), plus the
/// compiler's mark for spill accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// `none`.
    None,
    /// `wait0`: wait for the loads of dependency slot 0.
    Wait0,
    /// `wait`: wait for every dependency slot.
    Wait,
    /// `reconverge`.
    Reconverge,
    /// `end`: the thread ends after this instruction.
    End,
    /// A spill access made by `regalloc` whose offset `finish` has yet to resolve;
    /// encoded as `none` after that.
    Spill,
}

impl Flow {
    /// Every value, in declaration order (`Flow::X as usize` indexes it).
    pub const ALL: [Flow; 6] = [
        Flow::None,
        Flow::Wait0,
        Flow::Wait,
        Flow::Reconverge,
        Flow::End,
        Flow::Spill,
    ];

    /// The text of the value in ISA.xml's `Flow` enum (`"spill"` is none of them).
    pub fn text(self) -> &'static str {
        match self {
            Flow::None => "none",
            Flow::Wait0 => "wait0",
            Flow::Wait => "wait",
            Flow::Reconverge => "reconverge",
            Flow::End => "end",
            Flow::Spill => "spill",
        }
    }
}

/// One instruction over virtual registers.
#[derive(Clone, Debug)]
pub struct VIns {
    /// The ISA.xml definition.
    pub def: &'static InsDef,
    /// Destination.
    pub dst: VDst,
    /// Destination write mask.
    pub mask: WriteMask,
    /// Sources, in ISA.xml order.
    pub srcs: InlineList<VSrc, MAX_SRCS>,
    /// The staging register of a 32-bit LOAD (written) or STORE (read): one register.
    pub staging: Option<Val>,
    /// Immediate fields, in ISA.xml order (a branch's offset is filled in by `finish`).
    pub imms: InlineList<i64, MAX_IMMS>,
    /// Modifiers by ISA.xml name: `(name, value text)`; flags use the text `""`.
    pub mods: Vec<(&'static str, &'static str)>,
    /// Flow field.
    pub flow: Flow,
    /// Branch target (BRANCHZ).
    pub target: Option<Label>,
    /// Weight for the step budget: how many TGSI instructions start here.
    pub weight: u32,
    /// Staging runs over physical registers in `<sr>` order, for messages with several
    /// runs or runs longer than one register (atomics); empty: `staging` describes the
    /// only run.
    pub runs: Vec<crate::StagingRun>,
    /// The instruction's role in the access log (atomics), if it has one.
    pub site: Option<super::memory::Site>,
}

impl VIns {
    /// Virtual registers this instruction reads: those of its sources in order, then the
    /// staging register if the instruction reads it (gathered in one list: the register
    /// allocator asks for them several times per instruction).
    pub fn uses(&self) -> InlineList<VReg, MAX_USES> {
        let mut uses = InlineList::new();
        for s in self.srcs.iter() {
            if let Val::V(r) = s.val {
                uses.push(r);
            }
        }
        if let Some(Val::V(r)) = self.staging {
            if self.def.staging.first().is_some_and(|s| s.read) {
                uses.push(r);
            }
        }
        uses
    }

    /// The virtual register this instruction writes, if any.
    pub fn def_reg(&self) -> Option<VReg> {
        let staging_write = self.def.staging.first().is_some_and(|s| s.write);
        match (self.dst, self.staging) {
            (VDst::V(r), _) => Some(r),
            (_, Some(Val::V(r))) if staging_write => Some(r),
            _ => None,
        }
    }

    /// Whether a write of the destination leaves part of the old value (write mask h0/h1).
    pub fn partial_write(&self) -> bool {
        self.mask != WriteMask::Full
    }
}

/// One item of the instruction stream.
// An instruction carries its operand lists inline (`compile::inline`); labels are few, and
// boxing the instructions would bring back an allocation per instruction.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Item {
    /// An instruction.
    Ins(VIns),
    /// A branch target.
    Label(Label),
}

/// A program under construction.
#[derive(Clone, Debug, Default)]
pub struct VCode {
    /// The instruction stream.
    pub items: Vec<Item>,
    /// Number of virtual registers made so far.
    pub vregs: u32,
    /// Number of labels made so far.
    pub labels: u32,
    /// Uniform words used for constants: word index → value.
    pub consts: Vec<u32>,
    /// First uniform word available for constants (after the CONST registers).
    pub const_base: u32,
    /// Weight to attach to the next instruction emitted.
    pub pending_weight: u32,
    /// Read-only input words already loaded in the current basic block: record byte
    /// offset → register (cleared at every label).
    pub input_cache: rustc_hash::FxHashMap<u32, VReg>,
    /// Constant words (indices into `consts`) the driver fills per run: never shared by
    /// [`VCode::konst`] / [`VCode::konst_pair`].
    pub reserved: Vec<usize>,
    /// TXQ's size words: (texture unit, first uniform word) of the four words width,
    /// height, depth / layers, level count the driver writes (`compile::tex`).
    pub tex_sizes: Vec<(u32, u32)>,
    /// The definitions [`VCode::ins`] looked up, by the address of the mnemonic.
    pub(super) defs: TextCache<&'static InsDef>,
}

/// The ISA.xml definition of `name`, through `defs` (one look-up in the ISA's name table
/// per mnemonic and program serves every instruction: the lowering names its instructions
/// with string literals).
///
/// # Panics
/// If `name` is not an ISA.xml instruction (a compiler bug caught by every test).
fn definition(defs: &mut TextCache<&'static InsDef>, name: &'static str) -> &'static InsDef {
    defs.get(0, name, "", || isa().instruction(name))
        .unwrap_or_else(|| panic!("no instruction {name} in ISA.xml"))
}

/// The first entry of the immediate table (ENCODING.md §3.2) holding `bits`, if any.
fn immediate_index(bits: u32) -> Option<u8> {
    // (value, entry) sorted, made once: a binary search instead of a scan per constant.
    static SORTED: std::sync::OnceLock<Vec<(u32, u8)>> = std::sync::OnceLock::new();
    let sorted = SORTED.get_or_init(|| {
        let mut v: Vec<(u32, u8)> = (isa().immediates.iter().enumerate())
            .map(|(i, &v)| (v, i as u8))
            .collect();
        v.sort_unstable();
        v
    });
    let at = sorted.partition_point(|&(v, _)| v < bits);
    sorted.get(at).filter(|&&(v, _)| v == bits).map(|&(_, i)| i)
}

/// The uniform page size in words (ENCODING.md §3.3).
const PAGE_WORDS: u32 = 64;
/// Uniform words the FAU can address (pages 0–3).
pub const MAX_UNIFORMS: u32 = 256;

impl VCode {
    /// A fresh virtual register.
    pub fn vreg(&mut self) -> VReg {
        self.vregs += 1;
        VReg(self.vregs - 1)
    }

    /// A fresh label.
    pub fn label(&mut self) -> Label {
        self.labels += 1;
        Label(self.labels - 1)
    }

    /// Places `l` here.
    pub fn place(&mut self, l: Label) {
        self.input_cache.clear();
        self.items.push(Item::Label(l));
    }

    /// A constant 32-bit word as a source: an immediate-table entry when the table has it
    /// (ENCODING.md §3.2), otherwise a uniform word (deduplicated).
    pub fn konst(&mut self, bits: u32) -> VSrc {
        if let Some(i) = immediate_index(bits) {
            return VSrc::new(Val::Fau(SrcValue::Imm(i)));
        }
        let reserved = &self.reserved;
        let k = match self
            .consts
            .iter()
            .enumerate()
            .position(|(k, &v)| v == bits && !reserved.contains(&k))
        {
            Some(k) => k,
            None => {
                self.consts.push(bits);
                self.consts.len() - 1
            }
        };
        let word = self.const_base as usize + k;
        // Words past the FAU's reach make the compiler refuse the program (see
        // `VCode::uniform_words`), so the value used here does not matter.
        VSrc::new(Val::Fau(SrcValue::Uniform(word.min(255) as u8)))
    }

    /// A constant 64-bit source (`lo` in the even uniform word, `hi` in the next one:
    /// ENCODING.md §3.3, a 64-bit FAU source is an aligned uniform pair), deduplicated.
    pub fn konst_pair(&mut self, lo: u32, hi: u32) -> VSrc {
        let base = self.const_base as usize;
        let found = (0..self.consts.len().saturating_sub(1)).find(|&k| {
            (base + k) % 2 == 0
                && self.consts[k] == lo
                && self.consts[k + 1] == hi
                && !self.reserved.contains(&k)
                && !self.reserved.contains(&(k + 1))
        });
        let k = match found {
            Some(k) => k,
            None => {
                if (base + self.consts.len()) % 2 != 0 {
                    self.consts.push(0);
                }
                self.consts.push(lo);
                self.consts.push(hi);
                self.consts.len() - 2
            }
        };
        VSrc::new(Val::Fau(SrcValue::Uniform((base + k).min(254) as u8)))
    }

    /// `n` uniform words the driver fills per run (zero until then); returns the first
    /// word's uniform index.
    pub fn reserve(&mut self, n: usize) -> u32 {
        let first = self.consts.len();
        for k in first..first + n {
            self.consts.push(0);
            self.reserved.push(k);
        }
        self.const_base + first as u32
    }

    /// Uniform words the program needs (CONST registers and constants).
    pub fn uniform_words(&self) -> u32 {
        self.const_base + self.consts.len() as u32
    }

    /// A float constant.
    pub fn f(&mut self, v: f32) -> VSrc {
        self.konst(v.to_bits())
    }

    /// A small shift amount / byte constant 0–31 for an 8-bit `lanes` source: byte `k % 4`
    /// of the immediate-table entry holding bytes `4⌊k/4⌋ … 4⌊k/4⌋+3`.
    pub fn lane_const(&mut self, k: u32) -> VSrc {
        let word = {
            let b = (k / 4) * 4;
            b | (b + 1) << 8 | (b + 2) << 16 | (b + 3) << 24
        };
        let sel = ["b00", "b11", "b22", "b33"][(k % 4) as usize];
        self.konst(word).sel(sel)
    }

    /// Emits `name` with destination `dst`, sources, modifiers; returns the destination.
    /// Sources are legalized first: modifiers the source cannot take are applied by extra
    /// instructions, and FAU sources beyond the limits of ENCODING.md §3.3 are moved to
    /// registers.
    ///
    /// # Panics
    /// If `name` is not an ISA.xml instruction (a compiler bug caught by every test).
    pub fn ins(
        &mut self,
        name: &'static str,
        dst: VDst,
        srcs: &[VSrc],
        mods: &[(&'static str, &'static str)],
    ) -> VDst {
        let def = definition(&mut self.defs, name);
        let mut srcs = InlineList::<VSrc, MAX_SRCS>::from_slice(srcs);
        for (i, s) in srcs.iter_mut().enumerate() {
            let sd = &def.srcs[i];
            if (s.neg && sd.neg.is_none()) || (s.abs && sd.abs.is_none()) {
                *s = self.apply_absneg(*s);
            }
        }
        self.legalize_fau(def, &mut srcs);
        let weight = std::mem::take(&mut self.pending_weight);
        self.items.push(Item::Ins(VIns {
            def,
            dst,
            mask: WriteMask::Full,
            srcs,
            staging: None,
            imms: InlineList::zeroed(def.imms.len()),
            mods: mods.to_vec(),
            flow: Flow::None,
            target: None,
            weight,
            runs: Vec::new(),
            site: None,
        }));
        dst
    }

    /// Emits `name` into a fresh virtual register and returns it as a source.
    pub fn op(
        &mut self,
        name: &'static str,
        srcs: &[VSrc],
        mods: &[(&'static str, &'static str)],
    ) -> VSrc {
        let r = self.vreg();
        self.ins(name, VDst::V(r), srcs, mods);
        VSrc::v(r)
    }

    /// The last emitted instruction.
    pub fn last_mut(&mut self) -> Option<&mut VIns> {
        match self.items.last_mut() {
            Some(Item::Ins(i)) => Some(i),
            _ => None,
        }
    }

    /// `|x|` and `-x` as bit operations (float sign manipulation, SEMANTICS.md §2.1 item 3)
    /// for sources that cannot carry the modifiers.
    pub fn apply_absneg(&mut self, s: VSrc) -> VSrc {
        let mut v = VSrc {
            neg: false,
            abs: false,
            ..s
        };
        if s.abs {
            let m = self.konst(0x7fff_ffff);
            let z = self.lane_const(0);
            v = self.op("LSHIFT_AND.i32", &[v, z, m], &[]);
        }
        if s.neg {
            let m = self.konst(0x8000_0000);
            let z = self.lane_const(0);
            v = self.op("LSHIFT_XOR.i32", &[v, z, m], &[]);
        }
        v
    }

    /// Moves FAU sources that break the per-instruction limits into registers: at most
    /// two distinct FAU source bytes, one page, and for ALU instructions all uniforms and
    /// specials in one 64-bit slot (ENCODING.md §3.3).
    fn legalize_fau(&mut self, def: &InsDef, srcs: &mut [VSrc]) {
        let alu = def.unit.is_alu();
        // At most two distinct FAU bytes and two slots are ever admitted.
        let mut bytes = InlineList::<Option<SrcValue>, 2>::new();
        let mut page: Option<u8> = None;
        let mut slots = InlineList::<Option<u32>, 2>::new();
        for src in srcs.iter_mut() {
            let Val::Fau(f) = src.val else { continue };
            if bytes.contains(&Some(f)) {
                continue;
            }
            let (p, slot) = match f {
                SrcValue::Uniform(u) => (Some(u32::from(u) / PAGE_WORDS), Some(u32::from(u) / 2)),
                SrcValue::Special { page, entry, .. } => (
                    Some(u32::from(page)),
                    Some(1000 + u32::from(page) * 16 + u32::from(entry)),
                ),
                _ => (None, None),
            };
            let page_ok = match (p, page) {
                (Some(p), Some(q)) => p == u32::from(q),
                _ => true,
            };
            let slot_ok = match slot {
                Some(s) => {
                    if alu {
                        slots.is_empty() || slots.contains(&Some(s))
                    } else {
                        slots.contains(&Some(s)) || slots.len() < 2
                    }
                }
                None => true,
            };
            if bytes.len() < 2 && page_ok && slot_ok {
                bytes.push(Some(f));
                if let Some(p) = p {
                    page = Some(p as u8);
                }
                if let Some(s) = slot {
                    if !slots.contains(&Some(s)) {
                        slots.push(Some(s));
                    }
                }
            } else {
                let r = self.vreg();
                let plain = VSrc::new(src.val);
                self.ins("MOV.i32", VDst::V(r), &[plain], &[]);
                src.val = Val::V(r);
            }
        }
    }

    /// A conditional branch to `target`: taken when `cond` is non-zero, or zero with `eq`.
    pub fn branch(&mut self, cond: VSrc, eq: bool, target: Label) {
        let mods: &[(&'static str, &'static str)] = if eq { &[("eq", "")] } else { &[] };
        self.ins("BRANCHZ", VDst::None, &[cond], mods);
        let last = self.last_mut().expect("just emitted");
        last.target = Some(target);
    }

    /// An unconditional jump (BRANCHZ on the non-zero immediate −1, ISA.xml BRANCHZ).
    pub fn jump(&mut self, target: Label) {
        let ones = self.konst(u32::MAX);
        self.branch(ones, false, target);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ENCODING.md Appendix B: 0 is entries 0 and 21 (the first is taken), 1.0 is entry
    /// 16, h π entry 31; other words are not in the table.
    #[test]
    fn immediate_entries_come_from_appendix_b() {
        assert_eq!(immediate_index(0), Some(0));
        assert_eq!(immediate_index(0x3F80_0000), Some(16));
        assert_eq!(immediate_index(0x4248_0000), Some(31));
        assert_eq!(immediate_index(0xFFFF_FFFF), Some(1));
        assert_eq!(immediate_index(0x1234_5678), None);
    }

    /// The cache gives ISA.xml's definition for each mnemonic, whichever literal names it.
    #[test]
    fn cached_definitions_are_the_named_ones() {
        let mut defs = TextCache::default();
        let owned: &'static str = String::from("FADD.f32").leak();
        for name in ["FADD.f32", "MOV.i32", "FADD.f32", owned, "NOP", "MOV.i32"] {
            let def = definition(&mut defs, name);
            assert_eq!(def.name, name);
        }
    }
}
