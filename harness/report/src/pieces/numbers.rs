//! Counts, shares and percentages as every output writes them.

/// `part` of `whole` as a share in [0, 1]; 0 when `whole` is 0.
pub fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// `part` of `whole` as a percentage with one decimal and a space before the sign
/// (`33.3 %`), or `-` when `whole` is 0: the survey's figures.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1} %", 100.0 * share(part, whole))
    }
}

/// A rate already in percent with one decimal (`33.3%`), or `—` when there is none: the
/// conformance report's figures.
pub fn rate(rate: Option<f64>) -> String {
    rate.map_or("—".into(), |r| format!("{r:.1}%"))
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
        assert_eq!(share(1, 4), 0.25);
        assert_eq!(share(1, 0), 0.0);
        assert_eq!(rate(Some(12.345)), "12.3%");
        assert_eq!(rate(None), "—");
    }
}
