//! Geometry and compute programs, and the per-program feature draw ([`Extra::draw`]:
//! NV programs draw every feature but BRA, ARB vertex programs BRA only).
//!
//! * **Geometry** (`!!NVgp5.0`, NV_geometry_program4 §2.X.7.Y, NV_gpu_program5): after the
//!   header `PRIMITIVE_IN` (POINTS, LINES, LINES_ADJACENCY, TRIANGLES,
//!   TRIANGLES_ADJACENCY), `PRIMITIVE_OUT` (POINTS, LINE_STRIP, TRIANGLE_STRIP) and
//!   `VERTICES_OUT n` (1 to 6); attributes are `ATTRIB a = vertex[m].attrib[k]` with `m`
//!   below the input primitive's vertex count (Table X.2); results are
//!   `result.attrib[n]`. EMIT / ENDPRIM (and EMITS with POINTS output) appear as
//!   statements, and the epilogue writes every result and EMITs (results are undefined
//!   after each EMIT, §2.14.6.3, so an EMIT of unwritten results emits undefined values,
//!   which the oracle reports as such).
//! * **Compute** (`!!NVcp5.0`, NV_compute_program5): `GROUP_SIZE g` (1, 2, 4 or 8, which
//!   divides the 64 invocations a BAR round holds), the `invocation.localid` and
//!   `invocation.globalid` bindings (Table X.1) as sources, no attributes and no results:
//!   the epilogue stores the result TEMP `r0` and every TEMP, 16 bytes each, into the
//!   invocation's own slot of the global region (`emit/extra.rs`), at
//!   `GLOBAL_HEAD_BYTES + globalid.x * slot`; slots never overlap, so the stores do not
//!   race. A share of the compute programs ([`NvFeatures::storage_compute`]) store their
//!   results with `STB.U32X4` into the STORAGE buffer instead, at
//!   `STORAGE_BYTES + globalid.x * slot` (after its data and atomic areas), and have no
//!   global memory, CBUFFER or texture: what engine `nvidia` dispatches. Their statements
//!   read the `invocation.*` bindings through copies `lid`, `gid` whose `w` is 0 (Table
//!   X.1 of NV_compute_program5 leaves `w` undefined).
//! * **Defined start** (every program): before the first statement every TEMP is set to 0
//!   and, in NV programs, both condition codes (CC0, CC1) from a 0: TEMPs and condition
//!   codes are undefined when a program starts (NV_gpu_program4 §2.X.3.4, §2.X.3.7;
//!   ARB_vertex_program issue 16), so a statement never reads one before a write.
//! * **Shared memory** (compute): its contents are undefined when a work group starts
//!   (NV_compute_program5 §2.X.3.Y), so the prologue zeroes it, each invocation its own
//!   `96 / g` bytes at `localid.x * 96 / g`, then `BAR`: every later access finds defined
//!   bytes, on the driver as in the oracle.

use super::{Gen, NvKind};
use crate::choices::Choices;
use crate::nv::features::{
    NvFeatures, Resources, GLOBAL_BASE_32, GLOBAL_BASE_64, GLOBAL_HEAD_BYTES, STORAGE_BYTES,
};

/// Bytes of compute shared memory (`SHARED_MEMORY`): the data and atomic areas of
/// `emit/extra.rs`.
const SHARED_BYTES: usize = 96;

/// Input primitives with their vertex counts (NV_geometry_program4 Table X.y).
const PRIMITIVES_IN: &[(&str, u32)] = &[
    ("POINTS", 1),
    ("LINES", 2),
    ("LINES_ADJACENCY", 4),
    ("TRIANGLES", 3),
    ("TRIANGLES_ADJACENCY", 6),
];

/// The features one program uses, drawn once after its kind, and the state their
/// statements keep.
#[derive(Clone, Debug, Default)]
pub(in crate::nv) struct Extra {
    /// Global memory, with 64-bit addresses when `addr64`.
    pub global: bool,
    /// 64-bit global addresses (a LONG TEMP `ga`), else 32-bit (`sc.x`).
    pub addr64: bool,
    /// Shared memory (compute programs).
    pub shared: bool,
    /// Compute results in the STORAGE buffer instead of global memory (module docs).
    pub storage_results: bool,
    /// Compute programs: invocations in a work group (`GROUP_SIZE`).
    pub group: usize,
    /// Votes.
    pub vote: bool,
    /// BRA regions.
    pub branch: bool,
    /// Geometry output primitive is POINTS (EMITS allowed).
    pub points_out: bool,
    /// What the inputs must provide.
    pub res: Resources,
    /// Labels used so far.
    pub labels: usize,
    /// Depth of BRA regions being built.
    pub bra_nest: usize,
}

impl Extra {
    /// Draws the features of a program of `kind` (nothing for ARB programs, and no draw for
    /// a knob at 0).
    pub fn draw(c: &mut Choices, kind: NvKind, f: &NvFeatures) -> Extra {
        let mut x = Extra::default();
        let mut on = |p: u32| p > 0 && c.chance(p);
        if kind == NvKind::ArbVertex {
            // BRA needs `OPTION NV_vertex_program2;` in an ARB vertex program.
            x.branch = on(f.branch);
            return x;
        }
        if !kind.is_nv() {
            return x;
        }
        let compute = kind == NvKind::NvCompute;
        // STORAGE results: no global memory, CBUFFER or texture (module docs).
        x.storage_results = compute && on(f.storage_compute);
        let plain = !x.storage_results;
        x.global = if compute { plain } else { on(f.global_memory) };
        x.shared = compute && on(f.shared_memory);
        let cbuffer = plain && on(f.cbuffer);
        let storage = x.storage_results || on(f.storage);
        let texture = plain && on(f.texture);
        x.vote = on(f.vote);
        if x.global {
            x.addr64 = c.chance(30);
            let base = if x.addr64 {
                GLOBAL_BASE_64
            } else {
                GLOBAL_BASE_32
            };
            x.res.global = Some((base, 0));
        }
        if cbuffer {
            x.res.cbuffer = Some(c.below(4) as u32);
        }
        if storage {
            x.res.storage = Some(c.below(4) as u32);
        }
        if texture {
            let n = c.range(1, 2);
            for unit in 0..n as u32 {
                let t = super::extra::texture_spec(c, unit);
                x.res.textures.push(t);
            }
        }
        x
    }

    /// Whether any feature statement can be drawn.
    pub fn any(&self, kind: NvKind) -> bool {
        self.global
            || self.shared
            || self.vote
            || self.branch
            || self.res.cbuffer.is_some()
            || self.res.storage.is_some()
            || !self.res.textures.is_empty()
            || kind == NvKind::NvGeometry
    }
}

impl Gen<'_, '_> {
    /// Stage declarations right after the header: geometry primitives and output count,
    /// compute group size and shared memory, the option BRA needs.
    pub(super) fn stage_declarations(&mut self) {
        match self.kind {
            NvKind::NvGeometry => {
                let (p, n) = self.c.pick(PRIMITIVES_IN);
                self.vertices_in = n;
                let out = ["POINTS", "LINE_STRIP", "TRIANGLE_STRIP"][self.c.below(3)];
                self.x.points_out = out == "POINTS";
                let max = self.c.range(1, 6);
                self.line(&format!("PRIMITIVE_IN {p}"));
                self.line(&format!("PRIMITIVE_OUT {out}"));
                self.line(&format!("VERTICES_OUT {max}"));
            }
            NvKind::NvCompute => {
                let g = [1, 2, 4, 8][self.c.below(4)];
                self.x.group = g;
                self.line(&format!("GROUP_SIZE {g}"));
                if self.x.shared {
                    self.line(&format!("SHARED_MEMORY {SHARED_BYTES}"));
                }
            }
            NvKind::ArbVertex if self.x.branch => self.line("OPTION NV_vertex_program2"),
            _ => {}
        }
    }

    /// The binding of generic attribute `i` for this stage.
    pub(super) fn attribute_binding(&mut self, i: usize) -> String {
        match self.kind {
            NvKind::NvFragment | NvKind::ArbFragment => format!("fragment.texcoord[{i}]"),
            NvKind::NvGeometry => {
                let m = self.c.below(self.vertices_in.max(1) as usize);
                let k = self.c.below(3);
                format!("vertex[{m}].attrib[{k}]")
            }
            _ => format!("vertex.attrib[{i}]"),
        }
    }

    /// Compute programs: the result TEMP and the `invocation.*` sources (STORAGE results:
    /// their copies `lid`, `gid` with `w` = 0, module docs).
    pub(super) fn compute_declarations(&mut self) {
        self.line("TEMP r0");
        self.outputs.push("r0".into());
        if self.x.storage_results {
            self.line("TEMP lid, gid");
            self.sources.extend(["lid".into(), "gid".into()]);
            return;
        }
        for b in ["invocation.localid", "invocation.globalid"] {
            self.sources.push(b.into());
        }
    }

    /// Bytes of one compute invocation's result slot: `r0` and every TEMP.
    pub(super) fn slot_bytes(&self) -> usize {
        16 * (1 + self.temps.len())
    }

    /// Sets every TEMP the statements read (`t0`, `t1`, ...) to 0 and, in NV programs, both
    /// condition codes (CC0, CC1: all four components from a 0, so ZF set and SF, OF, CF
    /// clear), so that no statement reads a TEMP or a condition code before a write:
    /// TEMPs and condition codes are undefined when a program starts (NV_gpu_program4
    /// §2.X.3.4, §2.X.3.7; ARB_vertex_program issue 16), the oracle reports what is
    /// computed from them as undefined, and a real driver may start them anywhere. ARB-only
    /// mode sets its TEMPs in its declarations (its stream is unchanged).
    pub(super) fn defined_start(&mut self) {
        if self.arb_extra {
            return;
        }
        let nv = self.kind.is_nv();
        for (k, t) in self.temps.clone().iter().enumerate() {
            if !nv {
                self.line(&format!("MOV {t}, 0"));
            } else if k == 0 {
                self.line(&format!("MOV.U.CC1 {t}, 0"));
                self.line(&format!("MOV.U.CC {t}, 0"));
            } else {
                self.line(&format!("MOV.U {t}, 0"));
            }
        }
    }

    /// Before the first statement (module docs): compute programs with STORAGE results set
    /// `lid` / `gid`; then every program defines its TEMPs and condition codes
    /// ([`Gen::defined_start`]); compute programs with shared memory zero it, then `BAR`.
    pub(super) fn stage_prologue(&mut self) {
        if self.kind == NvKind::NvCompute && self.x.storage_results {
            for (t, b) in [
                ("lid", "invocation.localid"),
                ("gid", "invocation.globalid"),
            ] {
                self.line(&format!("MOV.U {t}, 0"));
                self.line(&format!("MOV.U {t}.xyz, {b}"));
            }
        }
        self.defined_start();
        if self.kind != NvKind::NvCompute {
            return;
        }
        if self.x.shared {
            let share = SHARED_BYTES / self.x.group.max(1);
            // The widest store that divides the share (so each one is aligned to its size).
            let (ty, w) = [("U32X4", 16), ("U32X2", 8), ("U32", 4)]
                .into_iter()
                .find(|&(_, w)| share.is_multiple_of(w))
                .unwrap_or(("U32", 4));
            self.line("MOV.U sc, 0");
            self.line(&format!("MUL.U sc.x, invocation.localid.x, {share}"));
            for at in (0..share).step_by(w) {
                let place = if at == 0 {
                    "sm[sc.x]".to_string()
                } else {
                    format!("sm[sc.x + {at}]")
                };
                self.line(&format!("STS.{ty} sc.y, {place}"));
            }
            self.line("BAR");
        }
    }

    /// Geometry: EMIT after the results are written. Compute: every result TEMP to the
    /// invocation's slot (module docs).
    pub(super) fn stage_epilogue(&mut self) {
        match self.kind {
            NvKind::NvGeometry => self.line("EMIT"),
            NvKind::NvCompute if self.x.storage_results => {
                let slot = self.slot_bytes();
                self.x.res.storage_slot = slot;
                let mut regs = vec!["r0".to_string()];
                regs.extend(self.temps.clone());
                self.line(&format!("MUL.U sc.x, invocation.globalid.x, {slot}"));
                for (k, r) in regs.iter().enumerate() {
                    let at = STORAGE_BYTES + 16 * k;
                    self.line(&format!("STB.U32X4 {r}, sb[sc.x + {at}]"));
                }
            }
            NvKind::NvCompute => {
                let slot = self.slot_bytes();
                if let Some((_, s)) = self.x.res.global.as_mut() {
                    *s = slot;
                }
                let mut regs = vec!["r0".to_string()];
                regs.extend(self.temps.clone());
                for (k, r) in regs.iter().enumerate() {
                    // The offset afresh for each TEMP: `global_address` adds the base to
                    // `sc.x` itself.
                    self.line(&format!("MUL.U sc.x, invocation.globalid.x, {slot}"));
                    let at = GLOBAL_HEAD_BYTES + 16 * k;
                    self.line(&format!("ADD.U sc.x, sc.x, {at}"));
                    let a = self.global_address();
                    self.line(&format!("STORE.U32X4 {r}, {a}"));
                }
            }
            _ => {}
        }
    }

    /// EMIT, ENDPRIM or (POINTS output) EMITS with a stream in 0..3.
    pub(super) fn geometry_statement(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        match self.c.below(4) {
            0 => self.line("ENDPRIM"),
            1 if self.x.points_out => {
                let s = self.c.below(3);
                self.line(&format!("EMITS {s}"));
            }
            _ => {
                // Write a result first now and then, so EMIT has something defined.
                if self.c.chance(60) {
                    let o = self.outputs[self.c.below(self.outputs.len())].clone();
                    let s = self.src(super::Ty::F, true);
                    self.line(&format!("MOV.F {o}, {s}"));
                }
                self.line("EMIT");
            }
        }
    }
}
