//! Headers, PROPERTY and DCL: everything TEXT-FORMAT.md §4–§6 says Mesa accepts, with the
//! IR it must produce and the line tgsi_dump prints for it (§6 "Lossy printer behaviours",
//! §10). Also the legacy declarations of the corpus (TEMPX, IMMX, RES).

use rstest::rstest;
use shaderdiff_model::*;
use shaderdiff_tgsi::{parse, print, print_with, PrintOptions};

fn parse_ok(text: &str) -> Program {
    parse(text, "t.tgsi").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The printed line of the (only) declaration of `text`.
fn printed_decl(p: &Program) -> String {
    print(p)
        .lines()
        .find(|l| l.starts_with("DCL"))
        .unwrap()
        .to_string()
}

#[rstest]
#[case("VERT", Stage::Vertex)]
#[case("FRAG", Stage::Fragment)]
#[case("GEOM", Stage::Geometry)]
#[case("TESS_CTRL", Stage::TessCtrl)]
#[case("TESS_EVAL", Stage::TessEval)]
#[case("COMP", Stage::Compute)]
#[case("comp", Stage::Compute)]
fn headers(#[case] header: &str, #[case] stage: Stage) {
    // §2: an empty program (header only, no END) is accepted.
    let p = parse_ok(header);
    assert_eq!(p.stage, stage);
    assert_eq!(print(&p), format!("{}\n", header.to_ascii_uppercase()));
}

// §5: every property, value token = position in the name list; named values by name.
#[rstest]
#[case("GS_INPUT_PRIMITIVE TRIANGLES", PropertyName::GsInputPrimitive, 4)]
#[case(
    "GS_INPUT_PRIMITIVE triangle_strip_adjacency",
    PropertyName::GsInputPrimitive,
    13
)]
#[case("GS_OUTPUT_PRIMITIVE PATCHES", PropertyName::GsOutputPrimitive, 14)]
#[case("GS_MAX_OUTPUT_VERTICES 3", PropertyName::GsMaxOutputVertices, 3)]
#[case("FS_COORD_ORIGIN UPPER_LEFT", PropertyName::FsCoordOrigin, 0)]
#[case("FS_COORD_ORIGIN LOWER_LEFT", PropertyName::FsCoordOrigin, 1)]
#[case(
    "FS_COORD_PIXEL_CENTER HALF_INTEGER",
    PropertyName::FsCoordPixelCenter,
    0
)]
#[case("FS_COORD_PIXEL_CENTER INTEGER", PropertyName::FsCoordPixelCenter, 1)]
#[case(
    "FS_COLOR0_WRITES_ALL_CBUFS 1",
    PropertyName::FsColor0WritesAllCbufs,
    1
)]
#[case("FS_DEPTH_LAYOUT 4", PropertyName::FsDepthLayout, 4)]
#[case("VS_PROHIBIT_UCPS 1", PropertyName::VsProhibitUcps, 1)]
#[case("GS_INVOCATIONS 32", PropertyName::GsInvocations, 32)]
#[case("VS_WINDOW_SPACE_POSITION 1", PropertyName::VsWindowSpacePosition, 1)]
#[case("TCS_VERTICES_OUT 3", PropertyName::TcsVerticesOut, 3)]
#[case("TES_PRIM_MODE 7", PropertyName::TesPrimMode, 7)]
#[case("TES_SPACING 2", PropertyName::TesSpacing, 2)]
#[case("TES_VERTEX_ORDER_CW 1", PropertyName::TesVertexOrderCw, 1)]
#[case("TES_POINT_MODE 1", PropertyName::TesPointMode, 1)]
#[case("NUM_CLIPDIST_ENABLED 8", PropertyName::NumClipdistEnabled, 8)]
#[case("NUM_CULLDIST_ENABLED 2", PropertyName::NumCulldistEnabled, 2)]
#[case("FS_EARLY_DEPTH_STENCIL 1", PropertyName::FsEarlyDepthStencil, 1)]
#[case("FS_POST_DEPTH_COVERAGE 1", PropertyName::FsPostDepthCoverage, 1)]
#[case("NEXT_SHADER FRAG", PropertyName::NextShader, 4)]
#[case("NEXT_SHADER MESH", PropertyName::NextShader, 7)]
#[case("CS_FIXED_BLOCK_WIDTH 64", PropertyName::CsFixedBlockWidth, 64)]
#[case("CS_FIXED_BLOCK_HEIGHT 8", PropertyName::CsFixedBlockHeight, 8)]
#[case("CS_FIXED_BLOCK_DEPTH 1", PropertyName::CsFixedBlockDepth, 1)]
#[case("LEGACY_MATH_RULES 1", PropertyName::LegacyMathRules, 1)]
#[case("VS_BLIT_SGPRS_AMD 3", PropertyName::VsBlitSgprsAmd, 3)]
#[case(
    "CS_USER_DATA_COMPONENTS_AMD 2",
    PropertyName::CsUserDataComponentsAmd,
    2
)]
#[case("LAYER_VIEWPORT_RELATIVE 1", PropertyName::LayerViewportRelative, 1)]
#[case(
    "FS_BLEND_EQUATION_ADVANCED 4",
    PropertyName::FsBlendEquationAdvanced,
    4
)]
#[case("SEPARABLE_PROGRAM 1", PropertyName::SeparableProgram, 1)]
#[case("separable_program 4294967297", PropertyName::SeparableProgram, 1)]
fn properties(#[case] text: &str, #[case] name: PropertyName, #[case] value: u32) {
    let p = parse_ok(&format!("GEOM\nPROPERTY {text}\n"));
    assert_eq!(p.properties, vec![Property { name, value }]);
    let printed = print(&p);
    let line = printed.lines().nth(1).unwrap();
    // Named values print by name in upper case, numbers in decimal (§10).
    let (n, v) = text.split_once(' ').unwrap();
    let expected_value = if v.chars().all(|c| c.is_ascii_digit()) {
        value.to_string()
    } else {
        v.to_ascii_uppercase()
    };
    assert_eq!(
        line,
        format!("PROPERTY {} {expected_value}", n.to_ascii_uppercase())
    );
}

// §6: declaration forms and what tgsi_dump prints for them.
#[rstest]
#[case::range("FRAG", "DCL TEMP[ 1 .. 2 ]", "DCL TEMP[1..2]")]
#[case::single("FRAG", "DCL TEMP[7]", "DCL TEMP[7]")]
#[case::two_d("VERT", "DCL CONST[1][0..15]", "DCL CONST[1][0..15]")]
#[case::two_d_first_range_ignored("VERT", "DCL CONST[2..5][3]", "DCL CONST[2][3]")]
#[case::usage_mask("TESS_CTRL", "DCL OUT[1].xyz, TESSOUTER", "DCL OUT[1].xyz, TESSOUTER")]
#[case::array("FRAG", "DCL TEMP[0..3], ARRAY(1)", "DCL TEMP[0..3], ARRAY(1)")]
#[case::vs_input_array("VERT", "DCL IN[0..1], ARRAY(2)", "DCL IN[0..1], ARRAY(2)")]
#[case::local("COMP", "DCL TEMP[0..3], LOCAL", "DCL TEMP[0..3], LOCAL")]
#[case::semantic_index("VERT", "DCL OUT[0], COLOR[1]", "DCL OUT[0], COLOR[1]")]
#[case::semantic_index_zero("VERT", "DCL OUT[0], COLOR[0]", "DCL OUT[0], COLOR")]
#[case::generic_always_indexed("VERT", "DCL OUT[0], GENERIC", "DCL OUT[0], GENERIC[0]")]
#[case::texcoord_always_indexed("VERT", "DCL OUT[0], TEXCOORD", "DCL OUT[0], TEXCOORD[0]")]
#[case::patch_zero("TESS_EVAL", "DCL IN[0], PATCH[0]", "DCL IN[0], PATCH")]
#[case::stream(
    "GEOM",
    "DCL OUT[0], GENERIC[0], STREAM(1, 0, 2, 3)",
    "DCL OUT[0], GENERIC[0], STREAM(1, 0, 2, 3)"
)]
#[case::stream_zero(
    "GEOM",
    "DCL OUT[0], GENERIC[0], STREAM(0,0,0,0)",
    "DCL OUT[0], GENERIC[0]"
)]
#[case::interp_location(
    "FRAG",
    "DCL IN[0], GENERIC[0], PERSPECTIVE, CENTROID",
    "DCL IN[0], GENERIC[0], PERSPECTIVE, CENTROID"
)]
#[case::interp_sample(
    "FRAG",
    "DCL IN[0], GENERIC[0], LINEAR, SAMPLE",
    "DCL IN[0], GENERIC[0], LINEAR, SAMPLE"
)]
#[case::interp_center(
    "FRAG",
    "DCL IN[0], GENERIC[0], LINEAR, CENTER",
    "DCL IN[0], GENERIC[0], LINEAR"
)]
#[case::interp_color("FRAG", "DCL IN[0], COLOR, COLOR", "DCL IN[0], COLOR, COLOR")]
#[case::location_not_vs("VERT", "DCL OUT[1], GENERIC[0], CENTROID", "DCL OUT[1], GENERIC[0]")]
#[case::interp_not_on_const("FRAG", "DCL CONST[0..4], CONSTANT", "DCL CONST[0..4]")]
#[case::invariant(
    "VERT",
    "DCL OUT[0], POSITION, INVARIANT",
    "DCL OUT[0], POSITION, INVARIANT"
)]
#[case::everything(
    "FRAG",
    "DCL IN[0..1].xy, ARRAY(3), LOCAL, TEXCOORD[2], CONSTANT, CENTROID, INVARIANT",
    "DCL IN[0..1].xy, ARRAY(3), LOCAL, TEXCOORD[2], CONSTANT, CENTROID, INVARIANT"
)]
#[case::sv("VERT", "DCL SV[0], INSTANCEID", "DCL SV[0], INSTANCEID")]
#[case::samp("FRAG", "DCL SAMP[0..1]", "DCL SAMP[0..1]")]
#[case::addr("VERT", "DCL ADDR[0..2]", "DCL ADDR[0..2]")]
#[case::constbuf("COMP", "DCL CONSTBUF[0]", "DCL CONSTBUF[0]")]
#[case::hwatomic("COMP", "DCL HWATOMIC[0][0..3]", "DCL HWATOMIC[0][0..3]")]
#[case::sview("FRAG", "DCL SVIEW[0], 2D, FLOAT", "DCL SVIEW[0], 2D, FLOAT")]
#[case::sview_four_equal(
    "FRAG",
    "DCL SVIEW[1], 2D_ARRAY, UINT, UINT, UINT, UINT",
    "DCL SVIEW[1], 2D_ARRAY, UINT"
)]
#[case::sview_quirk(
    "FRAG",
    "DCL SVIEW[0], 2D, FLOAT, FLOAT, UINT, FLOAT",
    "DCL SVIEW[0], 2D, FLOAT"
)]
#[case::sview_distinct(
    "FRAG",
    "DCL SVIEW[0], 3D, SINT, UINT, FLOAT, UNORM,",
    "DCL SVIEW[0], 3D, SINT, UINT, FLOAT, UNORM"
)]
#[case::image(
    "COMP",
    "DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR",
    "DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR"
)]
#[case::image_no_format(
    "COMP",
    "DCL IMAGE[1], 2D_ARRAY, WR",
    "DCL IMAGE[1], 2D_ARRAY, PIPE_FORMAT_NONE, WR"
)]
#[case::image_reordered(
    "COMP",
    "DCL IMAGE[2], BUFFER, RAW, WR, pipe_format_r32_uint",
    "DCL IMAGE[2], BUFFER, PIPE_FORMAT_R32_UINT, WR, RAW"
)]
#[case::buffer("COMP", "DCL BUFFER[0]", "DCL BUFFER[0]")]
#[case::buffer_atomic("COMP", "DCL BUFFER[1], ATOMIC", "DCL BUFFER[1], ATOMIC")]
#[case::memory_default("COMP", "DCL MEMORY[0]", "DCL MEMORY[0], GLOBAL")]
#[case::memory_shared("COMP", "DCL MEMORY[0], SHARED", "DCL MEMORY[0], SHARED")]
#[case::memory_private("COMP", "DCL MEMORY[1], PRIVATE", "DCL MEMORY[1], PRIVATE")]
#[case::memory_input("COMP", "DCL MEMORY[2], INPUT", "DCL MEMORY[2], INPUT")]
#[case::tess_implied_in("TESS_EVAL", "DCL IN[][1], GENERIC[3]", "DCL IN[][1], GENERIC[3]")]
#[case::tess_implied_range("TESS_CTRL", "DCL IN[]", "DCL IN[][0..31]")]
#[case::tcs_out("TESS_CTRL", "DCL OUT[][0], POSITION", "DCL OUT[][0], POSITION")]
#[case::tcs_patch_out("TESS_CTRL", "DCL OUT[2][1], TESSINNER", "DCL OUT[1], TESSINNER")]
#[case::tempx("FRAG", "DCL TEMPX[0][0..1]", "DCL TEMPX[0][0..1]")]
#[case::res("FRAG", "DCL RES[0], 2D, FLOAT", "DCL RES[0], 2D, FLOAT")]
#[case::lower_case(
    "frag",
    "dcl in[0], generic[0], perspective",
    "DCL IN[0], GENERIC[0], PERSPECTIVE"
)]
fn declarations(#[case] stage: &str, #[case] decl: &str, #[case] printed: &str) {
    let p = parse_ok(&format!("{stage}\n{decl}\n"));
    assert_eq!(printed_decl(&p), printed);
    // The IR stores what is printed: printing is idempotent, and lossless printing loses
    // nothing. (The default form of distinct SVIEW return types is tgsi_dump's, which Mesa
    // reads back as a single type: §6.4 quirk, §10 lossy list.)
    if !decl.ends_with(',') {
        assert_eq!(print(&parse_ok(&print(&p))), print(&p));
    }
    assert_eq!(
        parse_ok(&print_with(&p, &PrintOptions { lossless: true })),
        p
    );
}

#[test]
fn geometry_inputs_take_the_implied_vertex_dimension() {
    // §6.2/§6.3: in GEOM the first bracket is discarded (or empty with GS_INPUT_PRIMITIVE).
    let p = parse_ok("GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0], POSITION\nDCL IN[3][1], GENERIC[0]\nDCL IN[]\n");
    let d = &p.declarations;
    assert_eq!(
        (d[0].first, d[0].last, d[0].dimension),
        (0, 0, Some(DeclDimension::Implied))
    );
    assert_eq!(
        (d[1].first, d[1].last, d[1].dimension),
        (1, 1, Some(DeclDimension::Implied))
    );
    // An empty bracket alone is the implied range: 3 vertices for TRIANGLES (§5).
    assert_eq!((d[2].first, d[2].last), (0, 2));
    assert_eq!(print(&p).lines().nth(3), Some("DCL IN[][1], GENERIC[0]"));
}

#[test]
fn declaration_fields() {
    let p = parse_ok(
        "FRAG\nDCL IN[0..1].xy, ARRAY(3), LOCAL, TEXCOORD[2], CONSTANT, CENTROID, INVARIANT\n\
         DCL SVIEW[0], 2D, FLOAT, FLOAT, UINT, FLOAT\nDCL SVIEW[1], 3D, SINT, UINT, FLOAT, UNORM,\n",
    );
    let d = &p.declarations[0];
    assert_eq!(
        (d.file, d.first, d.last, d.usage_mask, d.array_id),
        (File::Input, 0, 1, 0b0011, 3)
    );
    assert!(d.local && d.invariant);
    assert_eq!(d.semantic, Some((SemanticName::TexCoord, 2)));
    assert_eq!(
        (d.interpolation, d.location),
        (
            Some(Interpolation::Constant),
            Some(InterpLocation::Centroid)
        )
    );
    // §6.4 quirk: without a comma after the 4th type all take the first one.
    assert_eq!(
        p.declarations[1].resource,
        Some(Resource::SamplerView {
            target: TexTarget::T2D,
            return_type: [ReturnType::Float; 4]
        })
    );
    let distinct = [
        ReturnType::Sint,
        ReturnType::Uint,
        ReturnType::Float,
        ReturnType::Unorm,
    ];
    assert_eq!(
        p.declarations[2].resource,
        Some(Resource::SamplerView {
            target: TexTarget::T3D,
            return_type: distinct
        })
    );
    // Lossless output keeps the distinct types (trailing comma); tgsi_dump's form does not.
    let lossless = print_with(&p, &PrintOptions { lossless: true });
    assert!(lossless.contains("DCL SVIEW[1], 3D, SINT, UINT, FLOAT, UNORM,\n"));
    assert_eq!(parse_ok(&lossless), p);
}

#[test]
fn legacy_immx_values_are_inlined() {
    // corpus frag-mad-immx.sh: `DCL IMMX[0..1] {{ 0.5, 0.4, 0.6, 1.0 }, { 0.5, 0.4, 0.6, 0.0 }}`.
    let text = "FRAG\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\nDCL IMMX[0..1]  {{ 0.5, 0.4, 0.6, 1.0 },\n    { 0.5, 0.4, 0.6, 0.0 }}\nMAD OUT[0], IN[0], IMMX[0], IMMX[1]\nEND\n";
    let p = parse_ok(text);
    let d = &p.declarations[2];
    assert_eq!((d.file, d.first, d.last), (File::ImmArray, 0, 1));
    let bits = |v: [f32; 4]| v.map(f32::to_bits);
    assert_eq!(
        d.values,
        vec![bits([0.5, 0.4, 0.6, 1.0]), bits([0.5, 0.4, 0.6, 0.0])]
    );
    assert_eq!(
        printed_decl(&Program { declarations: vec![d.clone()], ..Program::new(Stage::Fragment) }),
        "DCL IMMX[0..1] {{    0.5000,     0.4000,     0.6000,     1.0000}, {    0.5000,     0.4000,     0.6000,     0.0000}}"
    );
    assert_eq!(parse_ok(&print(&p)), p);
}
