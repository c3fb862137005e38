-- Players, games and their moves: the records that finished and running
-- games are kept in. Written to run unchanged on SQLite and PostgreSQL.

CREATE TABLE players (
    id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    -- Unique case-insensitively: the lower-cased name.
    name_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    model_name TEXT,
    rating DOUBLE PRECISION NOT NULL DEFAULT 1500,
    rating_deviation DOUBLE PRECISION NOT NULL DEFAULT 350,
    created_at_ms BIGINT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    board_size INTEGER NOT NULL CHECK (board_size BETWEEN 3 AND 19),
    swap_allowed BOOLEAN NOT NULL,
    red_player TEXT REFERENCES players (id),
    blue_player TEXT REFERENCES players (id),
    -- NULL while the game is running.
    winner TEXT CHECK (winner IN ('red', 'blue')),
    reason TEXT CHECK (reason IN ('connection', 'resign', 'timeout', 'forfeit')),
    started_at_ms BIGINT NOT NULL,
    finished_at_ms BIGINT
);

CREATE TABLE game_moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    -- Board notation (c3) or 'swap'.
    move TEXT NOT NULL,
    played_at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE INDEX games_by_finish ON games (finished_at_ms);
