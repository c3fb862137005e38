//! Export the game as a move list, SGF or trmph (copy or download), and
//! import a record in any of those formats.

use leptos::prelude::*;

use crate::browser;
use crate::engine::{Game, Record, RecordFormat};

const FORMATS: [(RecordFormat, &str, &str, &str); 3] = [
    (RecordFormat::Text, "text", "txt", "text/plain"),
    (RecordFormat::Sgf, "sgf", "sgf", "application/x-go-sgf"),
    (RecordFormat::Trmph, "trmph", "txt", "text/plain"),
];

fn format_by_key(key: &str) -> (RecordFormat, &'static str, &'static str, &'static str) {
    FORMATS.into_iter().find(|f| f.1 == key).unwrap_or(FORMATS[0])
}

/// The export box: a format choice, the record text, copy and download.
#[component]
pub fn ExportRecord(game: RwSignal<Game>) -> impl IntoView {
    let format_key = RwSignal::new("text".to_string());
    let feedback = RwSignal::new(String::new());
    let text = Memo::new(move |_| {
        let (format, ..) = format_by_key(&format_key.get());
        game.with(|g| Record::from_game(g).write(format))
    });
    let copy = move |_| {
        let value = text.get_untracked();
        leptos::task::spawn_local(async move {
            let ok = browser::copy(&value).await;
            feedback.set(
                if ok {
                    "Copied to the clipboard."
                } else {
                    "The browser refused the clipboard: select the text and copy it."
                }
                .into(),
            );
        });
    };
    let download = move |_| {
        let (_, key, ext, mime) = format_by_key(&format_key.get_untracked());
        let size = game.with_untracked(|g| g.size());
        let name = format!("hexarena-{size}x{size}-{key}.{ext}");
        let ok = browser::download(&name, mime, &text.get_untracked());
        feedback.set(if ok { format!("Saved as {name}.") } else { "The download could not start.".into() });
    };
    view! {
        <details class="panel-box">
            <summary>"Export"</summary>
            <label class="field">
                <span>"Format"</span>
                <select
                    data-testid="export-format"
                    on:change=move |ev| {
                        format_key.set(event_target_value(&ev));
                        feedback.set(String::new());
                    }
                >
                    <option value="text" selected=true>"Move list"</option>
                    <option value="sgf">"SGF (HexGui)"</option>
                    <option value="trmph">"trmph"</option>
                </select>
            </label>
            <textarea data-testid="export-text" readonly=true rows="3" aria-label="Game record" prop:value=text></textarea>
            <div class="button-row">
                <button type="button" on:click=copy>"Copy"</button>
                <button type="button" on:click=download>"Download"</button>
            </div>
            <p class="feedback" role="status">{feedback}</p>
        </details>
    }
}

/// The import box: paste a record, load it as the current game.
#[component]
pub fn ImportRecord(game: RwSignal<Game>, #[prop(into)] on_loaded: Callback<Game>) -> impl IntoView {
    let input = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let load = move |_| {
        let text = input.get_untracked();
        let (size, swap) = game.with_untracked(|g| (g.size(), g.swap_allowed()));
        match Record::parse(&text, size).and_then(|(record, _)| record.to_game(swap)) {
            Ok(imported) => {
                error.set(None);
                input.set(String::new());
                on_loaded.run(imported);
            }
            Err(e) => error.set(Some(format!("This record cannot be loaded {e}."))),
        }
    };
    view! {
        <details class="panel-box">
            <summary>"Import"</summary>
            <p class="hint">"Paste a move list (" <code>"7x7 d4 c5"</code> "), an SGF file or a trmph link."</p>
            <textarea
                data-testid="import-text"
                rows="3"
                aria-label="Record to import"
                prop:value=input
                on:input=move |ev| input.set(event_target_value(&ev))
            ></textarea>
            <div class="button-row">
                <button type="button" data-testid="import-button" on:click=load>"Load"</button>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </details>
    }
}
