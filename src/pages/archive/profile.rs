//! `/players/NAME`: a player's ratings per size class with a graph of
//! their history, results by colour and board size, and recent games with
//! links to replay and review them.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::queries::player_profile;
use crate::online::account::SeatKind;
use crate::online::profile::{Profile, RatingPoint, Record};
use crate::online::records::day_of;
use crate::rating::RatingClass;

/// The profile page.
#[component]
pub fn ProfilePage() -> impl IntoView {
    let params = use_params_map();
    let name = move || params.with(|p| p.get("name")).unwrap_or_default();
    let profile = Resource::new(name, player_profile);
    view! {
        <Title text=move || format!("{} — hexarena", name()) />
        <div class="page profile">
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match profile.await {
                        Ok(Some(p)) => view! { <ProfileView p /> }.into_any(),
                        Ok(None) => view! {
                            <h1>"No such player"</h1>
                            <p>"No account has this name. Guests have no page: only accounts keep a rating."</p>
                        }.into_any(),
                        Err(e) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
}

fn record(r: Record) -> String {
    let total = r.won + r.lost;
    if total == 0 {
        return "—".into();
    }
    format!("{}–{} ({:.0}%)", r.won, r.lost, 100.0 * f64::from(r.won) / f64::from(total))
}

#[component]
fn ProfileView(p: Profile) -> impl IntoView {
    let kind = match p.kind {
        SeatKind::Bot => "Bot",
        SeatKind::UnverifiedBot => "Unverified bot (from before bot accounts)",
        SeatKind::Person | SeatKind::Guest => "Player",
    };
    let owner = p.owner.clone().map(|o| {
        let href = format!("/players/{}", crate::pages::online::live_socket::encode(&o));
        view! { " of " <a href=href data-testid="profile-owner">{o}</a> }
    });
    let games_href = format!("/games?player={}", crate::pages::online::live_socket::encode(&p.name));
    view! {
        <h1 data-testid="profile-name">{p.name.clone()}</h1>
        <p class="hint">{kind}{owner}{format!(" · since {}", day_of(p.created_at_ms))}</p>
        {p.description.clone().filter(|d| !d.is_empty()).map(|d| view! { <p>{d}</p> })}
        <section class="card">
            <h2>"Ratings"</h2>
            {if p.ratings.is_empty() {
                view! { <p data-testid="profile-unrated">"No rated games yet: games between two accounts are rated."</p> }.into_any()
            } else {
                view! {
                    <table class="ratings" data-testid="profile-ratings">
                        <thead><tr><th>"Boards"</th><th>"Rating"</th><th>"Games"</th></tr></thead>
                        <tbody>
                            {p.ratings.iter().map(|r| view! {
                                <tr data-class=r.class.as_str()>
                                    <td>{r.class.label()}</td>
                                    <td data-testid=format!("rating-{}", r.class.as_str())>
                                        {format!("{:.0} ± {:.0}", r.rating, 2.0 * r.deviation)}
                                        {r.provisional().then_some(" ?")}
                                    </td>
                                    <td>{r.games}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <p class="hint">"± is two rating deviations; “?” marks a provisional rating, not yet sure."</p>
                }.into_any()
            }}
            {p.history.iter().map(|(class, points)| view! { <RatingGraph class=*class points=points.clone() /> }).collect_view()}
        </section>
        <section class="card">
            <h2>"Results"</h2>
            <table class="results" data-testid="profile-results">
                <tbody>
                    <tr><th>"As Red"</th><td>{record(p.as_red)}</td></tr>
                    <tr><th>"As Blue"</th><td>{record(p.as_blue)}</td></tr>
                    {p.by_size.iter().map(|s| view! {
                        <tr><th>{format!("{0}×{0}", s.size)}</th><td>{record(s.record)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        </section>
        {(!p.bots.is_empty()).then(|| view! {
            <section class="card">
                <h2>"Bots"</h2>
                <ul>{p.bots.iter().map(|b| {
                    let href = format!("/players/{}", crate::pages::online::live_socket::encode(b));
                    view! { <li><a href=href>{b.clone()}</a></li> }
                }).collect_view()}</ul>
            </section>
        })}
        <section class="card">
            <h2>"Recent games"</h2>
            <p class="hint">"Each opens the game to replay it, and to review it on the analysis board."</p>
            <ul class="recent-games" data-testid="profile-games">
                {p.recent.iter().map(|g| {
                    let replay = format!("/games/{}", g.id);
                    let players = format!(
                        "{} – {}",
                        g.red.clone().unwrap_or_else(|| "guest".into()),
                        g.blue.clone().unwrap_or_else(|| "guest".into())
                    );
                    view! {
                        <li>
                            <a href=replay>{format!("{0}×{0}: {players}", g.board_size)}</a>
                            {format!(", {} won · {}", g.winner.name(), day_of(g.finished_at_ms))}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <p><a href=games_href>"All their games"</a></p>
        </section>
    }
}

/// The rating after each rated game, with its ±2 deviation band.
#[component]
fn RatingGraph(class: RatingClass, points: Vec<RatingPoint>) -> impl IntoView {
    const W: f64 = 600.0;
    const H: f64 = 160.0;
    let lows = points.iter().map(|p| p.rating - 2.0 * p.deviation);
    let highs = points.iter().map(|p| p.rating + 2.0 * p.deviation);
    let low = lows.fold(f64::MAX, f64::min).min(1400.0);
    let high = highs.fold(f64::MIN, f64::max).max(1600.0);
    let n = points.len().max(2) - 1;
    let x = move |i: usize| i as f64 / n as f64 * W;
    let y = move |r: f64| H - (r - low) / (high - low) * H;
    let line: Vec<String> = points.iter().enumerate().map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating))).collect();
    let band: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating + 2.0 * p.deviation)))
        .chain(
            points.iter().enumerate().rev().map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating - 2.0 * p.deviation))),
        )
        .collect();
    let last = points.last().map_or(1500.0, |p| p.rating);
    view! {
        <figure class="rating-graph">
            <svg viewBox=format!("0 0 {W} {H}") role="img" data-testid=format!("rating-graph-{}", class.as_str())
                aria-label=format!("Rating after each of {} rated games, now {last:.0}", points.len())>
                <polygon class="band" points=band.join(" ") />
                <polyline class="line" points=line.join(" ") />
            </svg>
            <figcaption>{format!("{}: rating over {} rated games ({:.0} to {:.0} shown)", class.label(), points.len(), low, high)}</figcaption>
        </figure>
    }
}
