//! NOTES.md §16 worked examples without condition codes, on every engine.

use crate::support::*;

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

/// Example 9, whole: bitfield instructions (BFE/BFI with NV's width/offset operand, BFR,
/// BTC, BTFL, BTFM) and 64-bit integers and doubles (LONG TEMP, PK64, ADD.U64, MUL.S64,
/// ADD.F64, UP64). Inputs and values from the notes' table: v = (0xF0, 0x80000000,
/// 0x1234FF78, 0); dbl = the doubles 1.5 and 2.5 split little-endian.
#[test]
fn example_9_bitfields_and_64_bit() {
    let text = "!!NVvp5.0
PARAM v = program.local[0];
PARAM dbl = program.local[1];
TEMP t;
LONG TEMP d, e, k;
BFE.U t.x, {4, 4}, v.x;
BFE.S t.y, {4, 4}, v.x;
BFI.U t.z, {8, 8}, 0xAB, v.z;
BFR.U t.w, v.x;
MOV.U result.attrib[0], t;
BTC.U result.attrib[1].x, v.z;
BTFL.U result.attrib[1].y, v.y;
BTFM.S result.attrib[1].z, v.y;
BTFM.U result.attrib[1].w, v.w;
PK64.U d, {0xFFFFFFFF, 1, 5, 0};
ADD.U64 e.x, d.x, d.y;
UP64.U result.attrib[2], e.x;
PK64.S k, {-3, -1, 0, 0};
MUL.S64 e.y, d.y, k.x;
UP64.S result.attrib[3], e.y;
PK64.F k, dbl;
ADD.F64 e.z, k.x, k.y;
UP64.F result.attrib[4], e.z;
END
";
    let all = run_all(
        text,
        &[
            [0xF0, 0x8000_0000, 0x1234_FF78, 0],
            [0, 0x3FF8_0000, 0, 0x4004_0000],
        ],
    );
    check(
        &all,
        "result.attrib[0]",
        0xF,
        [15, u32::MAX, 0x1234_AB78, 0x0F00_0000],
    );
    check(&all, "result.attrib[1]", 0xF, [17, 31, 30, u32::MAX]);
    // 0x1_FFFFFFFF + 5 = 0x2_00000004, unpacked and replicated.
    check(&all, "result.attrib[2]", 0xF, [4, 2, 4, 2]);
    // 5 * -3 = -15 = 0xFFFFFFFF_FFFFFFF1.
    check(
        &all,
        "result.attrib[3]",
        0xF,
        [0xFFFF_FFF1, u32::MAX, 0xFFFF_FFF1, u32::MAX],
    );
    // 1.5 + 2.5 = 4.0 = 0x40100000_00000000.
    check(
        &all,
        "result.attrib[4]",
        0xF,
        [0, 0x4010_0000, 0, 0x4010_0000],
    );
}

/// Example 10: an NVcp5 compute program with 64-bit global addresses (PK64, CVT.U64.U32,
/// ADD.U64), LOAD, STORE, ATOM.ADD and MEMBAR; one work group of 4 invocations. The buffer
/// B and the counter C sit above 4 GiB so the addresses need both words. Values from the
/// notes' table: B+16..B+28 = 2, 4, 6, 8; C = 100 + 2 + 4 + 6 + 8 = 120; B+0..B+12 keep
/// 1, 2, 3, 4.
#[test]
fn example_10_compute_global_memory() {
    let text = "!!NVcp5.0
GROUP_SIZE 4;
PARAM addrs = program.local[0];
LONG TEMP p, q;
TEMP i, v, old;
PK64.U p, addrs;
MUL.U i.x, invocation.localid.x, 4;
CVT.U64.U32 q.x, i.x;
ADD.U64 q.x, p.x, q.x;
LOAD.U32 v.x, q.x;
ADD.U v.x, v.x, v.x;
ADD.U64 q.y, q.x, 16;
STORE.U32 v.x, q.y;
ATOM.ADD.U32 old.x, v.x, p.y;
MEMBAR;
END
";
    let b: u64 = 0x1_0000_1000;
    let c: u64 = 0x1_0000_2000;
    let words = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let global = [(b, words(&[1, 2, 3, 4, 0, 0, 0, 0])), (c, words(&[100]))];
    let addrs = [b as u32, (b >> 32) as u32, c as u32, (c >> 32) as u32];
    for (engine, out) in crate::support::run_compute(text, &[addrs], &global, 4) {
        assert_eq!(
            out.global[&b],
            words(&[1, 2, 3, 4, 2, 4, 6, 8]),
            "{engine}: buffer B"
        );
        assert_eq!(out.global[&c], words(&[120]), "{engine}: counter C");
    }
}

/// examples/nv-64bit.nvvp (example 9) from the command line: `diff` agrees on every engine
/// and `run --format json` gives the notes' 64-bit rows.
#[test]
fn example_9_from_the_command_line() {
    let run =
        |args: &[&str]| crate::support::run_example(args, "nv-64bit.nvvp", "nv-64bit.inputs.json");
    let o = run(&["diff"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = run(&["run", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let reg = &v["registers"];
    assert_eq!(
        reg["result.attrib[2]"][0],
        serde_json::json!(["0x00000004", "0x00000002", "0x00000004", "0x00000002"])
    );
    assert_eq!(
        reg["result.attrib[4]"][0],
        serde_json::json!(["0x00000000", "0x40100000", "0x00000000", "0x40100000"])
    );
}
