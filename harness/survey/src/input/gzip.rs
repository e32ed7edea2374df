//! A multi-member gzip stream that remembers where each member starts.
//!
//! Common Crawl (and warcio, and most WARC writers) compress each WARC record as a gzip
//! member of its own, and their indexes locate a record by its member's offset in the
//! compressed file. [`GzMembers`] decompresses the members one after the other, like
//! `flate2`'s `MultiGzDecoder`, and records for each the compressed offset and the
//! decompressed offset it starts at, so a record's decompressed offset can be turned back
//! into the offset of its member.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

use flate2::bufread::{GzDecoder, MultiGzDecoder};

use crate::input::counting::Counting;

/// The most octets a reader of [`GzMembers`] reads ahead of the offsets it asks
/// [`GzMembers::member_of`] about (the buffer of the WARC reader): members that start
/// further back are forgotten as new ones come, so memory stays bounded however many
/// members a stream holds.
pub(crate) const READ_AHEAD: usize = 1 << 16;

/// A gzip stream that does not decompress: carried inside the [`io::Error`] the readers
/// of this module return, so that [`crate::Error::io`] can say "not a gzip archive" (or
/// truncated) and where, instead of passing on a decoder's bare message.
#[derive(Debug)]
pub(crate) struct GzError {
    /// Compressed octets consumed when decompression failed.
    pub(crate) offset: u64,
    /// The decoder's message (flate2's own text, no octets of the input).
    pub(crate) message: String,
}

impl std::fmt::Display for GzError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at compressed octet {})", self.message, self.offset)
    }
}

impl std::error::Error for GzError {}

/// `err` from a gzip decoder that had consumed `offset` compressed octets, tagged as a
/// [`GzError`] when it is the decoder's (bad data, early end), not the stream's.
fn tagged(err: io::Error, offset: u64) -> io::Error {
    match err.kind() {
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => {
            let message = err.to_string();
            io::Error::new(err.kind(), GzError { offset, message })
        }
        _ => err,
    }
}

/// flate2's `MultiGzDecoder` (members joined into one stream), its errors tagged with
/// [`GzError`]: the decompressed stream of a `.tar.gz`.
pub(crate) struct GzStream<R: BufRead> {
    decoder: MultiGzDecoder<Counting<R>>,
}

impl<R: BufRead> GzStream<R> {
    pub(crate) fn new(inner: R) -> GzStream<R> {
        GzStream {
            decoder: MultiGzDecoder::new(Counting::new(inner)),
        }
    }
}

impl<R: BufRead> Read for GzStream<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.decoder
            .read(buf)
            .map_err(|err| tagged(err, self.decoder.get_ref().position()))
    }
}

/// Where one gzip member starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Member {
    /// Offset of the member in the compressed stream.
    pub(crate) compressed: u64,
    /// Offset in the decompressed stream of the member's first octet.
    pub(crate) decompressed: u64,
}

pub(crate) struct GzMembers<R: BufRead> {
    state: State<R>,
    /// Decompressed octets produced so far.
    produced: u64,
    /// Members that may still hold a record start not yet located, oldest first.
    members: VecDeque<Member>,
}

enum State<R: BufRead> {
    /// Between members.
    Between(Counting<R>),
    /// Inside a member.
    Inside(GzDecoder<Counting<R>>),
    /// After an error, or while switching.
    Done,
}

impl<R: BufRead> GzMembers<R> {
    pub(crate) fn new(inner: R) -> GzMembers<R> {
        GzMembers {
            state: State::Between(Counting::new(inner)),
            produced: 0,
            members: VecDeque::new(),
        }
    }

    /// Notes a member that starts here: it replaces one that starts at the same
    /// decompressed offset (an empty member, which [`GzMembers::member_of`] would never
    /// give), and members that start more than [`READ_AHEAD`] octets back, but the last
    /// of them, are forgotten.
    fn push(&mut self, member: Member) {
        if self
            .members
            .back()
            .is_some_and(|last| last.decompressed == member.decompressed)
        {
            self.members.pop_back();
        }
        self.members.push_back(member);
        let floor = self.produced.saturating_sub(READ_AHEAD as u64);
        while self.members.len() > 1 && self.members[1].decompressed <= floor {
            self.members.pop_front();
        }
    }

    /// The member that decompressed offset `offset` lies in, forgetting the members
    /// before it: offsets must be asked for in increasing order.
    pub(crate) fn member_of(&mut self, offset: u64) -> Option<Member> {
        while self.members.len() > 1 && self.members[1].decompressed <= offset {
            self.members.pop_front();
        }
        self.members.front().copied()
    }
}

impl<R: BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Done => return Ok(0),
                State::Between(mut inner) => {
                    if inner.fill_buf()?.is_empty() {
                        self.state = State::Between(inner);
                        return Ok(0);
                    }
                    self.push(Member {
                        compressed: inner.position(),
                        decompressed: self.produced,
                    });
                    self.state = State::Inside(GzDecoder::new(inner));
                }
                State::Inside(mut decoder) => {
                    let n = decoder
                        .read(buf)
                        .map_err(|err| tagged(err, decoder.get_ref().position()))?;
                    if n > 0 {
                        self.produced += n as u64;
                        self.state = State::Inside(decoder);
                        return Ok(n);
                    }
                    // The member ended (trailer read): the next one may follow.
                    self.state = State::Between(decoder.into_inner());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;
    use std::io::Write;

    fn member(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn members_and_offsets() {
        let a = member(b"hello ");
        let b = member(b"");
        let c = member(b"world");
        let all = [a.clone(), b.clone(), c].concat();
        let mut gz = GzMembers::new(&all[..]);
        let mut out = Vec::new();
        gz.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"hello world");
        assert_eq!(
            gz.member_of(0),
            Some(Member {
                compressed: 0,
                decompressed: 0
            })
        );
        // The empty member and the third both start at decompressed 6: the later wins.
        assert_eq!(
            gz.member_of(6),
            Some(Member {
                compressed: (a.len() + b.len()) as u64,
                decompressed: 6
            })
        );
    }

    #[test]
    fn members_kept_stay_few_however_many_the_stream_holds() {
        // 70,000 one-octet members: all read, those over READ_AHEAD back forgotten.
        let (empty, one) = (member(b""), member(b"x"));
        let all = one.repeat(70_000);
        let mut gz = GzMembers::new(&all[..]);
        let mut out = Vec::new();
        gz.read_to_end(&mut out).unwrap();
        assert_eq!(out.len(), 70_000);
        assert!(gz.members.len() <= READ_AHEAD + 2, "{}", gz.members.len());
        // Empty members start where the next one does: the last one answers for all.
        let (e, o) = (empty.len() as u64, one.len() as u64);
        let both = [empty.repeat(1000), one.repeat(3), empty.repeat(1000)].concat();
        let mut gz = GzMembers::new(&both[..]);
        gz.read_to_end(&mut out).unwrap();
        assert!(gz.members.len() <= 4, "{}", gz.members.len());
        assert_eq!(gz.member_of(0).unwrap().compressed, 1000 * e);
        assert_eq!(gz.member_of(2).unwrap().compressed, 1000 * e + 2 * o);
        assert_eq!(gz.member_of(3).unwrap().compressed, 1999 * e + 3 * o);
    }

    #[test]
    fn garbage_after_members_is_an_error() {
        let all = [member(b"x"), b"not gzip".to_vec()].concat();
        let mut out = Vec::new();
        assert!(GzMembers::new(&all[..]).read_to_end(&mut out).is_err());
        let truncated = &member(b"some text to compress")[..10];
        assert!(GzMembers::new(truncated).read_to_end(&mut out).is_err());
    }
}
