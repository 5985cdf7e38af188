//! INTERP_CENTROID, INTERP_SAMPLE, INTERP_OFFSET (tgsi.rst "Interpolation ISA"; NV IPAC,
//! IPAS, IPAO, NV_gpu_program5 §2.X.8.Z, lower to them).
//!
//! The model (README "Additions to INTERFACE.md", "Interpolation at centroid, sample,
//! offset"): shaderdiff runs fragment programs single-sampled with every fragment fully
//! covered, so the centroid and sample 0 are the pixel centre, and the value there is the
//! input itself. Attributes vary affinely across a quad (INTERFACE.md "Fragment quads":
//! invocations `4q..4q+3` are `(x,y) (x+1,y) (x,y+1) (x+1,y+1)`), so at offset `(dx, dy)`
//! from the centre the value is `v + dx*ddx + dy*ddy` with the fine derivatives of the
//! lane's own row and column.
//!
//! * INTERP_CENTROID: the input value (a move).
//! * INTERP_SAMPLE: the input value for sample 0 (`src1.x` read as an integer); any other
//!   sample number does not exist single-sampled, so the result is undefined
//!   (NV_gpu_program5 IPAS: "the position used to interpolate the attribute is undefined").
//! * INTERP_OFFSET: `(v + dx*ddx) + dy*ddy`, each step rounded (the oracle's order; the
//!   precision contract's `fused_or_unfused` bound accepts other orders, see
//!   `interval::interp_at`). Undefined for the whole quad unless all four lanes execute
//!   it, the quad's values are finite and affine (`v0 + v3 == v1 + v2` within
//!   [`AFFINE_ULPS`] ulps of the largest magnitude); undefined in a lane whose offset is
//!   NaN or outside `[-0.5, 0.5]` ([`MAX_OFFSET`]: NV_gpu_program5's minimum
//!   MIN/MAX_FRAGMENT_INTERPOLATION_OFFSET_NV, the GLSL interpolateAtOffset range).
//! * An input declared CONSTANT (flat) has the same value everywhere: all three give the
//!   input value (NV_gpu_program5: "The FLAT ... modifiers operate normally").
//! * Source modifiers (negate, absolute value) apply to the interpolated value
//!   (NV_gpu_program5 issue (8): "applied after the attribute values are interpolated").
//!
//! The source must be a direct `IN` register (tgsi.rst: "The first argument of each of
//! these must come from TGSI_FILE_INPUT"; checked by the IR validator); an indirectly
//! addressed input is refused as unsupported.

use super::decode::{DInsn, InterpAt, SrcOp};
use super::lanes::{Mask, LANES};
use super::state::Machine;

/// Largest offset magnitude with a defined result, in pixels (NV_gpu_program5 "New
/// Implementation Dependent State": MIN/MAX_FRAGMENT_INTERPOLATION_OFFSET_NV are at least
/// -0.5 / +0.5).
pub const MAX_OFFSET: f32 = 0.5;

/// Sub-pixel bits offsets may be snapped to (NV_gpu_program5
/// FRAGMENT_PROGRAM_INTERPOLATION_OFFSET_BITS_NV, minimum 4): an engine may evaluate at
/// any position on the `1/16` grid cell around the offset (the acceptance interval covers
/// it, `interval::interp_at`).
pub const OFFSET_BITS: u32 = 4;

/// Tolerance of the affinity test `v0 + v3 == v1 + v2`, in binary32 ulps of the quad's
/// largest magnitude (values computed from a plane equation are each rounded once).
pub const AFFINE_ULPS: f64 = 4.0;

/// Whether the four values of a quad are finite and affine: `v0 + v3 == v1 + v2` within
/// [`AFFINE_ULPS`] binary32 ulps of the largest magnitude (computed exactly in binary64).
pub fn quad_is_affine(v: [f32; 4]) -> bool {
    if v.iter().any(|x| !x.is_finite()) {
        return false;
    }
    let m = v.iter().fold(0f32, |a, x| a.max(x.abs()));
    let ulp = (super::interval::iv::next_up(m) - m) as f64;
    let e = (v[0] as f64 + v[3] as f64) - (v[1] as f64 + v[2] as f64);
    e.abs() <= AFFINE_ULPS * ulp
}

/// The oracle's value at offset `(dx, dy)` in lane `l` (0..4) of quad `v`:
/// `(v[l] + dx*ddx) + dy*ddy`, every step rounded to binary32, with the fine derivatives
/// of the lane's row (`ddx`) and column (`ddy`).
pub fn at_offset(v: [f32; 4], l: usize, dx: f32, dy: f32) -> f32 {
    let row = l & 2;
    let col = l & 1;
    let ddx = v[row + 1] - v[row];
    let ddy = v[col + 2] - v[col];
    (v[l] + dx * ddx) + dy * ddy
}

/// Whether offset component `d` has a defined result (not NaN, `|d| <= MAX_OFFSET`).
pub fn offset_in_range(d: f32) -> bool {
    d.abs() <= MAX_OFFSET
}

/// Applies source modifiers to a value: absolute value, then negation (tgsi.rst "Source
/// Modifiers"), here after interpolation.
pub(crate) fn modify(bits: u32, src: &SrcOp) -> u32 {
    let b = if src.abs { bits & 0x7FFF_FFFF } else { bits };
    if src.neg {
        b ^ 0x8000_0000
    } else {
        b
    }
}

impl Machine<'_> {
    /// Executes INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET (see the module docs).
    pub(crate) fn interpolate(&mut self, insn: &DInsn, at: InterpAt, flat: bool) {
        let d = self.d;
        let exec = self.exec;
        let src = insn.srcs[0];
        // The attribute itself, modifiers applied after interpolation.
        let raw = SrcOp {
            abs: false,
            neg: false,
            ..src
        };
        let addr = self.regs.fetch(
            d,
            &self.uniform,
            &raw,
            0xF,
            &mut self.s.srcs[0],
            &mut self.s.src_und[0],
            &mut self.s.slots,
        );
        self.unconstrained |= addr & exec;
        if let Some(s1) = insn.srcs.get(1) {
            let addr = self.regs.fetch(
                d,
                &self.uniform,
                s1,
                0xF,
                &mut self.s.srcs[1],
                &mut self.s.src_und[1],
                &mut self.s.slots,
            );
            self.unconstrained |= addr & exec;
        }
        let mut und = [0 as Mask; 4];
        // Lanes whose sample / offset makes the result undefined, per channel for OFFSET.
        let mut bad_lane: Mask = 0;
        if at == InterpAt::Sample {
            bad_lane = self.s.src_und[1][0];
            for l in 0..LANES {
                bad_lane |= ((self.s.srcs[1][0][l] != 0) as Mask) << l;
            }
        }
        let offset = at == InterpAt::Offset && !flat;
        if offset {
            bad_lane = self.s.src_und[1][0] | self.s.src_und[1][1];
            for l in 0..LANES {
                let ok = (0..2).all(|c| offset_in_range(f32::from_bits(self.s.srcs[1][c][l])));
                bad_lane |= (!ok as Mask) << l;
            }
        }
        for (c, u) in und.iter_mut().enumerate() {
            *u = self.s.src_und[0][c] | bad_lane;
            self.s.out[c] = self.s.srcs[0][c];
            if !offset {
                continue;
            }
            for q in 0..LANES / 4 {
                let b = 4 * q;
                if (exec >> b) & 0xF == 0 {
                    continue;
                }
                let v: [f32; 4] = std::array::from_fn(|l| f32::from_bits(self.s.srcs[0][c][b + l]));
                if (exec >> b) & 0xF != 0xF
                    || (self.s.src_und[0][c] >> b) & 0xF != 0
                    || !quad_is_affine(v)
                {
                    *u |= 0xF << b;
                }
                for l in 0..4 {
                    let dx = f32::from_bits(self.s.srcs[1][0][b + l]);
                    let dy = f32::from_bits(self.s.srcs[1][1][b + l]);
                    self.s.out[c][b + l] = at_offset(v, l, dx, dy).to_bits();
                }
            }
        }
        for c in 0..4 {
            for l in 0..LANES {
                self.s.out[c][l] = modify(self.s.out[c][l], &src);
            }
        }
        if self.iv.is_some() {
            self.iv_interpolate(insn, &raw, offset, &mut und);
        }
        self.ftz_interpolated(insn);
        self.store_result(insn, und);
    }
}
