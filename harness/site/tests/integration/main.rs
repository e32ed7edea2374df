//! The site crate's integration tests, as one test binary: the scenario model, the
//! responses, redirects, faults and bounds of a running site, checked with real HTTP
//! clients, and crawlers judged on it. The two tests that must be alone in their process
//! (`threads`, `crawl_kill`) run in a child process of their own (`alone`).

#[cfg(target_os = "linux")]
mod alone;
mod common;
#[cfg(target_os = "linux")]
mod procs;

mod bounds;
mod crawl;
mod crawl_kill;
mod faults;
mod pages;
mod redirects;
mod responses;
mod scenario;
mod threads;
