-- comet-git's memory service on PostgreSQL: the first schema.
--
-- Every table that holds a user's data has `owner` (the user a token names) first in its key, and
-- every query of the service filters by it: one user's ids are unknown to another.
--
-- A record's Markdown file is kept as its text (`markdown`): export hands out exactly what Local
-- would have on disk, and the other columns are derived from it when it is written.

CREATE TABLE server_key (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    key bytea NOT NULL
);

CREATE TABLE tokens (
    id text PRIMARY KEY,
    owner text NOT NULL,
    digest text NOT NULL,
    created_at text NOT NULL
);

CREATE TABLE records (
    owner text NOT NULL,
    id text NOT NULL,
    -- The candidate search's key for a row (its "rowid"), unique over every user.
    rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    store text NOT NULL,             -- global | project:KEY
    state text NOT NULL,             -- live | forgotten
    scope text NOT NULL,
    memory_type text NOT NULL,
    authority text NOT NULL,
    lifecycle text NOT NULL,
    version integer NOT NULL,
    updated_at text NOT NULL,
    updated_jd double precision,     -- the Julian day of updated_at, as SQLite's julianday()
    sel_paths text NOT NULL,         -- the compiled path patterns (matching.paths.compile_patterns)
    sel_operations text NOT NULL,    -- ',edit,commit,'
    sel_phases text NOT NULL,
    tasks text NOT NULL,             -- the `tasks` keywords, one a line
    outcomes text NOT NULL,          -- 'used-successfully ignored corrected failed'
    text_length integer NOT NULL,
    manifest_length integer NOT NULL,
    title text NOT NULL,
    summary text NOT NULL,
    body text NOT NULL,
    -- The search terms, tokens of the project's own tokenizer (stems, concepts, Chinese bigrams),
    -- kept as they are: the same tokens the local index searches.
    terms text NOT NULL,
    -- The row's length as SQLite's FTS5 counts it for BM25: the unicode61 tokens of title, summary,
    -- text, tasks and terms together.
    fts_length integer NOT NULL,
    terms_vector tsvector NOT NULL,
    -- The words of `tasks` as SQLite's unicode61 tokenizer reads them (the keyword pre-filter).
    tasks_vector tsvector NOT NULL,
    conflicts_with text[] NOT NULL,
    json text NOT NULL,              -- the record as the contract returns it, with its state
    markdown text NOT NULL,          -- the file: records/ID.md, or tombstones/ID.md once forgotten
    PRIMARY KEY (owner, id)
);
CREATE INDEX records_listing ON records (owner, store, state, memory_type, updated_at DESC, id);
CREATE INDEX records_terms ON records USING gin (terms_vector);
CREATE INDEX records_tasks ON records USING gin (tasks_vector);
CREATE INDEX records_current ON records (owner, store, memory_type)
    WHERE state = 'live' AND lifecycle <> 'superseded';

-- The search's postings: each token of a record's terms with its frequency there, and the row's
-- length as FTS5 counts it, so that BM25 reads the few entries of the task's tokens (an index range
-- each) instead of the rows that hold them.
CREATE TABLE postings (
    owner text NOT NULL,
    token text NOT NULL,
    rowid bigint NOT NULL REFERENCES records (rowid) ON DELETE CASCADE,
    tf integer NOT NULL,
    length integer NOT NULL,
    PRIMARY KEY (owner, token, rowid)
);
CREATE INDEX postings_of_row ON postings (rowid);
-- How many records a user has and their total length (BM25's N and average length), read from
-- the index alone.
CREATE INDEX records_lengths ON records (owner) INCLUDE (fts_length);

-- The folders a record's path selectors are rooted at (matching.paths.path_anchors).
CREATE TABLE path_anchors (
    owner text NOT NULL,
    id text NOT NULL,
    anchor text NOT NULL,
    FOREIGN KEY (owner, id) REFERENCES records (owner, id) ON DELETE CASCADE
);
CREATE INDEX path_anchors_lookup ON path_anchors (owner, anchor);
CREATE INDEX path_anchors_record ON path_anchors (owner, id);

-- history/ID/*: the versions a correction replaced (vNNNN.md) and the log of what was done to
-- the record (actions.jsonl), each file as its text.
CREATE TABLE history_files (
    owner text NOT NULL,
    id text NOT NULL,
    store text NOT NULL,
    name text NOT NULL,
    text text NOT NULL,
    PRIMARY KEY (owner, id, name)
);

-- tombstones/ID.json (the content itself, tombstones/ID.md, is the forgotten row of records).
CREATE TABLE tombstones (
    owner text NOT NULL,
    id text NOT NULL,
    store text NOT NULL,
    content_hash text NOT NULL,
    permanent boolean NOT NULL,
    json text NOT NULL,
    PRIMARY KEY (owner, id)
);
CREATE INDEX tombstones_by_hash ON tombstones (owner, store, content_hash);
