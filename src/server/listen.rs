//! Accepting connections: each one served by hyper with a deadline for a
//! request's headers (a client that dribbles them, as slowloris does, is
//! cut off), `TCP_NODELAY` (moves are small frames that must leave at
//! once), the peer's address for the handlers (limits count by it), and a
//! graceful stop that lets requests in flight finish.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// Serves `router` on `listener` until `stop` resolves, then waits for the
/// requests in flight (upgraded WebSockets are the hub's to close).
pub async fn serve(listener: TcpListener, router: Router, header_read: Duration, stop: impl Future<Output = ()>) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(header_read);
    builder.http2().timer(TokioTimer::new()).enable_connect_protocol();
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, most likely: pause rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = tcp.set_nodelay(true);
        let service = router.clone().map_request(move |request: Request<Incoming>| {
            let mut request = request.map(Body::new);
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            request
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(tcp), TowerToHyperService::new(service));
        let connection = graceful.watch(connection.into_owned());
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    drop(listener);
    graceful.shutdown().await;
}
