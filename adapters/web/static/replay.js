// A finished game's replay: every step (the deal, then each move) as the server replayed
// it from the game's move log, with every hand shown, since the game is over. The page
// only steps through what it was sent; nothing here knows a rule.
import { el, fill, icon, icons, look, moveLabel, plainName, SEAT_COLOURS } from "./games.js";

const $ = id => document.getElementById(id);
const ref = decodeURIComponent((location.pathname.match(/^\/r\/([^/]+)/) || [])[1] || "");
let data = null;
let words = {};
let at = 0;

async function load() {
  const answer = await fetch(`/api/replay/${encodeURIComponent(ref)}`, { credentials: "same-origin" })
    .catch(() => null);
  const body = answer ? await answer.json().catch(() => ({})) : {};
  if (!answer || !answer.ok || !body.ok) {
    $("status").textContent = "";
    $("refusal").textContent = body.text || "…";
    document.body.dataset.refused = "1";
    return;
  }
  data = body;
  words = data.words || {};
  document.documentElement.lang = data.lang || "en";
  const title = data.table.title && data.table.title !== "web" ? `${data.table.name} · ${data.table.title}` : data.table.name;
  $("title").textContent = `${title} · ${words.web_replay || ""}`;
  document.title = $("title").textContent;
  $("status").textContent = "";
  const slider = $("slider");
  slider.max = String(data.steps.length - 1);
  slider.setAttribute("aria-label", words.web_replay_slider || "");
  for (const [id, key, to] of [["first", "web_replay_start", () => 0], ["back", "web_replay_back", () => at - 1],
    ["forward", "web_replay_forward", () => at + 1], ["last", "web_replay_end", () => data.steps.length - 1]]) {
    const button = $(id);
    button.title = words[key] || "";
    button.setAttribute("aria-label", words[key] || "");
    button.addEventListener("click", () => go(to()));
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", key);
  $("keys").textContent = words.web_replay_keys || "";
  $("controls").hidden = false;
  const asked = Number((location.hash.match(/^#(\d+)$/) || [])[1]);
  go(Number.isInteger(asked) ? asked : 0);
}

function key(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  // The slider steps itself with the arrow keys; a second step here would skip a move.
  if (event.target === $("slider") && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: data.steps.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  go(to);
}

function go(step) {
  at = Math.max(0, Math.min(data.steps.length - 1, step));
  $("slider").value = String(at);
  $("first").disabled = $("back").disabled = at === 0;
  $("forward").disabled = $("last").disabled = at === data.steps.length - 1;
  history.replaceState(null, "", `#${at}`);
  document.body.dataset.step = String(at);
  draw();
}

function names() {
  return [...data.seats.map(s => plainName(s.name)), ...(data.extra_names || [])];
}

function draw() {
  const step = data.steps[at];
  const last = at === data.steps.length - 1;
  const g = look(data.table.game);
  const who = names();
  const v = step.view || {};
  $("counter").textContent = at === 0 ? words.web_replay_start || "" : fill(words.web_replay_step, { step: at, steps: data.steps.length - 1 });
  // What this step did, as the table told it.
  const lines = at === 0 ? [words.web_replay_deal || ""]
    : step.lines.length ? step.lines : [`${who[step.seat] || ""}: ${moveLabel(data.table.game, step.move || "")}`];
  $("said").replaceChildren(...lines.map((line, i) => el("p", {},
    i === 0 && step.seat !== null ? el("span", { class: "dot", style: `background:${SEAT_COLOURS[step.seat % SEAT_COLOURS.length]}` }) : null,
    ...icons(line))));
  const ctx = { words, play: () => {}, pileTarget: () => null };
  $("board").replaceChildren(...g.board(v, who, ctx).filter(Boolean));
  const scores = v.scores || [];
  // An automatic competitor (Monsieur Personne) is shown when this game scores it.
  $("seats").replaceChildren(...who.filter((_, i) => i < data.seats.length || scores[i] !== undefined).map((name, i) => el("div", {
      class: `seat${step.seat === i ? " acting" : ""}`, "data-seat": String(i) },
    el("span", { class: "dot", style: `background:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` }),
    el("span", {}, (data.seats[i] || {}).bot ? icon("🤖") : null, name),
    scores[i] !== undefined ? el("span", { class: "score", text: String(scores[i]) }) : null)));
  // Every hand: the game is over, nothing is hidden any more.
  $("hands").replaceChildren(el("h2", { text: words.web_replay_hands || "" }),
    ...(step.hands || []).map((cards, seat) => el("div", { class: `hand-of${step.seat === seat ? " mover" : ""}`, "data-hand-of": String(seat) },
      el("span", { class: "who" }, el("span", { class: "dot", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}` }),
        `${who[seat] || ""} · ${(cards || []).length}`),
      el("div", { class: "cards" }, (cards || []).length ? cards.map(c => g.card(String(c), true)) : el("span", { class: "none", text: "—" })))),
    // Michigan's extra hand while it is nobody's, then the hand out of play: no seat saw
    // them during the game, and a replay hides nothing.
    ...[["extra", words.web_replay_extra], ["out_of_play", words.web_replay_out_of_play]]
      .filter(([kind]) => (step[kind] || []).length)
      .map(([kind, label]) => el("div", { class: "hand-of unseen", "data-hand-of": kind },
        el("span", { class: "who", text: `${label || ""} · ${step[kind].length}` }),
        el("div", { class: "cards" }, step[kind].map(c => g.card(String(c), true))))));
  drawRounds(who);
  const outcome = data.outcome;
  // The final ranking as the channel read it (its first line says what it is).
  $("ranking").replaceChildren(...(last && outcome ? [el("ul", { id: "final" }, outcome.lines.map(line => el("li", {}, icons(line))))] : []));
}

function drawRounds(who) {
  // The score after each round ended so far; the round this step ended stands out.
  const rounds = data.rounds || [];
  if (!rounds.length) { $("rounds").replaceChildren(); return; }
  const ended = rounds.filter(r => r.step <= at);
  // A round's points beside the total they led to: "53 (+12)"; a loss keeps its minus.
  const number = p => p > 0 ? `+${p}` : p < 0 ? `−${-p}` : `±0`;
  const players = Math.min(who.length, Math.max(...rounds.map(r => r.points.length)));
  $("rounds").replaceChildren(el("h2", { text: words.web_replay_rounds || "" }), ended.length
    ? el("div", { class: "scroll" }, el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}), who.slice(0, players).map((name, i) => el("th", { title: name },
        el("span", { class: "dot", style: `background:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` }), name)))),
      el("tbody", {}, ended.map(r => el("tr", { class: r.step === at ? "just" : "", "data-round": String(r.round) },
        el("th", { text: fill(words.web_replay_round, { round: r.round }) }),
        r.points.slice(0, players).map((p, i) => el("td", {}, el("span", { class: "total", text: String(r.totals[i] ?? "") }),
          el("span", { class: "points", text: ` (${number(p)})` }))))))))
    : el("p", { class: "hint", text: words.web_replay_no_round || "" }));
}

load();
window.tapis = { replay: () => data, step: () => at };
