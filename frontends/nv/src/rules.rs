//! The specs' "will fail to load" rules that concern options or the whole program: option
//! stages and conflicts (ARB_fragment_program §3.11.4.5, ARB_vertex_program §2.14.4.5,
//! NV_fragment_program4 §2.X.6.Y), `result.color[n]` without ARB_draw_buffers
//! (NV_fragment_program4 §2.X.3.5 and "Multiple Color Outputs"), `result.position` under
//! ARB_position_invariant, conventional / generic attribute aliasing (ARB_vertex_program
//! §2.14.3.1, Table X.2.1), state bound twice in relatively addressed arrays
//! (ARB_vertex_program §2.14.3.4), one target per texture unit (ARB_fragment_program
//! §3.11.6, NV_gpu_program4 §2.X.4.4), and the count limits of `limits.rs`.
//!
//! The parser records what these rules need in [`Seen`] while it reads the program; the
//! rules run at `END` and report at the place that breaks them.
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::{HashMap, HashSet};

use super::ast::*;
use super::bindings::BindClass;
use super::lexer::PResult;
use super::parse::Parser;

/// What the whole-program rules need, recorded during parsing.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    /// Every binding written in the program (declarations and operands), with its class and
    /// byte offset.
    pub bindings: Vec<(Binding, BindClass, usize)>,
    /// PARAM arrays: name, byte offset of the name, the bindings of the initializer.
    pub param_arrays: Vec<(String, usize, Vec<Binding>)>,
    /// Variables read with a relative index (`c[A0.x + 1]`).
    pub rel_arrays: HashSet<String>,
    /// Texture samples on numbered units: unit, target, byte offset of the unit operand.
    pub tex_uses: Vec<(u32, TexTarget, usize)>,
    /// Byte offsets of the names declared by ADDRESS statements.
    pub address_decls: Vec<usize>,
    /// Options with the byte offsets of their names.
    pub options: Vec<(String, usize)>,
}

/// Options of fragment programs only (ARB_fragment_program §3.11.4.5, NV_fragment_program4
/// §2.X.6.Y, NV_fragment_program_option, NV_fragment_program2, ARB_draw_buffers,
/// ARB_fragment_coord_conventions, NV_fragment_shader_interlock).
const FRAGMENT_OPTIONS: &[&str] = &[
    "ARB_fog_exp",
    "ARB_fog_exp2",
    "ARB_fog_linear",
    "ARB_precision_hint_fastest",
    "ARB_precision_hint_nicest",
    "ARB_draw_buffers",
    "ATI_draw_buffers",
    "ARB_fragment_coord_origin_upper_left",
    "ARB_fragment_coord_pixel_center_integer",
    "NV_fragment_program",
    "NV_fragment_program2",
    "NV_early_fragment_tests",
    "NV_sample_interlock_ordered",
    "NV_sample_interlock_unordered",
    "NV_pixel_interlock_ordered",
    "NV_pixel_interlock_unordered",
];

/// Options of vertex programs only (ARB_vertex_program §2.14.4.5.1, NV_vertex_program2 /
/// NV_vertex_program3 option sections).
const VERTEX_OPTIONS: &[&str] = &[
    "ARB_position_invariant",
    "NV_vertex_program1_1",
    "NV_vertex_program2",
    "NV_vertex_program3",
];

/// Groups of options of which a program may name at most one.
const EXCLUSIVE: &[(&[&str], &str)] = &[
    (
        &["ARB_fog_exp", "ARB_fog_exp2", "ARB_fog_linear"],
        "only one fog option may be specified (ARB_fragment_program §3.11.4.5.1)",
    ),
    (
        &["ARB_precision_hint_fastest", "ARB_precision_hint_nicest"],
        "only one precision hint may be specified (ARB_fragment_program §3.11.4.5.2)",
    ),
];

/// Conventional vertex attributes and the generic attribute each aliases
/// (ARB_vertex_program Table X.2.1); texcoord[n] aliases attrib[8 + n].
fn aliased_generic(b: &Binding) -> Option<u32> {
    let s = b.segments.get(1)?;
    let first = || match s.index.first() {
        None => Some(0),
        Some(Index::Abs(n)) => Some(*n),
        _ => None,
    };
    match s.name.as_str() {
        "position" => Some(0),
        "weight" if first()? == 0 => Some(1),
        "normal" => Some(2),
        "color" => match b.segments.get(2).map(|s| s.name.as_str()) {
            Some("secondary") => Some(4),
            _ => Some(3),
        },
        "fogcoord" => Some(5),
        "texcoord" => first().map(|n| n.saturating_add(8)),
        _ => None,
    }
}

impl<'a> Parser<'a> {
    /// Option rules checked when `OPTION name;` is read (`previous`: the options before it;
    /// `off`: the byte offset of the name).
    pub(crate) fn check_option(&self, name: &str, previous: &[String], off: usize) -> PResult<()> {
        // ARB_vertex_program §2.14.4.5 / ARB_fragment_program §3.11.4.5: "A program will
        // fail to load if it specifies a program option not supported by the GL": the
        // options of the other program type are not options of this one.
        let stage = self.stage();
        let wrong_stage = (FRAGMENT_OPTIONS.contains(&name) && stage != NvStage::Fragment)
            || (VERTEX_OPTIONS.contains(&name) && stage != NvStage::Vertex);
        if wrong_stage {
            return self.err_at(
                off,
                format!(
                    "option `{name}` is not an option of {} programs",
                    self.header.text()
                ),
            );
        }
        for (group, why) in EXCLUSIVE {
            if group.contains(&name) {
                if let Some(other) = previous
                    .iter()
                    .find(|p| p.as_str() != name && group.contains(&p.as_str()))
                {
                    return self.err_at(
                        off,
                        format!("options `{other}` and `{name}` cannot be combined: {why}"),
                    );
                }
            }
        }
        Ok(())
    }

    /// The rules that need the whole program (module docs).
    pub(crate) fn whole_program_rules(&self, prog: &NvProgram) -> PResult<()> {
        self.draw_buffer_rule(prog)?;
        self.position_invariant_rule(prog)?;
        self.alias_rule()?;
        self.relative_array_rule()?;
        self.texture_target_rule()?;
        self.count_limits()
    }

    /// NV_fragment_program4 §2.X.3.5: "If the ARB_draw_buffers program option is not
    /// specified, the "result.color[n]" binding is unavailable"; §2.X.6.Y "Multiple Color
    /// Outputs": a program "that attempts to bind "result.color[n]" will fail to load"
    /// without the ARB_draw_buffers or ATI_draw_buffers option.
    fn draw_buffer_rule(&self, prog: &NvProgram) -> PResult<()> {
        if self.stage() != NvStage::Fragment
            || prog.has_option("ARB_draw_buffers")
            || prog.has_option("ATI_draw_buffers")
        {
            return Ok(());
        }
        for (b, _, off) in &self.seen.bindings {
            let indexed = b.root() == "result"
                && b.segments
                    .get(1)
                    .is_some_and(|s| s.name == "color" && !s.index.is_empty());
            if indexed {
                return self.err_at(
                    *off,
                    "`result.color[n]` requires `OPTION ARB_draw_buffers;` \
                     (NV_fragment_program4 §2.X.3.5: without it the binding is unavailable)",
                );
            }
        }
        Ok(())
    }

    /// ARB_vertex_program §2.14.4.5.1: under ARB_position_invariant "the <resultBinding>
    /// rule is modified to remove "result.position"".
    fn position_invariant_rule(&self, prog: &NvProgram) -> PResult<()> {
        if self.stage() != NvStage::Vertex || !prog.has_option("ARB_position_invariant") {
            return Ok(());
        }
        for (b, class, off) in &self.seen.bindings {
            if *class == BindClass::Result && b.path() == "result.position" {
                return self.err_at(
                    *off,
                    "`result.position` cannot be written by a program with \
                     `OPTION ARB_position_invariant;` (ARB_vertex_program §2.14.4.5.1)",
                );
            }
        }
        Ok(())
    }

    /// ARB_vertex_program §2.14.3.1: "a vertex program will fail to load if it binds both a
    /// conventional vertex attribute and a generic vertex attribute listed in the same row
    /// of Table X.2.1". NV_vertex_program4 programs are not bound by it (generic and
    /// conventional attributes are separate there).
    fn alias_rule(&self) -> PResult<()> {
        if !(self.arb() && self.stage() == NvStage::Vertex) {
            return Ok(());
        }
        let mut conventional: HashMap<u32, String> = HashMap::new();
        let mut generic: HashMap<u32, usize> = HashMap::new();
        for (b, _, off) in &self.seen.bindings {
            if b.root() != "vertex" {
                continue;
            }
            match b.segments.get(1) {
                Some(s) if s.name == "attrib" => {
                    if let Some(Index::Abs(n)) = s.index.first() {
                        generic.entry(*n).or_insert(*off);
                    }
                }
                _ => {
                    if let Some(n) = aliased_generic(b) {
                        conventional.entry(n).or_insert_with(|| b.path());
                    }
                }
            }
        }
        let mut clashes: Vec<(usize, u32)> = generic
            .iter()
            .filter(|(n, _)| conventional.contains_key(n))
            .map(|(&n, &off)| (off, n))
            .collect();
        clashes.sort();
        match clashes.first() {
            Some(&(off, n)) => self.err_at(
                off,
                format!(
                    "`vertex.attrib[{n}]` aliases `{}`, which the program also binds \
                     (ARB_vertex_program §2.14.3.1, Table X.2.1)",
                    conventional[&n]
                ),
            ),
            None => Ok(()),
        }
    }

    /// ARB_vertex_program §2.14.3.4: "A vertex program will fail to load if any GL state
    /// vector is bound multiple times in a single array accessed using relative addressing
    /// or bound once in two or more arrays accessed using relative addressing". GL state
    /// vectors are the `state.*` bindings (program environment and local parameters are
    /// program parameters, not GL state); a matrix binds one vector per row.
    fn relative_array_rule(&self) -> PResult<()> {
        let mut owner: HashMap<String, &str> = HashMap::new();
        for (name, off, items) in &self.seen.param_arrays {
            if !self.seen.rel_arrays.contains(name) {
                continue;
            }
            for b in items.iter().filter(|b| b.root() == "state") {
                for v in state_vectors(b) {
                    if let Some(first) = owner.insert(v.clone(), name) {
                        let where_ = if first == name {
                            format!("twice in `{name}`")
                        } else {
                            format!("in both `{first}` and `{name}`")
                        };
                        return self.err_at(
                            *off,
                            format!(
                                "state vector `{v}` is bound {where_}, an array accessed with \
                                 relative addressing (ARB_vertex_program §2.14.3.4)"
                            ),
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// ARB_fragment_program §3.11.6: "A fragment program will fail to load if it attempts
    /// to sample from multiple texture targets on the same texture image unit";
    /// NV_gpu_program4 §2.X.4.4 says the same of every program type.
    fn texture_target_rule(&self) -> PResult<()> {
        let mut first: HashMap<u32, TexTarget> = HashMap::new();
        for &(unit, target, off) in &self.seen.tex_uses {
            match first.get(&unit) {
                Some(&t) if t != target => {
                    return self.err_at(
                        off,
                        format!(
                            "texture[{unit}] is used with targets {} and {} (one target per \
                             texture unit: ARB_fragment_program §3.11.6, NV_gpu_program4 \
                             §2.X.4.4)",
                            t.name(),
                            target.name()
                        ),
                    )
                }
                Some(_) => {}
                None => {
                    first.insert(unit, target);
                }
            }
        }
        Ok(())
    }

    /// Count limits: address registers of ARB vertex programs (ARB_vertex_program
    /// §2.14.3.7, MAX_PROGRAM_ADDRESS_REGISTERS_ARB) and distinct texture units of vertex
    /// programs (NV_vertex_program3 §2.14.3.7, MAX_VERTEX_TEXTURE_IMAGE_UNITS_ARB).
    fn count_limits(&self) -> PResult<()> {
        let l = self.limits;
        if let Some(&off) = self.seen.address_decls.get(l.address_regs as usize) {
            return self.err_at(
                off,
                format!(
                    "more than {} address register(s) (MAX_PROGRAM_ADDRESS_REGISTERS_ARB, \
                     ARB_vertex_program §2.14.3.7)",
                    l.address_regs
                ),
            );
        }
        if self.arb() && self.stage() == NvStage::Vertex {
            let mut units: Vec<u32> = Vec::new();
            for &(unit, _, off) in &self.seen.tex_uses {
                if !units.contains(&unit) {
                    units.push(unit);
                }
                if units.len() > l.vertex_texture_units as usize {
                    return self.err_at(
                        off,
                        format!(
                            "more than {} distinct texture unit(s) in a vertex program \
                             (MAX_VERTEX_TEXTURE_IMAGE_UNITS_ARB, NV_vertex_program3 §2.14.3.7)",
                            l.vertex_texture_units
                        ),
                    );
                }
            }
            // NV_vertex_program3 "Dependencies on ARB_fragment_program_shadow": the option is
            // a vertex program option only together with NV_vertex_program3.
            let shadow = self
                .seen
                .options
                .iter()
                .find(|(o, _)| o == "ARB_fragment_program_shadow");
            if let (Some((_, off)), false) = (shadow, self.feat.vp3) {
                return self.err_at(
                    *off,
                    "option `ARB_fragment_program_shadow` needs `OPTION NV_vertex_program3;` \
                     in vertex programs (NV_vertex_program3, Dependencies on \
                     ARB_fragment_program_shadow)",
                );
            }
        }
        Ok(())
    }
}

/// The state vectors a `state.*` binding names, as text: one per matrix row, one for any
/// other state item.
fn state_vectors(b: &Binding) -> Vec<String> {
    let is_matrix = b.segments.get(1).is_some_and(|s| s.name == "matrix");
    let text = |segs: &[Segment]| -> String {
        segs.iter()
            .map(|s| {
                let ix: String = s
                    .index
                    .iter()
                    .map(|i| match i {
                        Index::Abs(n) => format!("[{n}]"),
                        Index::Range(a, z) => format!("[{a}..{z}]"),
                        Index::Rel(_) => "[rel]".into(),
                    })
                    .collect();
                format!("{}{ix}", s.name)
            })
            .collect::<Vec<_>>()
            .join(".")
    };
    if !is_matrix {
        return vec![text(&b.segments)];
    }
    let (base, rows) = match b.segments.last() {
        Some(s) if s.name == "row" => {
            let rows = match s.index.first() {
                Some(Index::Abs(n)) => *n..=*n,
                Some(Index::Range(a, z)) => *a..=*z,
                _ => 0..=3,
            };
            (&b.segments[..b.segments.len().saturating_sub(1)], rows)
        }
        _ => (&b.segments[..], 0..=3),
    };
    let base = text(base);
    rows.map(|r| format!("{base}.row[{r}]")).collect()
}
