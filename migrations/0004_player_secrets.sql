-- People pick a display name and get a player id and a secret; only the
-- secret's SHA-256 is kept. Bots (counted by model and username) have none.
ALTER TABLE players ADD COLUMN secret_hash TEXT;
