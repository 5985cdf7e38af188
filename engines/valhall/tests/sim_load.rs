//! Loading programs: decode errors, byte lengths, and instructions or modifiers the
//! simulator rejects up front (never executed wrongly).

#[path = "sim_util.rs"]
mod util;

use shaderdiff_valhall::sim::{Launch, Memory, Shader, SimError, NUM_REGS};
use util::*;

#[test]
fn decode_errors_carry_the_index() {
    let mut w = words("NOP\nNOP");
    w.push(1u64 << 63);
    match Shader::from_words(&w) {
        Err(SimError::Decode { index: 2, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn byte_programs() {
    let w = words("IADD_IMM.i32 r1, r0, #0x7\nNOP.end");
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let s = Shader::from_bytes(&bytes).unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(
        Shader::from_bytes(&bytes[..15]).unwrap_err(),
        SimError::Length { len: 15 }
    );
    assert!(Shader::from_bytes(&[]).unwrap().is_empty());
}

/// Instructions and modifiers outside the simulator's scope are `Unsupported` at load
/// time, with the index of the offending word.
#[test]
fn unsupported_is_rejected_at_load() {
    for line in [
        "FREXPE.f32.sqrt r0, ^r0",
        "FREXPM.f32.sqrt r1, r0",
        "BRANCHZI.absolute 0x0, r0",
        "BRANCHZ r0.and, offset:1",
        "CLPER.i32.accumulate r0, r0, r1.b00",
        "CLPER.i32.subgroup4 r0, r0, r1.b00",
        "ICMP_OR.u32.gtlt.m1 r0, r1, r2, 0x0",
        "ICMP_OR.u32.gt.u1 r0, r1, r2, 0x0",
        "FCMP_OR.f32.gt.u1 r0, r1, r2, 0x0",
        "IMUL.i32.saturate r0, r1, r2",
        "IADD.u64 r1, r2, r4",
        "IADD.u64 r2, r3, r4",
        "LOAD.i32.slot0 @r0:r1, r2, offset:0",
        // A read run of 1 register where a 2-D fetch needs 2 (sim::tex layout).
        "TEX_FETCH.slot0.f.32.2d @r0:r1:r2:r3, @r60, u0",
        "TEX_SINGLE.slot0.f.32.2d.shadow.zero @r0:r1:r2:r3, @r60:r61, u0",
        "TEX_GATHER.slot0.f.32.2d.integer_coordinates.gather4_r @r0:r1:r2:r3, @r60:r61, u0",
        "ATOM.i32.slot0.axchg @r0, r2, offset:0x0",
        "ATOM_RETURN.i32.slot0.aadd.compare @r6, @r4, r2, offset:0x0",
        "MUX.v4i8.fp_zero r0, r1, r2, r3",
        "ICMP_MULTI.u32.gt.u1 r0, r1, r2, 0x0",
        "FPCLASS.f32 r0, r1",
    ] {
        let w = match shaderdiff_valhall::assemble_word(line) {
            Ok(w) => w,
            // Some of these may not even assemble; then they cannot reach the simulator.
            Err(e) => {
                eprintln!("{line}: does not assemble ({e})");
                continue;
            }
        };
        let prog = [words("NOP")[0], w];
        match Shader::from_words(&prog) {
            Err(SimError::Unsupported { index: 1, what }) => {
                assert!(!what.is_empty());
            }
            other => panic!("{line}: {other:?}"),
        }
    }
}

/// A shader runs many times with the same results (no state kept between runs).
#[test]
fn repeatable_runs() {
    let s = shader(
        "IADD_IMM.i32 r1, r1, #0x1\n\
         FMA.f32 r2, r2, r2, r3\n\
         BRANCHZ r4, offset:0",
    );
    let init = |t: usize, r: &mut [u32; NUM_REGS]| {
        r[2] = fb(t as f32);
        r[4] = t as u32 & 1;
    };
    let launch = Launch {
        threads: 33,
        uniforms: &[],
        init: &init,
        step_limit: 10,
        step_weights: None,
    };
    let a = s.run_with_registers(&launch, &mut Memory::new()).unwrap();
    let b = s.run_with_registers(&launch, &mut Memory::new()).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.1.len(), 33);
    assert_eq!(a.1[5][1], 1);
    assert_eq!(a.1[5][2], fb(25.0));
}
