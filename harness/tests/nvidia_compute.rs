//! Engine `nvidia` on the `--lang nv` stream without a GPU: its pure decisions (the
//! engine's `check`, the compute plan, the dispatch and the storage uploads; no GL call)
//! for the programs `fuzz --lang nv` draws with its defaults (48 instructions, 16
//! invocations), so a device check with that campaign dispatches compute programs.
//!
//! Every compute program with STORAGE results (no global region) must be planned: one
//! storage buffer of 96 bytes plus a 16-byte slot per result TEMP and invocation, whole
//! work groups, `invocation.*` values equal to the dispatch's. Every other refusal must
//! be one that docs/engines-nvidia.md ("Refused") names.

use shaderdiff::nv_runtime;
use shaderdiff_backends::{Engine, EngineConfig, NvidiaEngine};
use shaderdiff_generators::nv::{generate, NvKind};
use shaderdiff_nv::NvOrigin;
use shaderdiff_nvidia::compute;

/// The refusals docs/engines-nvidia.md lists, as the engine words them: geometry
/// programs, memory and buffers outside compute programs, global memory and parameter
/// buffers in compute programs, textures and images where the engine binds none (a
/// fragment program's texture with several levels is refused when it runs, not here).
const DOCUMENTED: &[&str] = &[
    "Geometry programs",
    "(buffers and memory are bound for compute programs only)",
    "(global addresses are the driver's, not the model's)",
    "(parameter buffers are not bound by the engine)",
    "(images are not bound by the engine; textures in vertex and fragment programs only)",
];

#[test]
fn storage_compute_programs_of_the_nv_stream_are_planned() {
    let engine = NvidiaEngine::new(&EngineConfig::default());
    let (mut planned, mut shared, mut refused, mut global) = (0, 0, 0, 0);
    for index in 0..600 {
        let mut g = generate(424242, index, 48, 16).expect("a valid program");
        let l = &g.lowered;
        nv_runtime::prepare(&l.program, &l.names, &mut g.inputs).expect("prepared");
        let verdict = engine.check(&g.lowered.program);
        let compute = g.kind == NvKind::NvCompute;
        if compute && g.inputs.global.is_empty() {
            verdict.unwrap_or_else(|e| panic!("index {index}: {e}\n{}", g.text));
            let o = NvOrigin::of(&g.lowered.program).expect("an NV origin");
            let plan = compute::compute_plan(o).expect("planned");
            let groups = compute::dispatch_groups(plan.group, g.inputs.invocations)
                .unwrap_or_else(|e| panic!("index {index}: {e}"));
            // GROUP_SIZE 1, 2, 4 or 8 along x: 16 invocations are 16 / g groups.
            assert_eq!(groups * plan.group[0], 16, "{:?}", plan.group);
            assert_eq!((plan.group[1], plan.group[2]), (1, 1));
            compute::check_system_values(&plan, &g.inputs, groups)
                .unwrap_or_else(|e| panic!("index {index}: {e}"));
            let up = compute::uploads(&plan, &g.inputs);
            assert_eq!(up.len(), 1, "one STORAGE buffer: {}", g.text);
            let temps = g
                .text
                .lines()
                .find(|s| s.starts_with("TEMP t0"))
                .map_or(0, |s| s.split(',').count());
            assert_eq!(up[0].2, 96 + 16 * (1 + temps) * 16, "{}", g.text);
            planned += 1;
            shared += usize::from(g.text.contains("SHARED_MEMORY"));
            continue;
        }
        let Err(e) = verdict else { continue };
        let e = e.to_string();
        assert!(e.contains("unsupported"), "index {index}: {e}");
        assert!(
            DOCUMENTED.iter().any(|d| e.contains(d)),
            "index {index}: an undocumented refusal: {e}\n{}",
            g.text
        );
        refused += 1;
        global += usize::from(compute);
    }
    eprintln!(
        "{planned} compute programs planned ({shared} with shared memory); {refused} refusals ({global} compute programs with global results)"
    );
    // 600 programs, 15 % compute, half of them with STORAGE results: about 45; half of
    // those with shared memory.
    assert!(planned > 25, "{planned} compute programs planned");
    assert!(shared > 8, "{shared} of them with shared memory");
    assert!(
        global > 25,
        "{global} global-memory compute programs refused"
    );
    assert!(refused > global, "{refused} refusals");
}
