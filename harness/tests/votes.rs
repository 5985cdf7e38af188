//! The inter-lane votes VOTE_ANY, VOTE_ALL, VOTE_EQ and READ_FIRST (tgsi.rst "Inter-lane
//! opcodes") on every engine. Expected values follow from the spec's rules, not from an
//! engine's output: NV_gpu_program5 §2.X.8.Z (TGALL/TGANY/TGEQ, the same votes) says threads
//! not executing the instruction "have no bearing on the value returned" and "the method
//! used to arrange threads into groups is undefined", so a result is fixed only where every
//! grouping gives the same one (README, "Thread groups"); elsewhere the oracle reports the
//! channel undefined and the other engines may give either answer.

use shaderdiff_backends::{engine, EngineConfig, Inputs, Outputs, ENGINE_NAMES};
use shaderdiff_model::File;
use shaderdiff_oracles::RegKey;

const T: u32 = 0xffff_ffff;
/// Marks an expected channel undefined.
const U: Option<u32> = None;

fn key(file: File, index: u32) -> RegKey {
    RegKey {
        file,
        dimension: None,
        index,
    }
}

/// Runs `text` with `IN[0]` = `input[l]` for invocation `l` on every engine, the oracle
/// first; returns the outputs by engine.
fn run(text: &str, input: &[[u32; 4]]) -> Vec<(&'static str, Outputs)> {
    let p = shaderdiff_tgsi::parse(text, "t.tgsi").expect("parses");
    let mut inputs = Inputs {
        invocations: input.len(),
        ..Inputs::default()
    };
    inputs.registers.insert(key(File::Input, 0), input.to_vec());
    ENGINE_NAMES
        .iter()
        .map(|&name| {
            let e = engine(name, &EngineConfig::default()).expect("engine");
            let out = e
                .execute(&p, &inputs)
                .unwrap_or_else(|err| panic!("{name}: {err}"));
            (name, out)
        })
        .collect()
}

/// Checks `OUT[0]` of every invocation the oracle does not report killed (killed ones are
/// never compared): the oracle gives exactly `want` (`None` = undefined) and every engine
/// agrees with it on the defined channels.
fn check(all: &[(&str, Outputs)], want: &[[Option<u32>; 4]]) {
    let out = key(File::Output, 0);
    let (oracle, o) = &all[0];
    assert_eq!(*oracle, "interp");
    let und = o.undefined.get(&out).cloned().unwrap_or_default();
    let killed = o.killed.clone().unwrap_or_default();
    for (l, w) in want.iter().enumerate() {
        if killed.get(l) == Some(&true) {
            continue;
        }
        let mask = und.get(l).copied().unwrap_or(0);
        for (c, want) in w.iter().enumerate() {
            let undefined = mask >> c & 1 != 0;
            match *want {
                None => assert!(undefined, "invocation {l} channel {c} should be undefined"),
                Some(v) => {
                    assert!(!undefined, "invocation {l} channel {c} should be defined");
                    for (name, e) in all {
                        let got = e.registers[&out][l][c];
                        assert_eq!(got, v, "{name}: invocation {l} channel {c}: {got:#x}");
                    }
                }
            }
        }
    }
}

const VOTES: &str = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
  0: VOTE_ANY TEMP[0].x, IN[0].xxxx\n  1: VOTE_ALL TEMP[0].y, IN[0].xxxx\n\
  2: VOTE_EQ TEMP[0].z, IN[0].yyyy\n  3: READ_FIRST TEMP[0].w, IN[0].zzzz\n\
  4: MOV OUT[0], TEMP[0]\n  5: END\n";

#[test]
fn unanimous_values_decide_every_vote() {
    // Every invocation set: any = all = TRUE; equal values: VOTE_EQ TRUE and READ_FIRST
    // the common value, whatever the grouping.
    let all = run(VOTES, &[[1, 7, 9, 0]; 8]);
    check(&all, &[[Some(T), Some(T), Some(T), Some(9)]; 8]);
    // Nothing set (-0.0 is a nonzero word: "set" is the 32-bit word, README).
    let all = run(VOTES, &[[0, 0x8000_0000, 0x8000_0000, 0]; 8]);
    check(&all, &[[Some(0), Some(0), Some(T), Some(0x8000_0000)]; 8]);
}

#[test]
fn mixed_values_are_decided_only_by_the_own_value() {
    // Invocation 3 alone has x set. Its own TRUE fixes its VOTE_ANY; its VOTE_ALL depends
    // on whether the group holds another invocation. The others' unset x fixes their
    // VOTE_ALL at FALSE, and their VOTE_ANY depends on whether invocation 3 is in the
    // group. y and z differ between invocations: VOTE_EQ and READ_FIRST are undefined.
    let mut input = [[0, 5, 5, 0]; 8];
    input[3] = [2, 6, 6, 0];
    let all = run(VOTES, &input);
    let mut want = [[U, Some(0), U, U]; 8];
    want[3] = [Some(T), U, U, U];
    check(&all, &want);
}

#[test]
fn invocations_not_executing_have_no_bearing() {
    // Even invocations take the UIF side with y = 5, odd ones the ELSE side with y = 0:
    // inside each side the executing invocations agree, so every vote is decided
    // (NV_gpu_program5 §2.X.8.Z: "the operand values for threads not executing the
    // instruction have no bearing on the value returned").
    let text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
                IMM[0] UINT32 {0, 0, 0, 0}\n  0: MOV TEMP[0], IMM[0]\n  1: UIF IN[0].xxxx\n\
                2: VOTE_ALL TEMP[0].x, IN[0].yyyy\n  3: VOTE_EQ TEMP[0].y, IN[0].yyyy\n\
                4: ELSE\n  5: VOTE_ANY TEMP[0].x, IN[0].yyyy\n  6: VOTE_EQ TEMP[0].y, IN[0].yyyy\n\
                7: ENDIF\n  8: MOV OUT[0], TEMP[0]\n  9: END\n";
    let input: Vec<[u32; 4]> = (0..8)
        .map(|l| {
            if l % 2 == 0 {
                [1, 5, 0, 0]
            } else {
                [0, 0, 0, 0]
            }
        })
        .collect();
    let all = run(text, &input);
    let want: Vec<[Option<u32>; 4]> = (0..8)
        .map(|l| {
            let x = if l % 2 == 0 { T } else { 0 };
            [Some(x), Some(T), Some(0), Some(0)]
        })
        .collect();
    check(&all, &want);
}

#[test]
fn runs_of_any_length_vote_alike() {
    // 3 invocations (the jit pads its last quad) and 70 (two interpreter chunks, five
    // valhall warps): unanimous inputs decide every vote.
    for n in [3, 70] {
        let text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
                    0: VOTE_ALL TEMP[0].x, IN[0].xxxx\n  1: VOTE_ANY TEMP[0].y, IN[0].yyyy\n\
                    2: VOTE_EQ TEMP[0].z, IN[0].xxxx\n  3: READ_FIRST TEMP[0].w, IN[0].xxxx\n\
                    4: MOV OUT[0], TEMP[0]\n  5: END\n";
        let all = run(text, &vec![[4, 0, 0, 0]; n]);
        check(&all, &vec![[Some(T), Some(0), Some(T), Some(4)]; n]);
    }
}

#[test]
fn killed_invocations_may_linger_in_the_group() {
    // KILL_IF kills invocation 0 (x < 0). A killed invocation may stay as a helper in its
    // group (tgsi.rst BALLOT: "this can include helper invocations"), with a value not
    // known: VOTE_ALL of the set y is undefined for the survivors, while a survivor's own
    // unset z still fixes its VOTE_ALL at FALSE.
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
                IMM[0] UINT32 {0, 0, 0, 0}\n  0: MOV TEMP[0], IMM[0]\n  1: KILL_IF IN[0].xxxx\n\
                2: VOTE_ALL TEMP[0].x, IN[0].yyyy\n  3: VOTE_ALL TEMP[0].y, IN[0].zzzz\n\
                4: MOV OUT[0], TEMP[0]\n  5: END\n";
    let mut input = [[0, 1, 0, 0]; 4];
    input[0] = [(-1.0f32).to_bits(), 1, 0, 0];
    let all = run(text, &input);
    assert_eq!(all[0].1.killed, Some(vec![true, false, false, false]));
    check(&all, &[[U, Some(0), Some(0), Some(0)]; 4]);
}
