//! Limits on every size a user controls (docs/campaigns.md "Limits").
//!
//! A program file or an inputs file can ask for any amount of memory: a 4 GiB
//! `SHARED_MEMORY`, 2^32 geometry output vertices, a file that never ends (`/dev/zero`).
//! Each such size has a default limit here, a command-line flag that raises it (global:
//! accepted by every command, after the subcommand too) and a one-line exit-2 message
//! naming the file, the size, the limit and the flag. Worker processes get the same limits
//! ([`worker_args`]).
//!
//! | size                         | default    | flag                          |
//! |------------------------------|------------|-------------------------------|
//! | program / inputs file        | 16 MiB     | `--max-file-size`             |
//! | invocations of one run       | 2^20       | `--max-invocations` (≤ 2^24)  |
//! | NV `SHARED_MEMORY`           | 1 MiB      | `--max-shared-memory`         |
//! | NV global window, image      | 256 MiB    | `--max-buffer`                |
//! | `GS_MAX_OUTPUT_VERTICES`     | 1024       | `--max-gs-vertices`           |
//! | instructions of one program  | 65536      | `--max-program-instructions`  |
//! | instructions, per engine     | (below)    | `--max-ENGINE-instructions`   |
//!
//! The per-engine instruction limits are in [`crate::engine_limits`].
//!
//! The defaults lie far above what the generators, the spec suites and the corpus use
//! (generated programs: at most 10 000 instructions, 4096 invocations), so a limit only
//! stops inputs that would take the machine's memory, never a campaign.

use std::io::Read;
use std::path::Path;
use std::sync::{PoisonError, RwLock};

use clap::Args;
use shaderdiff_model::Program;

use crate::engine_limits::EngineLimits;

/// The most invocations an inputs file or `--invocations` may give (the harness's inputs
/// file re-exports it as `inputs::MAX_INVOCATIONS`).
pub const MAX_INVOCATIONS: usize = 1 << 24;

/// Default of `--max-file-size` (bytes).
pub const DEFAULT_FILE_BYTES: u64 = 16 << 20;
/// Default of `--max-invocations`.
pub const DEFAULT_INVOCATIONS: u64 = 1 << 20;
/// Default of `--max-shared-memory` (bytes).
pub const DEFAULT_SHARED_BYTES: u64 = 1 << 20;
/// Default of `--max-buffer` (bytes).
pub const DEFAULT_BUFFER_BYTES: u64 = 1 << 28;
/// Default of `--max-gs-vertices`.
pub const DEFAULT_GS_VERTICES: u64 = 1024;
/// Default of `--max-program-instructions`.
pub const DEFAULT_INSTRUCTIONS: u64 = 1 << 16;

/// The limit flags (global: every command takes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Args)]
pub struct Limits {
    /// Largest program or inputs file read (bytes; `64MiB`, `1GiB`).
    #[arg(long, global = true, value_name = "SIZE", default_value = "16MiB",
          value_parser = parse_size)]
    pub max_file_size: u64,
    /// Most invocations of one run (`--invocations`, the inputs file's `invocations`).
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_INVOCATIONS,
          value_parser = clap::value_parser!(u64).range(1..=MAX_INVOCATIONS as u64))]
    pub max_invocations: u64,
    /// Largest NV `SHARED_MEMORY` declaration (bytes per workgroup).
    #[arg(long, global = true, value_name = "SIZE", default_value = "1MiB",
          value_parser = parse_size)]
    pub max_shared_memory: u64,
    /// Largest memory buffer built from the inputs (NV global window, image), in bytes.
    #[arg(long, global = true, value_name = "SIZE", default_value = "256MiB",
          value_parser = parse_size)]
    pub max_buffer: u64,
    /// Largest `GS_MAX_OUTPUT_VERTICES` (NV `VERTICES_OUT`) of a geometry program.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_GS_VERTICES,
          value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub max_gs_vertices: u64,
    /// Most instructions of one program given to an engine.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_INSTRUCTIONS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_program_instructions: u64,
    /// The most instructions each engine is given.
    #[command(flatten)]
    pub engines: EngineLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_size: DEFAULT_FILE_BYTES,
            max_invocations: DEFAULT_INVOCATIONS,
            max_shared_memory: DEFAULT_SHARED_BYTES,
            max_buffer: DEFAULT_BUFFER_BYTES,
            max_gs_vertices: DEFAULT_GS_VERTICES,
            max_program_instructions: DEFAULT_INSTRUCTIONS,
            engines: EngineLimits::default(),
        }
    }
}

static LIMITS: RwLock<Option<Limits>> = RwLock::new(None);

/// Sets this process's limits: from the command line, then (`fuzz --resume`) from the
/// arguments the resumed campaign recorded, which replace them.
pub fn set(limits: Limits) {
    // A poisoned lock still holds a whole `Limits` (a `Copy` value written at once).
    *LIMITS.write().unwrap_or_else(PoisonError::into_inner) = Some(limits);
}

/// This process's limits: the last [`set`], else the defaults.
pub fn get() -> Limits {
    LIMITS
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .unwrap_or_default()
}

/// The flags that give a worker process this process's limits (only those not at their
/// default, so worker command lines stay short).
pub fn worker_args() -> Vec<String> {
    flags_of(&get())
}

/// The flags that give `l` (`--flag=value`, only those not at their default), in the
/// order of the limits table.
pub fn flags_of(l: &Limits) -> Vec<String> {
    let d = Limits::default();
    let mut v = Vec::new();
    for (now, def, flag) in [
        (l.max_file_size, d.max_file_size, "--max-file-size"),
        (l.max_invocations, d.max_invocations, "--max-invocations"),
        (
            l.max_shared_memory,
            d.max_shared_memory,
            "--max-shared-memory",
        ),
        (l.max_buffer, d.max_buffer, "--max-buffer"),
        (l.max_gs_vertices, d.max_gs_vertices, "--max-gs-vertices"),
        (
            l.max_program_instructions,
            d.max_program_instructions,
            "--max-program-instructions",
        ),
    ] {
        if now != def {
            v.push(format!("{flag}={now}"));
        }
    }
    for ((_, now, flag), (_, def, _)) in l.engines.table().into_iter().zip(d.engines.table()) {
        if now != def {
            v.push(format!("{flag}={now}"));
        }
    }
    v
}

/// Parses a size in bytes (`4096`, `64KiB`, `16MiB`, `1GiB`); unlike
/// [`parse_memory`] there is no "no limit".
///
/// # Errors
/// Anything else, `0` or `none` included.
pub fn parse_size(s: &str) -> Result<u64, String> {
    match parse_memory(s)? {
        Some(n) => Ok(n),
        None => Err(format!("`{s}`: a limit must be a size of at least 1 byte")),
    }
}

/// Parses a time budget (`60s`, `5m`, `1h`): a [`humantime`] duration above zero.
///
/// # Errors
/// A malformed duration, or zero (a campaign of no time would run nothing).
pub fn parse_budget(s: &str) -> Result<std::time::Duration, String> {
    let d = humantime::parse_duration(s).map_err(|e| format!("`{s}`: {e}"))?;
    if d.is_zero() {
        return Err(format!("`{s}`: the time budget must be more than zero"));
    }
    Ok(d)
}

/// Reads at most `limit` bytes of `path`.
///
/// # Errors
/// `path: cannot read: ...`, or `path: larger than LIMIT bytes (raise it with
/// --max-file-size)` for a longer file (a device such as `/dev/zero` included).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let name = path.display();
    let f = std::fs::File::open(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let mut bytes = Vec::new();
    f.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{name}: larger than {limit} bytes (raise the limit with --max-file-size)"
        ));
    }
    Ok(bytes)
}

/// The message of a size over its limit.
pub fn exceeded(what: &str, value: u64, limit: u64, flag: &str) -> String {
    format!("{what} is {value}, more than the limit {limit} (raise it with {flag})")
}

/// Checks the sizes a parsed program asks for: instructions, geometry output vertices and
/// (NV compute) shared memory bytes. `name` is the program file.
///
/// # Errors
/// `name: ... (raise it with --FLAG)` for the first size over its limit.
pub fn check_program(program: &Program, shared: Option<u32>, name: &str) -> Result<(), String> {
    let l = get();
    let n = program.instructions.len() as u64;
    if n > l.max_program_instructions {
        return Err(format!(
            "{name}: {}",
            exceeded(
                "the instruction count",
                n,
                l.max_program_instructions,
                "--max-program-instructions"
            )
        ));
    }
    let v = program.gs_max_output_vertices() as u64;
    if v > l.max_gs_vertices {
        return Err(format!(
            "{name}: {}",
            exceeded(
                "GS_MAX_OUTPUT_VERTICES",
                v,
                l.max_gs_vertices,
                "--max-gs-vertices"
            )
        ));
    }
    if let Some(s) = shared.map(u64::from).filter(|&s| s > l.max_shared_memory) {
        return Err(format!(
            "{name}: {}",
            exceeded(
                "SHARED_MEMORY (bytes)",
                s,
                l.max_shared_memory,
                "--max-shared-memory"
            )
        ));
    }
    Ok(())
}

/// Parses a memory size: `4GiB`, `512MiB`, `2G`, `1000000` (bytes), `0` or `none` for no
/// limit.
///
/// # Errors
/// A message for anything else.
pub fn parse_memory(s: &str) -> Result<Option<u64>, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("none") || t == "0" {
        return Ok(None);
    }
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{s}`: expected a size such as 4GiB, 512MiB or none"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        u => {
            return Err(format!(
                "`{s}`: unknown unit `{u}` (use KiB, MiB, GiB or TiB)"
            ))
        }
    };
    n.checked_mul(mult)
        .map(Some)
        .ok_or_else(|| format!("`{s}`: too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units_and_refuse_zero() {
        assert_eq!(parse_size("16MiB"), Ok(16 << 20));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("0").is_err());
        assert!(parse_size("none").is_err());
    }

    #[test]
    fn bounded_reads_stop_at_the_limit() {
        // /dev/zero never ends: the read stops one byte past the limit.
        let e = read_bounded(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(e.contains("larger than 1000 bytes"), "{e}");
        assert!(e.contains("--max-file-size"), "{e}");
        let dir = std::env::temp_dir().join(format!("sd-limits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("ten");
        std::fs::write(&p, [7u8; 10]).unwrap();
        assert_eq!(read_bounded(&p, 10).unwrap(), vec![7u8; 10]);
        assert!(read_bounded(&p, 9).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let d = Limits::default();
        assert_eq!(d.max_file_size, 16 * 1024 * 1024);
        assert_eq!(d.max_gs_vertices, 1024);
        assert!(worker_args().is_empty());
    }
}
