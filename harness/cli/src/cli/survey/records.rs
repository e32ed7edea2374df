//! `reptest survey --records FILE`: every file's and query's record as JSON lines,
//! gzipped when the name ends in `.gz`, written atomically (the file appears whole when
//! the survey ends, and not at all if it fails).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use flate2::write::GzEncoder;
use reptest::atomic::Streamed;
use reptest_report::survey::records;
use reptest_survey::engine::{ImplEntry, Observer};
use reptest_survey::records::FileRecord;

/// Where the records go.
enum Sink {
    Plain(BufWriter<Streamed>),
    Gzip(GzEncoder<BufWriter<Streamed>>),
}

/// The records file being written; the first write error is kept and ends it.
pub(super) struct Records {
    path: PathBuf,
    sink: Mutex<Option<Sink>>,
    error: Mutex<Option<std::io::Error>>,
}

impl Records {
    /// Starts `path` with its header line.
    pub(super) fn create(
        path: &Path,
        implementations: &[ImplEntry],
        seed: u64,
        per_file: u64,
    ) -> Result<Records, String> {
        // `--records DIR/q.jsonl.gz` beside `--out DIR`: the folder is made as --out's is.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let file = Streamed::create(path).map_err(|e| e.to_string())?;
        let buffered = BufWriter::with_capacity(1 << 16, file);
        let gzip = path.extension().is_some_and(|e| e == "gz");
        let sink = if gzip {
            Sink::Gzip(GzEncoder::new(buffered, flate2::Compression::default()))
        } else {
            Sink::Plain(buffered)
        };
        let records = Records {
            path: path.to_path_buf(),
            sink: Mutex::new(Some(sink)),
            error: Mutex::new(None),
        };
        records.write(&records::header_line(implementations, seed, per_file));
        Ok(records)
    }

    fn write(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let result = match sink.as_mut() {
            Some(Sink::Plain(w)) => w.write_all(text.as_bytes()),
            Some(Sink::Gzip(w)) => w.write_all(text.as_bytes()),
            None => return,
        };
        if let Err(e) = result {
            *sink = None;
            *self.error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
        }
    }

    /// Finishes the file and renames it into place; the first write error otherwise.
    pub(super) fn finish(self) -> Result<(), String> {
        let cannot =
            |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", self.path.display());
        if let Some(e) = self.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(cannot(&e));
        }
        let buffered = match self.sink.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Sink::Plain(w)) => w,
            Some(Sink::Gzip(w)) => w.finish().map_err(|e| cannot(&e))?,
            None => return Err(cannot(&"the records ended early")),
        };
        let file = buffered.into_inner().map_err(|e| cannot(&e.error()))?;
        file.commit().map_err(|e| e.to_string())
    }
}

/// Forwards to the progress observer and, when records are written, writes them.
pub(super) struct WithRecords<'a> {
    pub(super) inner: &'a dyn Observer,
    pub(super) records: Option<&'a Records>,
}

impl Observer for WithRecords<'_> {
    fn tallied(&self, files: u64) {
        self.inner.tallied(files);
    }

    fn skipped(&self, error: &reptest_survey::Error) {
        self.inner.skipped(error);
    }

    fn read(&self) {
        self.inner.read();
    }

    fn counted(&self, tally: &reptest_survey::tally::Tally) {
        self.inner.counted(tally);
    }

    fn record(&self, record: &FileRecord) {
        if let Some(records) = self.records {
            records.write(&records::file_lines(record));
        }
    }
}
