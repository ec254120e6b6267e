-- A shared log as the first release (schema 1) wrote it: ten actions by one daemon, snapshots at 5 and 10
-- (pg_dump --no-owner --no-privileges). The migration tests load it into an empty database.
--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: todod_append(bigint, bytea, json); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.todod_append(base bigint, base_hash bytea, batch json) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    n integer := json_array_length(batch);
    current bigint;
BEGIN
    IF n = 0 OR (batch -> 0 ->> 'v')::bigint <> base + 1 THEN
        RAISE EXCEPTION 'todod_append: the batch does not start at version %', base + 1;
    END IF;
    UPDATE todod_head SET version = base + n, hash = decode(batch -> (n - 1) ->> 'x', 'hex')
        WHERE version = base AND hash = base_hash;
    IF NOT FOUND THEN
        SELECT version INTO current FROM todod_head;
        RETURN -1 - current;
    END IF;
    INSERT INTO todod_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash)
    SELECT (e ->> 'v')::bigint,
           convert_from(decode(e ->> 'n', 'hex'), 'UTF8'),
           convert_from(decode(e ->> 'p', 'hex'), 'UTF8'),
           (e ->> 'a')::bigint,
           (e ->> 'u')::bigint,
           (e ->> 'i')::integer,
           convert_from(decode(e ->> 'c', 'hex'), 'UTF8'),
           (e ->> 's')::bigint,
           convert_from(decode(e ->> 'h', 'hex'), 'UTF8'),
           decode(e ->> 'x', 'hex')
    FROM json_array_elements(batch) AS e;
    PERFORM pg_notify('todod_log', (base + n)::text);
    RETURN base + n;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: todod_head; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.todod_head (
    only_row boolean DEFAULT true NOT NULL,
    version bigint NOT NULL,
    hash bytea NOT NULL,
    CONSTRAINT todod_head_only_row_check CHECK (only_row)
);


--
-- Name: todod_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.todod_log (
    version bigint NOT NULL,
    name text NOT NULL,
    payload text NOT NULL,
    accepted_at bigint NOT NULL,
    peer_uid bigint,
    peer_pid integer,
    client_id text,
    client_sequence bigint,
    host text,
    hash bytea NOT NULL,
    CONSTRAINT todod_log_check CHECK (((client_id IS NULL) = (client_sequence IS NULL)))
);


--
-- Name: todod_meta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.todod_meta (
    key text NOT NULL,
    value text NOT NULL
);


--
-- Name: todod_snapshots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.todod_snapshots (
    version bigint NOT NULL,
    hash bytea NOT NULL,
    state text NOT NULL,
    ledger text,
    saved_at bigint NOT NULL
);


--
-- Data for Name: todod_head; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.todod_head (only_row, version, hash) FROM stdin;
t	10	\\x8d99adbc0a6a9c7ea9c297c61a3fdf363bd4767c94a94cd7cc034f4bfbe446a1
\.


--
-- Data for Name: todod_log; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.todod_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash) FROM stdin;
1	add	{"change":270097195698475,"createdAt":1796161577247,"id":"4a9513c8-3e88-471b-8c70-f5a6e767892b","text":"written by schema 1, item 1"}	1796161577247	0	9891	fixture-writer	1	vm	\\xf6045e42b43e934a783f6ccf532ff226fc6d7e088143e58c9c9ed1f7e0f214f7
2	add	{"change":4292425187662322,"createdAt":1796161577253,"id":"ddd1eac1-58b3-4347-b83f-3ff01e8919f2","text":"written by schema 1, item 2"}	1796161577253	0	9891	fixture-writer	2	vm	\\x976602b5ec34569d08ace8628f393650c15bb1807c0c82b164c5e3dbff8acb09
3	add	{"change":1670670327139662,"createdAt":1796161577255,"id":"84f15003-382a-4c6e-8835-ef773f62cd4e","text":"written by schema 1, item 3"}	1796161577255	0	9891	fixture-writer	3	vm	\\x52c4b4d90b41fb4a280cba0306b0a0989f0b7364fe949a91e5a584e643463154
4	add	{"change":4476854639812811,"createdAt":1796161577257,"id":"fb8e5240-a3d0-4109-845f-e7acf28460cb","text":"written by schema 1, item 4"}	1796161577257	0	9891	fixture-writer	4	vm	\\xb8e86b770643be798e87ad93494fbf55ca581dd3f19400aaf7d35a2942103842
5	add	{"change":3233836263225102,"createdAt":1796161577259,"id":"f80041c1-dc55-4783-a80b-7d282dbb370e","text":"written by schema 1, item 5"}	1796161577259	0	9891	fixture-writer	5	vm	\\xc8e10aad1926d1c087b4786c9a1e6ac24038618fa6c1a8e3c8921b182397f1f1
6	add	{"change":228652140406168,"createdAt":1796161577263,"id":"b19fe0c4-e079-4f4c-b910-cff5399b2598","text":"written by schema 1, item 6"}	1796161577263	0	9891	fixture-writer	6	vm	\\x797147ce3ebf8985a020f64c39c6011e89d3d7fdd0fd31e82aa9ec343cd9095d
7	add	{"change":445195099073152,"createdAt":1796161577266,"id":"43b0fbda-15dc-4bea-8511-94e70fbc6a80","text":"written by schema 1, item 7"}	1796161577266	0	9891	fixture-writer	7	vm	\\xeac8093646d076aff41d77150d20d21dc5fcd231c933c20ed34adf341fe9b0f9
8	complete	{"change":1866602935987208,"completedAt":1796161577268,"number":2}	1796161577268	0	9891	fixture-writer	8	vm	\\x42366d029df576590ffc51e6418024bb3538342eec1232d4b28cc699f4c4b14b
9	edit	{"change":3493209932349626,"number":3,"text":"edited \\"quoted\\" \\\\ backslash é"}	1796161577270	0	9891	\N	\N	vm	\\x3329c280de7d6acf5582602cd68c2d350ac6d5642eb312f8bfad9381bb24d50d
10	remove	{"change":2104645548891054,"number":1}	1796161577272	0	9891	\N	\N	vm	\\x8d99adbc0a6a9c7ea9c297c61a3fdf363bd4767c94a94cd7cc034f4bfbe446a1
\.


--
-- Data for Name: todod_meta; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.todod_meta (key, value) FROM stdin;
schema_version	1
\.


--
-- Data for Name: todod_snapshots; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.todod_snapshots (version, hash, state, ledger, saved_at) FROM stdin;
5	\\xc8e10aad1926d1c087b4786c9a1e6ac24038618fa6c1a8e3c8921b182397f1f1	{"items":[{"completed":false,"createdAt":1796161577247,"id":"4a9513c8-3e88-471b-8c70-f5a6e767892b","number":1,"text":"written by schema 1, item 1"},{"completed":false,"createdAt":1796161577253,"id":"ddd1eac1-58b3-4347-b83f-3ff01e8919f2","number":2,"text":"written by schema 1, item 2"},{"completed":false,"createdAt":1796161577255,"id":"84f15003-382a-4c6e-8835-ef773f62cd4e","number":3,"text":"written by schema 1, item 3"},{"completed":false,"createdAt":1796161577257,"id":"fb8e5240-a3d0-4109-845f-e7acf28460cb","number":4,"text":"written by schema 1, item 4"},{"completed":false,"createdAt":1796161577259,"id":"f80041c1-dc55-4783-a80b-7d282dbb370e","number":5,"text":"written by schema 1, item 5"}],"nextNumber":6,"undoStack":[{"change":270097195698475,"changes":[{"remove":{"number":1}}],"summary":"add \\"written by schema 1, item 1\\""},{"change":4292425187662322,"changes":[{"remove":{"number":2}}],"summary":"add \\"written by schema 1, item 2\\""},{"change":1670670327139662,"changes":[{"remove":{"number":3}}],"summary":"add \\"written by schema 1, item 3\\""},{"change":4476854639812811,"changes":[{"remove":{"number":4}}],"summary":"add \\"written by schema 1, item 4\\""},{"change":3233836263225102,"changes":[{"remove":{"number":5}}],"summary":"add \\"written by schema 1, item 5\\""}]}	{"clients":[{"floor":0,"id":"fixture-writer","recent":[1,1,2,2,3,3,4,4,5,5]}]}	1796161577000
10	\\x8d99adbc0a6a9c7ea9c297c61a3fdf363bd4767c94a94cd7cc034f4bfbe446a1	{"items":[{"completed":true,"completedAt":1796161577268,"createdAt":1796161577253,"id":"ddd1eac1-58b3-4347-b83f-3ff01e8919f2","number":2,"text":"written by schema 1, item 2"},{"completed":false,"createdAt":1796161577255,"id":"84f15003-382a-4c6e-8835-ef773f62cd4e","number":3,"text":"edited \\"quoted\\" \\\\ backslash é"},{"completed":false,"createdAt":1796161577257,"id":"fb8e5240-a3d0-4109-845f-e7acf28460cb","number":4,"text":"written by schema 1, item 4"},{"completed":false,"createdAt":1796161577259,"id":"f80041c1-dc55-4783-a80b-7d282dbb370e","number":5,"text":"written by schema 1, item 5"},{"completed":false,"createdAt":1796161577263,"id":"b19fe0c4-e079-4f4c-b910-cff5399b2598","number":6,"text":"written by schema 1, item 6"},{"completed":false,"createdAt":1796161577266,"id":"43b0fbda-15dc-4bea-8511-94e70fbc6a80","number":7,"text":"written by schema 1, item 7"}],"nextNumber":8,"undoStack":[{"change":270097195698475,"changes":[{"remove":{"number":1}}],"summary":"add \\"written by schema 1, item 1\\""},{"change":4292425187662322,"changes":[{"remove":{"number":2}}],"summary":"add \\"written by schema 1, item 2\\""},{"change":1670670327139662,"changes":[{"remove":{"number":3}}],"summary":"add \\"written by schema 1, item 3\\""},{"change":4476854639812811,"changes":[{"remove":{"number":4}}],"summary":"add \\"written by schema 1, item 4\\""},{"change":3233836263225102,"changes":[{"remove":{"number":5}}],"summary":"add \\"written by schema 1, item 5\\""},{"change":228652140406168,"changes":[{"remove":{"number":6}}],"summary":"add \\"written by schema 1, item 6\\""},{"change":445195099073152,"changes":[{"remove":{"number":7}}],"summary":"add \\"written by schema 1, item 7\\""},{"change":1866602935987208,"changes":[{"replace":{"item":{"completed":false,"createdAt":1796161577253,"id":"ddd1eac1-58b3-4347-b83f-3ff01e8919f2","number":2,"text":"written by schema 1, item 2"}}}],"summary":"complete \\"written by schema 1, item 2\\""},{"change":3493209932349626,"changes":[{"replace":{"item":{"completed":false,"createdAt":1796161577255,"id":"84f15003-382a-4c6e-8835-ef773f62cd4e","number":3,"text":"written by schema 1, item 3"}}}],"summary":"edit \\"written by schema 1, item 3\\""},{"change":2104645548891054,"changes":[{"restore":{"index":0,"item":{"completed":false,"createdAt":1796161577247,"id":"4a9513c8-3e88-471b-8c70-f5a6e767892b","number":1,"text":"written by schema 1, item 1"}}}],"summary":"remove \\"written by schema 1, item 1\\""}]}	{"clients":[{"floor":0,"id":"fixture-writer","recent":[1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8]}]}	1796161577000
\.


--
-- Name: todod_head todod_head_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.todod_head
    ADD CONSTRAINT todod_head_pkey PRIMARY KEY (only_row);


--
-- Name: todod_log todod_log_client_id_client_sequence_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.todod_log
    ADD CONSTRAINT todod_log_client_id_client_sequence_key UNIQUE (client_id, client_sequence);


--
-- Name: todod_log todod_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.todod_log
    ADD CONSTRAINT todod_log_pkey PRIMARY KEY (version);


--
-- Name: todod_meta todod_meta_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.todod_meta
    ADD CONSTRAINT todod_meta_pkey PRIMARY KEY (key);


--
-- Name: todod_snapshots todod_snapshots_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.todod_snapshots
    ADD CONSTRAINT todod_snapshots_pkey PRIMARY KEY (version);


--
-- PostgreSQL database dump complete
--


