// The venue's standings page: draws the host's snapshot (docs/venue-page.md) and follows its stream.
// Every name comes from the data and is set as text (textContent), never parsed as HTML.
"use strict";

(function () {
  const LABELS = {
    ja: {
      position: "順位", player: "名前", table: "卓", wins: "勝", points: "点", crashes: "クラッシュ",
      rank: "ランク", peerage: "爵位", waiting: "ホストからの情報を待っています…",
      reconnecting: "再接続中…", updated: "更新",
      kinds: { full: "公式練習会 (フル)", half: "公式練習会 (ハーフ)", contest: "コンテスト" },
      gamesPerTable: (n) => `各卓 ${n} 戦`,
      status: { open: "進行中", finished: "最終順位", abandoned: "中止" },
      tableName: (n) => `第${n}卓`,
      round: (n, due) => (due ? `第${n}戦 / 全${due}戦` : `第${n}戦`),
      standingsPage: (k, n) => `順位 ${k}/${n}`, tablesPage: (k, n) => `卓 ${k}/${n}`,
      allPlayed: "全戦終了", notStarted: "開始前",
      phases: {
        deal: "配り", start: "開始", turn: "対局中", play: "対局中", drawing: "ドロー", scoring: "得点計算",
        scored: "得点確定", over: "終局", idle: "待機", waiting: "待機", joining: "参加中", reporting: "結果を送信中", done: "終了",
      },
      health: { ok: "正常", degraded: "機器に不調", lost: "機器が外れた" },
      lost: "通信途絶", notJoined: "未参加", done: "終了",
    },
    en: {
      position: "#", player: "Player", table: "Table", wins: "Wins", points: "Points", crashes: "Crashes",
      rank: "Rank", peerage: "Peerage", waiting: "Waiting for the host…",
      reconnecting: "Reconnecting…", updated: "Updated",
      kinds: { full: "Full trial", half: "Half trial", contest: "Contest" },
      gamesPerTable: (n) => `${n} games per table`,
      status: { open: "In progress", finished: "Final standings", abandoned: "Abandoned" },
      tableName: (n) => `Table ${n}`,
      round: (n, due) => (due ? `Round ${n} of ${due}` : `Round ${n}`),
      standingsPage: (k, n) => `Standings ${k}/${n}`, tablesPage: (k, n) => `Tables ${k}/${n}`,
      allPlayed: "All games played", notStarted: "Not started",
      phases: {
        deal: "Dealing", start: "Starting", turn: "Playing", play: "Playing", drawing: "Drawing",
        scoring: "Scoring", scored: "Scored", over: "Game over", idle: "Idle", waiting: "Waiting", joining: "Joining",
        reporting: "Sending results", done: "Done",
      },
      health: { ok: "OK", degraded: "Degraded", lost: "Device lost" },
      lost: "LOST", notJoined: "Not joined", done: "Done",
    },
  };
  const RETRY_MS = 1000; // a stream the browser gave up on (an HTTP error) is reopened after this
  const NEXT_MEETING_MS = 30000; // how often a page on a finished current meeting looks for the next one
  const FLASH_MS = 1800;
  const FULL_CARDS = 4; // tables shown as full cards in one row; more are drawn one line each

  const root = document.documentElement;
  const lang = Object.prototype.hasOwnProperty.call(LABELS, root.lang) ? root.lang : "ja";
  const T = LABELS[lang];
  const meeting = root.dataset.meeting || "current";
  const rotateMs = 1000 * (Number(root.dataset.rotate) || 10);
  const $ = (id) => document.getElementById(id);

  // What the page shows now, kept to tell which rows changed and to drop an older snapshot.
  let lastVersion = -1;
  let lastStandings = null; // Map player -> row signature
  let lastTables = null; // Map table -> card signature
  let snapshot = null;
  let standingsPage = 0;
  let tablesPage = 0;

  // Controls, line separators and bidi overrides, isolates and marks in data are shown as escapes (\u202e),
  // as the terminal shows them: a stored override would reverse the rest of the line on the TV.
  const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

  function escaped(value) {
    return value.replace(UNSHOWN, (c) => {
      const code = c.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
    });
  }

  function text(tag, value, className) {
    const element = document.createElement(tag);
    element.textContent = value === null || value === undefined ? "" : escaped(String(value));
    if (className) element.className = className;
    return element;
  }

  function translated(table, key) {
    return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : key;
  }

  function title(value) {
    // A rank or peerage is {"ja": ..., "en": ...} or null.
    if (!value) return "";
    return value[lang] || value.en || value.ja || "";
  }

  function drawLabels() {
    for (const element of document.querySelectorAll("[data-label]")) {
      element.textContent = T[element.dataset.label];
    }
  }

  function drawHeader(info) {
    const gameTitle = title(info.title) || info.game || "";
    $("game-title").textContent = escaped(gameTitle);
    $("meeting-label").textContent = escaped(info.label || "");
    $("kind").textContent = translated(T.kinds, info.kind || "");
    $("games-due").textContent = info.games_due ? T.gamesPerTable(info.games_due) : "";
    $("status").textContent = translated(T.status, info.status || "");
    $("status").dataset.status = info.status || "";
    document.title = escaped([gameTitle, info.label].filter(Boolean).join(" · ")) || "kikimimi";
  }

  function changed(previous, key, signature) {
    // Nothing flashes on the first drawing; a new row or a different one does.
    return previous !== null && previous.get(key) !== signature;
  }

  function drawStandings(rows) {
    const body = $("standings");
    const seen = new Map();
    const drawn = [];
    for (const row of rows) {
      const rank = title(row.rank);
      const peerage = title(row.peerage);
      const cells = [row.position, row.player, row.table, row.wins, row.points, row.crashes, rank, peerage];
      const signature = JSON.stringify(cells);
      const tr = document.createElement("tr");
      tr.dataset.player = row.player;
      tr.appendChild(text("td", row.position, "num position"));
      tr.appendChild(text("td", row.player, "name"));
      tr.appendChild(text("td", row.table ?? "", "num"));
      tr.appendChild(text("td", row.wins, "num wins"));
      tr.appendChild(text("td", row.points, "num"));
      tr.appendChild(text("td", row.crashes, "num crashes"));
      tr.appendChild(text("td", rank, "ladder rank"));
      tr.appendChild(text("td", peerage, "ladder peerage"));
      if (row.position <= 3) tr.classList.add(`top${row.position}`);
      if (row.crashes > 0) tr.classList.add("crashed");
      if (changed(lastStandings, row.player, signature)) flash(tr);
      seen.set(row.player, signature);
      drawn.push(tr);
    }
    body.replaceChildren(...drawn);
    // No one ranked (a game without a ladder, players not registered yet): those columns go, names get the room.
    const ladder = rows.some((row) => row.rank || row.peerage);
    $("standings-table").classList.toggle("no-ladder", !ladder);
    lastStandings = seen;
  }

  function tableState(table) {
    // A table that played its games stops reporting: it is done, not lost.
    if (table.health === "done") return "done";
    if (table.health === "not_joined") return "absent";
    if (!table.connected) return table.last_seen ? "lost" : "absent";
    return table.health === "ok" ? "ok" : table.health === "degraded" ? "degraded" : "device-lost";
  }

  function progress(table) {
    // [the round, the short round, the phase] as the card shows them.
    const due = table.games_due;
    if (due && table.games_played >= due) return [T.allPlayed, `${table.games_played}/${due}`, ""];
    if (!table.round) return [T.notStarted, due ? `0/${due}` : "", ""];
    const phase = table.phase ? phaseName(table.phase) : "";
    return [T.round(table.round, due), due ? `${table.round}/${due}` : String(table.round), phase];
  }

  function phaseName(phase) {
    // Phases every game shares have words here; a game's own (choose_suit, take_row ...) show as named.
    if (Object.prototype.hasOwnProperty.call(T.phases, phase)) return T.phases[phase];
    const words = phase.replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  const BADGES = {
    lost: () => T.lost, absent: () => T.notJoined, done: () => T.done, ok: () => T.health.ok, degraded: () => T.health.degraded,
    "device-lost": () => T.health.lost,
  };

  function drawTables(tables) {
    const list = $("tables");
    const seen = new Map();
    const cards = [];
    for (const table of tables) {
      const state = tableState(table);
      const [round, roundShort, phase] = progress(table);
      const card = document.createElement("article");
      card.className = `table-card state-${state}`;
      card.dataset.table = table.table;
      const top = document.createElement("div");
      top.className = "card-top";
      top.appendChild(text("span", T.tableName(table.table), "table-name"));
      top.appendChild(text("span", roundShort, "round-short"));
      top.appendChild(text("span", BADGES[state](), `badge badge-${state}`));
      card.appendChild(top);
      card.appendChild(text("div", round, "round"));
      card.appendChild(text("div", phase, "phase"));
      const players = document.createElement("div");
      players.className = "players";
      for (const name of table.players || []) players.appendChild(text("span", name, "player"));
      card.appendChild(players);
      const signature = JSON.stringify([state, round, phase, table.players]);
      if (changed(lastTables, table.table, signature)) flash(card);
      seen.set(table.table, signature);
      cards.push(card);
    }
    list.replaceChildren(...cards);
    // More tables than one row of cards: one line each, so more fit on a page.
    list.classList.toggle("compact", cards.length > FULL_CARDS);
    lastTables = seen;
  }

  function flash(element) {
    element.classList.add("changed");
    setTimeout(() => element.classList.remove("changed"), FLASH_MS);
  }

  // --- pages: a list longer than the screen shows one screenful at a time, in turn ---

  function fitting(room, items) {
    // How many items fit in the room: they flow in order, so the ones before the first that overflows.
    const bottom = room.getBoundingClientRect().bottom + 0.5;
    for (const item of items) item.hidden = false;
    const overflowing = items.findIndex((item) => item.getBoundingClientRect().bottom > bottom);
    return overflowing === -1 ? items.length : Math.max(1, overflowing);
  }

  function paginate(items, room, pager, page, label) {
    const perPage = Math.max(1, fitting(room, items));
    const pages = Math.max(1, Math.ceil(items.length / perPage));
    const current = page % pages;
    items.forEach((item, index) => {
      item.hidden = Math.floor(index / perPage) !== current;
    });
    pager.textContent = pages > 1 ? label(current + 1, pages) : "";
    pager.dataset.page = String(current + 1);
    pager.dataset.pages = String(pages);
    return current;
  }

  function layout() {
    if (!snapshot) return;
    tablesPage = paginate(Array.from($("tables").children), $("tables"), $("tables-pager"), tablesPage,
      T.tablesPage);
    standingsPage = paginate(Array.from($("standings").children), $("standings-room"), $("standings-pager"),
      standingsPage, T.standingsPage);
  }

  function draw(next) {
    snapshot = next;
    drawHeader(next.meeting || {});
    drawStandings(next.standings || []);
    drawTables(next.tables || []);
    $("board").hidden = false;
    $("waiting").hidden = true;
    if (next.updated_at) {
      const when = new Date(next.updated_at);
      $("updated").textContent = isNaN(when) ? "" : `${T.updated} ${when.toLocaleTimeString(lang)}`;
    }
    layout();
    root.dataset.version = String(next.version);
    followNextMeeting(next.meeting || {});
  }

  // --- the stream ---

  const base = `/api/meetings/${encodeURIComponent(meeting)}`;
  let source = null;
  let nextMeetingTimer = null;

  function showLink(up) {
    $("link").hidden = up;
    root.dataset.link = up ? "up" : "down";
  }

  function onSnapshot(event) {
    let next;
    try {
      next = JSON.parse(event.data);
    } catch (error) {
      console.warn("kikimimi: a snapshot that is not JSON was ignored", error);
      return;
    }
    if (typeof next.version === "number" && next.version <= lastVersion) return; // older (or the same)
    lastVersion = typeof next.version === "number" ? next.version : lastVersion;
    draw(next);
  }

  async function explainFailure() {
    // EventSource hides why it failed; the snapshot URL answers with the host's one-line error.
    try {
      const response = await fetch(base, { cache: "no-store" });
      if (response.ok) return;
      const body = await response.json().catch(() => ({}));
      $("waiting-detail").textContent = body.error || `${base}: HTTP ${response.status}`;
    } catch (error) {
      $("waiting-detail").textContent = "";
    }
  }

  function followNextMeeting(info) {
    // A page on the current meeting moves on by itself: once this one is over, it asks again now and
    // then which meeting is current (the host answers the open one, else the latest).
    if (meeting !== "current" || info.status === "open" || nextMeetingTimer) return;
    nextMeetingTimer = setTimeout(() => {
      nextMeetingTimer = null;
      connect();
    }, NEXT_MEETING_MS);
  }

  function connect() {
    // One stream at a time: a retry and a move to the next meeting may both come here.
    if (source) source.close();
    const mine = new EventSource(`${base}/events`);
    source = mine;
    mine.addEventListener("snapshot", onSnapshot);
    mine.addEventListener("open", () => {
      // Versions are compared within one stream: a new one (a restarted host, the next meeting) always draws.
      lastVersion = -1;
      showLink(true);
      $("waiting-detail").textContent = "";
    });
    mine.addEventListener("error", () => {
      if (mine !== source) return;
      showLink(false);
      if (mine.readyState === EventSource.CLOSED) {
        // The browser retries a dropped stream by itself, but not one refused with an HTTP error.
        explainFailure();
        setTimeout(() => mine === source && connect(), RETRY_MS);
      }
    });
  }

  drawLabels();
  root.dataset.link = "connecting";
  window.addEventListener("resize", layout);
  setInterval(() => {
    standingsPage += 1;
    tablesPage += 1;
    layout();
  }, rotateMs);
  connect();
})();
