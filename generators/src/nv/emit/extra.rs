//! Memory, texture and vote statements of random NV programs, valid and mostly defined by
//! construction.
//!
//! **Addresses.** Every offset is computed into the scratch TEMP `sc.x` by masking a
//! random source (`AND.U sc.x, src, mask`), so it is aligned to the access size
//! (NV_gpu_program5 §2.X.4.5: "must be a multiple of the size"; misaligned accesses are
//! undefined) and inside its area:
//!
//! * the **data area**, bytes 0..32: LOAD / LDS / LDB / LDC and STORE / STS / STB of
//!   U32 S32 F32 (mask 28), X2 (mask 24), X4 (mask 16); loads also U8 S8 (31), U16 S16
//!   (30). Stores of 8 or 16 bits are left out (a read-modify-write of the dword);
//! * the **atomic area**, bytes 64..96 (mask 28, plus 64): ATOM / ATOMS / ATOMB only, so no
//!   dword is both stored to and updated atomically (what the atomic comparator judges,
//!   README "64-bit values and memory");
//! * the **wide atomic area**, bytes 32..64 of global memory (mask 24, plus 32): 64-bit
//!   ATOM (ADD MIN MAX AND OR XOR EXCH, U64 / S64) of `--64bit` programs only, into a LONG
//!   variable's `x`;
//! * compute result slots from [`crate::nv::features::GLOBAL_HEAD_BYTES`] (`stage.rs`).
//!
//! Global addresses are the region's base plus the offset: `ADD.U sc.x, sc.x, base` (a
//! 32-bit address) or, with 64-bit addresses, `CVT.U64.U32 ga.x, sc.x` and `ADD.U64 ga.x,
//! ga.x, base` (base above 4 GiB). Shared memory (96 bytes), STORAGE (96 bytes) and
//! CBUFFER (64 bytes) take the offset as an index (`sm[sc.x]`, `sb[sc.x + 64]`, `cb[sc.x]`;
//! LDC also a literal index, sometimes past the buffer: undefined). Races between
//! invocations on the data area are undefined and the oracle reports them so.
//!
//! Atomics: ADD (U32 S32 F32), MIN MAX (U32 S32), AND OR XOR (U32 S32), EXCH (U32 S32
//! F32), CSWAP (U32 S32; compare with the operand's x, store its y), IWRAP DWRAP (U32);
//! the result is written to `x` only (y, z, w are undefined, § ATOM).
//!
//! **Textures** (NV_gpu_program4 §2.X.4.4, §2.X.8.Z): one or two units, each with one
//! target and one data type (a second would fail to load); TEX / TXB / TXL / TXP take float
//! coordinates (a source, or its fraction `FRC` so coordinates land inside the texture),
//! TXF integer coordinates masked to the texture's size (and sometimes one past it), TXQ a
//! level. BUFFER units take TXF and TXQ only (Table X.17), RECT no TXB / TXL (one level),
//! arrays no TXP; fragment programs sample mipmapped units only with TXL and TXF (the
//! oracle does not model implicit-derivative level selection). The data type is the unit's format's (§2.X.4.4: another would be
//! undefined).
//!
//! **Votes**: TGALL / TGANY / TGEQ with a type, sometimes `.CC`; a third read a
//! `program.local` parameter, uniform over the thread group, so their result is decided.

use super::wide::LONGS;
use super::{Gen, Ty};
use crate::choices::Choices;
use crate::nv::features::{TextureSpec, GLOBAL_BASE_32, GLOBAL_BASE_64};
use shaderdiff_model::texture::{Format, Target, Wrap};

/// Load storage types with their offset masks (module docs).
const LOADS: &[(&str, u32)] = &[
    ("U32", 28),
    ("S32", 28),
    ("F32", 28),
    ("U32X2", 24),
    ("F32X2", 24),
    ("U32X4", 16),
    ("S32X4", 16),
    ("U8", 31),
    ("S8", 31),
    ("U16", 30),
    ("S16", 30),
];
/// Store storage types with their offset masks.
const STORES: &[(&str, u32)] = &[
    ("U32", 28),
    ("S32", 28),
    ("F32", 28),
    ("U32X2", 24),
    ("F32X4", 16),
    ("U32X4", 16),
];
/// Atomic operations with their storage types.
const ATOMICS: &[(&str, &str)] = &[
    ("ADD", "U32"),
    ("ADD", "S32"),
    ("ADD", "F32"),
    ("MIN", "U32"),
    ("MIN", "S32"),
    ("MAX", "U32"),
    ("MAX", "S32"),
    ("AND", "U32"),
    ("OR", "S32"),
    ("XOR", "U32"),
    ("EXCH", "U32"),
    ("EXCH", "F32"),
    ("CSWAP", "U32"),
    ("CSWAP", "S32"),
    ("IWRAP", "U32"),
    ("DWRAP", "U32"),
];

/// 64-bit atomics of random `--64bit` programs (NV_shader_atomic_int64; CSWAP, whose
/// operand is a pair, is left to the spec suite).
const ATOMICS_64: &[(&str, &str)] = &[
    ("ADD", "U64"),
    ("ADD", "S64"),
    ("MIN", "U64"),
    ("MIN", "S64"),
    ("MAX", "U64"),
    ("MAX", "S64"),
    ("AND", "U64"),
    ("OR", "S64"),
    ("XOR", "U64"),
    ("EXCH", "S64"),
];
/// First byte of the global region's **wide atomic area** (bytes 32..64, 8-byte aligned
/// offsets: mask 24): only 64-bit atomics touch it.
const WIDE_ATOMIC_AREA: u32 = 32;

/// The NV `<texTarget>` name of a target: the inputs file's spelling ([`Target::name`],
/// NV_gpu_program4's names), but ARRAYCUBE for CUBEARRAY.
fn target_name(t: Target) -> &'static str {
    match t {
        Target::CubeArray => "ARRAYCUBE",
        _ => t.name(),
    }
}

/// The targets random textures are drawn from (in this order, which keeps the `nv-0.2.0`
/// streams): the single-sampled, non-cube targets every texture instruction the generator
/// emits can sample. Multisample (TXFMS only), cube and SHADOW targets are covered by the
/// spec suites and table tests.
const GENERATED_TARGETS: [Target; 7] = [
    Target::T1D,
    Target::T2D,
    Target::T3D,
    Target::Rect,
    Target::Array1D,
    Target::Array2D,
    Target::Buffer,
];

/// The data type modifier that matches a format.
fn format_type(f: Format) -> &'static str {
    match f {
        Format::Rgba32F => "F",
        Format::Rgba32Ui => "U",
        Format::Rgba32I => "S",
    }
}

/// A random texture for `texture[unit]` (module docs): target, format, a small size, up
/// to 3 levels where the target has levels.
pub(super) fn texture_spec(c: &mut Choices, unit: u32) -> TextureSpec {
    let target = c.pick(&GENERATED_TARGETS);
    let format = [Format::Rgba32F, Format::Rgba32Ui, Format::Rgba32I][c.below(3)];
    let mut d = || c.range(1, 5) as u32;
    let size = match target {
        Target::T1D | Target::Buffer => [d(), 1, 1],
        Target::T2D | Target::Rect => [d(), d(), 1],
        Target::T3D => [d().min(3), d().min(3), d().min(3)],
        Target::Array1D => [d(), d().min(3), 1],
        Target::Array2D | Target::MsArray2D => [d(), d(), d().min(3)],
        Target::Ms2D => [d(), d(), 1],
        Target::Cube => {
            let w = d();
            [w, w, 6]
        }
        Target::CubeArray => {
            let w = d();
            [w, w, 6 * d().min(3)]
        }
    };
    let single = matches!(target, Target::Rect | Target::Buffer);
    let largest = match target {
        Target::T1D | Target::Array1D => size[0],
        Target::T3D => size[0].max(size[1]).max(size[2]),
        _ => size[0].max(size[1]),
    };
    // A full mipmap chain has 1 + floor(log2(largest)) levels.
    let chain = 1 + (31 - largest.leading_zeros()) as usize;
    let levels = if single { 1 } else { c.range(1, chain.min(3)) };
    let wrap = if target == Target::Rect || c.chance(50) {
        Wrap::ClampToEdge
    } else {
        Wrap::Repeat
    };
    TextureSpec {
        unit,
        target,
        format,
        size,
        levels,
        wrap,
    }
}

impl Gen<'_, '_> {
    /// Declarations of the features' variables (after the TEMPs).
    pub(super) fn extra_declarations(&mut self) {
        let x = &self.x;
        let scratch = x.global
            || x.shared
            || x.res.cbuffer.is_some()
            || x.res.storage.is_some()
            || !x.res.textures.is_empty();
        if scratch {
            self.line("TEMP sc");
        }
        if self.x.addr64 {
            self.line("LONG TEMP ga");
        }
        if self.x.shared {
            self.line("SHARED sm[] = { program.sharedmem }");
        }
        if let Some(b) = self.x.res.cbuffer {
            self.line(&format!("CBUFFER cb[] = {{ program.buffer[{b}] }}"));
        }
        if let Some(b) = self.x.res.storage {
            self.line(&format!("STORAGE sb[] = {{ program.storage[{b}] }}"));
        }
        if self.x.branch {
            self.line("TEMP bc0, bc1");
        }
    }

    /// One feature statement, the feature drawn among those the program has.
    pub(super) fn extra_statement(&mut self) {
        let mut options: Vec<u8> = Vec::new();
        let x = &self.x;
        for (on, k) in [
            (x.global, 0),
            (x.shared, 1),
            (x.res.cbuffer.is_some(), 2),
            (x.res.storage.is_some(), 3),
            (!x.res.textures.is_empty(), 4),
            (x.vote, 5),
            (x.branch && self.depth == 0 && x.bra_nest < 2, 6),
            (self.kind == super::NvKind::NvGeometry, 7),
        ] {
            if on {
                options.push(k);
            }
        }
        if options.is_empty() {
            return self.alu();
        }
        match self.c.pick(&options) {
            0 => self.memory_op("global"),
            1 => self.memory_op("shared"),
            2 => self.ldc(),
            3 => self.memory_op("storage"),
            4 => self.texture_op(),
            5 => self.vote(),
            6 => self.bra_region(),
            _ => self.geometry_statement(),
        }
    }

    /// A plain TEMP destination with a write mask (no condition).
    fn plain_dst(&mut self) -> String {
        let t = self.temps[self.c.below(self.temps.len())].clone();
        format!("{t}{}", self.write_mask())
    }

    /// A named source (no literal), for stores.
    fn named_src(&mut self) -> String {
        let name = self.sources[self.c.below(self.sources.len())].clone();
        format!("{name}{}", self.swizzle())
    }

    /// `sc.x` = a masked source (an aligned offset in `0..=mask`), plus `add`.
    fn offset(&mut self, mask: u32, add: u32) {
        let s = self.src(Ty::U, true);
        self.line(&format!("AND.U sc.x, {s}, {mask}"));
        if add > 0 {
            self.line(&format!("ADD.U sc.x, sc.x, {add}"));
        }
    }

    /// The global address of region offset `sc.x` (module docs): `sc.x` or `ga.x`.
    pub(super) fn global_address(&mut self) -> String {
        if self.x.addr64 {
            self.line("CVT.U64.U32 ga.x, sc.x");
            self.line(&format!("ADD.U64 ga.x, ga.x, {GLOBAL_BASE_64}"));
            "ga.x".into()
        } else {
            self.line(&format!("ADD.U sc.x, sc.x, {GLOBAL_BASE_32}"));
            "sc.x".into()
        }
    }

    /// A load, store, atomic or barrier on global (`LOAD` ...), shared (`LDS` ...) or
    /// storage (`LDB` ...) memory (module docs).
    fn memory_op(&mut self, space: &str) {
        self.budget = self.budget.saturating_sub(1);
        let (load, store, atom) = match space {
            "global" => ("LOAD", "STORE", "ATOM"),
            "shared" => ("LDS", "STS", "ATOMS"),
            _ => ("LDB", "STB", "ATOMB"),
        };
        // The operand naming the memory at offset sc.x (+ `add` for indexed spaces).
        let place = |g: &mut Self, add: u32| -> String {
            match space {
                "global" => g.global_address(),
                "shared" if add > 0 => format!("sm[sc.x + {add}]"),
                "shared" => "sm[sc.x]".into(),
                _ if add > 0 => format!("sb[sc.x + {add}]"),
                _ => "sb[sc.x]".into(),
            }
        };
        match self.c.below(7) {
            0 | 1 => {
                let (ty, mask) = self.c.pick(LOADS);
                self.offset(mask, 0);
                let a = place(self, 0);
                let d = self.plain_dst();
                self.line(&format!("{load}.{ty} {d}, {a}"));
            }
            2 => {
                let (ty, mask) = self.c.pick(STORES);
                self.offset(mask, 0);
                let a = place(self, 0);
                let s = self.named_src();
                self.line(&format!("{store}.{ty} {s}, {a}"));
            }
            3..=5 if self.wide && space == "global" && self.c.chance(30) => {
                // A 64-bit atomic (NV_shader_atomic_int64) on the wide area, into one
                // LONG variable's `x` (its y, z, w keep their values).
                let (op, ty) = self.c.pick(ATOMICS_64);
                self.offset(24, WIDE_ATOMIC_AREA);
                let a = place(self, 0);
                let long = self.c.pick(LONGS);
                let s = self.wide_src(ty, true);
                self.line(&format!("{atom}.{op}.{ty} {long}.x, {s}, {a}"));
            }
            3..=5 => {
                let (op, ty) = self.c.pick(ATOMICS);
                // Global offsets carry the area in the address; indexed spaces in the index.
                let global = space == "global";
                self.offset(28, if global { 64 } else { 0 });
                let a = place(self, if global { 0 } else { 64 });
                let t = self.temps[self.c.below(self.temps.len())].clone();
                let s = self.src(if ty == "F32" { Ty::F } else { Ty::U }, true);
                self.line(&format!("{atom}.{op}.{ty} {t}.x, {s}, {a}"));
            }
            _ if space == "shared" && self.depth == 0 && !self.x.branch => self.line("BAR"),
            _ => self.line("MEMBAR"),
        }
    }

    /// LDC from the CBUFFER at a masked or literal byte index.
    fn ldc(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let (ty, mask) = self.c.pick(LOADS);
        let d = self.plain_dst();
        if self.c.chance(30) {
            // A literal index, aligned; past the 64 bytes now and then (undefined).
            let align = (mask ^ 0x1f) + 1;
            let i = self.c.below(80 / align as usize) as u32 * align;
            self.line(&format!("LDC.{ty} {d}, cb[{i}]"));
        } else {
            self.offset(mask, 0);
            self.line(&format!("LDC.{ty} {d}, cb[sc.x]"));
        }
    }

    /// One texture instruction on one of the program's units (module docs).
    fn texture_op(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let k = self.c.below(self.x.res.textures.len());
        let t = self.x.res.textures[k];
        // The unit's one data type: its format's.
        let ty = format_type(t.format);
        let ops: &[&str] = match t.target {
            Target::Buffer => &["TXF", "TXQ"],
            Target::Rect => &["TEX", "TXP", "TXF", "TXQ"],
            Target::Array1D | Target::Array2D => &["TEX", "TXB", "TXL", "TXF", "TXQ"],
            _ => &["TEX", "TXB", "TXL", "TXP", "TXF", "TXQ"],
        };
        // The oracle does not model the implicit-derivative level of detail of fragment
        // programs: there TEX / TXB / TXP only sample single-level textures.
        let implicit = self.kind == super::NvKind::NvFragment && t.levels > 1;
        let ops: Vec<&str> = ops
            .iter()
            .copied()
            .filter(|o| !(implicit && matches!(*o, "TEX" | "TXB" | "TXP")))
            .collect();
        let op = self.c.pick(&ops);
        let target = target_name(t.target);
        let unit = format!("texture[{}]", t.unit);
        let d = self.plain_dst();
        match op {
            "TXQ" => {
                let s = self.src(Ty::S, true);
                self.line(&format!("AND.U sc, {s}, 3"));
                self.line(&format!("TXQ {d}, sc, {unit}, {target}"));
            }
            "TXF" => {
                // Coordinates masked to the next power of two above each size (so one past
                // the edge now and then, undefined), level in w below the level count + 1.
                let m = t.size.map(|s| s.next_power_of_two().max(2) - 1);
                let s = self.src(Ty::S, true);
                let lv = if t.levels > 1 { 3 } else { 0 };
                self.line(&format!(
                    "AND.U sc, {s}, {{{}, {}, {}, {lv}}}",
                    m[0], m[1], m[2]
                ));
                self.line(&format!("TXF.{ty} {d}, sc, {unit}, {target}"));
            }
            _ => {
                let s = self.src(Ty::F, true);
                let coord = if self.c.chance(60) {
                    self.line(&format!("FRC.F sc, {s}"));
                    if t.target == Target::Rect {
                        // Unnormalised: scale the fraction by the size.
                        self.line(&format!(
                            "MUL.F sc, sc, {{{}, {}, 1, 1}}",
                            t.size[0], t.size[1]
                        ));
                    }
                    "sc".to_string()
                } else {
                    s
                };
                self.line(&format!("{op}.{ty} {d}, {coord}, {unit}, {target}"));
            }
        }
    }

    /// TGALL / TGANY / TGEQ (module docs).
    fn vote(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let op = ["TGALL", "TGANY", "TGEQ"][self.c.below(3)];
        let ty = [Ty::F, Ty::S, Ty::U][self.c.below(3)];
        let cc = if self.c.chance(25) { ".CC" } else { "" };
        let d = self.dst();
        let s = if self.c.chance(33) {
            format!("p0{}", self.swizzle())
        } else {
            self.src(ty, true)
        };
        self.line(&format!("{op}{}{cc} {d}, {s}", ty.suffix()));
    }
}
