//! NV / ARB programs lowered to the shared IR run on every engine (oracle first) and give the
//! values worked out by hand in ../shared/spec/nv/NOTES.md §16 (expected values are copied
//! from the notes' tables, not from any engine's output).

use shaderdiff_backends::{engine, EngineConfig, Inputs, ENGINE_NAMES};
use shaderdiff_ir::nv;
use shaderdiff_ir::File;
use shaderdiff_oracles::RegKey;

type Results = Vec<(String, Vec<(String, [u32; 4])>, Option<Vec<bool>>)>;

/// Lowers `text`, sets `program.local[i]` to `locals[i]`, runs one invocation on every
/// engine and returns each engine's outputs keyed by NV result name.
fn run_all(text: &str, locals: &[[u32; 4]]) -> Results {
    let named: Vec<(String, Vec<[u32; 4]>)> = locals
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("program.local[{i}]"), vec![*v]))
        .collect();
    run_named(text, &named, 1)
}

/// Lowers `text`, sets each named register (inputs file names: bindings or variable
/// names; one vec4 per invocation, or one for all) and runs on every engine, the oracle
/// first. Returns per engine its invocation-0 outputs by NV name and the killed flags.
fn run_named(text: &str, named: &[(String, Vec<[u32; 4]>)], invocations: usize) -> Results {
    let p = nv::parse(text, "t.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    shaderdiff_ir::validate::validate(&l.program, "lowered").expect("valid IR");
    let mut inputs = Inputs {
        invocations,
        ..Inputs::default()
    };
    for (name, v) in named {
        let Some((f, idx)) = l.names.lookup(l.stage, name) else {
            continue;
        };
        if f == File::Const {
            inputs.constants.insert(RegKey::new(f, idx), v[0]);
        } else {
            inputs.registers.insert(RegKey::new(f, idx), v.clone());
        }
    }
    let mut all = Vec::new();
    for name in ENGINE_NAMES {
        let e = engine(name, &EngineConfig::default()).expect("engine");
        let out = e
            .execute(&l.program, &inputs)
            .unwrap_or_else(|err| panic!("{name}: {err}"));
        let regs = out
            .registers
            .iter()
            .map(|(k, v)| {
                let n = l.names.name_of(k.file, k.index).expect("named").to_string();
                (n, v[0])
            })
            .collect();
        all.push((name.to_string(), regs, out.killed.clone()));
    }
    all
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn i(x: i32) -> u32 {
    x as u32
}

/// Checks the written channels (`mask`) of `result.attrib[n]` on every engine.
fn check(all: &Results, reg: &str, mask: u8, want: [u32; 4]) {
    for (engine, regs, _) in all {
        let got = regs
            .iter()
            .find(|(n, _)| n == reg)
            .unwrap_or_else(|| panic!("{engine}: no {reg} in {regs:?}"))
            .1;
        for c in 0..4 {
            if mask & (1 << c) != 0 {
                assert_eq!(
                    got[c], want[c],
                    "{engine}: {reg} channel {c}: got {:#x} want {:#x}",
                    got[c], want[c]
                );
            }
        }
    }
}

/// NOTES.md §16 Example 1: float ALU, swizzle, negate/abs, write masks, SAT/SSAT.
#[test]
fn example_1_float_alu() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
PARAM b = program.local[1];
TEMP t, u;
ADD.F t, a, b;
MUL.F u, a, b.yxwz;
MAD.F result.attrib[0], t, {2, 2, 2, 2}, -u;
DP3.F result.attrib[1].x, a, b;
MOV.F result.attrib[1].yzw, -|a.wzyx|;
ADD.F.SAT result.attrib[2], a, 0.5;
ADD.F.SSAT result.attrib[3], a, -b;
END
";
    let all = run_all(
        text,
        &[
            [f(1.5), f(-2.0), f(0.25), f(4.0)],
            [f(2.0), f(3.0), f(-1.0), f(0.5)],
        ],
    );
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(2.5), f(6.0), f(-1.625), f(13.0)],
    );
    check(
        &all,
        "result.attrib[1]",
        0xF,
        [f(-3.25), f(-0.25), f(-2.0), f(-1.5)],
    );
    check(
        &all,
        "result.attrib[2]",
        0xF,
        [f(1.0), f(0.0), f(0.75), f(1.0)],
    );
    check(
        &all,
        "result.attrib[3]",
        0xF,
        [f(-0.5), f(-1.0), f(1.0), f(1.0)],
    );
}

/// NOTES.md §16 Example 2: integer arithmetic, wrap-around, shifts, logic, MOD/DIV,
/// MUL.HI, SAD.
#[test]
fn example_2_integer_alu() {
    let text = "!!NVvp5.0
PARAM p = program.local[0];
PARAM q = program.local[1];
TEMP i;
ADD.S result.attrib[0], p, q;
SHL.S i.x, p.y, 3;
SHR.S i.y, p.y, 1;
SHR.U i.z, p.y, 28;
DIV.S i.w, p.z, q.y;
MOV.S result.attrib[1], i;
AND.U result.attrib[2].x, p.w, q.w;
OR.U  result.attrib[2].y, p.w, q.w;
XOR.U result.attrib[2].z, p.w, q.w;
NOT.U result.attrib[2].w, p.w;
MOD.U result.attrib[3].x, p.z, q.z;
MUL.S result.attrib[3].y, p.y, q.z;
MUL.U.HI result.attrib[3].z, p.x, 4;
SAD.S result.attrib[3].w, p.y, q.z, 100;
END
";
    let all = run_all(
        text,
        &[
            [i(2147483647), i(-7), 12, 0x0000_F0F0],
            [1, 2, 5, 0x00FF_00FF],
        ],
    );
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [0x8000_0000, i(-5), 17, 0x00FF_F1EF],
    );
    check(&all, "result.attrib[1]", 0xF, [0xFFFF_FFC8, i(-4), 15, 6]);
    check(
        &all,
        "result.attrib[2]",
        0xF,
        [0xF0, 0x00FF_F0FF, 0x00FF_F00F, 0xFFFF_0F0F],
    );
    check(&all, "result.attrib[3]", 0xF, [2, i(-35), 1, 112]);
}

/// NOTES.md §16 Example 3: set-on results per type, CMP, SSG, MIN/MAX signedness.
#[test]
fn example_3_set_on_and_compare() {
    let text = "!!NVvp5.0
PARAM f = program.local[0];
PARAM g = program.local[1];
PARAM n = program.local[2];
SEQ.F result.attrib[0], f, g;
SLT.F result.attrib[1], f, g;
SGE.S result.attrib[2], n, 0;
SGE.U result.attrib[3], n, 4;
CMP.F result.attrib[4], f, {10, 20, 30, 40}, {-1, -2, -3, -4};
SSG.F result.attrib[5], f;
MAX.S result.attrib[6], n, 2;
MIN.U result.attrib[7], n, 2;
END
";
    let all = run_all(
        text,
        &[
            [f(1.0), f(-2.0), f(0.0), f(3.0)],
            [f(1.0), f(5.0), f(-0.0), f(2.0)],
            [i(-1), 4, 0, 7],
        ],
    );
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(1.0), f(0.0), f(1.0), f(0.0)],
    );
    check(
        &all,
        "result.attrib[1]",
        0xF,
        [f(0.0), f(1.0), f(0.0), f(0.0)],
    );
    check(&all, "result.attrib[2]", 0xF, [0, i(-1), i(-1), i(-1)]);
    check(
        &all,
        "result.attrib[3]",
        0xF,
        [u32::MAX, u32::MAX, 0, u32::MAX],
    );
    check(
        &all,
        "result.attrib[4]",
        0xF,
        [f(-1.0), f(20.0), f(-3.0), f(-4.0)],
    );
    check(
        &all,
        "result.attrib[5]",
        0xF,
        [f(1.0), f(-1.0), f(0.0), f(1.0)],
    );
    check(&all, "result.attrib[6]", 0xF, [2, 4, 2, 7]);
    check(&all, "result.attrib[7]", 0xF, [2, 2, 0, 2]);
}

/// REP with an integer, a float (floor) and a non-positive count, REP without a count left
/// by BRK, CONT (which still counts the iteration) and nested loops (NV_gpu_program4
/// §2.X.5.2 / NOTES.md §8). Example 6 itself needs condition codes (CONT (NE.x), BRK
/// (LT.y), IF EQ.z), so its loop shapes are checked here without them. Hand-computed:
/// 5 iterations of +1; floor(2.7) = 2 iterations of +3; -1 iterations; one pass of +5
/// before BRK; CONT skips every `c.y` add but the loop still ends after 5; 3 x 4 nested.
#[test]
fn example_6_loops_without_condition_codes() {
    let text = "!!NVvp5.0
PARAM n = program.local[0];
TEMP acc, c;
MOV.S acc, 0;
MOV.S c, 0;
REP.S n.x;
  ADD.S acc.x, acc.x, 1;
ENDREP;
REP.F n.y;
  ADD.S acc.y, acc.y, 3;
ENDREP;
REP.S n.z;
  ADD.S acc.z, acc.z, 1;
ENDREP;
REP;
  ADD.S acc.w, acc.w, 5;
  BRK;
ENDREP;
REP.S n.x;
  ADD.S c.x, c.x, 1;
  CONT;
  ADD.S c.y, c.y, 1;
ENDREP;
REP.S 3;
  REP.S 4;
    ADD.S c.z, c.z, 1;
  ENDREP;
ENDREP;
MOV.S result.attrib[0], acc;
MOV.S result.attrib[1], c;
END
";
    let all = run_all(text, &[[5, f(2.7), i(-1), 0]]);
    check(&all, "result.attrib[0]", 0xF, [5, 6, 0, 5]);
    check(&all, "result.attrib[1]", 0x7, [5, 0, 12, 0]);
}

/// NOTES.md §16 Example 7 without its condition codes: execution starts at `main`,
/// `absdiff` ends at the next label (implicit RET), `CAL (TR)` calls and `CAL (FL)` does
/// not. Values from the notes' table: attrib[0] = (81, 256, 0, 0), s.x = 7.
#[test]
fn example_7_subroutines_and_main() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP r, s;
square:
  MUL.F r, r, r;
  RET;
absdiff:
  SUB.F s.x, r.x, r.y;
  MOV.F s.x, |s.x|;
main:
  MOV.F r, a;
  CAL absdiff;
  CAL square;
  CAL square (TR);
  CAL square (FL);
  MOV.F result.attrib[0], r;
  MOV.F result.attrib[1].x, s;
END
";
    let all = run_all(text, &[[f(3.0), f(-4.0), 0, 0]]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(81.0), f(256.0), f(0.0), f(0.0)],
    );
    check(&all, "result.attrib[1]", 0x1, [f(7.0), 0, 0, 0]);
}

/// NOTES.md §16 Example 8: FLR/CEIL/TRUNC/ROUND to S, FRC, I2F, CVT with wrap and SAT,
/// PK2H / PK4UB and their unpacks (UP4UB's 64/255 is the float nearest 64/255).
#[test]
fn example_8_conversions() {
    let text = "!!NVvp5.0
PARAM f = program.local[0];
TEMP i, p;
FLR.S result.attrib[0], f;
CEIL.S result.attrib[1], f;
TRUNC.S result.attrib[2], f;
ROUND.S result.attrib[3], f;
FRC.F result.attrib[4], f;
TRUNC.S i, f;
I2F.S result.attrib[5], i;
CVT.U8.S32 result.attrib[6], i;
CVT.U8.S32.SAT result.attrib[7], i;
PK2H.U p.x, {1.0, -2.0};
PK4UB.U p.y, {0.0, 1.0, 0.25, 2.0};
UP2H.F result.attrib[8], p.x;
UP4UB.F result.attrib[9], p.y;
MOV.U result.attrib[10].xy, p;
END
";
    let all = run_all(text, &[[f(-1.5), f(2.5), f(3.7), f(-0.5)]]);
    check(&all, "result.attrib[0]", 0xF, [i(-2), 2, 3, i(-1)]);
    check(&all, "result.attrib[1]", 0xF, [i(-1), 3, 4, 0]);
    check(&all, "result.attrib[2]", 0xF, [i(-1), 2, 3, 0]);
    check(&all, "result.attrib[3]", 0xF, [i(-2), 2, 4, 0]);
    check(
        &all,
        "result.attrib[4]",
        0xF,
        [f(0.5), f(0.5), f(0.700_000_05), f(0.5)],
    );
    check(
        &all,
        "result.attrib[5]",
        0xF,
        [f(-1.0), f(2.0), f(3.0), f(0.0)],
    );
    check(&all, "result.attrib[6]", 0xF, [255, 2, 3, 0]);
    check(&all, "result.attrib[7]", 0xF, [0, 2, 3, 0]);
    check(
        &all,
        "result.attrib[8]",
        0xF,
        [f(1.0), f(-2.0), f(1.0), f(-2.0)],
    );
    check(
        &all,
        "result.attrib[9]",
        0xF,
        [f(0.0), f(1.0), f(64.0 / 255.0), f(1.0)],
    );
    check(
        &all,
        "result.attrib[10]",
        0x3,
        [0xC000_3C00, 0xFF40_FF00, 0, 0],
    );
}

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

/// Example 9's bitfield lines (BFE/BFI with NV's width/offset operand, BFR, BTC, BTFL,
/// BTFM); its 64-bit half is not lowered. Values from the notes' table.
#[test]
fn example_9_bitfields() {
    let text = "!!NVvp5.0
PARAM v = program.local[0];
TEMP t;
BFE.U t.x, {4, 4}, v.x;
BFE.S t.y, {4, 4}, v.x;
BFI.U t.z, {8, 8}, 0xAB, v.z;
BFR.U t.w, v.x;
MOV.U result.attrib[0], t;
BTC.U result.attrib[1].x, v.z;
BTFL.U result.attrib[1].y, v.y;
BTFM.S result.attrib[1].z, v.y;
BTFM.U result.attrib[1].w, v.w;
END
";
    let all = run_all(text, &[[0xF0, 0x8000_0000, 0x1234_FF78, 0]]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [15, u32::MAX, 0x1234_AB78, 0x0F00_0000],
    );
    check(&all, "result.attrib[1]", 0xF, [17, 31, 30, u32::MAX]);
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

/// What the lowering does not do yet is refused with the instruction and its position,
/// never lowered approximately: carry / overflow flags of integer SAD and of a
/// negated ADD / SUB, CVT with F16, 64-bit, memory and textures.
#[test]
fn unsupported_constructs_are_refused_with_their_position() {
    let cases: &[(&str, &str, (u32, u32))] = &[
        (
            "!!NVvp5.0\nTEMP t;\nADD.S.CC t, t, -t;\nEND\n",
            "negated operand",
            (3, 1),
        ),
        (
            "!!NVvp5.0\nTEMP t;\n  SAD.U.CC t, t, t, t;\nEND\n",
            "SAD.CC",
            (3, 3),
        ),
        (
            "!!NVvp5.0\nTEMP i;\nCVT.F16.S32 result.attrib[0], i;\nEND\n",
            "CVT",
            (3, 1),
        ),
        ("!!NVvp5.0\nTEMP p;\n MEMBAR;\nEND\n", "MEMBAR", (3, 2)),
        ("!!NVvp5.0\nLONG TEMP d;\nEND\n", "LONG", (2, 1)),
        (
            "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n",
            "TEX",
            (2, 1),
        ),
    ];
    for (text, what, (line, col)) in cases {
        let p = nv::parse(text, "t.nv").unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = nv::lower(&p).expect_err(text);
        assert!(
            matches!(e, nv::LowerError::Unsupported { .. }),
            "{text}: {e}"
        );
        assert!(e.to_string().contains(what), "{text}: {e}");
        assert_eq!((e.pos().line, e.pos().col), (*line, *col), "{text}: {e}");
    }
}

/// The ARB programs of ../shared/corpus/nv without textures run on every engine through
/// `shaderdiff diff` and agree with the oracle; the ones using something not lowered yet
/// are reported `unsupported` (exit 3), the piglit negative tests are bad input (exit 2).
#[test]
fn arb_corpus_agrees_on_every_engine() {
    let dir = std::env::var_os("SHADERDIFF_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
        .join("corpus/nv");
    // Refused, with the reason: BRA with condition codes, textures.
    let refused = [
        "Igalia_piglit_asmparsertest_ARBvp10_bra_01.arbvp",
        "Igalia_piglit_asmparsertest_ARBvp10_bra_03.arbvp",
        "Igalia_piglit_asmparsertest_ARBfp10_shadow_01.arbfp",
        "Igalia_piglit_asmparsertest_ARBfp10_txd_01.arbfp",
        "NVIDIA_cuda-samples_boxFilter_cpp_1.arbfp",
        "drbrain_opengl_fbo_test_rb_2.arbfp",
        "freedesktop_mesa-demos_fp_tex_pos_kil.arbfp",
    ];
    // Negative parser tests (the program must fail to load).
    let invalid = [
        "Igalia_piglit_asmparsertest_ARBfp10_ddx_01.arbfp",
        "Igalia_piglit_asmparsertest_ARBfp10_swz_05.arbfp",
        "Igalia_piglit_asmparsertest_ARBvp10_numbers_03.arbvp",
        "Igalia_piglit_asmparsertest_ARBvp10_ssg_01.arbvp",
    ];
    let mut agreed = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "arbvp" || x == "arbfp"))
        .collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_shaderdiff"))
            .args(["diff", &path.display().to_string(), "--random-inputs", "4"])
            .args(["--format", "json"])
            .output()
            .expect("runs");
        let code = o.status.code();
        let out = String::from_utf8_lossy(&o.stdout);
        if invalid.contains(&name.as_str()) {
            assert_eq!(code, Some(2), "{name}: {out}");
        } else if refused.contains(&name.as_str()) {
            assert_eq!(code, Some(3), "{name}: {out}");
            assert!(out.contains("\"unsupported\""), "{name}: {out}");
        } else {
            assert_eq!(code, Some(0), "{name}: {out}");
            assert!(out.contains("\"verdict\":\"agree\""), "{name}: {out}");
            agreed += 1;
        }
    }
    assert!(agreed >= 15, "only {agreed} ARB programs compared");
}

/// NV_gpu_program4 §2.X.5: `IF TR` takes the IF block and `IF FL` the ELSE block (the
/// condition codes are not read); RET in the main program ends it (the subroutine after it
/// is not run). Hand-computed: t = (1, 1, 1, 1), t.x = 2, t.y = 7.
#[test]
fn constant_conditions_and_ret_in_main() {
    let text = "!!NVvp5.0
TEMP t;
MOV.F t, 1;
IF TR;
  MOV.F t.x, 2;
ELSE;
  MOV.F t.x, 3;
ENDIF;
IF FL;
  MOV.F t.y, 5;
ELSE;
  MOV.F t.y, 7;
ENDIF;
MOV.F result.attrib[0], t;
MOV.F result.attrib[1], 4;
RET;
sub:
MOV.F result.attrib[0], 9;
END
";
    let all = run_all(text, &[]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(2.0), f(7.0), f(1.0), f(1.0)],
    );
    check(&all, "result.attrib[1]", 0xF, [f(4.0); 4]);
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

/// NOTES.md §16 Example 4: float condition codes, NaN, conditional write masks, CC swizzle,
/// CC1. Values from the notes' table.
#[test]
fn example_4_float_condition_codes() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP t;
MOV.F.CC t, a;
MOV.F result.attrib[0], 0;
MOV.F result.attrib[0] (GT), 1;
MOV.F result.attrib[1], 0;
MOV.F result.attrib[1] (LT), 1;
MOV.F result.attrib[2], 0;
MOV.F result.attrib[2] (NAN), 1;
MOV.F result.attrib[3], 0;
MOV.F result.attrib[3] (NE.wzyx), 1;
ADD.F.CC1 t.xy, a, 1;
MOV.F result.attrib[4], 0;
MOV.F result.attrib[4].xy (EQ1), 1;
END
";
    let all = run_all(text, &[[f(-1.0), f(0.0), f(2.0), 0x7FC0_0000]]);
    let b = |v: [u8; 4]| v.map(|x| f(f32::from(x)));
    check(&all, "result.attrib[0]", 0xF, b([0, 0, 1, 0]));
    check(&all, "result.attrib[1]", 0xF, b([1, 0, 0, 0]));
    check(&all, "result.attrib[2]", 0xF, b([0, 0, 0, 1]));
    check(&all, "result.attrib[3]", 0xF, b([1, 1, 0, 1]));
    check(&all, "result.attrib[4]", 0xF, b([1, 0, 0, 0]));
}

/// NOTES.md §16 Example 5: integer condition codes with carry and overflow. Values from
/// the notes' table.
#[test]
fn example_5_integer_condition_codes() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
PARAM b = program.local[1];
TEMP t, s;
ADD.U.CC t, a, b;
SUB.U.CC1 s, b, a;
MOV.U result.attrib[0], 0;
MOV.U result.attrib[0] (CF), 1;
MOV.U result.attrib[1], 0;
MOV.U result.attrib[1] (OF), 1;
MOV.U result.attrib[2], 0;
MOV.U result.attrib[2] (GT), 1;
MOV.U result.attrib[3], 0;
MOV.U result.attrib[3] (EQ), 1;
MOV.U result.attrib[4], 0;
MOV.U result.attrib[4] (AB1), 1;
MOV.U result.attrib[5], 0;
MOV.U result.attrib[5] (LT1), 1;
MOV.U result.attrib[6], t;
MOV.U result.attrib[7], s;
END
";
    let all = run_all(text, &[[u32::MAX, 0x7FFF_FFFF, 5, 3], [1, 1, 3, 5]]);
    check(&all, "result.attrib[0]", 0xF, [1, 0, 0, 0]);
    check(&all, "result.attrib[1]", 0xF, [0, 1, 0, 0]);
    check(&all, "result.attrib[2]", 0xF, [0, 1, 1, 1]);
    check(&all, "result.attrib[3]", 0xF, [1, 0, 0, 0]);
    check(&all, "result.attrib[4]", 0xF, [0, 0, 0, 1]);
    check(&all, "result.attrib[5]", 0xF, [0, 1, 1, 0]);
    check(&all, "result.attrib[6]", 0xF, [0, 0x8000_0000, 8, 8]);
    check(
        &all,
        "result.attrib[7]",
        0xF,
        [2, 0x8000_0002, 0xFFFF_FFFE, 2],
    );
}

/// NOTES.md §16 Example 6 as written: REP with CONT (NE.x), REP with BRK (LT.y), nested
/// IF/ELSE on condition codes. Values from the notes' table.
#[test]
fn example_6_loops_and_ifs_with_condition_codes() {
    let text = "!!NVvp5.0
PARAM n = program.local[0];
TEMP i, acc, c;
MOV.S acc, 0;
MOV.S i.x, 0;
REP.S n.x;
  ADD.S i.x, i.x, 1;
  SEQ.S.CC c.x, i.x, n.y;
  CONT (NE.x);
  ADD.S acc.x, acc.x, i.x;
ENDREP;
MOV.S c.y, 10;
MOV.S i.y, 0;
REP;
  SUB.S.CC c.y, c.y, 3;
  BRK (LT.y);
  ADD.S i.y, i.y, 1;
ENDREP;
MOV.S.CC c.z, n.z;
IF EQ.z;
  MOV.S i.z, 100;
  MOV.S.CC c.w, n.y;
  IF LE.w;
    MOV.S i.w, 1;
  ELSE;
    MOV.S i.w, 2;
  ENDIF;
ELSE;
  MOV.S i.z, 200;
ENDIF;
MOV.S result.attrib[0].x, acc.x;
MOV.S result.attrib[0].yzw, i;
MOV.S result.attrib[1], c;
MOV.S result.attrib[2].x, i.x;
END
";
    let all = run_all(text, &[[5, 3, 0, 0]]);
    check(&all, "result.attrib[0]", 0xF, [12, 3, 100, 2]);
    check(&all, "result.attrib[1]", 0xF, [0, i(-2), 0, 3]);
    check(&all, "result.attrib[2]", 0x1, [5, 0, 0, 0]);
}

/// NOTES.md §16 Example 7 as written (conditional CAL / RET) and its variant. Values from
/// the notes.
#[test]
fn example_7_conditional_calls() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
TEMP r, s;
square:
  MUL.F r, r, r;
  RET;
absdiff:
  SUB.F.CC s.x, r.x, r.y;
  RET (EQ.x);
  MOV.F s.x, |s.x|;
  RET;
main:
  MOV.F r, a;
  CAL absdiff;
  CAL square;
  MOV.F.CC s.y, r.x;
  CAL square (GT.y);
  MOV.F.CC s.z, -r.x;
  CAL square (GT.z);
  MOV.F result.attrib[0], r;
  MOV.F result.attrib[1].xyz, s;
END
";
    let all = run_all(text, &[[f(3.0), f(-4.0), 0, 0]]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(81.0), f(256.0), f(0.0), f(0.0)],
    );
    check(&all, "result.attrib[1]", 0x7, [f(7.0), f(9.0), f(-81.0), 0]);
    let all = run_all(text, &[[f(2.0), f(2.0), 0, 0]]);
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [f(16.0), f(16.0), f(0.0), f(0.0)],
    );
    check(&all, "result.attrib[1]", 0x7, [f(0.0), f(4.0), f(-16.0), 0]);
}

/// Integer MAD with .CC (NOTES.md §7: OF / CF of the addition for ADD, SUB, MAD, SAD).
/// x: 0x10000 * 0x10000 wraps to 0, plus 0xFFFFFFFF is 0xFFFFFFFF, no carry. y: 0x8000 * 2
/// is 0x10000, plus 0xFFFF0000 is 2^32, so 0 with carry (CF, ZF). z: 0x40000000 * 1 plus
/// 0x40000000 is 0x80000000, a signed overflow (OF; GT because OF flips SF). w: 3 * 3 plus
/// 1 is 10, no flag.
#[test]
fn integer_mad_carry_and_overflow() {
    let text = "!!NVvp5.0
PARAM a = program.local[0];
PARAM b = program.local[1];
PARAM c = program.local[2];
TEMP t;
MAD.U.CC t, a, b, c;
MOV.U result.attrib[0], 0;
MOV.U result.attrib[0] (CF), 1;
MOV.U result.attrib[1], 0;
MOV.U result.attrib[1] (OF), 1;
MOV.U result.attrib[2], 0;
MOV.U result.attrib[2] (GT), 1;
MOV.U result.attrib[3], t;
END
";
    let all = run_all(
        text,
        &[
            [0x10000, 0x8000, 0x4000_0000, 3],
            [0x10000, 2, 1, 3],
            [u32::MAX, 0xFFFF_0000, 0x4000_0000, 1],
        ],
    );
    check(&all, "result.attrib[0]", 0xF, [0, 1, 0, 0]);
    check(&all, "result.attrib[1]", 0xF, [0, 0, 1, 0]);
    check(&all, "result.attrib[2]", 0xF, [0, 0, 1, 1]);
    check(
        &all,
        "result.attrib[3]",
        0xF,
        [u32::MAX, 0, 0x8000_0000, 10],
    );
}
