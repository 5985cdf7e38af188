//! The memory program generator (`generators/src/tgsi/memory.rs`, `fuzz --memory`):
//! programs parse, run on the oracle, keep every access inside the 128-byte resources the
//! inputs give, and draw every address pattern and the atomics; default streams are not
//! changed by the option's existence.

use shaderdiff_generators::inputs::{inputs_for, RESOURCE_BYTES};
use shaderdiff_generators::random::{inputs_choices, program_choices};
use shaderdiff_generators::tgsi::memory::{build_memory, ATOMICS};
use shaderdiff_generators::tgsi::{build, GenConfig};
use shaderdiff_model::RegKey;
use shaderdiff_model::{File, Opcode, Stage};
use shaderdiff_oracles::interp::{run, InterpConfig};
use shaderdiff_tgsi as tgsi;

#[test]
fn memory_programs_run_in_bounds_on_the_oracle_and_draw_every_pattern() {
    let mut seen_ops = Vec::new();
    let (mut one, mut hot, mut strided, mut shared, mut barrier) = (0, 0, 0, 0, 0);
    for i in 0..300 {
        let (p, ops) = build_memory(&mut program_choices(7, i), 6);
        assert_eq!(p.stage, Stage::Compute);
        let text = tgsi::print(&p);
        one += usize::from(text.contains("MOV TEMP[0].x, IMM[0].wwww"));
        hot += usize::from(text.contains("AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx"));
        strided += usize::from(text.contains("AND TEMP[0].x, SV[0].xxxx, IMM[0].yyyy"));
        shared += usize::from(text.contains("MEMORY[0], SHARED"));
        barrier += usize::from(ops.contains(&Opcode::BARRIER));
        for op in ops {
            if !seen_ops.contains(&op) {
                seen_ops.push(op);
            }
        }
        let inputs = inputs_for(&p, &mut inputs_choices(7, i), 16);
        for file in [File::Buffer, File::Memory] {
            if let Some(b) = inputs.buffers.get(&RegKey::new(file, 0)) {
                assert_eq!(b.len(), RESOURCE_BYTES);
            }
        }
        let out = run(&p, &inputs, &InterpConfig::default())
            .unwrap_or_else(|e| panic!("program {i}: {e}\n{text}"));
        // Every address pattern stays in bounds (the oracle logs every atomic it performs,
        // with its byte offset; an out-of-range one is not performed and not logged).
        let logged = out.atomics.as_deref().unwrap_or(&[]);
        for r in logged {
            assert!(
                r.location.offset + 4 <= RESOURCE_BYTES as u64,
                "program {i}: {r:?}"
            );
        }
        let performed = text.matches("ATOM").count();
        assert!(
            performed == 0 || !logged.is_empty(),
            "program {i}: no atomic logged\n{text}"
        );
    }
    assert!(
        one > 20 && hot > 20 && strided > 20,
        "{one} {hot} {strided}"
    );
    assert!(shared > 50 && barrier > 50, "{shared} {barrier}");
    for op in ATOMICS {
        assert!(seen_ops.contains(op), "{op} never drawn");
    }
}

#[test]
fn the_memory_option_is_off_by_default_and_leaves_default_streams_alone() {
    assert!(!GenConfig::default().memory);
    let cfg = GenConfig::default();
    for i in 0..50 {
        let a = build(&mut program_choices(1, i), &cfg).program;
        let b = build(&mut program_choices(1, i), &cfg).program;
        assert_eq!(a, b);
    }
    let mem = GenConfig {
        memory: true,
        ..GenConfig::default()
    };
    let n = (0..100)
        .filter(|&i| build(&mut program_choices(1, i), &mem).program.stage == Stage::Compute)
        .count();
    assert!(n > 30, "{n} of 100 programs are COMP");
}
