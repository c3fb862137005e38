use super::*;
use crate::online::TimeControl;

fn options(size: u8, series: u8) -> TableOptions {
    TableOptions { size, series_length: series, swap: false, time_control: None }
}

fn seated(options: TableOptions) -> Table {
    let mut t = Table::new(7, options, None, 30_000);
    t.join(Arrival { name: Some("ann".into()), ..Arrival::default() }, "tok-red".into(), 0).unwrap();
    t.join(Arrival { model: Some("bot".into()), ..Arrival::default() }, "tok-blue".into(), 0).unwrap();
    t
}

fn messages(out: &[Out]) -> Vec<String> {
    out.iter()
        .filter_map(|o| match o {
            Out::Send(_, m) => Some(m.to_json()),
            _ => None,
        })
        .collect()
}

fn rejection(out: &[Out]) -> Option<String> {
    out.iter().find_map(|o| match o {
        Out::Send(_, ServerMessage::MoveRejected { reason, .. }) => Some(reason.clone()),
        _ => None,
    })
}

/// Whether every journal entry in `out` comes before every message: the
/// task carries effects out in order, and nobody may hear of what a crash
/// could lose.
fn journal_first(out: &[Out]) -> bool {
    let first_send = out.iter().position(|o| matches!(o, Out::Send(..))).unwrap_or(out.len());
    out[first_send..].iter().all(|o| !matches!(o, Out::Journal(_)))
}

/// Red wins along row 0 of a 3×3 board while Blue plays row 1.
fn red_wins_game(t: &mut Table, now: Millis) -> Vec<Out> {
    let mut all = Vec::new();
    let red_row = if t.turn() == Some(PlayerId::Red) { 0 } else { 1 };
    for q in 0..3 {
        if t.turn() == Some(PlayerId::Blue) {
            all.extend(t.play(PlayerId::Blue, q, 2, now));
        }
        all.extend(t.play(PlayerId::Red, q, red_row, now));
    }
    all
}

#[test]
fn two_players_fill_the_table_and_the_game_starts() {
    let mut t = Table::new(1, options(7, 1), None, 30_000);
    let (id, out) = t.join(Arrival::default(), "a".into(), 0).unwrap();
    assert_eq!(id, PlayerId::Red);
    let texts = messages(&out);
    assert!(texts[0].starts_with(r#"{"type":"joined","payload":{"slot_id":1,"player":-1,"color":"red""#));
    assert!(texts[0].contains(r#""reconnect_token":"a""#));
    assert!(texts[1].starts_with(r#"{"type":"waiting_for_opponent""#));
    assert_eq!(t.phase(), Phase::Waiting);
    let (id, out) = t.join(Arrival::default(), "b".into(), 0).unwrap();
    assert_eq!(id, PlayerId::Blue);
    // The journal's header (the new seat's token) comes first.
    assert!(matches!(&out[0], Out::Journal(Entry::Header(_))));
    assert!(matches!(&out[2], Out::Send(To::Everyone, ServerMessage::GameStart(g)) if g.first_turn == PlayerId::Red));
    assert_eq!(t.phase(), Phase::Playing);
    assert_eq!(t.join(Arrival::default(), "c".into(), 0).unwrap_err(), SeatError::Full);
}

#[test]
fn bad_moves_are_rejected_with_hexgames_reasons_and_change_nothing() {
    let mut t = Table::new(1, options(7, 1), None, 30_000);
    t.join(Arrival::default(), "a".into(), 0).unwrap();
    assert_eq!(rejection(&t.play(PlayerId::Red, 0, 0, 0)).as_deref(), Some("Game has not started"));
    t.join(Arrival::default(), "b".into(), 0).unwrap();
    assert_eq!(rejection(&t.play(PlayerId::Blue, 0, 0, 0)).as_deref(), Some("Not your turn"));
    assert_eq!(rejection(&t.play(PlayerId::Red, 7, 0, 0)).as_deref(), Some("Move outside board"));
    assert_eq!(rejection(&t.play(PlayerId::Red, -1, 0, 0)).as_deref(), Some("Move outside board"));
    assert_eq!(rejection(&t.play(PlayerId::Red, 0, i64::MAX, 0)).as_deref(), Some("Move outside board"));
    assert_eq!(rejection(&t.play(PlayerId::Red, 3, 3, 0)), None);
    assert_eq!(rejection(&t.play(PlayerId::Blue, 3, 3, 0)).as_deref(), Some("Cell already occupied"));
    assert_eq!(rejection(&t.swap(PlayerId::Blue, 0)).as_deref(), Some("This game is played without the swap rule"));
    assert_eq!(t.game().unwrap().moves().len(), 1);
    assert_eq!(t.turn(), Some(PlayerId::Blue));
}

#[test]
fn a_won_game_ends_the_series_of_one() {
    let mut t = seated(options(3, 1));
    let out = red_wins_game(&mut t, 0);
    let texts = messages(&out);
    assert!(texts.iter().any(|m| m.contains(r#""next_turn":null"#)));
    assert!(texts.iter().any(|m| m == r#"{"type":"game_over","payload":{"winner":-1,"reason":"connected_sides"}}"#));
    assert!(texts.iter().any(|m| m.starts_with(r#"{"type":"series_over","payload":{"winner":-1,"player_1_wins":1"#)));
    assert_eq!(t.phase(), Phase::Over);
    assert_eq!(rejection(&t.play(PlayerId::Blue, 2, 2, 0)).as_deref(), Some("Game already finished"));
    assert_eq!(t.finished().len(), 1);
}

#[test]
fn a_series_alternates_the_first_player_and_stops_at_the_wins_required() {
    let mut t = seated(options(3, 3));
    let out = red_wins_game(&mut t, 0);
    let start = out.iter().find_map(|o| match o {
        Out::Send(_, ServerMessage::GameStart(g)) => Some(g.clone()),
        _ => None,
    });
    let start = start.expect("game 2 starts");
    assert_eq!((start.current_game_number, start.first_turn, start.player_1_wins), (2, PlayerId::Blue, 1));
    assert_eq!(t.turn(), Some(PlayerId::Blue));
    assert_eq!(t.game().unwrap().moves().len(), 0);
    let out = red_wins_game(&mut t, 0);
    assert!(messages(&out).iter().any(|m| m.contains(r#""type":"series_over""#)));
    assert_eq!(t.phase(), Phase::Over);
    assert_eq!(t.view(0).score, [2, 0]);
    assert_eq!(t.finished()[1].first, PlayerId::Blue);
}

#[test]
fn resigning_gives_the_game_to_the_opponent() {
    let mut t = seated(options(7, 1));
    let out = t.resign(PlayerId::Red, 0);
    assert!(
        messages(&out).iter().any(|m| m == r#"{"type":"game_over","payload":{"winner":1,"reason":"resignation"}}"#)
    );
    assert_eq!(t.phase(), Phase::Over);
}

#[test]
fn a_dropped_player_pauses_the_game_and_may_come_back() {
    let mut t = seated(options(7, 1));
    t.play(PlayerId::Red, 1, 1, 0);
    let out = t.disconnect(PlayerId::Blue, 1000);
    assert!(messages(&out)[0].contains(r#""reason":"waiting_for_reconnect","reconnect_timeout_seconds":30"#));
    assert_eq!(t.phase(), Phase::Paused);
    assert_eq!(rejection(&t.play(PlayerId::Red, 2, 2, 1000)).as_deref(), Some("Game paused for reconnect"));
    assert_eq!(t.reconnect("nope", 2000).unwrap_err(), SeatError::BadToken);
    let (id, out) = t.reconnect("tok-blue", 2000).unwrap();
    assert_eq!(id, PlayerId::Blue);
    let texts = messages(&out);
    assert!(texts[0].starts_with(r#"{"type":"reconnected","payload":{"slot_id":7,"player":1"#));
    assert!(!texts[0].contains("tok-"), "a snapshot never holds tokens");
    assert_eq!(texts[1], r#"{"type":"opponent_reconnected","payload":{"player":1}}"#);
    assert_eq!(t.phase(), Phase::Playing);
    assert!(
        t.play(PlayerId::Blue, 2, 2, 2000)
            .iter()
            .all(|o| !matches!(o, Out::Send(_, ServerMessage::MoveRejected { .. })))
    );
}

#[test]
fn after_the_window_the_absent_player_forfeits() {
    let mut t = seated(options(7, 3));
    t.disconnect(PlayerId::Red, 5000);
    assert_eq!(t.next_deadline(5000), Some(35_000));
    assert!(t.tick(34_999).is_empty());
    let texts = messages(&t.tick(35_000));
    assert!(texts[0].contains(r#""reason":"reconnect_timeout""#));
    assert!(texts.iter().any(|m| m == r#"{"type":"game_over","payload":{"winner":1,"reason":"forfeit"}}"#));
    assert!(texts.iter().any(|m| m.contains(r#""type":"series_over","payload":{"winner":1"#)));
    assert_eq!(t.phase(), Phase::Abandoned);
    assert_eq!(t.reconnect("tok-red", 36_000).map(|(id, _)| id), Ok(PlayerId::Red), "may still see the result");
}

#[test]
fn clocks_run_for_the_side_to_move_with_increment_and_flag() {
    let tc = TimeControl { base_ms: 10_000, increment_ms: 2_000 };
    let mut t = seated(TableOptions { size: 7, series_length: 1, swap: true, time_control: Some(tc) });
    t.play(PlayerId::Red, 3, 3, 4_000);
    assert_eq!(t.clock_left(PlayerId::Red, 4_000), Some(8_000), "10 − 4 + 2");
    assert_eq!(t.clock_left(PlayerId::Blue, 5_000), Some(9_000));
    // Blue drops at 5 s: the clock stops while they are away.
    t.disconnect(PlayerId::Blue, 5_000);
    assert_eq!(t.clock_left(PlayerId::Blue, 20_000), Some(9_000));
    t.reconnect("tok-blue", 20_000).unwrap();
    assert_eq!(t.clock_left(PlayerId::Blue, 21_000), Some(8_000));
    assert_eq!(t.next_deadline(21_000), Some(29_000));
    assert!(t.tick(28_999).is_empty());
    let texts = messages(&t.tick(29_000));
    assert!(texts.iter().any(|m| m == r#"{"type":"game_over","payload":{"winner":-1,"reason":"timeout"}}"#));
    assert_eq!(t.phase(), Phase::Over);
    assert_eq!(t.view(29_000).reason, Some(GameEnd::Timeout));
}

#[test]
fn swap_takes_over_the_first_stone_mirrored() {
    let mut t = seated(TableOptions { size: 9, series_length: 1, swap: true, time_control: None });
    t.play(PlayerId::Red, 2, 6, 0);
    let out = t.swap(PlayerId::Blue, 0);
    assert!(messages(&out)[0].contains(r#""player":1,"q":6,"r":2,"next_turn":-1"#));
    assert_eq!(t.view(0).moves, vec![Move::Place(Cell::new(2, 6)), Move::Swap]);
    assert_eq!(
        rejection(&t.swap(PlayerId::Red, 0)).as_deref(),
        Some("Swap is only allowed as the second move, right after Red's first stone")
    );
}

#[test]
fn keep_slot_resets_the_table_for_a_new_opponent() {
    let mut t = seated(options(3, 1));
    assert!(messages(&t.keep_slot(PlayerId::Red, "new".into()))[0].contains("Series is not over"));
    red_wins_game(&mut t, 0);
    let out = t.keep_slot(PlayerId::Blue, "kept".into());
    assert!(out.contains(&Out::Close(PlayerId::Red)));
    assert!(out.contains(&Out::Relist));
    assert_eq!(t.phase(), Phase::Waiting);
    assert_eq!(t.seat_of_token("kept"), Some(PlayerId::Red));
    assert_eq!(t.seat(PlayerId::Red).unwrap().model.as_deref(), Some("bot"));
    assert!(t.is_open());
}

#[test]
fn snapshots_have_hexgames_fields_and_no_secrets() {
    let mut t = seated(options(7, 3));
    t.play(PlayerId::Red, 1, 2, 0);
    let json = serde_json::to_value(t.snapshot()).unwrap();
    for key in [
        "slot_id",
        "state",
        "board_size",
        "series_length",
        "player_count",
        "connected_player_count",
        "players",
        "player_models",
        "player_usernames",
        "connected_players",
        "disconnected_players",
        "current_turn",
        "winner",
        "move_count",
        "board",
        "wins_required",
        "current_game_number",
        "player_1_wins",
        "player_2_wins",
        "series_winner",
    ] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
    assert_eq!(json["board"][2][1], -1);
    assert_eq!(json["player_models"]["1"], "bot");
    assert_eq!(json["player_usernames"]["-1"], "ann");
    assert!(!json.to_string().contains("tok-"));
    assert!(!serde_json::to_string(&t.view(0)).unwrap().contains("tok-"));
}

#[test]
fn an_abandoned_waiting_seat_is_freed_after_the_window() {
    let mut t = Table::new(1, options(7, 1), Some("ABCD".into()), 30_000);
    t.join(Arrival::default(), "a".into(), 0).unwrap();
    t.disconnect(PlayerId::Red, 0);
    assert!(!t.is_open());
    t.tick(30_000);
    assert!(t.is_deserted());
}

#[test]
fn a_waiting_owner_who_comes_back_is_listed_again() {
    let mut t = Table::new(1, options(7, 1), None, 30_000);
    t.join(Arrival::default(), "a".into(), 0).unwrap();
    t.disconnect(PlayerId::Red, 0);
    assert!(!t.is_open());
    let (_, out) = t.reconnect("a", 1000).unwrap();
    assert!(out.contains(&Out::Relist));
    assert!(t.is_open());
}

#[test]
fn a_finished_table_has_no_deadline_and_every_deadline_is_acted_on() {
    let mut t = seated(TableOptions {
        size: 3,
        series_length: 1,
        swap: false,
        time_control: Some(TimeControl { base_ms: 60_000, increment_ms: 0 }),
    });
    red_wins_game(&mut t, 0);
    t.disconnect(PlayerId::Red, 1000);
    t.disconnect(PlayerId::Blue, 1000);
    assert_eq!(t.next_deadline(100_000), None, "nothing left to wait for");
    // Property: whenever a deadline has passed, a tick changes something.
    let mut t = seated(options(7, 3));
    t.disconnect(PlayerId::Blue, 0);
    let due = t.next_deadline(0).unwrap();
    assert!(!t.tick(due).is_empty());
    assert_eq!(t.next_deadline(due), None);
}

#[test]
fn every_change_is_journaled_before_anyone_hears_of_it() {
    let mut outs: Vec<Vec<Out>> = Vec::new();
    let mut t = Table::new(3, options(3, 3), None, 30_000);
    outs.push(t.join(Arrival::default(), "a".into(), 0).unwrap().1);
    outs.push(t.join(Arrival::default(), "b".into(), 0).unwrap().1);
    // A move, a won game that starts the next, a resignation.
    outs.push(t.play(PlayerId::Red, 1, 1, 10));
    let mut t = seated(options(3, 3));
    for q in 0..3 {
        outs.push(t.play(PlayerId::Red, q, 0, 10));
        if t.turn() == Some(PlayerId::Blue) {
            outs.push(t.play(PlayerId::Blue, q, 2, 10));
        }
    }
    outs.push(t.resign(PlayerId::Blue, 20));
    outs.push(t.keep_slot(PlayerId::Blue, "kept".into()));
    // A forfeit after the reconnect window.
    let mut t = seated(options(3, 3));
    outs.push(t.disconnect(PlayerId::Red, 30));
    outs.push(t.tick(30 + 30_000));
    // A flag fall.
    let tc = TimeControl { base_ms: 1_000, increment_ms: 0 };
    let mut t = seated(TableOptions { size: 5, series_length: 1, swap: false, time_control: Some(tc) });
    outs.push(t.tick(1_000));
    assert!(outs.iter().all(|o| journal_first(o)), "{outs:#?}");
    let journaled = outs.iter().filter(|o| o.iter().any(|e| matches!(e, Out::Journal(_)))).count();
    assert!(journaled >= 11, "joins, moves, game ends and keep_slot all write the journal: {journaled}");
}
