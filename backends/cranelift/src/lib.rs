//! shaderdiff's `jit` engine: TGSI programs lowered to Cranelift IR and run as native code.

pub mod alu;
