// The leaderboard panel: the community's ladder for the table's game, asked over the page's
// own socket (the server takes the table from the page's session, never from this message).
import { el, icons } from "./games.js";

let asked = "";   // the table id and status the board was last asked for

// A new table or a change of status (the lobby, the game, its end): ask again.
export function askLadder(v, send) {
  const key = `${v.table.id}:${v.table.status}`;
  if (key === asked) return;
  asked = key;
  send({ type: "ladder" });
}

// `text`: the board as the chat's /leaderboard writes it; null: this table has none. Its
// first line is the title, then one player a line: each its own line, wrapped at a name
// too long for a phone rather than widening the page.
export function drawLadder(text, words, finished) {
  const panel = document.getElementById("ladder");
  if (!panel) return;
  if (!text) { panel.hidden = true; panel.replaceChildren(); return; }
  const [title, ...rest] = text.split("\n");
  const lines = el("div", { class: "ladder-text" },
    el("p", { class: "ladder-title" }, icons(title)),
    rest.filter(line => line.trim()).map(line => el("p", {}, icons(line))));
  const details = el("details", { class: "ladder-panel" },
    el("summary", { text: words.web_ladder || "" }), lines);
  if (finished) details.open = true;
  panel.replaceChildren(details);
  panel.hidden = false;
}
