"""The memory service's PostgreSQL backend (`comet serve --database URL`): records, history,
tombstones and tokens of every user in one database, behind the same provider contract.

psycopg is imported only here and below, and only when --database is given."""
