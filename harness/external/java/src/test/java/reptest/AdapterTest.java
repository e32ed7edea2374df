package reptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class AdapterTest {
  static final String FOOBOT = "User-agent: foobot\nDisallow: /\n";
  static final String PRIVATE = "User-agent: *\nDisallow: /private\n";
  // BOM, CRLF, NUL and invalid UTF-8
  static final byte[] MESSY =
      bytes("\u00ef\u00bb\u00bfUser-agent: *\r\nDisallow: /a\u0000b\r\nDisallow: /\u00ff\u00fe\u00c3\r\n"
          + "Disallow: /c\r\n");

  static byte[] bytes(String latin1) {
    return latin1.getBytes(StandardCharsets.ISO_8859_1);
  }

  static String request(long id, byte[] body, String agent, String url) {
    StringBuilder sb = new StringBuilder("{\"id\": ").append(id).append(", \"robots_b64\": \"")
        .append(Base64.getEncoder().encodeToString(body)).append("\", \"agent\": ");
    Protocol.quote(sb, agent);
    sb.append(", \"url\": ");
    Protocol.quote(sb, url);
    return sb.append("}").toString();
  }

  static String verdict(Protocol.Library lib, byte[] body, String agent, String url) {
    String answer = Protocol.handle(request(7, body, agent, url), lib);
    assertTrue(answer.startsWith("{\"id\":7,\"verdict\":\""), answer);
    return answer.contains("\"disallowed\"") ? "disallowed" : "allowed";
  }

  void sanity(Protocol.Library lib) {
    String base = lib.fullUrls() ? "https://example.com" : "";
    byte[] foobot = bytes(FOOBOT);
    byte[] priv = bytes(PRIVATE);
    assertEquals("disallowed", verdict(lib, foobot, "foobot", base + "/page"));
    assertEquals("allowed", verdict(lib, foobot, "barbot", base + "/page"));
    assertEquals("disallowed", verdict(lib, priv, "foobot", base + "/private/x"));
    assertEquals("allowed", verdict(lib, priv, "foobot", base + "/public"));
    // Must answer, not crash. (com.panforge:robots 1.4.6 does not skip the BOM, so its first
    // line is an unknown key and the group is lost: /c comes out allowed there.)
    verdict(lib, MESSY, "foobot", base + "/c");
    byte[] noBom = java.util.Arrays.copyOfRange(MESSY, 3, MESSY.length);
    assertEquals("allowed", verdict(lib, noBom, "foobot", base + "/a"));
    assertEquals("disallowed", verdict(lib, noBom, "foobot", base + "/c"));
    assertEquals("allowed", verdict(lib, new byte[0], "foobot", base + "/"));
  }

  @Test
  void crawlerCommons() {
    Protocol.Library lib = Adapter.library("crawler-commons");
    sanity(lib);
    assertEquals("1.6", lib.version());
    assertEquals("disallowed", verdict(lib, MESSY, "foobot", "https://example.com/c"));
    // Mixed-case agents are sanitized, not rejected.
    assertEquals("disallowed", verdict(lib, bytes(FOOBOT), "FooBot", "https://example.com/page"));
    assertEquals("https://example.com:8080/robots.txt",
        CrawlerCommons.robotsTxtUrl("https://example.com:8080/a/b?c#d"));
  }

  /**
   * crawler-commons through the adapter's fetch (java.net.http, on a loopback server): a 2xx body
   * goes to parseContent, any other status to failedFetch.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void crawlerCommonsFetches() throws Exception {
    int[] status = {200};
    java.util.List<String> paths = new java.util.ArrayList<>();
    com.sun.net.httpserver.HttpServer server =
        com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      paths.add(exchange.getRequestURI().getPath());
      byte[] body = bytes(PRIVATE);
      exchange.sendResponseHeaders(status[0], body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      Protocol.Library lib = Adapter.library("crawler-commons");
      assertTrue(Protocol.handshake(lib).contains("\"fetches\":true"), Protocol.handshake(lib));
      String origin = "http://127.0.0.1:" + server.getAddress().getPort();
      String line = "{\"id\": 3, \"robots_url\": \"" + origin + "/robots.txt\", \"timeout_ms\": 5000,"
          + " \"queries\": [{\"agent\": \"bot\", \"url\": \"" + origin + "/private\"},"
          + " {\"agent\": \"bot\", \"url\": \"" + origin + "/public\"}]}";
      java.util.function.IntFunction<String> answer = s -> {
        status[0] = s;
        return Protocol.handle(line, lib);
      };
      assertEquals("{\"id\":3,\"answers\":[{\"verdict\":\"disallowed\"},{\"verdict\":\"allowed\"}]}",
          answer.apply(200));
      // RFC 9309 §2.3.1.3: a 4xx lets a crawler access anything; failedFetch allows all.
      assertEquals("{\"id\":3,\"answers\":[{\"verdict\":\"allowed\"},{\"verdict\":\"allowed\"}]}",
          answer.apply(404));
      // §2.3.1.4: a 5xx is complete disallow; failedFetch disallows all.
      assertEquals("{\"id\":3,\"answers\":[{\"verdict\":\"disallowed\"},{\"verdict\":\"disallowed\"}]}",
          answer.apply(503));
      assertEquals(java.util.List.of("/robots.txt", "/robots.txt", "/robots.txt"), paths);
      // Body requests still work.
      assertEquals("disallowed", verdict(lib, bytes(PRIVATE), "bot", "https://example.com/private"));
    } finally {
      server.stop(0);
    }
    // Nothing listens any more: the fetch fails, an error for every query, never a verdict.
    String refused = Protocol.handle("{\"id\": 4, \"robots_url\": \"http://127.0.0.1:"
        + server.getAddress().getPort() + "/robots.txt\", \"timeout_ms\": 2000, \"queries\":"
        + " [{\"agent\": \"bot\", \"url\": \"http://127.0.0.1/\"}]}", Adapter.library("crawler-commons"));
    assertTrue(refused.startsWith("{\"id\":4,\"answers\":[{\"error\":"), refused);
    assertTrue(Protocol.handle("{\"id\": 5, \"robots_url\": \"x\", \"queries\": []}",
        Adapter.library("crawler-commons")).contains("\"error\""));
  }

  @Test
  void panforgeRobots() {
    Protocol.Library lib = Adapter.library("panforge-robots");
    sanity(lib);
    assertEquals("1.4.6", lib.version());
  }

  @Test
  void heritrix() {
    Protocol.Library lib = Adapter.library("heritrix");
    sanity(lib);
    assertEquals("3.13.0", lib.version());
  }

  @Test
  void handshakeAndAnswers() {
    Protocol.Library lib = Adapter.library("panforge-robots");
    assertEquals("{\"protocol\":2,\"name\":\"com.panforge:robots\",\"version\":\"1.4.6\","
        + "\"language\":\"Java\",\"capabilities\":{\"full_urls\":false,\"reports_line\":false}}",
        Protocol.handshake(lib));
    assertEquals("{\"id\":null,\"error\":\"bad request line: expected a key at offset 1\"}",
        Protocol.handle("{x}", lib));
    assertEquals("{\"id\":null,\"error\":\"bad request: no integer id\"}",
        Protocol.handle("{\"id\": \"1\"}", lib));
    assertEquals("{\"id\":3,\"error\":\"bad request: robots_b64, agent and url are required strings\"}",
        Protocol.handle("{\"id\": 3, \"agent\": \"a\", \"url\": \"/\"}", lib));
    assertTrue(Protocol.handle("{\"id\": 4, \"robots_b64\": \"***\", \"agent\": \"a\", \"url\": \"/\"}", lib)
        .startsWith("{\"id\":4,\"error\":\"bad request: robots_b64: "));
  }

  static String batchRequest(long id, byte[] body, String[][] queries) {
    StringBuilder sb = new StringBuilder("{\"id\": ").append(id).append(", \"robots_b64\": \"")
        .append(Base64.getEncoder().encodeToString(body)).append("\", \"queries\": [");
    for (int i = 0; i < queries.length; i++) {
      sb.append(i > 0 ? ", " : "").append("{\"agent\": ");
      Protocol.quote(sb, queries[i][0]);
      sb.append(", \"url\": ");
      Protocol.quote(sb, queries[i][1]);
      sb.append('}');
    }
    return sb.append("]}").toString();
  }

  /** Each library: a batch request answers every query as a request of its own would. */
  @Test
  void batchesAnswerLikeSingleRequests() {
    byte[] body = bytes("User-agent: foobot\nDisallow: /private\nAllow: /private/open\n\n"
        + "User-agent: *\nDisallow: /\n");
    for (String name : new String[] {"crawler-commons", "panforge-robots", "heritrix"}) {
      Protocol.Library lib = Adapter.library(name);
      assertTrue(lib instanceof Protocol.BatchLibrary, name);
      assertTrue(Protocol.handshake(lib).startsWith("{\"protocol\":2,"), name);
      String base = lib.fullUrls() ? "https://example.com" : "";
      java.util.List<String[]> queries = new java.util.ArrayList<>();
      for (String agent : new String[] {"foobot", "barbot", "FooBot"}) {
        for (String path : new String[] {"/private/x", "/private/open/y", "/public"}) {
          queries.add(new String[] {agent, base + path});
        }
      }
      if (lib.fullUrls()) {
        queries.add(new String[] {"foobot", "http://example.org:8080/private?q=1"});
      }
      StringBuilder expected = new StringBuilder("{\"id\":9,\"answers\":[");
      for (int i = 0; i < queries.size(); i++) {
        String single = Protocol.handle(request(9, body, queries.get(i)[0], queries.get(i)[1]), lib);
        expected.append(i > 0 ? "," : "").append('{').append(single.substring("{\"id\":9,".length()));
      }
      expected.append("]}");
      assertEquals(expected.toString(),
          Protocol.handle(batchRequest(9, body, queries.toArray(new String[0][])), lib), name);
      assertEquals("{\"id\":10,\"answers\":[]}",
          Protocol.handle(batchRequest(10, body, new String[0][]), lib), name);
    }
  }

  @Test
  void batchFailures() {
    int[] parses = {0};
    Protocol.BatchLibrary lib = new Protocol.BatchLibrary() {
      public String name() { return "fake"; }
      public String version() { return "0"; }
      public boolean fullUrls() { return false; }
      public Protocol.Matcher parse(byte[] robots) {
        parses[0]++;
        if (robots.length == 3) {
          throw new IllegalArgumentException("cannot parse");
        }
        return (agent, url) -> {
          if (agent.equals("boom")) {
            throw new IllegalStateException("check failed");
          }
          return new Protocol.Verdict(agent.equals("yes"), parses[0]);
        };
      }
    };
    assertEquals("{\"id\":1,\"answers\":[{\"verdict\":\"allowed\",\"line\":1},"
        + "{\"error\":\"java.lang.IllegalStateException: check failed\"},"
        + "{\"verdict\":\"disallowed\",\"line\":1}]}",
        Protocol.handle(batchRequest(1, new byte[0],
            new String[][] {{"yes", "/"}, {"boom", "/"}, {"no", "/"}}), lib));
    assertEquals("{\"id\":2,\"answers\":[{\"error\":\"java.lang.IllegalArgumentException: cannot parse\"},"
        + "{\"error\":\"java.lang.IllegalArgumentException: cannot parse\"}]}",
        Protocol.handle(batchRequest(2, bytes("abc"), new String[][] {{"a", "/"}, {"b", "/"}}), lib));
    assertEquals("{\"id\":3,\"verdict\":\"allowed\",\"line\":3}",
        Protocol.handle(request(3, new byte[0], "yes", "/"), lib));
    assertEquals("{\"id\":4,\"error\":\"bad request: every query needs string agent and url\"}",
        Protocol.handle("{\"id\": 4, \"robots_b64\": \"\", \"queries\": [{\"agent\": \"a\"}]}", lib));
    assertEquals(3, parses[0]);
  }

  @Test
  void exceptionsBecomeErrors() {
    Protocol.Library boom = new Protocol.Library() {
      public String name() { return "boom"; }
      public String version() { return "0"; }
      public boolean fullUrls() { return false; }
      public Protocol.Verdict check(byte[] robots, String agent, String url) {
        throw new StackOverflowError("d\u00e9j\u00e0 vu \ud83d\ude00");
      }
    };
    assertEquals("{\"id\":5,\"error\":\"java.lang.StackOverflowError: d\\u00e9j\\u00e0 vu \\ud83d\\ude00\"}",
        Protocol.handle(request(5, new byte[0], "a", "/"), boom));
  }

  @Test
  void jsonEscapes() {
    StringBuilder sb = new StringBuilder();
    Protocol.quote(sb, "\u00e9\u2028\ud83d\ude00\u0000\r\"\\\u007f");
    assertEquals("\"\\u00e9\\u2028\\ud83d\\ude00\\u0000\\r\\\"\\\\\\u007f\"", sb.toString());
    // Escaped agent and URL reach the library decoded (here: echoed through an error).
    Protocol.Library echo = new Protocol.Library() {
      public String name() { return "echo"; }
      public String version() { return "0"; }
      public boolean fullUrls() { return false; }
      public Protocol.Verdict check(byte[] robots, String agent, String url) {
        throw new IllegalStateException(agent + "|" + url + "|" + robots.length);
      }
    };
    assertEquals("{\"id\":1,\"error\":\"java.lang.IllegalStateException: \\u00e9\\ud83d\\ude00|/\\r|3\"}",
        Protocol.handle("{\"url\":\"/\\r\",\"id\":1,\"agent\":\"\\u00e9\\uD83D\\uDE00\",\"robots_b64\":\"YWJj\"}", echo));
  }

  @Test
  void servePipelinedAndLarge() throws Exception {
    Protocol.Library lib = Adapter.library("crawler-commons");
    StringBuilder big = new StringBuilder("User-agent: *\n");
    while (big.length() < 4 << 20) { // a 4 MB body: over 5 MB of base64 on one line
      big.append("Disallow: /x").append(big.length()).append('\n');
    }
    big.append("Disallow: /last\n");
    String in = request(1, bytes(FOOBOT), "foobot", "https://example.com/page") + "\n"
        + "\n" // blank lines are skipped
        + request(2, bytes(big.toString()), "foobot", "https://example.com/last") + "\r\n"
        + "not json\n"
        + request(4, bytes(PRIVATE), "foobot", "https://example.com/public"); // no final LF
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Protocol.serve(new ByteArrayInputStream(in.getBytes(StandardCharsets.US_ASCII)), out, lib);
    String[] lines = out.toString(StandardCharsets.US_ASCII).split("\n");
    assertEquals(5, lines.length, out.toString(StandardCharsets.US_ASCII));
    assertTrue(lines[0].startsWith("{\"protocol\":2,"));
    assertEquals("{\"id\":1,\"verdict\":\"disallowed\"}", lines[1]);
    assertEquals("{\"id\":2,\"verdict\":\"disallowed\"}", lines[2]);
    assertTrue(lines[3].startsWith("{\"id\":null,\"error\":"), lines[3]);
    assertEquals("{\"id\":4,\"verdict\":\"allowed\"}", lines[4]);
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void answersAreFlushedWhileWaitingForInput() throws Exception {
    Protocol.Library lib = Adapter.library("panforge-robots");
    PipedOutputStream toAdapter = new PipedOutputStream();
    PipedInputStream adapterIn = new PipedInputStream(toAdapter, 1 << 16);
    PipedOutputStream adapterOut = new PipedOutputStream();
    BufferedReader answers = new BufferedReader(new InputStreamReader(
        new PipedInputStream(adapterOut, 1 << 16), StandardCharsets.US_ASCII));
    Thread server = new Thread(() -> {
      try {
        Protocol.serve(adapterIn, adapterOut, lib);
        adapterOut.close();
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    server.start();
    assertTrue(answers.readLine().startsWith("{\"protocol\":2,"));
    for (int id = 1; id <= 3; id++) {
      toAdapter.write((request(id, bytes(PRIVATE), "a", "/private") + "\n").getBytes(StandardCharsets.US_ASCII));
      toAdapter.flush();
      assertEquals("{\"id\":" + id + ",\"verdict\":\"disallowed\"}", answers.readLine());
    }
    toAdapter.close();
    server.join(10_000);
    assertEquals(null, answers.readLine());
  }
}
