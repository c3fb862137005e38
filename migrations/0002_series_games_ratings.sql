-- Series and games as the live-play hub records them, with every move's
-- time and clock, and Glicko-2 ratings with their history. Nothing wrote
-- the first games tables, so they are replaced rather than altered.
-- Written to run unchanged on SQLite and PostgreSQL.

DROP TABLE game_moves;
DROP TABLE games;

ALTER TABLE players ADD COLUMN volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06;

CREATE TABLE series (
    -- The table number people saw in /game/<id>.
    id BIGINT PRIMARY KEY,
    board_size INTEGER NOT NULL CHECK (board_size BETWEEN 3 AND 19),
    swap_allowed BOOLEAN NOT NULL,
    series_length INTEGER NOT NULL CHECK (series_length BETWEEN 1 AND 15),
    base_ms BIGINT,
    increment_ms BIGINT,
    red_player TEXT REFERENCES players (id),
    blue_player TEXT REFERENCES players (id),
    -- The labels shown at the table (hexgame's username and model name).
    red_username TEXT,
    red_model TEXT,
    blue_username TEXT,
    blue_model TEXT,
    red_wins INTEGER NOT NULL DEFAULT 0,
    blue_wins INTEGER NOT NULL DEFAULT 0,
    games_played INTEGER NOT NULL DEFAULT 0,
    -- NULL until the series is decided.
    winner TEXT CHECK (winner IN ('red', 'blue')),
    started_at_ms BIGINT NOT NULL,
    finished_at_ms BIGINT
);

CREATE TABLE games (
    -- "<series>-<number>", e.g. 12-1.
    id TEXT PRIMARY KEY,
    series_id BIGINT NOT NULL REFERENCES series (id),
    number INTEGER NOT NULL,
    board_size INTEGER NOT NULL CHECK (board_size BETWEEN 3 AND 19),
    swap_allowed BOOLEAN NOT NULL,
    first_player TEXT NOT NULL CHECK (first_player IN ('red', 'blue')),
    red_player TEXT REFERENCES players (id),
    blue_player TEXT REFERENCES players (id),
    winner TEXT NOT NULL CHECK (winner IN ('red', 'blue')),
    reason TEXT NOT NULL CHECK (reason IN ('connection', 'resign', 'timeout', 'forfeit')),
    rated BOOLEAN NOT NULL,
    started_at_ms BIGINT NOT NULL,
    finished_at_ms BIGINT NOT NULL
);

CREATE TABLE game_moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    -- Board notation (c3) or 'swap'.
    move TEXT NOT NULL,
    played_at_ms BIGINT NOT NULL,
    -- The mover's clock after the move (timed games).
    clock_ms BIGINT,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE rating_history (
    player_id TEXT NOT NULL REFERENCES players (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_id)
);

CREATE INDEX games_by_finish ON games (finished_at_ms);
CREATE INDEX games_by_red ON games (red_player);
CREATE INDEX games_by_blue ON games (blue_player);
CREATE INDEX series_by_finish ON series (finished_at_ms);
