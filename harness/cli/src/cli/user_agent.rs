//! The crawler's product token in a full `User-Agent` header value, for the suggestion
//! when `--agent` is given one (RFC 9309 §2.2.1: crawlers match `User-agent:` lines with
//! their product token, not with the header).

/// Browser and engine products that crawlers list for compatibility before their own
/// (`Mozilla/5.0 ... AppleWebKit/537.36 (KHTML, like Gecko) Chrome/... Safari/...`).
const BROWSERISH: &[&str] = &[
    "mozilla",
    "applewebkit",
    "khtml",
    "gecko",
    "like",
    "chrome",
    "chromium",
    "safari",
    "firefox",
    "version",
    "mobile",
    "edg",
    "edge",
    "opr",
    "opera",
    "msie",
    "build",
    "trident",
    "compatible",
];

/// The product token a crawler with User-Agent `header` most likely goes by: the product
/// after `compatible;` in a comment (`Mozilla/5.0 (compatible; Googlebot/2.1; ...)`),
/// else the first product named like a crawler (`...bot`, `...spider`, `...crawler`),
/// else the first product that is not a browser's, else the leading token; `None` when
/// the header starts with no token at all.
///
/// ```text
/// Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) -> bingbot
/// Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1) -> GPTBot
/// ```
pub fn crawler_token(header: &str) -> Option<String> {
    let products = products(header);
    let crawlerish = |name: &&str| {
        let lower = name.to_ascii_lowercase();
        ["bot", "spider", "crawler"]
            .iter()
            .any(|w| lower.contains(w))
    };
    let browserish = |name: &&str| BROWSERISH.contains(&name.to_ascii_lowercase().as_str());
    compatible(header)
        .filter(|name| !browserish(name))
        .or_else(|| products.iter().copied().find(crawlerish))
        .or_else(|| products.iter().copied().find(|n| !browserish(n)))
        .or_else(|| Some(leading_token(header)).filter(|t| !t.is_empty()))
        .map(str::to_string)
}

/// The leading run of product-token characters (`[A-Za-z_-]`, RFC 9309 §2.2.1).
fn leading_token(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_' || c == '-'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The product after the first `compatible;` (any case) of `header`'s comments.
fn compatible(header: &str) -> Option<&str> {
    let lower = header.to_ascii_lowercase();
    let at = lower.find("compatible;")? + "compatible;".len();
    Some(leading_token(header[at..].trim_start())).filter(|t| !t.is_empty())
}

/// Every `name/version` product of `header`, in order, inside comments or not.
fn products(header: &str) -> Vec<&str> {
    header
        .split(|c: char| c.is_whitespace() || "();,".contains(c))
        .filter_map(|word| word.split_once('/'))
        .map(|(name, _)| name)
        .filter(|name| !name.is_empty() && leading_token(name) == *name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::crawler_token;

    #[test]
    fn the_crawler_is_picked_out_of_browser_products() {
        for (header, token) in [
            (
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
                "Googlebot",
            ),
            (
                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
                "GPTBot",
            ),
            (
                "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
                "bingbot",
            ),
            (
                "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
                "Googlebot",
            ),
            (
                "Mozilla/5.0 (Windows NT 6.1; Win64; x64) KomodiaBot/1.0",
                "KomodiaBot",
            ),
            ("Mozilla/5.0 (compatible; Google-InspectionTool/1.0)", "Google-InspectionTool"),
            ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"),
            ("Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1)", "Mozilla"),
            ("Googlebot/2.1", "Googlebot"),
            ("google bot", "google"),
        ] {
            assert_eq!(crawler_token(header).as_deref(), Some(token), "{header}");
        }
        assert_eq!(crawler_token("/bot"), None);
        assert_eq!(crawler_token(""), None);
    }
}
