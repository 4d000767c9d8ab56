-- A journal as kikimimi wrote it before the table's own steps were typed (schema 1): a finished Trident
-- game (tests/scripts/trident_full_game.jsonl) and an unfinished one with an undo and a penalty.
PRAGMA user_version=1;
BEGIN TRANSACTION;
CREATE TABLE events (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,         -- 1, 2, 3... within the game
        at REAL NOT NULL,             -- wall clock when accepted
        event TEXT NOT NULL,          -- JSON, as an event-script line
        PRIMARY KEY (game_id, seq)
    );
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',1,1761990001.0,'{"scan": "hand:1", "piece": "heart-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',2,1761990002.0,'{"scan": "hand:1", "piece": "heart-2"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',3,1761990003.0,'{"scan": "hand:1", "piece": "spade-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',4,1761990004.0,'{"scan": "hand:1", "piece": "diamond-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',5,1761990005.0,'{"scan": "hand:1", "piece": "clover-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',6,1761990006.0,'{"scan": "hand:2", "piece": "heart-3"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',7,1761990007.0,'{"scan": "hand:2", "piece": "heart-4"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',8,1761990008.0,'{"scan": "hand:2", "piece": "spade-2"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',9,1761990009.0,'{"scan": "hand:2", "piece": "diamond-2"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',10,1761990010.0,'{"scan": "hand:2", "piece": "draw2-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',11,1761990011.0,'{"scan": "hand:3", "piece": "heart-5"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',12,1761990012.0,'{"scan": "hand:3", "piece": "heart-6"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',13,1761990013.0,'{"scan": "hand:3", "piece": "spade-3"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',14,1761990014.0,'{"scan": "hand:3", "piece": "diamond-3"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',15,1761990015.0,'{"scan": "hand:3", "piece": "clover-3"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',16,1761990016.0,'{"scan": "field", "piece": "heart-8"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',17,1761990017.0,'{"scan": "field", "piece": "heart-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',18,1761990018.0,'{"scan": "field", "piece": "draw2-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',19,1761990019.0,'{"scan": "hand:3", "piece": "ctl-pass"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',20,1761990020.0,'{"scan": "hand:3", "piece": "spade-7"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',21,1761990021.0,'{"scan": "hand:3", "piece": "spade-8"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',22,1761990022.0,'{"scan": "field", "piece": "heart-2"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',23,1761990023.0,'{"scan": "field", "piece": "heart-3"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',24,1761990024.0,'{"scan": "field", "piece": "heart-5"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',25,1761990025.0,'{"scan": "hand:1", "piece": "change-spade-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',26,1761990026.0,'{"scan": "field", "piece": "change-spade-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',27,1761990027.0,'{"scan": "field", "piece": "spade-2"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',28,1761990028.0,'{"scan": "hand:2", "piece": "ctl-trident"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',29,1761990029.0,'{"scan": "field", "piece": "spade-3"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',30,1761990030.0,'{"scan": "field", "piece": "spade-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',31,1761990031.0,'{"scan": "hand:2", "piece": "diamond-7"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',32,1761990032.0,'{"scan": "hand:2", "piece": "ctl-pass"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',33,1761990033.0,'{"scan": "field", "piece": "spade-7"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',34,1761990034.0,'{"scan": "hand:1", "piece": "change-diamond-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',35,1761990035.0,'{"scan": "field", "piece": "change-diamond-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',36,1761990036.0,'{"scan": "field", "piece": "diamond-2"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',37,1761990037.0,'{"scan": "field", "piece": "diamond-3"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',38,1761990038.0,'{"scan": "hand:1", "piece": "ctl-trident"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',39,1761990039.0,'{"scan": "field", "piece": "diamond-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',40,1761990040.0,'{"scan": "field", "piece": "heart-4"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',41,1761990041.0,'{"scan": "hand:2", "piece": "heart-7"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',42,1761990042.0,'{"scan": "hand:2", "piece": "clover-4"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',43,1761990043.0,'{"scan": "field", "piece": "diamond-7"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',44,1761990044.0,'{"scan": "hand:3", "piece": "change-clover-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',45,1761990045.0,'{"scan": "field", "piece": "change-clover-1"}');
INSERT INTO "events" VALUES('20251101-190000-aaaaaa',46,1761990046.0,'{"scan": "field", "piece": "clover-1"}');
INSERT INTO "events" VALUES('20251101-191000-bbbbbb',1,1761990601.0,'{"scan": "hand:1", "piece": "heart-1"}');
INSERT INTO "events" VALUES('20251101-191000-bbbbbb',2,1761990602.0,'{"scan": "hand:2", "piece": "spade-3"}');
INSERT INTO "events" VALUES('20251101-191000-bbbbbb',3,1761990603.0,'{"referee": "undo"}');
INSERT INTO "events" VALUES('20251101-191000-bbbbbb',4,1761990604.0,'{"scan": "hand:2", "piece": "spade-4"}');
INSERT INTO "events" VALUES('20251101-191000-bbbbbb',5,1761990605.0,'{"referee": "penalty", "seat": 3}');
CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        setup TEXT NOT NULL,          -- JSON: first player, rules
        started_at REAL NOT NULL,     -- wall clock, seconds since the epoch
        ended_at REAL,
        outcome TEXT                  -- JSON, when the game ended
    );
INSERT INTO "games" VALUES('20251101-190000-aaaaaa','trident','{"first": 1, "rules": "standard"}',1761990000.0,1761990100.0,'{"ranking": [1, 2, 3], "winners": [1], "scores": {"1": 0, "2": 7, "3": 9}, "reason": "out", "details": {"crashed": null, "pieces": {"1": 0, "2": 3, "3": 3}}}');
INSERT INTO "games" VALUES('20251101-191000-bbbbbb','trident','{"first": 2, "rules": "standard"}',1761990600.0,NULL,NULL);
COMMIT;
