//! The frame around every page: a skip link, the navigation and a footer.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

/// The pages in the navigation, in order. Only pages that exist are listed.
const NAV: [(&str, &str); 6] = [
    ("/", "Home"),
    ("/play", "Play"),
    ("/overview", "Live"),
    ("/statistics", "Stats"),
    ("/analysis", "Analysis"),
    ("/docs", "Docs"),
];

/// Header with navigation, the page itself, and a footer.
#[component]
pub fn Layout(children: Children) -> impl IntoView {
    let location = use_location();
    let current = move |href: &'static str| {
        let path = location.pathname.get();
        let here = if href == "/" { path == "/" } else { path == href || path.starts_with(&format!("{href}/")) };
        here.then_some("page")
    };
    // Set by public/pwa.js when the service worker has fetched a new build.
    let update_ready = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    {
        let handle = window_event_listener_untyped("hexarena-update", move |_| update_ready.set(true));
        on_cleanup(move || handle.remove());
    }
    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <Show when=move || update_ready.get()>
            <p class="update-notice" role="status" data-testid="update-notice">
                "A new version of hexarena is ready; it starts on your next page. "
                <button type="button" class="link-button" on:click=move |_| reload()>
                    "Reload now"
                </button>
            </p>
        </Show>
        <header class="site-header">
            <a class="brand" href="/" aria-label="hexarena home">
                <svg class="brand-mark" viewBox="-1 -1 2 2" aria-hidden="true">
                    <polygon points="0,-1 0.866,-0.5 0.866,0.5 0,1 -0.866,0.5 -0.866,-0.5"></polygon>
                </svg>
                <span>"hexarena"</span>
            </a>
            <nav aria-label="Main">
                <ul>
                    {NAV
                        .into_iter()
                        .map(|(href, name)| {
                            view! {
                                <li>
                                    // The docs' prose is only in the server's HTML (see pages/docs.rs).
                                    <a href=href aria-current=move || current(href) rel=(href == "/docs").then_some("external")>
                                        {name}
                                    </a>
                                </li>
                            }
                        })
                        .collect_view()}
                    <li><AccountLink /></li>
                </ul>
            </nav>
        </header>
        <main id="main" tabindex="-1">
            {children()}
        </main>
        <footer class="site-footer">
            <p>"hexarena — Hex in the browser, in Rust. Red joins left and right, Blue joins top and bottom."</p>
        </footer>
    }
}

/// "Log in", or the logged-in person's name. Asked by the browser after
/// each navigation, never rendered by the server: pages are then the same
/// for everyone, and cached by the build (see `server::assets::pages`).
#[component]
fn AccountLink() -> impl IntoView {
    let me = RwSignal::new(None::<crate::online::account::Me>);
    let location = use_location();
    Effect::new(move |_| {
        location.pathname.track();
        leptos::task::spawn_local(async move {
            if let Ok(who) = crate::pages::account::api::who_am_i().await {
                me.set(who);
            }
        });
    });
    move || match me.get() {
        Some(me) => view! { <a href="/account" data-testid="nav-account">{me.name}</a> }.into_any(),
        None => view! { <a href="/login" data-testid="nav-login">"Log in"</a> }.into_any(),
    }
}

/// Asks public/pwa.js to let the new version take over, then reload.
fn reload() {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window()
        && let Ok(event) = web_sys::Event::new("hexarena-reload")
    {
        let _ = window.dispatch_event(&event);
    }
}
