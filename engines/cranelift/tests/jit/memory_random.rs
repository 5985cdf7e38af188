//! Random memory programs: the jit against the reference interpreter (an independent
//! implementation of the memory model), judged as `diff` judges them: the oracle replayed in
//! the jit's atomic order, then the memory comparator (bytes the oracle calls undefined and
//! atomic locations judged by the atomic log). Programs mix LOAD / STORE / RESQ / every
//! atomic on BUFFER, SHARED and GLOBAL MEMORY at in-range, unaligned and out-of-range
//! addresses, MEMBAR and BARRIER (top level and inside a loop), over workgroups of 1 to 8
//! invocations; the registers end up in a results buffer.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shaderdiff_compare::memory::compare_program_memory;
use shaderdiff_cranelift::JitEngine;
use shaderdiff_engine::{Engine, EngineConfig, Inputs};
use shaderdiff_model::File;
use shaderdiff_model::RegKey;
use shaderdiff_oracles::interp::{self, replay_of, AtomicOrder, InterpConfig};

use super::support::parse;

/// Programs per run of the test (each a few milliseconds in a debug build).
const PROGRAMS: u64 = 300;

const RESOURCES: [&str; 3] = ["BUFFER[0]", "MEMORY[0]", "MEMORY[1]"];

const ATOMICS: [&str; 13] = [
    "ATOMUADD",
    "ATOMXCHG",
    "ATOMCAS",
    "ATOMAND",
    "ATOMOR",
    "ATOMXOR",
    "ATOMUMIN",
    "ATOMUMAX",
    "ATOMIMIN",
    "ATOMIMAX",
    "ATOMFADD",
    "ATOMINC_WRAP",
    "ATOMDEC_WRAP",
];

const MASKS: [&str; 6] = ["", ".x", ".y", ".xy", ".zw", ".xzw"];
const SWIZZLES: [&str; 4] = ["", ".wzyx", ".xxxx", ".yyzz"];

fn pick<'a>(rng: &mut ChaCha8Rng, from: &[&'a str]) -> &'a str {
    from[rng.random_range(0..from.len())]
}

/// One random memory instruction (or an address computation feeding one). Atomics go to
/// resource `atomic` only, at dword-aligned offsets, and plain stores to the others: the
/// atomic comparator judges a location by its own atomics alone, so a location also
/// stored to, or overlapped by an unaligned atomic (even of the same invocation, in
/// order), cannot be judged by it.
fn instruction(rng: &mut ChaCha8Rng, text: &mut String, atomic: usize) {
    let t = rng.random_range(0..3u32);
    let a = rng.random_range(0..3u32);
    let mut res = pick(rng, &RESOURCES);
    match rng.random_range(0..9u32) {
        // Address: 4 * id + small offset, or a raw input word (may be far out of range).
        0 => {
            let id = pick(rng, &["xxxx", "yyyy"]);
            text.push_str(&format!(
                "UMAD TEMP[{a}].x, SV[0].{id}, IMM[0].xxxx, SV[0].zzzz\n"
            ));
        }
        1 => text.push_str(&format!("MOV TEMP[{a}].x, SV[0].wwww\n")),
        2 => text.push_str(&format!(
            "LOAD TEMP[{t}]{}, {res}{}, TEMP[{a}].xxxx\n",
            pick(rng, &MASKS),
            pick(rng, &SWIZZLES)
        )),
        3 => {
            if res == RESOURCES[atomic] {
                res = RESOURCES[(atomic + 1) % 3];
            }
            let src = pick(rng, &["TEMP[0]", "TEMP[1]", "IMM[1]", "-TEMP[2]"]);
            text.push_str(&format!(
                "STORE {res}{}, TEMP[{a}].xxxx, {src}\n",
                pick(rng, &MASKS)
            ));
        }
        4 | 5 => {
            res = RESOURCES[atomic];
            let op = pick(rng, &ATOMICS);
            let data = pick(rng, &["SV[0].zzzz", "TEMP[1].yyyy", "IMM[1].xxxx"]);
            text.push_str(&format!("AND TEMP[3].w, TEMP[{a}].xxxx, IMM[2].wwww\n"));
            let operands = if op == "ATOMCAS" {
                format!("TEMP[3].wwww, TEMP[2].zzzz, {data}")
            } else {
                format!("TEMP[3].wwww, {data}")
            };
            let mask = pick(rng, &[".x", ".x", ".xy", ".y"]);
            text.push_str(&format!("{op} TEMP[{t}]{mask}, {res}, {operands}\n"));
        }
        6 => text.push_str(&format!("RESQ TEMP[{t}].x, {res}\n")),
        7 => text.push_str("MEMBAR IMM[0].wwww\n"),
        _ => text.push_str("BARRIER\n"),
    }
}

/// A random COMP program and its inputs.
fn case(seed: u64) -> (String, Inputs) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let wg = [1u32, 2, 4, 8][rng.random_range(0..4)];
    let n = rng.random_range(1..=40u32);
    let mut text = format!(
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH {wg}\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\n\
         DCL BUFFER[1]\nDCL MEMORY[0], SHARED\nDCL MEMORY[1], GLOBAL\nDCL TEMP[0..3]\n\
         IMM[0] UINT32 {{4, 1, 48, 8}}\nIMM[1] UINT32 {{{}, {}, {}, {}}}\n\
         IMM[2] UINT32 {{0, 2, 1, 4294967292}}\n",
        rng.random::<u32>(),
        rng.random_range(0..100u32),
        0x3f80_0000u32,
        0x8000_0000u32
    );
    // Sometimes a uniform loop of two iterations (counter TEMP[3].y) around the end of the
    // body.
    let atomic = rng.random_range(0..3usize);
    let body = rng.random_range(2..10);
    let looped = rng.random_range(0..3u32) == 0;
    let loop_at = rng.random_range(0..body);
    for k in 0..body {
        if looped && k == loop_at {
            text.push_str(
                "MOV TEMP[3].y, IMM[2].xxxx\nBGNLOOP\nUSGE TEMP[3].z, TEMP[3].yyyy, IMM[2].yyyy\n\
                 UIF TEMP[3].zzzz\nBRK\nENDIF\nUADD TEMP[3].y, TEMP[3].yyyy, IMM[2].zzzz\n",
            );
        }
        instruction(&mut rng, &mut text, atomic);
    }
    if looped {
        text.push_str("ENDLOOP\n");
    }
    // Results: TEMP[0..2] of invocation g at 48 g of BUFFER[1].
    text.push_str("UMUL TEMP[3].x, SV[0].yyyy, IMM[0].zzzz\n");
    for r in 0..3 {
        text.push_str(&format!(
            "STORE BUFFER[1], TEMP[3].xxxx, TEMP[{r}]\nUADD TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n\
             UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n"
        ));
    }
    text.push_str("END\n");
    let mut ins = Inputs {
        invocations: n as usize,
        ..Inputs::default()
    };
    let edges = [0u32, 1, 2, 3, 4, 13, 28, 30, 0x7fff_fffc, 0xffff_fffc];
    ins.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..n)
            .map(|g| {
                let z = edges[rng.random_range(0..edges.len())];
                let w = rng.random_range(0..70u32);
                [g % wg, g, z, w]
            })
            .collect(),
    );
    let sizes = [0usize, 4, 13, 32, 64];
    let mut bytes = |len: usize| -> Vec<u8> { (0..len).map(|_| rng.random::<u8>()).collect() };
    let s0 = sizes[(seed % 5) as usize];
    ins.buffers.insert(RegKey::new(File::Buffer, 0), bytes(s0));
    ins.buffers
        .insert(RegKey::new(File::Buffer, 1), vec![0; 48 * n as usize]);
    ins.buffers.insert(RegKey::new(File::Memory, 0), bytes(32));
    ins.buffers.insert(RegKey::new(File::Memory, 1), bytes(24));
    (text, ins)
}

#[test]
fn random_memory_programs_agree_with_the_oracle() {
    let jit = JitEngine::new(&EngineConfig::default());
    let mut ran = 0;
    for seed in 0..PROGRAMS {
        let (text, ins) = case(seed);
        let program = parse(&text);
        let mine = jit.execute(&program, &ins);
        let theirs = interp::run(&program, &ins, &InterpConfig::default());
        let mine = match (mine, theirs) {
            (Ok(m), Ok(_)) => m,
            (Err(m), Err(t)) => {
                println!("seed {seed}: both refuse: jit {m}; oracle {t}");
                continue;
            }
            (m, t) => panic!("seed {seed}: jit {m:?}\noracle {t:?}\n{text}"),
        };
        let replay = replay_of(mine.atomics.as_deref().unwrap_or(&[]));
        let oracle = interp::run_with(
            &program,
            &ins,
            &InterpConfig::default(),
            None,
            AtomicOrder::Replay(&replay),
        )
        .expect("the oracle follows the jit's order");
        // Every atomic the jit logged at a location the oracle defines must be one the
        // replayed oracle performed with the same operands (and none missing), the log
        // serializable, and every defined byte equal.
        let ms = compare_program_memory(&program, &ins, &oracle, "jit", &mine);
        assert!(ms.is_empty(), "seed {seed}: {ms:?}\n{text}");
        ran += 1;
    }
    println!("{ran} of {PROGRAMS} random memory programs compared");
    assert!(ran >= PROGRAMS * 9 / 10, "only {ran} programs ran");
}
