//! The most instructions each engine is given (docs/campaigns.md "Limits"): a program
//! longer than an engine's limit is refused before that engine sees it. `run` and
//! `compile` on that engine exit 2 naming the limit and its flag; `diff`, `fuzz`,
//! `conform` and `reduce` report the engine as `unsupported` for the program (never a
//! mismatch), and a program over the oracle's limit is skipped.
//!
//! | engine    | default | flag                          | why this size |
//! |-----------|---------|-------------------------------|---------------|
//! | `interp`  | 65 536  | `--max-interp-instructions`   | the oracle must take whatever the others take: the largest default |
//! | `jit`     | 65 536  | `--max-jit-instructions`      | Cranelift compiles the program as one function; its time and memory grow faster than the size |
//! | `valhall` | 16 384  | `--max-valhall-instructions`  | its compiler stops at 200 000 Valhall instructions (`compile/lower.rs` `MAX_CODE`), and one instruction may lower to a dozen |
//! | `mesa`    | 16 384  | `--max-mesa-instructions`     | Mesa's `MAX_PROGRAM_INSTRUCTIONS` (`src/mesa/main/config.h`), what it reports as `MAX_PROGRAM_INSTRUCTIONS_ARB` |
//! | `virgl`   | 4 096   | `--max-virgl-instructions`    | the TGSI text travels in one `CREATE_OBJECT` of at most 262 120 bytes (`engines/virgl/src/encode.rs`), some 60 bytes an instruction |
//! | `nvidia`  | 65 536  | `--max-nvidia-instructions`   | the program-wide default: the H200 captures do not record the driver's `MAX_PROGRAM_INSTRUCTIONS_ARB` |
//!
//! Engines not in the table (test engines) have no limit of their own. Every engine is
//! also under `--max-program-instructions`, checked when a program file is read.

use clap::Args;
use shaderdiff_model::Program;

/// Default of `--max-interp-instructions`.
pub const DEFAULT_INTERP: u64 = 1 << 16;
/// Default of `--max-jit-instructions`.
pub const DEFAULT_JIT: u64 = 1 << 16;
/// Default of `--max-valhall-instructions`.
pub const DEFAULT_VALHALL: u64 = 1 << 14;
/// Default of `--max-mesa-instructions`.
pub const DEFAULT_MESA: u64 = 1 << 14;
/// Default of `--max-virgl-instructions`.
pub const DEFAULT_VIRGL: u64 = 1 << 12;
/// Default of `--max-nvidia-instructions`.
pub const DEFAULT_NVIDIA: u64 = 1 << 16;

/// The per-engine instruction limits (global flags, part of [`crate::limits::Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Args)]
pub struct EngineLimits {
    /// Most instructions of one program run on the oracle (`interp`).
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_INTERP,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_interp_instructions: u64,
    /// Most instructions of one program given to `jit`.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_JIT,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_jit_instructions: u64,
    /// Most instructions of one program given to `valhall`.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_VALHALL,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_valhall_instructions: u64,
    /// Most instructions of one program given to `mesa`.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MESA,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_mesa_instructions: u64,
    /// Most instructions of one program given to `virgl`.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_VIRGL,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_virgl_instructions: u64,
    /// Most instructions of one program given to `nvidia`.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_NVIDIA,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nvidia_instructions: u64,
}

impl Default for EngineLimits {
    fn default() -> Self {
        EngineLimits {
            max_interp_instructions: DEFAULT_INTERP,
            max_jit_instructions: DEFAULT_JIT,
            max_valhall_instructions: DEFAULT_VALHALL,
            max_mesa_instructions: DEFAULT_MESA,
            max_virgl_instructions: DEFAULT_VIRGL,
            max_nvidia_instructions: DEFAULT_NVIDIA,
        }
    }
}

impl EngineLimits {
    /// `(engine, limit, flag)` for every engine with a limit.
    pub fn table(&self) -> [(&'static str, u64, &'static str); 6] {
        [
            (
                "interp",
                self.max_interp_instructions,
                "--max-interp-instructions",
            ),
            ("jit", self.max_jit_instructions, "--max-jit-instructions"),
            (
                "valhall",
                self.max_valhall_instructions,
                "--max-valhall-instructions",
            ),
            (
                "mesa",
                self.max_mesa_instructions,
                "--max-mesa-instructions",
            ),
            (
                "virgl",
                self.max_virgl_instructions,
                "--max-virgl-instructions",
            ),
            (
                "nvidia",
                self.max_nvidia_instructions,
                "--max-nvidia-instructions",
            ),
        ]
    }

    /// The limit of `engine` and the flag that raises it; `None` for an engine without one.
    pub fn of(&self, engine: &str) -> Option<(u64, &'static str)> {
        self.table()
            .into_iter()
            .find(|(e, _, _)| *e == engine)
            .map(|(_, n, f)| (n, f))
    }

    /// Checks `program`'s instruction count against `engine`'s limit.
    ///
    /// # Errors
    /// `N instructions, more than ENGINE's limit L (raise it with --max-ENGINE-instructions)`.
    pub fn check(&self, engine: &str, program: &Program) -> Result<(), String> {
        let n = u64::try_from(program.instructions.len()).unwrap_or(u64::MAX);
        match self.of(engine) {
            Some((limit, flag)) if n > limit => Err(format!(
                "{n} instructions, more than {engine}'s limit {limit} (raise it with {flag})"
            )),
            _ => Ok(()),
        }
    }
}

/// [`EngineLimits::check`] with this process's limits ([`crate::limits::get`]).
///
/// # Errors
/// As [`EngineLimits::check`].
pub fn check(engine: &str, program: &Program) -> Result<(), String> {
    crate::limits::get().engines.check(engine, program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_of_the_interface_has_a_documented_limit() {
        // INTERFACE.md "Binary and engines" lists these six engines.
        let l = EngineLimits::default();
        for e in ["interp", "jit", "valhall", "mesa", "virgl", "nvidia"] {
            let (_, flag) = l.of(e).unwrap_or_else(|| panic!("{e} has no limit"));
            assert_eq!(flag, format!("--max-{e}-instructions"));
        }
        assert_eq!(l.of("toy"), None);
        assert_eq!(l.of("mesa").map(|(n, _)| n), Some(16 * 1024));
    }
}
