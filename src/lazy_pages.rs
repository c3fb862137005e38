//! The pages loaded on demand. With `cargo leptos build --split` each one's
//! code is a WASM chunk of its own, fetched when a visitor first opens it
//! (or, on a page's first load, before hydrating it), so the landing page
//! does not download the analysis board, the online game or the archive.
//! Without `--split` they are ordinary pages.

use leptos::prelude::*;
use leptos_router::{Lazy, LazyRoute, lazy_route};

use crate::pages::analysis::AnalysisPage;
use crate::pages::archive::{ArchivedGamePage, GamesPage, StatisticsPage};
use crate::pages::docs::DocsPage;
use crate::pages::local_game::{EngineGamePage, LocalGamePage};
use crate::pages::online::{LiveGamePage, OverviewPage, QuickMatchPage};
use crate::pages::play::PlayPage;

/// One lazily loaded page per route: a unit struct whose view is the page.
macro_rules! lazy_page {
    ($route:ident, $page:ident) => {
        #[derive(Debug)]
        pub struct $route;

        #[lazy_route]
        impl LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            fn view(_this: Self) -> AnyView {
                view! { <$page /> }.into_any()
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

lazy_page!(PlayRoute, PlayPage);
lazy_page!(LocalGameRoute, LocalGamePage);
lazy_page!(EngineGameRoute, EngineGamePage);
lazy_page!(QuickMatchRoute, QuickMatchPage);
lazy_page!(LiveGameRoute, LiveGamePage);
lazy_page!(OverviewRoute, OverviewPage);
lazy_page!(StatisticsRoute, StatisticsPage);
lazy_page!(GamesRoute, GamesPage);
lazy_page!(ArchivedGameRoute, ArchivedGamePage);
lazy_page!(AnalysisRoute, AnalysisPage);
lazy_page!(DocsRoute, DocsPage);
