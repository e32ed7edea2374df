//! The site: loopback listeners, one thread with a current-thread tokio runtime, hyper for
//! every response, the request and time bounds, and an orderly stop.

use std::fmt;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::addr;
use crate::error::Error;
use crate::faults;
use crate::handler;
use crate::log::{Log, Request};
use crate::plan::{Chain, Plan, FIRST, SECOND};
use crate::scenario::{Fault, Scenario};

/// How long a stopping site lets answers in flight finish before it drops them.
const GRACE: Duration = Duration::from_millis(500);
/// The pause after a failed `accept` (e.g. out of file descriptors).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(10);

/// Where a site listens and how long it lives; [`Options::start`] starts one.
///
/// ```
/// use std::net::Ipv4Addr;
/// use std::time::Duration;
/// use reptest_site::{Options, Scenario};
///
/// let site = Options::new()
///     .address(Ipv4Addr::new(127, 0, 0, 7))
///     .max_requests(10)
///     .lifetime(Duration::from_secs(5))
///     .start(&Scenario::new(404, ""))?;
/// assert!(site.origin().starts_with("http://127.0.0.7:"));
/// # Ok::<(), reptest_site::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    address: Option<Ipv4Addr>,
    second_address: Option<Ipv4Addr>,
    max_requests: usize,
    lifetime: Duration,
}

/// Why a site stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// It answered [`Options::max_requests`] requests.
    RequestLimit,
    /// Its [`Options::lifetime`] ran out.
    Lifetime,
    /// [`Site::stop`] or drop.
    Stopped,
}

/// A stopped site's account: why it stopped and every request it answered.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stopped {
    /// Why it stopped.
    pub reason: StopReason,
    /// Every request it answered, in arrival order.
    pub requests: Vec<Request>,
}

/// A running loopback site serving one [`Scenario`]. Dropping it stops it.
///
/// ```
/// use reptest_site::{Redirect, Scenario, Site};
///
/// let site = Site::start(&Scenario::new(200, "User-agent: *\nDisallow: /\n")
///     .with_redirects([Redirect::cross_origin(301)]))?;
/// let second = site.second_origin().expect("the hop crosses origins");
/// assert_ne!(second, site.origin());
///
/// let agent = ureq::AgentBuilder::new().redirects(0).build();
/// let hop = agent.get(&site.robots_url()).call()?;
/// assert_eq!(hop.status(), 301);
/// assert_eq!(hop.header("location"), Some(format!("{second}/hop/1/robots.txt").as_str()));
///
/// let stopped = site.stop();
/// assert_eq!(stopped.requests.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Site {
    origin: String,
    second_origin: Option<String>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    /// Ports that refuse connections (bound, never listening), held while the site lives.
    reserved: Vec<socket2::Socket>,
}

/// What the site's thread and the handle share.
pub(crate) struct Shared {
    /// The origins by index (the second empty when unused).
    pub(crate) origins: [String; 2],
    pub(crate) plan: Plan,
    pub(crate) log: Log,
    /// `true` once the site is stopping.
    pub(crate) shutdown: watch::Sender<bool>,
    reason: Mutex<Option<StopReason>>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            address: None,
            second_address: None,
            max_requests: Self::DEFAULT_MAX_REQUESTS,
            lifetime: Self::DEFAULT_LIFETIME,
        }
    }
}

impl Options {
    /// The default request bound.
    pub const DEFAULT_MAX_REQUESTS: usize = 1_000;
    /// The default lifetime.
    pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(30);

    /// Random addresses in 127.0.0.0/8, [`DEFAULT_MAX_REQUESTS`](Self::DEFAULT_MAX_REQUESTS)
    /// and [`DEFAULT_LIFETIME`](Self::DEFAULT_LIFETIME).
    pub fn new() -> Self {
        Self::default()
    }

    /// The first origin's address (which must be in 127.0.0.0/8); the port is chosen by
    /// the system. Without it, a random 127.x.y.z (127.0.0.1 where only that one exists).
    pub fn address(mut self, address: Ipv4Addr) -> Self {
        self.address = Some(address);
        self
    }

    /// The second origin's address, used when a redirect crosses origins (in 127.0.0.0/8).
    /// Without it, a random 127.x.y.z other than the first's.
    pub fn second_address(mut self, address: Ipv4Addr) -> Self {
        self.second_address = Some(address);
        self
    }

    /// The site stops after answering this many requests (at least 1); later ones get
    /// no answer.
    pub fn max_requests(mut self, max_requests: usize) -> Self {
        self.max_requests = max_requests;
        self
    }

    /// The site stops this long after it started (more than zero).
    pub fn lifetime(mut self, lifetime: Duration) -> Self {
        self.lifetime = lifetime;
        self
    }

    /// Validates `scenario`, binds its origins on loopback and starts serving it on a
    /// thread of its own.
    pub fn start(&self, scenario: &Scenario) -> Result<Site, Error> {
        scenario.validate()?;
        if self.max_requests == 0 {
            return Err(Error::invalid("max_requests must be at least 1"));
        }
        if self.lifetime.is_zero() {
            return Err(Error::invalid("lifetime must be more than zero"));
        }
        let chain = Chain::of(scenario);
        let refused = scenario.fault == Some(Fault::ConnectionRefused);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(Error::start)?;

        let mut listeners = Vec::new();
        let mut reserved = Vec::new();
        let mut bind = |index: usize, candidates: &[Ipv4Addr]| -> Result<SocketAddr, Error> {
            if refused && chain.last == index {
                let (socket, local) = faults::reserve(candidates)?;
                reserved.push(socket);
                Ok(local)
            } else {
                let (listener, local) = addr::listen(candidates)?;
                listeners.push((listener, index));
                Ok(local)
            }
        };
        let first = bind(FIRST, &addr::candidates(self.address, None)?)?;
        let second = if chain.uses_second() {
            let first_ip = match first {
                SocketAddr::V4(v4) => Some(*v4.ip()),
                SocketAddr::V6(_) => None,
            };
            let candidates = addr::candidates(self.second_address, first_ip)?;
            Some(bind(SECOND, &candidates)?)
        } else {
            None
        };

        let origins = [
            addr::origin(first),
            second.map(addr::origin).unwrap_or_default(),
        ];
        let plan = Plan::new(scenario, &origins)?;
        let listeners = {
            let _context = runtime.enter();
            listeners
                .into_iter()
                .map(|(listener, index)| Ok((TcpListener::from_std(listener)?, index)))
                .collect::<io::Result<Vec<_>>>()
                .map_err(Error::start)?
        };
        let shared = Arc::new(Shared {
            origins: origins.clone(),
            plan,
            log: Log::new(Instant::now(), self.max_requests),
            shutdown: watch::Sender::new(false),
            reason: Mutex::new(None),
        });
        let lifetime = self.lifetime;
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("reptest-site".to_owned())
                .spawn(move || {
                    runtime.block_on(run(shared, listeners, lifetime));
                    // Dropping the runtime drops every task left, and their sockets.
                    drop(runtime);
                })
                .map_err(Error::start)?
        };
        let [origin, second_origin] = origins;
        Ok(Site {
            origin,
            second_origin: second.map(|_| second_origin),
            shared,
            thread: Some(thread),
            reserved,
        })
    }
}

impl Site {
    /// Starts `scenario` with the default [`Options`].
    pub fn start(scenario: &Scenario) -> Result<Self, Error> {
        Options::new().start(scenario)
    }

    /// The first origin, `http://127.a.b.c:PORT`: the robots.txt, the start page and the
    /// pages are here.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The second origin (another address and port), when a redirect crosses origins.
    pub fn second_origin(&self) -> Option<&str> {
        self.second_origin.as_deref()
    }

    /// `{origin}/robots.txt`.
    pub fn robots_url(&self) -> String {
        format!("{}/robots.txt", self.origin)
    }

    /// `{origin}/reptest-start.html` ([`START_PATH`](crate::START_PATH)): the start page
    /// linking every page.
    pub fn start_url(&self) -> String {
        format!("{}{}", self.origin, crate::pages::START_PATH)
    }

    /// `{origin}{path}`, for a page path such as `/a?b=1`.
    pub fn page_url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    /// Every request answered so far, in arrival order.
    pub fn log(&self) -> Vec<Request> {
        self.shared.log.snapshot()
    }

    /// Whether the site has stopped (by itself: its bounds).
    pub fn is_stopped(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Blocks until the site stops by itself (request bound or lifetime), then reports.
    pub fn wait(mut self) -> Stopped {
        self.finish(false)
    }

    /// Stops the site now: when this returns, nothing listens and its thread has ended.
    pub fn stop(mut self) -> Stopped {
        self.finish(true)
    }

    fn finish(&mut self, stop: bool) -> Stopped {
        if stop {
            self.shared.stop(StopReason::Stopped);
        }
        if let Some(thread) = self.thread.take() {
            // The thread never panics by design; if it did, the site is stopped anyway.
            let _ = thread.join();
        }
        self.reserved.clear();
        Stopped {
            reason: self.shared.reason().unwrap_or(StopReason::Stopped),
            requests: self.shared.log.snapshot(),
        }
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.finish(true);
        }
    }
}

impl fmt::Debug for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Site")
            .field("origin", &self.origin)
            .field("second_origin", &self.second_origin)
            .field("stopped", &self.is_stopped())
            .finish_non_exhaustive()
    }
}

impl Shared {
    /// Records the first reason and tells every task to stop.
    pub(crate) fn stop(&self, reason: StopReason) {
        self.reason
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(reason);
        self.shutdown.send_replace(true);
    }

    fn reason(&self) -> Option<StopReason> {
        *self.reason.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The site's life on its thread: accept until a bound or a stop, then wind down.
async fn run(shared: Arc<Shared>, listeners: Vec<(TcpListener, usize)>, lifetime: Duration) {
    let mut accepting = JoinSet::new();
    for (listener, origin) in listeners {
        accepting.spawn(accept(listener, origin, Arc::clone(&shared)));
    }
    let mut shutdown = shared.shutdown.subscribe();
    tokio::select! {
        () = stopping(&mut shutdown) => {}
        () = tokio::time::sleep(lifetime) => shared.stop(StopReason::Lifetime),
    }
    // Each accept loop drops its listener at once, then drains its connections for at
    // most GRACE; what is left then is dropped with the runtime.
    let _ = tokio::time::timeout(GRACE + GRACE, async {
        while accepting.join_next().await.is_some() {}
    })
    .await;
}

/// Resolves once the site is stopping (the `watch` guard is not held across awaits).
async fn stopping(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stopping| *stopping).await;
}

/// Accepts connections on one origin's listener until the site stops.
async fn accept(listener: TcpListener, origin: usize, shared: Arc<Shared>) {
    let mut shutdown = shared.shutdown.subscribe();
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            () = stopping(&mut shutdown) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    connections.spawn(serve(stream, origin, Arc::clone(&shared)));
                }
                Err(_) => tokio::time::sleep(ACCEPT_BACKOFF).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let _ = tokio::time::timeout(GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
}

/// Serves one connection with hyper (HTTP/1.1), winding it down when the site stops.
async fn serve(stream: TcpStream, origin: usize, shared: Arc<Shared>) {
    let Ok((stream, handle)) = keep_handle(stream, shared.plan.resets()) else {
        return;
    };
    let mut shutdown = shared.shutdown.subscribe();
    let answering = Arc::clone(&shared);
    let service = service_fn(move |request| {
        std::future::ready(handler::answer(
            &answering,
            origin,
            handle.as_ref(),
            &request,
        ))
    });
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        () = stopping(&mut shutdown) => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.as_mut().await;
        }
    }
}

/// With `keep`, a second handle on the socket, through which a reset-mid-body answer sets
/// `SO_LINGER` 0 while hyper owns the stream.
fn keep_handle(
    stream: TcpStream,
    keep: bool,
) -> io::Result<(TcpStream, Option<std::net::TcpStream>)> {
    if !keep {
        return Ok((stream, None));
    }
    let stream = stream.into_std()?;
    let handle = stream.try_clone()?;
    Ok((TcpStream::from_std(stream)?, Some(handle)))
}
