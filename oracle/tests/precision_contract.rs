//! The precision contract file: it loads, covers every opcode the oracle implements, its
//! numbers are the ones its sources state, and malformed files give located errors.

use shaderdiff_model::{Opcode, ALL_OPCODES};
use shaderdiff_oracles::interp::alu::is_alu;
use shaderdiff_oracles::precision::{
    contract_opcodes, BoundKind, ChannelRule, ContractError, DenormalPolicy, ErrorBound, Formula,
    InputRange, NanPolicy, NotDefinedPolicy, OverflowPolicy, PrecisionContract, RangeOf,
    SignedZeroPolicy, BUILTIN_TEXT,
};

fn builtin() -> &'static PrecisionContract {
    PrecisionContract::builtin()
}

#[test]
fn builtin_contract_loads() {
    let c = PrecisionContract::parse(BUILTIN_TEXT, "precision.toml");
    assert!(c.is_ok(), "{:?}", c.err());
    assert_eq!(c.map(|c| c.version()), Ok(1));
}

#[test]
fn every_implemented_opcode_has_a_bound_for_every_class() {
    let c = builtin();
    let mut n = 0;
    for &op in ALL_OPCODES {
        let implemented = is_alu(op)
            || matches!(
                op,
                Opcode::DDX
                    | Opcode::DDY
                    | Opcode::DDX_FINE
                    | Opcode::DDY_FINE
                    | Opcode::INTERP_CENTROID
                    | Opcode::INTERP_SAMPLE
                    | Opcode::INTERP_OFFSET
            );
        assert_eq!(contract_opcodes().any(|o| o == op), implemented, "{op}");
        if !implemented {
            assert!(
                c.op(op).is_none(),
                "{op} is not implemented but has an entry"
            );
            continue;
        }
        n += 1;
        for (i, class) in c.classes().iter().enumerate() {
            let cls = c.class(&class.name).expect("class");
            assert_eq!(cls.index(), i);
            let b = c
                .bound(op, cls)
                .unwrap_or_else(|| panic!("{op} has no bound for {}", class.name));
            assert!(
                !b.source.trim().is_empty(),
                "{op}/{}: no source",
                class.name
            );
        }
    }
    // is_alu lists 96 32-bit opcodes (alu.rs) and the 61 double and 64-bit integer opcodes
    // of opcodes.csv (wide.rs: 31 "Double ISA" with DNEG and DDIV, 30 "64-bit Integer
    // ISA"), plus the four derivatives and the three INTERP_* opcodes.
    assert_eq!(n, 164);
}

#[test]
fn engines_map_to_classes() {
    let c = builtin();
    let name = |e: &str| c.class_of_engine(e).map(|k| c.policy(k).name.clone());
    assert_eq!(name("interp").as_deref(), Some("cpu"));
    assert_eq!(name("jit").as_deref(), Some("cpu"));
    assert_eq!(name("valhall").as_deref(), Some("gpu"));
    // virgl runs on the same driver as mesa (llvmpipe), through GLSL instead of ARB.
    assert_eq!(name("mesa").as_deref(), Some("mesa-llvmpipe"));
    assert_eq!(name("virgl").as_deref(), Some("mesa-llvmpipe"));
    assert_eq!(name("other"), None);
    let cpu = c.policy(c.class("cpu").expect("cpu"));
    let gpu = c.policy(c.class("gpu").expect("gpu"));
    // EXEC-NOTES §0: tgsi_exec preserves denormals. Vulkan: denormals "may be flushed to zero";
    // beyond the largest float "either an infinity ... or the finite number with the largest
    // magnitude"; results not mathematically defined are undefined.
    assert_eq!(
        (
            cpu.denormals,
            cpu.overflow,
            cpu.not_defined,
            cpu.signed_zero
        ),
        (
            DenormalPolicy::Preserve,
            OverflowPolicy::Ieee,
            NotDefinedPolicy::Nan,
            SignedZeroPolicy::Exact
        )
    );
    assert_eq!(
        (gpu.denormals, gpu.overflow, gpu.not_defined),
        (
            DenormalPolicy::FlushAllowed,
            OverflowPolicy::InfOrMax,
            NotDefinedPolicy::Any
        )
    );
    assert_eq!(c.nan_default().0, NanPolicy::Any);
}

fn err(
    ulp: f64,
    per: f64,
    abs: f64,
    range: Option<(RangeOf, f64, f64)>,
    outside: Option<ErrorBound>,
) -> BoundKind {
    BoundKind::Error(ErrorBound {
        ulp,
        ulp_per_abs_x: per,
        abs,
        range: range.map(|(of, lo, hi)| InputRange { of, lo, hi }),
        outside: outside.map(Box::new),
    })
}

#[test]
fn bounds_are_the_numbers_their_sources_state() {
    let c = builtin();
    let gpu = c.class("gpu").expect("gpu");
    let cpu = c.class("cpu").expect("cpu");
    let kind = |op: Opcode, cls| c.bound(op, cls).expect("bound").kind.clone();
    // Vulkan, "Precision of GLSL.std.450 Instructions" / "Precision of core SPIR-V
    // Instructions", single precision, written out:
    //   exp2(x): 3 + 2 × |x| ULP
    assert_eq!(kind(Opcode::EX2, gpu), err(3.0, 2.0, 0.0, None, None));
    //   log2(): 3 ULP outside [0.5, 2.0]; absolute error < 2^-21 (4.76837158203125e-7) inside
    assert_eq!(
        kind(Opcode::LG2, gpu),
        err(
            0.0,
            0.0,
            4.76837158203125e-7,
            Some((RangeOf::X, 0.5, 2.0)),
            Some(ErrorBound {
                ulp: 3.0,
                ulp_per_abs_x: 0.0,
                abs: 0.0,
                range: None,
                outside: None
            })
        )
    );
    //   sin(), cos(): absolute error <= 2^-11 (4.8828125e-4) inside [-π, π]; nothing outside
    for op in [Opcode::SIN, Opcode::COS] {
        assert_eq!(
            kind(op, gpu),
            err(
                0.0,
                0.0,
                4.8828125e-4,
                Some((RangeOf::X, -std::f64::consts::PI, std::f64::consts::PI)),
                None
            )
        );
    }
    //   OpFDiv(x, y): 2.5 ULP for |y| in [2^-126, 2^126]; RCP = OpFDiv(1, x) (OpenCL: 1/x 2.5 ulp)
    let (lo, hi) = (1.1754943508222875e-38, 8.507059173023462e37);
    assert_eq!(
        kind(Opcode::DIV, gpu),
        err(2.5, 0.0, 0.0, Some((RangeOf::AbsY, lo, hi)), None)
    );
    assert_eq!(
        kind(Opcode::RCP, gpu),
        err(2.5, 0.0, 0.0, Some((RangeOf::AbsX, lo, hi)), None)
    );
    //   inversesqrt(): 2 ULP; sqrt(): inherited from 1.0 / inversesqrt();
    //   pow(x, y): inherited from exp2(y × log2(x))
    assert_eq!(kind(Opcode::RSQ, gpu), err(2.0, 0.0, 0.0, None, None));
    assert_eq!(
        kind(Opcode::SQRT, gpu),
        BoundKind::Inherited(Formula::RcpOfRsq)
    );
    assert_eq!(
        kind(Opcode::POW, gpu),
        BoundKind::Inherited(Formula::Ex2OfYLg2X)
    );
    //   OpFAdd, OpFSub, OpFMul: correctly rounded; comparisons: correct result
    for op in [
        Opcode::ADD,
        Opcode::SUB,
        Opcode::MUL,
        Opcode::SLT,
        Opcode::FSEQ,
    ] {
        assert_eq!(kind(op, gpu), BoundKind::Exact, "{op}");
    }
    // Doubles: Vulkan "The precision of double-precision instructions is at least that of
    // single precision": OpFDiv 2.5 ULP (DRCP = 1/x), inversesqrt() 2 ULP, in binary64 ulps.
    // cpu: the jit's 1.0 / x is correctly rounded (exact); its 1.0 / sqrt(x) rounds twice,
    // each with relative error <= 2^-53, so within 2 binary64 ulp.
    assert_eq!(kind(Opcode::DRCP, gpu), err(2.5, 0.0, 0.0, None, None));
    assert_eq!(kind(Opcode::DRCP, cpu), BoundKind::Exact);
    assert_eq!(kind(Opcode::DRSQ, gpu), err(2.0, 0.0, 0.0, None, None));
    assert_eq!(kind(Opcode::DRSQ, cpu), err(2.0, 0.0, 0.0, None, None));
    // tgsi.rst DMAD does not say whether the product is rounded (DFMA is the fused form).
    assert_eq!(kind(Opcode::DMAD, cpu), BoundKind::FusedOrUnfused);
    assert_eq!(kind(Opcode::DMAD, gpu), BoundKind::FusedOrUnfused);
    for op in [
        Opcode::DADD,
        Opcode::DMUL,
        Opcode::DDIV,
        Opcode::DSQRT,
        Opcode::DFMA,
    ] {
        assert_eq!(kind(op, gpu), BoundKind::Exact, "{op}");
    }
    // tgsi.rst MAD: "free to decide whether there is an intermediate rounding step";
    // Vulkan fma(): inherited from OpFMul followed by OpFAdd; dot, fmix (LRP), cross (XPD)
    // are inherited formulas of products and sums.
    for op in [
        Opcode::MAD,
        Opcode::DP2,
        Opcode::DP3,
        Opcode::DP4,
        Opcode::DPH,
        Opcode::LRP,
        Opcode::XPD,
    ] {
        assert_eq!(kind(op, gpu), BoundKind::FusedOrUnfused, "{op}");
        assert_eq!(kind(op, cpu), BoundKind::FusedOrUnfused, "{op}");
    }
    // tgsi.rst FMA: "no intermediate rounding step" — one rounding, exact.
    assert_eq!(kind(Opcode::FMA, gpu), BoundKind::Exact);
    // The oracle's transcendentals: libm in binary64 rounded once, within 0.5 + 2^-29 ulp
    // (0.5000000018626451) — the cpu class's bound (special.rs module docs).
    for op in [
        Opcode::EX2,
        Opcode::LG2,
        Opcode::POW,
        Opcode::SIN,
        Opcode::COS,
    ] {
        assert_eq!(
            kind(op, cpu),
            err(0.5000000018626451, 0.0, 0.0, None, None),
            "{op}"
        );
    }
    // RSQ: binary64 sqrt then divide, two roundings of 2^-53 relative: at most 2 binary64
    // ulp = 2^-28 binary32 ulp (0.5000000037252903) before the final rounding.
    assert_eq!(
        kind(Opcode::RSQ, cpu),
        err(0.5000000037252903, 0.0, 0.0, None, None)
    );
    for op in [Opcode::DIV, Opcode::RCP, Opcode::SQRT, Opcode::ADD] {
        assert_eq!(kind(op, cpu), BoundKind::Exact, "{op}");
    }
    // EXEC-NOTES §0: ±0 ties of MIN/MAX are unspecified.
    assert_eq!(c.signed_zero(Opcode::MIN, cpu), SignedZeroPolicy::Either);
    assert_eq!(c.signed_zero(Opcode::MAX, gpu), SignedZeroPolicy::Either);
    assert_eq!(c.signed_zero(Opcode::ADD, cpu), SignedZeroPolicy::Exact);
    // tgsi.rst EXP/LOG/LIT channel formulas.
    use ChannelRule::{As, Exact};
    assert_eq!(
        kind(Opcode::EXP, gpu),
        BoundKind::Channels([Exact, As(Opcode::FRC), As(Opcode::EX2), Exact])
    );
    assert_eq!(
        kind(Opcode::LOG, gpu),
        BoundKind::Channels([Exact, Exact, As(Opcode::LG2), Exact])
    );
    assert_eq!(
        kind(Opcode::LIT, cpu),
        BoundKind::Channels([Exact, As(Opcode::MAX), As(Opcode::POW), Exact])
    );
}

fn load_err(text: &str) -> ContractError {
    match PrecisionContract::parse(text, "bad.toml") {
        Err(e) => e,
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

/// The builtin text with `from` replaced by `to` (exactly once).
fn edited(from: &str, to: &str) -> String {
    assert_eq!(BUILTIN_TEXT.matches(from).count(), 1, "{from}");
    BUILTIN_TEXT.replacen(from, to, 1)
}

fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let off = text.find(needle).expect("needle");
    let before = &text[..off];
    (
        before.matches('\n').count() + 1,
        off - before.rfind('\n').map_or(0, |i| i + 1) + 1,
    )
}

#[test]
fn malformed_files_give_located_errors() {
    // TOML syntax error.
    let e = load_err("version = 1\n[policy\n");
    assert_eq!((e.file.as_str(), e.line), ("bad.toml", 2));
    // Unknown opcode name: points at the key.
    let t = edited("[op.FMA]", "[op.FMAX]");
    let e = load_err(&t);
    assert_eq!((e.line, e.col), line_col(&t, "FMAX"));
    assert!(e.message.contains("FMAX"), "{e}");
    // An error bound on an opcode that cannot take one.
    let t = edited("[op.DST]\nall = \"exact\"", "[op.DST]\nall = { ulp = 1 }");
    let e = load_err(&t);
    assert_eq!((e.line, e.col), line_col(&t, "{ ulp = 1 }"));
    assert!(e.message.contains("DST"), "{e}");
    // A malformed number.
    let t = edited("abs = \"2^-21\"", "abs = \"2^-x\"");
    let e = load_err(&t);
    assert!(e.message.contains("exponent"), "{e}");
    assert_eq!(e.line, line_col(&t, "2^-x").0);
    // A missing opcode.
    let start = BUILTIN_TEXT.find("[op.DST]").expect("DST entry");
    let end = start + BUILTIN_TEXT[start..].find("\n\n").expect("end of entry");
    let t = format!("{}{}", &BUILTIN_TEXT[..start], &BUILTIN_TEXT[end..]);
    let e = load_err(&t);
    assert!(e.message.contains("DST"), "{e}");
    // A bound without a source.
    let t = "version = 1\n[policy]\nnan = \"any\"\nsource = \"s\"\n[engines]\njit = \"cpu\"\n\
             [class.cpu]\ndenormals = \"preserve\"\nsigned_zero = \"exact\"\noverflow = \"ieee\"\n\
             not_defined = \"nan\"\nsource = \"s\"\n[op.ADD]\nall = \"exact\"\n";
    let e = load_err(t);
    assert!(e.message.contains("source"), "{e}");
    let (line, col) = line_col(t, "all = \"exact\"");
    assert_eq!((e.line, e.col), (line, col + "all = ".len()));
    // An opcode listed twice.
    let t = edited("ops = [\"MAD\"]", "ops = [\"MAD\", \"ADD\"]");
    let e = load_err(&t);
    assert!(e.message.contains("twice"), "{e}");
    // fused_or_unfused where it makes no sense; an unknown class; an engine of no class.
    let e = load_err(&edited(
        "[op.FMA]\nall = \"exact\"",
        "[op.FMA]\nall = \"fused_or_unfused\"",
    ));
    assert!(e.message.contains("FMA"), "{e}");
    let e = load_err(&edited(
        "[op.FMA]\nall = \"exact\"",
        "[op.FMA]\nall = \"exact\"\ntpu = \"exact\"",
    ));
    assert!(e.message.contains("tpu"), "{e}");
    let t = edited("valhall = \"gpu\"", "valhall = \"npu\"");
    let e = load_err(&t);
    assert_eq!((e.line, e.col), line_col(&t, "\"npu\""));
    // Display: file:line:col: message.
    assert!(e
        .to_string()
        .starts_with(&format!("bad.toml:{}:{}: ", e.line, e.col)));
}
