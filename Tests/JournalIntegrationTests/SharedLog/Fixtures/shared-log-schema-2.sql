-- A shared log as the release before schema 3 (commit 79f98d9, schema 2) wrote it: ten actions by one daemon,
-- snapshots at 5 and 10 (pg_dump --no-owner --no-privileges). The migration tests load it into an empty database.
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

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
-- Name: todod_append(bigint, bytea, text[], text[], bigint[], bigint[], integer[], text[], bigint[], text[], bytea[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.todod_append(base bigint, base_hash bytea, names text[], payloads text[], accepted bigint[], uids bigint[], pids integer[], client_ids text[], sequences bigint[], hosts text[], hashes bytea[]) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    n integer := cardinality(names);
    current bigint;
    refusal text;
BEGIN
    SELECT value INTO refusal FROM todod_meta WHERE key = 'refusal';
    IF FOUND THEN
        RAISE EXCEPTION 'every host refuses changes: %', refusal USING ERRCODE = 'TD001';
    END IF;
    IF n IS NULL OR n = 0 THEN
        RAISE EXCEPTION 'todod_append: an empty batch';
    END IF;
    UPDATE todod_head SET version = base + n, hash = hashes[n] WHERE version = base AND hash = base_hash;
    IF NOT FOUND THEN
        SELECT version INTO current FROM todod_head;
        RETURN -1 - current;
    END IF;
    INSERT INTO todod_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash)
    SELECT base + e.o, e.n, e.p, e.a, e.u, e.i, e.c, e.s, e.h, e.x
    FROM unnest(names, payloads, accepted, uids, pids, client_ids, sequences, hosts, hashes)
        WITH ORDINALITY AS e(n, p, a, u, i, c, s, h, x, o);
    RETURN base + n;
END $$;


--
-- Name: todod_refuse_insert_beyond_head(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.todod_refuse_insert_beyond_head() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF (SELECT max(version) FROM inserted) > (SELECT version FROM todod_head) THEN
        RAISE EXCEPTION 'todod_log takes rows only through todod_append' USING ERRCODE = 'TD002';
    END IF;
    RETURN NULL;
END $$;


--
-- Name: todod_refuse_rewrite(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.todod_refuse_rewrite() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    RAISE EXCEPTION 'todod_log is append-only: % refused', TG_OP USING ERRCODE = 'TD002';
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
t	10	\\x69004809c9a5f1ea05a44536abc78b32c891342e0a7b9c7f2cd966d0fda37ecd
\.


--
-- Data for Name: todod_log; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.todod_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash) FROM stdin;
1	add	{"change":2134901671721502,"createdAt":1796297939010,"id":"b0a2fa6b-7c32-45ea-a127-95ae87c5fa1e","text":"written by schema 2, item 1"}	1796297939010	0	16718	fixture-writer	1	vm	\\x99bb8844bb83dea6bea13dfa22b4ef1b0b2981c184239fa6342bd30056c54d85
2	add	{"change":2273217021454254,"createdAt":1796297939015,"id":"25c43f6d-d375-475e-ab88-137a950fa7ae","text":"written by schema 2, item 2"}	1796297939015	0	16718	fixture-writer	2	vm	\\x97a52459851622b0bd2c6861002f2ed89a9325b2fc0536dee56f733fbc6c5e58
3	add	{"change":3525770084144447,"createdAt":1796297939016,"id":"711d075b-c8ad-4656-899c-86ab516cd53f","text":"written by schema 2, item 3"}	1796297939016	0	16718	fixture-writer	3	vm	\\xea8854fe9caad8be962aff3cf2fec1fe00851a0909a28f691650ccb0e850975a
4	add	{"change":4453091526738385,"createdAt":1796297939017,"id":"3610f4a9-7a64-415b-b46f-d2102a9a81d1","text":"written by schema 2, item 4"}	1796297939017	0	16718	fixture-writer	4	vm	\\x652910dd3f34ec6bb4fafa63ac53369f74d43027cb49b4c1769b5f4fa6e6cb2b
5	add	{"change":911754368732155,"createdAt":1796297939018,"id":"730ed3c0-20ae-4bfd-ab23-3d3c5b454bfb","text":"written by schema 2, item 5"}	1796297939018	0	16718	fixture-writer	5	vm	\\xf7cbdd6f5dd688adc4cbe402a3ee0168229b01262d3b98a2168a2a441d7e9174
6	add	{"change":202850604201233,"createdAt":1796297939020,"id":"3d305431-6897-450c-ad70-b87dd634b511","text":"written by schema 2, item 6"}	1796297939020	0	16718	fixture-writer	6	vm	\\xcedcee4196912e1a0ef782e5ea904a531e7d753aa93b214527c8f1ee58b3ef14
7	add	{"change":1032780155680434,"createdAt":1796297939022,"id":"3c0756a1-3b47-403a-8933-ab4ede4f76b2","text":"written by schema 2, item 7"}	1796297939022	0	16718	fixture-writer	7	vm	\\x87b9c532b4873c53614a16a24aa3cf6bdcbab138950d90173f91bb2fb65c62cf
8	complete	{"change":1567115911384754,"completedAt":1796297939023,"number":2}	1796297939023	0	16718	fixture-writer	8	vm	\\x5b30e8a2761a11ed8e8c02a575eac10d04242290e474bd875d6de8671674d524
9	edit	{"change":872914909853756,"number":3,"text":"edited \\"quoted\\" \\\\ backslash é"}	1796297939025	0	16718	\N	\N	vm	\\x227d8232769e78e53e46f09206b4299d169d87be402a7960345904ef362e3ca3
10	remove	{"change":649974381206063,"number":1}	1796297939027	0	16718	\N	\N	vm	\\x69004809c9a5f1ea05a44536abc78b32c891342e0a7b9c7f2cd966d0fda37ecd
\.


--
-- Data for Name: todod_meta; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.todod_meta (key, value) FROM stdin;
schema_version	2
\.


--
-- Data for Name: todod_snapshots; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.todod_snapshots (version, hash, state, ledger, saved_at) FROM stdin;
5	\\xf7cbdd6f5dd688adc4cbe402a3ee0168229b01262d3b98a2168a2a441d7e9174	{"items":[{"completed":false,"createdAt":1796297939010,"id":"b0a2fa6b-7c32-45ea-a127-95ae87c5fa1e","number":1,"text":"written by schema 2, item 1"},{"completed":false,"createdAt":1796297939015,"id":"25c43f6d-d375-475e-ab88-137a950fa7ae","number":2,"text":"written by schema 2, item 2"},{"completed":false,"createdAt":1796297939016,"id":"711d075b-c8ad-4656-899c-86ab516cd53f","number":3,"text":"written by schema 2, item 3"},{"completed":false,"createdAt":1796297939017,"id":"3610f4a9-7a64-415b-b46f-d2102a9a81d1","number":4,"text":"written by schema 2, item 4"},{"completed":false,"createdAt":1796297939018,"id":"730ed3c0-20ae-4bfd-ab23-3d3c5b454bfb","number":5,"text":"written by schema 2, item 5"}],"nextNumber":6,"undoStack":[{"change":2134901671721502,"changes":[{"remove":{"number":1}}],"summary":"add \\"written by schema 2, item 1\\""},{"change":2273217021454254,"changes":[{"remove":{"number":2}}],"summary":"add \\"written by schema 2, item 2\\""},{"change":3525770084144447,"changes":[{"remove":{"number":3}}],"summary":"add \\"written by schema 2, item 3\\""},{"change":4453091526738385,"changes":[{"remove":{"number":4}}],"summary":"add \\"written by schema 2, item 4\\""},{"change":911754368732155,"changes":[{"remove":{"number":5}}],"summary":"add \\"written by schema 2, item 5\\""}]}	{"clients":[{"floor":0,"id":"fixture-writer","recent":[1,1,2,2,3,3,4,4,5,5]}]}	1796297939000
10	\\x69004809c9a5f1ea05a44536abc78b32c891342e0a7b9c7f2cd966d0fda37ecd	{"items":[{"completed":true,"completedAt":1796297939023,"createdAt":1796297939015,"id":"25c43f6d-d375-475e-ab88-137a950fa7ae","number":2,"text":"written by schema 2, item 2"},{"completed":false,"createdAt":1796297939016,"id":"711d075b-c8ad-4656-899c-86ab516cd53f","number":3,"text":"edited \\"quoted\\" \\\\ backslash é"},{"completed":false,"createdAt":1796297939017,"id":"3610f4a9-7a64-415b-b46f-d2102a9a81d1","number":4,"text":"written by schema 2, item 4"},{"completed":false,"createdAt":1796297939018,"id":"730ed3c0-20ae-4bfd-ab23-3d3c5b454bfb","number":5,"text":"written by schema 2, item 5"},{"completed":false,"createdAt":1796297939020,"id":"3d305431-6897-450c-ad70-b87dd634b511","number":6,"text":"written by schema 2, item 6"},{"completed":false,"createdAt":1796297939022,"id":"3c0756a1-3b47-403a-8933-ab4ede4f76b2","number":7,"text":"written by schema 2, item 7"}],"nextNumber":8,"undoStack":[{"change":2134901671721502,"changes":[{"remove":{"number":1}}],"summary":"add \\"written by schema 2, item 1\\""},{"change":2273217021454254,"changes":[{"remove":{"number":2}}],"summary":"add \\"written by schema 2, item 2\\""},{"change":3525770084144447,"changes":[{"remove":{"number":3}}],"summary":"add \\"written by schema 2, item 3\\""},{"change":4453091526738385,"changes":[{"remove":{"number":4}}],"summary":"add \\"written by schema 2, item 4\\""},{"change":911754368732155,"changes":[{"remove":{"number":5}}],"summary":"add \\"written by schema 2, item 5\\""},{"change":202850604201233,"changes":[{"remove":{"number":6}}],"summary":"add \\"written by schema 2, item 6\\""},{"change":1032780155680434,"changes":[{"remove":{"number":7}}],"summary":"add \\"written by schema 2, item 7\\""},{"change":1567115911384754,"changes":[{"replace":{"item":{"completed":false,"createdAt":1796297939015,"id":"25c43f6d-d375-475e-ab88-137a950fa7ae","number":2,"text":"written by schema 2, item 2"}}}],"summary":"complete \\"written by schema 2, item 2\\""},{"change":872914909853756,"changes":[{"replace":{"item":{"completed":false,"createdAt":1796297939016,"id":"711d075b-c8ad-4656-899c-86ab516cd53f","number":3,"text":"written by schema 2, item 3"}}}],"summary":"edit \\"written by schema 2, item 3\\""},{"change":649974381206063,"changes":[{"restore":{"index":0,"item":{"completed":false,"createdAt":1796297939010,"id":"b0a2fa6b-7c32-45ea-a127-95ae87c5fa1e","number":1,"text":"written by schema 2, item 1"}}}],"summary":"remove \\"written by schema 2, item 1\\""}]}	{"clients":[{"floor":0,"id":"fixture-writer","recent":[1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8]}]}	1796297939000
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
-- Name: todod_log todod_log_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER todod_log_append_only BEFORE DELETE OR UPDATE OR TRUNCATE ON public.todod_log FOR EACH STATEMENT EXECUTE FUNCTION public.todod_refuse_rewrite();


--
-- Name: todod_log todod_log_appended_through_head; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER todod_log_appended_through_head AFTER INSERT ON public.todod_log REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION public.todod_refuse_insert_beyond_head();


--
-- PostgreSQL database dump complete
--


