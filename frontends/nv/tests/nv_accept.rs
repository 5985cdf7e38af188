//! Programs the NV front-end must accept, with the tree they must give: every declaration
//! kind (NV_gpu_program4 §2.X.3 and the gp5-family extensions), bindings of every stage,
//! the syntax variants of NOTES.md §15, suffix forms (Table X.15), texture access forms
//! (§2.X.4.4), subroutines, program declarations, and the canonical printed form.

use shaderdiff_nv::*;

fn ok(text: &str) -> NvProgram {
    let p = parse(text, "t").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let once = print(&p);
    let q = parse(&once, "printed").unwrap_or_else(|e| panic!("{e}\n{once}"));
    assert_eq!(q, p, "{text}\n---\n{once}");
    assert_eq!(print(&q), once);
    p
}

fn decls(p: &NvProgram) -> Vec<&Declaration> {
    p.statements
        .iter()
        .filter_map(|s| match s {
            Statement::Decl(d) => Some(d),
            _ => None,
        })
        .collect()
}

fn bound(d: &Declaration) -> &BoundDecl {
    match d {
        Declaration::Bound(b) => b,
        other => panic!("{other:?}"),
    }
}

fn first_insn(p: &NvProgram) -> &Instruction {
    p.instructions().next().unwrap()
}

#[test]
fn canonical_text_is_one_statement_per_line() {
    let p = ok("  \n!!NVfp5.0 # comment\r\nOPTION NV_shader_buffer_load;TEMP a,b;\tMOV.F.SAT.CC1 a.xw (GT0.x),-|{ 1 , .5e1, 2., 0x1f }.wzyx|;MOVR_SAT b, a;END trailing text @");
    assert_eq!(
        print(&p),
        "!!NVfp5.0\nOPTION NV_shader_buffer_load;\nTEMP a, b;\nMOV.F.CC1.SAT a.xw (GT.x), -|{1, 0.5e1, 2.0, 0x1F}.wzyx|;\nMOVR.SAT b, a;\nEND\n"
    );
    let i = first_insn(&p);
    assert_eq!(i.mods.cc, Some(1));
    assert_eq!(i.mods.clamp, Some(Clamp::Sat));
    assert_eq!(i.dst.as_ref().unwrap().mask, 0b1001);
    assert_eq!(
        i.dst.as_ref().unwrap().cc,
        Some(CcTest {
            cond: CondCode::Gt,
            reg: 0,
            swizzle: Swizzle::Scalar(0)
        })
    );
    // ARB programs print every modifier as a suffix.
    let p = ok("!!ARBfp1.0\nOPTION NV_fragment_program;\nTEMP R0;\nADDHC_SAT R0, R0, |R0|;\nMOV_SAT result.color (NE.xyzw), R0.rgba;\nEND");
    assert_eq!(
        print(&p),
        "!!ARBfp1.0\nOPTION NV_fragment_program;\nTEMP R0;\nADDHC_SAT R0, R0, |R0|;\nMOV_SAT result.color (NE.xyzw), R0.xyzw;\nEND\n"
    );
    let i = first_insn(&p);
    assert_eq!(
        (i.mods.precision, i.mods.cc, i.mods.clamp),
        (Some(Precision::H), Some(0), Some(Clamp::Sat))
    );
}

#[test]
fn suffixes_and_dot_modifiers_are_the_same_tree() {
    // Table X.15: R = F (32-bit), C/C0 = CC0, C1 = CC1, _SAT = SAT, _SSAT = SSAT.
    let a = ok("!!NVvp4.0\nTEMP R0;\nADDRC1_SSAT R0, R0, R0;\nEND");
    let b = ok("!!NVvp4.0\nTEMP R0;\nADDR.CC1.SSAT R0, R0, R0;\nEND");
    assert_eq!(a, b);
    let i = first_insn(&a);
    assert_eq!(i.opcode, NvOpcode::Add);
    assert_eq!(i.mods.precision, Some(Precision::R));
    // RCC is an opcode, not RC + C; RCCC is RCC + C; FLRC is FLR + C.
    let p = ok("!!NVvp4.0\nTEMP R0;\nRCC R0, R0.x;\nRCCC R0, R0.x;\nFLRC R0, R0;\nEND");
    let ops: Vec<(NvOpcode, Option<u8>)> =
        p.instructions().map(|i| (i.opcode, i.mods.cc)).collect();
    assert_eq!(
        ops,
        vec![
            (NvOpcode::Rcc, None),
            (NvOpcode::Rcc, Some(0)),
            (NvOpcode::Flr, Some(0))
        ]
    );
}

#[test]
fn every_declaration_kind() {
    let p = ok("!!NVfp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_counters;
OPTION ARB_draw_buffers;
FLAT UINT ATTRIB c = fragment.attrib[1];
CENTROID ATTRIB tc[] = { fragment.texcoord[0..3] };
SAMPLE NOPERSPECTIVE ATTRIB s = fragment.attrib[2];
PARAM k = {1, 2.5, -3, 0};
PARAM s1 = -0.5;
PARAM m[4] = { state.matrix.mvp };
PARAM rows[3] = { state.matrix.modelview[1].invtrans.row[0..2] };
INT PARAM width = program.local[0];
PARAM mix[] = { program.env[0..1], {1, 2}, -4, state.light[0].spot.direction };
OUTPUT o = result.color;
OUTPUT oa[] = { result.color[0..1] };
BUFFER bones[] = { program.buffer[0] };
BUFFER4 b4[8] = { program.buffer[1][0..7] };
CBUFFER cb[] = { program.buffer[2] };
CBUFFER cb2[][] = { program.buffer[3..4] };
TEXTURE t = texture[2];
TEXTURE ts[] = { texture[0..3] };
IMAGE im[] = { image[0..1] };
STORAGE sb[] = { program.storage[0] };
COUNTER ctr[] = { program.counter[0] };
LONG TEMP D0;
SHORT TEMP h;
FLOAT TEMP f, lmem[75];
ALIAS R = f;
SUBROUTINETYPE st { a, b };
SUBROUTINE st sr = program.subroutine[0];
SUBROUTINE st sra[2] = { program.subroutine[1..2] };
a SUBROUTINENUM(1):
RET;
b SUBROUTINENUM(2):
RET;
main:
CALI sr;
CALI sra[f.x] (GT);
ATOMCTR.INCR f.x, ctr[0];
END
");
    let d = decls(&p);
    let c = bound(d[0]);
    assert_eq!(
        (c.kind, c.mods.ty, &c.mods.interp[..]),
        (DeclKind::Attrib, Some(VarType::Uint), &[Interp::Flat][..])
    );
    let tc = bound(d[1]);
    assert_eq!(tc.dims, vec![None]);
    assert_eq!(tc.mods.interp, vec![Interp::Centroid]);
    let InitItem::Binding(b) = &tc.init[0] else {
        panic!()
    };
    assert_eq!(binding_text(b), "fragment.texcoord[0..3]");
    assert_eq!(
        bound(d[2]).mods.interp,
        vec![Interp::Sample, Interp::NoPerspective]
    );
    let k = bound(d[3]);
    assert!(k.dims.is_empty());
    assert!(matches!(&k.init[..], [InitItem::Vector(v)] if v.len() == 4 && v[2].neg));
    assert!(matches!(
        &bound(d[4]).init[..],
        [InitItem::Scalar(SignedLit { neg: true, .. })]
    ));
    assert_eq!(bound(d[5]).dims, vec![Some(4)]);
    assert_eq!(bound(d[7]).mods.ty, Some(VarType::Int));
    assert_eq!(bound(d[8]).init.len(), 4);
    let kinds: Vec<DeclKind> = d
        .iter()
        .filter_map(|d| match d {
            Declaration::Bound(b) => Some(b.kind),
            _ => None,
        })
        .collect();
    use DeclKind::*;
    assert_eq!(
        kinds,
        vec![
            Attrib, Attrib, Attrib, Param, Param, Param, Param, Param, Param, Output, Output,
            Buffer, Buffer4, CBuffer, CBuffer, Texture, Texture, Image, Storage, Counter,
            Subroutine, Subroutine
        ]
    );
    assert_eq!(bound(d[14]).dims, vec![None, None]);
    let Declaration::Temp { mods, vars } = d[22] else {
        panic!()
    };
    assert_eq!(mods.ty, Some(VarType::Float));
    assert_eq!(
        vars[1],
        TempVar {
            name: "lmem".into(),
            size: Some(75)
        }
    );
    assert_eq!(
        *d[23],
        Declaration::Alias {
            name: "R".into(),
            target: "f".into()
        }
    );
    assert_eq!(
        *d[24],
        Declaration::SubroutineType {
            name: "st".into(),
            labels: vec!["a".into(), "b".into()]
        }
    );
    assert_eq!(bound(d[25]).subroutine_type.as_deref(), Some("st"));
    let labels: Vec<&Label> = p
        .statements
        .iter()
        .filter_map(|s| match s {
            Statement::Label(l) => Some(l),
            _ => None,
        })
        .collect();
    assert_eq!(
        labels[1],
        &Label {
            name: "b".into(),
            subroutine_num: Some(2)
        }
    );
    let cali: Vec<&Instruction> = p
        .instructions()
        .filter(|i| i.opcode == NvOpcode::Cali)
        .collect();
    assert_eq!(cali[1].cond.map(|c| c.cond), Some(CondCode::Gt));
    let ctr = p.instructions().last().unwrap();
    assert_eq!(ctr.mods.atomic, Some(AtomicOp::Incr));
}

#[test]
fn arb_address_registers_and_relative_addressing() {
    // ARB_vertex_program: ADDRESS, ARL, `c[A0.x + n]`, `c[addr.x - 2]` (one address
    // register: MAX_PROGRAM_ADDRESS_REGISTERS_ARB is at least 1).
    let p = ok("!!ARBvp1.0\nPARAM c[8] = { program.local[0..7] };\nADDRESS A0;\nARL A0.x, vertex.attrib[1].y;\nMOV result.position, c[A0.x + 3];\nMOV result.color, c[A0.x-2];\nEND");
    let Declaration::Address { names } = decls(&p)[1] else {
        panic!()
    };
    assert_eq!(names, &["A0"]);
    let i: Vec<&Instruction> = p.instructions().collect();
    assert_eq!(i[0].opcode, NvOpcode::Arl);
    let idx = |k: usize| match &i[k].srcs[0].base {
        SrcBase::Ref(VarRef::Var { index, .. }) => index.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        idx(1),
        vec![Index::Rel(RelIndex {
            var: "A0".into(),
            comp: 0,
            offset: 3
        })]
    );
    assert_eq!(
        idx(2),
        vec![Index::Rel(RelIndex {
            var: "A0".into(),
            comp: 0,
            offset: -2
        })]
    );
}

#[test]
fn notes_section_15_syntax_variants() {
    // Padding spaces, `REP.S ;`, CC through dummy temps, relative addressing through temps.
    ok("!!NVfp4.0\nTEMP RC, HC, R0, R1, lmem[75];\nPARAM c[4] = { program.local[0..3] };\nIF    NE.x;\nENDIF;\nREP.S ;\nBRK   (GT.x);\nENDREP;\nMOV.U.CC RC.x, -R1.w;\nTRUNC.U.CC HC.x, R1.w;\nMOV R0, c[R1.w + 2];\nMOV R0, lmem[R0.x].x;\nEND");
    // Immediates: braced with swizzle, unbraced scalars, hex, spaces inside braces.
    let p = ok("!!NVfp4.0\nTEMP R0;\nMOV R0, {0}.x;\nMOV R0, {1, 0}.xyyx;\nMOV R0, {0.40000001}.x;\nMOV R0, {1080}.x;\nMUL R0, R0, 0.0625;\nAND.U R0, R0, 0x0F;\nADD R0, R0, { 0, 0, 1, 0 };\nEND");
    let last = p.instructions().nth(5).unwrap();
    assert_eq!(
        last.srcs[1].base,
        SrcBase::Scalar(Literal::Int {
            value: 15,
            hex: true
        })
    );
    // One-element range, direct use of the binding beside the array; geometry inputs.
    ok("!!NVfp4.0\nATTRIB fragment_texcoord[] = { fragment.texcoord[0..0] };\nTEMP R0;\nMOV R0, fragment_texcoord[0];\nMOV R0, fragment.texcoord[0];\nEND");
    let p = ok("!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 3;\nOUTPUT result_attrib[] = { result.attrib[0..1] };\nTEMP R0;\nMOV R0, vertex[0].texcoord[1];\nMOV R0, vertex[2].position.yxzw;\nMOV result_attrib[1], R0;\nEND");
    let i = p.instructions().nth(1).unwrap();
    let SrcBase::Ref(VarRef::Binding(b)) = &i.srcs[0].base else {
        panic!()
    };
    assert_eq!(b.indices_of("vertex"), Some(&[Index::Abs(2)][..]));
    assert_eq!(i.srcs[0].swizzle, Swizzle::Vector([1, 0, 2, 3]));
    // Typed declarations; opcodes without a type suffix in NVfp4.0.
    ok("!!NVfp4.0\nUINT TEMP Tx;\nFLOAT TEMP f;\nUINT ATTRIB u = fragment.attrib[0];\nINT PARAM width = program.local[0];\nCENTROID ATTRIB cc = fragment.texcoord[1];\nTEMP Z, texcoord;\nTEX Z, texcoord, texture[0], 2D;\nFLR texcoord.z, texcoord;\nEND");
    // ARB + NV options: |R0|, COSR/COSH/DDXH, SHORT TEMP, TXD; labels, MOVC, BRA, result.clip.
    ok("!!ARBfp1.0\nOPTION NV_fragment_program;\nSHORT TEMP R0;\nMOV R0, |R0|;\nCOSR R0, R0.x;\nCOSH R0, R0.x;\nDDXH R0, R0;\nTXD R0, R0, R0, R0, texture[0], 2D;\nEND");
    ok("!!ARBvp1.0\nOPTION NV_vertex_program2;\nlabel1: MOVC result.position, vertex.position;\nMOV result.clip[0], vertex.texcoord[0];\nBRA label1 (EQ.xyzw);\nEND");
    // END glued to the statement, no newline, a trailer after END, trailing spaces.
    ok("!!ARBvp1.0   \nMOV result.color.front.primary, vertex.color.x;END");
    ok("!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n# 1 instructions, 0 R-regs");
    // Generated GLASM forms.
    ok("!!NVfp5.0\nOPTION NV_internal;\nOPTION NV_bindless_texture;\nOPTION NV_shader_storage_buffer;\nLONG TEMP D0;\nTEMP R0, R1;\nCBUFFER buf14[] = { program.buffer[14] };\nSTORAGE sbo_buf0[] = { program.storage[0] };\nLDC.U64 D0.x, buf14[0];\nTEX.F R0, R1, handle(D0.x), 2D;\nADD.F32 R0, R0, R1;\nEND");
}

#[test]
fn bindings_of_every_stage() {
    ok("!!ARBvp1.0\nPARAM p[] = { state.material.front.ambient, state.light[1].half, state.lightmodel.scenecolor, state.lightprod[0].back.specular, state.fog.params, state.texgen[1].eye.r, state.clip[2].plane, state.point.attenuation, state.texenv.color, state.depth.range, state.matrix.texture[1].inverse.row[3], state.matrix.program[0].transpose, state.matrix.palette[2].row[0..1] };\nMOV result.texcoord[2], vertex.weight[0];\nMOV result.color.back.secondary, vertex.matrixindex;\nMOV result.fogcoord.x, vertex.fogcoord.x;\nMOV result.pointsize.x, vertex.normal.z;\nEND");
    ok("!!NVvp5.0\nTEMP R0;\nMOV.S R0, vertex.id;\nMOV.S R0, vertex.instance;\nMOV result.id, R0;\nMOV result.attrib[3], vertex.attrib[15];\nEND");
    ok("!!NVfp5.0\nTEMP R0;\nMOV R0, fragment.color.secondary;\nMOV R0, fragment.fogcoord;\nMOV R0, fragment.clip[1];\nMOV R0, primitive.id;\nMOV R0, fragment.pointcoord;\nMOV R0, fragment.samplemask;\nMOV result.color, R0;\nMOV result.depth.z, R0;\nEND");
    ok("!!NVgp5.0\nPRIMITIVE_IN PATCHES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nINVOCATIONS 4;\nATTRIB pos = vertex.position;\nATTRIB texcoords[] = { vertex.texcoord[0..3] };\nATTRIB tcoords1[4] = { vertex[1].texcoord[1..4] };\nINT TEMP A0;\nTEMP R0;\nMOV R0, pos[1];\nMOV R0, texcoords[A0.x][A0.y];\nMOV R0, tcoords1[2];\nMOV R0, vertex[1].color.back.primary;\nMOV R0, primitive.invocation;\nMOV R0, primitive.tessouter[2];\nMOV result.layer.x, R0;\nMOV result.primid.x, R0;\nEMITS R0.x;\nEND");
    ok("!!NVtcp5.0\nVERTICES_OUT 3;\nTEMP R0;\nMOV R0, vertex[2].position;\nMOV R0, vertex.in[1].attrib[0];\nMOV R0, primitive.out.patch.attrib[1];\nMOV result.patch.tessouter[0].x, R0;\nMOV result.patch.tessinner[1].x, R0;\nMOV result.patch.attrib[3], R0;\nMOV result.position, R0;\nEND");
    ok("!!NVtep5.0\nTESS_MODE QUADS;\nTESS_SPACING FRACTIONAL_ODD;\nTESS_VERTEX_ORDER CW;\nTESS_POINT_MODE;\nTEMP R0;\nMOV R0, vertex.tesscoord;\nMOV R0, primitive.in.tessinner[0];\nMOV result.position, vertex[3].position;\nEND");
    let p = ok("!!NVcp5.0\nGROUP_SIZE 8 4 2;\nTEMP R0;\nMOV.U R0, invocation.globalid;\nMOV.U R0, invocation.localindex.x;\nMOV.U R0, invocation.groupcount;\nEND");
    assert_eq!(p.program_decls, vec![ProgramDecl::GroupSize(vec![8, 4, 2])]);
}

#[test]
fn texture_access_forms() {
    let p = ok("!!NVfp5.0\nTEXTURE t = texture[2];\nTEXTURE ts[] = { texture[0..3] };\nLONG TEMP D0;\nTEMP R0, R1, R2;\nTEX R0, R1, texture, 2D;\nTEX R0, R1, texture[1], 3D, (1, -1, 2);\nTXL R0, R1, ts[R2.x], ARRAY2D, (1,-1);\nTEX R0, R1, t, RECT, offset(R2);\nTXG R0, R1, texture[0].y, 2D;\nTXGO R0, R1, R2, R1, t, SHADOW2D;\nTEX R0, R1, R2.x, texture[5], SHADOWARRAYCUBE;\nTEX.F R0, R1, handle(D0.x), 2D;\nTXF R0, R1, texture[6], BUFFER;\nTXFMS R0, R1, texture[7], RENDERBUFFER;\nEND");
    let t: Vec<&TexAccess> = p
        .instructions()
        .map(|i| i.texture.as_ref().unwrap())
        .collect();
    assert_eq!(t[0].unit, UnitRef::Unit(None));
    assert_eq!(t[1].offset, Some(TexOffset::Const(vec![1, -1, 2])));
    assert_eq!(
        t[2].unit,
        UnitRef::Var {
            name: "ts".into(),
            index: Some(Index::Rel(RelIndex {
                var: "R2".into(),
                comp: 0,
                offset: 0
            }))
        }
    );
    assert!(matches!(t[3].offset, Some(TexOffset::Operand(_))));
    assert_eq!((t[4].component, t[4].target), (Some(1), TexTarget::T2D));
    assert_eq!(t[6].target, TexTarget::ShadowArrayCube);
    assert_eq!(p.instructions().nth(6).unwrap().srcs.len(), 2);
    assert_eq!(
        t[7].unit,
        UnitRef::Handle {
            var: "D0".into(),
            comp: 0
        }
    );
    // ARB_fragment_program_shadow.
    ok("!!ARBfp1.0\nOPTION ARB_fragment_program_shadow;\nTEX result.color, fragment.texcoord[0], texture[0], SHADOW2D;\nEND");
}

#[test]
fn images_memory_and_conversions() {
    let p = ok("!!NVfp5.0\nIMAGE im[] = { image[0..1] };\nLONG TEMP D0;\nTEMP R0, R1;\nLOADIM.U32X4 R0, R1, im[1], 2D;\nSTOREIM image[1], R0, R1, ARRAY2DMS;\nATOMIM.CSWAP.U32 R0.x, R1, R0, image[0], BUFFER;\nLOAD.COH.F32X4 R0, D0.x;\nSTORE.VOL.S16 R0, D0.y;\nATOM.EXCH.U64 R0.x, R1, D0.x;\nCVT.S32.F32.TRUNC R0, R1;\nMUL.S24 R0, R1, R1;\nEND");
    let i: Vec<&Instruction> = p.instructions().collect();
    assert_eq!(i[0].mods.ty, Some(DataType::U32X4));
    assert_eq!(i[1].image.as_ref().unwrap().target, TexTarget::Array2DMS);
    assert!(i[3].mods.coh && i[4].mods.vol);
    assert_eq!(
        (i[6].mods.ty, i[6].mods.ty2, i[6].mods.round),
        (
            Some(DataType::S32),
            Some(DataType::F32),
            Some(RoundMode::Trunc)
        )
    );
    assert_eq!(i[7].mods.mul, Some(MulMod::S24));
}

#[test]
fn names_that_look_like_keywords() {
    // NV_gpu_program4 §2.X.2 reserves only binding words: opcode and condition names may
    // name variables (piglit condition_code-01, reserved_words-01).
    let p = ok("!!NVfp5.0\nTEMP MOV, EQ, ADDRESS;\nMOV MOV, EQ;\nKIL EQ;\nEND");
    let kil = p.instructions().nth(1).unwrap();
    assert_eq!((kil.srcs.len(), kil.cond), (1, None));
    // `KIL (NE.x)` is a condition even when a variable is named NE; it prints with the
    // parentheses so that it reads back the same.
    let p = ok("!!NVfp5.0\nKIL (NE.x);\nTEMP NE;\nMOV NE, NE;\nEND");
    assert!(print(&p).contains("KIL (NE.x);"));
    assert_eq!(first_insn(&p).cond.map(|c| c.cond), Some(CondCode::Ne));
    // ARB programs reserve only the instructions they have (reserved_words-01).
    ok("!!ARBfp1.0\nTEMP ARL, DDX, SEQ, vertex;\nMOV DDX, fragment.texcoord[0];\nEND");
}
