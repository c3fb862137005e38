//! This instance's inbox: questions about the tables it owns and the frames
//! of players seated at them from other instances, answers to its own
//! questions, frames for its sockets seated elsewhere; and the news of
//! other instances' snapshots, for its lists and feeds.

use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use super::wire::{Answer, Envelope, Question};
use super::{Cluster, ClusterError};
use crate::online::{Dialect, ErrorCode, ServerMessage, SlotSnapshot, parse_client_message};
use crate::server::hub::actor::{Command, JoinRequest, ReconnectRequest};
use crate::server::hub::conn::{Conn, Frame};
use crate::server::hub::socket::{PLAYER_QUEUE, WATCHER_QUEUE};
use crate::server::hub::{Hub, NotQueued};

/// Listens to the inbox and the snapshot news for as long as the process
/// runs, subscribing again after a lost connection.
pub fn start(hub: Hub, cluster: Cluster) {
    tokio::spawn(async move {
        loop {
            if let Err(e) = listen(&hub, &cluster).await {
                tracing::error!(error = %e, "lost the cluster's channels; subscribing again");
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
}

async fn listen(hub: &Hub, cluster: &Cluster) -> Result<(), ClusterError> {
    let mut pubsub = cluster.0.client.get_async_pubsub().await?;
    let inbox = cluster.keys().inbox(cluster.instance());
    let news = cluster.keys().slot_news();
    pubsub.subscribe(&inbox).await?;
    pubsub.subscribe(&news).await?;
    // What other instances listed before this subscription began.
    for snapshot in cluster.listed_slots().await? {
        cluster.remember_slot(hub, snapshot.slot_id, Some(snapshot));
    }
    let mut messages = pubsub.into_on_message();
    while let Some(message) = messages.next().await {
        let Ok(text) = message.get_payload::<String>() else { continue };
        if message.get_channel_name() == news {
            slot_news(hub, cluster, &text);
            continue;
        }
        match serde_json::from_str::<Envelope>(&text) {
            Ok(envelope) => handle(hub, cluster, envelope),
            Err(e) => tracing::warn!(error = %e, "an unreadable message in this instance's inbox is ignored"),
        }
    }
    Err(ClusterError("the subscription ended".into()))
}

/// `"ID JSON"` (listed or changed) or `"ID"` (no longer listed).
fn slot_news(hub: &Hub, cluster: &Cluster, text: &str) {
    let (id, json) = text.split_once(' ').map_or((text, None), |(id, json)| (id, Some(json)));
    let Ok(id) = id.parse::<u64>() else { return };
    if hub.table(id).is_some() {
        return; // ours: the feeds read it first-hand
    }
    let snapshot = json.and_then(|j| serde_json::from_str::<SlotSnapshot>(j).ok());
    cluster.remember_slot(hub, id, snapshot);
}

impl Cluster {
    fn remember_slot(&self, hub: &Hub, id: u64, snapshot: Option<SlotSnapshot>) {
        if let Ok(mut slots) = self.0.remote_slots.lock() {
            match snapshot {
                Some(s) => slots.insert(id, s),
                None => slots.remove(&id),
            };
        }
        hub.mark_changed(id);
    }
}

fn handle(hub: &Hub, cluster: &Cluster, envelope: Envelope) {
    match envelope {
        Envelope::Ask { from, ask, table, route, question } => {
            let (hub, cluster) = (hub.clone(), cluster.clone());
            tokio::spawn(async move {
                let answer = answer(&hub, &cluster, from, table, route, question).await;
                if let Err(e) = cluster.tell(from, &Envelope::Answer { ask, answer }).await {
                    tracing::warn!(error = %e, instance = from, "an answer could not be sent");
                }
            });
        }
        Envelope::Answer { ask, answer } => cluster.answered(ask, answer),
        Envelope::Seat { table, route, dialect, text } => {
            let Ok(message) = parse_client_message(&text, dialect) else { return };
            let refusal = match hub.table(table).map(|h| h.try_send(Command::FromSeat { conn_id: route, message })) {
                Some(Ok(())) => return,
                Some(Err(NotQueued::Busy)) => ErrorCode::TooFast,
                Some(Err(NotQueued::Closed)) | None => ErrorCode::GameClosed,
            };
            let from = route >> super::ROUTE_BITS;
            let cluster = cluster.clone();
            tokio::spawn(async move {
                let text = ServerMessage::error(refusal).to_json();
                let _ = cluster.tell(from, &Envelope::Frame { route, text }).await;
            });
        }
        Envelope::Gone { table, route } => {
            if let Some(handle) = hub.table(table) {
                handle.send_surely(Command::Gone { conn_id: route });
            }
        }
        Envelope::Frame { route, text } => cluster.deliver(route, text),
        Envelope::Close { route } => {
            cluster.take_route(route);
        }
    }
}

/// Answers a question about one of this instance's tables.
async fn answer(hub: &Hub, cluster: &Cluster, from: u64, table: u64, route: u64, question: Question) -> Answer {
    let Some(handle) = hub.table(table) else { return Answer::NoTable };
    match question {
        Question::Join { who, quick, dialect } => {
            let conn = proxy(cluster, from, route, dialect, PLAYER_QUEUE);
            let (reply, answer) = oneshot::channel();
            let token = hub.new_token();
            let request = JoinRequest { who: who.into(), token, conn, quick, reply };
            if !handle.send(Command::Join(Box::new(request))) {
                return Answer::NoTable;
            }
            match answer.await {
                Ok(Ok(seat)) => Answer::Seated { seat },
                Ok(Err((e, _))) => Answer::Refused { reason: e.into() },
                Err(_) => Answer::NoTable,
            }
        }
        Question::Reconnect { token, dialect } => {
            let conn = proxy(cluster, from, route, dialect, PLAYER_QUEUE);
            let (reply, answer) = oneshot::channel();
            if !handle.send(Command::Reconnect(Box::new(ReconnectRequest { token, conn, reply }))) {
                return Answer::NoTable;
            }
            match answer.await {
                Ok(Ok(seat)) => Answer::Seated { seat },
                Ok(Err(e)) => Answer::Refused { reason: e.into() },
                Err(_) => Answer::NoTable,
            }
        }
        Question::Watch => {
            let conn = proxy(cluster, from, route, Dialect::Browser, WATCHER_QUEUE);
            if handle.send(Command::Watch { conn }) { Answer::Watching } else { Answer::NoTable }
        }
        Question::Snapshot => match hub.snapshot_of(&handle).await {
            Some(snapshot) => Answer::Snapshot { snapshot: Some(Box::new(snapshot)) },
            None => Answer::Snapshot { snapshot: None },
        },
        Question::View => match hub.view(table).await {
            Some(view) => Answer::View { view: Box::new(view) },
            None => Answer::NoTable,
        },
    }
}

/// A connection for the table's task that stands for a socket on instance
/// `to`: what the table queues on it goes to that instance's inbox, in
/// order, and its end closes the socket there.
fn proxy(cluster: &Cluster, to: u64, route: u64, dialect: Dialect, capacity: usize) -> Conn {
    let (conn, rx) = Conn::new(route, dialect, capacity);
    tokio::spawn(forward(cluster.clone(), to, route, rx));
    conn
}

async fn forward(cluster: Cluster, to: u64, route: u64, mut rx: mpsc::Receiver<Frame>) {
    while let Some(Frame::Text(text)) = rx.recv().await {
        if cluster.tell(to, &Envelope::Frame { route, text: text.to_string() }).await.is_err() {
            break;
        }
    }
    let _ = cluster.tell(to, &Envelope::Close { route }).await;
}
