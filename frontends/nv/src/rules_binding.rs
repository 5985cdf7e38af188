//! Rules on one binding that its tree (`bindings.rs`) does not express: where the grammars
//! allow index ranges, bindings an option adds or a program type lacks, and the
//! implementation limits on binding indices (`limits.rs`).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use super::ast::*;
use super::bindings::BindClass;
use super::lexer::PResult;
use super::parse::Parser;

/// Segments after which NV programs may write an `<arrayRange>`: `program.env`,
/// `program.local`, `.row` (NV_gpu_program4 `<progEnvParams>`, `<progLocalParams>`,
/// `<stateMatrixRows>`), `program.buffer` (`<bufferUseDM>`), the `<attribMulti>` and
/// `<resultMulti>` arrays of NV_vertex_program4, NV_fragment_program4 and
/// NV_geometry_program4 (`texcoord`, `attrib`, `clip`), `result.color[n..o]`
/// (NV_fragment_program4, Dependencies on ARB_draw_buffers), and the gp5 arrays.
const NV_RANGES: &[&str] = &[
    "env",
    "local",
    "row",
    "buffer",
    "texcoord",
    "attrib",
    "clip",
    "color",
    "tessouter",
    "tessinner",
    "storage",
    "counter",
    "sharedmem",
    "subroutine",
    "texture",
    "image",
];

/// ARB_vertex_program / ARB_fragment_program: `<progEnvParams>`, `<progLocalParams>` and
/// `<stateMatrixRows>` are the only rules with `".."`.
const ARB_RANGES: &[&str] = &["env", "local", "row"];

impl<'a> Parser<'a> {
    /// Checks binding `b` of class `class` that starts at byte `start`.
    pub(crate) fn check_binding(&self, b: &Binding, class: BindClass, start: usize) -> PResult<()> {
        self.check_ranges(b, start)?;
        self.check_binding_availability(b, class, start)?;
        self.check_binding_limits(b, start)
    }

    fn check_ranges(&self, b: &Binding, start: usize) -> PResult<()> {
        let state = b.root() == "state";
        for s in &b.segments {
            if !s.index.iter().any(|i| matches!(i, Index::Range(..))) {
                continue;
            }
            let ok = if self.arb() {
                ARB_RANGES.contains(&s.name.as_str())
            } else {
                NV_RANGES.contains(&s.name.as_str()) && (!state || s.name == "row")
            };
            if !ok {
                return self.err_at(
                    start,
                    format!(
                        "an index range `[a..b]` is not allowed after `{}` (the grammar's \
                         <arrayRange> follows only program.env, program.local, .row{})",
                        s.name,
                        if self.arb() {
                            ""
                        } else {
                            " and the attribute, result and buffer arrays"
                        }
                    ),
                );
            }
        }
        Ok(())
    }

    fn check_binding_availability(
        &self,
        b: &Binding,
        class: BindClass,
        start: usize,
    ) -> PResult<()> {
        let path = b.path();
        // ARB_fragment_program <resultBinding> ::= "result" "." "color" | "result" "." "depth";
        // NV_fragment_program4 Table X.X: result.color, result.color[n], result.depth.
        if self.stage() == NvStage::Fragment
            && class == BindClass::Result
            && (path.ends_with("color.primary") || path.ends_with("color.secondary"))
        {
            return self.err_at(
                start,
                format!(
                    "`{path}` is not a fragment program result (fragment programs write \
                     result.color, result.color[n] and result.depth: ARB_fragment_program \
                     <resultBinding>, NV_fragment_program4 §2.X.3.5)"
                ),
            );
        }
        // NV_vertex_program2_option adds <resultVtxBasic> ::= "clip" "[" <clipPlaneNum> "]".
        if self.arb() && self.stage() == NvStage::Vertex && path == "result.clip" && !self.feat.vp2
        {
            return self.err_at(
                start,
                "`result.clip[n]` requires `OPTION NV_vertex_program2;` in !!ARBvp1.0 programs \
                 (NV_vertex_program2_option <resultVtxBasic>)",
            );
        }
        Ok(())
    }

    fn check_binding_limits(&self, b: &Binding, start: usize) -> PResult<()> {
        let mut path: Vec<&str> = Vec::new();
        for s in &b.segments {
            let top = s.index.iter().find_map(|i| match i {
                Index::Abs(n) => Some(*n),
                Index::Range(_, z) => Some(*z),
                Index::Rel(_) => None,
            });
            if let Some(n) = top {
                if let Some((max, what)) = self.limits.for_segment(self.stage(), &path, &s.name) {
                    if n >= max {
                        return self.err_at(
                            start,
                            format!(
                                "`{}[{n}]` is beyond the implementation limit {what} = {max} \
                                 (--limits {}; a program exceeding a resource limit fails to \
                                 load)",
                                s.name,
                                self.profile.name()
                            ),
                        );
                    }
                }
                // ARB_vertex_program §2.14.3.1: a weight or matrix index number "is not
                // divisible by four" fails to load.
                if matches!(s.name.as_str(), "weight" | "matrixindex") && n % 4 != 0 {
                    return self.err_at(
                        start,
                        format!(
                            "`vertex.{}[{n}]`: the number must be a multiple of four \
                             (ARB_vertex_program §2.14.3.1)",
                            s.name
                        ),
                    );
                }
            }
            path.push(&s.name);
        }
        Ok(())
    }

    /// A numbered texture unit `texture[n]` (at byte `off`) against MAX_TEXTURE_IMAGE_UNITS
    /// (ARB_fragment_program <texImageUnitNum> "from 0 to MAX_TEXTURE_IMAGE_UNITS_ARB-1").
    pub(crate) fn check_unit_limit(&self, n: u32, off: usize) -> PResult<()> {
        let max = self.limits.image_units;
        if n >= max {
            return self.err_at(
                off,
                format!(
                    "`texture[{n}]` is beyond the implementation limit \
                     MAX_TEXTURE_IMAGE_UNITS_ARB = {max} (--limits {})",
                    self.profile.name()
                ),
            );
        }
        Ok(())
    }
}
