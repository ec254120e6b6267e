BEGIN TRANSACTION;
CREATE TABLE actions(version INTEGER PRIMARY KEY, name TEXT NOT NULL, payload TEXT NOT NULL,
                     accepted_at INTEGER NOT NULL, peer_uid INTEGER, peer_pid INTEGER,
                     client_id TEXT, client_sequence INTEGER);
INSERT INTO "actions" VALUES(1,'add','{"change":3856020075795270,"createdAt":1796236636901,"id":"13110244-ba90-4d73-b50d-b307a2dd5346","text":"buy milk"}',1796236636901,0,11234,'e893e5c7-c00e-4da8-b3b9-1c93d0c168b1',1);
INSERT INTO "actions" VALUES(2,'add','{"change":3737684534760714,"createdAt":1796236636940,"id":"7072fb63-f516-4126-853d-47677efa150a","text":"walk the \"dog\""}',1796236636940,0,11242,'5c34746a-0f4d-4f9c-8cd5-9ab2df3e011b',1);
INSERT INTO "actions" VALUES(3,'add','{"change":3889585901259955,"createdAt":1796236636986,"id":"c89ad950-b6b5-43af-913d-d18ec9f7ccb3","text":"é ✓ unicode"}',1796236636986,0,11247,'d65f51a8-571d-44c9-ad54-65849b14d3b8',1);
INSERT INTO "actions" VALUES(4,'complete','{"change":1885695397786421,"completedAt":1796236637012,"number":2}',1796236637012,0,11253,'dbfac99b-df3e-4b0a-ba96-fa5691ad7d56',1);
INSERT INTO "actions" VALUES(5,'edit','{"change":2634399452063699,"number":3,"text":"edited text"}',1796236637089,0,11260,'e8c35f4f-c5db-4b44-b5cc-bc903abe8796',1);
INSERT INTO "actions" VALUES(6,'undo','{"reverts":2634399452063699,"undoing":"edit \"é ✓ unicode\""}',1796236637149,0,11294,'286fe40f-792f-43f8-9c67-597485567cfa',1);
INSERT INTO "actions" VALUES(7,'add','{"change":3479404367984836,"createdAt":1796236637208,"id":"8524a3dd-deb3-454d-a46c-5c7ff56238c4","text":"fourth"}',1796236637208,0,11301,'dda1876f-02b3-48c2-842d-607dca5cad30',1);
INSERT INTO "actions" VALUES(8,'remove','{"change":95935244429742,"number":1}',1796236637244,0,11306,'612bfda8-cb57-4f28-ae04-131ebb6e7702',1);
INSERT INTO "actions" VALUES(9,'complete','{"change":3571546796334647,"completedAt":1796236637295,"number":4}',1796236637295,0,11312,'4584a325-9b26-4009-9953-0708718073fc',1);
INSERT INTO "actions" VALUES(10,'reopen','{"change":1588581332675697,"number":4}',1796236637351,0,11318,'bbb15a19-1361-4ce9-828f-6d0568dc0cd5',1);
INSERT INTO "actions" VALUES(11,'complete','{"change":3141967302253758,"completedAt":1796236637406,"number":3}',1796236637406,0,11328,'064304b8-df69-4a08-aa98-1dd2d166268b',1);
INSERT INTO "actions" VALUES(12,'clearCompleted','{"change":348541321113959}',1796236637447,0,11335,'8642d0df-5614-42ee-81b0-58afd9c1f3de',1);
INSERT INTO "actions" VALUES(13,'import','{"change":1980267020325864,"items":[{"completed":false,"createdAt":1700000000000,"id":"imported-1","number":9,"text":"imported item"}]}',1796236637518,0,11342,'0cf992fe-972e-4c99-98de-87a510ebe4d6',1);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO "meta" VALUES('schema_version','2');
CREATE TABLE snapshots(version INTEGER PRIMARY KEY, state TEXT NOT NULL, saved_at INTEGER NOT NULL, ledger TEXT);
COMMIT;
