//! reptest's survey inputs: real robots.txt files, read from a directory, a tar archive or
//! WARC files, and the queries derived from them.
//!
//! A *survey* runs real files through the implementations and measures where they
//! disagree. This crate is its first layer: it turns an input into a stream of
//! [`SurveyFile`]s (host, HTTP status, body, where it came from) and each file into
//! [`SurveyQuery`]s (agent, URL, the method that made it). Running the queries is the
//! runner's job, not this crate's.
//!
//! ```
//! # fn main() -> Result<(), reptest_survey::Error> {
//! # let dir = tempfile::tempdir().unwrap();
//! # std::fs::write(dir.path().join("example.com"), "User-agent: *\nDisallow: /private/\n").unwrap();
//! # let input = dir.path();
//! for file in reptest_survey::open(input)? {
//!     let file = file?;
//!     let branch = reptest_survey::AccessBranch::of(file.status);
//!     for query in reptest_survey::derive(&file, 2024, 20) {
//!         // ... ask every implementation: may query.agent fetch query.url on file.host?
//!         # let _ = (&query, branch);
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Inputs
//!
//! [`open`] picks the reader from the path ([`Format::of_path`]); any other path is an
//! error. Whether a tar or WARC stream is gzip-compressed is told by its first two
//! octets, so a misnamed file still reads.
//!
//! * **A directory**: one file per host, the file name being the host. Its regular files
//!   (symbolic links followed) are read in the order of their names' octets;
//!   subdirectories are skipped, not searched, and so are hidden files (a name starting
//!   with `.`). A file is opened without blocking and read only if the open file is
//!   regular, so a FIFO put in its place cannot hang the survey; a file that vanished or
//!   changed kind since the listing is a skipped entry (a non-fatal [`Error`]).
//! * **A `.tar`, `.tar.gz` or `.tgz`**: each regular member is a file, its host the last
//!   component of the member's path. Directories, symbolic links, special members and
//!   hidden names are skipped; hard links and GNU sparse members are skipped entries (a
//!   non-fatal [`Error`] that says why). A GNU long-name, long-link or PAX header over
//!   64 KiB is refused (fatal), as the `tar` crate would read it into memory whole.
//! * **A `.warc` or `.warc.gz`** in the format of Common Crawl's robots.txt subset:
//!   every `WARC-Type: response` record whose payload is an HTTP response is a file.
//!   The host comes from `WARC-Target-URI` (lowercased; userinfo and the scheme's default
//!   port removed), the status from the stored status line, the body is the stored
//!   entity body: de-chunked if the stored head says `Transfer-Encoding: chunked`, then
//!   decompressed if it says `Content-Encoding: gzip`, `x-gzip` or `deflate` (Common
//!   Crawl stores bodies decoded and renames those fields `X-Crawler-...`, which are then
//!   left alone). The body of a non-2xx response is kept as well. Other records
//!   (`warcinfo`, `request`, `metadata`, `revisit`, ...) are skipped. A compressed file
//!   is read gzip member after gzip member (Common Crawl writes one per record), and a
//!   record's [`SurveyFile::source`] is the offset of the member it starts in: the
//!   offset Common Crawl's indexes give. The `warc` crate's header grammar
//!   (`warc::parser::headers`) parses each record's header block; the record framing
//!   is this crate's, because the `warc` crate's record iterators fall short on
//!   untrusted input: `Record::header` panics on a non-UTF-8 field value (a
//!   `WARC-Target-URI` with a raw octet from 0x80), a header block is read without a
//!   limit, a stream cut inside a header block reads as complete, an error at the end
//!   of the stream repeats forever, and records carry no offset.
//!
//! Every reader streams: it holds one body at a time, at most [`BODY_LIMIT`] (1 MiB)
//! octets of it, twice the 500 KiB a parser must read (RFC 9309 §2.5); a longer body is
//! cut and marked [`Cut::Limit`], and a body the archive itself stored incomplete is
//! marked [`Cut::Archive`]. No input makes a reader panic: a truncated archive, a garbage
//! WARC stream or a binary body gives an [`Error`] or a skipped record; a response
//! listing more than 8 content codings is a skipped record (each would cost a decoder).
//! [`Error::is_fatal`] tells whether the iteration goes on after it. An input in which
//! nothing at all is found (an empty directory, stream or archive) ends with a fatal
//! "empty input" error. Octets of the input quoted in an error (a member name, a field
//! name) are in visible notation: control characters escaped, never raw.
//!
//! [`StatusFamily`] and [`AccessBranch`] classify a WARC record's status for the status
//! table: 2xx/3xx/4xx/5xx/other, and which branch of the access method of RFC 9309
//! §2.3.1 applies (success: rules apply; redirect; 4xx unavailable: MAY access any
//! resources; 5xx unreachable: MUST assume complete disallow).
//!
//! # Queries
//!
//! [`derive`](fn@derive) makes `per_file` distinct (agent, URL) queries from one file,
//! deterministically from a seed, the host and the body: URLs from the file's own
//! rules (prefixes, child segments, wildcard expansions, `$` boundaries,
//! percent-encoding variants), a fixed set of common paths ([`COMMON_PATHS`]), for a
//! fixed set of agents ([`GENERIC_AGENTS`], [`CRAWLER_AGENTS`]) and the ones the file
//! names. The method is specified in full in the documentation of [`derive`](fn@derive)'s module,
//! [`queries`].
//!
//! # The survey
//!
//! [`engine::survey`] puts every file whose rules apply through the implementations (one
//! [`reptest_core::CaseInput`] per file, through [`reptest_core::runner::evaluate`]) and
//! counts agreement, pairwise and against the decided verdict, per question of the
//! catalogue and per new partition, in a [`Tally`] of additive counts; [`breaker`] skips
//! an implementation that keeps timing out, counting what it was not asked. A [`Shard`] takes
//! a stable slice of the files; [`partial`] writes one shard's result and merges the
//! shards' results into exactly the whole survey, after checking that they are one
//! survey's (the input's [`fingerprint`], the settings, the [`provenance`], checksums,
//! counts). The outputs (`survey.json`, `README.md` and `survey.html`) are rendered by
//! the report crate (`reptest_report::survey`), as every output is; `docs/survey.md`
//! describes them.
//!
//! # Synthetic input
//!
//! [`synth`] writes a WARC file of any number of response records made from real files
//! (hosts renamed, bodies varied, statuses mixed as on the Web), to measure the survey at
//! Internet scale.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bootstrap;
pub mod breaker;
pub mod engine;
mod error;
mod file;
pub mod fingerprint;
mod input;
pub mod minimize;
pub mod partial;
mod printable;
pub mod provenance;
pub mod queries;
pub mod records;
pub mod shard;
pub mod sites;
pub mod status;
pub mod synth;
pub mod tally;

pub use error::Error;
pub use file::{Cut, SurveyFile, BODY_LIMIT};
pub use input::{open, open_counted, Files, Format};
pub use queries::{
    derive, derive_with, AgentClass, Origins, Stratum, SurveyQuery, COMMON_PATHS, CRAWLER_AGENTS,
    GENERIC_AGENTS, MAX_FILE_AGENTS, ORIGINS,
};
pub use shard::{Shard, ShardError};
pub use status::{AccessBranch, StatusFamily};
pub use tally::Tally;
