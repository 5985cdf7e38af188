//! Compute programs (`!!NVcp5.0`, NV_compute_program5) on the driver: the program text is
//! loaded unchanged for `GL_COMPUTE_PROGRAM_NV`, every `program.storage[a]` buffer of the
//! model is uploaded to its own buffer object bound at shader storage binding point `a`
//! (NV_shader_storage_buffer_object §2.X.3.7: "shader storage buffer a"), the invocations
//! are dispatched as `glDispatchCompute(groups, 1, 1)`, and after a memory barrier every
//! storage buffer is read back into the run's `buffers` under the model's `BUFFER[n]`,
//! where the memory comparator (atomic-aware, `compare/src/memory.rs`: an engine without
//! an atomic log is judged against the final values every serial order allows) judges it.
//!
//! What is pure here, and unit-tested without a GPU: the plan (which buffers, which
//! binding points, which constants, what is refused), the invocation → work group mapping
//! ([`dispatch_groups`], [`system_value`]: the inputs' `invocation.*` values must be the
//! ones the dispatch produces, NV_compute_program5 Table X.1), and the upload / read-back
//! byte layout ([`upload_bytes`], [`read_back`]).
//!
//! Shared memory (`program.sharedmem`: LDS, STS, ATOMS, BAR) runs in the driver's work
//! groups; its final contents cannot be read back after a dispatch, so the engine says so
//! (`Engine::observed`: no shared memory) and the comparison leaves the oracle's report of
//! work group 0's shared memory out, judging what the program stores from it.
//!
//! Refused (unsupported, with the reason): global memory (`LOAD` / `STORE` / `ATOM` on
//! addresses: NV_shader_buffer_load addresses are the driver's, not the model's),
//! parameter buffers (`program.buffer[a]`), images and textures, inputs whose
//! `invocation.*` values differ from the dispatch's, and invocation counts that are not
//! whole work groups.
// Sizes, offsets and counts here come from user input (declarations, inputs files): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;

use shaderdiff_engine::{EngineError, Inputs};
use shaderdiff_gl::ParamKind;
use shaderdiff_model::{File, PropertyName, RegKey, Vec4};
use shaderdiff_nv::{self as nv, NvOrigin, NvStage};

use crate::plan::unsupported;

/// How a compute program runs on the driver (module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputePlan {
    /// The text loaded for `GL_COMPUTE_PROGRAM_NV` (the program's canonical print).
    pub text: String,
    /// `GROUP_SIZE x y z` (missing sizes are 1, NV_compute_program5 §2.X.3.5).
    pub group: [u32; 3],
    /// Storage buffers: (IR `BUFFER` index, shader storage binding point).
    pub storage: Vec<(u32, u32)>,
    /// Constants: (IR `CONST` index, kind, parameter number).
    pub params: Vec<(u32, ParamKind, u32)>,
    /// System values the program reads: (IR `SV` index, `invocation.*` binding name).
    pub system_values: Vec<(u32, String)>,
}

/// `prefix[n]` → `Some(n)`.
fn indexed(name: &str, prefix: &str) -> Option<u32> {
    name.strip_prefix(prefix)?
        .strip_prefix('[')?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// The NameMap name of compute shared memory (NV_compute_program5 Table X.3).
const SHARED: &str = "program.sharedmem";
/// The NameMap name of the global window's base-address parameter.
const GLOBAL_BASE: &str = "global.base";

/// Why a program with global memory is refused.
fn global(name: &str) -> EngineError {
    unsupported(format!(
        "{name} memory (global addresses are the driver's, not the model's)"
    ))
}

/// The compute bindings of NV_compute_program5 Table X.1.
const INVOCATION: &[&str] = &[
    "invocation.localid",
    "invocation.globalid",
    "invocation.groupid",
    "invocation.groupcount",
    "invocation.groupsize",
    "invocation.localindex",
];

/// Each register the name map names, once, by its binding (`program.local[0]`, not the
/// `PARAM` variable `p0` that also names it: [`nv::NameMap::name_of`]).
fn bindings(o: &NvOrigin) -> Vec<(String, File, u32)> {
    let mut regs: Vec<(File, u32)> = o.names.entries.iter().map(|&(_, f, i)| (f, i)).collect();
    regs.sort_unstable();
    regs.dedup();
    regs.into_iter()
        .filter_map(|(f, i)| Some((o.names.name_of(f, i)?.to_string(), f, i)))
        .collect()
}

/// The plan of compute program `o`, or why the engine does not run it (module docs).
///
/// # Errors
/// [`EngineError::Unsupported`] naming what is refused.
pub fn compute_plan(o: &NvOrigin) -> Result<ComputePlan, EngineError> {
    if o.stage != NvStage::Compute {
        return Err(unsupported(format!(
            "{:?} programs are not compute programs",
            o.stage
        )));
    }
    let p = &o.lowered;
    let size = |n| p.property(n).unwrap_or(1).max(1);
    let group = [
        size(PropertyName::CsFixedBlockWidth),
        size(PropertyName::CsFixedBlockHeight),
        size(PropertyName::CsFixedBlockDepth),
    ];
    let mut plan = ComputePlan {
        text: nv::print(&o.ast),
        group,
        storage: Vec::new(),
        params: Vec::new(),
        system_values: Vec::new(),
    };
    for (name, file, i) in bindings(o) {
        match file {
            File::Buffer => match indexed(&name, "program.storage") {
                Some(a) => plan.storage.push((i, a)),
                None => {
                    return Err(unsupported(format!(
                        "{name} (parameter buffers are not bound by the engine)"
                    )))
                }
            },
            // Shared memory lives in the work group on the driver as in the model; the
            // engine cannot read it back, so its final contents are not compared
            // (`Engine::observed`), only what the program stores from it.
            File::Memory if name == SHARED => {}
            // The global window and its base address (`shaderdiff_nv` lower_mem.rs).
            File::Memory => return Err(global(&name)),
            File::Const if name == GLOBAL_BASE => return Err(global("global")),
            File::Const => {
                let kind = if let Some(n) = indexed(&name, "program.local") {
                    (ParamKind::Local, n)
                } else if let Some(n) = indexed(&name, "program.env") {
                    (ParamKind::Env, n)
                } else {
                    return Err(unsupported(format!(
                        "parameter {name} (only program.local[n] and program.env[n] are set per run)"
                    )));
                };
                plan.params.push((i, kind.0, kind.1));
            }
            File::SystemValue if INVOCATION.contains(&name.as_str()) => {
                plan.system_values.push((i, name));
            }
            File::SystemValue | File::Input | File::Output => {
                return Err(unsupported(format!(
                    "{name} (compute programs have only the invocation.* attributes)"
                )))
            }
            _ => {}
        }
    }
    plan.storage.sort_unstable();
    plan.storage.dedup();
    plan.params.sort_unstable_by_key(|p| p.0);
    plan.params.dedup();
    plan.system_values.sort();
    plan.system_values.dedup();
    Ok(plan)
}

/// Invocations in one work group of size `group` (each size at least 1). A volume above
/// `u64::MAX` (`GROUP_SIZE` takes three 32-bit sizes) saturates: no run has that many
/// invocations, so it is never whole work groups either way.
fn volume(group: [u32; 3]) -> u64 {
    group
        .iter()
        .fold(1u64, |v, &g| v.saturating_mul(u64::from(g)))
}

/// The work groups `glDispatchCompute(groups, 1, 1)` needs for `invocations` invocations:
/// invocation `i` is the one with flattened local index `i % volume` in group
/// `i / volume`, as the oracle numbers them (`oracle/src/interp/mod.rs`: invocation `i`
/// is in workgroup `i / size`).
///
/// # Errors
/// No invocation, or a count that is not whole work groups (the driver runs every
/// invocation of a group).
pub fn dispatch_groups(group: [u32; 3], invocations: usize) -> Result<u32, String> {
    let v = volume(group);
    let n = invocations as u64;
    if n == 0 || n.checked_rem(v) != Some(0) {
        return Err(format!(
            "{invocations} invocations are not whole work groups of {v} (GROUP_SIZE {} {} {})",
            group[0], group[1], group[2]
        ));
    }
    // `v` divides `n`, so it is not 0.
    let groups = n.checked_div(v).unwrap_or(0);
    u32::try_from(groups).map_err(|_| format!("{groups} work groups"))
}

/// The value the dispatch gives binding `name` in invocation `i` (`groups` work groups
/// along x), and the channels the specification defines (bit c: channel c): Table X.1 of
/// NV_compute_program5 ("w" is undefined everywhere; `invocation.localindex` defines "x"
/// only). `None` for another name.
pub fn system_value(name: &str, group: [u32; 3], groups: u32, i: usize) -> Option<(Vec4, u8)> {
    // Sizes are at least 1 (`compute_plan`); a zero one gives 0 instead of a panic.
    let v = volume(group);
    let i = i as u64;
    let (g, local) = (
        i.checked_div(v).unwrap_or(0) as u32,
        i.checked_rem(v).unwrap_or(0) as u32,
    );
    let [x, y, _] = group;
    let lid = [
        local.checked_rem(x).unwrap_or(0),
        local
            .checked_div(x)
            .and_then(|q| q.checked_rem(y))
            .unwrap_or(0),
        local.checked_div(x.saturating_mul(y)).unwrap_or(0),
    ];
    // Below the run's invocation count (`g < groups`, `lid[0] < x`), so a u32.
    let global_x = g.saturating_mul(x).saturating_add(lid[0]);
    let xyz = |a: [u32; 3]| [a[0], a[1], a[2], 0];
    Some(match name {
        "invocation.localid" => (xyz(lid), 0b0111),
        "invocation.groupid" => ([g, 0, 0, 0], 0b0111),
        "invocation.globalid" => (xyz([global_x, lid[1], lid[2]]), 0b0111),
        "invocation.groupcount" => ([groups, 1, 1, 0], 0b0111),
        "invocation.groupsize" => (xyz(group), 0b0111),
        "invocation.localindex" => ([local, 0, 0, 0], 0b0001),
        _ => return None,
    })
}

/// Checks that `inputs` give every system value of `plan` the dispatch's value (the
/// driver computes them itself; inputs that say otherwise describe another run).
///
/// # Errors
/// The first invocation and binding that differ.
pub fn check_system_values(plan: &ComputePlan, inputs: &Inputs, groups: u32) -> Result<(), String> {
    for (sv, name) in &plan.system_values {
        let key = RegKey::new(File::SystemValue, *sv);
        if !inputs.registers.contains_key(&key) {
            continue;
        }
        for i in 0..inputs.invocations {
            let Some((want, mask)) = system_value(name, plan.group, groups, i) else {
                continue;
            };
            let got = inputs.register(&key, i);
            if (0..4).any(|c| mask & (1 << c) != 0 && got[c] != want[c]) {
                return Err(format!(
                    "the inputs give {name} of invocation {i} as {got:?}; the dispatch gives {want:?}"
                ));
            }
        }
    }
    Ok(())
}

/// The bytes uploaded for a model buffer: its contents padded with zeros to whole dwords
/// (storage accesses are dword-sized) and at least one dword (`glBufferData` with size 0
/// leaves nothing to bind).
pub fn upload_bytes(model: &[u8]) -> Vec<u8> {
    let mut b = model.to_vec();
    // `div_ceil(4) * 4` exceeds the length by at most 3 bytes: it saturates only for a
    // buffer within 3 bytes of `usize::MAX`, which cannot be allocated.
    b.resize(model.len().div_ceil(4).max(1).saturating_mul(4), 0);
    b
}

/// The model's view of a buffer read back from the driver: its first `model_len` bytes
/// (the padding [`upload_bytes`] added is not part of the model's buffer).
pub fn read_back(driver: &[u8], model_len: usize) -> Vec<u8> {
    driver[..model_len.min(driver.len())].to_vec()
}

/// The storage buffers of `plan` as uploaded for `inputs`: (binding point, IR `BUFFER`
/// key, model length, bytes to upload).
pub fn uploads(plan: &ComputePlan, inputs: &Inputs) -> Vec<(u32, RegKey, usize, Vec<u8>)> {
    plan.storage
        .iter()
        .map(|&(b, binding)| {
            let key = RegKey::new(File::Buffer, b);
            let model = inputs.buffers.get(&key).map(Vec::as_slice).unwrap_or(&[]);
            (binding, key, model.len(), upload_bytes(model))
        })
        .collect()
}

/// Final buffers keyed as the model keys them, from the read-back bytes of each upload.
pub fn final_buffers(
    read: impl IntoIterator<Item = (RegKey, usize, Vec<u8>)>,
) -> BTreeMap<RegKey, Vec<u8>> {
    read.into_iter()
        .map(|(k, len, bytes)| (k, read_back(&bytes, len)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::tests::origin;

    #[test]
    fn table_x1_values_of_a_dispatch_along_x() {
        // NV_compute_program5 Table X.1 with GROUP_SIZE 8 4 (32 invocations a group) and
        // 3 groups along x: invocation 42 is in group 42 / 32 = 1 at local index 10, so
        // localid (10 % 8, 10 / 8) = (2, 1), globalid (1 * 8 + 2, 1), localindex
        // 2 + 1 * 8 = 10; groupcount (3, 1, 1), groupsize (8, 4, 1).
        let g = [8, 4, 1];
        assert_eq!(
            system_value("invocation.localid", g, 3, 42),
            Some(([2, 1, 0, 0], 7))
        );
        assert_eq!(
            system_value("invocation.groupid", g, 3, 42),
            Some(([1, 0, 0, 0], 7))
        );
        assert_eq!(
            system_value("invocation.globalid", g, 3, 42),
            Some(([10, 1, 0, 0], 7))
        );
        assert_eq!(
            system_value("invocation.localindex", g, 3, 42),
            Some(([10, 0, 0, 0], 1))
        );
        assert_eq!(
            system_value("invocation.groupcount", g, 3, 42),
            Some(([3, 1, 1, 0], 7))
        );
        assert_eq!(
            system_value("invocation.groupsize", g, 3, 42),
            Some(([8, 4, 1, 0], 7))
        );
        assert_eq!(system_value("vertex.attrib[0]", g, 3, 42), None);
    }

    #[test]
    fn dispatches_are_whole_groups() {
        assert_eq!(dispatch_groups([4, 1, 1], 64), Ok(16));
        assert_eq!(dispatch_groups([2, 2, 2], 8), Ok(1));
        assert!(dispatch_groups([4, 1, 1], 6).is_err());
        assert!(dispatch_groups([1, 1, 1], 0).is_err());
    }

    #[test]
    fn group_sizes_past_64_bits_are_refused_not_wrapped() {
        // GROUP_SIZE takes three 32-bit sizes: (2^32 - 1)^3 does not fit 64 bits, and no
        // run (at most 2^24 invocations, `--max-invocations`) fills such a group.
        let huge = [u32::MAX; 3];
        let e = dispatch_groups(huge, 1 << 20).unwrap_err();
        assert!(e.contains("not whole work groups"), "{e}");
        // Invocation 5 of that group: group 0, local index 5 = localid (5, 0, 0).
        assert_eq!(
            system_value("invocation.localid", huge, 1, 5),
            Some(([5, 0, 0, 0], 7))
        );
        // 2^33 groups of one invocation do not fit glDispatchCompute's 32-bit count.
        let e = dispatch_groups([1, 1, 1], 1 << 33).unwrap_err();
        assert_eq!(e, "8589934592 work groups");
    }

    #[test]
    fn buffers_are_padded_to_dwords_and_cut_back() {
        assert_eq!(upload_bytes(&[]), [0, 0, 0, 0]);
        assert_eq!(upload_bytes(&[1, 2, 3, 4, 5]), [1, 2, 3, 4, 5, 0, 0, 0]);
        assert_eq!(read_back(&[9, 8, 7, 6, 5, 0, 0, 0], 5), [9, 8, 7, 6, 5]);
        assert_eq!(read_back(&[9, 8, 7, 6], 0), Vec::<u8>::new());
    }

    const STORAGE: &str = "!!NVcp5.0\nGROUP_SIZE 4;\nSTORAGE sb[] = { program.storage[3] };\nTEMP t;\nMUL.U t.x, invocation.globalid.x, 4;\nSTB.U32 invocation.localid.x, sb[t.x];\nEND\n";

    #[test]
    fn variables_are_planned_by_their_bindings() {
        // `p0`, `sb` and `sm` name the registers of program.local[2], program.storage[1]
        // and program.sharedmem: each is planned once, by its binding.
        let text = "!!NVcp5.0\nGROUP_SIZE 2;\nSHARED_MEMORY 16;\nPARAM p0 = program.local[2];\nSTORAGE sb[] = { program.storage[1] };\nSHARED sm[] = { program.sharedmem };\nTEMP t;\nMOV.U t, p0;\nSTS.U32 t.x, sm[0];\nLDS.U32 t.y, sm[0];\nSTB.U32 t.y, sb[0];\nEND\n";
        let p = compute_plan(&origin(text)).unwrap();
        assert_eq!(p.storage.len(), 1);
        assert_eq!(p.storage[0].1, 1);
        assert_eq!(p.params.len(), 1);
        assert_eq!((p.params[0].1, p.params[0].2), (ParamKind::Local, 2));
    }

    #[test]
    fn storage_programs_bind_their_buffers_at_their_binding_points() {
        let o = origin(STORAGE);
        let p = compute_plan(&o).unwrap();
        assert_eq!(p.group, [4, 1, 1]);
        assert_eq!(p.storage.len(), 1);
        assert_eq!(p.storage[0].1, 3, "program.storage[3] is binding point 3");
        let names: Vec<&str> = p.system_values.iter().map(|s| s.1.as_str()).collect();
        assert_eq!(names, ["invocation.globalid", "invocation.localid"]);
        let key = RegKey::new(File::Buffer, p.storage[0].0);
        let inputs = Inputs {
            invocations: 8,
            buffers: BTreeMap::from([(key, vec![0xAA; 30])]),
            ..Inputs::default()
        };
        let up = uploads(&p, &inputs);
        assert_eq!(up.len(), 1);
        assert_eq!((up[0].0, up[0].1, up[0].2, up[0].3.len()), (3, key, 30, 32));
        let fin = final_buffers([(key, 30, vec![1; 32])]);
        assert_eq!(fin[&key], vec![1; 30]);
    }

    #[test]
    fn inputs_must_give_the_dispatch_system_values() {
        let o = origin(STORAGE);
        let p = compute_plan(&o).unwrap();
        let (sv, _) = p
            .system_values
            .iter()
            .find(|s| s.1 == "invocation.localid")
            .unwrap()
            .clone();
        let key = RegKey::new(File::SystemValue, sv);
        let mut inputs = Inputs {
            invocations: 8,
            registers: BTreeMap::from([(key, (0..8).map(|i| [i % 4, 0, 0, 77]).collect())]),
            ..Inputs::default()
        };
        // "w" is undefined (Table X.1): 77 there is no conflict.
        assert_eq!(check_system_values(&p, &inputs, 2), Ok(()));
        inputs
            .registers
            .insert(key, (0..8).map(|i| [i, 0, 0, 0]).collect());
        let e = check_system_values(&p, &inputs, 2).unwrap_err();
        assert!(e.contains("invocation 4"), "{e}");
    }

    #[test]
    fn global_memory_is_refused_and_shared_memory_is_not_bound() {
        let global =
            "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP a;\nMOV.U a.x, 4096;\nSTORE.U32 a.x, a.x;\nEND\n";
        let e = compute_plan(&origin(global)).unwrap_err().to_string();
        assert!(e.contains("global"), "{e}");
        // Shared memory is the work group's own: nothing to upload or bind, the storage
        // buffer the program copies it to is.
        let shared = "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED_MEMORY 16;\nSHARED s[] = { program.sharedmem };\nSTORAGE sb[] = { program.storage[0] };\nTEMP a;\nMOV.U a, 7;\nSTS.U32 a.x, s[0];\nLDS.U32 a.y, s[0];\nSTB.U32 a.y, sb[0];\nEND\n";
        let p = compute_plan(&origin(shared)).unwrap();
        assert_eq!(p.storage.len(), 1);
        assert_eq!(p.storage[0].1, 0);
    }
}
