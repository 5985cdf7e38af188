//! `run` and `diff` on programs with memory: a corpus compute program with BUFFER loads and
//! stores, checked against values computed by hand from its text, and the memory parts of
//! the JSON output.

mod common;

use common::*;

const L218: &str =
    "corpus/tgsi/Grima04_mesa-turnip-kgsl_si_shaderlib_tgsi_c_L218_instantiated.tgsi";

/// The reference pack: `$SHADERDIFF_SHARED`, else `../shared` beside the checkout.
fn shared() -> std::path::PathBuf {
    std::env::var_os("SHADERDIFF_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

/// The initial dword `j` of the buffer.
fn init(j: u32) -> u32 {
    0x0101_0101u32.wrapping_mul(j % 200 + 1)
}

#[test]
fn corpus_buffer_program_runs_on_the_oracle() {
    // L218: invocation (BLOCK_ID.x * 64 + THREAD_ID.x) loads 16 bytes at 16 times its
    // index, ANDs them with SV[2].y, ORs SV[2].x and stores them back.
    let dir = scratch("memory-l218");
    let sv0: Vec<String> = (0..64)
        .map(|i| format!("[\"{i:#x}\", \"0x0\", \"0x0\", \"0x0\"]"))
        .collect();
    let buf: String = (0..256)
        .flat_map(|j| init(j).to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    let inputs = format!(
        "{{\"invocations\": 64, \"registers\": {{\"SV[0]\": [{}], \
         \"SV[1]\": [\"0x0\", \"0x0\", \"0x0\", \"0x0\"], \
         \"SV[2]\": [\"0x80000000\", \"0x00ff00ff\", \"0x0\", \"0x0\"]}}, \
         \"buffers\": {{\"BUFFER[0]\": \"{buf}\"}}}}",
        sv0.join(", ")
    );
    let file = dir.join("inputs.json");
    std::fs::write(&file, inputs).unwrap();
    let prog = shared().join(L218);
    let (prog, file) = (prog.to_str().unwrap(), file.to_str().unwrap());
    let o = run(&["run", prog, "--inputs", file, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let hex = v["buffers"]["BUFFER[0]"].as_str().unwrap();
    assert_eq!(hex.len(), 2048);
    for j in 0..256u32 {
        let w = &hex[8 * j as usize..8 * j as usize + 8];
        let bytes: Vec<u8> = (0..4)
            .map(|k| u8::from_str_radix(&w[2 * k..2 * k + 2], 16).unwrap())
            .collect();
        let got = u32::from_le_bytes(bytes.try_into().unwrap());
        assert_eq!(got, (init(j) & 0x00ff_00ff) | 0x8000_0000, "dword {j}");
    }
    assert!(v.get("buffers_undefined").is_none());
    assert_eq!(v["atomics"].as_array().unwrap().len(), 0);
    // The jit and valhall both run memory and agree.
    let o = run(&["diff", prog, "--inputs", file, "--backends", "jit,valhall"]);
    let t = text(&o);
    assert!(t.contains(": agree (interp vs jit"), "{t}");
    assert!(!t.contains("jit unsupported"), "{t}");
    assert!(!t.contains("valhall unsupported"), "{t}");
    assert!(!t.contains("mismatch") && !t.contains("MISMATCH"), "{t}");
    assert_eq!(code(&o), 0, "{t}");
}

#[test]
fn run_json_reports_undefined_bytes_and_the_atomic_log() {
    let dir = scratch("memory-json");
    let prog = dir.join("p.tgsi");
    // The store covers bytes 4..8 of a 6-byte buffer: 4..6 undefined. The atomic adds 5
    // to the dword at 0 (holding 1).
    std::fs::write(
        &prog,
        "COMP\nDCL BUFFER[0]\nDCL TEMP[0]\nIMM[0] UINT32 {4, 0, 5, 0}\n\
         STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].zzzz\n\
         ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].yyyy, IMM[0].zzzz\nEND\n",
    )
    .unwrap();
    let inputs = dir.join("i.json");
    std::fs::write(
        &inputs,
        "{\"invocations\": 1, \"buffers\": {\"BUFFER[0]\": \"010000000000\"}}",
    )
    .unwrap();
    let o = run(&[
        "run",
        prog.to_str().unwrap(),
        "--inputs",
        inputs.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["buffers"]["BUFFER[0]"], "060000000000");
    assert_eq!(
        v["buffers_undefined"]["BUFFER[0]"],
        serde_json::json!([[4, 6]])
    );
    let log = v["atomics"].as_array().unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0]["op"], "ATOMUADD");
    assert_eq!(log[0]["old"], "0x00000001");
    assert_eq!(log[0]["src"], "0x00000005");
    assert_eq!(log[0]["resource"], "BUFFER[0]");
}

#[test]
fn corpus_query_result_shader_sums_ready_results() {
    // L792 (radeonsi's query-result shader) with config 0 (CONST[0][0].x & 7 = 0), result
    // offset 0 (.y), no flags (.z), two results (.w): each 256-byte record adds its dword at
    // +0 when its "ready" dword at +128 is non-zero; the sum is stored at BUFFER[2] byte 0.
    // By hand: 5 + 7 = 12.
    let dir = scratch("memory-l792");
    let mut rec = vec![0u8; 512];
    rec[0] = 5;
    rec[128] = 1;
    rec[256] = 7;
    rec[384] = 1;
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let inputs = format!(
        "{{\"invocations\": 1, \"constants\": {{\"CONST[0][0]\": [\"u:0\", \"u:0\", \"u:0\", \"u:2\"]}}, \
         \"buffers\": {{\"BUFFER[0]\": \"{}\", \"BUFFER[1]\": \"{}\", \"BUFFER[2]\": \"{}\"}}}}",
        hex(&rec),
        hex(&[0; 8]),
        hex(&[0xff; 8])
    );
    let file = dir.join("inputs.json");
    std::fs::write(&file, inputs).unwrap();
    let prog = shared().join("corpus/tgsi/Grima04_mesa-turnip-kgsl_si_shaderlib_tgsi_c_L792.tgsi");
    let (prog, file) = (prog.to_str().unwrap(), file.to_str().unwrap());
    let o = run(&["run", prog, "--inputs", file, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["buffers"]["BUFFER[2]"], "0c000000ffffffff");
    // A record that is not ready stops the sum and marks the result unavailable: nothing
    // is stored (BUFFER[2] keeps its bytes).
    let unready = std::fs::read_to_string(file).unwrap().replacen(
        &hex(&rec),
        &hex(&{
            let mut r = rec.clone();
            r[384] = 0;
            r
        }),
        1,
    );
    std::fs::write(file, unready).unwrap();
    let o = run(&["run", prog, "--inputs", file, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["buffers"]["BUFFER[2]"], "ffffffffffffffff");
}

const L299: &str =
    "corpus/tgsi/Grima04_mesa-turnip-kgsl_si_shaderlib_tgsi_c_L299_instantiated.tgsi";

/// Little-endian hex of 64-bit words.
fn hex64(words: &[u64]) -> String {
    words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// radeonsi's query-result shader (si_shaderlib_tgsi.c, corpus L299) on every engine, with
/// the 64-bit arithmetic it was written for: `U64ADD ..., -TEMP[2]` (end - begin of each
/// result, 64-bit subtraction: shaderdiff_model::wide_modifiers), U64MUL by 1000000, U64DIV by
/// 100000, U64SNE. Inputs worked out by hand from the shader's text: CONST[0][0] =
/// (end offset 8, result stride 16, 2 results, config), CONST[0][1] = (start offset 0,
/// pair stride 0, 1 pair); BUFFER[0] holds two results whose begin words have bit 31 set
/// ("available"): (0x80000005, 0x80000105) and (0x80000010, 0x80000020), i.e. 0x100 +
/// 0x10 = 272 ticks. Config 96 (32: scale, 64: store 64 bits): 272 * 1000000 / 100000 =
/// 2720 in BUFFER[2].xy. Config 104 (also 8: boolean): 2720 != 0, so 1.
#[test]
fn radeonsi_query_shader_64bit_arithmetic_agrees_on_every_engine() {
    let dir = scratch("memory-l299");
    let prog = shared().join(L299);
    let prog = prog.to_str().unwrap();
    let results = hex64(&[0x8000_0005, 0x8000_0105, 0x8000_0010, 0x8000_0020]);
    for (config, want) in [(96u32, 2720u64), (104, 1)] {
        let inputs = format!(
            "{{\"invocations\": 1, \"constants\": {{\
             \"CONST[0][0]\": [\"0x8\", \"0x10\", \"0x2\", \"{config:#x}\"], \
             \"CONST[0][1]\": [\"0x0\", \"0x0\", \"0x1\", \"0x0\"]}}, \
             \"buffers\": {{\"BUFFER[0]\": \"{results}\", \"BUFFER[1]\": \"{}\", \
             \"BUFFER[2]\": \"{}\"}}}}",
            hex64(&[0, 0]),
            hex64(&[0, 0])
        );
        let file = dir.join(format!("inputs-{config}.json"));
        std::fs::write(&file, inputs).unwrap();
        let file = file.to_str().unwrap();
        let o = run(&["run", prog, "--inputs", file, "--format", "json"]);
        assert_eq!(code(&o), 0, "{}", text(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let got = v["buffers"]["BUFFER[2]"].as_str().unwrap();
        assert_eq!(&got[..16], hex64(&[want]), "config {config}");
        let o = run(&["diff", prog, "--inputs", file, "--backends", "jit,valhall"]);
        let t = text(&o);
        assert_eq!(code(&o), 0, "config {config}: {t}");
        assert!(t.contains("agree"), "config {config}: {t}");
        assert!(!t.contains("unsupported"), "config {config}: {t}");
    }
}
