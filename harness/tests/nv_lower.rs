//! NV / ARB programs lowered to the shared IR run on every engine (oracle first) and give the
//! values worked out by hand in ../shared/spec/nv/NOTES.md §16 (expected values are copied
//! from the notes' tables, not from any engine's output).

use shaderdiff_backends::{engine, EngineConfig, Inputs, ENGINE_NAMES};
use shaderdiff_ir::nv;
use shaderdiff_ir::File;
use shaderdiff_oracles::RegKey;

/// Lowers `text`, sets `program.local[i]` to `locals[i]`, runs on every engine and returns
/// each engine's outputs keyed by NV result name.
fn run_all(text: &str, locals: &[[u32; 4]]) -> Vec<(String, Vec<(String, [u32; 4])>)> {
    let p = nv::parse(text, "t.nv").expect("parses");
    let l = nv::lower(&p).expect("lowers");
    shaderdiff_ir::validate::validate(&l.program, "lowered").expect("valid IR");
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    for (i, v) in locals.iter().enumerate() {
        let Some((f, idx)) = l.names.lookup(l.stage, &format!("program.local[{i}]")) else {
            continue;
        };
        assert_eq!(f, File::Const);
        inputs.constants.insert(RegKey::new(f, idx), *v);
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
        all.push((name.to_string(), regs));
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
fn check(all: &[(String, Vec<(String, [u32; 4])>)], reg: &str, mask: u8, want: [u32; 4]) {
    for (engine, regs) in all {
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

/// NOTES.md §16 Example 2 without its SAD line... (all lines: SAD is lowered too).
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
