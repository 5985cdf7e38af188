//! Rust functions that generated ALU code may call, and the table the compile pipeline uses
//! to declare and link them.
//!
//! Two kinds of entries:
//! * **Transcendentals** (`shaderdiff_ex2`, `_lg2`, `_sin`, `_cos`, `_pow`), called explicitly by
//!   [`super::lower`] once per instruction (or channel) for all four lanes of a quad: the
//!   generated code stores the operand vectors to a stack slot and passes its address, and the
//!   helper overwrites the first vector with the results (one call instead of four, and one
//!   call's worth of spilled vector registers instead of four). On every lane each evaluates
//!   the same pure-Rust `libm` function as the
//!   reference interpreter (tgsi.rst "Core ISA" EX2/LG2/POW/SIN/COS), in binary64 on the
//!   binary32 argument, and rounds the result once to binary32. Error bound: `libm`'s binary64
//!   functions are within 1 binary64 ulp, so the result is within 0.5 ulp + 2⁻²⁹ ulp of the
//!   exact value (never more than 1 binary32 ulp), and it is **bit-identical** to the
//!   interpreter's (same function, same inputs, same rounding; NaN payloads aside).
//! * **Cranelift's own libcalls** (`fmaf`, `ceilf`, `floorf`, `truncf`, `nearbyintf`), which
//!   Cranelift emits by itself on hosts without FMA or SSE4.1 (for `fma`, `ceil`, `floor`,
//!   `trunc` and `nearest`; names from `cranelift_module::default_libcall_names`). They must be
//!   registered as JIT symbols or `finalize_definitions` panics. They map to `libm`'s exactly
//!   rounded `fmaf`, `ceilf`, `floorf`, `truncf` and `rintf` (round half to even, which is what
//!   `nearbyintf` means in the default rounding mode), so results do not depend on the host's C
//!   library.

use std::collections::HashMap;

use cranelift_codegen::ir::types::{F32, F64, I32, I64};
use cranelift_codegen::ir::{FuncRef, Type};

/// One Rust function generated code may call.
///
/// `name` is the linker symbol (register it with `JITBuilder::symbol(name, ptr)` and declare
/// it as an imported function with `params` → `returns` under the platform's default C calling
/// convention); `ptr` is its address.
#[derive(Debug, Clone, Copy)]
pub struct LibcallDef {
    /// Symbol name.
    pub name: &'static str,
    /// CLIF parameter types, in order.
    pub params: &'static [Type],
    /// CLIF return types.
    pub returns: &'static [Type],
    /// Address of the `extern "C"` function.
    pub ptr: *const u8,
}

/// The [`FuncRef`]s of the [`libcall_defs`] entries declared in the function being built,
/// keyed by [`LibcallDef::name`]. Entries that generated code never calls directly (Cranelift's
/// own `fmaf` ...) may be absent; a missing transcendental makes [`super::lower`] return
/// [`super::AluUnsupported`] for the opcode that needs it.
#[derive(Debug, Clone, Default)]
pub struct Libcalls {
    /// Declared function references by symbol name.
    pub refs: HashMap<&'static str, FuncRef>,
}

/// EX2 helper: `2^x` (libm `exp2` in binary64, rounded once), four lanes at the address it
/// is given (`(p: i64)`, results in place).
pub(super) const EX2: &str = "shaderdiff_ex2";
/// LG2 helper: `log2(x)` (libm `log2` in binary64, rounded once).
pub(super) const LG2: &str = "shaderdiff_lg2";
/// SIN helper (libm `sin` in binary64, rounded once).
pub(super) const SIN: &str = "shaderdiff_sin";
/// COS helper (libm `cos` in binary64, rounded once).
pub(super) const COS: &str = "shaderdiff_cos";
/// POW helper: `x^y` with C99 special cases (libm `pow` in binary64, rounded once), four
/// lanes: `x` at `p`, `y` at `p + 16`, results in place of `x`.
pub(super) const POW: &str = "shaderdiff_pow";

/// Replaces each of the four binary32 lanes at `p` by `f(lane)`.
///
/// # Safety
/// `p` points at 16 writable bytes, aligned to 4 (a stack slot of the generated code).
unsafe fn map4(p: *mut f32, f: impl Fn(f64) -> f64) {
    // SAFETY: the caller's contract.
    let lanes = unsafe { &mut *p.cast::<[f32; 4]>() };
    for x in lanes.iter_mut() {
        *x = f(f64::from(*x)) as f32;
    }
}

/// EX2 on four lanes in place: `p[l] = exp2(p[l])`.
unsafe extern "C" fn shaderdiff_ex2(p: *mut f32) {
    // SAFETY: generated code passes a 16-byte stack slot (`special::call_lanes`).
    unsafe { map4(p, libm::exp2) }
}

/// LG2 on four lanes in place: `p[l] = log2(p[l])`.
unsafe extern "C" fn shaderdiff_lg2(p: *mut f32) {
    // SAFETY: as for `shaderdiff_ex2`.
    unsafe { map4(p, libm::log2) }
}

/// SIN on four lanes in place.
unsafe extern "C" fn shaderdiff_sin(p: *mut f32) {
    // SAFETY: as for `shaderdiff_ex2`.
    unsafe { map4(p, libm::sin) }
}

/// COS on four lanes in place.
unsafe extern "C" fn shaderdiff_cos(p: *mut f32) {
    // SAFETY: as for `shaderdiff_ex2`.
    unsafe { map4(p, libm::cos) }
}

/// POW on four lanes: `p[0..4]` are the bases, `p[4..8]` the exponents; the results
/// replace the bases.
unsafe extern "C" fn shaderdiff_pow(p: *mut f32) {
    // SAFETY: generated code passes a 32-byte stack slot aligned to 4.
    let v = unsafe { &mut *p.cast::<[f32; 8]>() };
    for l in 0..4 {
        v[l] = libm::pow(f64::from(v[l]), f64::from(v[l + 4])) as f32;
    }
}

/// DLDEXP helper (`alu/wide.rs`): `x * 2^n` rounded once. The scaling is split into exact
/// steps of at most 2^1023 (up) or 2^-969 (down: 2^-1022 * 2^53, which keeps every
/// intermediate normal as long as the result is not tiny), then one final multiplication
/// rounds; a tiny intermediate means a result below 2^-1076, which rounds to 0 either way.
pub(super) const LDEXP64: &str = "shaderdiff_ldexp64";

extern "C" fn shaderdiff_ldexp64(x: f64, n: i32) -> f64 {
    let p2 = |e: i32| f64::from_bits(((e + 1023) as u64) << 52);
    let (mut y, mut n) = (x, n.clamp(-2200, 2200));
    while n > 1023 {
        y *= p2(1023);
        n -= 1023;
    }
    while n < -1022 {
        y *= p2(-969);
        n += 969;
    }
    y * p2(n)
}

extern "C" fn fma(x: f64, y: f64, z: f64) -> f64 {
    libm::fma(x, y, z)
}

extern "C" fn ceil(x: f64) -> f64 {
    libm::ceil(x)
}

extern "C" fn floor(x: f64) -> f64 {
    libm::floor(x)
}

extern "C" fn trunc(x: f64) -> f64 {
    libm::trunc(x)
}

extern "C" fn nearbyint(x: f64) -> f64 {
    libm::rint(x)
}

extern "C" fn fmaf(x: f32, y: f32, z: f32) -> f32 {
    libm::fmaf(x, y, z)
}

extern "C" fn ceilf(x: f32) -> f32 {
    libm::ceilf(x)
}

extern "C" fn floorf(x: f32) -> f32 {
    libm::floorf(x)
}

extern "C" fn truncf(x: f32) -> f32 {
    libm::truncf(x)
}

extern "C" fn nearbyintf(x: f32) -> f32 {
    libm::rintf(x)
}

const F1: &[Type] = &[F32];
const D1: &[Type] = &[F64];
const D3: &[Type] = &[F64, F64, F64];
const F3: &[Type] = &[F32, F32, F32];

/// Every Rust function generated ALU code calls explicitly, with its symbol, CLIF
/// signature and address: a function that calls one declares them all. See the module docs
/// for what each computes and its error bound.
pub fn libcall_defs() -> Vec<LibcallDef> {
    type Lanes = unsafe extern "C" fn(*mut f32);
    let lanes = |name, ptr: *const u8| LibcallDef {
        name,
        params: &[I64],
        returns: &[],
        ptr,
    };
    vec![
        LibcallDef {
            name: LDEXP64,
            params: &[F64, I32],
            returns: D1,
            ptr: shaderdiff_ldexp64 as extern "C" fn(f64, i32) -> f64 as *const u8,
        },
        lanes(EX2, shaderdiff_ex2 as Lanes as *const u8),
        lanes(LG2, shaderdiff_lg2 as Lanes as *const u8),
        lanes(SIN, shaderdiff_sin as Lanes as *const u8),
        lanes(COS, shaderdiff_cos as Lanes as *const u8),
        lanes(POW, shaderdiff_pow as Lanes as *const u8),
    ]
}

/// Cranelift's own libcalls (module docs): registered as JIT symbols so that
/// `finalize_definitions` resolves them, never declared in a function (generated code does
/// not name them; Cranelift emits the calls itself).
pub fn cranelift_libcall_defs() -> Vec<LibcallDef> {
    let def = |name, params, ptr: *const u8| LibcallDef {
        name,
        params,
        returns: F1,
        ptr,
    };
    let def64 = |name, params, ptr: *const u8| LibcallDef {
        name,
        params,
        returns: D1,
        ptr,
    };
    vec![
        def64(
            "fma",
            D3,
            fma as extern "C" fn(f64, f64, f64) -> f64 as *const u8,
        ),
        def64("ceil", D1, ceil as extern "C" fn(f64) -> f64 as *const u8),
        def64("floor", D1, floor as extern "C" fn(f64) -> f64 as *const u8),
        def64("trunc", D1, trunc as extern "C" fn(f64) -> f64 as *const u8),
        def64(
            "nearbyint",
            D1,
            nearbyint as extern "C" fn(f64) -> f64 as *const u8,
        ),
        def(
            "fmaf",
            F3,
            fmaf as extern "C" fn(f32, f32, f32) -> f32 as *const u8,
        ),
        def("ceilf", F1, ceilf as extern "C" fn(f32) -> f32 as *const u8),
        def(
            "floorf",
            F1,
            floorf as extern "C" fn(f32) -> f32 as *const u8,
        ),
        def(
            "truncf",
            F1,
            truncf as extern "C" fn(f32) -> f32 as *const u8,
        ),
        def(
            "nearbyintf",
            F1,
            nearbyintf as extern "C" fn(f32) -> f32 as *const u8,
        ),
    ]
}
