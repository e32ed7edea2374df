//! Process checks shared by the crawl tests: whether a process group still runs.

/// Whether some process of group `pgid` still runs: a /proc scan (zombies, which have
/// exited and wait only to be reaped, do not count: an init that does not reap orphans
/// leaves them), cross-checked with `kill(-pgid, 0)`: when that fails it must be with
/// ESRCH and /proc must agree; when it succeeds, only zombies may be left.
pub fn group_running(pgid: u32) -> bool {
    let pgid = i32::try_from(pgid).unwrap();
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2).and_then(|pgrp| pgrp.parse::<i32>().ok()) == Some(pgid) {
            members.push(fields[0].to_owned());
        }
    }
    let signal_test =
        rustix::process::test_kill_process_group(rustix::process::Pid::from_raw(pgid).unwrap());
    match signal_test {
        Err(errno) => {
            assert_eq!(errno, rustix::io::Errno::SRCH);
            assert!(members.is_empty(), "kill says none, /proc says {members:?}");
            false
        }
        Ok(()) => members.iter().any(|state| state != "Z" && state != "X"),
    }
}
