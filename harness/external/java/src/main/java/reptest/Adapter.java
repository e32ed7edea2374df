package reptest;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * Entry point: {@code java -cp reptest-adapters.jar reptest.Adapter LIBRARY}, where LIBRARY is
 * {@code crawler-commons}, {@code panforge-robots} or {@code heritrix}.
 */
public final class Adapter {
  private Adapter() {}

  static Protocol.Library library(String name) {
    return switch (name) {
      case "crawler-commons" -> new CrawlerCommons();
      case "panforge-robots" -> new PanforgeRobots();
      case "heritrix" -> new Heritrix();
      default -> null;
    };
  }

  public static void main(String[] args) {
    Protocol.Library lib = args.length == 1 ? library(args[0]) : null;
    if (lib == null) {
      System.err.println("usage: reptest.Adapter crawler-commons|panforge-robots|heritrix");
      System.exit(2);
    }
    try {
      Protocol.serve(
          new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out), lib);
    } catch (IOException e) {
      System.err.println(lib.name() + " adapter: " + e);
      System.exit(1);
    }
    System.exit(0);
  }
}
