//! The simulation: many agents play through a real server over loopback,
//! people at a browser (some with the engine's moves), hexgame v1 bots and
//! spectators, while some of them misbehave on purpose: garbage frames,
//! moves out of turn or off the board, resigning, chat floods, dropping and
//! coming back with their token (or a forged one), vanishing for good. The
//! server runs with the judge on; what it finds is counted on `/metrics`
//! and each broken table written as a replay under `tests/regressions/`.
//!
//! Each agent draws its choices from its own seeded generator, so a run's
//! decisions are reproducible from its seed; the interleaving over the
//! network is not, which is why the server records what it applied.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use hexarena::engine::{Cell, Game, Move};
use hexarena::online::{Credentials, Phase, PlayerId, ServerMessage, TableView};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Stop once the server has finished this many games.
    pub games: u64,
    pub seed: u64,
    /// Pairs of players at once.
    pub pairs: usize,
    /// Chance (per thousand) that an agent misbehaves at a turn.
    pub faults_per_mille: u64,
    /// Give up after this long, whatever the count.
    pub deadline: Duration,
}

/// What happened.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub games: u64,
    pub actions: u64,
    pub faults: u64,
    pub spectators: u64,
    pub violations: u64,
    pub elapsed: Duration,
}

/// The server a simulation runs against: judged, counting violations
/// instead of stopping, writing replays to `tests/regressions/`, with a short
/// reconnect window (so vanished players forfeit within the run) and no
/// per-address caps (every agent connects from this one machine).
pub fn server_config() -> hexarena::server::hub::config::HubConfig {
    hexarena::server::hub::config::HubConfig {
        judge: true,
        panic_on_violation: false,
        regressions_dir: Some(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions")),
        reconnect: Duration::from_secs(1),
        connections_per_address: 0,
        waiting_tables_per_address: 0,
        ..Default::default()
    }
}

/// SplitMix64: small, seedable, good enough to pick moves and faults.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }
}

/// Counters shared by every agent.
#[derive(Default)]
struct Tally {
    actions: AtomicU64,
    faults: AtomicU64,
    spectators: AtomicU64,
    stop: AtomicBool,
}

/// A value of `/metrics`.
async fn metric(addr: std::net::SocketAddr, name: &str) -> u64 {
    let text = crate::common::get(addr, "/metrics").await.body;
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(0, |v| v as u64)
}

/// Runs the plan against the server at `addr`.
pub async fn run(addr: std::net::SocketAddr, plan: Plan) -> Report {
    let started = Instant::now();
    let tally = Arc::new(Tally::default());
    let base_games = metric(addr, "hexarena_games_finished_total").await;
    let mut seeds = Rng::new(plan.seed);
    let mut agents = tokio::task::JoinSet::new();
    for _ in 0..2 {
        let (t, seed) = (tally.clone(), seeds.next());
        agents.spawn(spectator(addr, seed, t));
    }
    loop {
        let finished = metric(addr, "hexarena_games_finished_total").await - base_games;
        if finished >= plan.games || started.elapsed() > plan.deadline {
            break;
        }
        while agents.len() < plan.pairs * 2 + 2 {
            let kind = Kind::pick(&mut seeds);
            let options = kind.options(&mut seeds);
            for _ in 0..2 {
                let (t, seed) = (tally.clone(), seeds.next());
                agents.spawn(player(addr, kind, options.clone(), seed, plan.faults_per_mille, t));
            }
        }
        // Reap agents that are done.
        while agents.try_join_next().is_some() {}
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tally.stop.store(true, Ordering::Relaxed);
    agents.abort_all();
    while agents.join_next().await.is_some() {}
    Report {
        games: metric(addr, "hexarena_games_finished_total").await - base_games,
        actions: tally.actions.load(Ordering::Relaxed),
        faults: tally.faults.load(Ordering::Relaxed),
        spectators: tally.spectators.load(Ordering::Relaxed),
        violations: metric(addr, "hexarena_judge_violations_total").await,
        elapsed: started.elapsed(),
    }
}

/// Who an agent is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A person at a browser, moving at random.
    Browser,
    /// A person at a browser playing the engine's moves.
    Engine,
    /// A hexgame v1 bot.
    Bot,
}

impl Kind {
    fn pick(rng: &mut Rng) -> Kind {
        match rng.below(10) {
            0..=5 => Kind::Browser,
            6..=7 => Kind::Engine,
            _ => Kind::Bot,
        }
    }

    /// The query of a matchmaking request both agents of a pair make.
    fn options(self, rng: &mut Rng) -> String {
        match self {
            Kind::Bot => format!("board_size=7&series_length={}", [1, 3][rng.below(2) as usize]),
            Kind::Browser | Kind::Engine => {
                let size = 3 + rng.below(4);
                let series = [1, 1, 3][rng.below(3) as usize];
                let swap = if rng.chance(300) { "on" } else { "off" };
                format!("size={size}&series={series}&swap={swap}&time=none")
            }
        }
    }

    fn path(self, options: &str, name: &str) -> String {
        match self {
            Kind::Bot => format!("/ws/matchmake?{options}&username={name}&model_name=simbot"),
            Kind::Browser | Kind::Engine => format!("/ws/play?mode=quick&{options}&name={name}"),
        }
    }
}

async fn connect(addr: std::net::SocketAddr, path: &str, credentials: Option<&Credentials>) -> Option<Socket> {
    let handshake = tokio_tungstenite::connect_async(format!("ws://{addr}{path}"));
    let (mut ws, _) = tokio::time::timeout(Duration::from_secs(5), handshake).await.ok()?.ok()?;
    if let Some(c) = credentials {
        ws.send(Message::text(c.to_json())).await.ok()?;
    }
    Some(ws)
}

/// The next server message, `None` when the socket closed or went quiet.
async fn next(ws: &mut Socket, quiet: Duration) -> Option<ServerMessage> {
    loop {
        match tokio::time::timeout(quiet, ws.next()).await.ok()? {
            Some(Ok(Message::Text(text))) => {
                if let Ok(m) = serde_json::from_str::<ServerMessage>(&text) {
                    return Some(m);
                }
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
            Some(Ok(_)) => {}
        }
    }
}

async fn send(ws: &mut Socket, kind: &str, payload: serde_json::Value) -> bool {
    let text = serde_json::json!({"type": kind, "payload": payload}).to_string();
    ws.send(Message::text(text)).await.is_ok()
}

/// What an agent knows of its game.
struct Seen {
    me: Option<PlayerId>,
    table: Option<u64>,
    token: Option<String>,
    size: u8,
    game: Option<Game>,
    turn: Option<PlayerId>,
    over: bool,
    game_number: u32,
    /// Where this agent last moved (game number, moves before it): a move
    /// and the `state` after it both say it is our turn until the server
    /// has our move, and one move is enough.
    moved: Option<(u32, usize)>,
}

impl Seen {
    /// Learns from one message (the v1 messages and the browser's `state`).
    fn learn(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Joined(j) | ServerMessage::SlotKept(j) => {
                (self.me, self.table, self.size) = (Some(j.player), Some(j.slot_id), j.board_size);
                self.token = Some(j.reconnect_token.clone());
                self.over = false;
            }
            ServerMessage::Reconnected(r) => self.me = Some(r.player),
            ServerMessage::GameStart(g) => {
                self.game = Game::starting_with(g.board_size, false, g.first_turn.color()).ok();
                self.turn = Some(g.first_turn);
                self.game_number = g.current_game_number;
            }
            ServerMessage::Move(m) => {
                if let Some(game) = &mut self.game
                    && game.position().stone(Cell::new(m.q, m.r)).is_none()
                {
                    let _ = game.play(Move::Place(Cell::new(m.q, m.r)));
                }
                self.turn = m.next_turn;
            }
            ServerMessage::State(view) => self.learn_view(view),
            ServerMessage::SeriesOver(_) => self.over = true,
            _ => {}
        }
    }

    fn learn_view(&mut self, view: &TableView) {
        self.size = view.size;
        self.game = Game::starting_with_moves(view.size, view.swap, view.first.color(), &view.moves).ok();
        self.turn = if view.phase == Phase::Playing { view.turn } else { None };
        self.over = matches!(view.phase, Phase::Over | Phase::Abandoned);
        self.game_number = view.game_number;
    }

    fn ply(&self) -> (u32, usize) {
        (self.game_number, self.game.as_ref().map_or(0, |g| g.moves().len()))
    }

    fn my_turn(&self) -> bool {
        self.me.is_some() && self.turn == self.me && !self.over && self.moved != Some(self.ply())
    }

    fn empty_cells(&self) -> Vec<Cell> {
        self.game.as_ref().map(|g| g.position().empty_cells().collect()).unwrap_or_default()
    }
}

/// One misbehaviour.
#[derive(Clone, Copy, Debug)]
enum Fault {
    Garbage,
    OffBoard,
    Occupied,
    OutOfTurn,
    Resign,
    ChatFlood,
    DropAndReturn,
    ForgedToken,
    Vanish,
}

const FAULTS: [Fault; 9] = [
    Fault::Garbage,
    Fault::OffBoard,
    Fault::Occupied,
    Fault::OutOfTurn,
    Fault::Resign,
    Fault::ChatFlood,
    Fault::DropAndReturn,
    Fault::ForgedToken,
    Fault::Vanish,
];

/// A player: matchmaking, then plays (and misbehaves) until its series is
/// over, it vanishes, or the server lets it go.
async fn player(
    addr: std::net::SocketAddr,
    kind: Kind,
    options: String,
    seed: u64,
    faults_per_mille: u64,
    tally: Arc<Tally>,
) {
    let mut rng = Rng::new(seed);
    let name = format!("sim{}", rng.below(1_000_000));
    let credentials = (kind != Kind::Bot).then(Credentials::default);
    let Some(mut ws) = connect(addr, &kind.path(&options, &name), credentials.as_ref()).await else { return };
    let mut seen = Seen {
        me: None,
        table: None,
        token: None,
        size: 0,
        game: None,
        turn: None,
        over: false,
        game_number: 0,
        moved: None,
    };
    // How long an agent waits for the server's next word: long enough for a
    // forfeit (the reconnect window), short enough that one kept slot that
    // nobody comes to does not hold up the run.
    let mut quiet = Duration::from_secs(5);
    while !tally.stop.load(Ordering::Relaxed) {
        let Some(message) = next(&mut ws, quiet).await else { return };
        seen.learn(&message);
        if seen.over {
            // Some keep the slot for another match; the rest leave.
            if rng.chance(200) && send(&mut ws, "keep_slot", serde_json::json!({})).await {
                seen.over = false;
                quiet = Duration::from_secs(2);
                continue;
            }
            return;
        }
        if !seen.my_turn() {
            if seen.me.is_some() && rng.chance(faults_per_mille / 4) {
                tally.faults.fetch_add(1, Ordering::Relaxed);
                let _ = send(&mut ws, "move", serde_json::json!({"q": 0, "r": 0})).await;
            }
            continue;
        }
        if rng.chance(faults_per_mille) {
            tally.faults.fetch_add(1, Ordering::Relaxed);
            let fault = FAULTS[rng.below(FAULTS.len() as u64) as usize];
            match misbehave(addr, &mut ws, kind, fault, &seen, &mut rng).await {
                Some(After::Same) => {}
                Some(After::New(fresh)) => ws = *fresh,
                None => return,
            }
            continue;
        }
        let Some(m) = choose(kind, &seen, &mut rng) else { continue };
        tally.actions.fetch_add(1, Ordering::Relaxed);
        seen.moved = Some(seen.ply());
        let sent = match m {
            Move::Place(c) => send(&mut ws, "move", serde_json::json!({"q": c.q, "r": c.r})).await,
            Move::Swap => send(&mut ws, "swap", serde_json::json!({})).await,
        };
        if !sent {
            return;
        }
    }
}

/// The agent's move: the engine's at a small budget, or a random cell (a
/// swap now and then where it is allowed).
fn choose(kind: Kind, seen: &Seen, rng: &mut Rng) -> Option<Move> {
    let game = seen.game.as_ref()?;
    if kind == Kind::Engine {
        return hexarena::engine::search::level::choose_move_with(
            game,
            hexarena::engine::search::Level::Beginner,
            rng.next(),
            60,
        );
    }
    if game.can_swap() && rng.chance(300) {
        return Some(Move::Swap);
    }
    let empty = seen.empty_cells();
    empty.get(rng.below(empty.len() as u64) as usize).map(|&c| Move::Place(c))
}

/// Does `fault`; returns the socket to go on with, `None` to stop.
async fn misbehave(
    addr: std::net::SocketAddr,
    ws: &mut Socket,
    kind: Kind,
    fault: Fault,
    seen: &Seen,
    rng: &mut Rng,
) -> Option<After> {
    let reconnect_path = |table: u64, token: &str| match kind {
        Kind::Bot => (format!("/ws/reconnect?slot_id={table}&token={token}"), None),
        _ => (
            format!("/ws/play?mode=resume&game={table}"),
            Some(Credentials { token: Some(token.to_string()), ..Credentials::default() }),
        ),
    };
    match fault {
        Fault::Garbage => {
            let junk = ["{nope", "[]", "{\"type\":5}", "{\"type\":\"move\",\"payload\":{\"q\":\"a\"}}", ""];
            ws.send(Message::text(junk[rng.below(junk.len() as u64) as usize])).await.ok()?;
            ws.send(Message::binary(vec![0u8, 159, 146, 150])).await.ok()?;
        }
        Fault::OffBoard => {
            let q = i64::from(seen.size) + rng.below(3) as i64;
            send(ws, "move", serde_json::json!({"q": q, "r": -1})).await.then_some(())?;
        }
        Fault::Occupied => {
            let taken = seen.game.as_ref().and_then(|g| g.last_stone()).unwrap_or(Cell::new(0, 0));
            send(ws, "move", serde_json::json!({"q": taken.q, "r": taken.r})).await.then_some(())?;
        }
        Fault::OutOfTurn => {
            send(ws, "swap", serde_json::json!({})).await.then_some(())?;
        }
        Fault::Resign => {
            send(ws, "resign", serde_json::json!({})).await.then_some(())?;
        }
        Fault::ChatFlood => {
            for i in 0..12 {
                send(ws, "chat", serde_json::json!({"message": format!("flood {i}")})).await.then_some(())?;
            }
        }
        Fault::DropAndReturn => {
            let (table, token) = (seen.table?, seen.token.clone()?);
            let _ = ws.close(None).await;
            tokio::time::sleep(Duration::from_millis(rng.below(400))).await;
            let (path, credentials) = reconnect_path(table, &token);
            return connect(addr, &path, credentials.as_ref()).await.map(|s| After::New(Box::new(s)));
        }
        Fault::ForgedToken => {
            let table = seen.table?;
            let (path, credentials) = reconnect_path(table, "forged-token");
            if let Some(mut thief) = connect(addr, &path, credentials.as_ref()).await {
                // Refused: an error, then the close.
                while next(&mut thief, Duration::from_secs(5)).await.is_some() {}
            }
        }
        Fault::Vanish => {
            let _ = ws.close(None).await;
            return None;
        }
    }
    Some(After::Same)
}

/// What an agent goes on with after misbehaving.
enum After {
    /// The same socket.
    Same,
    /// A new one (it dropped and came back).
    New(Box<Socket>),
}

/// A spectator: watches a live table for a moment, then another.
async fn spectator(addr: std::net::SocketAddr, seed: u64, tally: Arc<Tally>) {
    let mut rng = Rng::new(seed);
    while !tally.stop.load(Ordering::Relaxed) {
        let slots: serde_json::Value =
            serde_json::from_str(&crate::common::get(addr, "/slots").await.body).unwrap_or_default();
        let ids: Vec<u64> =
            slots.as_array().map(|s| s.iter().filter_map(|t| t["slot_id"].as_u64()).collect()).unwrap_or_default();
        if let Some(&id) = ids.get(rng.below(ids.len() as u64) as usize)
            && let Some(mut ws) = connect(addr, &format!("/ws/watch?game={id}"), None).await
        {
            tally.spectators.fetch_add(1, Ordering::Relaxed);
            let until = Instant::now() + Duration::from_millis(50 + rng.below(400));
            // Reads whatever comes until its time is up or the table closes.
            while let Ok(Some(Ok(_))) = tokio::time::timeout_at(until.into(), ws.next()).await {}
            let _ = ws.close(None).await;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}
