package reptest;

import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** crawler-commons' SimpleRobotRulesParser, which takes absolute URLs. */
final class CrawlerCommons implements Protocol.BatchLibrary {
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
   * A fresh parser per request. parseContent(robotsTxtUrl, content, contentType, robotNames)
   * parses for the given robot names, so within a request the body is parsed once per
   * distinct sanitized agent (and robots.txt URL, which the library uses only in log
   * messages), and each query asks the rules of its agent. With exact user-agent matching (the default) the
   * names must be lower-case and must not be "*", else it throws; sanitizeRobotNames is the
   * library's own way to make them so.
   */
  @Override
  public Protocol.Matcher parse(byte[] robots) {
    SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
    Map<List<Object>, SimpleRobotRules> byNames = new HashMap<>();
    return (agent, url) -> {
      // The parse sees only the sanitized names and the robots.txt URL: agents that
      // sanitize alike (FooBot, foobot) share one parse.
      Collection<String> names = SimpleRobotRulesParser.sanitizeRobotNames(List.of(agent));
      String robotsTxtUrl = robotsTxtUrl(url);
      List<Object> key = List.of(List.copyOf(names), robotsTxtUrl);
      SimpleRobotRules rules = byNames.get(key);
      if (rules == null) {
        rules = parser.parseContent(robotsTxtUrl, robots, "text/plain", names);
        byNames.put(key, rules);
      }
      return Protocol.Verdict.of(rules.isAllowed(url));
    };
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
