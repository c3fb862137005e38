//! The reference clients from PyPI (`hexgame` 0.4.3) play on hexarena
//! unchanged. scripts/test.sh installs them in target/hexgame-venv; without
//! them these tests say so loudly and skip.
#![cfg(feature = "ssr")]

mod common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use common::{hexgame_bin, start_server};
use tokio::process::Command;

async fn random_client(bin: &PathBuf, addr: std::net::SocketAddr, size: u8, series: u8, seed: u32) -> String {
    let child = Command::new(bin)
        .args(["random", "--server", &format!("ws://{addr}"), "--board-size", &size.to_string()])
        .args(["--series-length", &series.to_string(), "--seed", &seed.to_string(), "--move-delay", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start hexgame random");
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("hexgame random finishes within 60 s")
        .expect("hexgame random runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "hexgame random failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[tokio::test]
async fn two_hexgame_random_clients_finish_a_series() {
    let Some(bin) = hexgame_bin() else { return };
    let addr = start_server().await;
    let (a, b) = tokio::join!(random_client(&bin, addr, 7, 3, 1), async {
        // The second client arrives once the first is waiting in the pool.
        tokio::time::sleep(Duration::from_millis(300)).await;
        random_client(&bin, addr, 7, 3, 2).await
    });
    for out in [&a, &b] {
        assert!(out.contains("'type': 'joined'"), "{out}");
        assert!(out.contains("'type': 'game_start'"), "{out}");
        assert!(out.contains("'reason': 'connected_sides'"), "{out}");
        assert!(out.contains("'type': 'series_over'"), "{out}");
        assert!(!out.contains("move_rejected"), "a legal random client is never refused: {out}");
    }
    // Both saw the same series winner.
    let winner = |out: &str| out.lines().find(|l| l.contains("'series_over'")).map(|l| l.contains("'winner': -1"));
    assert_eq!(winner(&a), winner(&b));
}
