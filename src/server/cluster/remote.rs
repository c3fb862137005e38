//! The socket side of a cross-instance seat: a socket on this instance
//! seated at (or watching) a table another instance owns. Its frames go to
//! the owner's inbox; the owner's frames for it come back to ours and are
//! queued on its connection as if a local table had written them.

use axum::extract::ws::Utf8Bytes;
use tokio::sync::oneshot;

use super::wire::{Answer, Envelope, Question};
use super::{ASK_TIMEOUT, Cluster, ClusterError, Route};
use crate::online::{Dialect, ErrorCode, ServerMessage};
use crate::server::hub::conn::{Conn, Frame};

/// A seat (or a spectator's place) at another instance's table.
#[derive(Clone)]
pub struct RemoteSeat {
    pub table: u64,
    /// The number the owner knows this socket by.
    pub route: u64,
    pub owner: u64,
    pub(super) cluster: Cluster,
}

impl RemoteSeat {
    /// Passes a player's frame (already read and within its rates) to the
    /// owner; `false` if the owner could not be reached.
    pub async fn from_seat(&self, dialect: Dialect, text: &str) -> bool {
        let envelope = Envelope::Seat { table: self.table, route: self.route, dialect, text: text.to_string() };
        self.cluster.tell(self.owner, &envelope).await.is_ok()
    }

    /// The socket has closed: the owner lets go of the seat.
    pub async fn gone(&self) {
        self.cluster.take_route(self.route);
        let _ = self.cluster.tell(self.owner, &Envelope::Gone { table: self.table, route: self.route }).await;
    }
}

impl Cluster {
    /// Asks the owner of `table` a question for the socket on `route`.
    pub async fn ask(&self, owner: u64, table: u64, route: u64, question: Question) -> Result<Answer, ClusterError> {
        let ask = self.next_ask();
        let (reply, answer) = oneshot::channel();
        if let Ok(mut asks) = self.0.asks.lock() {
            asks.insert(ask, reply);
        }
        let envelope = Envelope::Ask { from: self.instance(), ask, table, route, question };
        let answered = match self.tell(owner, &envelope).await {
            Ok(()) => tokio::time::timeout(ASK_TIMEOUT, answer).await,
            Err(e) => {
                self.forget_ask(ask);
                return Err(e);
            }
        };
        self.forget_ask(ask);
        match answered {
            Ok(Ok(answer)) => Ok(answer),
            _ => Err(ClusterError(format!("instance {owner} did not answer about table {table}"))),
        }
    }

    fn forget_ask(&self, ask: u64) {
        if let Ok(mut asks) = self.0.asks.lock() {
            asks.remove(&ask);
        }
    }

    /// An answer arrived.
    pub(super) fn answered(&self, ask: u64, answer: Answer) {
        let waiting = self.0.asks.lock().ok().and_then(|mut a| a.remove(&ask));
        if let Some(reply) = waiting {
            let _ = reply.send(answer);
        }
    }

    /// Holds `conn` for frames the owner of a table sends on `route`.
    pub(crate) fn add_route(&self, route: u64, conn: Conn, owner: u64) {
        if let Ok(mut routes) = self.0.routes.lock() {
            routes.insert(route, Route { conn, owner });
        }
    }

    /// Lets go of the connection on `route` (closing its socket once its
    /// queued frames are out), handing it back.
    pub(crate) fn take_route(&self, route: u64) -> Option<Conn> {
        self.0.routes.lock().ok()?.remove(&route).map(|r| r.conn)
    }

    /// The seat on `route` as a link for its socket.
    pub(crate) fn seat(&self, table: u64, route: u64, owner: u64) -> RemoteSeat {
        RemoteSeat { table, route, owner, cluster: self.clone() }
    }

    /// Queues a frame from the owner; a socket too slow to keep up is let go.
    pub(super) fn deliver(&self, route: u64, text: String) {
        let Ok(mut routes) = self.0.routes.lock() else { return };
        let delivered = routes.get(&route).is_some_and(|r| r.conn.send(Frame::Text(Utf8Bytes::from(text))));
        if !delivered {
            routes.remove(&route);
        }
    }

    /// The instances whose tables this instance's sockets are seated at.
    pub fn route_owners(&self) -> Vec<u64> {
        let mut owners: Vec<u64> =
            self.0.routes.lock().map(|r| r.values().map(|r| r.owner).collect()).unwrap_or_default();
        owners.sort_unstable();
        owners.dedup();
        owners
    }

    /// Instance `owner` has died: its players and spectators here are told
    /// the server is restarting and let go, so they come back with their
    /// tokens through whichever instance takes the tables over.
    pub fn drop_routes_to(&self, owner: u64) -> usize {
        self.drop_routes(|r| r.owner == owner)
    }

    /// This instance is stopping: every socket here seated at another
    /// instance's table is told so and let go, to come back through
    /// another instance.
    pub fn drop_all_routes(&self) -> usize {
        self.drop_routes(|_| true)
    }

    fn drop_routes(&self, which: impl Fn(&Route) -> bool) -> usize {
        let gone: Vec<Route> = match self.0.routes.lock() {
            Ok(mut routes) => {
                let ids: Vec<u64> = routes.iter().filter(|(_, r)| which(r)).map(|(&id, _)| id).collect();
                ids.into_iter().filter_map(|id| routes.remove(&id)).collect()
            }
            Err(_) => Vec::new(),
        };
        let bytes = Utf8Bytes::from(ServerMessage::error(ErrorCode::ServerRestarting).to_json());
        for route in &gone {
            let _ = route.conn.send(Frame::Text(bytes.clone()));
        }
        gone.len()
    }
}
