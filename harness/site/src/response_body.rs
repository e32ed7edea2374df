//! The response body type: a whole body, or a body cut short by a fault.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

/// What ends a cut body: when it resolves, the body fails and hyper drops the connection.
pub(crate) type Ending = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A response body for hyper.
pub(crate) struct SiteBody {
    state: State,
}

enum State {
    /// All of it, in one frame (`None` once sent).
    Whole(Option<Bytes>),
    /// `first`, then nothing until `ending` resolves, then an error; `length` is the length
    /// the headers announce.
    Cut {
        first: Option<Bytes>,
        ending: Ending,
        length: u64,
    },
    /// The cut happened: every further poll fails again (the ending is never polled twice).
    Failed,
}

impl SiteBody {
    /// The whole body.
    pub(crate) fn whole(bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        Self {
            state: State::Whole((!bytes.is_empty()).then_some(bytes)),
        }
    }

    /// No body.
    pub(crate) fn empty() -> Self {
        Self {
            state: State::Whole(None),
        }
    }

    /// `first` of a body of `length` bytes, then a failure once `ending` resolves.
    pub(crate) fn cut(first: Bytes, length: u64, ending: Ending) -> Self {
        Self {
            state: State::Cut {
                first: (!first.is_empty()).then_some(first),
                ending,
                length,
            },
        }
    }
}

impl http_body::Body for SiteBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        let state = &mut self.get_mut().state;
        match state {
            State::Whole(bytes) => Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes)))),
            State::Cut { first, ending, .. } => {
                if let Some(bytes) = first.take() {
                    return Poll::Ready(Some(Ok(Frame::data(bytes))));
                }
                match ending.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        *state = State::Failed;
                        Poll::Ready(Some(Err(cut())))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
            State::Failed => Poll::Ready(Some(Err(cut()))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.state, State::Whole(None))
    }

    fn size_hint(&self) -> SizeHint {
        match &self.state {
            State::Whole(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            State::Cut { length, .. } => SizeHint::with_exact(*length),
            State::Failed => SizeHint::default(),
        }
    }
}

fn cut() -> io::Error {
    io::Error::other("reptest-site: the scenario cuts this body short")
}
