//! The run-time parts of a lowered NV program that the inputs file does not spell in IR
//! terms: NV global memory (INTERFACE.md `"global"`: regions keyed by base address) and
//! the compute attribute bindings (`invocation.localid` ...).
//!
//! * **Global memory.** The lowering reads global memory through one window resource and
//!   its base-address parameter (`shaderdiff_nv` `lower_mem.rs`; the NameMap names
//!   them `global` and `global.base`). [`prepare`] builds the window from the inputs'
//!   regions: it starts at the lowest base address and ends at the end of the highest
//!   region, rounded up to 4 bytes; gaps between regions are zero. [`regions`] cuts the
//!   final window back into the input regions for output.
//! * **Images** (EXT_shader_image_load_store; `lower_image.rs`). Image unit `image[u]` is
//!   the buffer `image[u]` (texels row-major, x fastest) with the shape parameter
//!   `image[u].size` = (W, H, D, B), both given by the inputs file. [`prepare`] checks the
//!   shape (B one of 1, 2, 4, 8, 16; the bytes W·H·D·B long, zero when not given) and pads
//!   the bytes to a multiple of 4 (8- and 16-bit texels are read as dwords); [`regions`]
//!   and [`visible`] cut the padding off again.
//! * **Compute bindings** (NV_compute_program5 Table X.1). Unless the inputs file sets them,
//!   invocation `i` of a dispatch of `n` invocations with `GROUP_SIZE (x, y, z)` (`s` =
//!   x·y·z invocations per group, groups laid along x) gets: `localindex = i mod s`,
//!   `localid = (l mod x, (l / x) mod y, l / (x·y))` for `l = localindex`, `groupid =
//!   (i / s, 0, 0)`, `groupcount = (ceil(n / s), 1, 1)`, `groupsize = (x, y, z)` and
//!   `globalid = groupid · groupsize + localid`, the `w` components 0 (the spec leaves them
//!   undefined). This is the grouping the engines use for workgroups (invocation `i` is in
//!   workgroup `i / s`).
// Numbers here come from user input (program text, inputs files, machine code): no
// arithmetic may wrap or panic unnoticed.
#![warn(clippy::arithmetic_side_effects)]

use shaderdiff_model::{File, Program, PropertyName};
use shaderdiff_nv::NameMap;
use shaderdiff_oracles::atomic::Space;
use shaderdiff_oracles::{Inputs, Outputs, RegKey};

/// NameMap names of the global memory window and its base parameter (see
/// `shaderdiff_nv` `lower_mem.rs`).
const WINDOW: &str = "global";
const BASE: &str = "global.base";
/// NameMap name of the shared memory window.
const SHARED: &str = "program.sharedmem";

fn entry(names: &NameMap, name: &str, file: File) -> Option<RegKey> {
    names
        .entries
        .iter()
        .find(|(n, f, _)| n == name && *f == file)
        .map(|&(_, f, i)| RegKey::new(f, i))
}

/// The window's base address and bytes for the regions of `inputs.global`.
fn window(inputs: &Inputs) -> (u64, Vec<u8>) {
    let Some(base) = inputs.global.keys().next().copied() else {
        return (0, Vec::new());
    };
    let end = inputs
        .global
        .iter()
        .map(|(a, b)| a.saturating_add(b.len() as u64))
        .max()
        .unwrap_or(base);
    // `prepare` checked the span against --max-buffer, so these fit (saturating keeps
    // them defined; an out-of-range region is skipped rather than sliced).
    let len = end.saturating_sub(base).div_ceil(4).saturating_mul(4);
    let mut bytes = vec![0u8; usize::try_from(len).unwrap_or(0)];
    for (a, b) in &inputs.global {
        let at = usize::try_from(a.saturating_sub(base)).unwrap_or(usize::MAX);
        if let Some(dst) = bytes.get_mut(at..at.saturating_add(b.len())) {
            dst.copy_from_slice(b);
        }
    }
    (base, bytes)
}

/// The image units of a lowered program: (buffer, shape parameter, unit name).
fn images(names: &NameMap) -> Vec<(RegKey, RegKey, String)> {
    names
        .entries
        .iter()
        .filter(|(_, f, _)| *f == File::Buffer)
        .filter_map(|(n, _, i)| {
            let u: u32 = n.strip_prefix("image[")?.strip_suffix(']')?.parse().ok()?;
            let size = entry(names, &shaderdiff_nv::image_size_name(u), File::Const)?;
            Some((RegKey::new(File::Buffer, *i), size, n.clone()))
        })
        .collect()
}

/// The texel bytes W·H·D·B of an image shape.
fn image_len(size: [u32; 4]) -> u64 {
    size.iter().map(|&v| v as u64).product()
}

/// The largest image [`prepare`] accepts by default (bytes; `--max-buffer`,
/// [`crate::limits`]).
pub const MAX_IMAGE: u64 = crate::limits::DEFAULT_BUFFER_BYTES;

/// Checks and pads the image buffers of `inputs` (module docs).
fn prepare_images(names: &NameMap, inputs: &mut Inputs) -> Result<(), String> {
    for (buf, size_key, name) in images(names) {
        let Some(&size) = inputs.constants.get(&size_key) else {
            if inputs.buffers.get(&buf).is_some_and(|b| !b.is_empty()) {
                return Err(format!(
                    "{name} needs its shape: constants \"{name}.size\": [\"u:W\", \"u:H\", \"u:D\", \"u:B\"]"
                ));
            }
            continue;
        };
        if ![1, 2, 4, 8, 16].contains(&size[3]) {
            return Err(format!(
                "{name}.size: bytes per texel must be 1, 2, 4, 8 or 16 (Table X.3), found {}",
                size[3]
            ));
        }
        let len = image_len(size);
        let limit = crate::limits::get().max_buffer;
        if len > limit {
            return Err(format!(
                "{name}: {}",
                crate::limits::exceeded("the image's size (bytes)", len, limit, "--max-buffer")
            ));
        }
        let bytes = inputs
            .buffers
            .entry(buf)
            .or_insert_with(|| vec![0; len as usize]);
        if bytes.len() as u64 != len {
            return Err(format!(
                "{name}: {} bytes given, its size {}x{}x{} of {}-byte texels needs {len}",
                bytes.len(),
                size[0],
                size[1],
                size[2],
                size[3]
            ));
        }
        bytes.resize(bytes.len().div_ceil(4).saturating_mul(4), 0);
    }
    Ok(())
}

/// The largest window [`prepare`] builds by default (bytes; `--max-buffer`): regions
/// farther apart are refused.
pub const MAX_WINDOW: u64 = crate::limits::DEFAULT_BUFFER_BYTES;

/// Completes `inputs` for a lowered NV program (module docs): the global memory window and
/// unset compute attribute bindings.
///
/// Errors: global regions spanning more than `--max-buffer` bytes ([`MAX_WINDOW`] by
/// default), or overlapping; an image over `--max-buffer`; `SHARED_MEMORY` over
/// `--max-shared-memory`.
pub fn prepare(program: &Program, names: &NameMap, inputs: &mut Inputs) -> Result<(), String> {
    if let (Some(mem), Some(base_key)) = (
        entry(names, WINDOW, File::Memory),
        entry(names, BASE, File::Const),
    ) {
        let mut end = 0u64;
        for (a, b) in &inputs.global {
            if *a < end {
                return Err(format!(
                    "global region {a:#x} overlaps the region before it"
                ));
            }
            end = a.saturating_add(b.len() as u64);
        }
        if let Some(first) = inputs.global.keys().next() {
            let limit = crate::limits::get().max_buffer;
            let span = end.saturating_sub(*first);
            if span > limit {
                return Err(format!(
                    "global regions span {span:#x} bytes, more than the limit {limit:#x} (raise it with --max-buffer)"
                ));
            }
        }
        let (base, bytes) = window(inputs);
        inputs.buffers.insert(mem, bytes);
        inputs
            .constants
            .insert(base_key, [base as u32, (base >> 32) as u32, 0, 0]);
    }
    prepare_images(names, inputs)?;
    // Shared memory (LDS / STS / ATOMS): SHARED_MEMORY bytes, zero like all memory the
    // inputs do not set (INTERFACE.md).
    if let (Some(n), Some(key)) = (names.shared_memory, entry(names, SHARED, File::Memory)) {
        let limit = crate::limits::get().max_shared_memory;
        if u64::from(n) > limit {
            return Err(crate::limits::exceeded(
                "SHARED_MEMORY (bytes)",
                n.into(),
                limit,
                "--max-shared-memory",
            ));
        }
        inputs
            .buffers
            .entry(key)
            .or_insert_with(|| vec![0; n as usize]);
    }
    let size = [
        PropertyName::CsFixedBlockWidth,
        PropertyName::CsFixedBlockHeight,
        PropertyName::CsFixedBlockDepth,
    ]
    .map(|p| program.property(p).unwrap_or(1).max(1));
    // GROUP_SIZE is the program's: reckoned in u64 (65536^3 overflows u32), and a group
    // larger than the dispatch is the dispatch.
    let per_group = size
        .iter()
        .fold(1u64, |a, &b| a.saturating_mul(u64::from(b)))
        .clamp(1, inputs.invocations.max(1) as u64) as usize;
    let n = inputs.invocations;
    let groups = n.div_ceil(per_group) as u32;
    for (name, file, index) in &names.entries {
        let key = RegKey::new(*file, *index);
        if *file != File::SystemValue || inputs.registers.contains_key(&key) {
            continue;
        }
        let values = (0..n)
            .map(|i| {
                // The divisors are at least 1 (`max(1)`, `clamp(1, ..)` above): the
                // checked forms never give their `0` fallback.
                let l = i.checked_rem(per_group).unwrap_or(0) as u32;
                let g = i.checked_div(per_group).unwrap_or(0) as u32;
                let plane = u64::from(size[0]).saturating_mul(u64::from(size[1]));
                let local = [
                    l.checked_rem(size[0]).unwrap_or(0),
                    l.checked_div(size[0])
                        .and_then(|q| q.checked_rem(size[1]))
                        .unwrap_or(0),
                    u64::from(l).checked_div(plane).unwrap_or(0) as u32,
                ];
                match name.as_str() {
                    "invocation.localid" => [local[0], local[1], local[2], 0],
                    "invocation.groupid" => [g, 0, 0, 0],
                    "invocation.groupcount" => [groups, 1, 1, 0],
                    "invocation.groupsize" => [size[0], size[1], size[2], 0],
                    // 32-bit registers: a global id past 2^32 wraps as the hardware's would.
                    "invocation.globalid" => [
                        g.wrapping_mul(size[0]).wrapping_add(local[0]),
                        local[1],
                        local[2],
                        0,
                    ],
                    "invocation.localindex" => [l, 0, 0, 0],
                    _ => [0; 4],
                }
            })
            .collect();
        inputs.registers.insert(key, values);
    }
    Ok(())
}

/// `inputs` without what [`prepare`] derives (the global and shared memory windows and the
/// window's base parameter), for writing an NV program's inputs file: the `global` regions
/// and NV-named registers stay, so the file replays through [`prepare`].
pub fn visible(names: &NameMap, inputs: &Inputs) -> Inputs {
    let mut out = inputs.clone();
    for (window, file) in [
        (WINDOW, File::Memory),
        (SHARED, File::Memory),
        (BASE, File::Const),
    ] {
        if let Some(k) = entry(names, window, file) {
            out.buffers.remove(&k);
            out.constants.remove(&k);
        }
    }
    for (buf, size, _) in images(names) {
        if let (Some(b), Some(s)) = (out.buffers.get_mut(&buf), inputs.constants.get(&size)) {
            b.truncate(image_len(*s) as usize);
        }
    }
    out
}

/// Moves the final global memory window of `outputs` back into the input regions
/// (`outputs.global`, INTERFACE.md `run --format json`), for a program [`prepare`]d with
/// `inputs`, and its atomics to absolute addresses ([`Space::Global`]). The window's
/// undefined bytes stay under its IR name (offsets from the lowest region's base).
pub fn regions(names: &NameMap, inputs: &Inputs, outputs: &mut Outputs) {
    // Images lose the padding `prepare` added.
    for (buf, size, _) in images(names) {
        if let Some(s) = inputs.constants.get(&size) {
            let n = image_len(*s) as usize;
            if let Some(b) = outputs.buffers.get_mut(&buf) {
                b.truncate(n);
            }
            if let Some(u) = outputs.buffers_undefined.get_mut(&buf) {
                u.truncate(n);
            }
        }
    }
    let Some(mem) = entry(names, WINDOW, File::Memory) else {
        return;
    };
    let base = inputs.global.keys().next().copied().unwrap_or(0);
    // Atomics on the window are at absolute addresses.
    for r in outputs.atomics.iter_mut().flatten() {
        if r.location.space == Space::Resource(mem) {
            r.location.space = Space::Global;
            r.location.offset = r.location.offset.wrapping_add(base);
        }
    }
    let Some(bytes) = outputs.buffers.remove(&mem) else {
        return;
    };
    for (a, b) in &inputs.global {
        let at = usize::try_from(a.saturating_sub(base)).unwrap_or(usize::MAX);
        if let Some(slice) = bytes.get(at..at.saturating_add(b.len())) {
            outputs.global.insert(*a, slice.to_vec());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_with_window() -> NameMap {
        NameMap {
            shared_memory: None,
            entries: vec![
                ("global".into(), File::Memory, 0),
                ("global.base".into(), File::Const, 1),
                ("invocation.localid".into(), File::SystemValue, 0),
                ("invocation.groupid".into(), File::SystemValue, 1),
            ],
        }
    }

    #[test]
    fn window_spans_the_regions_and_maps_back() {
        let mut inputs = Inputs {
            invocations: 2,
            ..Inputs::default()
        };
        inputs.global.insert(0x10000, vec![1, 2, 3, 4]);
        inputs.global.insert(0x10006, vec![9]);
        let p = Program::new(shaderdiff_model::Stage::Compute);
        prepare(&p, &names_with_window(), &mut inputs).expect("prepared");
        let mem = RegKey::new(File::Memory, 0);
        // 0x10000..0x10007, rounded up to 8 bytes; the gap is zero.
        assert_eq!(inputs.buffers[&mem], [1, 2, 3, 4, 0, 0, 9, 0]);
        assert_eq!(
            inputs.constants[&RegKey::new(File::Const, 1)],
            [0x10000, 0, 0, 0]
        );
        let mut out = Outputs {
            buffers: [(mem, vec![5, 6, 7, 8, 0, 0, 10, 0])].into(),
            ..Outputs::default()
        };
        regions(&names_with_window(), &inputs, &mut out);
        assert!(out.buffers.is_empty());
        assert_eq!(out.global[&0x10000], [5, 6, 7, 8]);
        assert_eq!(out.global[&0x10006], [10]);
    }

    #[test]
    fn compute_bindings_follow_the_workgroups() {
        // GROUP_SIZE 2 2: four invocations per group; invocation 5 is local (1, 0) of
        // group 1 (NV_compute_program5 Table X.1).
        let mut p = Program::new(shaderdiff_model::Stage::Compute);
        for (name, value) in [
            (PropertyName::CsFixedBlockWidth, 2),
            (PropertyName::CsFixedBlockHeight, 2),
        ] {
            p.properties
                .push(shaderdiff_model::Property { name, value });
        }
        let mut inputs = Inputs {
            invocations: 8,
            ..Inputs::default()
        };
        prepare(&p, &names_with_window(), &mut inputs).expect("prepared");
        let local = &inputs.registers[&RegKey::new(File::SystemValue, 0)];
        let group = &inputs.registers[&RegKey::new(File::SystemValue, 1)];
        assert_eq!(local[5], [1, 0, 0, 0]);
        assert_eq!(local[3], [1, 1, 0, 0]);
        assert_eq!(group[5], [1, 0, 0, 0]);
        assert_eq!(group[3], [0, 0, 0, 0]);
        // Without regions the window is empty.
        assert!(inputs.buffers[&RegKey::new(File::Memory, 0)].is_empty());
    }

    #[test]
    fn far_apart_regions_are_refused() {
        let mut inputs = Inputs {
            invocations: 1,
            ..Inputs::default()
        };
        inputs.global.insert(0, vec![0]);
        inputs.global.insert(1 << 40, vec![0]);
        let p = Program::new(shaderdiff_model::Stage::Compute);
        let e = prepare(&p, &names_with_window(), &mut inputs).expect_err("refused");
        assert!(e.contains("span"), "{e}");
    }

    /// Image buffers: the bytes must be W·H·D·B long with B one of Table X.3's sizes; they
    /// are padded to whole dwords for the run and cut back on output.
    #[test]
    fn images_are_checked_padded_and_cut_back() {
        let names = NameMap {
            shared_memory: None,
            entries: vec![
                ("image[2]".into(), File::Buffer, 0),
                ("image[2].size".into(), File::Const, 0),
            ],
        };
        let p = Program::new(shaderdiff_model::Stage::Compute);
        let (buf, size) = (RegKey::new(File::Buffer, 0), RegKey::new(File::Const, 0));
        let with = |shape: [u32; 4], bytes: Vec<u8>| {
            let mut inputs = Inputs {
                invocations: 1,
                ..Inputs::default()
            };
            inputs.constants.insert(size, shape);
            inputs.buffers.insert(buf, bytes);
            inputs
        };
        // 3x1x1 bytes: padded to 4, cut back to 3.
        let mut inputs = with([3, 1, 1, 1], vec![1, 2, 3]);
        prepare(&p, &names, &mut inputs).expect("prepared");
        assert_eq!(inputs.buffers[&buf], [1, 2, 3, 0]);
        assert_eq!(visible(&names, &inputs).buffers[&buf], [1, 2, 3]);
        let mut out = Outputs {
            buffers: [(buf, vec![4, 5, 6, 0])].into(),
            ..Outputs::default()
        };
        regions(&names, &inputs, &mut out);
        assert_eq!(out.buffers[&buf], [4, 5, 6]);
        // Wrong length, a texel size outside Table X.3, bytes without a shape.
        let e = prepare(&p, &names, &mut with([2, 2, 1, 4], vec![0; 12])).expect_err("short");
        assert!(e.contains("needs 16"), "{e}");
        let e = prepare(&p, &names, &mut with([1, 1, 1, 3], vec![0; 3])).expect_err("B = 3");
        assert!(e.contains("1, 2, 4, 8 or 16"), "{e}");
        let mut inputs = with([0; 4], vec![1]);
        inputs.constants.clear();
        let e = prepare(&p, &names, &mut inputs).expect_err("no shape");
        assert!(e.contains("image[2].size"), "{e}");
    }
}
