// See google_shim.h. Uses only the public API of robots.h: RobotsMatcher's
// OneAgentAllowedByRobots() and matching_line().
#include "reptest-impls/cpp/google_shim.h"

#include <string>

#include "absl/strings/string_view.h"
#include "reptest-impls/src/google/ffi.rs.h"
#include "robots.h"

namespace reptest_google {

GoogleVerdict evaluate(rust::Slice<const std::uint8_t> robots, rust::Str agent,
                       rust::Str url) {
  // The body may hold NUL, CR-only line ends and invalid UTF-8: pass (pointer, length).
  const absl::string_view body(reinterpret_cast<const char*>(robots.data()),
                               robots.size());
  const std::string user_agent(agent.data(), agent.size());
  const std::string full_url(url.data(), url.size());
  // A fresh matcher per query: RobotsMatcher keeps per-call state (matches, seen agents).
  googlebot::RobotsMatcher matcher;
  const bool allowed = matcher.OneAgentAllowedByRobots(body, user_agent, full_url);
  const int line = matcher.matching_line();
  GoogleVerdict verdict;
  verdict.allowed = allowed;
  verdict.line = line > 0 ? static_cast<std::uint32_t>(line) : 0;
  return verdict;
}

rust::String version() {
#ifdef REPTEST_GOOGLE_VERSION
  return rust::String(REPTEST_GOOGLE_VERSION);
#else
  return rust::String("installed");
#endif
}

}  // namespace reptest_google
