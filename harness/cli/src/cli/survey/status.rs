//! The status of a running survey as one line of text: how far it is through the input
//! (files read of those expected, or octets read of the file's size), files/s, the time
//! left, and the implementations whose circuit breaker is open or whose answers are
//! missing. The progress bar shows it as its message; a log gets it every
//! [`LOG_EVERY`].

use std::time::Duration;

use reptest::report::pieces::numbers::count;

/// How often a status line is written when stderr is not a terminal.
pub(super) const LOG_EVERY: Duration = Duration::from_secs(10);

/// Implementations named in each list of a status line; the others are counted.
const NAMED: usize = 3;

/// A status line is cut to this many characters.
pub(super) const MAX_LINE: usize = 200;

/// How far a survey is, at one moment.
#[derive(Debug, Clone, Default)]
pub(super) struct Snapshot {
    /// Since the files started.
    pub(super) elapsed: Duration,
    /// Entries read from the input (every shard reads them all).
    pub(super) read: u64,
    /// Files the input holds (a directory's listing, or `--limit`), when known.
    pub(super) expected: Option<u64>,
    /// Octets read of the input file and its size (a tar or WARC file).
    pub(super) bytes: Option<(u64, u64)>,
    /// Files tallied by this shard, when the run is sharded.
    pub(super) in_shard: Option<u64>,
    /// Each implementation, in survey order.
    pub(super) implementations: Vec<ImplStatus>,
}

/// One implementation's state during a survey.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct ImplStatus {
    /// Its name.
    pub(super) name: String,
    /// Its answers missing so far (error, timeout, crash, unsupported, skipped).
    pub(super) missing: u64,
    /// Whether its circuit breaker has opened: it is skipped from then on.
    pub(super) open: bool,
}

impl Snapshot {
    /// The share of the input read, in [0, 1], when it can be told: the larger of files
    /// read of those expected and octets read of the file's size.
    pub(super) fn fraction(&self) -> Option<f64> {
        let files = self
            .expected
            .filter(|&n| n > 0)
            .map(|n| self.read as f64 / n as f64);
        let bytes = self
            .bytes
            .filter(|&(_, size)| size > 0)
            .map(|(read, size)| read as f64 / size as f64);
        let fraction = match (files, bytes) {
            (Some(a), Some(b)) => a.max(b),
            (a, b) => a.or(b)?,
        };
        Some(fraction.clamp(0.0, 1.0))
    }

    /// The time left, from the pace so far; `None` until something was read.
    pub(super) fn eta(&self) -> Option<Duration> {
        let done = self.fraction().filter(|&f| f > 0.0)?;
        Some(self.elapsed.mul_f64((1.0 - done) / done))
    }

    /// Files read per second so far.
    fn rate(&self) -> f64 {
        self.read as f64 / self.elapsed.as_secs_f64().max(1e-3)
    }

    /// The status line: `1,234/4,231 files (29.2 %), 310 files/s, ETA 9 s; breaker
    /// open: a; missing answers: b 12`, at most [`MAX_LINE`] characters.
    pub(super) fn line(&self) -> String {
        let mut line = self.position();
        if let Some(own) = self.in_shard {
            line.push_str(&format!(" ({} in this shard)", count(own)));
        }
        line.push_str(&format!(", {} files/s", rate(self.rate())));
        if let Some(eta) = self.eta() {
            line.push_str(&format!(", ETA {}", duration(eta)));
        }
        line.push_str(&implementations(&self.implementations));
        cut(line, MAX_LINE)
    }

    /// `1,234/4,231 files (29.2 %)`, `1,234 files, 12.0/96.5 MiB (12.4 %)` or `1,234
    /// files`.
    fn position(&self) -> String {
        let files = match self.expected {
            Some(n) => format!("{}/{} files", count(self.read), count(n)),
            None => format!("{} files", count(self.read)),
        };
        let bytes = self.bytes.map_or(String::new(), |(read, size)| {
            format!(", {}/{} MiB", mib(read), mib(size))
        });
        match self.fraction() {
            Some(f) => format!("{files}{bytes} ({:.1} %)", 100.0 * f),
            None => format!("{files}{bytes}"),
        }
    }
}

/// `; breaker open: a, b; missing answers: c 12, d 3 (+2 more)`, or nothing when every
/// implementation answers.
fn implementations(all: &[ImplStatus]) -> String {
    let open: Vec<String> = all
        .iter()
        .filter(|i| i.open)
        .map(|i| i.name.clone())
        .collect();
    let mut missing: Vec<&ImplStatus> = all.iter().filter(|i| !i.open && i.missing > 0).collect();
    missing.sort_by(|a, b| b.missing.cmp(&a.missing).then(a.name.cmp(&b.name)));
    let missing: Vec<String> = missing
        .iter()
        .map(|i| format!("{} {}", i.name, count(i.missing)))
        .collect();
    let mut text = String::new();
    if !open.is_empty() {
        text.push_str(&format!("; breaker open: {}", named(&open)));
    }
    if !missing.is_empty() {
        text.push_str(&format!("; missing answers: {}", named(&missing)));
    }
    text
}

/// The first [`NAMED`] items, then how many more.
fn named(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > NAMED {
        text.push_str(&format!(" (+{} more)", items.len() - NAMED));
    }
    text
}

/// A rate: whole above 10, one decimal below.
fn rate(per_second: f64) -> String {
    if per_second >= 10.0 {
        count(per_second.round() as u64)
    } else {
        format!("{per_second:.1}")
    }
}

/// Octets in MiB with one decimal.
fn mib(octets: u64) -> String {
    format!("{:.1}", octets as f64 / (1u64 << 20) as f64)
}

/// `45 s`, `3 min 20 s`, `2 h 05 min`.
pub(super) fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// `line` cut to `max` characters, the cut marked `…`.
fn cut(line: String, max: usize) -> String {
    if line.chars().count() <= max {
        return line;
    }
    let mut kept: String = line.chars().take(max - 1).collect();
    kept.push('…');
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn implementation(name: &str, missing: u64, open: bool) -> ImplStatus {
        ImplStatus {
            name: name.into(),
            missing,
            open,
        }
    }

    #[test]
    fn a_directory_says_files_of_expected_rate_and_eta() {
        let s = Snapshot {
            elapsed: Duration::from_secs(10),
            read: 1000,
            expected: Some(4000),
            ..Snapshot::default()
        };
        assert_eq!(
            s.line(),
            "1,000/4,000 files (25.0 %), 100 files/s, ETA 30 s"
        );
    }

    #[test]
    fn a_stream_says_octets_of_its_size_and_without_one_has_no_eta() {
        let s = Snapshot {
            elapsed: Duration::from_secs(60),
            read: 90,
            bytes: Some((1 << 20, 4 << 20)),
            in_shard: Some(12),
            ..Snapshot::default()
        };
        assert_eq!(
            s.line(),
            "90 files, 1.0/4.0 MiB (25.0 %) (12 in this shard), 1.5 files/s, ETA 3 min 00 s"
        );
        let unknown = Snapshot {
            elapsed: Duration::from_secs(2),
            read: 7,
            ..Snapshot::default()
        };
        assert_eq!(unknown.line(), "7 files, 3.5 files/s");
        assert_eq!(unknown.eta(), None);
    }

    #[test]
    fn a_limit_and_a_size_take_the_further_and_nothing_read_has_no_eta() {
        let s = Snapshot {
            elapsed: Duration::from_secs(1),
            read: 50,
            expected: Some(100),
            bytes: Some((10, 100)),
            ..Snapshot::default()
        };
        assert_eq!(s.fraction(), Some(0.5));
        let start = Snapshot {
            expected: Some(100),
            ..Snapshot::default()
        };
        assert_eq!(start.eta(), None);
        assert!(!start.line().contains("ETA"), "{}", start.line());
    }

    #[test]
    fn open_breakers_and_missing_answers_are_named_within_a_bounded_line() {
        let mut s = Snapshot {
            elapsed: Duration::from_secs(1),
            read: 10,
            expected: Some(10),
            implementations: vec![
                implementation("reference", 0, false),
                implementation("slow", 40, true),
                implementation("flaky", 3, false),
                implementation("flakier", 9, false),
            ],
            ..Snapshot::default()
        };
        assert_eq!(
            s.line(),
            "10/10 files (100.0 %), 10 files/s, ETA 0 s; breaker open: slow; missing answers: flakier 9, flaky 3"
        );
        s.implementations = (0..500)
            .map(|i| implementation(&format!("implementation-{i}"), i + 1, i % 2 == 0))
            .collect();
        let line = s.line();
        assert!(line.chars().count() <= MAX_LINE, "{line}");
        assert!(line.contains("(+247 more)"), "{line}");
        assert!(line.contains("implementation-499 500"), "{line}");
    }

    #[test]
    fn durations_read_in_seconds_minutes_or_hours() {
        assert_eq!(duration(Duration::from_secs(59)), "59 s");
        assert_eq!(duration(Duration::from_secs(200)), "3 min 20 s");
        assert_eq!(duration(Duration::from_secs(7500)), "2 h 05 min");
        assert_eq!(cut("abcdef".into(), 4), "abc…");
    }
}
