//! A reader that counts the octets consumed from it, for offsets in sources and errors.

use std::io::{self, BufRead, Read};

/// Wraps a [`BufRead`] and counts every octet read or consumed through it.
pub(crate) struct Counting<R> {
    inner: R,
    position: u64,
}

impl<R> Counting<R> {
    pub(crate) fn new(inner: R) -> Counting<R> {
        Counting { inner, position: 0 }
    }

    /// Octets consumed so far.
    pub(crate) fn position(&self) -> u64 {
        self.position
    }

    pub(crate) fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.position += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.position += amount as u64;
        self.inner.consume(amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_reads_and_consumes() {
        let mut r = Counting::new(&b"abc\ndef\n"[..]);
        let mut line = Vec::new();
        r.read_until(b'\n', &mut line).unwrap();
        assert_eq!(r.position(), 4);
        let mut buf = [0; 2];
        r.read_exact(&mut buf).unwrap();
        assert_eq!(r.position(), 6);
    }
}
