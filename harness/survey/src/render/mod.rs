//! A survey's outputs: `survey.json` ([`json`]), `README.md` ([`markdown`]) and
//! `survey.html` ([`html`]), all deterministic (no time stamps, no paths), so the same
//! survey, whole or merged from shards, gives the same octets.

pub mod html;
pub mod json;
pub mod markdown;

/// What "decided" means in every output.
pub const DECIDED_MEANS: &str = "The decided verdict of a query is the reference's verdict: RFC 9309 as reptest's corpus decides it (the reference passes every decided corpus query). An implementation's disagreement with it is a departure from that reading of the RFC, not necessarily a bug: some questions leave both answers open.";

/// What the agreement figure means in every output.
pub const AGREEMENT_MEANS: &str = "The share of queries, among those at least two implementations answered with a verdict, on which every implementation that answered gave the same verdict.";

/// `part` of `whole` as a share in [0, 1]; 0 when `whole` is 0.
pub fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// `part` of `whole` as a percentage with one decimal, or `-` when `whole` is 0.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1} %", 100.0 * share(part, whole))
    }
}

/// A count with thousands separators: `12,345`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(count(0), "0");
        assert_eq!(count(1234567), "1,234,567");
        assert_eq!(count(999), "999");
        assert_eq!(percent(1, 3), "33.3 %");
        assert_eq!(percent(1, 0), "-");
    }
}
