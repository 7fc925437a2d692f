-- What a listing is filtered, paged and counted by (Query.memory_classes, authorities, conflicting,
-- offset/limit, tally): the record's class as a column of its own, and an index the counts of a
-- status page are read from.
ALTER TABLE records ADD COLUMN memory_class text NOT NULL DEFAULT '';
UPDATE records SET memory_class = coalesce((json::jsonb)->>'memoryClass', '');
CREATE INDEX records_tally ON records (owner, store, state, lifecycle, scope, memory_type, memory_class, authority);
