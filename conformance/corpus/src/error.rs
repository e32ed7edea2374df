//! The loader's error: every problem found, each with its place.

use std::fmt;
use std::path::PathBuf;

/// Why a corpus could not be loaded: one or more problems, each naming the file, the
/// line (where known) and the case id (where known).
///
/// The type is opaque; its `Display` lists every problem, one per line, as
/// `file:line: case `id`: message`.
#[derive(Debug, Clone)]
pub struct Error {
    problems: Vec<Problem>,
}

#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub(crate) file: PathBuf,
    pub(crate) line: Option<usize>,
    pub(crate) case: Option<String>,
    pub(crate) message: String,
}

impl Error {
    pub(crate) fn new(problems: Vec<Problem>) -> Error {
        Error { problems }
    }

    /// How many problems were found.
    pub fn count(&self) -> usize {
        self.problems.len()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(case) = &self.case {
            write!(f, ": case `{case}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
