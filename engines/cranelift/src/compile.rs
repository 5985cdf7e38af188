//! Compiling lowered programs to native code, and owning that code.
//!
//! Programs are compiled in batches: one `JITModule` per batch, one `finalize_definitions`
//! (TOOLCHAIN.md: page protection dominates per-module cost, so batches of 64–256 scale).
//! Every [`JitProgram`] of a batch holds an `Arc` of the batch's [`CodeModule`]; when the
//! last one is dropped the module's code and data pages are released with
//! `JITModule::free_memory` (dropping a module without it leaks its pages by design).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::AbiParam;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module, ModuleReloc};
use shaderdiff_engine::EngineError;
use shaderdiff_model::check::shape::Shape;
use shaderdiff_model::Program;

use crate::alu::{self, Libcalls};
use crate::analysis::Analysis;
use crate::faults::Fault;
use crate::lower::{self, Env, LowerError, Lowered};
use crate::plan::Plan;
use crate::run::RunCtx;
use crate::{JitOptions, ENGINE};

/// The native entry point of a compiled program (see `lower` for the contract).
pub(crate) type EntryFn = unsafe extern "C" fn(*const RunCtx) -> u64;

/// A program checked and planned, ready to be lowered.
pub(crate) struct Front {
    pub program: Program,
    pub shape: Shape,
    pub plan: Plan,
    pub an: Analysis,
    /// The catalogued fault the lowering injects (`faults`), if one is switched on.
    pub fault: Option<Fault>,
}

impl Front {
    fn env(&self) -> Env<'_> {
        Env {
            program: &self.program,
            shape: &self.shape,
            plan: &self.plan,
            an: &self.an,
            fault: self.fault,
        }
    }
}

/// The code pages of one batch. Freed when the last program of the batch is dropped.
pub(crate) struct CodeModule {
    module: Mutex<Option<JITModule>>,
}

impl Drop for CodeModule {
    fn drop(&mut self) {
        let module = match self.module.get_mut() {
            Ok(m) => m.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(m) = module {
            // SAFETY: `free_memory` requires that no function of the module is running or
            // called afterwards. Function pointers into this module are only reachable
            // through `JitProgram`s, each of which holds an `Arc<CodeModule>`; this drop runs
            // when the last of them is gone, so no call through them can be in progress
            // (a call borrows its `JitProgram`) or happen later.
            unsafe { m.free_memory() };
        }
    }
}

/// A compiled program: native code plus everything a run needs.
pub(crate) struct JitProgram {
    /// Keeps the code pages alive.
    _code: Arc<CodeModule>,
    /// The compiled function (valid while `_code` lives).
    pub entry: EntryFn,
    pub front: Front,
    pub lowered: Lowered,
    isa: OwnedTargetIsa,
}

impl JitProgram {
    /// The CLIF of this program as lowered, before Cranelift's own passes (the lowering is
    /// deterministic, so it is rebuilt rather than kept).
    pub fn clif(&self) -> String {
        let mut module = new_module(&self.isa);
        let mut ctx = module.make_context();
        let mut fbc = FunctionBuilderContext::new();
        let Ok(libcalls) = declare_libcalls(&mut module, &mut ctx, &self.front.program) else {
            return String::new();
        };
        let cc = self.isa.default_call_conv();
        match lower::build(
            &mut ctx.func,
            &mut fbc,
            &libcalls,
            &self.front.env(),
            cc,
            self.isa.frontend_config(),
        ) {
            Ok(_) => ctx.func.display().to_string(),
            Err(e) => format!("; lowering failed: {e:?}\n"),
        }
    }
}

/// Lowered functions with more CLIF instructions than this are given to the single-pass
/// register allocator even when [`JitOptions::optimize`] asks for the backtracking one:
/// measured in docs/performance.md ("Register allocator"), where the allocator's cost
/// outgrows what better code saves for the runs a campaign makes.
pub(crate) const SINGLE_PASS_ABOVE: usize = 1_000;

/// The targets a jit compiles with: `main` (its [`JitOptions`]), and `large`, the same
/// settings with the single-pass register allocator, for functions of more than
/// [`SINGLE_PASS_ABOVE`] CLIF instructions (`None` when `main` already uses it).
pub(crate) struct Isas {
    pub main: OwnedTargetIsa,
    pub large: Option<OwnedTargetIsa>,
}

impl Isas {
    /// The targets of `options` on this host.
    pub fn host(options: &JitOptions) -> Result<Isas, String> {
        let main = host_isa(options)?;
        let large = if options.optimize {
            let fast = JitOptions {
                optimize: false,
                ..*options
            };
            Some(host_isa(&fast)?)
        } else {
            None
        };
        Ok(Isas { main, large })
    }
}

/// Cranelift settings and target of the host for `options`, shared by every module.
pub(crate) fn host_isa(options: &JitOptions) -> Result<OwnedTargetIsa, String> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v)
            .map_err(|e| format!("cranelift setting {k}={v}: {e}"))
    };
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    let opt = if options.egraph { "speed" } else { "none" };
    let regalloc = if options.optimize {
        "backtracking"
    } else {
        "single_pass"
    };
    set(&mut flags, "opt_level", opt)?;
    set(&mut flags, "regalloc_algorithm", regalloc)?;
    set(
        &mut flags,
        "enable_verifier",
        if options.verify { "true" } else { "false" },
    )?;
    let builder =
        cranelift_native::builder().map_err(|e| format!("host not supported by Cranelift: {e}"))?;
    builder
        .finish(settings::Flags::new(flags))
        .map_err(|e| format!("cranelift target: {e}"))
}

fn new_module(isa: &OwnedTargetIsa) -> JITModule {
    let mut jb = JITBuilder::with_isa(isa.clone(), default_libcall_names());
    for d in all_libcalls()
        .into_iter()
        .chain(alu::cranelift_libcall_defs())
    {
        jb.symbol(d.name, d.ptr);
    }
    JITModule::new(jb)
}

/// Every Rust function generated code calls explicitly: the ALU's, the emit runtime's, the
/// atomics' and the textures' (Cranelift's own libcalls are `alu::cranelift_libcall_defs`).
fn all_libcalls() -> Vec<alu::LibcallDef> {
    let mut v = alu::libcall_defs();
    v.push(crate::emit::libcall_def());
    v.push(crate::memory::libcall_def());
    v.push(crate::texture::libcall_def());
    v
}

/// Opcodes whose lowering calls a Rust function (transcendentals, `alu` module docs;
/// EMIT/ENDPRIM, `crate::emit`; atomics, `crate::memory`; textures, `crate::texture`).
fn needs_libcalls(program: &Program) -> bool {
    use shaderdiff_model::Opcode::*;
    program.instructions.iter().any(|i| {
        matches!(
            i.opcode,
            EX2 | LG2 | POW | SIN | COS | EXP | LOG | LIT | EMIT | ENDPRIM | DLDEXP
        ) || shaderdiff_model::atomic::AtomicOp::from_opcode(i.opcode).is_some()
            || crate::texture::TEX_OPCODES.contains(&i.opcode)
    })
}

/// Declares every Rust function generated code calls explicitly as an import of the module
/// and in `ctx`'s function, when the program has an opcode that calls one. (Cranelift's own
/// libcalls, such as `fmaf`, are resolved through the JIT's symbol table and are not
/// declared.)
fn declare_libcalls(
    module: &mut JITModule,
    ctx: &mut Context,
    program: &Program,
) -> Result<Libcalls, String> {
    let mut lc = Libcalls::default();
    if !needs_libcalls(program) {
        return Ok(lc);
    }
    for d in all_libcalls() {
        let mut sig = module.make_signature();
        sig.params
            .extend(d.params.iter().map(|&t| AbiParam::new(t)));
        sig.returns
            .extend(d.returns.iter().map(|&t| AbiParam::new(t)));
        let id = module
            .declare_function(d.name, Linkage::Import, &sig)
            .map_err(|e| e.to_string())?;
        lc.refs
            .insert(d.name, module.declare_func_in_func(id, &mut ctx.func));
    }
    Ok(lc)
}

/// Maps a lowering failure to the engine error.
pub(crate) fn lower_error(e: LowerError) -> EngineError {
    match e {
        LowerError::Unsupported {
            opcode,
            pos,
            reason,
        } => EngineError::Unsupported {
            engine: ENGINE.into(),
            opcode,
            pos,
            reason,
        },
        LowerError::Invalid { pos, message } => EngineError::InvalidProgram { pos, message },
    }
}

fn compile_error(message: impl Into<String>) -> EngineError {
    EngineError::Compile {
        engine: ENGINE.into(),
        message: message.into(),
    }
}

/// Compiles `ctx`'s function with `isa` (not the module's) and defines it as `id`: what
/// `JITModule::define_function` does with the module's target.
fn define_with(
    module: &mut JITModule,
    id: FuncId,
    ctx: &mut Context,
    isa: &OwnedTargetIsa,
) -> Result<(), EngineError> {
    let mut plane = ControlPlane::default();
    let align = ctx
        .compile(&**isa, &mut plane)
        .map_err(|e| compile_error(format!("{:?}", e.inner)))?
        .buffer
        .alignment;
    let code = ctx
        .compiled_code()
        .ok_or_else(|| compile_error("no compiled code"))?;
    let relocs: Vec<ModuleReloc> = code
        .buffer
        .relocs()
        .iter()
        .map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id))
        .collect();
    module
        .define_function_bytes(id, u64::from(align), code.code_buffer(), &relocs)
        .map_err(|e| compile_error(format!("{e:?}")))
}

/// Lowers and defines one program in `module`.
fn define(
    module: &mut JITModule,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    isas: &Isas,
    front: &Front,
    n: usize,
) -> Result<(FuncId, Lowered), EngineError> {
    let isa = &isas.main;
    module.clear_context(ctx);
    let libcalls = declare_libcalls(module, ctx, &front.program).map_err(compile_error)?;
    let lowered = lower::build(
        &mut ctx.func,
        fbc,
        &libcalls,
        &front.env(),
        isa.default_call_conv(),
        isa.frontend_config(),
    )
    .map_err(lower_error)?;
    let id = module
        .declare_function(&format!("shader{n}"), Linkage::Local, &ctx.func.signature)
        .map_err(|e| compile_error(e.to_string()))?;
    match &isas.large {
        Some(large) if ctx.func.dfg.num_insts() > SINGLE_PASS_ABOVE => {
            define_with(module, id, ctx, large)?
        }
        _ => module
            .define_function(id, ctx)
            .map_err(|e| compile_error(format!("{e:?}")))?,
    }
    Ok((id, lowered))
}

/// Compiles every program of `batch` into one module. Each result is the program or why it
/// could not be compiled (unsupported, invalid, or a Cranelift error); a failure affects
/// only its own program unless the module cannot be finalized.
pub(crate) fn compile_batch(
    isas: &Isas,
    batch: Vec<Result<Front, EngineError>>,
) -> Vec<Result<JitProgram, EngineError>> {
    let isa = &isas.main;
    let mut module = new_module(isa);
    let mut ctx = module.make_context();
    let mut fbc = FunctionBuilderContext::new();
    let mut defined = Vec::with_capacity(batch.len());
    for (n, front) in batch.into_iter().enumerate() {
        let r = front.and_then(|front| {
            let r = catch_unwind(AssertUnwindSafe(|| {
                define(&mut module, &mut ctx, &mut fbc, isas, &front, n)
            }));
            match r {
                Ok(Ok((id, lowered))) => Ok((id, lowered, front)),
                Ok(Err(e)) => Err(e),
                Err(_) => Err(compile_error("internal error: Cranelift panicked")),
            }
        });
        defined.push(r);
    }
    module.clear_context(&mut ctx);
    if defined.iter().any(|r| r.is_ok()) {
        if let Err(e) = module.finalize_definitions() {
            let msg = format!("finalizing code: {e}");
            // SAFETY: nothing of the module has been handed out or called.
            unsafe { module.free_memory() };
            return defined
                .into_iter()
                .map(|r| r.and(Err(compile_error(msg.clone()))))
                .collect();
        }
    }
    let entries: Vec<_> = defined
        .iter()
        .map(|r| {
            r.as_ref()
                .ok()
                .map(|(id, _, _)| module.get_finalized_function(*id))
        })
        .collect();
    let code = Arc::new(CodeModule {
        module: Mutex::new(Some(module)),
    });
    defined
        .into_iter()
        .zip(entries)
        .map(|(r, ptr)| {
            let (_, lowered, front) = r?;
            let ptr = ptr.ok_or_else(|| compile_error("missing function"))?;
            // SAFETY: `ptr` is the finalized code of a function built by `lower::build`,
            // whose signature is `fn(i64) -> i64` in the ISA's default calling convention
            // (the C convention of the host), which is `EntryFn`.
            let entry = unsafe { std::mem::transmute::<*const u8, EntryFn>(ptr) };
            Ok(JitProgram {
                _code: Arc::clone(&code),
                entry,
                front,
                lowered,
                isa: isa.clone(),
            })
        })
        .collect()
}
