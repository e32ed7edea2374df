// The C++ side of reptest's `google` adapter (harness/impls/src/google.rs).
//
// A thin wrapper around googlebot::RobotsMatcher from Google's robotstxt library
// (https://github.com/google/robotstxt), which is linked from an installed copy and never
// vendored: harness/impls/build.rs finds it (ROBOTSTXT_CPP_PREFIX) and compiles this shim with
// cxx_build only when it is there.
#pragma once

#include <cstdint>

#include "rust/cxx.h"

namespace reptest_google {

// Defined by the #[cxx::bridge] in harness/impls/src/google/ffi.rs (shared struct).
struct GoogleVerdict;

// Evaluates one query with a fresh RobotsMatcher: `robots` is the robots.txt body byte for
// byte, `agent` the product token (Google keeps its leading [a-zA-Z_-]+), `url` an
// absolute, %-encoded URL. Returns the verdict and RobotsMatcher::matching_line() (0 when
// no rule matched).
GoogleVerdict evaluate(rust::Slice<const std::uint8_t> robots, rust::Str agent,
                       rust::Str url);

// A description of the linked library (the library has no version API of its own).
rust::String version();

}  // namespace reptest_google
