//! Directory and tar inputs, built in a temporary directory.

use std::fs;
use std::path::Path;

use reptest_survey::{open, Cut, Files, Format, SurveyFile, BODY_LIMIT};

use crate::common;
use common::gzip;

fn read_all(path: &Path) -> Vec<Result<SurveyFile, reptest_survey::Error>> {
    open(path).expect("opens").collect()
}

fn ok_files(path: &Path) -> Vec<SurveyFile> {
    read_all(path)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .expect("no errors")
}

#[test]
fn directory_sorted_flat_and_capped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(
        root.join("www.example.org"),
        b"User-agent: *\nDisallow: /o\n",
    )
    .unwrap();
    fs::write(root.join("a.example"), b"").unwrap();
    fs::write(root.join("B.example"), b"\xff\xfe binary \x00").unwrap();
    fs::write(root.join(".DS_Store"), b"junk").unwrap();
    fs::create_dir(root.join("sub.example")).unwrap();
    fs::write(root.join("sub.example").join("inner.example"), b"x").unwrap();
    let big = vec![b'#'; BODY_LIMIT + 100];
    fs::write(root.join("big.example"), &big).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("a.example"), root.join("link.example")).unwrap();

    let files = ok_files(root);
    let hosts: Vec<&str> = files.iter().map(|f| f.host.as_str()).collect();
    let mut expected = vec!["B.example", "a.example", "big.example", "www.example.org"];
    if cfg!(unix) {
        expected.insert(3, "link.example");
    }
    assert_eq!(
        hosts, expected,
        "sorted by octets, subdirectory and hidden file skipped"
    );
    let big = files.iter().find(|f| f.host == "big.example").unwrap();
    assert_eq!(big.body.len(), BODY_LIMIT);
    assert_eq!(big.cut, Some(Cut::Limit));
    let www = files.iter().find(|f| f.host == "www.example.org").unwrap();
    assert_eq!(www.body, b"User-agent: *\nDisallow: /o\n");
    assert_eq!(www.status, None);
    assert_eq!(www.cut, None);
    assert!(www.source.ends_with("www.example.org"));
    assert_eq!(Format::of_path(root), Some(Format::Dir));
}

#[cfg(unix)]
#[test]
fn directory_name_not_utf8_is_a_skipped_error() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("ok.example"), b"x").unwrap();
    let bad = dir.path().join(OsStr::from_bytes(b"bad\xff.example"));
    if fs::write(&bad, b"y").is_err() {
        return; // a file system that refuses the name
    }
    let all = read_all(dir.path());
    assert_eq!(all.len(), 2);
    let err = all.iter().find_map(|r| r.as_ref().err()).unwrap();
    assert!(!err.is_fatal());
    assert!(all
        .iter()
        .any(|r| r.as_ref().is_ok_and(|f| f.host == "ok.example")));
}

/// A tar archive with a regular member in a folder, a long (GNU) name, a directory, a
/// symbolic link, a hidden member and a body over the limit.
fn tar_bytes() -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    let mut add = |path: &str, data: &[u8]| {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        builder.append_data(&mut header, path, data).unwrap();
    };
    add(
        "test_data/www.example.com",
        b"User-agent: *\nDisallow: /tar\n",
    );
    let long = format!("{}/long.example", "d".repeat(150));
    add(&long, b"long name");
    add("test_data/.hidden", b"hidden");
    add("top.example", b"");
    add("test_data/big.example", &vec![b'a'; BODY_LIMIT + 1]);
    add("test_data/after-big.example", b"after");
    let mut dir = tar::Header::new_gnu();
    dir.set_entry_type(tar::EntryType::Directory);
    dir.set_size(0);
    dir.set_mode(0o755);
    builder
        .append_data(&mut dir, "test_data/", &[][..])
        .unwrap();
    let mut link = tar::Header::new_gnu();
    link.set_entry_type(tar::EntryType::Symlink);
    link.set_size(0);
    builder
        .append_link(&mut link, "test_data/link.example", "www.example.com")
        .unwrap();
    let mut builder_ref = builder;
    let mut header = tar::Header::new_gnu();
    header.set_size(4);
    header.set_mode(0o644);
    builder_ref
        .append_data(&mut header, "last.example", &b"last"[..])
        .unwrap();
    builder_ref.into_inner().unwrap()
}

fn check_tar_files(files: &[SurveyFile], name: &str) {
    let hosts: Vec<&str> = files.iter().map(|f| f.host.as_str()).collect();
    assert_eq!(
        hosts,
        [
            "www.example.com",
            "long.example",
            "top.example",
            "big.example",
            "after-big.example",
            "last.example"
        ]
    );
    assert_eq!(files[0].body, b"User-agent: *\nDisallow: /tar\n");
    assert_eq!(files[0].source, format!("{name}:test_data/www.example.com"));
    assert_eq!(files[1].body, b"long name");
    assert_eq!(
        (files[3].body.len(), files[3].cut),
        (BODY_LIMIT, Some(Cut::Limit))
    );
    assert_eq!((&files[4].body[..], files[4].cut), (&b"after"[..], None));
    assert_eq!(files[5].body, b"last");
    assert!(files.iter().all(|f| f.status.is_none()));
}

#[test]
fn tar_and_tar_gz() {
    let dir = tempfile::tempdir().unwrap();
    let tar = tar_bytes();
    let plain = dir.path().join("robots.tar");
    fs::write(&plain, &tar).unwrap();
    check_tar_files(&ok_files(&plain), &plain.display().to_string());
    for name in ["robots.tar.gz", "robots.tgz", "Robots.TGZ"] {
        let path = dir.path().join(name);
        fs::write(&path, gzip(&tar)).unwrap();
        check_tar_files(&ok_files(&path), &path.display().to_string());
    }
    // From any reader, and with gzip members concatenated (as `cat a.gz b.gz` makes).
    let files: Vec<SurveyFile> = Files::tar(std::io::Cursor::new(tar.clone()), "mem")
        .collect::<Result<_, _>>()
        .unwrap();
    check_tar_files(&files, "mem");
    let half = tar.len() / 2;
    let two = [gzip(&tar[..half]), gzip(&tar[half..])].concat();
    let files: Vec<SurveyFile> = Files::tar(std::io::Cursor::new(two), "mem")
        .collect::<Result<_, _>>()
        .unwrap();
    check_tar_files(&files, "mem");
}

#[test]
fn truncated_and_garbage_tar_give_errors() {
    let tar = tar_bytes();
    // Cut inside the first member's data, inside a header, inside the big member.
    for cut in [600, 1100, 5000, tar.len() / 2] {
        for data in [
            tar[..cut].to_vec(),
            gzip(&tar[..cut]),
            gzip(&tar)[..cut.min(900)].to_vec(),
        ] {
            let all: Vec<_> = Files::tar(std::io::Cursor::new(data), "cut").collect();
            let last = all.last().expect("something is yielded");
            let err = last.as_ref().expect_err("the cut is an error, last");
            assert!(err.is_fatal(), "{err}");
            assert!(all[..all.len() - 1].iter().all(Result::is_ok));
        }
    }
    for garbage in [
        &b"this is not a tar archive at all"[..],
        &[0x1f, 0x8b, 0, 0, 1, 2][..],
        &[7u8; 2000][..],
    ] {
        let all: Vec<_> = Files::tar(std::io::Cursor::new(garbage.to_vec()), "garbage").collect();
        assert_eq!(all.len(), 1, "one error");
        assert!(all[0].as_ref().unwrap_err().is_fatal());
    }
    // A stream of zero blocks is an empty archive, and an empty stream is empty: an
    // empty input, which is an error; one that ends between members lacks its end.
    for data in [vec![0; 1024], Vec::new()] {
        let all: Vec<_> = Files::tar(std::io::Cursor::new(data), "z").collect();
        assert!(all.len() == 1 && all[0].as_ref().unwrap_err().is_fatal());
        let err = all[0].as_ref().unwrap_err().to_string();
        assert!(err.contains("empty input"), "{err}");
    }
    let all: Vec<_> = Files::tar(std::io::Cursor::new(tar[..1024].to_vec()), "b").collect();
    assert_eq!(all.len(), 2, "the first member, then the error");
    assert!(all[0].is_ok());
    assert!(all[1]
        .as_ref()
        .unwrap_err()
        .to_string()
        .contains("end-of-archive"));
}

#[test]
fn unknown_and_missing_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("robots.zip");
    fs::write(&zip, b"PK\x03\x04").unwrap();
    let err = open(&zip).unwrap_err();
    assert!(err.is_fatal());
    assert!(err.to_string().contains("not a survey input"), "{err}");
    assert!(err.location().ends_with("robots.zip"));
    let err = open(dir.path().join("missing.tar")).unwrap_err();
    assert!(
        std::error::Error::source(&err).is_some(),
        "the I/O error is the source"
    );
    assert!(open(dir.path().join("missing")).is_err());
    assert_eq!(Format::of_path(".tar"), None, "a bare ending is no name");
}

#[test]
fn files_can_move_to_another_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<Files>();
    assert_send::<SurveyFile>();
    assert_send::<reptest_survey::Error>();
}
