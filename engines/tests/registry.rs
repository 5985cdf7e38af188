//! Adding an engine takes its crate plus one registry line: the toy engine of
//! `engines/toy` (a crate depending on the engine trait and the program model only) gets
//! the line [`TOY`], and a registry of the built-in lines plus that line
//! ([`shaderdiff_backends::Registry`], the same code every command derives its engine
//! lists from) lists it, builds it, and runs whole programs on it next to every built-in
//! engine through the shared program checker (`support::programs`), with hand-derived
//! expected values.
//!
//! The toy is a dev-dependency, not a line of the built-in table
//! (`shaderdiff_backends::ENGINES`): a test must not change the `shaderdiff` binary's
//! engine lists (see `engines/toy/src/lib.rs`).

#[path = "support/mod.rs"]
mod support;

use shaderdiff_backends::registry::built_in;
use shaderdiff_backends::{EngineConfig, EngineDescriptor, Registry, ENGINES};
use shaderdiff_model::Opcode;
use support::consts::f;
use support::programs::{check_program_on, input, inputs, out, Ch, Expect};

/// The toy's registry line: everything the registry needs to know about it.
const TOY: EngineDescriptor = EngineDescriptor {
    name: "toy",
    summary: "A toy engine: straight-line MOV/ADD/MUL vertex programs",
    oracle: false,
    runtime_only: false,
    reduce_deaths: false,
    emits: &[],
    available: built_in,
    new: |c| Box::new(shaderdiff_toy::ToyEngine::new(c)),
};

/// The built-in lines plus the toy's.
fn lines() -> Vec<EngineDescriptor> {
    let mut lines = ENGINES.to_vec();
    lines.push(TOY);
    lines
}

/// Every list the commands derive from the registry has the toy, after the built-in
/// engines; the oracle is unchanged; the line builds an engine of that name.
#[test]
fn one_line_adds_the_toy_to_every_derived_list() {
    let lines = lines();
    let r = Registry::new(&lines);
    let names: Vec<_> = r.names().collect();
    assert_eq!(
        names,
        ["interp", "jit", "valhall", "mesa", "virgl", "nvidia", "toy"]
    );
    let built_in: Vec<_> = r.built_in_names().collect();
    assert_eq!(built_in, ["interp", "jit", "valhall", "toy"]);
    assert_eq!(r.oracle(), "interp");
    assert_eq!(r.unavailable_reason("toy"), None);
    let toy = r
        .engine("toy", &EngineConfig::default())
        .expect("the toy builds");
    assert_eq!(toy.name(), "toy");
    let caps = r.get("toy").unwrap().capabilities().expect("available");
    assert!(caps.opcodes.contains(&Opcode::MUL) && !caps.opcodes.contains(&Opcode::IF));
}

/// tgsi.rst MUL, ADD, MOV with swizzles, `-` and `|x|` (swizzle, then absolute value,
/// then negation), a writemask, IMM and CONST sources. Worked per invocation, with
/// IN[0] = a, IMM[0] = (2, 0.5, -1, 0), CONST[0] = (0.5, 4, -8, 1):
/// TEMP[0] = a * IMM[0].xxyy = (2a.x, 2a.y, a.z/2, a.w/2);
/// OUT[0] = TEMP[0] + -a.wzyx; OUT[1].xz = |a|.xz; OUT[2] = CONST[0].yxwz * IMM[0].zzzz.
/// a = (1.5, -2, 0.25, 3): TEMP = (3, -4, 0.125, 1.5), OUT[0] = (3-3, -4-0.25,
/// 0.125+2, 1.5-1.5) = (0, -4.25, 2.125, 0).
/// a = (-1, 8, 1, -0.5): TEMP = (-2, 16, 0.5, -0.25), OUT[0] = (-2+0.5, 16-1, 0.5-8,
/// -0.25+1) = (-1.5, 15, -7.5, 0.75).
/// a = 0: OUT[0] = 0 + -0 = +0 (round to nearest: x + -x is +0). Every value is exact
/// in binary32, so every engine class must give these bits.
const STRAIGHT_LINE: &str = "VERT
DCL IN[0]
DCL OUT[0]
DCL OUT[1]
DCL OUT[2]
DCL CONST[0]
DCL TEMP[0]
IMM[0] FLT32 {    2.0000,     0.5000,    -1.0000,     0.0000}
  0: MUL TEMP[0], IN[0], IMM[0].xxyy
  1: ADD OUT[0], TEMP[0], -IN[0].wzyx
  2: MOV OUT[1].xz, |IN[0]|
  3: MOV OUT[2], CONST[0].yxwz
  4: MUL OUT[2], OUT[2], IMM[0].zzzz
  5: END
";

#[test]
fn toy_passes_the_straight_line_program_with_every_engine() {
    let ins = straight_line_inputs();
    let x = Ch::X;
    let v = |a: f32| Ch::V(f(a));
    let expect = Expect::new()
        .vals(
            out(0),
            &[
                [f(0.0), f(-4.25), f(2.125), f(0.0)],
                [f(-1.5), f(15.0), f(-7.5), f(0.75)],
                [f(0.0); 4],
                [f(0.0); 4],
            ],
        )
        .reg(
            out(1),
            vec![
                [v(1.5), x, v(0.25), x],
                [v(1.0), x, v(1.0), x],
                [v(0.0), x, v(0.0), x],
                [v(0.0), x, v(0.0), x],
            ],
        )
        .vals(out(2), &[[f(-4.0), f(-0.5), f(-1.0), f(8.0)]; 4]);
    let lines = lines();
    let checked = check_program_on(&Registry::new(&lines), STRAIGHT_LINE, &ins, &expect);
    assert_eq!(checked, ["interp", "jit", "valhall", "toy"]);
}

/// The inputs of [`STRAIGHT_LINE`]: four invocations, CONST[0] = (0.5, 4, -8, 1).
fn straight_line_inputs() -> shaderdiff_backends::Inputs {
    let mut ins = inputs(
        4,
        &[(
            input(0),
            vec![
                [f(1.5), f(-2.0), f(0.25), f(3.0)],
                [f(-1.0), f(8.0), f(1.0), f(-0.5)],
                [f(0.0); 4],
                [f(0.0); 4],
            ],
        )],
    );
    let c0 = shaderdiff_backends::RegKey::new(shaderdiff_model::File::Const, 0);
    ins.constants.insert(c0, [f(0.5), f(4.0), f(-8.0), f(1.0)]);
    ins
}

/// A program outside the toy's capabilities (IF; tgsi.rst: true when `src0.x != 0.0`):
/// the toy answers `Unsupported`, which the checker accepts for an engine that covers
/// part of the tables, while the built-in engines are still held to the expected values
/// (IN[0].x = 1, 0 → OUT[0].x = 1, 2).
#[test]
fn toy_declines_what_it_does_not_support() {
    let text = "VERT
DCL IN[0]
DCL OUT[0]
IMM[0] FLT32 {    1.0000,     2.0000,     0.0000,     0.0000}
  0: MOV OUT[0], IMM[0].xxxx
  1: IF IN[0].xxxx
  2: ELSE
  3:   MOV OUT[0].x, IMM[0].yyyy
  4: ENDIF
  5: END
";
    let one = [f(1.0), 0, 0, 0];
    let ins = inputs(4, &[(input(0), vec![one, [0; 4], one, [0; 4]])]);
    let expect = Expect::new().xs(out(0), &[f(1.0), f(2.0), f(1.0), f(2.0)]);
    let lines = lines();
    let checked = check_program_on(&Registry::new(&lines), text, &ins, &expect);
    assert_eq!(checked, ["interp", "jit", "valhall"]);
}
