//! The engine registry: one [`EngineDescriptor`] line per engine in [`ENGINES`], and
//! everything the command line needs to know about engines derived from it — the value
//! lists of `run --backend`, `diff|fuzz|conform|reduce --backends` and `compile --backend`,
//! the oracle's name, which engines are opt-in, which can print a listing, which can replay
//! a dying program in a fresh process, and why an engine cannot run here.
//!
//! Adding an engine: write its crate under `engines/` (it implements
//! [`shaderdiff_engine::Engine`]), add it to the workspace and to this crate's
//! `Cargo.toml`, and add one line to [`ENGINES`]. (For `diff` to compare it with the
//! oracle it also needs its precision class in `oracle/precision.toml` `[engines]`: that
//! is the precision contract, data, not code.) `engines/toy` and
//! `engines/tests/registry.rs` show it: a toy engine plus one registry line runs the
//! shared program table of `engines/tests/programs/`.

use shaderdiff_engine::{Capabilities, Engine, EngineConfig};

/// A listing `shaderdiff compile --emit FORM` can print (INTERFACE.md "Commands").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Listing {
    /// Assembly text ([`shaderdiff_engine::Compiled::listing`]).
    Asm,
    /// Encoded machine code as hex bytes ([`shaderdiff_engine::Compiled::machine_code`]).
    Hex,
    /// Cranelift IR text ([`shaderdiff_engine::Compiled::listing`]).
    Clif,
}

impl Listing {
    /// The `--emit` value: `asm`, `hex`, `clif`.
    pub const fn name(self) -> &'static str {
        match self {
            Listing::Asm => "asm",
            Listing::Hex => "hex",
            Listing::Clif => "clif",
        }
    }
}

/// One engine of the registry: its name, how to build it, whether it can run here and
/// what the commands may do with it.
#[derive(Clone, Copy, Debug)]
pub struct EngineDescriptor {
    /// The name on the command line and in reports (INTERFACE.md "Binary and engines");
    /// equal to the built engine's [`Engine::name`].
    pub name: &'static str,
    /// One line for `--help` (the possible values of `--backend`).
    pub summary: &'static str,
    /// The reference engine every other engine is compared with. Exactly one line has it.
    pub oracle: bool,
    /// Needs something outside the build at run time (a library, a server): opt-in
    /// (`--backends interp,mesa`), never in the default engine list nor in
    /// [`ENGINE_NAMES`].
    pub runtime_only: bool,
    /// A program that kills this engine can be reduced by replaying each candidate alone
    /// in a fresh `shaderdiff run CANDIDATE --backend NAME` (candidates are TGSI text for
    /// TGSI findings and NV text for NV findings, so the engine must run the finding's
    /// language, and the replay must need no state of the dying process).
    pub reduce_deaths: bool,
    /// The listings `compile --backend NAME --emit FORM` prints; empty: not a `compile`
    /// backend (it compiles nothing a person would read).
    pub emits: &'static [Listing],
    /// `Ok` when the engine can run here; else why not (one line, e.g. a missing library).
    pub available: fn() -> Result<(), String>,
    /// Builds the engine with `config` (called only when [`EngineDescriptor::available`]
    /// is `Ok`).
    pub new: fn(&EngineConfig) -> Box<dyn Engine>,
}

impl EngineDescriptor {
    /// What the engine supports, from an instance with the default configuration; `None`
    /// when it cannot run here.
    pub fn capabilities(&self) -> Option<Capabilities> {
        (self.available)().ok()?;
        Some((self.new)(&EngineConfig::default()).capabilities().clone())
    }

    /// Whether `compile --emit` can print `form` for this engine.
    pub fn can_compile(&self, form: Listing) -> bool {
        self.emits.contains(&form)
    }
}

/// For [`EngineDescriptor::available`] of engines that need nothing outside the build.
pub fn built_in() -> Result<(), String> {
    Ok(())
}

/// Every engine of this build, oracle first; built-in engines before the opt-in
/// ([`EngineDescriptor::runtime_only`]) ones. The order is the order of every list derived
/// from it (`--help`, error messages, the fault catalogue).
pub const ENGINES: &[EngineDescriptor] = &[
    EngineDescriptor {
        name: "interp",
        summary: "The reference interpreter",
        oracle: true,
        runtime_only: false,
        reduce_deaths: true,
        emits: &[],
        available: built_in,
        new: |c| Box::new(crate::interp::InterpEngine::new(c)),
    },
    EngineDescriptor {
        name: "jit",
        summary: "The Cranelift JIT backend",
        oracle: false,
        runtime_only: false,
        reduce_deaths: true,
        emits: &[Listing::Clif],
        available: built_in,
        new: |c| Box::new(shaderdiff_cranelift::JitEngine::new(c)),
    },
    EngineDescriptor {
        name: "valhall",
        summary: "The Valhall backend",
        oracle: false,
        runtime_only: false,
        reduce_deaths: true,
        emits: &[Listing::Asm, Listing::Hex],
        available: built_in,
        new: |c| Box::new(shaderdiff_valhall::engine::ValhallEngine::new(c)),
    },
    EngineDescriptor {
        name: "mesa",
        summary: "Mesa's llvmpipe through OSMesa (ARB programs; needs libOSMesa at run time)",
        oracle: false,
        runtime_only: true,
        reduce_deaths: false,
        emits: &[],
        available: || shaderdiff_mesa::available().map(drop),
        new: |c| Box::new(shaderdiff_mesa::MesaEngine::new(c)),
    },
    EngineDescriptor {
        name: "virgl",
        summary: "virglrenderer (TGSI to GLSL) on llvmpipe through virgl_test_server (TGSI \
                  vertex and fragment programs; needs the virgl-server package at run time)",
        oracle: false,
        runtime_only: true,
        reduce_deaths: false,
        emits: &[],
        available: || shaderdiff_virgl::available().map(drop),
        new: |c| Box::new(shaderdiff_virgl::VirglEngine::new(c)),
    },
    EngineDescriptor {
        name: "nvidia",
        summary: "NVIDIA's OpenGL driver through EGL (NV_gpu_program4/5 and ARB programs; needs \
                  an EGL device whose GL_VENDOR is NVIDIA at run time)",
        oracle: false,
        runtime_only: true,
        reduce_deaths: true,
        emits: &[],
        available: || shaderdiff_nvidia::available().map(drop),
        new: |c| Box::new(shaderdiff_nvidia::NvidiaEngine::new(c)),
    },
];

/// A table of engine descriptors and the questions the commands ask of it. The build's
/// own is [`REGISTRY`] (over [`ENGINES`]); tests build others (the built-in lines plus a
/// toy engine) with [`Registry::new`].
#[derive(Clone, Copy, Debug)]
pub struct Registry<'a> {
    lines: &'a [EngineDescriptor],
}

/// The registry of this build.
pub const REGISTRY: Registry<'static> = Registry { lines: ENGINES };

impl<'a> Registry<'a> {
    /// A registry over `lines` (in the order lists are derived in).
    pub const fn new(lines: &'a [EngineDescriptor]) -> Registry<'a> {
        Registry { lines }
    }

    /// Every descriptor, in order.
    pub fn descriptors(&self) -> &'a [EngineDescriptor] {
        self.lines
    }

    /// The descriptor of engine `name`; `None` for a name the registry does not have.
    pub fn get(&self, name: &str) -> Option<&'a EngineDescriptor> {
        self.lines.iter().find(|d| d.name == name)
    }

    /// Every engine name, in order (the `--backends` value list).
    pub fn names(&self) -> impl Iterator<Item = &'static str> + 'a {
        self.lines.iter().map(|d| d.name)
    }

    /// The names of the built-in engines (not [`EngineDescriptor::runtime_only`]), in
    /// order: the default engine list.
    pub fn built_in_names(&self) -> impl Iterator<Item = &'static str> + 'a {
        self.lines
            .iter()
            .filter(|d| !d.runtime_only)
            .map(|d| d.name)
    }

    /// The oracle's name (the line with [`EngineDescriptor::oracle`]).
    ///
    /// # Panics
    /// When no line is the oracle (a registry without one is a bug).
    pub fn oracle(&self) -> &'static str {
        self.lines
            .iter()
            .find(|d| d.oracle)
            .map(|d| d.name)
            .expect("the registry has an oracle")
    }

    /// Why engine `name` cannot run here (`None` when it can, or for an unknown name).
    pub fn unavailable_reason(&self, name: &str) -> Option<String> {
        self.get(name).and_then(|d| (d.available)().err())
    }

    /// The engine called `name`, configured with `config` (a test-only fault in it wraps
    /// the engine, [`crate::test_faults::wrap`]); `None` for an unknown name or an engine
    /// that cannot run here ([`Registry::unavailable_reason`] says why).
    pub fn engine(&self, name: &str, config: &EngineConfig) -> Option<Box<dyn Engine>> {
        let d = self.get(name)?;
        (d.available)().ok()?;
        Some(crate::test_faults::wrap((d.new)(config), config))
    }
}

/// Number of lines of [`ENGINES`] whose `runtime_only` is `runtime`.
const fn count(runtime: bool) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < ENGINES.len() {
        if ENGINES[i].runtime_only == runtime {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The names of the lines of [`ENGINES`] whose `runtime_only` is `runtime`, in order.
const fn names<const N: usize>(runtime: bool) -> [&'static str; N] {
    let mut out = [""; N];
    let mut n = 0;
    let mut i = 0;
    while i < ENGINES.len() {
        if ENGINES[i].runtime_only == runtime {
            out[n] = ENGINES[i].name;
            n += 1;
        }
        i += 1;
    }
    out
}

/// The oracle's line of [`ENGINES`] (a compile error when there is none).
const fn oracle_line() -> &'static EngineDescriptor {
    let mut i = 0;
    while i < ENGINES.len() {
        if ENGINES[i].oracle {
            return &ENGINES[i];
        }
        i += 1;
    }
    panic!("ENGINES has no oracle line")
}

const BUILT_IN_NAMES: [&str; count(false)] = names::<{ count(false) }>(false);
const RUNTIME_NAMES: [&str; count(true)] = names::<{ count(true) }>(true);

/// Names of the built-in engines of [`ENGINES`] (not runtime-only), oracle first.
pub const ENGINE_NAMES: &[&str] = &BUILT_IN_NAMES;

/// Engines that need something outside the build at run time (`mesa`: OSMesa; `virgl`:
/// virglrenderer's `virgl_test_server`), from [`ENGINES`]. They are opt-in
/// (`--backends interp,mesa`); [`engine`] gives `None` where they cannot run, and
/// [`unavailable_reason`] says why.
pub const RUNTIME_ENGINE_NAMES: &[&str] = &RUNTIME_NAMES;

/// Length of [`ENGINE_NAMES`] joined with commas.
const fn list_len() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < BUILT_IN_NAMES.len() {
        n += BUILT_IN_NAMES[i].len() + (i > 0) as usize;
        i += 1;
    }
    n
}

/// The bytes of [`ENGINE_LIST`].
const fn list_bytes<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    let mut n = 0;
    let mut i = 0;
    while i < BUILT_IN_NAMES.len() {
        if i > 0 {
            out[n] = b',';
            n += 1;
        }
        let name = BUILT_IN_NAMES[i].as_bytes();
        let mut j = 0;
        while j < name.len() {
            out[n] = name[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

const LIST_BYTES: [u8; list_len()] = list_bytes::<{ list_len() }>();

/// [`ENGINE_NAMES`] joined with commas (`interp,jit,valhall`): the default of `--backends`.
pub const ENGINE_LIST: &str = match std::str::from_utf8(&LIST_BYTES) {
    Ok(s) => s,
    Err(_) => panic!("engine names are UTF-8"),
};

/// The oracle's engine name (the [`ENGINES`] line with [`EngineDescriptor::oracle`]).
pub const ORACLE: &str = oracle_line().name;

/// Why engine `name` cannot run here (`None` when it can, or for an unknown name).
pub fn unavailable_reason(name: &str) -> Option<String> {
    REGISTRY.unavailable_reason(name)
}

/// The engine called `name`, configured with `config` (a test-only fault in it wraps the
/// engine, [`crate::test_faults::wrap`]); `None` for an unknown name or one that cannot
/// run here.
pub fn engine(name: &str, config: &EngineConfig) -> Option<Box<dyn Engine>> {
    REGISTRY.engine(name, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derived lists are the lines of the table, split by `runtime_only`, in order;
    /// every built engine reports its registry name.
    #[test]
    fn derived_lists_follow_the_table() {
        assert_eq!(ENGINE_NAMES, ["interp", "jit", "valhall"]);
        assert_eq!(RUNTIME_ENGINE_NAMES, ["mesa", "virgl", "nvidia"]);
        assert_eq!(ORACLE, "interp");
        assert_eq!(ENGINE_LIST, "interp,jit,valhall");
        assert_eq!(REGISTRY.oracle(), ORACLE);
        let all: Vec<_> = REGISTRY.names().collect();
        assert_eq!(all, ["interp", "jit", "valhall", "mesa", "virgl", "nvidia"]);
        for d in ENGINES {
            if let Some(e) = engine(d.name, &EngineConfig::default()) {
                assert_eq!(e.name(), d.name);
            } else {
                assert!(d.runtime_only, "{} is built in", d.name);
                assert!(unavailable_reason(d.name).is_some());
            }
        }
        assert!(engine("nope", &EngineConfig::default()).is_none());
        assert_eq!(unavailable_reason("nope"), None);
    }

    /// `compile` backends and the listings they print (INTERFACE.md `compile`).
    #[test]
    fn compile_listings() {
        let jit = REGISTRY.get("jit").unwrap();
        assert!(jit.can_compile(Listing::Clif) && !jit.can_compile(Listing::Asm));
        let valhall = REGISTRY.get("valhall").unwrap();
        assert!(valhall.can_compile(Listing::Asm) && valhall.can_compile(Listing::Hex));
        assert!(REGISTRY.get("interp").unwrap().emits.is_empty());
    }
}
