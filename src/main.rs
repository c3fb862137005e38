//! The hexarena server: renders the pages, serves the WebAssembly client.

#[cfg(feature = "ssr")]
fn main() -> std::process::ExitCode {
    // Worker threads: one per core unless HEXARENA_WORKER_THREADS says.
    let workers = match std::env::var("HEXARENA_WORKER_THREADS").ok().filter(|v| !v.trim().is_empty()) {
        None => None,
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if (1..=1024).contains(&n) => Some(n),
            _ => {
                eprintln!("hexarena: HEXARENA_WORKER_THREADS must be a whole number from 1 to 1024, not '{v}'");
                return std::process::ExitCode::FAILURE;
            }
        },
    };
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    runtime.enable_all();
    if let Some(n) = workers {
        runtime.worker_threads(n);
    }
    match runtime.build() {
        Ok(rt) => rt.block_on(serve()),
        Err(e) => {
            eprintln!("hexarena: cannot start the async runtime: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(feature = "ssr")]
async fn serve() -> std::process::ExitCode {
    use std::process::ExitCode;

    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(("ratings", rest)) = args.split_first().map(|(c, r)| (c.as_str(), r)) {
        return hexarena::server::ratings_command::run(rest).await;
    }
    if let Some(code) = hexarena::cli::run(&args) {
        return code;
    }
    if let Err(e) = start_logging() {
        eprintln!("hexarena: {e}");
        return ExitCode::FAILURE;
    }
    let mut options = match leptos::config::get_configuration(None) {
        Ok(conf) => conf.leptos_options,
        Err(e) => {
            eprintln!("hexarena: bad LEPTOS_* setting: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Built without cargo-leptos (cargo check, cargo test), the name of the
    // client bundle is not baked in; it is always ours.
    if options.output_name.is_empty() {
        options.output_name = "hexarena".into();
    }
    // cargo-leptos names the bundles by their content's hash (hash-files);
    // the pages must link to those names whenever the site has them.
    if std::env::var_os("LEPTOS_HASH_FILES").is_none() {
        options.hash_files = hexarena::server::assets::SiteAssets::load(&options).hashed_bundles;
    }
    let database_url = std::env::var("DATABASE_URL").ok().filter(|u| !u.trim().is_empty());
    let journal_place = hexarena::server::journal::JournalPlace::choose(
        std::env::var("HEXARENA_JOURNAL").ok().as_deref(),
        database_url.as_deref().unwrap_or(hexarena::server::database::DEFAULT_URL),
    );
    // A cluster is checked before anything is opened: its storage must be
    // one every instance reaches.
    let cluster_settings = match hexarena::server::cluster::Settings::from_env() {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("hexarena: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cluster = match &cluster_settings {
        None => None,
        Some(settings) => {
            let url = database_url.as_deref().unwrap_or(hexarena::server::database::DEFAULT_URL);
            if let Err(e) = settings.check_storage(url, &journal_place) {
                eprintln!("hexarena: {e}");
                return ExitCode::FAILURE;
            }
            match hexarena::server::cluster::Cluster::join(settings).await {
                Ok(cluster) => Some(cluster),
                Err(e) => {
                    eprintln!("hexarena: cannot join the cluster at {}: {e}", settings.url);
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let migrate = !matches!(std::env::var("HEXARENA_SKIP_MIGRATIONS").as_deref(), Ok("1" | "true" | "yes"));
    let database = match hexarena::server::database::open(database_url.as_deref(), migrate).await {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("hexarena: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Names from before accounts get their look-alike key; ratings from
    // before ratings per size class are recomputed from the archive.
    if let Err(e) = hexarena::server::accounts::backfill_skeletons(&database).await {
        eprintln!("hexarena: cannot prepare the player names: {e}");
        return ExitCode::FAILURE;
    }
    match hexarena::server::archive::ratings::rebuild_if_missing(&database).await {
        Ok(Some(done)) => println!("hexarena: rebuilt {} ratings from {} rated games", done.ratings, done.games),
        Ok(None) => {}
        Err(e) => {
            eprintln!("hexarena: cannot rebuild the ratings: {e}");
            return ExitCode::FAILURE;
        }
    }
    let hub_config = match hexarena::server::hub::config::HubConfig::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hexarena: {e}");
            return ExitCode::FAILURE;
        }
    };
    let addr = options.site_addr;
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("hexarena: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("hexarena listening on http://{addr}");
    let persistence = match hexarena::server::hub::Persistence::open(database, &journal_place).await {
        Ok(p) => p,
        Err(e) => {
            eprintln!("hexarena: cannot read the games in play: {e}");
            return ExitCode::FAILURE;
        }
    };
    let first_table = match persistence.archive.last_series_id().await {
        Ok(n) => n + 1,
        Err(e) => {
            eprintln!("hexarena: cannot read the archive: {e}");
            return ExitCode::FAILURE;
        }
    };
    if persistence.archived_at_start > 0 {
        println!(
            "hexarena: archived {} games that had finished just before the last stop",
            persistence.archived_at_start
        );
    }
    if !persistence.restored.is_empty() {
        println!("hexarena: reopening {} games that were in play", persistence.restored.len());
    }
    let header_read = hub_config.header_read;
    let hub = match cluster {
        None => hexarena::server::hub::Hub::start_with(hub_config, Some(persistence), first_table),
        Some(joined) => {
            let (instance, prefix) = (joined.instance(), joined.keys().prefix().to_string());
            match hexarena::server::hub::Hub::start_clustered(hub_config, persistence, first_table, joined).await {
                Ok(hub) => {
                    println!("hexarena: instance {instance} of the cluster '{prefix}'");
                    hub
                }
                Err(e) => {
                    eprintln!("hexarena: cannot start as an instance of the cluster: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let app = hexarena::server::router::router(options, hub.clone());
    // On SIGTERM: stop accepting, tell everyone the server is restarting
    // (which closes their sockets, so the server can finish), then let the
    // archive take every finished game. The journal keeps the games in play.
    let stopping = hub.clone();
    let signal = async move {
        shutdown_signal().await;
        tracing::info!("stopping: every game in play is kept and resumes at the next start");
        stopping.shut_down();
    };
    hexarena::server::listen::serve(listener, app, header_read, signal).await;
    if !hub.drained(std::time::Duration::from_secs(10)).await {
        tracing::warn!("stopped before every table had finished; the journal keeps what was left");
    }
    ExitCode::SUCCESS
}

/// Structured logs on stderr, one line per event: `key=value` text, or one
/// JSON object per line with `HEXARENA_LOG=json`.
#[cfg(feature = "ssr")]
fn start_logging() -> Result<(), String> {
    let logs = tracing_subscriber::fmt().with_max_level(tracing::Level::INFO).with_writer(std::io::stderr);
    match std::env::var("HEXARENA_LOG").as_deref().map(str::trim) {
        Err(_) | Ok("" | "text") => logs.init(),
        Ok("json") => logs.json().init(),
        Ok(other) => return Err(format!("HEXARENA_LOG must be text or json, not {other:?}")),
    }
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM, so in-flight requests can finish.
#[cfg(feature = "ssr")]
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[cfg(not(feature = "ssr"))]
fn main() {
    eprintln!("hexarena's server is built with the `ssr` feature: use `cargo leptos build`.");
}
