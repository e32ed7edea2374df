//! WARC/1.0 records as Common Crawl's robots.txt subset stores them, each written as its
//! own gzip member.

use std::io::{self, Write};

use flate2::{Compression, GzBuilder};

use super::mix::{date_of, record_id};

/// One HTTP response to store: status, extra header fields and body.
pub(crate) struct Response<'a> {
    pub(crate) status: u16,
    /// Header fields after `Content-Type` (each `Name: value`), such as `Location`.
    pub(crate) fields: &'a [String],
    pub(crate) content_type: &'static str,
    pub(crate) body: &'a [u8],
}

/// The reason phrase of the statuses the generator writes.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        404 => "Not Found",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// The HTTP message of `response`: status line, header fields, empty line, body.
fn http_message(response: &Response<'_>) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len()
    );
    for field in response.fields {
        head.push_str(field);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    [head.as_bytes(), response.body].concat()
}

/// Writes one record (header fields in order, then `content`) as one gzip member.
fn write_member(out: &mut dyn Write, fields: &[(&str, &str)], content: &[u8]) -> io::Result<()> {
    let mut gz = GzBuilder::new().write(out, Compression::default());
    gz.write_all(b"WARC/1.0\r\n")?;
    for (name, value) in fields {
        write!(gz, "{name}: {value}\r\n")?;
    }
    write!(gz, "Content-Length: {}\r\n\r\n", content.len())?;
    gz.write_all(content)?;
    gz.write_all(b"\r\n\r\n")?;
    gz.finish()?;
    Ok(())
}

/// The `warcinfo` record that opens the file: what wrote it, with which seed, and that
/// the hosts are not real.
pub(crate) fn write_warcinfo(out: &mut dyn Write, seed: u64, records: u64) -> io::Result<()> {
    let content = format!(
        "software: reptest {} (reptest survey synth)\r\n\
         format: WARC File Format 1.0\r\n\
         description: {records} synthetic robots.txt responses made from real files, seed {seed}; \
         hosts renamed (.example), bodies varied, statuses mixed 85/13/1/1 (200/404/5xx/3xx)\r\n",
        env!("CARGO_PKG_VERSION")
    );
    let id = record_id(seed, u64::MAX);
    write_member(
        out,
        &[
            ("WARC-Type", "warcinfo"),
            ("WARC-Date", &date_of(0)),
            ("WARC-Record-ID", &id),
            ("Content-Type", "application/warc-fields"),
        ],
        content.as_bytes(),
    )
}

/// The `response` record of record `index`: `https://HOST/robots.txt` answered with
/// `response`.
pub(crate) fn write_response(
    out: &mut dyn Write,
    seed: u64,
    index: u64,
    host: &str,
    response: &Response<'_>,
) -> io::Result<()> {
    let uri = format!("https://{host}/robots.txt");
    let (id, info) = (record_id(seed, index), record_id(seed, u64::MAX));
    write_member(
        out,
        &[
            ("WARC-Type", "response"),
            ("WARC-Date", &date_of(index)),
            ("WARC-Record-ID", &id),
            ("WARC-Warcinfo-ID", &info),
            ("WARC-Target-URI", &uri),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &http_message(response),
    )
}

/// The body and header fields of a record that is not a `200`: a small HTML page, and
/// for a redirect the `Location` of `www.HOST`.
pub(crate) fn error_page(status: u16, host: &str) -> (Vec<u8>, Vec<String>) {
    let body = format!(
        "<html><head><title>{status} {reason}</title></head><body><h1>{reason}</h1></body></html>\n",
        reason = reason(status)
    );
    let fields = match status {
        301 | 302 => vec![format!("Location: https://www.{host}/robots.txt")],
        _ => Vec::new(),
    };
    (body.into_bytes(), fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_record_is_one_gzip_member_of_a_whole_warc_record() {
        let mut out = Vec::new();
        let response = Response {
            status: 200,
            fields: &[],
            content_type: "text/plain",
            body: b"User-agent: *\n",
        };
        write_response(&mut out, 1, 3, "s3.x.example", &response).unwrap();
        let mut text = String::new();
        flate2::read::GzDecoder::new(&out[..])
            .read_to_string(&mut text)
            .unwrap();
        assert!(
            text.starts_with("WARC/1.0\r\nWARC-Type: response\r\n"),
            "{text}"
        );
        assert!(text.contains("WARC-Target-URI: https://s3.x.example/robots.txt\r\n"));
        let http = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 14\r\n\r\nUser-agent: *\n";
        assert!(
            text.ends_with(&format!(
                "Content-Length: {}\r\n\r\n{http}\r\n\r\n",
                http.len()
            )),
            "{text}"
        );
    }

    #[test]
    fn redirects_say_where() {
        let (body, fields) = error_page(301, "h.example");
        assert_eq!(fields, ["Location: https://www.h.example/robots.txt"]);
        assert!(String::from_utf8(body)
            .unwrap()
            .contains("Moved Permanently"));
        assert!(error_page(404, "h.example").1.is_empty());
    }
}
