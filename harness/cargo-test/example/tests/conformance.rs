//! The `texting_robots` crate on reptest's corpus: one test per query, judged against
//! `tests/reptest-baseline.toml` (regressions and stale known failures fail).

use std::process::ExitCode;
use texting_robots::Robot;

fn main() -> ExitCode {
    let baseline = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reptest-baseline.toml");
    reptest_cargo_test::Suite::new("texting-robots", baseline).run(
        |robots: &[u8], agent: &str, url: &str| {
            // texting_robots keeps only the agent's rules; a body it refuses is answered
            // as "allowed", as a crawler that cannot parse the file would.
            Robot::new(agent, robots).is_ok_and(|robot| robot.allowed(url))
        },
    )
}
