//! The pages loaded on demand. With `cargo leptos build --split` each group
//! of pages is a WASM chunk of its own, fetched when a visitor first opens
//! one of them (on a page's first load, before it is hydrated), so the
//! landing page does not download the analysis board, the online game or
//! the archive. Pages that lead to one another share a chunk: one split
//! point per page made dozens of tiny shared chunks, each a request, which
//! a phone's latency turned into seconds. Without `--split` they are
//! ordinary pages.

use leptos::lazy;
use leptos::prelude::*;
use leptos_router::{Lazy, LazyRoute};

use crate::pages::account::{AccountPage, LoginPage};
use crate::pages::analysis::AnalysisPage;
use crate::pages::archive::{ArchivedGamePage, GamesPage, ProfilePage, StatisticsPage};
use crate::pages::docs::DocsPage;
use crate::pages::local_game::{EngineGamePage, LocalGamePage};
use crate::pages::online::{LiveGamePage, OverviewPage, QuickMatchPage};
use crate::pages::play::PlayPage;

/// The new-game page and the two games it starts, all in the browser.
#[derive(Clone, Copy, Debug)]
enum PlayPages {
    Play,
    Local,
    Engine,
}

#[lazy]
fn play_pages(page: PlayPages) -> AnyView {
    match page {
        PlayPages::Play => view! { <PlayPage /> }.into_any(),
        PlayPages::Local => view! { <LocalGamePage /> }.into_any(),
        PlayPages::Engine => view! { <EngineGamePage /> }.into_any(),
    }
}

/// Quick match, a live game and the overview of live games.
#[derive(Clone, Copy, Debug)]
enum OnlinePages {
    QuickMatch,
    LiveGame,
    Overview,
}

#[lazy]
fn online_pages(page: OnlinePages) -> AnyView {
    match page {
        OnlinePages::QuickMatch => view! { <QuickMatchPage /> }.into_any(),
        OnlinePages::LiveGame => view! { <LiveGamePage /> }.into_any(),
        OnlinePages::Overview => view! { <OverviewPage /> }.into_any(),
    }
}

/// The statistics, the list of finished games, one finished game and a
/// player's page.
#[derive(Clone, Copy, Debug)]
enum ArchivePages {
    Statistics,
    Games,
    Game,
    Profile,
}

#[lazy]
fn archive_pages(page: ArchivePages) -> AnyView {
    match page {
        ArchivePages::Statistics => view! { <StatisticsPage /> }.into_any(),
        ArchivePages::Games => view! { <GamesPage /> }.into_any(),
        ArchivePages::Game => view! { <ArchivedGamePage /> }.into_any(),
        ArchivePages::Profile => view! { <ProfilePage /> }.into_any(),
    }
}

/// Logging in or signing up, and the account's settings.
#[derive(Clone, Copy, Debug)]
enum AccountPages {
    Login,
    Settings,
}

#[lazy]
fn account_pages(page: AccountPages) -> AnyView {
    match page {
        AccountPages::Login => view! { <LoginPage /> }.into_any(),
        AccountPages::Settings => view! { <AccountPage /> }.into_any(),
    }
}

#[lazy]
fn analysis_page() -> AnyView {
    view! { <AnalysisPage /> }.into_any()
}

#[lazy]
fn docs_page() -> AnyView {
    view! { <DocsPage /> }.into_any()
}

/// A route whose view is `$load`, awaited. The router awaits `preload`
/// before hydrating the route, so the chunk is there when it is needed
/// (`$preload` is made by `#[lazy]` for the browser build).
macro_rules! lazy_route {
    ($route:ident, $load:expr, $preload:ident) => {
        #[derive(Debug)]
        pub struct $route;

        impl LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            async fn preload() {
                #[cfg(feature = "hydrate")]
                $preload().await;
            }

            async fn view(_this: Self) -> AnyView {
                $load.await
            }
        }

        impl $route {
            /// The route's view, for `<Route view=…>`.
            pub fn lazy() -> Lazy<$route> {
                Lazy::new()
            }
        }
    };
}

lazy_route!(PlayRoute, play_pages(PlayPages::Play), __preload_play_pages);
lazy_route!(LocalGameRoute, play_pages(PlayPages::Local), __preload_play_pages);
lazy_route!(EngineGameRoute, play_pages(PlayPages::Engine), __preload_play_pages);
lazy_route!(QuickMatchRoute, online_pages(OnlinePages::QuickMatch), __preload_online_pages);
lazy_route!(LiveGameRoute, online_pages(OnlinePages::LiveGame), __preload_online_pages);
lazy_route!(OverviewRoute, online_pages(OnlinePages::Overview), __preload_online_pages);
lazy_route!(StatisticsRoute, archive_pages(ArchivePages::Statistics), __preload_archive_pages);
lazy_route!(GamesRoute, archive_pages(ArchivePages::Games), __preload_archive_pages);
lazy_route!(ArchivedGameRoute, archive_pages(ArchivePages::Game), __preload_archive_pages);
lazy_route!(ProfileRoute, archive_pages(ArchivePages::Profile), __preload_archive_pages);
lazy_route!(LoginRoute, account_pages(AccountPages::Login), __preload_account_pages);
lazy_route!(AccountRoute, account_pages(AccountPages::Settings), __preload_account_pages);
lazy_route!(AnalysisRoute, analysis_page(), __preload_analysis_page);
lazy_route!(DocsRoute, docs_page(), __preload_docs_page);
