//! The two strata of query origins, and which origins a survey asks about.
//!
//! A *natural* query is one a crawler plausibly asks: a path a rule names, a child or
//! extension of it, a wildcard filled in, a `$` pattern's exact end, or one of the common
//! paths sites have. A *probe* is a URL made to provoke a divergence: one letter
//! percent-encoded, an escape in the other hex case or decoded, raw UTF-8 octets, a `$`
//! read as a literal octet, one octet past a `$`. Probes show where parsers part ways on
//! §2.2.2's encoding rules and §2.2.3's `$`; natural queries show how often that matters
//! on the URLs a crawler meets, so the reports give each stratum apart, natural first.

use std::fmt;
use std::str::FromStr;

/// A stratum of query origins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stratum {
    /// `rule-prefix`, `rule-child`, `rule-extend`, `wildcard`, `dollar-end`, `common`.
    Natural,
    /// `encoded`, `hex-case`, `decoded`, `raw-octet`, `dollar-literal`, `dollar-past`.
    Probe,
}

impl Stratum {
    /// Both strata, natural first.
    pub const ALL: [Stratum; 2] = [Stratum::Natural, Stratum::Probe];

    /// The stratum of an origin (one of [`super::ORIGINS`]); an unknown origin is a
    /// probe.
    pub fn of(origin: &str) -> Stratum {
        match origin {
            "rule-prefix" | "rule-child" | "rule-extend" | "wildcard" | "dollar-end" | "common" => {
                Stratum::Natural
            }
            _ => Stratum::Probe,
        }
    }

    /// `natural` or `probe`.
    pub fn label(self) -> &'static str {
        match self {
            Stratum::Natural => "natural",
            Stratum::Probe => "probe",
        }
    }
}

impl fmt::Display for Stratum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Which origins a survey derives queries from (`reptest survey --origins`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Origins {
    /// Every origin (the default).
    #[default]
    All,
    /// Only one stratum's origins.
    Only(Stratum),
}

impl Origins {
    /// Whether queries of `origin` are derived.
    pub fn admits(self, origin: &str) -> bool {
        match self {
            Origins::All => true,
            Origins::Only(stratum) => Stratum::of(origin) == stratum,
        }
    }

    /// `all`, `natural` or `probe`.
    pub fn label(self) -> &'static str {
        match self {
            Origins::All => "all",
            Origins::Only(stratum) => stratum.label(),
        }
    }
}

/// An `--origins` value that is none of `all`, `natural`, `probe`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownOrigins(pub String);

impl fmt::Display for UnknownOrigins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown origins `{}`: expected natural, probe or all",
            self.0
        )
    }
}

impl std::error::Error for UnknownOrigins {}

impl FromStr for Origins {
    type Err = UnknownOrigins;

    fn from_str(text: &str) -> Result<Origins, UnknownOrigins> {
        match text {
            "all" => Ok(Origins::All),
            "natural" => Ok(Origins::Only(Stratum::Natural)),
            "probe" => Ok(Origins::Only(Stratum::Probe)),
            other => Err(UnknownOrigins(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_origin_has_its_stratum() {
        let natural: Vec<&str> = super::super::ORIGINS
            .iter()
            .copied()
            .filter(|o| Stratum::of(o) == Stratum::Natural)
            .collect();
        assert_eq!(
            natural,
            [
                "rule-prefix",
                "rule-child",
                "rule-extend",
                "wildcard",
                "dollar-end",
                "common"
            ]
        );
        assert!(Origins::Only(Stratum::Probe).admits("encoded"));
        assert!(!Origins::Only(Stratum::Probe).admits("common"));
        assert_eq!("natural".parse(), Ok(Origins::Only(Stratum::Natural)));
        assert!("some".parse::<Origins>().is_err());
    }
}
