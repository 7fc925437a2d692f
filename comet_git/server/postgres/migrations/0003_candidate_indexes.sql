-- The candidate search (candidates.py) read from indexes alone, as the local index reads it from
-- its covering indexes (index.py: records_core, records_rules, records_selected, records_used,
-- records_standing).  A records row is wide (its text, JSON and Markdown are kept inline), so
-- every row the search reads from the table costs a page of its own: each part of the search
-- walked the user's whole table (a few pages per hundred records), and each hit by rowid fetched
-- its row.  Each index below holds the columns the search asks for (candidates.COLUMNS) and, as a
-- partial index, only the rows of one part of it; its condition is repeated word for word in the
-- queries, as the planner needs to choose it.

CREATE INDEX records_core ON records (owner, store)
    INCLUDE (id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths, sel_operations,
             sel_phases, tasks, rowid, outcomes, text_length, manifest_length)
    WHERE memory_type = 'core-profile' AND state = 'live' AND lifecycle <> 'superseded';

-- The rules that fire on an operation or a phase alone.
CREATE INDEX records_rules ON records (owner, store)
    INCLUDE (id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths, sel_operations,
             sel_phases, tasks, rowid, outcomes, text_length, manifest_length)
    WHERE memory_type <> 'core-profile' AND sel_paths = '' AND tasks = ''
    AND (sel_operations <> '' OR sel_phases <> '') AND state = 'live' AND lifecycle <> 'superseded';

-- The rules with keywords or paths and an operation or phase selector (also what
-- common_selectors counts).
CREATE INDEX records_selected ON records (owner, store)
    INCLUDE (id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths, sel_operations,
             sel_phases, tasks, rowid, outcomes, text_length, manifest_length)
    WHERE memory_type <> 'core-profile' AND (tasks <> '' OR sel_paths <> '')
    AND (sel_operations <> '' OR sel_phases <> '') AND state = 'live' AND lifecycle <> 'superseded';

-- The project's proven rules with no path or keyword selector, which stand for the whole project.
CREATE INDEX records_standing ON records (owner, store)
    INCLUDE (id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths, sel_operations,
             sel_phases, tasks, rowid, outcomes, text_length, manifest_length)
    WHERE memory_type <> 'core-profile' AND sel_paths = '' AND tasks = '' AND state = 'live'
    AND lifecycle = 'proven' AND scope = 'project';

-- The rules with outcomes (at session start: the ones used successfully before).
CREATE INDEX records_used ON records (owner, store)
    INCLUDE (id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths, sel_operations,
             sel_phases, tasks, rowid, outcomes, text_length, manifest_length)
    WHERE outcomes <> '' AND state = 'live' AND lifecycle <> 'superseded';

-- The rows the text search, the keywords and the path anchors name, by rowid, with what they are
-- filtered by (owner, store, state).
CREATE INDEX records_candidates ON records (rowid)
    INCLUDE (owner, store, state, id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths,
             sel_operations, sel_phases, tasks, outcomes, text_length, manifest_length);

-- BM25 reads every posting of the task's tokens (thousands for a common one): with their term
-- frequency and the row's length in the key's index, from the index alone, not one table page each.
ALTER TABLE postings DROP CONSTRAINT postings_pkey,
    ADD CONSTRAINT postings_pkey PRIMARY KEY (owner, token, rowid) INCLUDE (tf, length);
