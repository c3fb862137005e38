//! The page for addresses that lead nowhere, served with status 404.

use leptos::prelude::*;
use leptos_meta::Title;

/// "Page not found", with the way back.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    view! {
        <Title text="Not found — hexarena" />
        <div class="page narrow">
            <h1>"Page not found"</h1>
            <p>"There is nothing at this address. Try the " <a href="/">"home page"</a> " or " <a href="/play">"start a game"</a> "."</p>
        </div>
    }
}
