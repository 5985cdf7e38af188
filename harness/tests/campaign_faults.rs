//! Fault injection for the campaign layer itself (docs/campaigns.md "Faults"): a campaign
//! that is killed, signalled (SIGTERM, SIGHUP), runs out of disk, finds its directory
//! locked, or has its progress or summary file damaged must, after a resume, end with
//! exactly the files of an uninterrupted campaign: the same findings byte for byte, the
//! same program log, the same summary (timings and job count aside).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::text;

const PROGRAMS: &str = "640";

fn bin() -> String {
    std::env::var("SHADERDIFF_BIN").unwrap_or_else(|_| common::BIN.to_string())
}

fn args(out: &Path) -> Vec<String> {
    [
        "fuzz",
        "--seed",
        "3",
        "--programs",
        PROGRAMS,
        "--jobs",
        "1",
        "--backends",
        "interp,jit",
        "--inject-fault",
        "shift-count-unmasked",
        "--no-reduce",
        "--log-programs",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .collect()
}

fn run(args: &[String]) -> Output {
    Command::new(bin())
        .args(args)
        .env("CI", "1")
        .output()
        .unwrap()
}

fn spawn(args: &[String]) -> Child {
    Command::new(bin())
        .args(args)
        .env("CI", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `fuzz --resume DIR --jobs 1`. The job count is not recorded (a resume may use
/// another machine's cores); the example of a finding is the lowest index that shows it
/// whatever the job count (`two_jobs_...` below).
fn resume(dir: &Path) -> Output {
    resume_jobs(dir, "1")
}

fn resume_jobs(dir: &Path, jobs: &str) -> Output {
    run(&[
        "fuzz".into(),
        "--resume".into(),
        dir.display().to_string(),
        "--jobs".into(),
        jobs.into(),
    ])
}

fn scratch(tag: &str) -> PathBuf {
    common::scratch(&format!("faults-{tag}"))
}

fn wait_for_chunks(dir: &Path, n: u64) {
    let start = Instant::now();
    while common::campaign_committed(dir) < n {
        assert!(start.elapsed() < Duration::from_secs(300), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The uninterrupted campaign (run once per test binary).
fn whole() -> &'static BTreeMap<String, Vec<u8>> {
    static WHOLE: OnceLock<BTreeMap<String, Vec<u8>>> = OnceLock::new();
    WHOLE.get_or_init(|| {
        let dir = scratch("whole");
        let o = run(&args(&dir));
        assert_eq!(o.status.code(), Some(1), "the fault is found: {}", text(&o));
        // Each finding names the binary that made it (its replay command says `shaderdiff`).
        let findings = std::fs::read_dir(dir.join("findings")).unwrap();
        for f in findings {
            let meta = common::json(&f.unwrap().path().join("finding.json"));
            let made_by = std::fs::canonicalize(meta["binary"].as_str().unwrap()).unwrap();
            assert_eq!(made_by, std::fs::canonicalize(bin()).unwrap(), "{meta}");
        }
        common::campaign_outcome(&dir)
    })
}

fn assert_same_as_whole(dir: &Path) {
    let got = common::campaign_outcome(dir);
    let want = whole();
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (k, v) in want {
        assert!(
            got[k] == *v,
            "{k} differs from the uninterrupted campaign's"
        );
    }
}

fn signal_and_resume(sig: i32, tag: &str) {
    let _ = whole();
    let dir = scratch(tag);
    let mut child = spawn(&args(&dir));
    wait_for_chunks(&dir, 2);
    // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
    unsafe { libc::kill(child.id() as i32, sig) };
    let status = child.wait().unwrap();
    assert!(
        status.code().is_some(),
        "{tag}: it exits, not dies: {status:?}"
    );
    let s = common::json(&dir.join("summary.json"));
    assert_eq!(s["status"], "interrupted", "{tag}: {s}");
    let o = resume(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_same_as_whole(&dir);
}

#[test]
fn sigterm_stops_like_ctrl_c_and_resumes() {
    signal_and_resume(libc::SIGTERM, "sigterm");
}

#[test]
fn sighup_stops_like_ctrl_c_and_resumes() {
    signal_and_resume(libc::SIGHUP, "sighup");
}

#[test]
fn a_killed_campaign_leaves_a_stale_lock_that_resume_takes_over() {
    let _ = whole();
    let dir = scratch("kill");
    let mut child = spawn(&args(&dir));
    wait_for_chunks(&dir, 2);
    child.kill().unwrap(); // SIGKILL: no cleanup at all
    child.wait().unwrap();
    let lock = std::fs::read_to_string(dir.join("lock")).unwrap();
    assert!(lock.contains(&format!("pid {}", child.id())), "{lock}");
    let o = resume(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("no longer running; taking it over"),
        "{}",
        text(&o)
    );
    assert_same_as_whole(&dir);
}

#[test]
fn a_locked_directory_refuses_a_second_campaign_and_a_resume() {
    let _ = whole();
    let dir = scratch("locked");
    let mut child = spawn(&args(&dir));
    wait_for_chunks(&dir, 1);
    let mut second = args(&dir);
    second[2] = "4".into(); // another seed into the same directory
    let o = run(&second);
    let o2 = resume(&dir);
    let first = child.wait().unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(text(&o).contains("locked by another run"), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("PID {}", child.id())),
        "{}",
        text(&o)
    );
    assert_eq!(o2.status.code(), Some(4), "{}", text(&o2));
    assert_eq!(first.code(), Some(1));
    // The first campaign's results are whole: nothing of seed 4 got in.
    assert_same_as_whole(&dir);
}

#[test]
fn a_full_disk_fails_with_4_and_resumes_to_the_same_files() {
    let _ = whole();
    let dir = scratch("diskfull");
    // A file-size limit makes writes past 6 KiB fail with EFBIG, as a full disk fails them
    // with ENOSPC (the progress file outgrows it after a few chunks); SIGXFSZ is ignored so
    // the write fails instead of killing the process.
    let mut cmd = String::from("ulimit -f 6; trap '' XFSZ; exec \"$0\" \"$@\"");
    cmd.push(' ');
    let o = Command::new("bash")
        .arg("-c")
        .arg(cmd.trim_end())
        .arg(bin())
        .args(args(&dir))
        .env("CI", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(text(&o).contains("--resume"), "{}", text(&o));
    let o = resume(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_same_as_whole(&dir);
}

#[test]
fn a_corrupted_progress_file_is_refused_then_restored_and_resumed() {
    let _ = whole();
    let dir = scratch("corrupt");
    let mut child = spawn(&args(&dir));
    wait_for_chunks(&dir, 2);
    child.kill().unwrap();
    child.wait().unwrap();
    let progress = dir.join("progress.json");
    let good = std::fs::read(&progress).unwrap();
    // Half a file: what a copy interrupted mid-way (not our atomic writes) leaves.
    std::fs::write(&progress, &good[..good.len() / 2]).unwrap();
    let o = resume(&dir);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("progress.json:1:"), "{}", text(&o));
    // The refusal changed nothing: with the file restored the campaign resumes.
    assert_eq!(std::fs::read(&progress).unwrap(), &good[..good.len() / 2]);
    std::fs::write(&progress, &good).unwrap();
    let o = resume(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_same_as_whole(&dir);
}

#[test]
fn a_truncated_summary_is_rewritten_by_resume_and_refused_by_merge() {
    let _ = whole();
    let dir = scratch("truncated");
    let mut child = spawn(&args(&dir));
    wait_for_chunks(&dir, 2);
    child.kill().unwrap();
    child.wait().unwrap();
    let summary = dir.join("summary.json");
    let t = std::fs::read(&summary).unwrap();
    std::fs::write(&summary, &t[..t.len() / 3]).unwrap();
    let merged = dir.with_extension("merged");
    let o = run(&[
        "merge".into(),
        dir.display().to_string(),
        "--out".into(),
        merged.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("summary.json:"), "{}", text(&o));
    let o = resume(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_same_as_whole(&dir);
    // Finished, the single shard 0/1 merges into the same campaign.
    let o = run(&[
        "merge".into(),
        dir.display().to_string(),
        "--out".into(),
        merged.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}

#[test]
fn a_second_signal_quits_at_once_with_130() {
    let dir = scratch("twice");
    let mut child = spawn(&args(&dir));
    wait_for_chunks(&dir, 1);
    // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    // The second signal goes as soon as the first one is taken (its message on stderr),
    // while the chunk in hand still runs: a fixed pause could outlast that chunk, and two
    // signals sent at once may arrive as one.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("stopping after the chunks in hand") {
        let mut line = String::new();
        let n = std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
        assert!(n > 0, "the campaign ended before taking the signal: {seen}");
        seen.push_str(&line);
    }
    // SAFETY: as above.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let drain = std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let status = child.wait().unwrap();
    let _ = drain.join();
    assert_eq!(status.code(), Some(130), "{status:?}");
    // What was committed is on disk and resumes.
    let o = resume(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_same_as_whole(&dir);
}

/// With two jobs, chunks finish in any order, and the program that first claimed a
/// signature used to record its example. The lowest index that shows a signature records
/// it, so a two-job campaign, and a two-job campaign stopped by SIGTERM and resumed with two
/// jobs, end with the files of the one-job campaign, byte for byte (timings and the job
/// count aside, as everywhere here).
#[test]
fn two_jobs_interrupted_and_resumed_give_the_same_files() {
    let _ = whole();
    let two = |dir: &Path| {
        let mut a = args(dir);
        assert_eq!(a[5], "--jobs");
        a[6] = "2".into();
        a
    };
    let dir = scratch("jobs2");
    let o = run(&two(&dir));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_same_as_whole(&dir);
    assert!(!dir.join("staging").exists(), "no staged recording is left");

    let dir = scratch("jobs2-resumed");
    let mut child = spawn(&two(&dir));
    wait_for_chunks(&dir, 3);
    // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    assert!(child.wait().unwrap().code().is_some(), "it exits, not dies");
    let s = common::json(&dir.join("summary.json"));
    assert_eq!(s["status"], "interrupted", "{s}");
    let o = resume_jobs(&dir, "2");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_same_as_whole(&dir);
}
