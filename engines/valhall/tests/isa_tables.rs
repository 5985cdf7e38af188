//! The ISA tables loaded from ISA.xml: the embedded copy is the reference file, and the
//! loaded tables agree with ENCODING.md (Appendix A secondary opcodes, Appendix B
//! immediates, §3.2 special pages, §3.5 type sizes, §8.2 tags).

mod common;

use std::collections::BTreeSet;

use shaderdiff_valhall::isa::{ModKind, SrFlags, WidenKind};
use shaderdiff_valhall::xml::{load, normalize_name, type_size, LoadError};
use shaderdiff_valhall::{isa, Unit, ISA_XML, ISA_XML_LICENSE};

#[test]
fn embedded_xml_is_byte_identical_to_the_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/spec/valhall/ISA.xml"
    );
    match std::fs::read(path) {
        Ok(reference) => assert!(
            reference == ISA_XML.as_bytes(),
            "data/ISA.xml differs from {path}"
        ),
        Err(e) => eprintln!("skipping: {path} not readable ({e})"),
    }
    let license = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/spec/valhall/LICENSE-MIT.txt"
    );
    if let Ok(reference) = std::fs::read(license) {
        assert!(reference == ISA_XML_LICENSE.as_bytes());
    }
}

#[test]
fn reference_xml_loads_like_the_embedded_one() {
    let text = common::read_spec("ISA.xml");
    let loaded = load(&text).unwrap();
    assert_eq!(loaded.instructions, isa().instructions);
    assert_eq!(loaded.enums, isa().enums);
}

#[test]
fn counts() {
    let isa = isa();
    assert_eq!(isa.instructions.len(), 252);
    assert_eq!(isa.enums.len(), 50);
    assert_eq!(isa.immediates.len(), 32);
    let names: BTreeSet<&str> = isa.instructions.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names.len(), 252);
}

#[test]
fn appendix_b_immediates() {
    let want: [u32; 32] = [
        0x00000000, 0xFFFFFFFF, 0x7FFFFFFF, 0xFAFCFDFE, 0x01000000, 0x80002000, 0x70605030,
        0xC0B0A090, 0x03020100, 0x07060504, 0x0B0A0908, 0x0F0E0D0C, 0x13121110, 0x17161514,
        0x1B1A1918, 0x1F1E1D1C, 0x3F800000, 0x3DCCCCCD, 0x3EA2F983, 0x3F317218, 0x40490FDB,
        0x00000000, 0x477FFF00, 0x5C005BF8, 0x2E660000, 0x34000000, 0x38000000, 0x3C000000,
        0x40000000, 0x44000000, 0x48000000, 0x42480000,
    ];
    assert_eq!(isa().immediates, want);
}

#[test]
fn special_pages() {
    let isa = isa();
    let page = |p: u8| -> Vec<(u8, &str)> {
        (0..16)
            .filter_map(|e| isa.special_name(p, e).map(|n| (e, n)))
            .collect()
    };
    let mut p0 = vec![
        (2, "warp_id"),
        (4, "framebuffer_size"),
        (5, "atest_datum"),
        (6, "sample"),
    ];
    for k in 0..8u8 {
        p0.push((
            8 + k,
            [
                "blend_descriptor_0",
                "blend_descriptor_1",
                "blend_descriptor_2",
                "blend_descriptor_3",
                "blend_descriptor_4",
                "blend_descriptor_5",
                "blend_descriptor_6",
                "blend_descriptor_7",
            ][usize::from(k)],
        ));
    }
    assert_eq!(page(0), p0);
    assert_eq!(
        page(1),
        vec![
            (1, "thread_local_pointer"),
            (3, "workgroup_local_pointer"),
            (7, "resource_table_pointer")
        ]
    );
    assert!(page(2).is_empty());
    assert_eq!(
        page(3),
        vec![(1, "lane_id"), (3, "core_id"), (15, "program_counter")]
    );
    assert_eq!(isa.find_special("lane_id"), Some((3, 1)));
    assert_eq!(isa.find_special("nope"), None);
}

#[test]
fn type_sizes_of_section_3_5() {
    for (name, size) in [
        ("LOAD.i128", 128),
        ("LOAD.i48", 48),
        ("IADD.v4s8", 8),
        ("FADD.v2f16", 16),
        ("SHADDX.u64", 64),
        ("MKVEC.v2i8", 8),
        ("NOP", 32),
        ("ATEST", 32),
        ("TEX_FETCH", 32),
        ("FEXP_TABLE.u4", 32),
        ("LOAD.i24", 24),
        ("FADD.f32", 32),
    ] {
        assert_eq!(type_size(name), size, "{name}");
        if let Some(def) = isa().instruction(name) {
            assert_eq!(def.type_size, size);
        }
    }
    assert_eq!(normalize_name("Load lane (32-bit)"), "load_lane_32_bit");
    assert_eq!(normalize_name("NaN mode"), "nan_mode");
}

/// Appendix A: primary opcodes with one instruction, and the secondary field and members
/// of the shared ones.
#[test]
fn appendix_a_buckets() {
    let isa = isa();
    let single: BTreeSet<u16> = [
        0x000, 0x01F, 0x020, 0x02F, 0x041, 0x045, 0x054, 0x055, 0x056, 0x05C, 0x05D, 0x05E, 0x064,
        0x06B, 0x06C, 0x06D, 0x071, 0x078, 0x079, 0x07D, 0x07E, 0x07F, 0x095, 0x0B2, 0x0B3, 0x0B8,
        0x0B9, 0x0BA, 0x0BD, 0x0C0, 0x0C1, 0x110, 0x111, 0x112, 0x114, 0x115, 0x125, 0x128, 0x129,
        0x12A, 0x12F, 0x130, 0x131, 0x132, 0x137, 0x138, 0x139, 0x13A, 0x13F, 0x150, 0x151, 0x154,
        0x155, 0x158, 0x159, 0x160, 0x161, 0x162, 0x163, 0x191,
    ]
    .into_iter()
    .collect();
    for op in 0..512u16 {
        let n = isa.with_opcode(op).count();
        if single.contains(&op) {
            assert_eq!(n, 1, "opcode {op:#x}");
        } else if n == 1 {
            panic!("opcode {op:#x} has one instruction but Appendix A does not list it");
        }
    }
    let shapes: &[(&[u16], u8, u16)] = &[
        (&[0x060, 0x061, 0x06A, 0x068, 0x069, 0x120], 27, 0x7),
        (&[0x066, 0x076, 0x067, 0x077], 37, 0x3),
        (&[0x090], 16, 0x1F),
        (
            &[
                0x091, 0x098, 0x099, 0x09C, 0x0A0, 0x0A1, 0x0A2, 0x0A8, 0x0A9, 0x0AA, 0x1A3, 0x1AB,
                0x0A4, 0x0A5,
            ],
            16,
            0xF,
        ),
        (&[0x0B4, 0x0B5, 0x0B6, 0x1B7], 24, 0x103),
        (&[0x0BC, 0x0C2], 24, 0xF),
        (
            &[0x0F0, 0x0F8, 0x0F1, 0x0F2, 0x0F9, 0x0FA, 0x0F4, 0x0F5],
            24,
            0x3,
        ),
    ];
    let mut shared = BTreeSet::new();
    for (ops, shift, mask) in shapes {
        for &op in *ops {
            shared.insert(op);
            assert!(isa.with_opcode(op).count() >= 2, "{op:#x}");
            for d in isa.with_opcode(op) {
                assert_eq!(
                    (d.secondary_shift, d.secondary_mask),
                    (*shift, *mask),
                    "{}",
                    d.name
                );
            }
        }
    }
    // every shared opcode is covered above
    for op in 0..512u16 {
        if isa.with_opcode(op).count() >= 2 {
            assert!(shared.contains(&op), "opcode {op:#x} not in Appendix A");
        }
    }
    let members = |op: u16| -> Vec<(u16, String)> {
        let mut v: Vec<_> = isa
            .with_opcode(op)
            .map(|d| (d.opcode2.unwrap(), d.name.clone()))
            .collect();
        v.sort();
        v
    };
    let names = |v: &[(u16, &str)]| -> Vec<(u16, String)> {
        v.iter().map(|(o, n)| (*o, n.to_string())).collect()
    };
    assert_eq!(
        members(0x090),
        names(&[
            (0x00, "S8_TO_S32"),
            (0x01, "S8_TO_F32"),
            (0x02, "V2S8_TO_V2S16"),
            (0x03, "V2S8_TO_V2F16"),
            (0x04, "S16_TO_S32"),
            (0x05, "S16_TO_F32"),
            (0x07, "V2S16_TO_V2F16"),
            (0x09, "S32_TO_F32"),
            (0x0A, "F16_TO_S32"),
            (0x0B, "F16_TO_F32"),
            (0x0C, "F32_TO_S32"),
            (0x0D, "FROUND.f32"),
            (0x0E, "V2F16_TO_V2S16"),
            (0x0F, "FROUND.v2f16"),
            (0x10, "U8_TO_U32"),
            (0x11, "U8_TO_F32"),
            (0x12, "V2U8_TO_V2U16"),
            (0x13, "V2U8_TO_V2F16"),
            (0x14, "U16_TO_U32"),
            (0x15, "U16_TO_F32"),
            (0x17, "V2U16_TO_V2F16"),
            (0x19, "U32_TO_F32"),
            (0x1A, "F16_TO_U32"),
            (0x1C, "F32_TO_U32"),
            (0x1E, "V2F16_TO_V2U16"),
        ])
    );
    assert_eq!(
        members(0x1A3),
        names(&[
            (0, "IADD.u64"),
            (1, "ISUB.u64"),
            (6, "SEG_ADD.u64"),
            (7, "SHADDX.u64"),
            (0xA, "IMULD.u64"),
            (0xF, "CLPER.u64"),
        ])
    );
    assert_eq!(
        members(0x0B6),
        names(&[
            (0x000, "RSHIFT_AND.v4i8"),
            (0x001, "RSHIFT_OR.v4i8"),
            (0x002, "RSHIFT_XOR.v4i8"),
            (0x100, "LSHIFT_AND.v4i8"),
            (0x101, "LSHIFT_OR.v4i8"),
            (0x102, "LSHIFT_XOR.v4i8"),
        ])
    );
    assert_eq!(
        members(0x0A4),
        names(&[
            (0, "FADD.f32"),
            (2, "FMIN.f32"),
            (3, "FMAX.f32"),
            (6, "LDEXP.f32"),
            (8, "FEXP.f32"),
            (9, "FADD_LSCALE.f32"),
            (0xE, "FATAN_ASSIST.f32"),
        ])
    );
    assert_eq!(
        members(0x120),
        names(&[(3, "ATOM_RETURN.i32"), (5, "ATOM_RETURN.i64")])
    );
    assert_eq!(
        members(0x066),
        names(&[(0, "LD_ATTR_IMM"), (1, "LD_TEX_IMM")])
    );
}

#[test]
fn instruction_shapes() {
    let isa = isa();
    let blend = isa.instruction("BLEND").unwrap();
    assert_eq!(
        blend.srcs.iter().map(|s| s.slot).collect::<Vec<_>>(),
        vec![0, 2]
    );
    assert_eq!(blend.unit, Unit::None);
    assert!(!blend.unit.is_alu());
    let st_cvt = isa.instruction("ST_CVT").unwrap();
    assert_eq!(
        st_cvt.srcs.iter().map(|s| s.slot).collect::<Vec<_>>(),
        vec![0, 2]
    );
    let tex = isa.instruction("TEX_FETCH").unwrap();
    assert_eq!(tex.srcs.len(), 1, "the pseudo source is not encoded");
    assert_eq!(tex.staging[0].flags, SrFlags::None);
    assert_eq!(tex.staging[0].reg.start, 16);
    assert_eq!(tex.staging[0].count.start, 36);
    assert_eq!(tex.staging[1].reg.start, 40);
    assert_eq!(tex.staging[1].count.start, 33);
    let atom = isa.instruction("ATOM_RETURN.i32").unwrap();
    assert_eq!(atom.staging[1].control, Some(0b11));
    let fma = isa.instruction("FMA.f32").unwrap();
    assert_eq!(
        fma.srcs.iter().map(|s| s.neg).collect::<Vec<_>>(),
        vec![Some(38), Some(36), Some(34)]
    );
    assert_eq!(
        fma.srcs
            .iter()
            .map(|s| s.swizzle.unwrap().field.start)
            .collect::<Vec<_>>(),
        vec![28, 26, 24]
    );
    assert_eq!(fma.unit, Unit::Fma);
    let shift = isa.instruction("LSHIFT_AND.i32").unwrap();
    assert_eq!(shift.srcs[1].widen.unwrap().0, WidenKind::Lanes);
    assert_eq!(shift.srcs[2].not, Some(35));
    assert_eq!(shift.implied_modifiers, vec!["left".to_string()]);
    let nop = isa.instruction("NOP").unwrap();
    assert_eq!(nop.placeholder_mask, 0xFF << 40);
    let branchzi = isa.instruction("BRANCHZI").unwrap();
    assert_eq!(
        branchzi.placeholder_mask,
        0xFE << 40,
        "bit 40 is `absolute`"
    );
    let grad = isa.instruction("TEX_GRADIENT").unwrap();
    assert_eq!(
        grad.ignored_tags,
        vec!["force_delta_enable", "derivative_enable"]
    );
    let flags: Vec<&str> = grad
        .modifiers
        .iter()
        .filter(|m| m.kind == ModKind::Flag)
        .map(|m| m.name.as_str())
        .collect();
    assert!(flags.contains(&"lod_bias_disable") && flags.contains(&"lod_clamp_disable"));
    // LD_VAR_BUF_IMM's `<regfmt pseudo="true"/>` is not a modifier
    let ldv = isa.instruction("LD_VAR_BUF_IMM.f32").unwrap();
    assert!(ldv.modifiers.iter().all(|m| m.name != "regfmt"));
}

#[test]
fn load_errors_are_reported() {
    assert!(matches!(load("<valhall"), Err(LoadError::Xml(_))));
    assert!(matches!(load("<other/>"), Err(LoadError::Invalid { .. })));
    // a tag ENCODING.md does not place
    let bad = ISA_XML.replacen("<conservative/>", "<mystery_tag/>", 1);
    let e = load(&bad).unwrap_err();
    assert!(e.to_string().contains("mystery_tag"), "{e}");
    // overlapping fields are caught
    let bad = ISA_XML.replacen(
        r#"<va_mod name="eq" start="36" size="1"/>"#,
        r#"<va_mod name="eq" start="35" size="1"/>"#,
        1,
    );
    let e = load(&bad).unwrap_err();
    assert!(e.to_string().contains("overlaps"), "{e}");
}
