package reptest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The adapter side of reptest's external adapter protocol, versions 1 and 2
 * (harness/PROTOCOL.md): the handshake, a line loop over stdin, base64 bodies, ASCII-only JSON
 * answers, and exceptions (any Throwable) reported as {"id", "error"} answers. Each library
 * supplies a {@link Library} (protocol 1), or a {@link BatchLibrary} (protocol 2), which parses
 * a request's body once and answers each of its queries with the {@link Matcher} it returns. A
 * {@link FetchingLibrary} also fetches: fetch requests (capability {@code fetches}) name the
 * robots.txt URL on reptest's loopback site instead of carrying a body.
 */
public final class Protocol {
  private Protocol() {}

  /** A library's answer: allowed or not, and the 1-based line of the deciding rule (0: unknown). */
  public record Verdict(boolean allowed, int line) {
    public static Verdict of(boolean allowed) {
      return new Verdict(allowed, 0);
    }
  }

  /** One robots.txt library. {@link #check} must build a fresh parser for every call. */
  public interface Library {
    String name();

    String version();

    /** true if the library takes absolute URLs; false: reptest sends path and query. */
    boolean fullUrls();

    default boolean reportsLine() {
      return false;
    }

    Verdict check(byte[] robots, String agent, String url) throws Exception;
  }

  /** The queries of one request, answered against one parse of its body. */
  public interface Matcher {
    Verdict check(String agent, String url) throws Exception;
  }

  /**
   * A library that parses once and checks many (protocol 2). {@link #parse} must build a fresh
   * parser for every call (one per request); a v1 request is one parse and one check.
   */
  public interface BatchLibrary extends Library {
    Matcher parse(byte[] robots) throws Exception;

    @Override
    default Verdict check(byte[] robots, String agent, String url) throws Exception {
      return parse(robots).check(agent, url);
    }
  }

  /**
   * A library judged through its own fetching path too (capability {@code fetches}): {@link
   * #fetch} gets the robots.txt at a URL (taking at most the timeout) into a {@link Matcher} for
   * that request alone.
   */
  public interface FetchingLibrary extends BatchLibrary {
    Matcher fetch(String robotsUrl, java.time.Duration timeout) throws Exception;
  }

  /**
   * The version of a Maven artifact on the class path, from its
   * META-INF/maven/GROUP/ARTIFACT/pom.properties (kept by the shaded jar), else "unknown".
   */
  public static String mavenVersion(String group, String artifact) {
    String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (InputStream in = Protocol.class.getResourceAsStream(resource)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version");
        if (v != null && !v.isBlank()) {
          return v.trim();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }

  /** The handshake line, without the LF. */
  public static String handshake(Library lib) {
    StringBuilder sb = new StringBuilder(160);
    sb.append("{\"protocol\":").append(lib instanceof BatchLibrary ? 2 : 1).append(",\"name\":");
    quote(sb, lib.name());
    sb.append(",\"version\":");
    quote(sb, lib.version());
    sb.append(",\"language\":\"Java\",\"capabilities\":{\"full_urls\":")
        .append(lib.fullUrls())
        .append(",\"reports_line\":")
        .append(lib.reportsLine());
    if (lib instanceof FetchingLibrary) {
      sb.append(",\"fetches\":true");
    }
    sb.append("}}");
    return sb.toString();
  }

  /** The answer line for one request line, without the LF. Never throws. */
  public static String handle(String line, Library lib) {
    Object id = null;
    try {
      Object parsed = new JsonReader(line).document();
      if (!(parsed instanceof Map<?, ?> req)) {
        return error(null, "bad request line: not a JSON object");
      }
      Object rawId = req.get("id");
      if (!(rawId instanceof Long)) {
        return error(null, "bad request: no integer id");
      }
      id = rawId;
      if (lib instanceof FetchingLibrary fetchingLib && req.containsKey("robots_url")) {
        return fetchBatch(id, req, fetchingLib);
      }
      if (lib instanceof BatchLibrary batchLib && req.containsKey("queries")) {
        return batch(id, req, batchLib);
      }
      if (!(req.get("robots_b64") instanceof String b64)
          || !(req.get("agent") instanceof String agent)
          || !(req.get("url") instanceof String url)) {
        return error(id, "bad request: robots_b64, agent and url are required strings");
      }
      byte[] body;
      try {
        body = Base64.getDecoder().decode(b64);
      } catch (IllegalArgumentException e) {
        return error(id, "bad request: robots_b64: " + e.getMessage());
      }
      Verdict v = lib.check(body, agent, url);
      if (v == null) {
        return error(id, "library returned no verdict");
      }
      StringBuilder sb = new StringBuilder(64);
      sb.append("{\"id\":").append(id).append(",\"verdict\":\"")
          .append(v.allowed() ? "allowed" : "disallowed").append('"');
      if (v.line() > 0) {
        sb.append(",\"line\":").append(v.line());
      }
      return sb.append('}').toString();
    } catch (JsonReader.SyntaxError e) {
      return error(null, "bad request line: " + e.getMessage());
    } catch (Throwable t) { // StackOverflowError from java.util.regex included
      return error(id, describe(t));
    }
  }

  /** The answer line of a batch request: one parse, one answer per query, in order. */
  static String batch(Object id, Map<?, ?> req, BatchLibrary lib) {
    if (!(req.get("robots_b64") instanceof String b64)
        || !(req.get("queries") instanceof java.util.List<?> queries)) {
      return error(id, "bad request: robots_b64 (a string) and queries (an array) are required");
    }
    for (Object q : queries) {
      if (!(q instanceof Map<?, ?> m)
          || !(m.get("agent") instanceof String)
          || !(m.get("url") instanceof String)) {
        return error(id, "bad request: every query needs string agent and url");
      }
    }
    byte[] body;
    try {
      body = Base64.getDecoder().decode(b64);
    } catch (IllegalArgumentException e) {
      return error(id, "bad request: robots_b64: " + e.getMessage());
    }
    Matcher matcher = null;
    String parseError = null;
    try {
      matcher = lib.parse(body);
      if (matcher == null) {
        parseError = "library parsed nothing";
      }
    } catch (Throwable t) { // StackOverflowError from java.util.regex included
      parseError = describe(t);
    }
    return answers(id, queries, matcher, parseError);
  }

  /**
   * The answer line of a fetch request: one fetch through the library, one answer per query, in
   * order; a failed fetch is an error for every query.
   */
  static String fetchBatch(Object id, Map<?, ?> req, FetchingLibrary lib) {
    if (!(req.get("robots_url") instanceof String robotsUrl)
        || !(req.get("timeout_ms") instanceof Long timeoutMs)
        || timeoutMs <= 0
        || !(req.get("queries") instanceof java.util.List<?> queries)) {
      return error(
          id, "bad request: robots_url, a positive timeout_ms and queries (an array) are required");
    }
    for (Object q : queries) {
      if (!(q instanceof Map<?, ?> m)
          || !(m.get("agent") instanceof String)
          || !(m.get("url") instanceof String)) {
        return error(id, "bad request: every query needs string agent and url");
      }
    }
    Matcher matcher = null;
    String fetchError = null;
    try {
      matcher = lib.fetch(robotsUrl, java.time.Duration.ofMillis(timeoutMs));
      if (matcher == null) {
        fetchError = "library fetched nothing";
      }
    } catch (Throwable t) {
      fetchError = describe(t);
    }
    return answers(id, queries, matcher, fetchError);
  }

  /** One line of answers, one per query, against one parse (or fetch) or its error. */
  static String answers(Object id, java.util.List<?> queries, Matcher matcher, String parseError) {
    StringBuilder sb = new StringBuilder(32 + 32 * queries.size());
    sb.append("{\"id\":").append(id).append(",\"answers\":[");
    boolean first = true;
    for (Object q : queries) {
      Map<?, ?> m = (Map<?, ?>) q;
      if (!first) {
        sb.append(',');
      }
      first = false;
      if (parseError != null) {
        sb.append("{\"error\":");
        quote(sb, parseError);
        sb.append('}');
        continue;
      }
      try {
        Verdict v = matcher.check((String) m.get("agent"), (String) m.get("url"));
        if (v == null) {
          sb.append("{\"error\":\"library returned no verdict\"}");
          continue;
        }
        sb.append("{\"verdict\":\"").append(v.allowed() ? "allowed" : "disallowed").append('"');
        if (v.line() > 0) {
          sb.append(",\"line\":").append(v.line());
        }
        sb.append('}');
      } catch (Throwable t) {
        sb.append("{\"error\":");
        quote(sb, describe(t));
        sb.append('}');
      }
    }
    return sb.append("]}").toString();
  }

  static String describe(Throwable t) {
    String msg = t.getMessage();
    return msg == null ? t.getClass().getName() : t.getClass().getName() + ": " + msg;
  }

  static String error(Object id, String message) {
    StringBuilder sb = new StringBuilder(64 + message.length());
    sb.append("{\"id\":").append(id == null ? "null" : id.toString()).append(",\"error\":");
    quote(sb, message);
    return sb.append('}').toString();
  }

  /** Appends s as a JSON string in pure ASCII: non-ASCII and controls as \\uXXXX. */
  static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c >= 0x7f) { // UTF-16 code units: astral characters become pairs
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  /**
   * Runs the protocol until in ends: the handshake, then one answer per request line, in
   * order. Answers are buffered only while the next request is already complete in the
   * input buffer, and never longer than {@link Output#FLUSH_DELAY_NANOS}.
   */
  public static void serve(InputStream in, OutputStream out, Library lib) throws IOException {
    Output o = new Output(out);
    o.writeLine(handshake(lib));
    o.flush();
    LineReader r = new LineReader(in);
    String line;
    while ((line = r.readLine()) != null) {
      if (!line.isBlank()) {
        o.writeLine(handle(line, lib));
      }
      if (!r.hasBufferedLine()) {
        o.flush();
      }
    }
    o.close();
  }

  /** Reads LF-terminated lines (a CR before the LF is dropped; a lone CR is data). */
  static final class LineReader {
    private final InputStream in;
    private byte[] buf = new byte[1 << 16];
    private int start;
    private int end;
    private boolean eof;

    LineReader(InputStream in) {
      this.in = in;
    }

    boolean hasBufferedLine() {
      for (int i = start; i < end; i++) {
        if (buf[i] == '\n') {
          return true;
        }
      }
      return false;
    }

    String readLine() throws IOException {
      int scanned = start;
      while (true) {
        for (int i = scanned; i < end; i++) {
          if (buf[i] == '\n') {
            int stop = (i > start && buf[i - 1] == '\r') ? i - 1 : i;
            String line = new String(buf, start, stop - start, StandardCharsets.UTF_8);
            start = i + 1;
            return line;
          }
        }
        scanned = end;
        if (eof) {
          if (start == end) {
            return null;
          }
          String line = new String(buf, start, end - start, StandardCharsets.UTF_8);
          start = end;
          return line;
        }
        // make room: compact, then grow
        if (start > 0) {
          System.arraycopy(buf, start, buf, 0, end - start);
          end -= start;
          scanned -= start;
          start = 0;
        }
        if (end == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = in.read(buf, end, buf.length - end);
        if (n < 0) {
          eof = true;
        } else {
          end += n;
        }
      }
    }
  }

  /** Buffered output, flushed on demand or by a daemon thread at most 5 ms after a write. */
  static final class Output {
    static final long FLUSH_DELAY_NANOS = 5_000_000L;
    private final OutputStream out;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream(1 << 16);
    private long pendingSince; // System.nanoTime() of the oldest unflushed answer; 0: none
    private IOException failure;
    private boolean closed;

    Output(OutputStream out) {
      this.out = out;
      Thread flusher = new Thread(this::flushLoop, "reptest-flusher");
      flusher.setDaemon(true);
      flusher.start();
    }

    synchronized void writeLine(String line) throws IOException {
      check();
      pending.write(line.getBytes(StandardCharsets.US_ASCII)); // quote() made it ASCII
      pending.write('\n');
      if (pendingSince == 0) {
        pendingSince = Math.max(1, System.nanoTime());
        notifyAll();
      }
    }

    synchronized void flush() throws IOException {
      check();
      flushLocked();
      check();
    }

    synchronized void close() throws IOException {
      flush();
      closed = true;
      notifyAll();
    }

    private void check() throws IOException {
      if (failure != null) {
        throw failure;
      }
    }

    private void flushLocked() {
      if (pendingSince == 0 || failure != null) {
        return;
      }
      try {
        pending.writeTo(out);
        out.flush();
      } catch (IOException e) {
        failure = e;
      }
      pending.reset();
      pendingSince = 0;
    }

    private synchronized void flushLoop() {
      try {
        while (!closed) {
          if (pendingSince == 0) {
            wait();
            continue;
          }
          long left = pendingSince + FLUSH_DELAY_NANOS - System.nanoTime();
          if (left > 0) {
            wait(left / 1_000_000L, (int) (left % 1_000_000L));
          } else {
            flushLocked();
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A small JSON reader: objects, arrays, strings, numbers (integers as Long), literals. */
  static final class JsonReader {
    static final class SyntaxError extends Exception {
      SyntaxError(String message) {
        super(message);
      }
    }

    private final String s;
    private int i;

    JsonReader(String s) {
      this.s = s;
    }

    Object document() throws SyntaxError {
      Object v = value(0);
      ws();
      if (i != s.length()) {
        throw err("trailing characters");
      }
      return v;
    }

    private SyntaxError err(String what) {
      return new SyntaxError(what + " at offset " + i);
    }

    private void ws() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          return;
        }
        i++;
      }
    }

    private Object value(int depth) throws SyntaxError {
      if (depth > 64) {
        throw err("nesting too deep");
      }
      ws();
      if (i >= s.length()) {
        throw err("unexpected end");
      }
      char c = s.charAt(i);
      switch (c) {
        case '{':
          return object(depth);
        case '[':
          return array(depth);
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
          }
          throw err("unexpected character");
      }
    }

    private Object literal(String word, Object v) throws SyntaxError {
      if (!s.startsWith(word, i)) {
        throw err("bad literal");
      }
      i += word.length();
      return v;
    }

    private Map<String, Object> object(int depth) throws SyntaxError {
      Map<String, Object> m = new LinkedHashMap<>();
      i++; // {
      ws();
      if (i < s.length() && s.charAt(i) == '}') {
        i++;
        return m;
      }
      while (true) {
        ws();
        if (i >= s.length() || s.charAt(i) != '"') {
          throw err("expected a key");
        }
        String key = string();
        ws();
        if (i >= s.length() || s.charAt(i) != ':') {
          throw err("expected ':'");
        }
        i++;
        m.put(key, value(depth + 1));
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
        } else if (i < s.length() && s.charAt(i) == '}') {
          i++;
          return m;
        } else {
          throw err("expected ',' or '}'");
        }
      }
    }

    private Object array(int depth) throws SyntaxError {
      java.util.List<Object> l = new java.util.ArrayList<>();
      i++; // [
      ws();
      if (i < s.length() && s.charAt(i) == ']') {
        i++;
        return l;
      }
      while (true) {
        l.add(value(depth + 1));
        ws();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
        } else if (i < s.length() && s.charAt(i) == ']') {
          i++;
          return l;
        } else {
          throw err("expected ',' or ']'");
        }
      }
    }

    private String string() throws SyntaxError {
      i++; // opening quote
      int from = i;
      while (i < s.length()) { // fast path: no escapes
        char c = s.charAt(i);
        if (c == '"') {
          return s.substring(from, i++);
        }
        if (c == '\\' || c < 0x20) {
          break;
        }
        i++;
      }
      StringBuilder sb = new StringBuilder(s.length() - from);
      sb.append(s, from, i);
      while (i < s.length()) {
        char c = s.charAt(i++);
        if (c == '"') {
          return sb.toString();
        }
        if (c < 0x20) {
          throw err("raw control character in string");
        }
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        if (i >= s.length()) {
          break;
        }
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\', '/' -> sb.append(e);
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw err("short \\u escape");
            }
            int cp = 0;
            for (int k = 0; k < 4; k++) {
              int d = Character.digit(s.charAt(i + k), 16);
              if (d < 0) {
                throw err("bad \\u escape");
              }
              cp = cp * 16 + d;
            }
            i += 4;
            sb.append((char) cp); // surrogate pairs recombine in the UTF-16 String
          }
          default -> throw err("bad escape");
        }
      }
      throw err("unterminated string");
    }

    private Object number() throws SyntaxError {
      int from = i;
      if (s.charAt(i) == '-') {
        i++;
      }
      boolean integer = true;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c >= '0' && c <= '9') {
          i++;
        } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
          integer = false;
          i++;
        } else {
          break;
        }
      }
      String t = s.substring(from, i);
      try {
        if (integer) {
          return Long.parseLong(t);
        }
        return Double.parseDouble(t);
      } catch (NumberFormatException e) {
        throw err("bad number");
      }
    }
  }
}
