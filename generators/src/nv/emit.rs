//! The NV program text builder: every decision drawn from a [`Choices`] stream, every
//! construct one the parser accepts and the lowering supports (module docs of
//! [`crate::nv`]).

use std::fmt::Write as _;

use crate::choices::Choices;
use crate::nv::features::{NvFeatures, Resources};

mod branch;
mod extra;
mod stage;
mod wide;

use stage::Extra;

/// Largest literal `REP` count: loops always terminate after at most this many iterations
/// per entry.
pub const MAX_REP: u32 = 4;

/// The header (stage and language level) of a generated program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NvKind {
    /// `!!NVfp5.0`.
    NvFragment,
    /// `!!NVvp5.0`.
    NvVertex,
    /// `!!ARBfp1.0`.
    ArbFragment,
    /// `!!ARBvp1.0`.
    ArbVertex,
    /// `!!NVgp5.0` (`emit/stage.rs`).
    NvGeometry,
    /// `!!NVcp5.0` (`emit/stage.rs`).
    NvCompute,
}

impl NvKind {
    /// The header line.
    pub fn header(self) -> &'static str {
        match self {
            NvKind::NvFragment => "!!NVfp5.0",
            NvKind::NvVertex => "!!NVvp5.0",
            NvKind::ArbFragment => "!!ARBfp1.0",
            NvKind::ArbVertex => "!!ARBvp1.0",
            NvKind::NvGeometry => "!!NVgp5.0",
            NvKind::NvCompute => "!!NVcp5.0",
        }
    }

    /// File extension (`nvfp`, `nvvp`, `arbfp`, `arbvp`, `nvgp`, `nvcp`), one `diff` takes
    /// from a directory.
    pub fn extension(self) -> &'static str {
        match self {
            NvKind::NvFragment => "nvfp",
            NvKind::NvVertex => "nvvp",
            NvKind::ArbFragment => "arbfp",
            NvKind::ArbVertex => "arbvp",
            NvKind::NvGeometry => "nvgp",
            NvKind::NvCompute => "nvcp",
        }
    }

    fn is_nv(self) -> bool {
        matches!(
            self,
            NvKind::NvFragment | NvKind::NvVertex | NvKind::NvGeometry | NvKind::NvCompute
        )
    }

    fn is_fragment(self) -> bool {
        matches!(self, NvKind::NvFragment | NvKind::ArbFragment)
    }
}

/// Operand type of an instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    F,
    S,
    U,
}

impl Ty {
    fn suffix(self) -> &'static str {
        match self {
            Ty::F => ".F",
            Ty::S => ".S",
            Ty::U => ".U",
        }
    }
}

/// Float operations: name and number of vector sources.
const FLOAT_OPS: &[(&str, usize)] = &[
    ("MOV", 1),
    ("ADD", 2),
    ("SUB", 2),
    ("MUL", 2),
    ("MAD", 3),
    ("MIN", 2),
    ("MAX", 2),
    ("ABS", 1),
    ("FLR", 1),
    ("FRC", 1),
    ("SLT", 2),
    ("SGE", 2),
    ("DP3", 2),
    ("DP4", 2),
];
/// Float operations of NV programs only.
const NV_FLOAT_OPS: &[(&str, usize)] = &[
    ("CEIL", 1),
    ("TRUNC", 1),
    ("SEQ", 2),
    ("SNE", 2),
    ("SGT", 2),
    ("SLE", 2),
    ("CMP", 3),
    ("SSG", 1),
    ("RCP", 1),
    ("EX2", 1),
    ("LG2", 1),
    ("LRP", 3),
];
/// More ARB operations, drawn only in ARB-only mode ([`build_arb_text`]) so that the
/// streams of [`build_text`] are unchanged: name, vector sources, scalar sources, and the
/// stages that have it (`f` fragment, `v` vertex; ARB_fragment_program §3.11.5 and
/// ARB_vertex_program §2.14.5 instruction tables).
const ARB_EXTRA_OPS: &[(&str, usize, usize, &str)] = &[
    ("SUB", 2, 0, "fv"),
    ("DPH", 2, 0, "fv"),
    ("DST", 2, 0, "fv"),
    ("LIT", 1, 0, "fv"),
    ("XPD", 2, 0, "fv"),
    ("RCP", 0, 1, "fv"),
    ("RSQ", 0, 1, "fv"),
    ("EX2", 0, 1, "fv"),
    ("LG2", 0, 1, "fv"),
    ("POW", 0, 2, "fv"),
    ("SWZ", 1, 0, "fv"),
    ("CMP", 3, 0, "f"),
    ("LRP", 3, 0, "f"),
    ("SIN", 0, 1, "f"),
    ("COS", 0, 1, "f"),
    ("SCS", 0, 1, "f"),
    ("EXP", 0, 1, "v"),
    ("LOG", 0, 1, "v"),
];
/// Integer operations (`.S` and `.U`).
const INT_OPS: &[(&str, usize)] = &[
    ("MOV", 1),
    ("ADD", 2),
    ("SUB", 2),
    ("MUL", 2),
    ("MIN", 2),
    ("MAX", 2),
    ("AND", 2),
    ("OR", 2),
    ("XOR", 2),
    ("NOT", 1),
    ("MAD", 3),
    ("SHL", 2),
    ("SHR", 2),
    ("SEQ", 2),
    ("SNE", 2),
    ("SLT", 2),
    ("SGE", 2),
    ("SGT", 2),
    ("SLE", 2),
];
const CONDITIONS: &[&str] = &["EQ", "NE", "LT", "LE", "GT", "GE", "TR", "FL"];
const COMPS: &[char] = &['x', 'y', 'z', 'w'];

/// `-|base|`, `|base|`, `-base` or `base` (§2.X.4.2 operand modifiers).
fn operand_text(base: &str, abs: bool, neg: bool) -> String {
    match (abs, neg) {
        (true, true) => format!("-|{base}|"),
        (true, false) => format!("|{base}|"),
        (false, true) => format!("-{base}"),
        (false, false) => base.to_string(),
    }
}

struct Gen<'c, 'a> {
    c: &'c mut Choices<'a>,
    kind: NvKind,
    out: String,
    /// Readable names (temps, params, attributes).
    sources: Vec<String>,
    /// Readable names that hold float constants (only float operations may read them).
    float_sources: Vec<String>,
    /// Writable names (temps, outputs).
    temps: Vec<String>,
    outputs: Vec<String>,
    budget: usize,
    depth: usize,
    loops: usize,
    /// ARB-only mode: draw [`ARB_EXTRA_OPS`] too.
    arb_extra: bool,
    /// Also 64-bit statements (`emit/wide.rs`).
    wide: bool,
    /// The program's features and their state (`emit/stage.rs`).
    x: Extra,
    /// Geometry programs: vertices of the input primitive.
    vertices_in: u32,
}

/// A built program: its kind, text and the resources its inputs must provide.
#[derive(Clone, Debug)]
pub struct Built {
    /// Which header the program has.
    pub kind: NvKind,
    /// The program text.
    pub text: String,
    /// Global region, buffers and textures the inputs must give (`nv/features.rs`).
    pub resources: Resources,
}

/// Builds the text of one program from `c`, with about `max_instructions` instructions;
/// returns its kind and text.
pub fn build_text(c: &mut Choices, max_instructions: usize) -> (NvKind, String) {
    build_text_with(c, max_instructions, false)
}

/// [`build_text`], with 64-bit statements in the NV programs when `wide` (`fuzz --lang nv
/// --64bit`; `emit/wide.rs`). Without `wide` the stream of choices, and so every program,
/// is [`build_text`]'s.
pub fn build_text_with(c: &mut Choices, max_instructions: usize, wide: bool) -> (NvKind, String) {
    let b = build_program(c, max_instructions, wide, &NvFeatures::NONE);
    (b.kind, b.text)
}

/// [`build_text_with`] with the features `f` (`nv/features.rs`): geometry and compute
/// programs, memory, textures, votes and BRA at the knobs' rates. With
/// [`NvFeatures::NONE`] it draws exactly what [`build_text_with`] draws.
pub fn build_program(
    c: &mut Choices,
    max_instructions: usize,
    wide: bool,
    f: &NvFeatures,
) -> Built {
    let stage = if f.geometry + f.compute > 0 {
        c.below(100) as u32
    } else {
        u32::MAX
    };
    let kind = if stage < f.geometry {
        NvKind::NvGeometry
    } else if stage < f.geometry + f.compute {
        NvKind::NvCompute
    } else {
        match c.below(4) {
            0 => NvKind::NvFragment,
            1 => NvKind::NvVertex,
            2 => NvKind::ArbFragment,
            _ => NvKind::ArbVertex,
        }
    };
    let wide = wide && kind.is_nv();
    let x = Extra::draw(c, kind, f);
    build(c, kind, max_instructions, false, wide, x)
}

/// Builds one `!!ARBfp1.0` or `!!ARBvp1.0` program (ARB-only mode, `--arb-only`): the
/// ARB subset of [`build_text`] plus every other ARB ALU instruction ([`ARB_EXTRA_OPS`]:
/// SUB DPH DST LIT XPD RCP RSQ EX2 LG2 POW SWZ, fragment CMP LRP SIN COS SCS, vertex EXP
/// LOG), as Mesa's ARB assemblers accept them.
pub fn build_arb_text(c: &mut Choices, max_instructions: usize) -> (NvKind, String) {
    let kind = if c.chance(50) {
        NvKind::ArbFragment
    } else {
        NvKind::ArbVertex
    };
    let b = build(c, kind, max_instructions, true, false, Extra::default());
    (b.kind, b.text)
}

fn build(
    c: &mut Choices,
    kind: NvKind,
    max_instructions: usize,
    arb_extra: bool,
    wide: bool,
    x: Extra,
) -> Built {
    let mut g = Gen {
        c,
        kind,
        out: String::new(),
        sources: Vec::new(),
        float_sources: Vec::new(),
        temps: Vec::new(),
        outputs: Vec::new(),
        budget: max_instructions.max(1),
        depth: 0,
        loops: 0,
        arb_extra,
        wide,
        x,
        vertices_in: 0,
    };
    g.declarations();
    g.stage_prologue();
    let n = g.c.range(1, g.budget);
    for _ in 0..n {
        if g.budget == 0 {
            break;
        }
        g.statement();
    }
    g.epilogue();
    g.out.push_str("END\n");
    Built {
        kind,
        text: g.out,
        resources: g.x.res,
    }
}

impl Gen<'_, '_> {
    fn line(&mut self, s: &str) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push_str(";\n");
    }

    fn declarations(&mut self) {
        let _ = writeln!(self.out, "{}", self.kind.header());
        self.stage_declarations();
        let locals = self.c.range(1, 3);
        for i in 0..locals {
            self.line(&format!("PARAM p{i} = program.local[{i}]"));
            self.sources.push(format!("p{i}"));
        }
        if self.c.chance(60) {
            let v = self.float_vec();
            self.line(&format!("PARAM k0 = {v}"));
            self.float_sources.push("k0".into());
        }
        // Compute programs have no attributes (`invocation.*` sources instead).
        let attribs = if self.kind == NvKind::NvCompute {
            0
        } else {
            self.c.range(1, 3)
        };
        for i in 0..attribs {
            let b = self.attribute_binding(i);
            self.line(&format!("ATTRIB a{i} = {b}"));
            self.sources.push(format!("a{i}"));
        }
        let temps = self.c.range(2, 4);
        let names: Vec<String> = (0..temps).map(|i| format!("t{i}")).collect();
        self.line(&format!("TEMP {}", names.join(", ")));
        if self.arb_extra {
            // ARB temporaries start undefined (ARB_vertex_program issue 16, Table X.?
            // "undefined temporary registers"; ARB_fragment_program §3.11.3.3): ARB-only
            // programs define them before any read (the NV streams are unchanged).
            for t in &names {
                self.line(&format!("MOV {t}, 0"));
            }
        }
        self.temps = names;
        self.sources.extend(self.temps.clone());
        self.extra_declarations();
        if self.kind == NvKind::NvCompute {
            self.compute_declarations();
        }
        if self.wide {
            self.wide_declarations();
        }
        match self.kind {
            NvKind::NvFragment | NvKind::ArbFragment => self.outputs.push("result.color".into()),
            NvKind::NvCompute => {}
            NvKind::NvVertex | NvKind::NvGeometry => {
                let n = self.c.range(1, 3);
                for i in 0..n {
                    self.line(&format!("OUTPUT o{i} = result.attrib[{i}]"));
                    self.outputs.push(format!("o{i}"));
                }
            }
            NvKind::ArbVertex => {
                self.outputs.push("result.position".into());
                let n = self.c.range(0, 2);
                for i in 0..n {
                    self.outputs.push(format!("result.texcoord[{i}]"));
                }
            }
        }
    }

    /// A float scalar literal: small integers, halves and a few special magnitudes.
    fn float_lit(&mut self) -> String {
        match self.c.below(6) {
            0 => "0".into(),
            1 => "1".into(),
            2 => "0.5".into(),
            3 => format!("{}", self.c.range(2, 100)),
            4 => format!("{}.25", self.c.range(0, 9)),
            _ => "1e+30".into(),
        }
    }

    fn float_vec(&mut self) -> String {
        let v: Vec<String> = (0..4)
            .map(|_| {
                let neg = if self.c.chance(30) { "-" } else { "" };
                format!("{neg}{}", self.float_lit())
            })
            .collect();
        format!("{{{}}}", v.join(", "))
    }

    fn int_lit(&mut self) -> String {
        match self.c.below(4) {
            0 => "0".into(),
            1 => "1".into(),
            2 => format!("{}", self.c.range(2, 40)),
            _ => format!("{}", self.c.raw() & 0x7fff_ffff),
        }
    }

    fn swizzle(&mut self) -> String {
        match self.c.below(4) {
            0 | 1 => String::new(),
            2 => format!(".{}", self.c.pick(COMPS)),
            _ => {
                let s: String = (0..4).map(|_| self.c.pick(COMPS)).collect();
                format!(".{s}")
            }
        }
    }

    /// A source operand of type `ty`; `allow_neg` is false where negation is refused.
    fn src(&mut self, ty: Ty, allow_neg: bool) -> String {
        if self.c.chance(15) {
            let lit = if ty == Ty::F {
                self.float_lit()
            } else {
                self.int_lit()
            };
            return lit;
        }
        let mut names = self.sources.clone();
        if ty == Ty::F {
            names.extend(self.float_sources.iter().cloned());
        }
        let name = names[self.c.below(names.len())].clone();
        let swz = self.swizzle();
        let neg = allow_neg && self.c.chance(20);
        let abs = self.kind.is_nv() && self.c.chance(15);
        operand_text(&format!("{name}{swz}"), abs, neg)
    }

    /// A float scalar operand: a name with a one-component swizzle, or a literal.
    fn scalar_src(&mut self, allow_neg: bool) -> String {
        // Mesa's ARB assemblers want a scalar suffix after every scalar operand, literal
        // ones included (`<scalarSrcReg>`), so ARB programs (which draw scalar operands
        // only in ARB-only mode) get named operands; the NV streams are unchanged.
        if self.kind.is_nv() && self.c.chance(15) {
            return self.float_lit();
        }
        let mut names = self.sources.clone();
        names.extend(self.float_sources.iter().cloned());
        let name = names[self.c.below(names.len())].clone();
        let comp = self.c.pick(COMPS);
        let neg = if allow_neg && self.c.chance(20) {
            "-"
        } else {
            ""
        };
        // `|..|` needs an NV option in ARB programs (only ARB-only mode draws scalar
        // operands in ARB programs, so the NV streams are unchanged).
        if self.kind.is_nv() && self.c.chance(15) {
            format!("{neg}|{name}.{comp}|")
        } else {
            format!("{neg}{name}.{comp}")
        }
    }

    fn write_mask(&mut self) -> String {
        if self.c.chance(50) {
            return String::new();
        }
        let m: String = COMPS.iter().filter(|_| self.c.chance(50)).collect();
        if m.is_empty() {
            format!(".{}", self.c.pick(COMPS))
        } else {
            format!(".{m}")
        }
    }

    /// A condition test: `GT`, `NE1.x`, `LE0.wzyx` ...
    fn condition(&mut self) -> String {
        let cond = self.c.pick(CONDITIONS);
        let reg = ["", "0", "1"][self.c.below(3)];
        let swz = self.swizzle();
        format!("{cond}{reg}{swz}")
    }

    fn dst(&mut self) -> String {
        let name = if self.c.chance(25) {
            self.outputs[self.c.below(self.outputs.len())].clone()
        } else {
            self.temps[self.c.below(self.temps.len())].clone()
        };
        let mask = self.write_mask();
        let cond = if self.kind.is_nv() && self.c.chance(20) {
            format!(" ({})", self.condition())
        } else {
            String::new()
        };
        format!("{name}{mask}{cond}")
    }

    /// One of [`ARB_EXTRA_OPS`] for this stage, with `_SAT` sometimes in fragment programs.
    fn arb_extra(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let stage = if self.kind.is_fragment() { 'f' } else { 'v' };
        let ops: Vec<_> = ARB_EXTRA_OPS
            .iter()
            .filter(|o| o.3.contains(stage))
            .copied()
            .collect();
        let (op, n, scalars, _) = ops[self.c.below(ops.len())];
        let sat = if self.kind.is_fragment() && self.c.chance(15) {
            "_SAT"
        } else {
            ""
        };
        let mut dst = self.dst();
        if op == "SCS" {
            // ARB_fragment_program §3.11.5.24: SCS writes only x and y; a mask with z or w
            // fails to load.
            let t = self.temps[self.c.below(self.temps.len())].clone();
            dst = format!("{t}.{}", ["x", "y", "xy"][self.c.below(3)]);
        }
        if op == "XPD" {
            // §3.11.5.27: XPD's w is undefined and the lowering writes x, y, z only: keep
            // the mask within xyz (a lone .w would write nothing).
            let base = match dst.rsplit_once('.') {
                Some((b, m)) if !m.is_empty() && m.chars().all(|ch| "xyzw".contains(ch)) => b,
                _ => dst.as_str(),
            };
            dst = format!("{base}.xyz");
        }
        let mut srcs: Vec<String> = (0..n).map(|_| self.src(Ty::F, true)).collect();
        srcs.extend((0..scalars).map(|_| self.scalar_src(true)));
        if op == "SWZ" {
            // §3.11.5.25: a variable without swizzle, then four selectors with optional '-'.
            let name = srcs[0]
                .trim_start_matches('-')
                .split('.')
                .next()
                .unwrap_or("0")
                .to_string();
            let name = if name
                .chars()
                .next()
                .is_some_and(|ch| ch.is_ascii_alphabetic())
            {
                name
            } else {
                self.sources[0].clone()
            };
            let sel: Vec<String> = (0..4)
                .map(|_| {
                    let neg = if self.c.chance(25) { "-" } else { "" };
                    format!("{neg}{}", ["x", "y", "z", "w", "0", "1"][self.c.below(6)])
                })
                .collect();
            srcs = vec![name];
            srcs.extend(sel);
        }
        self.line(&format!("{op}{sat} {dst}, {}", srcs.join(", ")));
    }

    fn alu(&mut self) {
        if self.arb_extra && self.c.chance(40) {
            return self.arb_extra();
        }
        self.budget = self.budget.saturating_sub(1);
        let nv = self.kind.is_nv();
        let ty = if nv {
            [Ty::F, Ty::F, Ty::S, Ty::U][self.c.below(4)]
        } else {
            Ty::F
        };
        let (op, n) = match ty {
            Ty::F if nv && self.c.chance(30) => self.c.pick(NV_FLOAT_OPS),
            Ty::F => self.c.pick(FLOAT_OPS),
            _ => self.c.pick(INT_OPS),
        };
        let mut mods = String::new();
        if nv {
            mods.push_str(ty.suffix());
        }
        if ty == Ty::F && (nv || self.kind.is_fragment()) && self.c.chance(15) {
            // ARB_fragment_program spells saturation as an opcode suffix; ARB vertex
            // programs have none.
            mods.push_str(if !nv {
                "_SAT"
            } else if self.c.chance(50) {
                ".SSAT"
            } else {
                ".SAT"
            });
        }
        let cc = nv && self.c.chance(30);
        if cc {
            mods.push_str([".CC", ".CC0", ".CC1"][self.c.below(3)]);
        }
        // The lowering refuses the carry/overflow flags of integer ADD/SUB with a negated
        // operand; leave negation out of integer CC updates.
        let allow_neg = !(cc && ty != Ty::F);
        let dst = self.dst();
        let mut srcs: Vec<String> = (0..n).map(|_| self.src(ty, allow_neg)).collect();
        if matches!(op, "RCP" | "EX2" | "LG2") {
            // Scalar operations take a scalar operand (`.x`).
            srcs[0] = self.scalar_src(allow_neg);
        }
        if matches!(op, "SHL" | "SHR") {
            // Shift counts stay in 0..=31, where every type's result is defined.
            srcs[1] = format!("{}", self.c.below(32));
        }
        self.line(&format!("{op}{mods} {dst}, {}", srcs.join(", ")));
    }

    fn statement(&mut self) {
        let nv = self.kind.is_nv();
        let k = self.c.below(20);
        match k {
            0 if nv && self.depth < 3 => self.rep(),
            1 if nv && self.depth < 3 => self.if_block(),
            2 if nv && self.loops > 0 => {
                self.budget = self.budget.saturating_sub(1);
                let op = if self.c.chance(50) { "BRK" } else { "CONT" };
                if self.c.chance(70) {
                    let cond = self.condition();
                    self.line(&format!("{op} ({cond})"));
                } else {
                    self.line(op);
                }
            }
            3 if self.kind.is_fragment() => {
                self.budget = self.budget.saturating_sub(1);
                if nv && self.c.chance(50) {
                    let cond = self.condition();
                    self.line(&format!("KIL ({cond})"));
                } else {
                    let s = self.src(Ty::F, true);
                    self.line(&format!("KIL {s}"));
                }
            }
            4..=6 if self.wide => self.wide_op(),
            7..=9 if self.x.any(self.kind) => self.extra_statement(),
            _ => self.alu(),
        }
    }

    fn block(&mut self) {
        self.depth += 1;
        let n = self.c.range(1, 4);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.statement();
        }
        self.depth -= 1;
    }

    fn rep(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let count = self.c.below(MAX_REP as usize + 1);
        self.line(&format!("REP.S {count}"));
        self.loops += 1;
        self.block();
        self.loops -= 1;
        self.line("ENDREP");
    }

    fn if_block(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let cond = self.condition();
        self.line(&format!("IF {cond}"));
        self.block();
        if self.c.chance(40) {
            self.line("ELSE");
            self.block();
        }
        self.line("ENDIF");
    }

    /// Writes every output from a temp or a source, so no result is left unset.
    fn epilogue(&mut self) {
        let nv = self.kind.is_nv();
        for o in self.outputs.clone() {
            let ty = if nv {
                [Ty::F, Ty::S, Ty::U][self.c.below(3)]
            } else {
                Ty::F
            };
            let s = self.src(ty, true);
            let suffix = if nv { ty.suffix() } else { "" };
            self.line(&format!("MOV{suffix} {o}, {s}"));
        }
        if self.wide {
            self.wide_epilogue();
        }
        self.stage_epilogue();
    }
}
