-- The private room a series was played in (NULL for matchmaking).
ALTER TABLE series ADD COLUMN room_code TEXT;
