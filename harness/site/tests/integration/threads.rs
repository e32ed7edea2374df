//! No thread outlives a site. Alone in its process (`alone`), so no other test's site runs.

#![cfg(target_os = "linux")]

use std::time::Duration;

use reptest_site::{Fault, Options, Redirect, Scenario, Site};

use crate::alone;

/// The threads of this process named like a site's.
fn site_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim_end() == "reptest-site")
        .count()
}

/// [`site_threads`] once it has fallen to zero, or after a bounded wait. A joined thread
/// has ended, but the kernel lists it under /proc/self/task until it reaps it, a moment
/// after the join returns: the count is read again until then (at most two seconds).
fn site_threads_after_join() -> usize {
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    loop {
        let count = site_threads();
        if count == 0 || std::time::Instant::now() >= deadline {
            return count;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn no_thread_outlives_a_site() {
    if alone::elsewhere("threads::no_thread_outlives_a_site") {
        return;
    }
    assert_eq!(site_threads(), 0);
    let scenarios = [
        Scenario::new(200, "x").with_redirects([Redirect::cross_origin(301)]),
        Scenario::new(200, vec![7; 100_000]).with_fault(Fault::NeverCompletes),
        Scenario::new(200, "x").with_fault(Fault::ConnectionRefused),
    ];
    let sites: Vec<Site> = scenarios.iter().map(|s| Site::start(s).unwrap()).collect();
    // A thread names itself once running: wait (bounded) until all three have.
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while site_threads() < 3 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(site_threads(), 3);
    // A connection in the middle of a never-completing body when the site stops.
    let stalled = std::thread::spawn({
        let url = sites[1].robots_url();
        move || {
            let agent = ureq::AgentBuilder::new()
                .timeout(Duration::from_secs(4))
                .build();
            let mut sink = Vec::new();
            let response = agent.get(&url).call().unwrap();
            std::io::Read::read_to_end(&mut response.into_reader(), &mut sink).unwrap_err();
        }
    });
    std::thread::sleep(Duration::from_millis(200));
    for site in sites {
        site.stop();
    }
    assert_eq!(site_threads_after_join(), 0);
    stalled.join().unwrap();

    let site = Options::new()
        .lifetime(Duration::from_millis(100))
        .start(&Scenario::new(200, "x"))
        .unwrap();
    site.wait();
    assert_eq!(site_threads_after_join(), 0);
}
