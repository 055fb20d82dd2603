// The table's page: one websocket, the seat's view drawn on every push, moves sent as the
// text a chat player types. Nothing is loaded from another origin.
import { el, fill, icon, icons, look, moveLabel, plainName, SEAT_COLOURS } from "./games.js";
import { askLadder, drawLadder } from "./board.js";

const $ = id => document.getElementById(id);
const launch = new URLSearchParams(location.hash.slice(1));
const tg = window.Telegram && window.Telegram.WebApp;
let ref = decodeURIComponent((location.pathname.match(/^\/t\/([^/]+)/) || [])[1] || "");
let words = {};
let view = null;          // the last view received
let selected = [];        // indexes into the hand
let socket = null;
let retry = 0;
let stopped = false;      // refused: no reconnecting
let deadlineAt = null;    // performance.now() when the turn's deadline falls
let received = 0;         // frames received (tests read it)

// --- Telegram: theme colours and launch data, with or without Telegram's script --------------

function theme() {
  let params = tg && tg.themeParams;
  if (!params || !Object.keys(params).length) {
    try { params = JSON.parse(launch.get("tgWebAppThemeParams") || "null"); } catch { params = null; }
  }
  if (!params) return;
  const names = { bg_color: "--bg", text_color: "--text", hint_color: "--hint", link_color: "--link",
    button_color: "--button", button_text_color: "--button-text", secondary_bg_color: "--secondary-bg" };
  const root = document.documentElement;
  for (const [key, name] of Object.entries(names)) {
    if (/^#[0-9a-fA-F]{3,8}$/.test(params[key] || "")) root.style.setProperty(name, params[key]);
  }
  root.classList.add("themed");
}

function telegramEvent(type) {
  const data = JSON.stringify({ eventType: type, eventData: {} });
  if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, "{}");
  else if (window.parent !== window) window.parent.postMessage(data, "https://web.telegram.org");
}

async function login() {
  const initData = (tg && tg.initData) || launch.get("tgWebAppData");
  if (!initData || sessionStorage.getItem("tapis-launched") === initData) return true;
  const answer = await fetch("/api/telegram", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ initData }), credentials: "same-origin" });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) { refused(body.text || "…"); return false; }
  sessionStorage.setItem("tapis-launched", initData);
  if (body.ref && !ref) { ref = body.ref; history.replaceState(null, "", `/t/${encodeURIComponent(ref)}`); }
  return true;
}

// --- the connection --------------------------------------------------------------------------

function connect() {
  if (stopped) return;
  status(words.web_connecting || "…");
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { retry = 0; socket.send(JSON.stringify({ type: "open", ref })); };
  socket.onmessage = event => {
    received += 1;
    document.body.dataset.frames = String(received);
    const data = JSON.parse(event.data);
    if (data.type === "view") { status(""); show(data); }
    else if (data.type === "reply") { $("refusal").textContent = data.ok ? "" : data.text; }
    else if (data.type === "refused") { refused(data.text); }
    else if (data.type === "ladder") { drawLadder(data.text, words, view && !["lobby", "playing"].includes(view.table.status)); }
    else if (data.type === "choose") { status(""); words = data.words || words; choose(data.games); }
  };
  socket.onclose = () => {
    socket = null;
    if (stopped) return;
    status(words.web_reconnecting || "…");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** (retry - 1));   // 0.25 s, then longer, at most 8 s
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function play(text) {
  $("refusal").textContent = "";
  selected = [];
  send({ type: "play", text });
}

function status(text) { $("status").textContent = text; }

function refused(text) {
  stopped = true;
  status("");
  $("refusal").textContent = text;
  document.body.dataset.refused = "1";
}

// --- drawing -----------------------------------------------------------------------------------

function show(data) {
  const fresh = !view || view.table.version !== data.table.version || view.table.id !== data.table.id;
  view = data;
  words = data.words || words;
  if (fresh) selected = [];
  document.documentElement.lang = data.lang || "en";
  deadlineAt = data.deadline_in === null || data.deadline_in === undefined ? null : performance.now() + data.deadline_in * 1000;
  document.body.dataset.version = String(data.table.version);
  document.body.dataset.status = data.table.status;
  draw();
  askLadder(data, send);
}

function names() {
  return [...view.seats.map(s => plainName(s.name)), ...(view.extra_names || [])];
}

function draw() {
  const v = view, g = look(v.table.game), state = v.view || {};
  const who = names();
  $("title").textContent = v.table.title && v.table.title !== "web" ? `${v.table.name} · ${v.table.title}` : v.table.name;
  drawTurn();
  const moves = v.moves || [];
  const hand = state.hand || [];
  const picked = selected.map(i => hand[i]);
  const matching = moves.filter(m => g.fits(m, picked));
  const ctx = {
    words, play,
    pileTarget: pile => {
      if (!picked.length) return null;
      const exact = matching.find(m => m.cards.length === picked.length && m.text.split(" ").pop() === pile);
      return exact ? exact.text : null;
    },
  };
  $("board").replaceChildren(...(v.view ? g.board(state, who, ctx).filter(Boolean) : []));
  if (v.table.status === "lobby") status(words.web_lobby || "");
  // seats and scores
  const scores = state.scores || [];
  $("seats").replaceChildren(...who.map((name, i) => el("div", {
      class: `seat${(v.to_act || []).includes(i) ? " acting" : ""}${i === v.seat ? " you" : ""}`, "data-seat": String(i) },
    el("span", { class: "dot", style: `background:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` }),
    el("span", {}, (view.seats[i] || {}).bot ? icon("🤖") : null, name),
    state.hand_sizes && state.hand_sizes[i] !== undefined ? el("span", { class: "count", title: words.web_hand_size || "" }, el("span", { class: "mini" }), String(state.hand_sizes[i])) : null,
    scores[i] !== undefined ? el("span", { class: "score", text: String(scores[i]) }) : null)));
  // the hand
  const usable = card => moves.some(m => g.uses(m, card));
  const anyUsable = hand.some(usable);
  $("hand").replaceChildren(...hand.map((card, i) => {
    const face = g.card(String(card));
    const button = el("button", { class: "card-slot", type: "button", "data-card": String(card), "aria-pressed": String(selected.includes(i)),
      onclick: () => tap(i) }, face);
    face.classList.add(...[usable(card) ? "playable" : anyUsable ? "dim" : null,
      selected.includes(i) ? "selected" : null].filter(Boolean));
    return button;
  }));
  $("hand").setAttribute("aria-label", words.web_hand || "");
  // the moves that fit the cards picked
  let shown;
  if (picked.length) shown = matching;
  else shown = moves.length <= 12 ? moves : moves.filter(m => !m.cards.length);
  $("hint").textContent = moves.length && !picked.length && shown.length < moves.length ? words.web_pick || "" : "";
  $("moves").replaceChildren(...shown.slice(0, 60).map(m => el("button", {
    class: `move${m.cards.length ? "" : " secondary"}`, type: "button", "data-move": m.text, onclick: () => play(m.text),
    text: m.label || moveLabel(v.table.game, m.text) })));
  if (v.can_join) {
    $("moves").append(el("button", { type: "button", class: "move", id: "join", text: words.web_join || "",
      onclick: () => send({ type: "join" }) }));
  }
  if (v.games) {
    $("moves").append(el("button", { type: "button", class: "move", id: "again", text: words.web_new_game || "",
      onclick: () => { view = null; choose(v.games); } }));
  }
  drawTalk(v);
  drawLog(v, who, g);
}

function drawTurn() {
  const v = view;
  const turn = $("turn");
  if (v.table.status !== "playing") { turn.textContent = v.outcome ? words.table_over || "" : ""; turn.className = "turn"; return; }
  const mine = v.seat !== null && (v.to_act || []).includes(v.seat);
  const acting = (v.to_act || []).map(i => names()[i]).join(", ");
  turn.className = `turn${mine ? " mine" : ""}`;
  turn.replaceChildren(mine ? words.web_your_turn || "" : fill(words.web_waiting, { names: acting }),
    el("span", { class: "clock", id: "clock" }));
  tick();
}

function tick() {
  const clock = $("clock");
  if (!clock) return;
  if (deadlineAt === null) { clock.textContent = ""; return; }
  const left = Math.max(0, Math.ceil((deadlineAt - performance.now()) / 1000));
  clock.textContent = fill(words.web_seconds, { seconds: left });
}

function drawTalk(v) {
  // The Game's signals: any seat, at any time, typed in chat as `signal A1 stop`.
  const talk = $("talk");
  if (v.table.game !== "the-game" || v.seat === null || v.table.status !== "playing" || !v.view) { talk.replaceChildren(); return; }
  const mine = pile => ((v.view.signals || {})[pile] || [])[v.seat];
  talk.replaceChildren(el("strong", { text: words.web_signals || "" }),
    ...Object.keys(v.view.piles || {}).map(pile => el("span", { class: "pile-talk" }, el("b", { text: pile }),
      ...[["stop", icon("✋"), words.web_signal_stop], ["small", "⚠", words.web_signal_small], ["off", "↩", words.web_signal_off]]
        .filter(([kind]) => kind === "off" ? mine(pile) : mine(pile) !== kind)
        .map(([kind, mark, title]) => el("button", { type: "button", title, "aria-label": `${pile} ${title}`,
          "data-signal": `${pile} ${kind}`, onclick: () => play(`signal ${pile} ${kind}`) }, mark)))));
}

function drawLog(v, who, g) {
  const parts = [];
  if (v.outcome) {
    const order = v.outcome.ranking.map((place, seat) => [place, seat]).sort((a, b) => a[0] - b[0]);
    parts.push(el("h2", { text: words.web_ranking || "" }), el("ol", {}, order.map(([place, seat]) =>
      el("li", {}, icons(`${who[seat] || ""} · ${v.outcome.scores[seat]}`)))));
  }
  if (v.replay) parts.push(el("p", {}, el("a", { id: "replay", href: v.replay, text: words.web_replay_open || "" })));
  if (v.hands) {
    parts.push(...v.hands.map((cards, seat) => cards && cards.length ? el("div", { class: "placed", "data-hand-of": String(seat) },
      el("span", { class: "count", text: `${who[seat]}:` }), cards.map(c => g.card(String(c), true))) : null).filter(Boolean));
  }
  for (const text of v.said || []) parts.push(el("div", { class: "said" }, icons(text)));
  if ((v.last || []).length) {
    parts.push(el("h2", { text: (words.table_last || "").replace(/:$/, "") }), el("ul", {}, v.last.map(line => el("li", {}, icons(line)))));
  }
  $("log").replaceChildren(...parts);
}

function tap(i) {
  const hand = (view.view && view.view.hand) || [];
  const moves = view.moves || [];
  const g = look(view.table.game);
  if (selected.includes(i)) selected = selected.filter(j => j !== i);
  else {
    const next = [...selected, i].map(j => hand[j]);
    // A card that fits no move with those already picked starts a new pick.
    selected = moves.some(m => g.fits(m, next)) ? [...selected, i] : [i];
  }
  $("refusal").textContent = "";
  draw();
}

// --- a new table (python -m bot --web) ------------------------------------------------------

function choose(games) {
  $("title").textContent = "Tapis";
  $("turn").textContent = "";
  for (const id of ["board", "seats", "hand", "moves", "talk", "log"]) $(id).replaceChildren();
  const game = el("select", { id: "game", name: "game" }, games.map(g => el("option", { value: g.id, text: g.name })));
  const bots = el("input", { id: "bots", name: "bots", type: "number", min: "0", max: "11", value: "2" });
  const options = el("input", { id: "options", name: "options", type: "text", autocomplete: "off" });
  const start = el("button", { type: "submit", id: "start", class: "primary", text: words.web_new_game || "OK" });
  const form = el("form", { class: "form", onsubmit: event => {
    event.preventDefault();
    send({ type: "new", game: game.value, bots: Number(bots.value), options: options.value });
  } }, el("label", {}, words.web_game || "", game), el("label", {}, words.web_bots || "", bots),
    el("label", {}, words.web_options || "", options), start);
  $("board").replaceChildren();
  $("hint").replaceChildren(form);
}

theme();
telegramEvent("web_app_ready");
setInterval(tick, 1000);
login().then(ok => { if (ok) connect(); });
window.tapis = { frames: () => received, view: () => view };
