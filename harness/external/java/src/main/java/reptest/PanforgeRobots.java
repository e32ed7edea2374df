package reptest;

import com.panforge.robotstxt.RobotsTxt;
import java.io.ByteArrayInputStream;

/** com.panforge:robots (RobotsTxt.read, then query(userAgent, path)); takes paths. */
final class PanforgeRobots implements Protocol.BatchLibrary {
  @Override
  public String name() {
    return "com.panforge:robots";
  }

  @Override
  public String version() {
    return Protocol.mavenVersion("com.panforge", "robots");
  }

  @Override
  public boolean fullUrls() {
    return false;
  }

  /**
   * A fresh reader per request, queried once per query; note the argument order:
   * query(userAgent, path).
   */
  @Override
  public Protocol.Matcher parse(byte[] robots) throws Exception {
    RobotsTxt txt = RobotsTxt.read(new ByteArrayInputStream(robots));
    return (agent, path) -> Protocol.Verdict.of(txt.query(agent, path));
  }
}
