// The Priest's web console: draws the server's snapshots (Server-Sent Events) and sends actions.
// No library, no build step. Text from the table is set with textContent; the panels arrive as HTML that
// the server escaped (kikimimi/console/web/render.py).
"use strict";

const WORDS = {
  en: {
    login_help: "Type the code printed where the console started.", login: "Open the console",
    undo: "Undo", pause: "Pause", resume: "Resume", move: "Move piece", tap_for: "Tap for a seat",
    game_actions: "Game actions", repeat: "Repeat", end: "End game", new_game: "New game",
    show_hands: "Show hands", hide_hands: "Hide hands", said: "Said", alerts: "Alerts", health: "Health",
    virtual: "Virtual table", meeting: "Meeting", basket: "Random from the basket",
    reconnecting: "Reconnecting…", table_lost: "The table is not answering: waiting for it to come back",
    revealed: "HANDS SHOWN: players must not see this screen", paused: "PAUSED",
    seats: "seats", events: "events", to_move: "to move: seat", over: "game over", clock: "clock: seat",
    yes: "Yes", no: "No", cancel: "Cancel", start: "Start", ok: "OK",
    q_reveal: "Show every hand and private line? Only when no player can see this screen.",
    q_undo: "Undo the last event: ", q_end: "End the game now? The game ranks the seats as they stand.",
    q_send: ": send it to the table?", in_progress: "The game in progress ends now (the journal keeps it as abandoned).",
    which_reader: "Tap on which reader?", which_tag: "Which tag?", which_piece: "Which piece?", where_to: "It is now in:",
    which_seat: "Which seat?", which_action: "Which referee action?", no_actions: "This game has no referee actions of its own.",
    game: "Game", needs_seats: "needs more seats than this table has", no_keys: "This game has no set-up keys.",
    nothing_to_undo: "Nothing to undo.", speaker: "speaker", earphone: "earphone", readers: "Readers",
    outputs: "Outputs", taps: "taps", errors: "errors", underruns: "underruns", mute: "Mute", unmute: "Unmute",
    muted: "MUTED", controls: "controls", last: "last event: ", sent: "Sent.", nothing_said: "nothing yet",
  },
  ja: {
    login_help: "コンソールを起動した画面に表示されたコードを入力してください。", login: "コンソールを開く",
    undo: "取り消し", pause: "一時停止", resume: "再開", move: "駒を移動", tap_for: "代理タップ",
    game_actions: "ゲームの操作", repeat: "もう一度", end: "ゲーム終了", new_game: "新しいゲーム",
    show_hands: "手札を表示", hide_hands: "手札を隠す", said: "発話", alerts: "警告", health: "状態",
    virtual: "仮想テーブル", meeting: "大会", basket: "籠から無作為に",
    reconnecting: "再接続中…", table_lost: "テーブルが応答しません: 復帰を待っています",
    revealed: "手札表示中: プレイヤーに画面を見せないこと", paused: "一時停止中",
    seats: "席", events: "イベント", to_move: "手番: 席", over: "ゲーム終了", clock: "持ち時間: 席",
    yes: "はい", no: "いいえ", cancel: "キャンセル", start: "開始", ok: "OK",
    q_reveal: "すべての手札と個別の発話を表示しますか? プレイヤーが画面を見られない時だけにしてください。",
    q_undo: "直前のイベントを取り消しますか: ", q_end: "今ゲームを終了しますか? 現在の状況で順位が決まります。",
    q_send: ": テーブルに送りますか?", in_progress: "進行中のゲームは終了します(ジャーナルに中断として残ります)。",
    which_reader: "どのリーダーにタップしますか?", which_tag: "どのタグですか?", which_piece: "どの駒ですか?", where_to: "駒の今の場所:",
    which_seat: "どの席ですか?", which_action: "どの操作ですか?", no_actions: "このゲームには独自の操作がありません。",
    game: "ゲーム", needs_seats: "このテーブルの席数では遊べません", no_keys: "このゲームには設定項目がありません。",
    nothing_to_undo: "取り消すものがありません。", speaker: "スピーカー", earphone: "イヤホン", readers: "リーダー",
    outputs: "出力", taps: "タップ", errors: "エラー", underruns: "音切れ", mute: "ミュート", unmute: "ミュート解除",
    muted: "ミュート中", controls: "操作タグ", last: "直前: ", sent: "送信しました。", nothing_said: "まだありません",
  },
};

const $ = (id) => document.getElementById(id);
let lang = document.documentElement.lang === "en" ? "en" : "ja";
let reveal = false;
let source = null;
let snap = null;
let tab = "said";
let vtReader = null;
let retryTimer = null;

function t(key) { return (WORDS[lang] || WORDS.en)[key] || WORDS.en[key] || key; }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "on") node.addEventListener("click", value);
    else if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function words(root = document) {
  document.documentElement.lang = lang;
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

// -- session and the live stream ------------------------------------------------------------------------

async function boot() {
  words();
  let answer;
  try {
    answer = await fetch("/api/session", { cache: "no-store" });
  } catch (err) {
    setLink(false);
    retryTimer = setTimeout(boot, 1000);
    return;
  }
  const body = await answer.json().catch(() => ({}));
  if (body.lang) { lang = body.lang === "en" ? "en" : "ja"; words(); }
  if (answer.ok && body.admitted) { showApp(); connect(); } else { showLogin(); }
}

function showLogin() {
  if (source) { source.close(); source = null; }
  $("app").hidden = true; $("link-banner").hidden = true; $("reveal-banner").hidden = true;
  $("login").hidden = false;
  document.body.dataset.state = "login";
  $("code").focus();
}

function showApp() { $("login").hidden = true; $("app").hidden = false; }

async function login(event) {
  event.preventDefault();
  const answer = await post("/api/login", { code: $("code").value });
  if (answer.ok) { $("code").value = ""; $("login-error").textContent = ""; showApp(); connect(); }
  else $("login-error").textContent = answer.error;
}

function connect() {
  clearTimeout(retryTimer);
  if (source) source.close();
  source = new EventSource("/api/events?reveal=" + (reveal ? "1" : "0"));
  source.addEventListener("snapshot", (event) => draw(JSON.parse(event.data)));
  source.addEventListener("health", (event) => drawHealthUpdate(JSON.parse(event.data)));
  source.onopen = () => setLink(true);
  source.onerror = () => {
    setLink(false);
    if (source && source.readyState === EventSource.CLOSED) {  // refused (no cookie, too many pages)
      source = null;
      retryTimer = setTimeout(boot, 1000);
    }  // else the browser reconnects by itself ("retry" from the server)
  };
}

function setLink(up) {
  document.body.dataset.link = up ? "up" : "down";
  showLinkBanner();
}

function showLinkBanner() {
  const down = document.body.dataset.link === "down";
  const lost = snap && !snap.connected;
  $("link-banner").hidden = !(down || lost);
  $("link-banner").textContent = down ? t("reconnecting") : t("table_lost");
}

async function post(url, body) {
  try {
    const answer = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      cache: "no-store", credentials: "same-origin",
    });
    const data = await answer.json().catch(() => ({ error: answer.statusText }));
    if (answer.status === 401 && url !== "/api/login") showLogin();
    return answer.ok ? { ok: true, ...data } : { ok: false, error: data.error || answer.statusText };
  } catch (err) {
    return { ok: false, error: t("reconnecting") };
  }
}

async function act(what, params) {
  const answer = await post("/api/act", { do: what, ...(params || {}) });
  if (!answer.ok) toast(answer.error);
  return answer;
}

let toastTimer = null;
function toast(text) {
  $("toast").textContent = text;
  $("toast").hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { $("toast").hidden = true; }, 4000);
}

// -- drawing ------------------------------------------------------------------------------------------

function draw(data) {
  snap = data;
  if (data.lang && data.lang !== lang) { lang = data.lang === "en" ? "en" : "ja"; words(); }
  document.body.dataset.version = data.version;
  document.body.dataset.state = data.connected ? "live" : "lost";
  showLinkBanner();
  if (!data.connected) return;
  const game = data.game;
  document.body.dataset.game = game.id;
  document.body.classList.toggle("revealed", data.reveal);
  $("reveal-banner").hidden = !data.reveal;
  $("reveal-banner").textContent = t("revealed");
  $("b-reveal").textContent = data.reveal ? t("hide_hands") : t("show_hands");
  $("game-title").textContent = game.title;
  $("seats").textContent = game.seats + " " + t("seats");
  $("turn").textContent = data.over ? t("over") : data.turn ? t("to_move") + " " + data.turn : "";
  drawClock(data);
  $("paused").hidden = !data.paused;
  $("paused").textContent = t("paused");
  $("events").textContent = `${data.events} ${t("events")}`;
  $("b-pause").textContent = data.paused ? t("resume") : t("pause");
  $("b-undo").disabled = !data.events;
  $("b-end").disabled = data.over;
  $("b-actions").hidden = !game.actions.length;
  $("b-tapfor").hidden = false;
  once("guide", [data.guide, lang], () => { $("guide").innerHTML = data.guide; words($("guide")); });
  $("last").textContent = data.last_event ? t("last") + data.last_event : "";
  html("panel", data.panel);
  html("tab-alerts", data.alerts);
  html("tab-meeting", data.meeting);
  once("said", [data.said, data.game.outputs], () => drawSaid(data));
  once("health", data.health, () => drawHealth(data));
  drawVirtual(data);
  document.body.dataset.events = data.events;  // last: a test or the bench reading it sees the whole page drawn
}

function drawClock(data) {
  const clock = data.health.clock;
  $("clock").textContent = clock ? `${t("clock")} ${clock[0]}, ${Math.round(clock[1])} s` : "";
}

// Only the health changed (the turn clock counts down): the server sends it alone, or the clock alone, not
// the whole snapshot.
function drawHealthUpdate(update) {
  if (!snap || !snap.connected || update.version !== snap.version) return;  // a snapshot comes first
  snap = { ...snap, health: update.health || { ...snap.health, clock: update.clock } };
  drawClock(snap);
  once("health", snap.health, () => drawHealth(snap));
  document.body.dataset.health = (Number(document.body.dataset.health) || 0) + 1;  // a test sees it drawn
}

// A part of the page is redrawn only when what it shows changed (a tablet's battery, a phone's CPU).
const drawn = new Map();
function once(part, input, draw) {
  const key = JSON.stringify(input);
  if (drawn.get(part) === key) return;
  drawn.set(part, key);
  draw();
}
function html(id, text) { once(id, text, () => { $(id).innerHTML = text; }); }

function drawSaid(data) {
  const box = $("tab-said");
  const used = new Set(data.game.outputs);
  const shown = data.outputs.filter((name) => used.has(name) || !used.size);
  box.replaceChildren(...shown.map((name) => {
    const pre = el("pre", { id: "said-" + name.replace(":", "-") });
    pre.innerHTML = data.said[name] || "";
    const title = name === "speaker" ? t("speaker") : `${name} ${t("earphone")}`;
    return el("div", { class: "said" }, el("h3", { text: title }), pre);
  }));
  for (const pre of box.querySelectorAll("pre")) pre.scrollTop = pre.scrollHeight;
}

function drawHealth(data) {
  const readers = Object.entries(data.health.readers).map(([role, h]) => el("div", { class: "row reader" },
    el("span", { class: "name", text: role }), el("span", { class: "status " + h.status, text: h.status }),
    el("span", { text: `${t("taps")} ${h.taps}` }),
    (h.errors || h.dropped) ? el("span", { class: "underruns", text: `${t("errors")} ${h.errors}/${h.dropped}` }) : "",
    el("span", { class: "help grow", text: h.detail })));
  const outputs = Object.entries(data.health.outputs).map(([name, h]) => {
    const level = Math.round(h.volume * 100);
    const key = name.replace(":", "-");
    const set = (volume, muted) => act("level", { output: name, volume: Math.min(1, Math.max(0, volume)), muted });
    return el("div", { class: "row output", id: "out-" + key },
      el("span", { class: "name", text: name }), el("span", { class: "status " + h.status, text: h.status }),
      el("span", { class: h.muted ? "level muted" : "level", text: h.muted ? t("muted") : level + "%" }),
      h.underruns ? el("span", { class: "underruns", text: `${t("underruns")} ${h.underruns}` }) : "",
      el("span", { class: "grow help", text: h.detail }),
      el("button", { id: `down-${key}`, "aria-label": `${name} −`, text: "−", on: () => set((level - 10) / 100, h.muted) }),
      el("button", { id: `up-${key}`, "aria-label": `${name} +`, text: "+", on: () => set((level + 10) / 100, h.muted) }),
      el("button", { id: `mute-${key}`, class: h.muted ? "on" : "", text: h.muted ? t("unmute") : t("mute"),
        on: () => set(h.volume, !h.muted) }));
  });
  $("tab-health").replaceChildren(el("div", { class: "health" }, el("h3", { text: t("readers") }), ...readers,
    el("h3", { text: t("outputs") }), ...outputs));
}

let shownVirtual = "";
function drawVirtual(data) {
  const game = data.game;
  const readers = game.sim_readers;
  $("tabs").querySelector('[data-tab="virtual"]').hidden = !readers.length;
  if (!readers.includes(vtReader)) vtReader = readers[0] || null;
  const key = JSON.stringify([game.id, readers, game.pieces.length, vtReader]);
  if (key === shownVirtual) return;
  shownVirtual = key;
  $("vt-readers").replaceChildren(...readers.map((role) => el("button", {
    class: role === vtReader ? "on" : "", id: "vt-reader-" + role.replace(":", "-"), text: role,
    on: () => { vtReader = role; shownVirtual = ""; drawVirtual(snap); },
  })));
  $("vt-pieces").replaceChildren(...tagGroups(game.pieces, game.controls, (tag) => act("tap", { reader: vtReader, tag }), "tap-"));
}

// Pieces grouped by the first word of their id (heart-3 → heart), as the terminal's virtual table does.
function tagGroups(pieces, controls, pick, prefix) {
  const groups = new Map();
  for (const piece of pieces) {
    const word = piece.split("-")[0];
    if (!groups.has(word)) groups.set(word, []);
    groups.get(word).push(piece);
  }
  if (controls.length) groups.set(t("controls"), controls);
  return [...groups].map(([word, tags]) => el("div", { class: "group" }, el("h4", { text: word }),
    el("div", { class: "grid" }, ...tags.map((tag) => el("button", {
      id: prefix + tag, title: tag, text: tag.startsWith(word + "-") ? tag.slice(word.length + 1) : tag.replace(/^ctl-/, ""),
      on: () => pick(tag),
    })))));
}

// -- dialogs ------------------------------------------------------------------------------------------

function dialog(title, body, buttons) {
  const box = $("dialog");
  $("dialog-title").textContent = title;
  $("dialog-body").replaceChildren(...(body || []));
  $("dialog-error").textContent = "";
  $("dialog-buttons").replaceChildren(...buttons.map(([label, cls, then]) => el("button", {
    type: "button", class: cls || "", text: label,
    on: async () => { const keep = then ? await then() : false; if (!keep) box.close(); },
  })));
  if (!box.open) box.showModal();
}

function closeDialog() { if ($("dialog").open) $("dialog").close(); }

function confirm(question, then, danger) {
  dialog(question, [], [[t("no"), "", null], [t("yes"), danger ? "danger" : "primary", () => { then(); }]]);
}

function pick(title, options, then) {
  // options: [value, label]; a tap on one answers at once
  const grid = el("div", { class: "choices" }, ...options.map(([value, label]) => el("button", {
    type: "button", id: "pick-" + String(value).replace(/[^\w-]/g, "_"), text: label,
    on: () => { closeDialog(); then(value); },
  })));
  dialog(title, [grid], [[t("cancel"), "", null]]);
}

function pickTag(title, pieces, controls, then) {
  const body = tagGroups(pieces, controls, (tag) => { closeDialog(); then(tag); }, "pick-");
  dialog(title, body, [[t("cancel"), "", null]]);
}

async function sent(what, params) {
  const answer = await act(what, params);
  if (answer.ok) toast(t("sent"));
}

// -- the actions ------------------------------------------------------------------------------------

function onUndo() {
  if (!snap.events) { toast(t("nothing_to_undo")); return; }
  confirm(t("q_undo") + (snap.last_event || "") + "?", () => act("undo"), true);
}

function onReveal() {
  if (reveal) { reveal = false; connect(); return; }
  confirm(t("q_reveal"), () => { reveal = true; connect(); }, true);
}

function onMove() {
  const game = snap.game;
  pickTag(t("which_piece"), game.pieces, [], (piece) =>
    pick(`${piece} — ${t("where_to")}`, game.destinations.map((d) => [d, d]), (to) => act("move", { piece, to })));
}

function onTapFor() {
  const game = snap.game;
  pick(t("which_reader"), game.readers.map((r) => [r, r]), (reader) =>
    pickTag(`${reader}: ${t("which_tag")}`, game.pieces, game.controls, (tag) => sent("tap_for", { reader, tag })));
}

function onGameActions() {
  const game = snap.game;
  if (!game.actions.length) { toast(t("no_actions")); return; }
  pick(t("which_action"), game.actions.map((a) => [a.action, a.label]), (name) => {
    const action = game.actions.find((a) => a.action === name);
    askParams(action, [...action.params], {});
  });
}

function askParams(action, todo, params) {
  if (!todo.length) {
    if (Object.keys(params).length) act("referee", { action: action.action, params });
    else confirm(action.label + t("q_send"), () => act("referee", { action: action.action, params }), false);
    return;
  }
  const [param, ...rest] = todo;
  const next = (name, value) => askParams(action, rest, { ...params, [name]: value });
  if (param === "seat") {
    const seats = Array.from({ length: snap.game.seats }, (_, i) => [i + 1, `${i + 1}`]);
    pick(`${action.label}: ${t("which_seat")}`, seats, (seat) => next("seat", seat));
  } else if (param === "piece") {
    pickTag(`${action.label}: ${t("which_piece")}`, snap.game.pieces, [], (piece) => next("piece", piece));
  } else {
    const [name, choices] = param.split("=");
    pick(`${action.label}: ${name}?`, (choices || "").split("|").filter(Boolean).map((c) => [c, c]), (v) => next(name, v));
  }
}

function onEnd() { confirm(t("q_end"), () => act("end"), true); }

function onNewGame() {
  const games = snap.games;
  let chosen = games.some((g) => g.id === snap.game.id) ? snap.game.id : games[0].id;
  const form = el("div");
  const draw = () => {
    const info = games.find((g) => g.id === chosen);
    const list = el("div", { class: "choices", id: "new-games" }, ...games.map((g) => el("button", {
      type: "button", id: "game-" + g.id, class: g.id === chosen ? "on" : "", text: g.title,
      title: g.fits ? g.id : t("needs_seats"), on: () => { chosen = g.id; draw(); },
    })));
    for (const button of list.children) button.disabled = !games.find((g) => "game-" + g.id === button.id).fits;
    const keys = info.keys.map((key) => keyField(key, chosen === snap.game.id ? snap.setup[key.name] : undefined));
    form.replaceChildren(el("label", { class: "key", text: t("game") }), list, ...keys,
      info.keys.length ? "" : el("p", { class: "help", text: t("no_keys") }),
      snap.over || !snap.events ? "" : el("p", { class: "error", text: t("in_progress") }));
  };
  draw();
  dialog(t("new_game"), [form], [[t("cancel"), "", null], [t("start"), "primary", async () => {
    const setup = { game: chosen };
    for (const field of form.querySelectorAll("[data-key]")) {
      const kind = field.dataset.kind;
      if (field.tagName === "DIV") {
        const on = field.querySelector("button.on");
        if (on) setup[field.dataset.key] = JSON.parse(on.dataset.value);
      } else if (kind === "bool") setup[field.dataset.key] = field.checked;
      else if (kind === "int") setup[field.dataset.key] = Number.parseInt(field.value, 10);
      else setup[field.dataset.key] = field.value;
    }
    const answer = await post("/api/act", { do: "new_game", setup });
    if (!answer.ok) { $("dialog-error").textContent = answer.error; return true; }  // the dialog stays
    return false;
  }]]);
}

function keyField(key, current) {
  const value = current !== undefined && (key.choices === null || key.choices.includes(current)) ? current : key.default;
  let field;
  if (key.choices) {
    field = el("div", { class: "choices", "data-key": key.name, "data-kind": key.type, id: "key-" + key.name },
      ...key.choices.map((choice) => el("button", {
        type: "button", class: choice === value ? "on" : "", "data-value": JSON.stringify(choice), text: String(choice),
        id: `key-${key.name}-${choice}`,
        on: (event) => {
          for (const b of event.target.parentNode.children) b.classList.remove("on");
          event.target.classList.add("on");
        },
      })));
  } else if (key.type === "bool") {
    field = el("input", { type: "checkbox", "data-key": key.name, "data-kind": "bool", id: "key-" + key.name });
    field.checked = Boolean(value);
  } else {
    field = el("input", { type: key.type === "int" ? "number" : "text", "data-key": key.name, "data-kind": key.type,
      id: "key-" + key.name });
    field.value = value === null || value === undefined ? "" : String(value);
  }
  return el("div", {}, el("label", { class: "key", text: key.name }), field, el("div", { class: "help", text: key.help }));
}

function showTab(name) {
  tab = name;
  for (const button of $("tabs").children) button.setAttribute("aria-selected", String(button.dataset.tab === name));
  for (const pane of document.querySelectorAll(".tab")) pane.hidden = pane.id !== "tab-" + name;
}

document.addEventListener("DOMContentLoaded", () => {
  $("login-form").addEventListener("submit", login);
  // The table's actions wait for its first snapshot (and for it to answer: a lost table is said by the banner).
  const live = (then) => () => { if (snap && snap.connected) then(); else toast(t("table_lost")); };
  $("b-undo").addEventListener("click", live(onUndo));
  $("b-pause").addEventListener("click", live(() => act("pause", { paused: !snap.paused })));
  $("b-move").addEventListener("click", live(onMove));
  $("b-tapfor").addEventListener("click", live(onTapFor));
  $("b-actions").addEventListener("click", live(onGameActions));
  $("b-repeat").addEventListener("click", live(() => act("repeat")));
  $("b-end").addEventListener("click", live(onEnd));
  $("b-new").addEventListener("click", live(onNewGame));
  $("b-reveal").addEventListener("click", onReveal);
  $("vt-basket").addEventListener("click", live(() => act("tap", { reader: vtReader, tag: "basket" })));
  for (const button of $("tabs").children) button.addEventListener("click", () => showTab(button.dataset.tab));
  boot();
});
