//! The JSON report of `reptest policy --audit` (format [`super::FORMAT`], documented in
//! docs/policy.md): stable keys, crawlers in the catalogue's order, findings by line.

use super::{class_word, Audit, Row, FORMAT};
use crate::policy::lint::Level;
use reptest_survey::sites::SiteClass;
use serde_json::{json, Value};

/// The report as pretty-printed JSON, with a final line end.
pub fn render(audit: &Audit<'_>) -> String {
    let value = json!({
        "format": FORMAT,
        "robots": audit.robots,
        "notes": audit.notes,
        "compared": audit.compared,
        "registry": audit.registry.as_ref().map(|r| json!({
            "package": "crawler-user-agents",
            "version": r.version,
            "patterns": r.patterns,
        })),
        "crawlers": audit.rows.iter().map(row).collect::<Vec<_>>(),
        "lints": audit.findings,
        "allowed": audit.allowed,
        "summary": summary(audit),
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// A class's JSON value: its label, or `null` when unsettled.
fn class(c: Option<SiteClass>) -> Value {
    c.map_or(Value::Null, |c| Value::from(class_word(Some(c))))
}

/// One crawler.
fn row(r: &Row) -> Value {
    json!({
        "token": r.crawler.token,
        "operator": r.crawler.operator,
        "purpose": r.crawler.purpose,
        "ai": r.crawler.ai,
        "docs": r.crawler.docs,
        "checked": r.crawler.checked,
        "note": r.crawler.note,
        "class": class(r.class),
        "group_line": r.group,
        "rule_line": r.line,
        "path": r.path,
        "reason": r.reason,
        "others": r.others.iter().map(|o| json!({
            "implementation": o.implementation,
            "class": class(o.class),
        })).collect::<Vec<_>>(),
        "registry_patterns": r.registry,
    })
}

/// Counts per class (all crawlers and AI ones) and per level.
fn summary(audit: &Audit<'_>) -> Value {
    let counts = |ai| {
        json!({
            "fully restricted": audit.in_class(SiteClass::Full, ai),
            "partially restricted": audit.in_class(SiteClass::Partial, ai),
            "unrestricted": audit.in_class(SiteClass::Unrestricted, ai),
        })
    };
    json!({
        "crawlers": audit.rows.len(),
        "ai_crawlers": audit.rows.iter().filter(|r| r.crawler.ai).count(),
        "classes": counts(None),
        "ai_classes": counts(Some(true)),
        "divergent": audit.rows.iter().filter(|r| !r.others.is_empty()).count(),
        "errors": audit.count(Level::Error),
        "warnings": audit.count(Level::Warning),
        "notes": audit.count(Level::Note),
        "passed": !audit.failed(),
    })
}
