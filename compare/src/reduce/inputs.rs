//! Input and constant passes: fewer invocations, rounder immediates and input values.

use shaderdiff_model::{ImmType, Stage};
use shaderdiff_oracles::Inputs;

use super::{Ctx, State};
use crate::diff::Outcome;

/// `inputs` restricted to invocations `first..first + n`.
fn select(inputs: &Inputs, first: usize, n: usize) -> Inputs {
    let mut out = inputs.clone();
    out.invocations = n;
    for v in out.registers.values_mut() {
        if v.len() > 1 {
            *v = v.iter().skip(first).take(n).copied().collect();
        }
    }
    out
}

/// Keeps only one invocation that shows the divergence (one whole quad for fragment
/// programs), trying the first few diverging invocations.
pub(crate) fn invocations(ctx: &mut Ctx, st: &mut State) -> bool {
    let group = if st.program.stage == Stage::Fragment {
        4
    } else {
        1
    };
    if st.inputs.invocations <= group {
        return false;
    }
    let Some(Outcome::Mismatch(ms)) = ctx.diverging_outcome(&st.program, &st.inputs) else {
        // Failures (traps, step limits) are not per invocation: try the first group.
        let cand = select(&st.inputs, 0, group);
        return ctx.try_state(st, st.program.clone(), cand);
    };
    let mut tried = Vec::new();
    for m in ms {
        let first = m.invocation / group * group;
        if tried.contains(&first) {
            continue;
        }
        if tried.len() >= 4 {
            break;
        }
        tried.push(first);
        let cand = select(&st.inputs, first, group);
        if ctx.try_state(st, st.program.clone(), cand) {
            return true;
        }
    }
    false
}

/// Simpler values than `w` to try, simplest first: for floats 0, 1, -1, 2, 0.5, the nearest
/// integer and `w` with fewer mantissa bits; for integers 0, 1, -1 and `w` with fewer bits.
/// NaN and infinity patterns only get 0 and 1.
pub(crate) fn simpler(w: u32, float: bool) -> Vec<u32> {
    let mut c: Vec<u32> = Vec::new();
    if float {
        c.extend([0.0f32, 1.0, -1.0, 2.0, 0.5].map(f32::to_bits));
        let x = f32::from_bits(w);
        if x.is_finite() {
            let r = x.round();
            if r.abs() < 16_777_216.0 {
                c.push(r.to_bits());
            }
            for keep in [1u32, 4, 8, 12, 16] {
                c.push(w & !((1u32 << (23 - keep)) - 1));
            }
            if x.abs() >= 2.0 {
                c.push(x.abs().log2().floor().exp2().copysign(x).to_bits());
            }
        }
    } else {
        c.extend([0u32, 1, u32::MAX, 2]);
        for bits in [4u32, 8, 16] {
            c.push(w & ((1 << bits) - 1));
        }
    }
    let mut seen = Vec::new();
    c.retain(|&v| {
        let keep = v != w && !seen.contains(&v) && rank(v, float) < rank(w, float);
        seen.push(v);
        keep
    });
    c
}

/// How complex a word looks (lower is simpler).
fn rank(w: u32, float: bool) -> u64 {
    if float {
        let x = f32::from_bits(w);
        if !x.is_finite() {
            return 1 << 40;
        }
        if x == 0.0 {
            return (w >> 31) as u64;
        }
        let mant = (w & 0x7f_ffff) as u64;
        let bits = if mant == 0 {
            0
        } else {
            24 - mant.trailing_zeros() as u64
        };
        let exp = ((w >> 23) & 0xff) as i64 - 127;
        2 + bits * 256 + exp.unsigned_abs() * 2 + (w >> 31) as u64
    } else {
        let v = w as i32;
        v.unsigned_abs() as u64 * 2 + (v < 0) as u64
    }
}

/// Rounds every immediate word and every input value, one word at a time.
pub(crate) fn constants(ctx: &mut Ctx, st: &mut State) -> bool {
    let mut changed = false;
    for i in 0..st.program.immediates.len() {
        let imm = st.program.immediates[i];
        if imm.ty.is_64bit() {
            continue;
        }
        let float = imm.ty == ImmType::F32;
        for c in 0..4 {
            if ctx.stopped() {
                return changed;
            }
            for v in simpler(st.program.immediates[i].words[c], float) {
                let mut q = st.program.clone();
                q.immediates[i].words[c] = v;
                if ctx.try_program(st, q) {
                    changed = true;
                    break;
                }
            }
        }
    }
    let keys: Vec<_> = st.inputs.registers.keys().copied().collect();
    for key in keys {
        let rows = st.inputs.registers[&key].len();
        for r in 0..rows {
            for c in 0..4 {
                if ctx.stopped() {
                    return changed;
                }
                let w = st.inputs.registers[&key][r][c];
                // Float-simpler values, then integer-simpler ones that are no more complex
                // as floats: (float rank, integer rank) decreases, so this terminates.
                let mut cands = simpler(w, true);
                let ints: Vec<u32> = simpler(w, false)
                    .into_iter()
                    .filter(|&v| rank(v, true) <= rank(w, true) && !cands.contains(&v))
                    .collect();
                cands.extend(ints);
                for v in cands {
                    let mut i2 = st.inputs.clone();
                    if let Some(row) = i2.registers.get_mut(&key).and_then(|x| x.get_mut(r)) {
                        row[c] = v;
                    }
                    if ctx.try_state(st, st.program.clone(), i2) {
                        changed = true;
                        break;
                    }
                }
            }
        }
    }
    let keys: Vec<_> = st.inputs.constants.keys().copied().collect();
    for key in keys {
        for c in 0..4 {
            if ctx.stopped() {
                return changed;
            }
            let w = st.inputs.constants[&key][c];
            for v in simpler(w, true) {
                let mut i2 = st.inputs.clone();
                if let Some(row) = i2.constants.get_mut(&key) {
                    row[c] = v;
                }
                if ctx.try_state(st, st.program.clone(), i2) {
                    changed = true;
                    break;
                }
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simpler_values_are_simpler() {
        // 3.1415927 (0x40490fdb): 0, 1, -1 is not simpler than a positive number? It is
        // (rank compares magnitude and mantissa bits); every candidate ranks lower.
        let c = simpler(0x4049_0fdb, true);
        assert_eq!(&c[..2], &[0, 0x3f80_0000]);
        assert!(c.contains(&3.0f32.to_bits()));
        assert!(c.iter().all(|&v| rank(v, true) < rank(0x4049_0fdb, true)));
        assert!(simpler(0, true).is_empty());
        assert_eq!(simpler(1, false), vec![0]);
        assert!(simpler(0x1234_5678, false).contains(&0x78));
        assert!(!simpler(0x7fc0_0000, true).is_empty());
    }
}
