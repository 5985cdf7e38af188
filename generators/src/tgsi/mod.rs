//! Valid-by-construction TGSI programs built from a [`Choices`] stream.
//!
//! Programs declare every register they use, have operand counts from opcodes.csv,
//! non-empty writemasks, properly nested IF/UIF/ELSE, loops, SWITCH (DEFAULT in any
//! position) and subroutines called by CAL (tgsi.rst "Control flow"). Loops are bounded:
//! each carries a counter register that no other instruction writes and a BRK once the
//! counter reaches a small limit; the main program and every subroutine have their own
//! counters, so a call inside a loop cannot reset the caller's counter. Indirect
//! addressing goes through `ADDR[0].x`, which is only ever loaded from `IMM[0]`
//! (values 0..=3), into a 4-register TEMP `ARRAY(1)`, and as `CONST[ADDR[0].x]` sources and
//! `OUT[ADDR[0].x]` destinations (such programs declare at least 4 constants and outputs),
//! so it always stays in bounds. Inter-lane votes (VOTE_ANY, VOTE_ALL, VOTE_EQ,
//! READ_FIRST) read uniform sources in defined-only mode. Every output is written at the
//! end; the first one reads, half the time, the TEMP the main program's latest arithmetic
//! instruction wrote, so the last computed value is observed more often.
//!
//! Two options change what is built:
//!
//! * **Swarm testing** ([`GenConfig::swarm`]): each program first draws a random subset of
//!   the configured [`Features`] and opcodes, so that features do not crowd each other out
//!   (Groce et al., "Swarm Testing", ISSTA 2012). The draw is recorded in [`Swarm`].
//! * **Defined-only mode** ([`GenConfig::defined_only`]): like Csmith, no instruction can
//!   have a result the specification leaves undefined for *any* input values, so the
//!   oracle reports no undefined channel. Operands of the opcodes the oracle can mark
//!   undefined are first passed through *guards* (see [`guard`]); coarse derivatives,
//!   PK2US/PK4B/PK4UB (round-half ties) and derivatives in non-uniform control flow are
//!   not generated.

mod builder;
pub mod guard;
pub mod memory;

use shaderdiff_model::*;

use crate::choices::Choices;

pub use builder::{FLOAT_IMM, GUARD_FLOAT_IMM, GUARD_INT_IMM, INT_IMM};

/// Optional program features. In a [`GenConfig`] they say which features may be used;
/// in a [`Swarm`] which ones a program actually drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Indirect addressing `TEMP[ADDR[0].x+n]`, `CONST[ADDR[0].x]` and `OUT[ADDR[0].x]`
    /// (and the UARL that sets ADDR).
    pub indirect: bool,
    /// IF/UIF/ELSE blocks.
    pub ifs: bool,
    /// BGNLOOP/ENDLOOP with bounded trip counts, BRK and CONT.
    pub loops: bool,
    /// SWITCH/CASE/DEFAULT.
    pub switch: bool,
    /// Subroutines (BGNSUB/ENDSUB) called by CAL, with RET.
    pub subroutines: bool,
    /// Source modifiers `|x|` and `-x`.
    pub modifiers: bool,
    /// `_SAT` on results.
    pub saturate: bool,
    /// Non-identity swizzles and partial writemasks.
    pub swizzles: bool,
    /// KILL, KILL_IF and DEMOTE (fragment programs only).
    pub kill: bool,
    /// DDX/DDY and their fine forms (fragment programs only).
    pub derivatives: bool,
}

impl Features {
    /// Every feature enabled.
    pub const ALL: Features = Features {
        indirect: true,
        ifs: true,
        loops: true,
        switch: true,
        subroutines: true,
        modifiers: true,
        saturate: true,
        swizzles: true,
        kill: true,
        derivatives: true,
    };

    /// No feature (straight-line programs).
    pub const NONE: Features = Features {
        indirect: false,
        ifs: false,
        loops: false,
        switch: false,
        subroutines: false,
        modifiers: false,
        saturate: false,
        swizzles: false,
        kill: false,
        derivatives: false,
    };

    /// `(name, enabled)` for every feature, in a fixed order (for stamps and reports).
    pub fn list(&self) -> [(&'static str, bool); 10] {
        [
            ("indirect", self.indirect),
            ("ifs", self.ifs),
            ("loops", self.loops),
            ("switch", self.switch),
            ("subroutines", self.subroutines),
            ("modifiers", self.modifiers),
            ("saturate", self.saturate),
            ("swizzles", self.swizzles),
            ("kill", self.kill),
            ("derivatives", self.derivatives),
        ]
    }

    /// Enabled feature names joined by `,` (`-` when none).
    pub fn names(&self) -> String {
        let v: Vec<&str> = self
            .list()
            .iter()
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect();
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(",")
        }
    }
}

impl Default for Features {
    /// Everything the interpreter runs in any stage: all but KILL and derivatives.
    fn default() -> Self {
        Features {
            kill: false,
            derivatives: false,
            ..Features::ALL
        }
    }
}

/// What kind of programs to build.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Upper bound on generated instructions (approximate; structure and guards add a few).
    pub max_instructions: usize,
    /// Maximum nesting depth of IF/loop/SWITCH.
    pub max_depth: usize,
    /// Also use syntax the interpreter does not run (64-bit opcodes and immediates,
    /// declaration tails): for printer/parser round-trip tests.
    pub syntax_coverage: bool,
    /// Restrict FLT32 immediates to values tgsi_dump's `%10.4f` prints exactly
    /// (multiples of 1/16, ±0, ±inf, NaN). Otherwise any bit pattern (print such
    /// programs with `PrintOptions { lossless: true }`).
    pub mesa_exact_floats: bool,
    /// Stages to choose from.
    pub stages: Vec<Stage>,
    /// Features programs may use.
    pub features: Features,
    /// Opcodes arithmetic instructions are drawn from; `None` = [`arithmetic_opcodes`].
    pub opcodes: Option<Vec<Opcode>>,
    /// Swarm testing: each program draws a subset of `features` and of the opcodes.
    pub swarm: bool,
    /// Build only programs whose every result is defined for all inputs (module docs).
    pub defined_only: bool,
    /// Also draw the 64-bit arithmetic opcodes (tgsi.rst "Double ISA" and "64-bit Integer
    /// ISA"; values in channel pairs xy/zw). Off by default, so the default program streams
    /// stay as they are. Their undefined cases (division by zero, out-of-range conversions)
    /// are not guarded even with `defined_only`: those channels are reported undefined and
    /// skipped by the comparators.
    pub wide: bool,
    /// Also build memory programs (about 2 programs in 5): COMP programs whose atomics,
    /// loads, stores and barriers on BUFFER and SHARED memory collide ([`memory`]). Off by
    /// default, so the default program streams stay as they are.
    pub memory: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_instructions: 48,
            max_depth: 3,
            syntax_coverage: false,
            mesa_exact_floats: true,
            stages: vec![Stage::Vertex, Stage::Fragment, Stage::Compute],
            features: Features::default(),
            opcodes: None,
            swarm: false,
            defined_only: false,
            wide: false,
            memory: false,
        }
    }
}

/// Opcodes the generator uses for plain arithmetic: one destination, 32-bit types,
/// per-lane semantics (no texture, memory, derivative, vote or address opcodes).
/// `include_64bit` (syntax coverage) also admits 64-bit opcodes and the TBD unpack opcodes.
pub fn arithmetic_opcodes(include_64bit: bool) -> Vec<Opcode> {
    const EXCLUDED: &[Opcode] = &[
        Opcode::ARL,
        Opcode::ARR,
        Opcode::UARL,
        Opcode::DDX,
        Opcode::DDY,
        Opcode::DDX_FINE,
        Opcode::DDY_FINE,
        Opcode::VOTE_ANY,
        Opcode::VOTE_ALL,
        Opcode::VOTE_EQ,
        Opcode::READ_FIRST,
        Opcode::READ_INVOC,
        Opcode::READ_HELPER,
        Opcode::CLOCK,
    ];
    // tgsi.rst leaves UP2US/UP4B/UP4UB "TBD": no engine can run them, so only
    // syntax-coverage programs use them.
    const UNDEFINED_IN_DOC: &[Opcode] = &[Opcode::UP2US, Opcode::UP4B, Opcode::UP4UB];
    ALL_OPCODES
        .iter()
        .copied()
        .filter(|op| {
            let i = op.info();
            let is64 = is_64bit(*op);
            i.num_dst == 1
                && i.num_src >= 1
                && !i.is_tex
                && matches!(
                    i.output_mode,
                    OutputMode::Componentwise | OutputMode::Replicate | OutputMode::ChanDependent
                )
                && !EXCLUDED.contains(op)
                && (include_64bit || (!is64 && !UNDEFINED_IN_DOC.contains(op)))
        })
        .collect()
}

/// Whether `op` reads or writes 64-bit values (opcodes.csv types).
pub fn is_64bit(op: Opcode) -> bool {
    let i = op.info();
    i.dst_type.is_some_and(|t| t.is_64bit())
        || i.src_types.iter().any(|t| t.is_some_and(|t| t.is_64bit()))
}

/// What one program drew: its stage, the features it may use and its opcode pool
/// (the whole configured pool when swarm testing is off).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swarm {
    /// The program's stage.
    pub stage: Stage,
    /// Features this program may use (already restricted to what its stage allows).
    pub features: Features,
    /// Opcodes arithmetic instructions are drawn from, in opcode order.
    pub opcodes: Vec<Opcode>,
}

/// A built program and what it drew.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    /// The program (valid: `validate` accepts it and `parse(print(p)) == p`).
    pub program: Program,
    /// The swarm draw.
    pub swarm: Swarm,
}

/// The opcode pool of `cfg` before any swarm draw.
fn opcode_pool(cfg: &GenConfig) -> Vec<Opcode> {
    let mut pool = cfg.opcodes.clone().unwrap_or_else(|| {
        let mut ops = arithmetic_opcodes(cfg.syntax_coverage);
        if cfg.wide && !cfg.syntax_coverage {
            ops.extend(
                arithmetic_opcodes(true)
                    .into_iter()
                    .filter(|op| is_64bit(*op)),
            );
            ops.sort_unstable();
        }
        ops
    });
    if cfg.defined_only {
        pool.retain(|op| !guard::never_defined_for_all(*op));
    }
    if pool.is_empty() {
        pool.push(Opcode::MOV);
    }
    pool
}

/// Draws the stage, features and opcodes of one program.
fn draw_swarm(c: &mut Choices, cfg: &GenConfig) -> Swarm {
    let stage = if cfg.stages.is_empty() {
        Stage::Vertex
    } else {
        c.pick(&cfg.stages)
    };
    let mut f = cfg.features;
    let pool = opcode_pool(cfg);
    let opcodes = if cfg.swarm {
        // Each feature is kept with probability 1/2 (an exhausted stream keeps none).
        f = Features {
            indirect: f.indirect && c.chance(50),
            ifs: f.ifs && c.chance(50),
            loops: f.loops && c.chance(50),
            switch: f.switch && c.chance(50),
            subroutines: f.subroutines && c.chance(50),
            modifiers: f.modifiers && c.chance(50),
            saturate: f.saturate && c.chance(50),
            swizzles: f.swizzles && c.chance(50),
            kill: f.kill && c.chance(50),
            derivatives: f.derivatives && c.chance(50),
        };
        // A per-program inclusion rate, so some programs use few opcodes and some many.
        let rate = c.pick(&[5u32, 15, 35, 60]);
        let mut ops: Vec<Opcode> = pool.iter().copied().filter(|_| c.chance(rate)).collect();
        if ops.is_empty() {
            ops.push(pool[c.below(pool.len())]);
        }
        ops
    } else {
        pool
    };
    if stage != Stage::Fragment {
        f.kill = false;
        f.derivatives = false;
    }
    Swarm {
        stage,
        features: f,
        opcodes,
    }
}

/// Build one valid program from `choices` under `cfg`.
pub fn build_program(choices: &mut Choices, cfg: &GenConfig) -> Program {
    build(choices, cfg).program
}

/// Build one valid program from `choices` under `cfg`, reporting the swarm draw.
///
/// The same stream and configuration always give the same program. An exhausted stream
/// draws zeros, which select the simplest options, so any stream (even an empty one)
/// yields a valid program.
pub fn build(choices: &mut Choices, cfg: &GenConfig) -> Built {
    if cfg.memory && !cfg.syntax_coverage && choices.chance(40) {
        let (program, opcodes) = memory::build_memory(choices, cfg.max_instructions.clamp(1, 8));
        let swarm = Swarm {
            stage: Stage::Compute,
            features: Features::NONE,
            opcodes,
        };
        return Built { program, swarm };
    }
    let swarm = draw_swarm(choices, cfg);
    let program = builder::build_body(choices, cfg, &swarm);
    Built { program, swarm }
}
