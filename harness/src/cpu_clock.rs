//! The CPU time of the calling thread: the clock of the reduction budget
//! (`fuzz --reduce-cpu-time`), which, unlike the wall clock, does not run on while the
//! thread waits for a core on a loaded machine.

use std::time::{Duration, Instant};

use shaderdiff_compare::reduce::{ClockBudget, ReduceOptions};

/// CPU time the calling thread has used (POSIX `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`),
/// user and system together. Reductions run every engine in the thread that reduces, so
/// this is the work a reduction did. Zero if the clock cannot be read (never on Linux).
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// [`thread_cpu_time`] plus the CPU time of this process's terminated, waited-for child
/// processes (`getrusage(RUSAGE_CHILDREN)`): the clock of reductions whose candidates run
/// in subprocesses (crash and hang findings).
pub fn thread_and_children_cpu_time() -> Duration {
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage; the call only writes it.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    let tv = |t: libc::timeval| {
        Duration::new(t.tv_sec.max(0) as u64, 0)
            + Duration::from_micros(t.tv_usec.clamp(0, 999_999) as u64)
    };
    let children = if rc == 0 {
        tv(ru.ru_utime) + tv(ru.ru_stime)
    } else {
        Duration::ZERO
    };
    thread_cpu_time() + children
}

/// CPU time (user and system, all threads) that process `pid` has used: proc(5)'s
/// `/proc/PID/stat` fields 14 (`utime`) and 15 (`stime`), in clock ticks
/// (`sysconf(_SC_CLK_TCK)`, 10 ms on Linux). `None` where it cannot be read (not Linux, or
/// the process is gone and reaped). The supervisor's clock for worker hangs
/// ([`crate::isolate::hangs`]).
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 2 (the command name) is in parentheses and may hold spaces; fields 3.. follow
    // the last ')'.
    let rest = stat.get(stat.rfind(')')?.checked_add(1)?..)?;
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let tick = u64::try_from(tick).ok().filter(|&t| t > 0)?;
    let ticks = utime.checked_add(stime)?;
    let nanos = u128::from(ticks) * 1_000_000_000 / u128::from(tick);
    Some(Duration::from_nanos(u64::try_from(nanos).ok()?))
}

/// The budget of one reduction starting now: at most `cpu` of this thread's CPU time and
/// at most `wall` of wall-clock time, whichever ends first.
pub fn reduce_options(wall: Duration, cpu: Duration) -> ReduceOptions {
    with_clock(wall, cpu, thread_cpu_time)
}

/// [`reduce_options`] for reductions whose candidates run in child processes: their CPU
/// time counts too ([`thread_and_children_cpu_time`]).
pub fn reduce_options_with_children(wall: Duration, cpu: Duration) -> ReduceOptions {
    with_clock(wall, cpu, thread_and_children_cpu_time)
}

fn with_clock(wall: Duration, cpu: Duration, clock: fn() -> Duration) -> ReduceOptions {
    ReduceOptions {
        deadline: Instant::now().checked_add(wall),
        cpu: Some(ClockBudget::starting_now(clock, cpu)),
        ..ReduceOptions::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child that sleeps uses (almost) no CPU time; one that spins uses about as much
    /// as it runs. proc(5): utime and stime count the process's own time only.
    #[test]
    fn process_cpu_time_counts_a_childs_work() {
        let mut sleeper = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let slept = process_cpu_time(sleeper.id()).expect("readable /proc");
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
        assert!(
            slept < Duration::from_millis(100),
            "sleeping used {slept:?}"
        );
        let mut spinner = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        let start = Instant::now();
        let mut used = Duration::ZERO;
        while used < Duration::from_millis(200) && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(50));
            used = process_cpu_time(spinner.id()).unwrap_or_default();
        }
        spinner.kill().unwrap();
        spinner.wait().unwrap();
        assert!(
            used >= Duration::from_millis(200),
            "spinning used only {used:?}"
        );
        assert!(
            used <= start.elapsed() * 2,
            "{used:?} of CPU in {:?}",
            start.elapsed()
        );
    }

    /// Sleeping uses no CPU time; spinning does, about as much as the wall clock shows
    /// (the thread runs whenever it is not descheduled; the bound allows for a loaded
    /// machine, where CPU time grows slower than wall time, never faster).
    #[test]
    fn thread_cpu_time_counts_work_not_waiting() {
        let t0 = thread_cpu_time();
        std::thread::sleep(Duration::from_millis(200));
        let slept = thread_cpu_time() - t0;
        assert!(slept < Duration::from_millis(50), "sleeping used {slept:?}");
        let (w0, c0) = (Instant::now(), thread_cpu_time());
        let mut x = 0u64;
        while thread_cpu_time() - c0 < Duration::from_millis(100) {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        assert!(x > 0);
        assert!(
            w0.elapsed() >= Duration::from_millis(100),
            "CPU time ran ahead of wall time"
        );
    }

    /// A budget of zero CPU time is spent at once; a long one is not.
    #[test]
    fn reduce_options_budget() {
        let spent = reduce_options(Duration::from_secs(60), Duration::ZERO);
        assert!(spent.cpu.is_some_and(|b| b.spent()));
        let open = reduce_options(Duration::from_secs(60), Duration::from_secs(60));
        assert!(open.cpu.is_some_and(|b| !b.spent()));
        assert!(open.deadline.is_some());
    }

    /// A child's CPU time counts once it has been waited for.
    #[test]
    fn children_cpu_time_counts_a_busy_child() {
        let t0 = thread_and_children_cpu_time();
        let ok = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "sh did not run");
        let used = thread_and_children_cpu_time() - t0;
        assert!(
            used > Duration::from_millis(10),
            "the child's work counted {used:?}"
        );
    }
}
