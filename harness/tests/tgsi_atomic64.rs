//! 64-bit atomics in TGSI text (`model/src/atomic64.rs`, README "64-bit values and memory
//! (TGSI)"): an integer atomic on a BUFFER with the memory format `PIPE_FORMAT_R64_UINT` /
//! `_SINT` updates 8 bytes, reads its operands from channel pairs and returns the old
//! value in `dst.xy`. Expected values from tgsi.rst's formulas at 64 bits, by hand.

use shaderdiff_backends::{engine, Inputs, ENGINE_NAMES};
use shaderdiff_model::{File, Opcode};
use shaderdiff_oracles::RegKey;

const TEXT: &str = "COMP\nDCL BUFFER[0]\nDCL TEMP[0..3]\n\
    IMM[0] UINT32 {0, 8, 16, 24}\n\
    IMM[1] UINT32 {1, 0, 4294967295, 2147483647}\n\
    IMM[2] UINT32 {5, 0, 7, 9}\n\
    ATOMUADD TEMP[0].xy, BUFFER[0], IMM[0].xxxx, IMM[1].xyxy, PIPE_FORMAT_R64_UINT\n\
    ATOMIMAX TEMP[1].xy, BUFFER[0], IMM[0].yyyy, IMM[1].zwzw, PIPE_FORMAT_R64_SINT\n\
    ATOMCAS TEMP[2].xy, BUFFER[0], IMM[0].zzzz, IMM[2].xyxy, IMM[2].zwzw, PIPE_FORMAT_R64_UINT\n\
    STORE BUFFER[0].xy, IMM[0].wwww, TEMP[0]\n\
    STORE BUFFER[0].zw, IMM[0].wwww, TEMP[1].xxxy\n\
    END\n";

fn qwords(b: &[u8]) -> Vec<u64> {
    b.chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

#[test]
fn tgsi_text_64_bit_atomics_run_on_every_engine() {
    let p = shaderdiff_tgsi::parse(TEXT, "a64.tgsi").expect("parses");
    assert!(shaderdiff_model::atomic64::is_wide_atomic(
        &p.instructions[0]
    ));
    assert_eq!(p.instructions[2].opcode, Opcode::ATOMCAS);
    // The printer writes the format back and the text parses to the same program.
    let printed = shaderdiff_tgsi::print(&p);
    assert!(printed.contains("PIPE_FORMAT_R64_SINT"), "{printed}");
    assert_eq!(
        shaderdiff_tgsi::parse(&printed, "p.tgsi").expect("reparses"),
        p
    );
    let key = RegKey::new(File::Buffer, 0);
    let mut inputs = Inputs {
        invocations: 1,
        ..Inputs::default()
    };
    // q0 = 0xFFFF_FFFF (ATOMUADD + 1 carries into the high word: 0x1_0000_0000);
    // q1 = -1 (ATOMIMAX with 0x7FFF_FFFF_FFFF_FFFF = i64::MAX: the maximum is i64::MAX);
    // q2 = 5 (ATOMCAS compare 5, value 0x9_0000_0007: hit); q3, q4 receive results.
    let init: Vec<u8> = [0xFFFF_FFFFu64, u64::MAX, 5, 0, 0]
        .iter()
        .flat_map(|q| q.to_le_bytes())
        .collect();
    inputs.buffers.insert(key, init);
    for name in ENGINE_NAMES {
        let e = engine(name, &Default::default()).expect("engine");
        let out = e.execute(&p, &inputs).expect("runs");
        let q = qwords(&out.buffers[&key]);
        assert_eq!(q[0], 1 << 32, "{name}: {q:x?}");
        assert_eq!(q[1], i64::MAX as u64, "{name}: {q:x?}");
        assert_eq!(q[2], 0x9_0000_0007, "{name}: {q:x?}");
        // Bytes 24..32: TEMP[0].xy = the old q0 (0xFFFF_FFFF); bytes 32..40: the second
        // STORE's z, w channels (dwords at 24 + 8, 24 + 12) = TEMP[1].xy = the old q1 (-1).
        assert_eq!(q[3], 0xFFFF_FFFF, "{name}: {q:x?}");
        assert_eq!(q[4], u64::MAX, "{name}: {q:x?}");
    }
}
