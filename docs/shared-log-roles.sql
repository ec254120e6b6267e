-- The rights of the daemons' role on todod's shared log (docs/SCALE_OUT.md, "Roles").
-- Run as the role that owns the schema, in the log's database, after
-- `todod --postgres "dbname=todo user=todod_owner" --prepare-schema` made or migrated it.
-- The daemons then log in as `todod`: they read the log and append to it through
-- todod_append (which runs with its owner's rights), and can change nothing in it.
GRANT SELECT ON todod_meta, todod_head, todod_log, todod_snapshots TO todod;
-- Recording a refusal (a host found the log rewritten): every host then refuses changes.
GRANT INSERT ON todod_meta TO todod;
-- Saving snapshots and pruning old ones (a snapshot is a copy of what the log holds).
GRANT INSERT, DELETE ON todod_snapshots TO todod;
REVOKE EXECUTE ON FUNCTION todod_append(bigint, bytea, text[], text[], bigint[], bigint[], integer[], text[], bigint[], text[], bytea[], uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION todod_append(bigint, bytea, text[], text[], bigint[], bigint[], integer[], text[], bigint[], text[], bytea[], uuid[]) TO todod;
