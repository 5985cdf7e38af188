//! Robustness properties: the simulator never panics, whatever words it is given and
//! whatever decodable program it runs (errors are values, SimError).

#[path = "sim_util.rs"]
mod util;

use proptest::prelude::*;
use shaderdiff_valhall::sim::{Launch, Memory, Shader, SimError, NUM_REGS};

/// Instructions (one per supported family) whose bits are mutated to find more
/// decodable words.
const SEEDS: &[&str] = &[
    "FADD.f32.clamp_0_1 r0, r1, r2.neg",
    "FMA.f32 r3, r1.h1, u2, r4.abs",
    "FMIN.f32 r5, r6, 0x3F800000",
    "FMAX.f32.clamp_m1_1 r7, r8, r9",
    "FROUND.f32.rtn r2, r2.neg",
    "F32_TO_S32.rtz r2, r2.neg",
    "F32_TO_U32 r2, r3",
    "S32_TO_F32 r4, r5.h1",
    "U32_TO_F32.rtp r4, r5",
    "F16_TO_F32 r1, r2.h1",
    "V2F32_TO_V2F16 r0, r2, r3",
    "FRCP.f32 r1, r2",
    "FRSQ.f32 r1, r2.abs",
    "FLOGD.f32 r1, r2",
    "FEXP.f32 r1, r2, r3",
    "FREXPE.f32.log r1, r2",
    "FREXPM.f32 r1, r2",
    "FADD_LSCALE.f32 r1, 0x3F800000.neg, r2",
    "FSIN_TABLE.u6 r1, r2",
    "LDEXP.f32.rtz r1, r2, r3",
    "FMA_RSCALE.f32 r1, r2, r3, r4, r5",
    "FCMP_OR.f32.gt.m1 r1, r2, r3, 0x0",
    "FCMP_AND.f32.ne.f1 r1, r2, r3, r4",
    "ICMP_OR.u32.gt.m1 r1, ^r0, 0x1000000.b3, 0x0",
    "ICMP_AND.s32.le.i1 r1, r0, r2.h1, r3",
    "CSEL.f32.lt r1, r2, r3, r4, r5",
    "CSEL.s32.ge r1, r2, r3, r4, r5",
    "MUX.i32.bit r0, ^r0, ^r4, u0",
    "IADD.u32.saturate r1, r2, r3",
    "ISUB.s32 r1, r2.b3, r3",
    "IMUL.i32 r1, r2, r3",
    "IMULD.u64 r2, r4, r5",
    "IADD_IMM.i32 r2, ^r2, #0x4BAB",
    "MOV.i32 r1, thread_local_pointer.w1",
    "MOV.i32 r1, lane_id.w0",
    "LSHIFT_OR.i32 r1, r2, r3.b00, r4.not",
    "RSHIFT_XOR.i32.signed.not_result r1, r2, 0x0.b00, r4",
    "CLZ.u32 r1, r2",
    "POPCOUNT.i32 r1, r2",
    "BITREV.i32 r1, r2",
    "IABS.s32 r1, r2",
    "MKVEC.v2i16 r1, ^r0.h00, 0x3C000000.h10",
    "HADD.s32.rhadd r1, r2, r3",
    "CLPER.i32.xor.umax r1, r2, 0x3020100.b11",
    "IADD.u64 r2, r4, r6",
    "ISUB.u64 r2, r4, r6.w0",
    "SHADDX.u64 r0, u2, r60.w0, shift:0x2",
    "LOAD.i32.unsigned.slot0.wait0 @r0, ^r0, offset:0",
    "LOAD.i128.slot0 @r4:r5:r6:r7, r0, offset:-16",
    "STORE.i64.slot0 @r4:r5, r0, offset:8",
    "STORE.i32.slot0 @r4, u0, offset:0",
    "BRANCHZ.reconverge ^r1, offset:-2",
    "BRANCHZ.eq r1.h0, offset:1",
    "DISCARD.f32.lt r1, r2",
    "NOP.end",
    "FADD.v2f16 r0, r1.h10, r2",
    "IADD.v2u16.saturate r60.h1, ^r61.h10, 0x0",
    "LSHIFT_AND.v4i8 r0, 0x1000000.b3333, 0x0.b00, ^r0",
    "ICMP_OR.v4u8.ne.i1 r1, r0.b0000, 0x0, 0x0",
    "FCMP_OR.v2f16.gt.m1 r2, ^r3.h10, ^r2.h00, 0x0",
    "MUX.v2i16 r1, r2.h10, r3, r4",
    "ATOM_RETURN.i32.slot0.axchg.wait0 @r55, @r12, r48, offset:0x0",
    "ATOM.i32.slot0.aadd.wait0 @r12, r50, offset:0x0",
    "ATOM1_RETURN.i32.slot0.ainc.wait0 @r12, r50, offset:0x0",
    "LSHIFT_OR.i64 r8, r0, r4.b00, r2",
    "IDP.v4s8 r16, r5, r6, r7",
    "V2S8_TO_V2F16 r6, r0.b01",
];

fn seed_words() -> Vec<u64> {
    SEEDS
        .iter()
        .map(|s| shaderdiff_valhall::assemble_word(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

/// A word that loads on its own: a seed with some bits flipped (or the seed itself).
fn loadable_word() -> impl Strategy<Value = u64> {
    let seeds = seed_words();
    (0..seeds.len(), proptest::collection::vec(0u32..64, 0..3)).prop_map(move |(i, flips)| {
        let mut w = seeds[i];
        for b in flips {
            let m = w ^ (1u64 << b);
            if Shader::from_words(&[m]).is_ok() {
                w = m;
            }
        }
        w
    })
}

fn init_regs(seed: u64, base: u64) -> impl Fn(usize, &mut [u32; NUM_REGS]) + Sync {
    move |t, r| {
        let mut x = seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for (i, v) in r.iter_mut().enumerate() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *v = match x % 4 {
                // Addresses into the mapped region.
                0 if i % 2 == 0 => (base + (x >> 8) % 64) as u32,
                0 => (base >> 32) as u32,
                1 => (x >> 32) as u32 & 0xFF,
                _ => (x >> 16) as u32,
            };
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any 8-byte words: loading never panics.
    #[test]
    fn random_words_never_panic(words in proptest::collection::vec(any::<u64>(), 0..6)) {
        let _ = Shader::from_words(&words);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let _ = Shader::from_bytes(&bytes);
        let _ = Shader::from_bytes(&bytes[..bytes.len().saturating_sub(3)]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 600,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any decodable short program: running never panics, and the result is either a
    /// normal outcome or a SimError.
    #[test]
    fn random_programs_never_panic(
        words in proptest::collection::vec(loadable_word(), 1..8),
        threads in 0usize..40,
        seed in any::<u64>(),
        uniforms in proptest::collection::vec(any::<u32>(), 0..8),
    ) {
        let shader = match Shader::from_words(&words) {
            Ok(s) => s,
            Err(e) => {
                // Single words load; only whole-program checks could reject (none today).
                prop_assert!(false, "{e}");
                unreachable!()
            }
        };
        let base = 0x8000_0000u64 + (seed & 0xFF00);
        let mut mem = Memory::new();
        mem.map(base, vec![0x5A; 128]);
        let init = init_regs(seed, base);
        let launch = Launch {
            threads,
            uniforms: &uniforms,
            init: &init,
            step_limit: 200,
            step_weights: None,
        };
        match shader.run(&launch, &mut mem) {
            Ok(out) => prop_assert_eq!(out.discarded.len(), threads),
            Err(SimError::MemoryFault { .. })
            | Err(SimError::StepLimit { .. })
            | Err(SimError::BadBranch { .. }) => {}
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}

/// Every test vector of `assembler-cases.txt` either loads or is rejected as
/// unsupported, and each loadable one runs without panicking.
#[test]
fn every_test_vector_loads_or_is_unsupported() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/spec/valhall/assembler-cases.txt"
    ));
    let Ok(text) = text else {
        eprintln!("assembler-cases.txt not found; skipping");
        return;
    };
    let mut loaded = 0;
    let mut unsupported = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let (bytes, asm) = shaderdiff_valhall::parse_case_line(line).unwrap();
        match Shader::from_bytes(&bytes) {
            Ok(s) => {
                loaded += 1;
                let base = 0x4000u64;
                let mut mem = Memory::new();
                mem.map(base, vec![0; 256]);
                let init = init_regs(loaded, base);
                let launch = Launch {
                    threads: 16,
                    uniforms: &[0x4000, 0, 1, 2],
                    init: &init,
                    step_limit: 10,
                    step_weights: None,
                };
                let _ = s.run(&launch, &mut mem);
            }
            Err(SimError::Unsupported { .. }) => unsupported.push(asm.to_string()),
            Err(e) => panic!("{asm}: {e}"),
        }
    }
    eprintln!(
        "{loaded} test vectors load, {} unsupported",
        unsupported.len()
    );
    assert!(
        loaded > 100,
        "{loaded} loaded; unsupported: {unsupported:#?}"
    );
}
