//! Network faults, the only socket-level code: a port that refuses connections, a socket
//! that closes with a reset, and the endings of cut bodies. HTTP itself is hyper's.

use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use bytes::Bytes;
use socket2::{Domain, Protocol, SockRef, Socket, Type};
use tokio::sync::watch;

use crate::addr;
use crate::error::Error;
use crate::response_body::Ending;

/// How long a reset-mid-body response waits after its first part (so hyper flushes the
/// headers and that part) before the reset.
const RESET_AFTER: Duration = Duration::from_millis(50);

/// A TCP socket bound to a loopback candidate, port 0, that never listens: the port stays
/// reserved while it lives, and a connection attempt is refused (RST to the SYN).
pub(crate) fn reserve(candidates: &[Ipv4Addr]) -> Result<(Socket, SocketAddr), Error> {
    let (socket, address) = addr::bind_first(candidates, |address| {
        let socket = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP))?;
        socket.bind(&address.into())?;
        Ok(socket)
    })?;
    let local = socket
        .local_addr()
        .ok()
        .and_then(|local| local.as_socket())
        .ok_or_else(|| {
            Error::bind(
                address,
                io::Error::other("a reserved socket without an IPv4 address"),
            )
        })?;
    Ok((socket, local))
}

/// Makes the socket's close send a reset (RST) instead of an orderly FIN.
pub(crate) fn reset_on_close(stream: &std::net::TcpStream) -> io::Result<()> {
    SockRef::from(stream).set_linger(Some(Duration::ZERO))
}

/// The part of a body a cut response sends: its first half.
pub(crate) fn first_part(body: &Bytes) -> Bytes {
    body.slice(..body.len() / 2)
}

/// The ending of a reset-mid-body response: a short wait.
pub(crate) fn reset_ending() -> Ending {
    Box::pin(tokio::time::sleep(RESET_AFTER))
}

/// The ending of a never-completing response: the site's shutdown.
pub(crate) fn stall_ending(mut shutdown: watch::Receiver<bool>) -> Ending {
    Box::pin(async move {
        let _ = shutdown.wait_for(|stopping| *stopping).await;
    })
}
