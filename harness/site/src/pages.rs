//! The HTML the site serves besides the robots.txt: the start page and the linked pages.

use std::fmt::Write as _;

use reptest_core::markup_escape::escape;

/// Where the start page is served: not `/`, so that `/` can be a page of its own (a
/// crawler always fetches the page it is started on, whatever the rules say).
pub const START_PATH: &str = "/reptest-start.html";

/// The start page [`START_PATH`]: one `<a href>` per page, in order, each path once.
pub(crate) fn start_page(pages: &[String]) -> String {
    let mut html = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>reptest start page</title>\
         </head>\n<body>\n<ul>\n",
    );
    let mut seen = std::collections::HashSet::new();
    for page in pages.iter().filter(|page| seen.insert(page.as_str())) {
        let escaped = escape(page);
        let _ = writeln!(html, "<li><a href=\"{escaped}\">{escaped}</a></li>");
    }
    html.push_str("</ul>\n</body></html>\n");
    html
}

/// A linked page: small HTML naming its own path, with no links.
pub(crate) fn page(path: &str) -> String {
    let escaped = escape(path);
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{escaped}</title></head>\n\
         <body><p>reptest page {escaped}</p></body></html>\n"
    )
}

/// The body of every 404.
pub(crate) const NOT_FOUND: &str = "not found\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_page_links_each_page_once_escaped() {
        let html = start_page(&["/a?b=1&c=2".into(), "/x".into(), "/x".into()]);
        assert!(html.contains("<a href=\"/a?b=1&amp;c=2\">"));
        assert_eq!(html.matches("<a href=\"/x\">").count(), 1);
    }
}
