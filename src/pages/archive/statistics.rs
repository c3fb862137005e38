//! `/statistics`: the leaderboard with Glicko-2 ratings, totals, games per
//! board size and series length, the latest series with links to their
//! games, and a chart of games per day.

use leptos::prelude::*;
use leptos_meta::Title;

use super::queries::archive_statistics;
use crate::online::account::{SeatKind, seat_label};
use crate::online::records::{DayCount, LeaderboardRow, Statistics};

/// The statistics page.
#[component]
pub fn StatisticsPage() -> impl IntoView {
    let stats = Resource::new(|| (), |_| archive_statistics());
    view! {
        <Title text="Statistics — hexarena" />
        <div class="page statistics">
            <h1>"Statistics"</h1>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match stats.await {
                        Ok(s) if s.persistence_enabled => view! { <StatisticsView s /> }.into_any(),
                        Ok(_) => view! { <p>"This server keeps no archive, so there are no statistics."</p> }.into_any(),
                        Err(e) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
}

/// Which leaderboard is shown (`?board=` in the address, so the links work
/// without the page's script).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Board {
    People,
    Bots,
    Both,
    /// Guests and unverified bots: listed, never rated.
    Unrated,
}

impl Board {
    const ALL: [(Board, &'static str, &'static str); 4] = [
        (Board::People, "people", "People"),
        (Board::Bots, "bots", "Bots"),
        (Board::Both, "both", "People and bots"),
        (Board::Unrated, "unrated", "Guests and unverified bots"),
    ];

    fn parse(text: Option<String>) -> Board {
        Board::ALL.into_iter().find(|(_, key, _)| Some(*key) == text.as_deref()).map_or(Board::People, |(b, _, _)| b)
    }

    fn shows(self, kind: &str) -> bool {
        match self {
            Board::People => kind == "human",
            Board::Bots => kind == "bot",
            Board::Both => kind == "human" || kind == "bot",
            Board::Unrated => kind == "guest" || kind == "unverified",
        }
    }
}

#[component]
fn Leaderboard(rows: Vec<LeaderboardRow>) -> impl IntoView {
    let query = leptos_router::hooks::use_query_map();
    let board = move || Board::parse(query.with(|q| q.get("board")));
    let rows = StoredValue::new(rows);
    view! {
        <section>
            <h2>"Leaderboard"</h2>
            <p class="hint">
                "Ratings are Glicko-2, counted only for games between two accounts (people or bots with a token): "
                "every rated game moves both players, more when the rating is less sure (the ± is two deviations; "
                "“?” marks a provisional rating). Wins and losses count series."
            </p>
            <nav class="tabs" aria-label="Leaderboards">
                {Board::ALL.into_iter().map(|(b, key, label)| view! {
                    <a href=format!("/statistics?board={key}") data-testid=format!("board-{key}")
                        aria-current=move || (board() == b).then_some("page")>{label}</a>
                }).collect_view()}
            </nav>
            <div class="table-scroll">
                <table class="leaderboard" data-testid="leaderboard">
                    <thead>
                        <tr>
                            <th>"#"</th><th>"Player"</th><th>"Rating"</th><th>"Series"</th><th>"Won"</th>
                            <th>"Lost"</th><th>"Win rate"</th><th>"Games won–lost"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let board = board();
                            rows.with_value(|rows| rows.iter().filter(|r| board.shows(&r.kind)).enumerate().map(|(i, r)| {
                                view! { <LeaderboardLine place=i + 1 r=r.clone() /> }
                            }).collect_view())
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn LeaderboardLine(place: usize, r: LeaderboardRow) -> impl IntoView {
    let provisional = r.deviation.is_some_and(|d| d > crate::rating::PROVISIONAL_DEVIATION);
    let rating = r.rating.map_or("—".to_string(), |x| {
        format!("{:.0} ± {:.0}{}", x, 2.0 * r.deviation.unwrap_or(0.0), if provisional { " ?" } else { "" })
    });
    let encode = crate::pages::online::live_socket::encode;
    let who = match r.kind.as_str() {
        "bot" => format!("{} (bot)", r.display_name),
        "guest" => SeatKind::Guest.decorate(r.display_name.clone()),
        "unverified" => SeatKind::UnverifiedBot.decorate(format!("{} ({})", r.display_name, r.model_name)),
        _ => r.display_name.clone(),
    };
    let link = (r.kind == "human" || r.kind == "bot").then(|| format!("/players/{}", encode(&r.display_name)));
    view! {
        <tr data-testid="leaderboard-row">
            <td>{place}</td>
            <td>{match link {
                Some(href) => view! { <a href=href>{who}</a> }.into_any(),
                None => who.into_any(),
            }}</td>
            <td class="num" data-testid="rating">{rating}</td>
            <td class="num">{r.matches}</td>
            <td class="num">{r.wins}</td>
            <td class="num">{r.losses}</td>
            <td class="num">{format!("{:.0}%", r.win_rate * 100.0)}</td>
            <td class="num">{format!("{}–{}", r.games_won, r.games_lost)}</td>
        </tr>
    }
}

#[component]
fn StatisticsView(s: Statistics) -> impl IntoView {
    let players = s.leaderboard.len();
    view! {
        <div class="totals">
            <div class="card total"><strong data-testid="total-matches">{s.totals.matches}</strong>" series played"</div>
            <div class="card total"><strong data-testid="total-games">{s.totals.games}</strong>" games"</div>
            <div class="card total"><strong>{players}</strong>" players and bots"</div>
        </div>
        <Leaderboard rows=s.leaderboard.clone() />
        <section class="split">
            <div>
                <h2>"By board size"</h2>
                <CountTable rows=s.board_sizes.iter().map(|(k, v)| (format!("{k}×{k}"), *v)).collect() />
            </div>
            <div>
                <h2>"By series length"</h2>
                <CountTable rows=s.series_lengths.iter().map(|(k, v)| (if k == "1" { "one game".to_string() } else { format!("best of {k}") }, *v)).collect() />
            </div>
        </section>
        <section>
            <h2>"Games per day"</h2>
            <DayChart days=s.games_per_day.clone() />
        </section>
        <section>
            <h2>"Latest series"</h2>
            <ul class="recent" data-testid="recent-matches">
                {s.recent_matches.iter().map(|m| {
                    let name = |user: &Option<String>, model: &Option<String>, kind: SeatKind| {
                        kind.decorate(seat_label(user.as_deref(), model.as_deref()).unwrap_or_else(|| "Anonymous".into()))
                    };
                    let red = name(&m.player_1_username, &m.player_1_model, m.player_1_kind);
                    let blue = name(&m.player_2_username, &m.player_2_model, m.player_2_kind);
                    let winner = if m.winner < 0 { &red } else { &blue };
                    view! {
                        <li>
                            {format!("{red} vs {blue}, {0}×{0}: {winner} won {1}–{2} ", m.board_size, m.player_1_wins.max(m.player_2_wins), m.player_1_wins.min(m.player_2_wins))}
                            {m.games.iter().enumerate().map(|(i, g)| view! { <a href=format!("/games/{g}") class="game-link">{format!("game {}", i + 1)}</a>" " }).collect_view()}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <p><a href="/games">"All archived games"</a></p>
        </section>
    }
}

#[component]
fn CountTable(rows: Vec<(String, u64)>) -> impl IntoView {
    view! {
        <table class="counts">
            <tbody>
                {rows.into_iter().map(|(k, v)| view! { <tr><td>{k}</td><td class="num">{v}</td></tr> }).collect_view()}
            </tbody>
        </table>
    }
}

/// Bars of games per day, drawn as SVG.
#[component]
fn DayChart(days: Vec<DayCount>) -> impl IntoView {
    let max = days.iter().map(|d| d.games).max().unwrap_or(0).max(1) as f64;
    let n = days.len().max(1) as f64;
    let (w, h) = (600.0, 160.0);
    let bar = w / n;
    let label_every = (days.len() / 6).max(1);
    view! {
        <svg class="day-chart" viewBox=format!("0 0 {w} {}", h + 24.0) role="img" data-testid="games-chart"
            aria-label=format!("Games per day over the last {} days, at most {} in a day", days.len(), max as u64)>
            <line x1="0" y1=h.to_string() x2=w.to_string() y2=h.to_string() class="axis" />
            {days.iter().enumerate().map(|(i, d)| {
                let bh = d.games as f64 / max * (h - 10.0);
                let x = i as f64 * bar;
                view! {
                    <rect x=format!("{:.1}", x + 1.0) y=format!("{:.1}", h - bh) width=format!("{:.1}", (bar - 2.0).max(1.0)) height=format!("{bh:.1}") class="bar">
                        <title>{format!("{}: {} games", d.day, d.games)}</title>
                    </rect>
                    {(i % label_every == 0).then(|| view! {
                        <text x=format!("{:.1}", x + bar / 2.0) y=(h + 16.0).to_string() class="tick">{d.day[5..].to_string()}</text>
                    })}
                }
            }).collect_view()}
            <text x="4" y="12" class="tick">{format!("{}", max as u64)}</text>
        </svg>
    }
}
