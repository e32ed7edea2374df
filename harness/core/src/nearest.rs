//! "Did you mean": the known names nearest to a name that is not known (an unknown
//! implementation, an unknown corpus case id), for error messages.

/// Up to `count` of `known` nearest to `wanted`, nearest first, compared without regard
/// to case: names one of which starts with the other, then names containing `wanted`,
/// then names within a few edits of it (optimal string alignment distance: insertions,
/// deletions, substitutions and swaps of neighbours, at most a third of the longer name,
/// at least 2). Names further off are never suggested; ties keep `known`'s order.
///
/// ```
/// use reptest_core::nearest::nearest;
/// let known = ["reference", "google", "robotstxt", "texting_robots"];
/// assert_eq!(nearest("refrence", known, 3), ["reference"]);
/// assert_eq!(nearest("robots", known, 3), ["robotstxt", "texting_robots"]);
/// assert!(nearest("zzz", known, 3).is_empty());
/// ```
pub fn nearest<'a>(
    wanted: &str,
    known: impl IntoIterator<Item = &'a str>,
    count: usize,
) -> Vec<&'a str> {
    let wanted = wanted.to_lowercase();
    let mut ranked: Vec<((u8, usize), &str)> = known
        .into_iter()
        .filter_map(|name| Some((rank(&wanted, &name.to_lowercase())?, name)))
        .collect();
    ranked.sort_by_key(|(rank, _)| *rank);
    ranked.dedup_by(|a, b| a.1 == b.1);
    ranked.into_iter().take(count).map(|(_, n)| n).collect()
}

/// How near `name` is to `wanted` (both lower case), lower is nearer: the tier (0 prefix,
/// 1 substring, 2 edits), then the edit distance; `None` when too far to suggest.
fn rank(wanted: &str, name: &str) -> Option<(u8, usize)> {
    if wanted.is_empty() {
        return None;
    }
    let distance = strsim::osa_distance(wanted, name);
    if name.starts_with(wanted) || wanted.starts_with(name) {
        return Some((0, distance));
    }
    if name.contains(wanted) {
        return Some((1, distance));
    }
    let longer = wanted.chars().count().max(name.chars().count());
    (distance <= (longer / 3).max(2)).then_some((2, distance))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_come_first_then_substrings_then_edits() {
        let known = ["merge-two-star-groups", "ex51-simple-example", "merge-x"];
        assert_eq!(
            nearest("merge", known, 5),
            ["merge-x", "merge-two-star-groups"]
        );
        assert_eq!(nearest("simple", known, 5), ["ex51-simple-example"]);
        assert_eq!(
            nearest("merge-tow-star-groups", known, 5),
            ["merge-two-star-groups"]
        );
        // A query id names its case as a prefix.
        assert_eq!(nearest("merge-x/examplebot:/a", known, 5), ["merge-x"]);
    }

    #[test]
    fn case_is_ignored_and_far_names_are_not_suggested() {
        assert_eq!(nearest("REFERENCE", ["reference"], 1), ["reference"]);
        assert!(nearest("", ["reference"], 1).is_empty());
        assert!(nearest("abc", ["xyz"], 1).is_empty());
        assert_eq!(nearest("ab", ["ab", "ac", "ad"], 2), ["ab", "ac"]);
    }
}
