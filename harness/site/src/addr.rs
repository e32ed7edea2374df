//! Loopback addresses: checking a caller's, choosing one, binding on it (port 0).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Error;

/// The addresses to try, in order: the caller's (which must be in 127.0.0.0/8), or two
/// random ones in 127.0.0.0/8 other than `avoid`, then 127.0.0.1 for systems where only
/// that one is routed (macOS).
pub(crate) fn candidates(
    requested: Option<Ipv4Addr>,
    avoid: Option<Ipv4Addr>,
) -> Result<Vec<Ipv4Addr>, Error> {
    match requested {
        Some(address) if address.is_loopback() => Ok(vec![address]),
        Some(address) => Err(Error::not_loopback(address)),
        None => {
            let mut out = Vec::new();
            while out.len() < 2 {
                let address = random_loopback();
                if Some(address) != avoid && !out.contains(&address) {
                    out.push(address);
                }
            }
            out.push(Ipv4Addr::LOCALHOST);
            Ok(out)
        }
    }
}

/// Binds the first candidate that can be bound with `bind` (port 0), skipping those the
/// system does not have.
pub(crate) fn bind_first<T>(
    candidates: &[Ipv4Addr],
    mut bind: impl FnMut(SocketAddr) -> io::Result<T>,
) -> Result<(T, Ipv4Addr), Error> {
    let mut last = None;
    for &address in candidates {
        debug_assert!(address.is_loopback());
        match bind(SocketAddr::from((address, 0))) {
            Ok(bound) => return Ok((bound, address)),
            Err(error) => last = Some((address, error)),
        }
    }
    let (address, error) = last.unwrap_or((
        Ipv4Addr::LOCALHOST,
        io::Error::new(io::ErrorKind::AddrNotAvailable, "no candidate address"),
    ));
    Err(Error::bind(address, error))
}

/// A listening socket on a loopback candidate.
pub(crate) fn listen(candidates: &[Ipv4Addr]) -> Result<(TcpListener, SocketAddr), Error> {
    let (listener, address) = bind_first(candidates, TcpListener::bind)?;
    let local = listener
        .local_addr()
        .and_then(|local| listener.set_nonblocking(true).map(|()| local))
        .map_err(|error| Error::bind(address, error))?;
    Ok((listener, local))
}

/// `http://127.a.b.c:PORT`.
pub(crate) fn origin(address: SocketAddr) -> String {
    format!("http://{address}")
}

/// A random address in 127.0.0.0/8, avoiding the network and broadcast-looking ends.
fn random_loopback() -> Ipv4Addr {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    let bits = hasher.finish();
    let [a, b, c, ..] = bits.to_le_bytes();
    Ipv4Addr::new(127, a, b, c.clamp(2, 254))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_stay_on_loopback() {
        for _ in 0..100 {
            let avoid = Ipv4Addr::new(127, 0, 0, 9);
            let all = candidates(None, Some(avoid)).unwrap();
            assert!(all.iter().all(|a| a.is_loopback() && *a != avoid));
        }
        assert!(candidates(Some(Ipv4Addr::new(10, 0, 0, 1)), None).is_err());
        assert!(candidates(Some(Ipv4Addr::UNSPECIFIED), None).is_err());
        assert_eq!(
            candidates(Some(Ipv4Addr::new(127, 0, 0, 5)), None).unwrap(),
            [Ipv4Addr::new(127, 0, 0, 5)]
        );
    }
}
