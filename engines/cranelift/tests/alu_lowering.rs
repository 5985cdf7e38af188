//! Lowering-level differential check of the jit ALU against the reference interpreter.
//!
//! For every opcode `alu::is_supported` accepts, a tiny CLIF function loads the sources
//! (`i32x4` per channel, one lane per invocation of a quad) from memory, calls
//! `shaderdiff_cranelift::alu::lower`, and stores the results. It runs on edge values (±0, ±inf,
//! NaN, denormals, INT_MIN, UINT_MAX, shift counts 0/31/32, zero divisors, binary16 and
//! normalized-format boundaries ...) and on seeded random inputs, and every channel the
//! interpreter (`shaderdiff_oracles::interp::alu::eval`) marks as *defined* must match it bit
//! for bit; a NaN matches any NaN when the opcode's destination type is float.
//!
//! The expected values come from the interpreter, whose ALU is itself checked against
//! tgsi.rst formulas and EXEC-NOTES values in oracle/tests; this test proves that the two
//! independent implementations agree. Each function set is compiled twice: for the host's
//! ISA features (as the engine runs) and for baseline x86-64 (SSE2 only), which exercises
//! Cranelift's fallbacks (`fmaf`/`floorf`/... libcalls, emulated vector instructions).

// Source words are indexed [source][channel][lane] in lockstep; indices read better than zips.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use cranelift_codegen::ir::types::{F32X4, I32X4, I64};
use cranelift_codegen::ir::{AbiParam, InstBuilder, MemFlagsData, Value};
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shaderdiff_cranelift::alu::{self, AluCtx, Libcalls};
use shaderdiff_model::{Opcode, ScalarType, ALL_OPCODES};
use shaderdiff_oracles::interp::alu as oracle;
use shaderdiff_oracles::interp::lanes::{Mask, Vals, LANES, ZERO_VALS};

/// Signature of a compiled test function: sources `[k][c][lane]`, results `[c][lane]`.
type TestFn = unsafe extern "C" fn(*const u32, *mut u32);

/// Marker left in result channels the function must not write.
const SENTINEL: u32 = 0xdead_beef;

fn isa(native: bool) -> Arc<dyn TargetIsa> {
    let mut flags = settings::builder();
    flags.set("use_colocated_libcalls", "false").unwrap();
    flags.set("is_pic", "false").unwrap();
    flags.set("enable_verifier", "true").unwrap();
    let builder = cranelift_native::builder_with_options(native).unwrap();
    builder.finish(settings::Flags::new(flags)).unwrap()
}

fn new_module(isa: Arc<dyn TargetIsa>) -> JITModule {
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    for d in alu::libcall_defs()
        .into_iter()
        .chain(alu::cranelift_libcall_defs())
    {
        jb.symbol(d.name, d.ptr);
    }
    JITModule::new(jb)
}

/// Declares every libcall in `b`'s function.
fn declare_libcalls(module: &mut JITModule, b: &mut FunctionBuilder) -> Libcalls {
    let mut lc = Libcalls::default();
    for d in alu::libcall_defs() {
        let mut sig = module.make_signature();
        sig.params
            .extend(d.params.iter().map(|&t| AbiParam::new(t)));
        sig.returns
            .extend(d.returns.iter().map(|&t| AbiParam::new(t)));
        let id = module
            .declare_function(d.name, Linkage::Import, &sig)
            .unwrap();
        lc.refs
            .insert(d.name, module.declare_func_in_func(id, b.func));
    }
    lc
}

/// Builds `fn(src, dst)` for `op` with `writemask`; checks that `lower` returns exactly the
/// enabled channels.
fn build(module: &mut JITModule, op: Opcode, writemask: u8, idx: usize) -> FuncId {
    let nsrc = op.info().num_src as usize;
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(I64));
    sig.params.push(AbiParam::new(I64));
    let id = module
        .declare_function(&format!("t{idx}_{}", op.name()), Linkage::Local, &sig)
        .unwrap();
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    let mut fbc = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let block = b.create_block();
        b.append_block_params_for_function_params(block);
        b.switch_to_block(block);
        b.seal_block(block);
        let (src, dst) = (b.block_params(block)[0], b.block_params(block)[1]);
        let libcalls = declare_libcalls(module, &mut b);
        let mut srcs: Vec<[Value; 4]> = Vec::new();
        for k in 0..nsrc {
            let mut ch = [src; 4];
            for (c, v) in ch.iter_mut().enumerate() {
                let off = ((k * 4 + c) * 16) as i32;
                *v = b.ins().load(I32X4, MemFlagsData::new(), src, off);
            }
            srcs.push(ch);
        }
        let out = {
            let mut actx = AluCtx {
                b: &mut b,
                libcalls: &libcalls,
            };
            alu::lower(&mut actx, op, &srcs, writemask).unwrap()
        };
        for (c, v) in out.iter().enumerate() {
            assert_eq!(
                v.is_some(),
                writemask >> c & 1 != 0,
                "{op} wm {writemask:#x}: channel {c}"
            );
            if let Some(v) = v {
                // `alu::lower`'s contract: `i32x4`, or `f32x4` where `gives_f32_results`.
                let float = alu::gives_f32_results(op);
                let ty = b.func.dfg.value_type(*v);
                assert!(
                    ty == I32X4 || float && ty == F32X4,
                    "{op} channel {c}: {ty}"
                );
                b.ins().store(MemFlagsData::new(), *v, dst, (c * 16) as i32);
            }
        }
        b.ins().return_(&[]);
        b.finalize(module.target_config());
    }
    module
        .define_function(id, &mut ctx)
        .unwrap_or_else(|e| panic!("{op}: {e:?}\n{}", ctx.func.display()));
    module.clear_context(&mut ctx);
    id
}

/// Interesting 32-bit patterns, as floats and as integers.
fn edge_values() -> Vec<u32> {
    let floats: &[f32] = &[
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        3.5,
        0.499_999_97,
        0.999_999_94,
        -0.999_999_94,
        3.0,
        1e-10,
        -1e-10,
        1e-30,
        1e30,
        -1e30,
        100.0,
        -100.0,
        127.5,
        128.0,
        128.5,
        -128.5,
        8_388_607.5,
        8_388_608.0,
        -8_388_608.0,
        16_777_216.0,
        16_777_218.0,
        2_147_483_520.0,
        2_147_483_648.0,
        -2_147_483_648.0,
        -2_147_483_904.0,
        4_294_967_040.0,
        4_294_967_296.0,
        65504.0,
        65519.996,
        65520.0,
        65536.0,
        -65520.0,
        6.103_515_6e-5,
        6.097_555e-5,
        5.960_464_5e-8,
        2.980_232_2e-8,
        2.980_232_4e-8,
        8.940_697e-8,
        1.0 / 255.0,
        0.5 / 255.0,
        1.5 / 255.0,
        0.5 / 127.0,
        -0.5 / 127.0,
        1.0 / 65535.0,
        0.333_333_34,
        -0.333_333_34,
        std::f32::consts::PI,
        1e-45,
        -1e-45,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        0.1,
        7.0,
        -7.0,
        31.0,
        32.0,
        1000.0,
        -1000.0,
    ];
    let ints: &[u32] = &[
        0,
        1,
        2,
        3,
        7,
        8,
        15,
        16,
        24,
        30,
        31,
        32,
        33,
        63,
        255,
        0x100,
        0xffff,
        0x1_0000,
        0x00ff_00ff,
        0x1234_5678,
        0xdead_beef,
        0xffff_0000,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_ffff,
        0xffff_fffe,
        0xffff_fff9,
        0xffff_ffe0,
        0x007f_ffff,
        0x0000_0001,
        0x807f_ffff,
        0x7f80_0001,
        0xff80_0001,
        0x3c00,
        0x7c00,
        0xfc00,
        0x7e00,
        0x03ff,
        0x8001,
        0x7bff,
        0x3c00_c000,
        0x7c01_0400,
        0x00ff_ffff,
        0x0100_0000,
        0x4000_0000,
        0xc000_0000,
        0x5555_5555,
        0xaaaa_aaaa,
        0xffff_fe70,
        400,
        401,
        0xffff_fc18,
        // Round-to-nearest-even ties of int -> float conversions.
        0x0100_0001,
        0x0100_0003,
        0x8000_0080,
        0x8000_0180,
        0xffff_ff80,
        0xffff_ff7f,
        0xfeff_ffff,
        // Binary32 values exactly halfway between binary16 neighbours (and next to them).
        0x3f80_1000,
        0x3f80_3000,
        0x3f80_0fff,
        0x3f80_1001,
        0x477f_f000,
        0x477f_efff,
        0x3300_0000,
        0x3340_0000,
        0x3880_1000,
        0x3870_0000,
        0xb3c0_0000,
    ];
    floats
        .iter()
        .map(|f| f.to_bits())
        .chain(ints.iter().copied())
        .collect()
}

/// One random 32-bit word: an edge value, raw bits, a small integer, a moderate float, a
/// float in binary16 range, or a denormal.
fn random_word(rng: &mut ChaCha8Rng, edges: &[u32]) -> u32 {
    match rng.random_range(0..9u32) {
        0 | 1 => edges[rng.random_range(0..edges.len())],
        2 => rng.random::<u32>(),
        3 => rng.random_range(-40i32..=40) as u32,
        4 => rng.random_range(-300.0f32..300.0).to_bits(),
        5 => rng.random_range(-2.0f32..2.0).to_bits(),
        6 => {
            let exp = rng.random_range(95u32..150);
            (rng.random::<u32>() & 0x807f_ffff) | exp << 23
        }
        7 => rng.random::<u32>() & 0x807f_ffff,
        _ => {
            // Near a binary16 rounding tie: low 13 significand bits 0x1000 (± 1).
            let exp = rng.random_range(95u32..145);
            let low = [0x1000, 0x0fff, 0x1001, 0][rng.random_range(0..4usize)];
            (rng.random::<u32>() & 0x807f_e000) | exp << 23 | low
        }
    }
}

/// Source words for invocation-case `i`: `[k][c]`.
type Case = [[u32; 4]; 4];

/// Edge cross product (pairs for 2+ sources), then random cases.
fn cases(op: Opcode, rng: &mut ChaCha8Rng, random: usize) -> Vec<Case> {
    let e = edge_values();
    let n = e.len();
    let nsrc = op.info().num_src as usize;
    let mut out = Vec::new();
    let pick = |i: usize, c: usize, k: usize| e[(i + c * 7 + k * 3) % n];
    if nsrc <= 1 {
        for i in 0..n {
            let mut cs = [[0; 4]; 4];
            for c in 0..4 {
                cs[0][c] = pick(i, c, 0);
            }
            out.push(cs);
        }
    } else {
        for i in 0..n {
            for j in 0..n {
                let mut cs = [[0; 4]; 4];
                for c in 0..4 {
                    cs[0][c] = pick(i, c, 0);
                    cs[1][c] = pick(j, c, 0);
                    for (k, src) in cs.iter_mut().enumerate().skip(2) {
                        src[c] = pick(i + j, c, k);
                    }
                }
                out.push(cs);
            }
        }
    }
    for _ in 0..random {
        let mut cs = [[0; 4]; 4];
        for src in cs.iter_mut() {
            for w in src.iter_mut() {
                *w = random_word(rng, &e);
            }
        }
        // Bitfield operands: mostly valid (offset, bits) pairs.
        if matches!(op, Opcode::UBFE | Opcode::IBFE | Opcode::BFI) {
            let (o, b) = if op == Opcode::BFI { (2, 3) } else { (1, 2) };
            for c in 0..4 {
                cs[o][c] = rng.random_range(-2i32..=34) as u32;
                cs[b][c] = rng.random_range(-2i32..=34) as u32;
            }
        }
        if op == Opcode::LDEXP {
            for c in 0..4 {
                cs[1][c] = rng.random_range(-460i32..=460) as u32;
            }
        }
        out.push(cs);
    }
    out
}

/// Counts of compared and skipped (undefined) channel values.
#[derive(Default, Debug)]
struct Tally {
    compared: u64,
    undefined: u64,
}

/// Runs `f` and the interpreter on `cases`; returns mismatch descriptions.
fn check(op: Opcode, wm: u8, f: TestFn, cases: &[Case], tally: &mut Tally) -> Vec<String> {
    let nsrc = op.info().num_src as usize;
    let float_dst = op.info().dst_type == Some(ScalarType::F32);
    let f64_dst = op.info().dst_type == Some(ScalarType::F64);
    let mut errors = Vec::new();
    for chunk in cases.chunks(LANES) {
        let mut srcs: Vec<Vals> = vec![ZERO_VALS; nsrc];
        for (l, case) in chunk.iter().enumerate() {
            for (k, src) in srcs.iter_mut().enumerate() {
                for c in 0..4 {
                    src[c][l] = case[k][c];
                }
            }
        }
        let mut want = ZERO_VALS;
        let mut undef: [Mask; 4] = [0; 4];
        oracle::eval(op, &srcs, wm, &mut want, &mut undef).unwrap();
        // Binary64 results: the whole pair, to judge NaNs and DRSQ's bound per pair.
        let mut full = ZERO_VALS;
        oracle::eval(op, &srcs, 0xF, &mut full, &mut [0; 4]).unwrap();
        for q in 0..chunk.len().div_ceil(4) {
            let mut buf = vec![0u32; nsrc * 16];
            for k in 0..nsrc {
                for c in 0..4 {
                    for l in 0..4 {
                        buf[(k * 4 + c) * 4 + l] = srcs[k][c][q * 4 + l];
                    }
                }
            }
            let mut got = [SENTINEL; 16];
            // SAFETY: `f` reads nsrc * 16 words from `buf` and writes at most 16 to `got`.
            unsafe { f(buf.as_ptr(), got.as_mut_ptr()) };
            for c in 0..4 {
                for l in 0..4 {
                    let lane = q * 4 + l;
                    let g = got[c * 4 + l];
                    if wm >> c & 1 == 0 {
                        if g != SENTINEL {
                            errors.push(format!("{op}: disabled channel {c} written"));
                        }
                        continue;
                    }
                    if lane >= chunk.len() {
                        continue;
                    }
                    if undef[c] >> lane & 1 != 0 {
                        tally.undefined += 1;
                        continue;
                    }
                    tally.compared += 1;
                    let w = want[c][lane];
                    let both_nan = f32::from_bits(g).is_nan() && f32::from_bits(w).is_nan();
                    let pair_ok = f64_dst && {
                        let p = c / 2 * 2;
                        let pair = |v: [u32; 2]| f64::from_bits(v[0] as u64 | (v[1] as u64) << 32);
                        let e = pair([full[p][lane], full[p + 1][lane]]);
                        let whole = wm >> p & 3 == 3;
                        let g = pair([got[p * 4 + l], got[(p + 1) * 4 + l]]);
                        // NaN bits are unspecified; DRSQ is within 2 binary64 ulp
                        // (precision.toml DRSQ, class cpu), judged on whole pairs.
                        (e.is_nan() && (!whole || g.is_nan()))
                            || (op == Opcode::DRSQ
                                && (!whole || (g.to_bits() as i64 - e.to_bits() as i64).abs() <= 2))
                    };
                    if g != w && !(float_dst && both_nan) && !pair_ok {
                        let ins: Vec<String> = (0..nsrc)
                            .map(|k| format!("{:08x?}", chunk[lane][k]))
                            .collect();
                        errors.push(format!(
                            "{op} ch{c}: got {g:#010x} ({}), want {w:#010x} ({}); srcs {}",
                            f32::from_bits(g),
                            f32::from_bits(w),
                            ins.join(" ")
                        ));
                    }
                }
            }
        }
    }
    errors
}

/// Compiles every supported opcode (full writemask and a partial one) for one ISA and compares
/// it with the interpreter.
fn differential(native: bool, random: usize) -> Tally {
    let mut module = new_module(isa(native));
    let ops: Vec<Opcode> = ALL_OPCODES
        .iter()
        .copied()
        .filter(|&op| alu::is_supported(op))
        .collect();
    let mut fns = Vec::new();
    for (i, &op) in ops.iter().enumerate() {
        for wm in [0xf, 0b0101 + (i as u8 % 3)] {
            fns.push((op, wm, build(&mut module, op, wm, fns.len())));
        }
    }
    module.finalize_definitions().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0x005e_eda1_u64);
    let mut tally = Tally::default();
    let mut errors = Vec::new();
    for &(op, wm, id) in &fns {
        let ptr = module.get_finalized_function(id);
        // SAFETY: `build` gave the function exactly this signature.
        let f: TestFn = unsafe { std::mem::transmute::<*const u8, TestFn>(ptr) };
        let n = if wm == 0xf { random } else { random / 4 };
        let cs = cases(op, &mut rng, n);
        let errs = check(op, wm, f, &cs, &mut tally);
        errors.extend(errs.into_iter().take(5));
    }
    // SAFETY: no function of the module is used after this point.
    unsafe { module.free_memory() };
    assert!(
        errors.is_empty(),
        "{} mismatches (native = {native}):\n{}",
        errors.len(),
        errors.join("\n")
    );
    tally
}

#[test]
fn every_opcode_matches_the_interpreter_on_host_isa() {
    let t = differential(true, 4000);
    eprintln!("host ISA: {t:?}");
    assert!(t.compared > 1_000_000, "{t:?}");
}

#[test]
fn every_opcode_matches_the_interpreter_on_baseline_x86_64() {
    // The baseline really lacks the features whose fallbacks this test is about.
    let base = isa(false);
    for flag in base.isa_flags() {
        if ["has_sse41", "has_fma", "has_avx", "has_ssse3"].contains(&flag.name) {
            assert_eq!(flag.as_bool(), Some(false), "{}", flag.name);
        }
    }
    let t = differential(false, 2000);
    eprintln!("baseline ISA: {t:?}");
    assert!(t.compared > 1_000_000, "{t:?}");
}

/// Exhaustive over binary16 inputs: UP2H of every 16-bit pattern in both halves.
#[test]
fn up2h_exhaustive() {
    let mut module = new_module(isa(true));
    let id = build(&mut module, Opcode::UP2H, 0xf, 0);
    module.finalize_definitions().unwrap();
    // SAFETY: `build` gave the function exactly this signature.
    let f: TestFn =
        unsafe { std::mem::transmute::<*const u8, TestFn>(module.get_finalized_function(id)) };
    let cases: Vec<Case> = (0..=0xffffu32)
        .map(|h| [[h | (h ^ 0x8000) << 16, 0, 0, 0], [0; 4], [0; 4], [0; 4]])
        .collect();
    let mut tally = Tally::default();
    let errors = check(Opcode::UP2H, 0xf, f, &cases, &mut tally);
    // SAFETY: `f` is not used after this point.
    unsafe { module.free_memory() };
    assert!(
        errors.is_empty(),
        "{}",
        errors[..errors.len().min(10)].join("\n")
    );
    assert_eq!(tally.compared, 4 * 65536);
}

#[test]
fn is_supported_is_exactly_the_interpreter_alu() {
    for &op in ALL_OPCODES {
        assert_eq!(alu::is_supported(op), oracle::is_alu(op), "{op}");
    }
}

/// Non-ALU opcodes, too few sources and a missing libcall are typed errors, with nothing
/// emitted.
#[test]
fn unsupported_requests_are_errors() {
    let module = new_module(isa(true));
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(I64));
    let mut func = cranelift_codegen::ir::Function::with_name_signature(Default::default(), sig);
    let mut fbc = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut func, &mut fbc);
    let block = b.create_block();
    b.append_block_params_for_function_params(block);
    b.switch_to_block(block);
    let p = b.block_params(block)[0];
    let v = b.ins().load(I32X4, MemFlagsData::new(), p, 0);
    let empty = Libcalls::default();
    let mut ctx = AluCtx {
        b: &mut b,
        libcalls: &empty,
    };
    for (op, nsrc) in [
        (Opcode::TEX, 2),
        (Opcode::IF, 1),
        (Opcode::UP2US, 1),
        (Opcode::ADD, 1),
        (Opcode::BFI, 3),
        (Opcode::SIN, 1),
        (Opcode::LIT, 1),
    ] {
        let srcs = vec![[v; 4]; nsrc];
        let err = alu::lower(&mut ctx, op, &srcs, 0xf).unwrap_err();
        assert_eq!(err.0, op);
        assert_eq!(err.to_string(), format!("jit does not lower {op}"));
    }
    let before = ctx.b.func.dfg.num_insts();
    assert!(alu::lower(&mut ctx, Opcode::ADD, &[[v; 4], [v; 4]], 0).unwrap() == [None; 4]);
    assert_eq!(ctx.b.func.dfg.num_insts(), before);
}
