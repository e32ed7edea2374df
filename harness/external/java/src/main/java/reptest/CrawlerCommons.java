package reptest;

import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.util.List;

/** crawler-commons' SimpleRobotRulesParser, which takes absolute URLs. */
final class CrawlerCommons implements Protocol.Library {
  @Override
  public String name() {
    return "com.github.crawler-commons:crawler-commons";
  }

  @Override
  public String version() {
    return Protocol.mavenVersion("com.github.crawler-commons", "crawler-commons");
  }

  @Override
  public boolean fullUrls() {
    return true;
  }

  /**
   * A fresh parser per request. parseContent(robotsTxtUrl, content, contentType, robotNames):
   * with exact user-agent matching (the default) the names must be lower-case and must not
   * be "*", else it throws; sanitizeRobotNames is the library's own way to make them so.
   */
  @Override
  public Protocol.Verdict check(byte[] robots, String agent, String url) {
    SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
    SimpleRobotRules rules =
        parser.parseContent(
            robotsTxtUrl(url),
            robots,
            "text/plain",
            SimpleRobotRulesParser.sanitizeRobotNames(List.of(agent)));
    return Protocol.Verdict.of(rules.isAllowed(url));
  }

  /** scheme://authority/robots.txt for url (the library uses it only in log messages). */
  static String robotsTxtUrl(String url) {
    int scheme = url.indexOf("://");
    if (scheme < 0) {
      return url;
    }
    int end = scheme + 3;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    return url.substring(0, end) + "/robots.txt";
  }
}
