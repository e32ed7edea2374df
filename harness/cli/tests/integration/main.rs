//! The `reptest` crate's integration tests, as one test binary: built and linked once
//! for all of them (one binary per file would link the whole harness once per file).
//! Each module is one subject, and its tests are named by module path
//! (`report::conformance_summary`); run one module with
//! `cargo test -p reptest --test integration report::`.
//!
//! Tests that need what this machine may lack (Google's library, the external adapters,
//! the crawlers, chromium, the survey data) are ignored with their reason (build.rs).

/// A snapshot under reports/snapshots/ (the committed Markdown: `report::`, `upstream::`),
/// named without the module path.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => "../../../../reports/snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

// Shared with the site crate's tests: runs a test alone in a process of its own.
#[path = "../../../site/tests/integration/alone.rs"]
mod alone;
mod common;

mod adapters;
mod cli;
mod crates;
mod crawlers;
mod external;
mod faults;
mod fetching;
mod fuzz;
mod gate;
mod google;
mod help;
mod no_silent_skips;
mod outputs;
mod policy;
mod policy_audit;
mod progress;
mod readme;
mod reference_adapter;
mod report;
mod report_html;
mod survey;
mod survey_breaker;
mod survey_protego;
mod survey_synth;
mod upstream;
mod upstream_threads;
