//! Engines that cannot read SHARED memory back (`Engine::observed`, engine `nvidia`'s
//! dispatches): the diff leaves the oracle's report of workgroup 0's shared memory out
//! for them instead of calling its absence a mismatch, and still judges every buffer the
//! program writes from it.

use shaderdiff_backends::interp::InterpEngine;
use shaderdiff_backends::{Capabilities, Compiled, Engine, EngineConfig, EngineError, Observed};
use shaderdiff_compare::diff::{Differ, Outcome};
use shaderdiff_model::{File, Program};
use shaderdiff_oracles::precision::NanPolicy;
use shaderdiff_oracles::{Inputs, Outputs, RegKey};

/// Two workgroups of 4: each invocation ATOMUADDs 1 to its copy's dword 0 and stores
/// what it found at `4 i` of BUFFER[0] (SV[0].x = i).
const SHARED_ADD: &str = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n\
DCL MEMORY[0], SHARED\nDCL BUFFER[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 {0, 1, 4, 0}\n\
ATOMUADD TEMP[0].x, MEMORY[0], IMM[0].xxxx, IMM[0].yyyy\n\
UMUL TEMP[1].x, SV[0].xxxx, IMM[0].zzzz\n\
STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx\nEND\n";

/// Each invocation stores `i` to its own SHARED dword `i & 3`, loads it back and stores
/// it at `4 i` of BUFFER[0]: BUFFER[0] ends as 0, 1, ..., 7.
const SHARED_COPY: &str = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nDCL SV[0], THREAD_ID\n\
DCL MEMORY[0], SHARED\nDCL BUFFER[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 {3, 4, 0, 0}\n\
UMUL TEMP[0].x, SV[0].xxxx, IMM[0].yyyy\n\
AND TEMP[0].y, SV[0].xxxx, IMM[0].xxxx\n\
UMUL TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy\n\
STORE MEMORY[0].x, TEMP[0].yyyy, SV[0].xxxx\n\
LOAD TEMP[1].x, MEMORY[0], TEMP[0].yyyy\n\
STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx\nEND\n";

fn inputs() -> Inputs {
    let mut ins = Inputs {
        invocations: 8,
        ..Inputs::default()
    };
    ins.registers.insert(
        RegKey::new(File::SystemValue, 0),
        (0..8).map(|i| [i, 0, 0, 0]).collect(),
    );
    ins.buffers
        .insert(RegKey::new(File::Memory, 0), vec![0; 16]);
    ins.buffers
        .insert(RegKey::new(File::Buffer, 0), vec![0; 32]);
    ins
}

/// The interpreter seen as a driver sees a dispatch: no SHARED memory, no atomic log;
/// `corrupt` overwrites BUFFER[0]'s first dword.
struct Dispatch {
    inner: InterpEngine,
    observed: Observed,
    corrupt: Option<u32>,
}

impl Engine for Dispatch {
    fn name(&self) -> &'static str {
        "nvidia"
    }
    fn capabilities(&self) -> &Capabilities {
        self.inner.capabilities()
    }
    fn observed(&self) -> Observed {
        self.observed
    }
    fn prepare(&self, program: &Program) -> Result<Box<dyn Compiled>, EngineError> {
        self.inner.prepare(program)
    }
    fn run(&self, compiled: &dyn Compiled, inputs: &Inputs) -> Result<Outputs, EngineError> {
        let mut o = self.inner.run(compiled, inputs)?;
        o.buffers.remove(&RegKey::new(File::Memory, 0));
        o.buffers_undefined.remove(&RegKey::new(File::Memory, 0));
        o.atomics = None;
        if let Some(w) = self.corrupt {
            let b = o.buffers.get_mut(&RegKey::new(File::Buffer, 0)).unwrap();
            b[..4].copy_from_slice(&w.to_le_bytes());
        }
        Ok(o)
    }
}

fn outcome(text: &str, observed: Observed, corrupt: Option<u32>) -> Outcome {
    let engine = Dispatch {
        inner: InterpEngine::new(&EngineConfig::default()),
        observed,
        corrupt,
    };
    let differ = Differ::new(vec![Box::new(engine)], 1_000_000, NanPolicy::Any).unwrap();
    let program = shaderdiff_tgsi::parse(text, "shared.tgsi").unwrap();
    differ.diff(&program, &inputs()).engines[0].outcome.clone()
}

const BLIND: Observed = Observed {
    shared_memory: false,
};

#[test]
fn shared_memory_an_engine_cannot_read_back_is_left_out() {
    for text in [SHARED_ADD, SHARED_COPY] {
        let o = outcome(text, BLIND, None);
        assert!(matches!(o, Outcome::Agree { .. }), "{o:?}");
    }
}

#[test]
fn an_engine_that_claims_to_observe_shared_memory_must_report_it() {
    let Outcome::Mismatch(ms) = outcome(SHARED_COPY, Observed::ALL, None) else {
        panic!("a missing SHARED resource is a mismatch for an engine that observes it");
    };
    assert!(
        ms.iter()
            .any(|m| m.register == "MEMORY[0]" && m.channel == "size"),
        "{ms:?}"
    );
}

#[test]
fn buffers_written_from_shared_memory_are_still_judged() {
    // Invocation 0 stored 0 (its own id, through SHARED dword 0); 7 is wrong.
    let Outcome::Mismatch(ms) = outcome(SHARED_COPY, BLIND, Some(7)) else {
        panic!("a wrong BUFFER[0] word is a mismatch");
    };
    assert!(
        ms.iter()
            .any(|m| m.register == "BUFFER[0]" && m.channel == "0x0"),
        "{ms:?}"
    );
}
