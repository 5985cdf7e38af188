//! Inputs for the resources of a random NV program ([`Resources`]): the global memory
//! region, the CBUFFER and STORAGE buffers and the textures, keyed as the harness expects
//! them (INTERFACE.md "The inputs file": `global` regions by base address, `buffers` and
//! `textures` by the IR register the binding's NV name maps to).
//!
//! Every byte and texel channel is a [`channel_word`] (special words and random bits),
//! drawn from the program's inputs stream after its registers. The harness builds the
//! global window from the region (`shaderdiff::nv_runtime::prepare`), as it does for an
//! inputs file.

use shaderdiff_model::texture::Texture;
use shaderdiff_model::{Inputs, RegKey};
use shaderdiff_nv::Lowered;

use super::features::{Resources, CBUFFER_BYTES, GLOBAL_HEAD_BYTES, STORAGE_BYTES};
use crate::choices::Choices;
use crate::inputs::channel_word;

/// `n` bytes of channel words, little-endian.
fn words(c: &mut Choices, n: usize) -> Vec<u8> {
    (0..n.div_ceil(4))
        .flat_map(|_| channel_word(c).to_le_bytes())
        .take(n)
        .collect()
}

/// The IR register a binding name maps to in `l`.
fn key(l: &Lowered, name: &str) -> Option<RegKey> {
    l.names
        .lookup(l.stage, name)
        .map(|(f, i)| RegKey::new(f, i))
}

/// Adds what `res` asks for to `inputs` (module docs). The global region holds
/// [`GLOBAL_HEAD_BYTES`] plus one result slot per invocation (`res.global`'s slot size, 0
/// outside compute programs); the STORAGE buffer [`STORAGE_BYTES`] plus one result slot
/// per invocation (`res.storage_slot`, 0 outside compute programs with STORAGE results).
pub fn add_resources(inputs: &mut Inputs, l: &Lowered, res: &Resources, c: &mut Choices) {
    if let Some((base, slot)) = res.global {
        let n = GLOBAL_HEAD_BYTES + slot * inputs.invocations;
        inputs.global.insert(base, words(c, n));
    }
    for (binding, bytes) in [
        (
            res.cbuffer.map(|b| format!("program.buffer[{b}]")),
            CBUFFER_BYTES,
        ),
        (
            res.storage.map(|b| format!("program.storage[{b}]")),
            STORAGE_BYTES + res.storage_slot * inputs.invocations,
        ),
    ] {
        if let Some(k) = binding.and_then(|b| key(l, &b)) {
            inputs.buffers.insert(k, words(c, bytes));
        }
    }
    for t in &res.textures {
        let Some(k) = key(l, &format!("texture[{}]", t.unit)) else {
            continue;
        };
        let mut tex = Texture::filled(t.target, t.format, t.size, t.levels, t.wrap, |_, _| [0; 4]);
        for texel in tex.levels.iter_mut().flatten() {
            *texel = [0; 4].map(|_| channel_word(c));
        }
        inputs.textures.insert(k, tex);
    }
}
