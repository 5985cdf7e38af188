//! Every non-comment, non-blank line of `spec/valhall/negative-cases.txt` must be
//! rejected by the assembler; plus variants that isolate each rule the file's comments
//! state (so a case is not only rejected for an incidental reason such as the legacy
//! `` ` `` marker).

mod common;

use shaderdiff_valhall::{assemble, AsmReason, EncodeErrorKind};

#[test]
fn every_negative_case_is_rejected() {
    let text = common::read_spec("negative-cases.txt");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    assert_eq!(lines.len(), 25);
    let mut rejected = 0;
    for line in &lines {
        match assemble(line) {
            Ok(b) => panic!("accepted `{line}` as {b:02x?}"),
            Err(e) => {
                assert!(
                    e.column >= 1 && e.column <= line.chars().count() + 1,
                    "{line}: {e}"
                );
                rejected += 1;
            }
        }
    }
    assert_eq!(rejected, 25);
}

fn reason(line: &str) -> AsmReason {
    match assemble(line) {
        Ok(b) => panic!("accepted `{line}` as {b:02x?}"),
        Err(e) => e.reason,
    }
}

fn encode_reason(line: &str) -> EncodeErrorKind {
    match reason(line) {
        AsmReason::Encode(k) => k,
        other => panic!("`{line}`: expected an encoding-rule error, got {other}"),
    }
}

#[test]
fn single_uniform_slot_for_alu() {
    for l in [
        "FADD.f32 r0, u0, u4",
        "FADD.f32 r0, u5, u3",
        "FADD.f32 r0, u5, u6",
    ] {
        assert_eq!(encode_reason(l), EncodeErrorKind::TooManySlots(1), "{l}");
    }
    // one slot (two words) is fine
    assert!(assemble("FADD.f32 r0, u4, u5").is_ok());
    assert!(assemble("FADD.f32 r0, u5, u5").is_ok());
}

#[test]
fn at_most_two_fau_bytes() {
    for l in [
        "FMA.f32 r0, u0, u1, 0x0",
        "FMA.f32 r0, u0, 0x40490FDB, 0x0",
        "FMA.f32 r0, 0x3F317218, 0x40490FDB, 0x0",
    ] {
        assert_eq!(encode_reason(l), EncodeErrorKind::TooManyFau, "{l}");
    }
    assert!(assemble("FMA.f32 r0, u0, u1, r2").is_ok());
}

#[test]
fn single_special_value() {
    let k = encode_reason("IADD.u32 r0, lane_id, core_id");
    assert!(
        matches!(
            k,
            EncodeErrorKind::TooManySpecials | EncodeErrorKind::TooManySlots(_)
        ),
        "{k}"
    );
    let k = encode_reason("IADD.u32 r0, lane_id.w0, core_id.w1");
    assert!(matches!(
        k,
        EncodeErrorKind::TooManySpecials | EncodeErrorKind::TooManySlots(_)
    ));
    assert!(matches!(
        reason("IADD.u32 r0, tls_ptr, wls_ptr"),
        AsmReason::UnknownSpecial(_)
    ));
    // the full names exist, but still only one special per instruction
    let k = encode_reason("IADD.u32 r0, thread_local_pointer.w0, workgroup_local_pointer.w0");
    assert!(matches!(
        k,
        EncodeErrorKind::TooManySpecials | EncodeErrorKind::TooManySlots(_)
    ));
    // a message instruction has room for two slots, but not two specials
    assert_eq!(
        encode_reason("LD_TILE.v4.f16.slot0 @r14:r15, lane_id.w0, core_id.w0, r0"),
        EncodeErrorKind::TooManySpecials
    );
    // both words of one special value are one slot
    assert!(assemble("IADD.u32 r0, lane_id.w0, lane_id.w1").is_ok());
}

#[test]
fn pages_must_agree() {
    assert_eq!(
        encode_reason("IADD.u32 r0, u70, lane_id.w0"),
        EncodeErrorKind::PageMismatch(1, 3)
    );
}

#[test]
fn staging_runs_are_aligned_pairs() {
    for l in [
        "LOAD.i32.unsigned.slot0.wait0 @r1:r2, ^r0, offset:0",
        "STORE.i32.slot0.reconverge @r3:r4:r5, ^r2, offset:0",
        "STORE.i96.slot0 @r1:r2:r3:r4, ^r4, offset:0",
    ] {
        assert!(
            matches!(encode_reason(l), EncodeErrorKind::StagingAlign { .. }),
            "{l}"
        );
    }
    assert!(matches!(
        reason("STORE.i32.slot0 @r2:r4, ^r2, offset:0"),
        AsmReason::NotConsecutive(_)
    ));
}

#[test]
fn other_rules_of_the_file() {
    assert!(matches!(
        reason("FADD.f32 r0, r1"),
        AsmReason::OperandCount { .. }
    ));
    assert!(matches!(
        reason("TEX.computed.2d.slot0 @r2, @r4:r5:r6:r7"),
        AsmReason::UnknownMnemonic(_)
    ));
    assert!(matches!(reason("BRANCH"), AsmReason::UnknownMnemonic(_)));
    assert!(matches!(
        reason("IADD_IMM.i32 r3, #12345"),
        AsmReason::OperandCount { .. }
    ));
    assert!(matches!(
        reason("FADD.v2f16 r0, r1, r0.h0"),
        AsmReason::BadSuffix { .. }
    ));
    assert!(matches!(
        reason("MOV.i32.wait01.wait1 r0, r1"),
        AsmReason::DuplicateFlow
    ));
    assert!(matches!(
        reason("MOV.i32.wait01.return r0, r1"),
        AsmReason::UnknownModifier { .. }
    ));
    assert!(matches!(
        reason("FROUND.f32.rtn.clamp_m1_1 r2, ^r2.neg"),
        AsmReason::UnknownModifier { .. }
    ));
    assert!(matches!(
        reason("FROUND.f32.rtn r2, `r2.neg"),
        AsmReason::UnexpectedChar('`')
    ));
    // BRANCHZ's offset is 27 bits signed
    for l in [
        "BRANCHZ r0, offset:-123456789",
        "BRANCHZ r0, offset:123456789",
    ] {
        assert!(
            matches!(encode_reason(l), EncodeErrorKind::ImmRange { .. }),
            "{l}"
        );
    }
    assert!(assemble("BRANCHZ r0, offset:-67108864").is_ok());
    assert!(assemble("BRANCHZ r0, offset:67108863").is_ok());
}
