// The panels beside the board, shared by the table, Mr. X's page and the replay: the status
// line, the reveal banner, every player's tickets, the history, the possible stations, and the
// small dialogs (which ticket, a message).

import { pieceColour } from "./board.js";

export const LETTERS = { taxi: "T", bus: "B", underground: "U", black: "K" };
export const MRX = "Mr. X";

/** A DOM element: ``h("td", {class: "x"}, "text", child)``. */
export function h(name, attrs, ...children) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

export function $(id) {
  return document.getElementById(id);
}

/** Who is to move and when, in a line. */
export function statusText(state) {
  if (state.over) return state.status.replace(/^in progress: /, "");
  const who = state.to_move === MRX ? "Mr. X" : state.to_move;
  const round = Math.max(1, state.round + (state.to_move === MRX ? 1 : 0));
  return `Round ${round} · ${who} to move`;
}

/** The next reveal in words. */
export function revealText(state) {
  if (state.next_reveal === null) return "no reveal left";
  const n = state.moves_to_reveal;
  return `next reveal: move ${state.next_reveal} (${n} move${n === 1 ? "" : "s"} away)`;
}

/** The detectives' pieces as the board draws them. */
export function pieces(state) {
  return state.detectives.map((d, i) => ({ name: d.name, at: d.at, colour: pieceColour(d.name, i),
    active: d.name === state.to_move, out: d.out }));
}

/** The banner's words for this state (or null): a reveal made in Mr. X's latest turn (either
 * leg of a double move), or one due on his next move. */
export function bannerText(state) {
  if (state.over) return state.status.replace(/^.*?: /, "").replace(/^./, (c) => c.toUpperCase());
  const seen = state.last_reveal;
  const latest = state.history.length ? state.history[state.history.length - 1] : null;
  if (seen && latest && latest.detectives.length === 0 && state.to_move !== MRX
      && seen.move > state.move - latest.mrx.length) {
    return `Mr. X shows himself at ${seen.station}!`;
  }
  if (state.to_move === MRX && state.moves_to_reveal === 1) return "Mr. X must show himself on this move";
  return null;
}

export function showBanner(node, text) {
  node.textContent = text || "";
  node.hidden = !text;
}

/** Every player's tickets, the piece to move marked. */
export function ticketTable(state) {
  const head = h("tr", {}, h("th", {}, "player"), h("th", {}, "at"), h("th", { title: "taxi" }, "T"),
    h("th", { title: "bus" }, "B"), h("th", { title: "underground" }, "U"), h("th", { title: "black" }, "K"),
    h("th", { title: "double move" }, "2X"));
  const rows = state.detectives.map((d, i) => h("tr", { class: d.name === state.to_move ? "to-move" : null },
    h("td", {}, h("span", { class: "dot", "data-colour": pieceColour(d.name, i) }), d.name + (d.out ? " (out)" : "")),
    h("td", {}, d.at), h("td", {}, d.tickets.taxi), h("td", {}, d.tickets.bus), h("td", {}, d.tickets.underground),
    h("td", {}, ""), h("td", {}, "")));
  const t = state.mrx.tickets;
  const at = state.mrx.at !== undefined && state.mrx.at !== null ? state.mrx.at : "?";
  rows.push(h("tr", { class: state.to_move === MRX ? "to-move" : null }, h("td", {}, "Mr. X"), h("td", {}, at),
    h("td", {}, t.taxi), h("td", {}, t.bus), h("td", {}, t.underground), h("td", {}, t.black), h("td", {}, t.double)));
  const table = h("table", { class: "tickets" }, h("thead", {}, head), h("tbody", {}, rows));
  for (const dot of table.querySelectorAll(".dot")) dot.style.background = dot.getAttribute("data-colour");
  return table;
}

function hopText(hop) {
  const shown = hop.took ? ` show ${hop.took.from} ${LETTERS[hop.took.ticket]}` : "";
  return LETTERS[hop.ticket] + (hop.to !== null && hop.to !== undefined ? ` ${hop.to}` : "") + shown;
}

/** Mr. X's turn in the notation's words (``T``, ``U 46``, ``2X T/K``, ``-``). */
export function mrxText(hops) {
  if (!hops.length) return "-";
  return hops.length === 2 ? `2X ${hops.map(hopText).join("/")}` : hopText(hops[0]);
}

/** The rounds so far, a row each: Mr. X's ticket (his station where shown) and each detective's move. */
export function historyTable(state, history) {
  const names = state.detectives.map((d) => d.name);
  const rows = (history || state.history).map((r) => {
    const moved = new Map(r.detectives.map((d) => [d.name, `${LETTERS[d.ticket]} ${d.to}${d.capture ? "!" : ""}`]));
    const reveal = r.mrx.some((m, j) => state.reveal_moves.includes(countBefore(history || state.history, r.round) + j + 1));
    return h("tr", { class: reveal ? "reveal" : null }, h("td", {}, r.round), h("td", { class: "mrx-cell" }, mrxText(r.mrx)),
      names.map((n) => h("td", {}, moved.get(n) || "")));
  });
  return h("table", { class: "history" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Mr. X"),
    names.map((n) => h("th", {}, n)))), h("tbody", {}, rows.reverse()));
}

function countBefore(history, round) {
  let n = 0;
  for (const r of history) { if (r.round >= round) break; n += r.mrx.length; }
  return n;
}

/** The possible stations, most likely first. */
export function possibleList(possible, top = 12) {
  if (!possible.length) return h("p", {}, "nowhere: the record rules every station out");
  const items = possible.slice(0, top).map(([s, p]) => h("li", {}, h("b", {}, s), ` ${(p * 100).toFixed(p < 0.1 ? 1 : 0)}%`));
  const more = possible.length > top ? h("li", { class: "more" }, `… and ${possible.length - top} more`) : null;
  return h("ol", { class: "possible-list" }, items, more);
}

let toastTimer = null;

/** A message for a few seconds (``kind``: "error" or "info"). */
export function toast(message, kind = "info") {
  const node = $("toast");
  node.textContent = message;
  node.className = `toast ${kind}`;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { node.hidden = true; }, kind === "error" ? 6000 : 3000);
}

/** Ask which of ``tickets`` to use (a dialog); resolves to the ticket or null (cancelled). */
export function chooseTicket(title, tickets) {
  return choose(title, tickets.map((t) => ({ value: t, label: t, attrs: { class: `ticket ticket-${t}`, "data-ticket": t } })));
}

/** A voluntary reveal: ask which ticket Mr. X takes (``take``: ``[{from, tickets}]``); ``{from, ticket}`` or null. */
export function chooseTake(title, take) {
  return choose(title, take.flatMap((d) => d.tickets.map((t) => ({ value: { from: d.from, ticket: t },
    label: `${d.from}'s ${t}`, attrs: { class: `ticket ticket-${t}`, "data-from": d.from, "data-ticket": t } }))));
}

/** Ask for one of ``options`` (``{value, label, attrs}``, a button each); resolves to its value or null. */
export function choose(title, options) {
  return new Promise((resolve) => {
    const dialog = $("chooser");
    const close = (value) => { dialog.hidden = true; dialog.replaceChildren(); resolve(value); };
    dialog.replaceChildren(h("div", { class: "chooser-box", role: "dialog", "aria-label": title },
      h("p", {}, title),
      h("div", { class: "chooser-buttons" }, options.map((o) => h("button", { ...o.attrs, onclick: () => close(o.value) },
        o.label))),
      h("button", { class: "cancel", onclick: () => close(null) }, "cancel")));
    dialog.hidden = false;
    const first = dialog.querySelector("button");
    if (first) first.focus();
  });
}

/** The link indicator: live, or reconnecting. */
export function showLink(up) {
  const node = $("link");
  node.textContent = up ? "live" : "reconnecting…";
  node.className = up ? "link up" : "link down";
}
