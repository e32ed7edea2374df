//! Standard output that never panics: [`outln!`] and [`out!`] replace `println!` and
//! `print!` in the subcommands. A standard output that cannot be written ends reptest
//! through [`reptest::shutdown::exit`] (adapters are stopped, staged files removed):
//!
//! - closed by the reader (`reptest ... | head`): quietly, with 141 as a shell reports a
//!   SIGPIPE death, so `set -o pipefail` still sees it;
//! - any other error (`>/dev/full`, a file-size limit): with a message and exit 2.

use std::io::Write;

/// Writes formatted text to stdout, ending reptest on a write error.
pub fn write(args: std::fmt::Arguments<'_>, newline: bool) {
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_fmt(args).and_then(|()| {
        if newline {
            stdout.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = written {
        failed(&e);
    }
}

/// Flushes stdout, ending reptest on a write error; called before every exit.
pub fn flush() {
    if let Err(e) = std::io::stdout().lock().flush() {
        failed(&e);
    }
}

fn failed(error: &std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        reptest::shutdown::exit(141);
    }
    let _ = writeln!(
        std::io::stderr(),
        "reptest: error: cannot write to standard output: {error}"
    );
    reptest::shutdown::exit(2)
}

/// `println!` that ends reptest with a clear error instead of panicking.
macro_rules! outln {
    () => { $crate::cli::stdout::write(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::cli::stdout::write(format_args!($($arg)*), true) };
}

/// `print!` that ends reptest with a clear error instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::stdout::write(format_args!($($arg)*), false) };
}
