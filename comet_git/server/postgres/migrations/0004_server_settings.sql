-- What the server keeps about its own data: the digest of the tokenizer the records' search terms
-- were made by (matching.text.tokenizer_digest), so that a server of a newer comet, whose
-- vocabulary differs, derives them again once before it serves (PostgresBackend).
CREATE TABLE server_settings (
    key text PRIMARY KEY,
    value text NOT NULL
);
