// One look per game: how a card is drawn and what the table in the middle shows.
// Everything is built with DOM calls from the view the server sent; no HTML strings.

export const SEAT_COLOURS = ["#d9534f", "#2b7bd6", "#e0a526", "#8e44ad", "#16a085", "#e67e22", "#5d6d7e", "#c2185b",
  "#7cb342", "#00838f", "#6d4c41", "#3949ab"];

export function el(tag, attrs = {}, ...children) {
  const node = tag === "svg" || attrs.svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "svg" || value === undefined || value === null || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    // Through the CSSOM: the page's policy forbids style attributes written as markup.
    else if (key === "style") node.style.cssText = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function svg(tag, attrs, ...children) { return el(tag, { ...attrs, svg: true }, ...children); }

// --- emoji, drawn ------------------------------------------------------------------------
// The chat's sentences and bot names carry emoji, which a browser without an emoji font (a
// bare Debian, many Linux desktops) draws as empty boxes: the page draws the ones Tapis
// writes itself, and keeps the character for copying and for screen readers (its title).
const EMOJI = /(\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1F0A0}-\u{1F0FF}])(\uFE0F|\u200D\p{Extended_Pictographic}\uFE0F?)*/gu;
const DRAWN = {
  "🤖": () => [svg("rect", { x: "5", y: "8", width: "14", height: "11", rx: "3", fill: "currentColor" }),
    svg("path", { d: "M12 8V4", stroke: "currentColor", "stroke-width": "2" }), svg("circle", { cx: "12", cy: "3.5", r: "1.6", fill: "currentColor" }),
    svg("circle", { cx: "9.3", cy: "13", r: "1.7", fill: "var(--bg, #fff)" }), svg("circle", { cx: "14.7", cy: "13", r: "1.7", fill: "var(--bg, #fff)" }),
    svg("path", { d: "M3 12v4M21 12v4", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" })],
  "🏆": () => [svg("path", { d: "M7 3h10v2h3v3a4 4 0 0 1-4 4h-.4A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.4 12H8a4 4 0 0 1-4-4V5h3zM6 7v1a2 2 0 0 0 2 2V7zm10 0v3a2 2 0 0 0 2-2V7z", fill: "#c9961a" })],
  "💰": () => [svg("circle", { cx: "12", cy: "12", r: "9", fill: "#e0a526", stroke: "#9a6f12", "stroke-width": "1.5" }),
    svg("circle", { cx: "12", cy: "12", r: "5", fill: "none", stroke: "#9a6f12", "stroke-width": "1.2" })],
  "🏁": () => [svg("path", { d: "M5 21V3", stroke: "currentColor", "stroke-width": "2" }), svg("rect", { x: "6", y: "4", width: "14", height: "9", fill: "#fff", stroke: "currentColor" }),
    svg("path", { d: "M6 4h3.5v3H6zM13 4h3.5v3H13zM9.5 7H13v3H9.5zM16.5 7H20v3h-3.5zM6 10h3.5v3H6zM13 10h3.5v3H13z", fill: "currentColor" })],
  "🎉": () => [svg("path", { d: "M3 21l5-13 8 8z", fill: "#e0a526" }), svg("circle", { cx: "16", cy: "5", r: "1.5", fill: "#d9534f" }),
    svg("circle", { cx: "20", cy: "10", r: "1.5", fill: "#2b7bd6" }), svg("circle", { cx: "11", cy: "4", r: "1.2", fill: "#16a085" }),
    svg("path", { d: "M14 9l4-4M15 12l5-1", stroke: "#8e44ad", "stroke-width": "1.5" })],
  "🃏": () => card(),
  "🂠": () => card(),
  "✋": () => [svg("path", { d: "M7 12V6.5a1.5 1.5 0 0 1 3 0V11V4.5a1.5 1.5 0 0 1 3 0V11V5.5a1.5 1.5 0 0 1 3 0V12V8.5a1.5 1.5 0 0 1 3 0V15a7 7 0 0 1-7 7h-1a6 6 0 0 1-5-2.7L3.6 15a1.5 1.5 0 0 1 2.4-1.8z", fill: "currentColor" })],
  "👀": () => [svg("ellipse", { cx: "7", cy: "12", rx: "4.5", ry: "6", fill: "#fff", stroke: "currentColor", "stroke-width": "1.5" }),
    svg("ellipse", { cx: "17", cy: "12", rx: "4.5", ry: "6", fill: "#fff", stroke: "currentColor", "stroke-width": "1.5" }),
    svg("circle", { cx: "8", cy: "13", r: "2", fill: "currentColor" }), svg("circle", { cx: "18", cy: "13", r: "2", fill: "currentColor" })],
};

function card() {
  return [svg("rect", { x: "5", y: "3", width: "14", height: "18", rx: "2.5", fill: "#fffdf8", stroke: "currentColor", "stroke-width": "1.5" }),
    svg("path", { d: "M12 8l3 4-3 4-3-4z", fill: "#c62828" })];
}

// One emoji as a drawing, or null for one Tapis does not write (the character then stays).
export function icon(emoji) {
  const plain = emoji.replace(/\uFE0F/g, "");
  if (plain === "🐴" || plain === "🐂") {
    const drawn = animal(plain === "🐴" ? "D" : "O");
    drawn.setAttribute("class", "icon");
    drawn.setAttribute("role", "img");
    drawn.setAttribute("aria-label", emoji);
    drawn.removeAttribute("aria-hidden");
    drawn.prepend(svg("title", { text: emoji }));
    return drawn;
  }
  const shape = DRAWN[plain];
  if (!shape) return null;
  return svg("svg", { viewBox: "0 0 24 24", class: "icon", role: "img", "aria-label": emoji },
    svg("title", { text: emoji }), ...shape());
}

// `text` with the emoji Tapis writes drawn: nodes to append to an element.
export function icons(text) {
  const out = [];
  let from = 0;
  for (const found of String(text).matchAll(EMOJI)) {
    const drawn = icon(found[0]);
    if (!drawn) continue;
    if (found.index > from) out.push(text.slice(from, found.index));
    out.push(drawn);
    from = found.index + found[0].length;
  }
  if (from < String(text).length) out.push(String(text).slice(from));
  return out;
}

// A number's corners, the lower one upside down: 6 and 9 underlined, as printed cards do.
function corners(text) {
  const cls = /^[0-9]+$/.test(text) && /[69]/.test(text) ? " turnable" : "";
  return [el("span", { class: `corner${cls}`, text }), el("span", { class: `corner low${cls}`, text })];
}

// --- Ochs & Esel ---------------------------------------------------------------------------

function animal(kind) {
  // A donkey's long ears or an ox's horns over a head: drawn, not an emoji the font may lack.
  const head = kind === "D"
    ? [svg("path", { d: "M9 4 L12 14 L15 14 Z M21 4 L18 14 L15 14 Z", fill: "currentColor" })]
    : [svg("path", { d: "M3 9 Q6 3 11 10 M27 9 Q24 3 19 10", stroke: "currentColor", "stroke-width": "2.5", fill: "none" })];
  return svg("svg", { viewBox: "0 0 30 30", "aria-hidden": "true" }, ...head,
    svg("ellipse", { cx: "15", cy: "19", rx: "7", ry: "9", fill: "currentColor" }),
    svg("circle", { cx: "12", cy: "17", r: "1.3", fill: "#fff" }),
    svg("circle", { cx: "18", cy: "17", r: "1.3", fill: "#fff" }));
}

function oeCard(card, small) {
  const cls = small ? "card small" : "card";
  if (card === "J") return el("span", { class: `${cls} oe-joker`, title: "Joker" }, el("span", { class: "corner", text: "J" }), "★");
  if (card === "D") return el("span", { class: `${cls} oe-donkey oe-animal`, title: "Esel" }, animal("D"), small ? "" : "Esel");
  if (card === "O") return el("span", { class: `${cls} oe-ox oe-animal`, title: "Ochs" }, animal("O"), small ? "" : "Ochs");
  const n = Number(card);
  const hue = Math.round((n - 1) * 330 / 13);
  const face = el("span", { class: cls, style: `color:hsl(${hue} 65% 35%);background:linear-gradient(160deg,var(--card) 60%,hsl(${hue} 70% 88%))` },
    corners(card)[0], card, corners(card)[1]);
  return face;
}

function oeBoard(v, names, ctx) {
  const trick = v.trick || {};
  const plays = el("div", { class: "trick" }, (trick.plays || []).map(play => el("figure", {},
    el("div", { class: "placed" }, play.cards.map(c => oeCard(c, true))),
    el("figcaption", { text: names[play.seat] || "" }))));
  const animals = Object.entries(v.animals || {}).map(([kind, where]) => {
    const holder = where.seat !== undefined && where.seat !== null ? names[where.seat] : where.place;
    return el("figure", { class: "area" }, oeCard(kind, true), el("figcaption", { class: "count", text: holder || "" }));
  });
  return [
    el("div", { class: "area" }, el("div", { class: "label", text: fill(ctx.words.web_round, { round: v.round, rounds: v.rounds }) }), plays),
    animals.length ? el("div", { class: "trick" }, animals) : null,
  ];
}

// --- The Game --------------------------------------------------------------------------------

function tgCard(card, small) {
  const n = Number(card);
  // Low cards cool, high cards warm: a glance tells where a card belongs.
  const hue = Math.round(220 - (n / 100) * 220);
  return el("span", { class: `card tg-card${small ? " small" : ""}`,
    style: `color:hsl(${hue} 70% 30%);background:linear-gradient(170deg,var(--card) 55%,hsl(${hue} 75% 86%))` },
    corners(card)[0], card, corners(card)[1]);
}

const MARKS = { stop: "✋", small: "⚠" };  // drawn by `icons`

function tgBoard(v, names, ctx) {
  const piles = Object.entries(v.piles || {}).map(([pile, top]) => {
    const up = pile.startsWith("A");
    const target = ctx.pileTarget(pile);
    const marks = ((v.signals || {})[pile] || []).map((mark, seat) => mark ? `${MARKS[mark] || mark} ${names[seat] || ""}` : null).filter(Boolean);
    return el(target ? "button" : "div", { class: `pile${target ? " target" : ""}`, "data-pile": pile, onclick: target ? () => ctx.play(target) : null },
      el("span", { class: "dir", title: ctx.words[up ? "web_pile_up" : "web_pile_down"] || "", text: `${pile} ${up ? "↑" : "↓"}` }),
      tgCard(String(top)),
      el("div", { class: "marks" }, icons(marks.join(" · "))));
  });
  return [...piles, el("div", { class: "draw" }, el("span", { class: "card back small" }),
    el("div", { class: "count", title: fill(ctx.words.web_draw_pile, { count: v.draw_size }), text: String(v.draw_size) }))];
}

// --- Nix für Ungut -------------------------------------------------------------------------

function nixCard(card, small) {
  if (card === "J") return el("span", { class: `card nix-card nix-joker${small ? " small" : ""}` }, el("span", { class: "corner", text: "J" }), "★");
  const n = Number(card);
  const hue = [0, 12, 35, 55, 130, 190, 230, 280][n] || 0;
  return el("span", { class: `card nix-card${small ? " small" : ""}`, style: `color:hsl(${hue} 70% 32%)` },
    corners(card)[0], card, corners(card)[1]);
}

function chip(seat, isSuper, names) {
  return el("span", { class: `chip${isSuper ? " super" : ""}`, style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`,
    title: `${names[seat] || ""}${isSuper ? " ★" : ""}`, text: isSuper ? "★" : "" });
}

function nixBoard(v, names, ctx) {
  const rows = Object.entries(v.board || {}).map(([row, places]) => el("tr", {},
    el("th", { text: ctx.words[`nix.row.${row}`] || row, title: ctx.words[`nix.rowname.${row}`] || "" }),
    places.map((place, i) => el("td", {}, place ? chip(place.seat, place.super, names)
      : el("span", { class: "val", text: String(((v.board_values || {})[row] || [])[i] ?? "") })))));
  const turn = v.turn;
  const placed = (v.placed || []).filter(p => p.turn === turn).map(p => el("figure", { class: "area" },
    el("div", { class: "placed" }, p.cards.map(c => nixCard(c, true)), p.super ? chip(p.seat, true, names) : null),
    el("figcaption", { class: "count", text: `${names[p.seat] || ""} · ${p.row}` })));
  return [el("table", { class: "nix" }, el("tbody", {}, rows)),
    el("div", { class: "area" }, el("div", { class: "label", text: fill(ctx.words.web_round, { round: v.round, rounds: v.rounds }) }), el("div", { class: "trick" }, placed))];
}

// --- Michigan ----------------------------------------------------------------------------------

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function miCard(card, small) {
  const suit = card.slice(-1), rank = card.slice(0, -1);
  return el("span", { class: `card mi-card suit-${suit}${small ? " small" : ""}`, title: card },
    el("span", { class: "corner", text: `${rank}${SUITS[suit] || suit}` }),
    el("span", { class: "pip", text: small ? `${rank}${SUITS[suit] || ""}` : (SUITS[suit] || suit) }),
    el("span", { class: "corner low", text: `${rank}${SUITS[suit] || suit}` }));
}

function miBoard(v, names, ctx) {
  const pay = el("div", { class: "area" }, el("div", { class: "label", text: ctx.words.web_pay_cards || "" }),
    el("div", { class: "pay" }, (v.pay_cards || []).map(([card, chips]) => el("figure", {}, miCard(card, true),
      el("figcaption", {}, el("span", { class: "chip", style: "background:#e0a526" }), ` ${chips}`)))));
  const played = el("div", { class: "trick" }, (v.sequence || []).slice(-8).map(([seat, card]) => el("figure", {},
    miCard(card, true), el("figcaption", { text: names[seat] || "" }))));
  const info = [fill(ctx.words.web_round, { round: v.deal, rounds: v.deals })];
  if (v.suit) info.push(SUITS[v.suit] || v.suit);
  if (v.auction && v.auction.high_bid) info.push(`${v.auction.high_bid} → ${names[v.auction.high_bidder] || ""}`);
  return [pay, el("div", { class: "area" }, el("div", { class: "label", text: info.join(" · ") }), played)];
}

// --- the table of games ------------------------------------------------------------------------

// Whether a move plays the cards picked: they are among its cards. In Michigan a lead
// names a suit (its lowest card is played): a card picks the lead of its suit.
function contains(cards, wanted) {
  const left = [...cards];
  for (const card of wanted) {
    const at = left.indexOf(String(card));
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

function leadFits(move, picked) {
  const lead = move.text.match(/^lead ([SHDC])$/);
  if (!picked.length) return true;
  return lead ? picked.every(card => String(card).slice(-1) === lead[1]) : contains(move.cards, picked);
}

const LOOKS = {
  "ochs-esel": { card: oeCard, board: oeBoard },
  "the-game": { card: tgCard, board: tgBoard },
  "nix-fur-ungut": { card: nixCard, board: nixBoard },
  "michigan": { card: miCard, board: miBoard, fits: leadFits,
    uses: (move, card) => move.text === `lead ${String(card).slice(-1)}` },
};

const DEFAULT = { card: c => el("span", { class: "card", text: c }), board: () => [] };

export function look(game) {
  const found = LOOKS[game] || DEFAULT;
  return { fits: (move, picked) => contains(move.cards, picked),
    uses: (move, card) => move.cards.includes(String(card)), ...found };
}

export function fill(template, params) {
  return String(template || "").replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

// How a move reads on its button: the chat's text without "play", suits as symbols.
export function moveLabel(game, text) {
  let label = text.replace(/^play /, "");
  if (game === "michigan") label = label.replace(/\b(lead) ([SHDC])\b/, (_, w, s) => `${w} ${SUITS[s]}`);
  return label;
}

// A seat's name without the emoji its chat name starts with (a bot's robot): the page marks
// a bot with its own drawing where it lists the seats.
export function plainName(name) {
  return String(name).replace(/^(\p{Extended_Pictographic}\uFE0F?\s*)+/u, "");
}
