//! Single NV/ARB instructions and their expansions: CVT, RCC/DP2A/X2D/RFL, packing, ARL, ARB expansions, KIL.

use crate::support::*;

/// CVT between integer widths and float, per NV_gpu_program5 "CVT": int results wrap
/// (drop the high bits, sign-extend for S) or clamp with SAT; float -> int rounds by the
/// rounding modifier (ROUND = to nearest even by default). Hand-computed: 200 as S8 wraps to
/// 200 - 256 = -56 and saturates to 127; -300 as U16 wraps to 65536 - 300 = 65236 and
/// saturates to 0; 70000 as S16 wraps to 70000 - 65536 = 4464; 2.5 rounds to 2 (nearest
/// even), floors to 2, ceils to 3; -2.5 truncates to -2; U8 of 300.7 saturates to 255.
#[test]
fn cvt_widths_and_rounding() {
    let text = "!!NVvp5.0
PARAM p = program.local[0];
PARAM g = program.local[1];
CVT.S8.S32 result.attrib[0].x, p.x;
CVT.S8.S32.SAT result.attrib[0].y, p.x;
CVT.U16.S32 result.attrib[0].z, p.y;
CVT.U16.S32.SAT result.attrib[0].w, p.y;
CVT.S16.U32 result.attrib[1].x, p.z;
CVT.F32.S32 result.attrib[1].y, p.y;
CVT.S32.F32 result.attrib[2].x, g.x;
CVT.S32.F32.FLR result.attrib[2].y, g.x;
CVT.S32.F32.CEIL result.attrib[2].z, g.x;
CVT.S32.F32.TRUNC result.attrib[2].w, g.y;
CVT.U8.F32.SAT result.attrib[3].x, g.z;
END
";
    let all = run_all(
        text,
        &[[200, i(-300), 70000, 0], [f(2.5), f(-2.5), f(300.7), 0]],
    );
    check(&all, "result.attrib[0]", 0xF, [i(-56), 127, 65236, 0]);
    check(&all, "result.attrib[1]", 0x3, [4464, f(-300.0), 0, 0]);
    check(&all, "result.attrib[2]", 0xF, [2, 2, 3, i(-2)]);
    check(&all, "result.attrib[3]", 0x1, [255, 0, 0, 0]);
}

/// NV_gpu_program4 §2.X.8: RCC clamps 1/s to +-[2^-64, 2^64]; DP2A adds c.x to DP2; X2D
/// r = (a.x + b.x*c.x + b.y*c.y, a.y + b.x*c.z + b.y*c.w, same, same); RFL reflects b about
/// a. Hand-computed with exact values: RCC(4) = 0.25, RCC(0) = 2^64, RCC(-2^70) =
/// -2^-64; DP2A((1,2),(3,4),5) = 16; X2D((1,2),(3,4),(5,6,7,8)) = (1+15+24, 2+21+32) =
/// (40, 55); RFL((0,0,1),(1,2,-1)) = 2*(-1)/1*(0,0,1) - (1,2,-1) = (-1, -2, -1).
#[test]
fn rcc_dp2a_x2d_rfl() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
PARAM b = program.local[1];
PARAM c = program.local[2];
RCC result.attrib[0].x, a.w;
RCC result.attrib[0].y, a.z;
RCC result.attrib[0].z, b.w;
DP2A result.attrib[1], a, b, {5}.x;
X2D result.attrib[2], a, b, c;
RFL result.attrib[3].xyz, {0, 0, 1, 0}, {1, 2, -1, 0};
END
";
    let all = run_all(
        text,
        &[
            [f(1.0), f(2.0), f(0.0), f(4.0)],
            [f(3.0), f(4.0), f(0.0), f(-(2f32.powi(70)))],
            [f(5.0), f(6.0), f(7.0), f(8.0)],
        ],
    );
    check(
        &all,
        "result.attrib[0]",
        0x7,
        [f(0.25), f(2f32.powi(64)), f(-(2f32.powi(-64))), 0],
    );
    check(&all, "result.attrib[1]", 0xF, [f(16.0); 4]);
    check(
        &all,
        "result.attrib[2]",
        0xF,
        [f(40.0), f(55.0), f(40.0), f(55.0)],
    );
    check(
        &all,
        "result.attrib[3]",
        0x7,
        [f(-1.0), f(-2.0), f(-1.0), 0],
    );
}

/// NV_gpu_program4 §2.X.8 PK2US / PK4B and their unpacks. Hand-computed: PK2US (1.0, 0.25)
/// = 65535 | round(16383.75) << 16 = 0x4000FFFF; PK4B (-2, 1, 0, 0.25): clamp to -128/127
/// -> byte 0, 127 + 128 = 255, 128, round(31.75 + 128) = 160 -> 0xA080FF00; UP2US gives
/// (1, 16384/65535, 1, 16384/65535); UP4B gives ((0-128)/127, 1, 0, 32/127).
#[test]
fn pack_unpack_16_and_signed_8() {
    let text = "!!NVvp5.0
TEMP p;
PK2US.U p.x, {1.0, 0.25};
PK4B.U p.y, {-2.0, 1.0, 0.0, 0.25};
MOV.U result.attrib[0].xy, p;
UP2US.U result.attrib[1], p.x;
UP4B.U result.attrib[2], p.y;
END
";
    let all = run_all(text, &[]);
    check(
        &all,
        "result.attrib[0]",
        0x3,
        [0x4000_FFFF, 0xA080_FF00, 0, 0],
    );
    let q = f(16384.0 / 65535.0);
    check(&all, "result.attrib[1]", 0xF, [f(1.0), q, f(1.0), q]);
    check(
        &all,
        "result.attrib[2]",
        0xF,
        [f(-128.0 / 127.0), f(1.0), f(0.0), f(32.0 / 127.0)],
    );
}

/// ARB_vertex_program §2.14.5.1 ARL (floor into the address register) and relative
/// addressing of a constant PARAM array (§2.14.1.3): arr[A0.x + 1] for x = -1.0, 0.5 and
/// 1.9 (floors -1, 0, 1) reads elements 0, 1 and 2.
#[test]
fn arl_and_relative_constant_array() {
    let text = "!!ARBvp1.0
PARAM arr[3] = { {1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12} };
ADDRESS a;
ARL a.x, vertex.attrib[0].x;
MOV result.texcoord[0], arr[a.x + 1];
END
";
    for (x, want) in [(-1.0, 1.0), (0.5, 5.0), (1.9, 9.0)] {
        let named = vec![("vertex.attrib[0]".to_string(), vec![[f(x), 0, 0, 0]])];
        let all = run_named(text, &named, 1);
        let w = [f(want), f(want + 1.0), f(want + 2.0), f(want + 3.0)];
        check(&all, "result.texcoord[0]", 0xF, w);
    }
}

/// ARB instructions with expansions (ARB_vertex_program §2.14.5): DPH = a.xyz.b.xyz + b.w,
/// XPD = cross product (w not written), SWZ with 0/1/negation, RSQ of |x|, ABS, SUB, FLR.
/// Inputs named by binding and by ATTRIB variable name.
#[test]
fn arb_vertex_expansions() {
    let text = "!!ARBvp1.0
ATTRIB p = vertex.attrib[1];
PARAM q = program.env[2];
TEMP t;
DPH result.texcoord[0], p, q;
MOV result.texcoord[1], {9, 9, 9, 9};
XPD result.texcoord[1].xyz, p, q;
SWZ result.texcoord[2], p, -y, 0, 1, -x;
RSQ result.texcoord[3], -q.w;
ABS t, -p;
SUB result.texcoord[4], t, q;
END
";
    let named = vec![
        ("p".to_string(), vec![[f(1.0), f(2.0), f(3.0), f(7.0)]]),
        (
            "program.env[2]".to_string(),
            vec![[f(4.0), f(5.0), f(6.0), f(4.0)]],
        ),
    ];
    let all = run_named(text, &named, 1);
    // 4 + 10 + 18 + 4 = 36; (2*6-3*5, 3*4-1*6, 1*5-2*4) = (-3, 6, -3); 1/sqrt(|-4|) = 0.5.
    check(&all, "result.texcoord[0]", 0xF, [f(36.0); 4]);
    check(
        &all,
        "result.texcoord[1]",
        0xF,
        [f(-3.0), f(6.0), f(-3.0), f(9.0)],
    );
    check(
        &all,
        "result.texcoord[2]",
        0xF,
        [f(-2.0), f(0.0), f(1.0), f(-1.0)],
    );
    check(&all, "result.texcoord[3]", 0xF, [f(0.5); 4]);
    check(
        &all,
        "result.texcoord[4]",
        0xF,
        [f(-3.0), f(-3.0), f(-3.0), f(3.0)],
    );
}

/// ARB_fragment_program §3.11.5.10 KIL: an invocation is discarded when any component of
/// the operand is negative (-0.0 is not negative).
#[test]
fn arb_fragment_kil() {
    let text = "!!ARBfp1.0
KIL fragment.texcoord[0];
MOV result.color, fragment.color;
END
";
    let tc = vec![
        [f(1.0), f(0.0), f(0.0), f(0.0)],
        [f(1.0), f(-0.5), f(0.0), f(0.0)],
        [f(-0.0), f(0.0), f(0.0), f(0.0)],
        [f(0.0), f(0.0), f(0.0), f(-1.0)],
    ];
    let all = run_named(text, &[("fragment.texcoord".to_string(), tc)], 4);
    for (engine, _, killed) in &all {
        assert_eq!(
            killed.as_deref(),
            Some(&[false, true, false, true][..]),
            "{engine}"
        );
    }
}

/// ARB temporaries start undefined (ARB_vertex_program issue 16; "temporary registers:
/// undefined" in both ARB specs' register tables): reading one before writing it gives
/// undefined result channels in the oracle, while every engine still starts it at zero
/// (INTERFACE.md); a written one is defined. NV programs: `undefined_start.rs`.
#[test]
fn arb_temporaries_start_undefined() {
    let run = |text: &str| {
        let p = shaderdiff_nv::parse(text, "t").expect("parses");
        let l = shaderdiff_nv::lower(&p).expect("lowers");
        let inputs = shaderdiff_backends::Inputs {
            invocations: 4,
            ..Default::default()
        };
        let o = shaderdiff_oracles::interp::run(&l.program, &inputs, &Default::default())
            .expect("runs");
        let (f, i) = l
            .names
            .lookup(l.stage, "result.color")
            .expect("result.color");
        let key = shaderdiff_oracles::RegKey::new(f, i);
        (
            o.registers[&key][0],
            o.undefined.get(&key).map_or(0, |u| u[0]),
        )
    };
    let unread = "!!ARBfp1.0\nTEMP t1;\nMOV result.color, -t1;\nEND\n";
    let (_, und) = run(unread);
    assert_eq!(und, 0xF);
    // Every engine (interp, jit, valhall): -0, the negated zero start, as for a zero TEMP.
    let vp = "!!ARBvp1.0\nTEMP t1;\nMOV result.texcoord[0], -t1;\nEND\n";
    check(&run_all(vp, &[]), "result.texcoord[0]", 0xF, [f(-0.0); 4]);
    let (v, und) = run("!!ARBfp1.0\nTEMP t1;\nMOV t1, 0.5;\nMOV result.color, -t1;\nEND\n");
    assert_eq!((v, und), ([f(-0.5); 4], 0));
}
