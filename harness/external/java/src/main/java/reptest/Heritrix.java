package reptest;

import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.archive.modules.net.Robotstxt;

/**
 * Heritrix's robots.txt parser (org.archive.modules.net.Robotstxt), used the way Heritrix
 * uses it: CrawlServer.updateRobots builds {@code new Robotstxt(new InputStreamReader(body))}
 * and ObeyRobotsPolicy asks {@code getDirectivesFor(userAgent).allows(pathQuery)}. Takes paths.
 */
final class Heritrix implements Protocol.BatchLibrary {
  @Override
  public String name() {
    return "org.archive.heritrix:heritrix-modules";
  }

  @Override
  public String version() {
    return Protocol.mavenVersion("org.archive.heritrix", "heritrix-modules");
  }

  @Override
  public boolean fullUrls() {
    return false;
  }

  /**
   * A fresh parser per request, asked once per query (as Heritrix keeps one Robotstxt per
   * server and asks it for every URL). Heritrix decodes the body with the platform charset
   * (UTF-8 from Java 18 on); here UTF-8 always. The agent goes in as given: Heritrix passes
   * its configured User-Agent string unchanged, and the library lower-cases only the names
   * in the file, then looks for each as a substring of that string.
   */
  @Override
  public Protocol.Matcher parse(byte[] robots) throws Exception {
    Robotstxt txt =
        new Robotstxt(
            new InputStreamReader(new ByteArrayInputStream(robots), StandardCharsets.UTF_8));
    return (agent, path) -> Protocol.Verdict.of(txt.getDirectivesFor(agent).allows(path));
  }
}
