// The Priest's web console: draws the server's snapshots (Server-Sent Events) and sends actions.
// No library, no build step. Text from the table is set with textContent; the panels arrive as HTML that
// the server escaped (kikimimi/console/web/render.py).
"use strict";

// The page's words in both languages, from the console catalogs (voices/catalog/console.*.toml), put in the
// page by the server: the switch needs no request.
const WORDS = JSON.parse(document.getElementById("words").textContent);

const $ = (id) => document.getElementById(id);
let lang = document.documentElement.lang === "en" ? "en" : "ja";
let chosenLang = null;  // the switch on the page; until it is used, the table's language
let dialogCheck = null;  // while a dialog naming the table's state is open: is it still true of a snapshot?
let reveal = false;
let source = null;
let snap = null;
let tab = "said";
let vtReader = null;
let retryTimer = null;

// A word of the page in its language, its {params} filled in.
function t(key, params) {
  const text = (WORDS[lang] || WORDS.en)[key] || key;
  return text.replace(/\{(\w+)\}/g, (mark, name) => (params && name in params ? String(params[name]) : mark));
}

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
  for (const node of root.querySelectorAll("[data-t-label]")) node.setAttribute("aria-label", t(node.dataset.tLabel));
  const other = lang === "ja" ? "en" : "ja";
  const switcher = $("b-lang");
  if (switcher) {
    switcher.textContent = t("language");
    switcher.setAttribute("lang", other);
    switcher.setAttribute("aria-label", `${t("language_name")}: ${t("language")}`);
  }
}

function switchLanguage() {
  chosenLang = lang === "ja" ? "en" : "ja";
  lang = chosenLang;
  drawn.clear(); shownVirtual = "";
  words();
  if (source) connect();  // the table's parts (guide, panel, answers) come again in this language
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
  if (body.lang && !chosenLang) { lang = body.lang === "en" ? "en" : "ja"; words(); }
  if (answer.ok && body.admitted) { showApp(); connect(); } else { showLogin(); }
}

function showLogin() {
  if (source) { source.close(); source = null; }
  $("app").hidden = true; $("link-banner").hidden = true; $("reveal-banner").hidden = true;
  $("login").hidden = false;
  document.body.dataset.state = "login";
  loginReason();
  $("code").focus();
}

function showApp() { $("login").hidden = true; $("app").hidden = false; }

// The login says why it fails: expired (the code was renewed), wrong, or locked (this device guessed too often).
async function login(event) {
  event.preventDefault();
  const answer = await post("/api/login", { code: $("code").value, lang });
  if (answer.ok) { $("code").value = ""; $("login-error").textContent = ""; showApp(); connect(); }
  else $("login-error").textContent = answer.error;
}

// The QR code's link that failed comes back as /?login=expired|wrong|locked: said on the form.
function loginReason() {
  const query = new URLSearchParams(window.location.search);
  const why = query.get("login");
  if (!why || !["expired", "wrong", "locked"].includes(why)) return;
  history.replaceState(null, "", "/");
  $("login-error").textContent = t("login_" + why, { seconds: Number(query.get("wait")) || 60 });
}

function connect() {
  clearTimeout(retryTimer);
  if (source) source.close();
  source = new EventSource(`/api/events?reveal=${reveal ? "1" : "0"}&lang=${lang}`);
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

// Every action waits for the table's answer and shows it: done, or refused with the reason (both in the
// table's language, from the server); while it waits, the page says so.
async function act(what, params) {
  toast(t("waiting"), "wait");
  const answer = await post("/api/act", { do: what, ...(params || {}), lang });
  if (answer.ok) toast(answer.said || t("sent"), "done");
  else toast(answer.error, "refused");
  return answer;
}

let toastTimer = null;
function toast(text, kind) {
  const box = $("toast");
  box.textContent = text;
  box.className = "toast " + (kind || "");
  box.setAttribute("role", kind === "refused" ? "alert" : "status");
  box.hidden = false;
  document.body.dataset.answer = kind || "";
  clearTimeout(toastTimer);
  if (kind !== "wait") toastTimer = setTimeout(() => { box.hidden = true; }, kind === "refused" ? 8000 : 4000);
}

// -- drawing ------------------------------------------------------------------------------------------

function draw(data) {
  snap = data;
  if (data.lang && data.lang !== lang && !chosenLang) { lang = data.lang === "en" ? "en" : "ja"; words(); }
  // A dialog that names the table's state (the event undo takes back, a seat's turn) is checked against each
  // snapshot: when the table moved on, it closes and says so, and nothing is sent from it.
  if (dialogCheck && $("dialog").open && !dialogCheck(data)) {
    dialogCheck = null;
    closeDialog();
    toast(t("moved_on"), "refused");
  }
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
  $("seats").textContent = t("seats", { count: game.seats });
  $("turn").textContent = data.over ? t("over") : data.turn ? t("to_move", { seat: data.turn }) : "";
  drawClock(data);
  $("paused").hidden = !data.paused;
  $("paused").textContent = t("paused");
  $("events").textContent = t("events", { count: data.events });
  $("b-pause").textContent = data.paused ? t("resume") : t("pause");
  $("b-undo").disabled = !data.undo;
  $("b-end").disabled = data.over;
  $("b-actions").hidden = !game.actions.length;
  $("b-tapfor").hidden = false;
  once("guide", [data.guide, lang], () => { $("guide").innerHTML = data.guide; words($("guide")); });
  $("last").textContent = data.last_event ? t("last", { event: data.last_event }) : "";
  once("table", [data.table, lang], () => drawTable(data.table));
  html("tab-alerts", data.alerts);
  html("tab-meeting", data.meeting);
  once("said", [data.said, data.game.outputs], () => drawSaid(data));
  once("health", data.health, () => drawHealth(data));
  drawVirtual(data);
  document.body.dataset.events = data.events;  // last: a test or the bench reading it sees the whole page drawn
}

// The table drawn from the game's view model: the seats around it (seat 1 nearest the Priest), the turn
// marked, counts and marks as chips, hands only when revealed; in the middle the field's last pieces, the
// basket and the game's own items. Positions are set through the CSSOM (the page's CSP allows no inline style).
function drawTable(model) {
  const box = $("table");
  if (!model) { box.replaceChildren(); return; }
  const n = model.seats.length || 1;
  const seats = model.seats.map((seat, i) => {
    const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
    const card = el("div", { class: "seat" + (seat.turn ? " turn" : ""), id: "seat-" + seat.seat },
      el("div", { class: "seat-name" }, el("strong", { text: t("seat_n", { seat: seat.seat }) }),
        seat.name ? el("span", { class: "player", text: " " + seat.name }) : ""),
      seat.turn ? el("div", { class: "chip turn-chip", text: "▶ " + t("to_move_short") }) : "",
      seat.count !== null && seat.count !== undefined ? el("div", { class: "chip", text: t("in_hand", { count: seat.count }) }) : "",
      seat.score !== null && seat.score !== undefined ? el("div", { class: "chip", text: t("points", { score: seat.score }) }) : "",
      ...seat.marks.map((m) => el("div", { class: "chip mark", text: m })),
      seat.hand ? el("div", { class: "hand" }, ...seat.hand.map((p) => el("span", { class: "piece", text: p }))) : "");
    if (seat.turn) card.setAttribute("aria-current", "true");
    card.style.left = `${50 + 38 * Math.cos(angle)}%`;
    card.style.top = `${50 + 36 * Math.sin(angle)}%`;
    return card;
  });
  const middle = el("div", { class: "middle" },
    model.phase ? el("div", { class: "phase", text: model.phase }) : "",
    model.field.length ? el("div", { class: "field" }, el("span", { class: "label", text: t("field") }),
      ...model.field.map((p) => el("span", { class: "piece", text: p }))) : "",
    model.basket !== null && model.basket !== undefined ? el("div", { class: "chip", text: t("basket_count", { count: model.basket }) }) : "",
    ...model.items.map((item) => el("div", { class: "item", text: item })),
    list("penalties", t("penalties_title"), model.penalties), list("result", t("result_title"), model.result));
  box.replaceChildren(el("div", { class: "felt" }), middle, ...seats);
}

// A titled list in the middle of the table (the penalties given, the end's ranking and scores); none if empty.
function list(kind, title, lines) {
  if (!lines || !lines.length) return "";
  return el("div", { class: kind, id: "table-" + kind }, el("div", { class: "label", text: title }),
    ...lines.map((line) => el("div", { class: "item", text: line })));
}

function drawClock(data) {
  const clock = data.health.clock;
  $("clock").textContent = clock ? t("clock", { seat: clock[0], seconds: Math.round(clock[1]) }) : "";
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
    const title = name === "speaker" ? t("speaker") : t("earphone", { seat: name.replace("hand:", "") });
    return el("div", { class: "said" }, el("h3", { text: title }), pre);
  }));
  for (const pre of box.querySelectorAll("pre")) pre.scrollTop = pre.scrollHeight;
}

function drawHealth(data) {
  const readers = Object.entries(data.health.readers).map(([role, h]) => el("div", { class: "row reader" },
    el("span", { class: "name", text: role }), el("span", { class: "status " + h.status, text: t("status_" + h.status) }),
    el("span", { text: t("taps", { count: h.taps }) }),
    (h.errors || h.dropped) ? el("span", { class: "underruns", text: t("errors", { count: `${h.errors}/${h.dropped}` }) }) : "",
    el("span", { class: "help grow", text: h.detail })));
  const outputs = Object.entries(data.health.outputs).map(([name, h]) => {
    const level = Math.round(h.volume * 100);
    const key = name.replace(":", "-");
    const set = (volume, muted) => act("level", { output: name, volume: Math.min(1, Math.max(0, volume)), muted });
    return el("div", { class: "row output", id: "out-" + key },
      el("span", { class: "name", text: name }), el("span", { class: "status " + h.status, text: t("status_" + h.status) }),
      el("span", { class: h.muted ? "level muted" : "level", text: h.muted ? t("muted") : level + "%" }),
      h.underruns ? el("span", { class: "underruns", text: t("underruns", { count: h.underruns }) }) : "",
      el("span", { class: "grow help", text: h.detail }),
      el("span", { class: "volume" },
        el("button", { id: `down-${key}`, "aria-label": t("softer", { output: name }), text: "−", on: () => set((level - 10) / 100, h.muted) }),
        el("button", { id: `up-${key}`, "aria-label": t("louder", { output: name }), text: "+", on: () => set((level + 10) / 100, h.muted) })),
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
  const heading = (word) => (WORDS[lang] || WORDS.en)["group_" + word] || word;  // group_heart: "ハート"
  return [...groups].map(([word, tags]) => el("div", { class: "group" }, el("h4", { text: heading(word) }),
    el("div", { class: "grid" }, ...tags.map((tag) => el("button", {
      id: prefix + tag, title: tag, text: tag.startsWith(word + "-") ? tag.slice(word.length + 1) : tag.replace(/^ctl-/, ""),
      on: () => pick(tag),
    })))));
}

// -- dialogs ------------------------------------------------------------------------------------------

// `check(snapshot)`, when given, says whether what the dialog names is still true of the table (see draw).
function dialog(title, body, buttons, check) {
  const box = $("dialog");
  dialogCheck = check || null;
  $("dialog-title").textContent = title;
  $("dialog-body").replaceChildren(...(body || []));
  $("dialog-error").textContent = "";
  $("dialog-buttons").replaceChildren(...buttons.map(([label, cls, then]) => el("button", {
    type: "button", class: cls || "", text: label,
    on: async (event) => {
      for (const b of $("dialog-buttons").children) b.disabled = true;  // one answer per question
      const keep = then ? await then() : false;
      for (const b of $("dialog-buttons").children) b.disabled = false;
      if (!keep) { dialogCheck = null; box.close(); }
    },
  })));
  if (!box.open) box.showModal();
}

function closeDialog() { if ($("dialog").open) $("dialog").close(); }

// The same game as when the question was asked (a new game closes it).
function sameGame(asked) { return (now) => now.connected && now.game_id === asked.game_id && now.game.id === asked.game.id; }

function confirm(question, then, danger, check) {
  dialog(question, [], [[t("no"), "", null], [t("yes"), danger ? "danger" : "primary", async () => { await then(); }]], check);
}

function pick(title, options, then, check) {
  // options: [value, label]; a tap on one answers at once
  const grid = el("div", { class: "choices" }, ...options.map(([value, label]) => el("button", {
    type: "button", id: "pick-" + String(value).replace(/[^\w-]/g, "_"), text: label,
    on: () => { closeDialog(); then(value); },
  })));
  dialog(title, [grid], [[t("cancel"), "", null]], check);
}

function pickTag(title, pieces, controls, then, check) {
  const body = tagGroups(pieces, controls, (tag) => { closeDialog(); then(tag); }, "pick-");
  dialog(title, body, [[t("cancel"), "", null]], check);
}

// -- the actions ------------------------------------------------------------------------------------

// Undo names the event it takes back (the last accepted one) and sends its count: the table refuses it if it
// moved on; the question closes as soon as a snapshot shows another event to take back.
function onUndo() {
  const offer = snap.undo;
  if (!offer) { toast(t("nothing_to_undo"), "refused"); return; }
  confirm(t("q_undo", { event: offer.event }), () => act("undo", { at: offer.at }), true,
    (now) => Boolean(now.undo) && now.undo.at === offer.at && now.undo.event === offer.event && sameGame(snap)(now));
}

function onReveal() {
  if (reveal) { reveal = false; connect(); return; }
  confirm(t("q_reveal"), () => { reveal = true; connect(); }, true);
}

function onMove() {
  const game = snap.game;
  const same = sameGame(snap);
  pickTag(t("which_piece"), game.pieces, [], (piece) =>
    pick(t("where_to", { piece }), game.destinations, (to) => act("move", { piece, to }), same), same);
}

function onTapFor() {
  const game = snap.game;
  const same = sameGame(snap);
  pick(t("which_reader"), game.readers.map((r) => [r, r]), (reader) =>
    pickTag(t("which_tag", { reader }), game.pieces, game.controls, (tag) => act("tap_for", { reader, tag }), same),
  same);
}

function onGameActions() {
  const game = snap.game;
  if (!game.actions.length) { toast(t("no_actions")); return; }
  const same = sameGame(snap);
  pick(t("which_action"), game.actions.map((a) => [a.action, a.label]), (name) => {
    const action = game.actions.find((a) => a.action === name);
    askParams(action, [...action.params], {}, same);
  }, same);
}

// A game action's parameters, asked by touch; then always a confirmation naming it (a penalty is not one
// stray tap away), checked against every snapshot until answered.
function askParams(action, todo, params, same) {
  if (!todo.length) {
    const question = "seat" in params ? t("q_send_seat", { action: action.label, seat: params.seat })
      : t("q_send", { action: action.label });
    confirm(question, () => act("referee", { action: action.action, params }), true, same);
    return;
  }
  const [param, ...rest] = todo;
  const next = (name, value) => askParams(action, rest, { ...params, [name]: value }, same);
  if (param === "seat") {
    const seats = Array.from({ length: snap.game.seats }, (_, i) => [i + 1, `${i + 1}`]);
    pick(t("which_seat", { action: action.label }), seats, (seat) => next("seat", seat), same);
  } else if (param === "piece") {
    pickTag(t("which_piece"), snap.game.pieces, [], (piece) => next("piece", piece), same);
  } else {
    const [name, choices] = param.split("=");
    pick(t("which_choice", { action: action.label, name }), (choices || "").split("|").filter(Boolean).map((c) => [c, c]),
      (v) => next(name, v), same);
  }
}

function onEnd() {
  const same = sameGame(snap);
  confirm(t("q_end"), () => act("end"), true, (now) => same(now) && !now.over);
}

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
    const answer = await act("new_game", { setup });
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
        type: "button", class: choice === value ? "on" : "", "data-value": JSON.stringify(choice),
        text: (key.labels || {})[String(choice)] || String(choice), "aria-pressed": String(choice === value),
        id: `key-${key.name}-${choice}`,
        on: (event) => {
          for (const b of event.target.parentNode.children) { b.classList.remove("on"); b.setAttribute("aria-pressed", "false"); }
          event.target.classList.add("on");
          event.target.setAttribute("aria-pressed", "true");
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
  const help = el("div", { class: "help", id: `help-${key.name}`, text: key.help });
  field.setAttribute(key.choices ? "aria-labelledby" : "aria-describedby", key.choices ? `label-${key.name}` : `help-${key.name}`);
  if (key.choices) field.setAttribute("role", "group");
  return el("div", {}, el("label", { class: "key", id: `label-${key.name}`, for: "key-" + key.name, text: key.label || key.name }),
    field, help);
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
  $("b-lang").addEventListener("click", switchLanguage);
  $("vt-basket").addEventListener("click", live(() => act("tap", { reader: vtReader, tag: "basket" })));
  for (const button of $("tabs").children) button.addEventListener("click", () => showTab(button.dataset.tab));
  boot();
});
