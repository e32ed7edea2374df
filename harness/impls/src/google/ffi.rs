//! The `#[cxx::bridge]` between the `google` adapter and `cpp/google_shim.h`, compiled
//! (here and by `cxx_build` in `build.rs`) only when Google's robotstxt is installed.

pub(super) use bridge::{evaluate, version};

#[cxx::bridge(namespace = "reptest_google")]
mod bridge {
    /// What one `RobotsMatcher::OneAgentAllowedByRobots` call answered.
    struct GoogleVerdict {
        /// The verdict.
        allowed: bool,
        /// `RobotsMatcher::matching_line()`: the 1-based line of the deciding rule, 0 when
        /// no rule matched.
        line: u32,
    }

    unsafe extern "C++" {
        include!("reptest-impls/cpp/google_shim.h");

        /// One query with a fresh matcher: the body byte for byte, the agent, an absolute
        /// URL. A C++ exception becomes `Err`.
        fn evaluate(robots: &[u8], agent: &str, url: &str) -> Result<GoogleVerdict>;

        /// The linked library's description (`installed` unless `ROBOTSTXT_CPP_VERSION`
        /// was set at build time).
        fn version() -> String;
    }
}
