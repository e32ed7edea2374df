package reptest;

import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * crawler-commons' SimpleRobotRulesParser, which takes absolute URLs. It fetches nothing itself:
 * its status API is for the caller's fetch. So for fetch requests the adapter fetches (with
 * java.net.http) and hands the outcome to the library: the body to parseContent on a 2xx, the
 * status to failedFetch otherwise.
 */
final class CrawlerCommons implements Protocol.FetchingLibrary {
  /**
   * The adapter's HTTP client: java.net.http's, redirects followed as its NORMAL policy does (at
   * most jdk.httpclient.redirects.retrylimit, 5 by default; the last 3xx is then the response), no
   * proxy (the site is on loopback). One per process: it holds threads, not robots.txt state.
   */
  private static HttpClient client;

  private static synchronized HttpClient client() {
    if (client == null) {
      client =
          HttpClient.newBuilder()
              .followRedirects(HttpClient.Redirect.NORMAL)
              .proxy(HttpClient.Builder.NO_PROXY)
              .build();
    }
    return client;
  }

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

  /**
   * The adapter's part: GET robotsUrl with java.net.http, the whole exchange bounded by timeout
   * (a timeout or a network fault is an exception, answered as an error: the library has no
   * verdict for a fetch that got no status). The library's part: on a 2xx, parseContent of the
   * body, as {@link #parse}; on any other final status, failedFetch(status), whose rules answer
   * every query.
   */
  @Override
  public Protocol.Matcher fetch(String robotsUrl, Duration timeout) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(robotsUrl)).timeout(timeout).GET().build();
    CompletableFuture<HttpResponse<byte[]>> pending =
        client().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
    HttpResponse<byte[]> response;
    try {
      response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      pending.cancel(true);
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return parse(response.body());
    }
    SimpleRobotRules rules = new SimpleRobotRulesParser().failedFetch(status);
    return (agent, url) -> Protocol.Verdict.of(rules.isAllowed(url));
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
