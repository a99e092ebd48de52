//! The scryer worker as a library user meets it: found without being
//! named, named explicitly, missing, and killed from outside mid-answer.
//! This test binary is itself a program other than `entail`.

use entail::judge::{Engine, ErrorKind, Judge, JudgeConfig, JudgeResult, TaskRecord};
use entail::prolog::{WorkerCommand, WORKER_BINARY};
use std::time::Duration;

const TASK: &str = "eastbound(train0).\nhas_car(train0, car0_1).\nshort(car0_1).\n\
westbound(train1).\nhas_car(train1, car1_1).\nlong(car1_1).\n";

const RULE: &str = "eastbound(T) :- has_car(T, C), short(C).";

/// Tests here count this process's workers, so they run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn scryer_config() -> JudgeConfig {
    let mut config = JudgeConfig::default();
    config.engine = Engine::Scryer;
    config
}

fn score(judge: &Judge, answer: &str) -> JudgeResult {
    let record = TaskRecord {
        validation_program: TASK.into(),
        ..Default::default()
    };
    judge.task(&record).expect("task loads").score(answer)
}

#[test]
fn the_default_config_finds_the_worker_built_with_the_crate() {
    let _serial = serial();
    let found = WorkerCommand::discover().expect("entail-worker is found");
    let built = std::path::Path::new(env!("CARGO_BIN_EXE_entail-worker"));
    assert_eq!(
        found.program.canonicalize().ok(),
        built.canonicalize().ok(),
        "discovered {found:?}"
    );
    assert!(found.args.is_empty());
    let current = std::env::current_exe().expect("current exe");
    assert_ne!(found.program, current, "the judge must never run itself");

    // An answer only scryer scores, from a program that is not `entail`.
    let judge = Judge::new(scryer_config());
    let result = score(&judge, RULE);
    assert_eq!(result.error_kind, None, "{:?}", result.error);
    assert!(result.is_correct);
    let result = score(
        &judge,
        "eastbound(T) :- has_car(T, C), \\+ long(C), subtract([a, b], [a], [b]).",
    );
    assert_eq!(result.error_kind, None, "{:?}", result.error);
    assert!(result.is_correct);
    let wrong = score(&judge, "eastbound(T) :- has_car(T, C), long(C).");
    assert_eq!(wrong.partial_score, 0.0);
}

#[test]
fn without_a_worker_scryer_answers_report_engine_unavailable() {
    let _serial = serial();
    for command in [None, Some(WorkerCommand::new("/nonexistent/entail-worker"))] {
        let mut config = scryer_config();
        config.worker.command = command.clone();
        let judge = Judge::new(config);
        let result = score(&judge, RULE);
        assert_eq!(
            result.error_kind,
            Some(ErrorKind::EngineUnavailable),
            "{command:?}: {:?}",
            result.error
        );
        assert_eq!(result.partial_score, 0.0);
        // Answers that never reach the engine are scored as before.
        let result = score(&judge, "eastbound(T) :- shell(ls).");
        assert_eq!(result.error_kind, Some(ErrorKind::Unsafe));
    }
    // With the native engine in front, answers it decides need no worker.
    let mut config = JudgeConfig::default();
    config.worker.command = None;
    let result = score(&Judge::new(config), RULE);
    assert!(
        result.is_correct || result.error_kind == Some(ErrorKind::EngineUnavailable),
        "{result:?}"
    );
    assert!(WORKER_BINARY.starts_with("entail"));
}

/// The worker processes this test process started.
fn workers() -> Vec<u32> {
    let mut pids = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return pids;
    };
    for task in tasks.flatten() {
        let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for pid in children
            .split_whitespace()
            .filter_map(|p| p.parse::<u32>().ok())
        {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            if comm.trim() == WORKER_BINARY {
                pids.push(pid);
            }
        }
    }
    pids.sort_unstable();
    pids
}

/// CPU ticks a process has used.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15, the 12th and 13th after the name.
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12)
}

fn kill(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// Waits (polling) until `test` holds; panics after a minute.
fn wait_for<T>(mut test: impl FnMut() -> Option<T>) -> T {
    for _ in 0..12_000 {
        if let Some(value) = test() {
            return value;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("condition never held");
}

/// A judge with one worker already running and loaded, and its pid.
fn warm_judge() -> (Judge, u32) {
    let mut config = scryer_config();
    config.workers = 1;
    config.inference_limit = 1_000_000_000;
    config.worker.eval_timeout = Duration::from_secs(300);
    let judge = Judge::new(config);
    assert!(score(&judge, RULE).is_correct);
    let pids = workers();
    assert_eq!(pids.len(), 1, "{pids:?}");
    (judge, pids[0])
}

/// Correct, and slow enough in scryer (seconds) to be killed in the middle.
const SLOW: &str = "eastbound(T) :- has_car(T, C), short(C), between(1, 1000000, X), X >= 1000000.";

#[test]
fn a_worker_killed_mid_answer_is_restarted_and_the_answer_retried() {
    let _serial = serial();
    let (judge, first) = warm_judge();
    let idle = cpu_ticks(first);
    let result = std::thread::scope(|s| {
        let scoring = s.spawn(|| score(&judge, SLOW));
        // Once the worker burns CPU it is evaluating the answer.
        wait_for(|| (cpu_ticks(first) > idle + 5).then_some(()));
        kill(first);
        scoring.join().expect("scoring does not panic")
    });
    assert_eq!(result.error_kind, None, "{:?}", result.error);
    assert!(result.is_correct);
    let now = workers();
    assert_eq!(now.len(), 1);
    assert_ne!(now[0], first, "a fresh worker answered");
}

#[test]
fn a_second_death_is_a_resource_error() {
    let _serial = serial();
    let (judge, first) = warm_judge();
    let idle = cpu_ticks(first);
    let result = std::thread::scope(|s| {
        let scoring = s.spawn(|| score(&judge, SLOW));
        wait_for(|| (cpu_ticks(first) > idle + 5).then_some(()));
        kill(first);
        let second = wait_for(|| workers().into_iter().find(|&p| p != first));
        kill(second);
        scoring.join().expect("scoring does not panic")
    });
    assert_eq!(
        result.error_kind,
        Some(ErrorKind::Resource),
        "{:?}",
        result.error
    );
    assert_eq!(result.partial_score, 0.0);
    // The judge goes on with a fresh worker.
    assert!(score(&judge, RULE).is_correct);
}

/// A forked child (as Python's `os.fork` or a fork pool makes) scores with
/// workers of its own: it neither reads the parent's replies nor kills or
/// writes to the parent's workers, and the parent's keep answering it.
#[test]
fn a_forked_child_scores_with_its_own_workers() {
    let _serial = serial();
    let judge = Judge::new(scryer_config());
    let wrong = "eastbound(T) :- has_car(T, C), long(C).";
    assert!(score(&judge, RULE).is_correct);
    // SAFETY: the child only scores and then leaves with `_exit`, never
    // returning into the test harness.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let mut ok = true;
        for _ in 0..3 {
            let (a, b) = (score(&judge, RULE), score(&judge, wrong));
            if a.partial_score != 1.0 || b.partial_score != 0.0 {
                eprintln!("child: {a:?}\n{b:?}");
                ok = false;
            }
        }
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    // Meanwhile the parent scores on the same workers.
    for _ in 0..3 {
        assert_eq!(score(&judge, wrong).partial_score, 0.0);
        assert_eq!(score(&judge, RULE).partial_score, 1.0);
    }
    let mut status = 0;
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child status {status}"
    );
    assert!(score(&judge, RULE).is_correct);
}

/// A cancel flag set while a worker runs an answer that would take its whole
/// wall-clock cap ends the wait at once: the answer is `Interrupted`, not a
/// timeout, and the worker is replaced for the next answer.
#[test]
fn a_cancel_flag_cuts_a_wait_on_a_worker_short() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let _serial = serial();
    let mut config = scryer_config();
    config.inference_limit = u64::MAX / 2;
    config.worker.eval_timeout = Duration::from_secs(600);
    let judge = Judge::new(config);
    assert!(score(&judge, RULE).is_correct);
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let result =
        entail::prolog::with_cancel(flag, || score(&judge, "eastbound(T) :- eastbound(T)."));
    setter.join().unwrap();
    assert_eq!(result.error.as_deref(), Some("interrupted"), "{result:?}");
    assert!(score(&judge, RULE).is_correct);
}

#[test]
fn a_worker_that_never_reads_its_requests_times_out_instead_of_blocking() {
    // `sleep` never reads stdin: a request larger than a pipe's buffer
    // (a task of 200 KB) used to block the judge in its write for ever.
    let _serial = serial();
    let mut config = scryer_config();
    config.worker.command = Some(WorkerCommand {
        program: "sleep".into(),
        args: vec!["600".into()],
    });
    config.worker.eval_timeout = Duration::from_secs(2);
    config.worker.load_timeout = Duration::from_secs(2);
    let judge = Judge::new(config);
    let facts: String = (0..5_000)
        .map(|i| format!("has_car(train0, car0_{i}).\nshort(car0_{i}).\n"))
        .collect();
    let record = TaskRecord {
        validation_program: format!("{TASK}{facts}"),
        ..Default::default()
    };
    let (sender, answered) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(judge.task(&record).expect("task loads").score(RULE));
    });
    // A generous bound that only a blocked judge misses (two timeouts,
    // one retry).
    let result = answered
        .recv_timeout(Duration::from_secs(120))
        .expect("the judge answers");
    assert!(!result.is_correct, "{result:?}");
    assert!(result.error_kind.is_some(), "{result:?}");
}

/// Forks of this process: counted by an atfork handler, as a host's
/// libraries (OpenBLAS in a Python host) register them.
static FORKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

extern "C" fn count_fork() {
    FORKS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

#[test]
fn a_worker_starts_without_running_the_hosts_fork_handlers_and_with_its_limits() {
    // An atfork handler that waits for ever (OpenBLAS's, under scipy) hung a
    // Python batch inside a worker's start; a start that never forks the
    // host cannot run one.
    let _serial = serial();
    static REGISTER: std::sync::Once = std::sync::Once::new();
    // SAFETY: the handler only increments an atomic.
    REGISTER.call_once(|| unsafe {
        assert_eq!(libc::pthread_atfork(Some(count_fork), None, None), 0);
    });
    let mut config = scryer_config();
    config.workers = 1;
    config.worker.memory_limit_bytes = 700 << 20;
    let judge = Judge::new(config);
    let before = FORKS.load(std::sync::atomic::Ordering::SeqCst);
    assert!(score(&judge, RULE).is_correct);
    assert_eq!(FORKS.load(std::sync::atomic::Ordering::SeqCst), before);
    let pids = workers();
    assert_eq!(pids.len(), 1, "{pids:?}");
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", pids[0])).unwrap();
    let row = |name: &str| {
        let line = limits.lines().find(|l| l.starts_with(name)).unwrap();
        line[name.len()..]
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
    };
    let bytes = (700u64 << 20).to_string();
    assert_eq!(row("Max address space"), [bytes.as_str(), bytes.as_str()]);
    assert_eq!(row("Max core file size"), ["0", "0"]);
}
