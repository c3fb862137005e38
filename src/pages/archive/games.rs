//! `/games`: archived games, newest first, filtered by player and board
//! size, a page at a time.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::queries::archived_games;
use crate::online::records::{GamePage, day_of};
use crate::pages::online::live_socket::encode;

/// The archive list.
#[component]
pub fn GamesPage() -> impl IntoView {
    let query = use_query_map();
    let filters = move || {
        let q = query.read();
        let player = q.get("player").filter(|p| !p.trim().is_empty());
        let size = q.get("size").and_then(|s| s.parse::<u8>().ok());
        let page = q.get("page").and_then(|p| p.parse::<u32>().ok()).unwrap_or(1).max(1);
        (player, size, page)
    };
    let games = Resource::new(filters, |(player, size, page)| archived_games(player, size, page));
    view! {
        <Title text="Games — hexarena" />
        <div class="page">
            <h1>"Archived games"</h1>
            <form method="get" action="/games" class="filters" data-testid="games-filter">
                <label class="field">
                    <span>"Player"</span>
                    <input type="text" name="player" value=move || filters().0.unwrap_or_default() />
                </label>
                <label class="field">
                    <span>"Board size"</span>
                    <select name="size">
                        <option value="">"Any"</option>
                        {(3u8..=19).map(|n| view! {
                            <option value=n.to_string() selected=move || filters().1 == Some(n)>{format!("{n}×{n}")}</option>
                        }).collect_view()}
                    </select>
                </label>
                <button type="submit">"Filter"</button>
            </form>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    let (player, size, page) = filters();
                    match games.await {
                        Ok(list) => view! { <GameList list player size page /> }.into_any(),
                        Err(e) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
}

#[component]
fn GameList(list: GamePage, player: Option<String>, size: Option<u8>, page: u32) -> impl IntoView {
    let pages = list.total.div_ceil(u64::from(crate::online::records::PAGE_SIZE)).max(1) as u32;
    let link = move |p: u32| {
        let mut q = vec![format!("page={p}")];
        if let Some(name) = &player {
            q.push(format!("player={}", encode(name)));
        }
        if let Some(n) = size {
            q.push(format!("size={n}"));
        }
        format!("/games?{}", q.join("&"))
    };
    if list.games.is_empty() {
        return view! { <p data-testid="games-empty">"No archived game matches."</p> }.into_any();
    }
    view! {
        <p class="hint">{format!("{} games", list.total)}</p>
        <div class="table-scroll">
            <table class="games" data-testid="games-list">
                <thead>
                    <tr><th>"Game"</th><th>"Red"</th><th>"Blue"</th><th>"Size"</th><th>"Result"</th><th>"Moves"</th><th>"Date"</th></tr>
                </thead>
                <tbody>
                    {list.games.into_iter().map(|g| {
                        let how = g.reason.noun();
                        view! {
                            <tr data-testid="games-row">
                                <td><a href=format!("/games/{}", g.id)>{g.id.clone()}</a></td>
                                <td>{g.red.clone().unwrap_or_else(|| "Anonymous".into())}</td>
                                <td>{g.blue.clone().unwrap_or_else(|| "Anonymous".into())}</td>
                                <td>{format!("{0}×{0}", g.board_size)}</td>
                                <td>{format!("{} won ({how})", g.winner.name())}</td>
                                <td class="num">{g.moves}</td>
                                <td>{day_of(g.finished_at_ms)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <nav class="pager button-row" aria-label="Pages">
            {(page > 1).then(|| view! { <a class="button" href=link(page - 1)>"Newer"</a> })}
            <span>{format!("Page {page} of {pages}")}</span>
            {(page < pages).then(|| view! { <a class="button" href=link(page + 1)>"Older"</a> })}
        </nav>
    }
    .into_any()
}
