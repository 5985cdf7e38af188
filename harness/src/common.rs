//! The helpers every command shares, at the bottom of the CLI crate (they import no
//! command): the exit status of a failed command ([`Failure`]), loading program files of
//! either language ([`load_program_named`]), writing to stdout ([`emit`]), mapping engine
//! errors to exit statuses ([`engine_failure`]) and the engine value lists of the command
//! line ([`engine_parser`], from the engine registry).

use std::io::Write;
use std::path::Path;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::ValueEnum;
use shaderdiff_backends::{self as backends, EngineError};
use shaderdiff_model::{File, Program};
use shaderdiff_nv::{self as nv, NvProgram};
use shaderdiff_oracles::{Inputs, RegKey};
use shaderdiff_tgsi as tgsi;

use crate::lang::{self, Lang};

/// The value parser of an engine option: the names of the registry's engines
/// ([`backends::ENGINES`]) for which `keep` holds, each with its summary for `--help`
/// (INTERFACE.md "Binary and engines").
pub fn engine_parser(keep: fn(&backends::EngineDescriptor) -> bool) -> PossibleValuesParser {
    PossibleValuesParser::new(
        backends::ENGINES
            .iter()
            .filter(|d| keep(d))
            .map(|d| PossibleValue::new(d.name).help(d.summary)),
    )
}

/// Output formats of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people.
    Text,
    /// INTERFACE.md "`run --format json` output".
    Json,
}

/// Why a command did not succeed: the exit status and a one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Exit 1: the engine's run failed (step limit, call depth, trap): a finding.
    Failed(String),
    /// Exit 2: bad usage or bad input.
    BadInput(String),
    /// Exit 3: valid, but the engine does not support it.
    Unsupported(String),
    /// Exit 4: the run itself could not be carried out (I/O error, disk full, a worker
    /// that cannot start, a locked output directory, a resource limit of the harness).
    Run(String),
}

impl Failure {
    /// The process exit status.
    pub fn code(&self) -> u8 {
        match self {
            Failure::Failed(_) => 1,
            Failure::BadInput(_) => 2,
            Failure::Unsupported(_) => 3,
            Failure::Run(_) => 4,
        }
    }
    /// The one-line message.
    pub fn message(&self) -> &str {
        match self {
            Failure::Failed(m)
            | Failure::BadInput(m)
            | Failure::Unsupported(m)
            | Failure::Run(m) => m,
        }
    }
}

/// A parsed program of either language.
pub enum Loaded {
    /// TGSI text, parsed and validated.
    Tgsi(Program),
    /// NVIDIA assembly, parsed (engines run it after `shaderdiff_nv::lower`).
    Nv(NvProgram),
}

/// Reads, detects and parses one program file of either language (`check`).
///
/// Errors: unreadable or non-UTF-8 file and parse/validation errors → [`Failure::BadInput`]
/// (`file:line:col: message`).
pub fn load_any(path: &Path) -> Result<Loaded, Failure> {
    load_any_with(path, nv::LimitProfile::Spec)
}

/// [`load_any`] with NV / ARB programs checked against the limits of `limits`.
///
/// Errors: as [`load_any`].
pub fn load_any_with(path: &Path, limits: nv::LimitProfile) -> Result<Loaded, Failure> {
    let text = lang::read_text(path).map_err(Failure::BadInput)?;
    let name = path.display().to_string();
    match lang::detect(&text) {
        Lang::Nv => nv::parse_with(&text, &name, limits)
            .map(Loaded::Nv)
            .map_err(|e| Failure::BadInput(e.to_string())),
        Lang::Tgsi => tgsi::parse_complete(&text, &name)
            .map(Loaded::Tgsi)
            .map_err(|e| Failure::BadInput(e.to_string())),
    }
}

/// The NV names of a lowered NV program's registers (INTERFACE.md: inputs and outputs
/// are keyed by the register as the program names it).
#[derive(Clone, Debug)]
pub struct NvNames {
    /// The lowering's name map.
    pub names: nv::NameMap,
    /// The program's stage (names are normalised per stage).
    pub stage: nv::NvStage,
    /// The program's header (which bindings exist).
    pub header: nv::Header,
    /// Vertices of a per-vertex input (`vertex[m].*`): the geometry program's input
    /// primitive, 32 for tessellation evaluation programs (MAX_PATCH_VERTICES_NV); `None`
    /// for other stages.
    pub vertices: Option<u32>,
}

impl NvNames {
    /// The NV name of an IR register (its binding text; `vertex[m].…` for a geometry
    /// program's per-vertex input, `emit[v].result.…` for an emitted vertex's result), or
    /// the IR name when it has none.
    pub fn name_of(&self, k: &RegKey) -> String {
        self.names
            .name_of_key(k.file, k.dimension, k.index)
            .unwrap_or_else(|| k.to_string())
    }

    /// [`NvNames::lookup`], with `Ok(None)` for a binding of the program's stage that the
    /// program does not read (INTERFACE.md: accepted with a note).
    ///
    /// Errors: a name that is no binding of the stage.
    pub fn key(&self, name: &str) -> Result<Option<RegKey>, String> {
        // A per-vertex input needs its vertex (`vertex[m].position`); a vertex the
        // primitive lacks stays an error.
        let per_vertex = matches!(
            self.stage,
            nv::NvStage::Geometry | nv::NvStage::TessCtrl | nv::NvStage::TessEval
        ) && name.starts_with("vertex.");
        match self.lookup(name) {
            Ok(k) => Ok(Some(k)),
            Err(_)
                if !per_vertex
                    && nv_key(&self.names, self.stage, name).is_none()
                    && nv::is_input_binding(self.header, name) =>
            {
                Ok(None)
            }
            Err(m) => Err(m),
        }
    }

    /// The IR register an inputs-file key names (a binding such as `program.local[0]`,
    /// `vertex[1].attrib[0]` in a geometry program, or a declared variable name).
    ///
    /// Errors: a name the program does not read.
    pub fn lookup(&self, name: &str) -> Result<RegKey, String> {
        if let (Some(k), Some(n)) = (nv_key(&self.names, self.stage, name), self.vertices) {
            if k.dimension.is_some_and(|m| m >= n) {
                return Err(format!(
                    "unknown register {name:?}: the program's vertices are vertex[0] to vertex[{}]",
                    n - 1
                ));
            }
        }
        nv_key(&self.names, self.stage, name).ok_or_else(|| {
            let geometry = self.stage == nv::NvStage::Geometry;
            let mut known: Vec<String> = self
                .names
                .entries
                .iter()
                .filter(|(_, f, _)| matches!(f, File::Input | File::Const | File::SystemValue))
                .map(|(n, f, _)| match n.strip_prefix("vertex.") {
                    Some(attr) if geometry && *f == File::Input => format!("vertex[m].{attr}"),
                    _ => n.clone(),
                })
                .collect();
            known.dedup();
            format!(
                "unknown register {name:?}: the program reads {}",
                if known.is_empty() {
                    "no inputs or parameters".to_string()
                } else {
                    known.join(", ")
                }
            )
        })
    }

    /// Renames the registers of diff records (`OUT[0]` → `result.color`).
    pub fn rename(&self, register: &str) -> String {
        match crate::value::parse_reg_name(register) {
            Ok(k) => self.name_of(&k),
            Err(_) => register.to_string(),
        }
    }
}

/// The register key of an NV name ([`nv::NameMap::lookup_key`]: bindings, variable names,
/// `vertex[m].*` per-vertex inputs), `None` when the program has no such register.
pub fn nv_key(names: &nv::NameMap, stage: nv::NvStage, name: &str) -> Option<RegKey> {
    names
        .lookup_key(stage, name)
        .map(|(file, dimension, index)| RegKey {
            file,
            dimension,
            index,
        })
}

/// Reads, detects and parses (with validation) one program file for the engines; NV
/// assembly is lowered to the IR (`shaderdiff_nv::lower`) and comes with its names.
///
/// Errors: unreadable or non-UTF-8 file and parse/validation errors → [`Failure::BadInput`]
/// (`file:line:col: message`, NV assembly included); NV assembly using something the
/// lowering does not support yet (condition codes, memory, textures, 64-bit ...) →
/// [`Failure::Unsupported`] naming the instruction at `file:line:col`.
pub fn load_program_named(path: &Path) -> Result<(Program, Option<NvNames>), Failure> {
    load_program_named_with(path, nv::LimitProfile::Spec)
}

/// [`load_program_named`] with NV / ARB programs checked against the limits of `limits`.
///
/// Errors: as [`load_program_named`].
pub fn load_program_named_with(
    path: &Path,
    limits: nv::LimitProfile,
) -> Result<(Program, Option<NvNames>), Failure> {
    let checked = |p: &Program, shared: Option<u32>| {
        crate::limits::check_program(p, shared, &path.display().to_string())
            .map_err(Failure::BadInput)
    };
    match load_any_with(path, limits)? {
        Loaded::Tgsi(p) => checked(&p, None).map(|()| (p, None)),
        Loaded::Nv(p) => {
            let name = path.display();
            let l = nv::lower(&p).map_err(|e| match e {
                nv::LowerError::Unsupported { .. } => Failure::Unsupported(format!("{name}:{e}")),
                nv::LowerError::Invalid { .. } => Failure::BadInput(format!("{name}:{e}")),
            })?;
            let vertices = match l.program.stage {
                shaderdiff_model::Stage::Geometry => l.program.gs_input_vertices(),
                shaderdiff_model::Stage::TessEval => Some(nv::MAX_PATCH_VERTICES),
                _ => None,
            };
            checked(&l.program, l.names.shared_memory)?;
            Ok((
                l.program,
                Some(NvNames {
                    names: l.names,
                    stage: l.stage,
                    header: p.header,
                    vertices,
                }),
            ))
        }
    }
}

/// [`load_program_named`] without the names (NV register names are then the IR's).
///
/// Errors: as [`load_program_named`].
pub fn load_program(path: &Path) -> Result<Program, Failure> {
    load_program_named(path).map(|(p, _)| p)
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
pub fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Run(format!("cannot write to stdout: {e}"))),
    }
}

/// Maps an engine error to its exit status ([`EngineError::exit_code`], INTERFACE.md):
/// unsupported → 3, invalid program or inputs → 2, a failed run (step limit, call depth,
/// trap) → 1. The message starts with the program file, and `line:col` when known.
pub fn engine_failure(program: &str, e: EngineError) -> Failure {
    let located = matches!(
        &e,
        EngineError::Unsupported { pos: Some(_), .. }
            | EngineError::InvalidProgram { pos: Some(_), .. }
    );
    let mut msg = if located {
        format!("{program}:{e}")
    } else {
        format!("{program}: {e}")
    };
    if matches!(e, EngineError::StepLimit { .. }) {
        msg.push_str("; raise it with --step-limit");
    }
    match e.exit_code() {
        3 => Failure::Unsupported(msg),
        2 => Failure::BadInput(msg),
        _ => Failure::Failed(msg),
    }
}

/// [`prepare`](shaderdiff_compare::nv_runtime::prepare) on every input set of a program loaded with [`crate::common::load_program_named`]
/// (nothing for TGSI programs).
///
/// # Errors
/// [`crate::common::Failure::BadInput`] naming `file` for regions `prepare` refuses.
pub fn prepare_sets(
    program: &Program,
    names: Option<&crate::common::NvNames>,
    sets: &mut [Inputs],
    file: &str,
) -> Result<(), crate::common::Failure> {
    let Some(n) = names else {
        return Ok(());
    };
    for s in sets {
        shaderdiff_compare::nv_runtime::prepare(program, &n.names, s)
            .map_err(|e| crate::common::Failure::BadInput(format!("{file}: {e}")))?;
    }
    Ok(())
}
