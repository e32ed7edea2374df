//! `crawl::kill_running`, the hook for a binary's Ctrl-C handler, kills every running
//! crawler's group at once. Alone in its process (`alone`): it kills every crawler of the
//! process, so no other test's crawler may run meanwhile.

#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use crate::{alone, procs};

use reptest_site::crawl::{self, Crawler, Exit};
use reptest_site::Scenario;

#[test]
fn kill_running_kills_every_running_crawler_group() {
    if alone::elsewhere("crawl_kill::kill_running_kills_every_running_crawler_group") {
        return;
    }
    let sleeper = Crawler::new("sleeper", ["sh", "-c", "sleep 1000 & sleep 1000"])
        .with_time_limit(Duration::from_secs(30));
    let scenario = Scenario::new(200, "").with_pages(["/a"]);
    let crawls: Vec<_> = (0..2)
        .map(|_| sleeper.start(&scenario, "ReptestBot").unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    crawl::kill_running();
    for crawl in crawls {
        let report = crawl.wait();
        assert_eq!(report.exit, Exit::Signal(9), "{report:#?}");
        assert!(!report.timed_out);
        assert!(!procs::group_running(report.process_group));
    }
    assert!(started.elapsed() < Duration::from_secs(2));
    // Nothing is registered any more: calling it again is harmless.
    crawl::kill_running();
}
