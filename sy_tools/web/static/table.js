// The table page: the board every player sees.  A detective's move is entered by tapping its
// piece, then one of the highlighted stations (the ticket is asked only when two fit).  What
// it shows comes from the table's state, which the server builds from the public record only.

import { Board } from "./board.js";
import { follow, getJSON, postJSON } from "./live.js";
import {
  $, MRX, bannerText, chooseTake, chooseTicket, h, historyTable, pieces, possibleList, revealText, showBanner, showLink,
  statusText, ticketTable, toast,
} from "./panels.js";

let board = null;
let state = null;
let selected = false;
let claiming = false;
let busy = false;
// Mr. X's move entered at the table (a game without his log): the hops chosen so far, whether
// it is a double move, and the hop waiting for the station he shows (at a reveal).
let entry = { hops: [], double: false, showing: null, shows: false };

function narrow() {
  return window.innerWidth < 700;
}

function detectiveToMove(s) {
  return s.detectives.find((d) => d.name === s.to_move) || null;
}

function humansMove(s) {
  return !s.over && !s.computer_turn && s.to_move !== MRX && !s.stopped;
}

function render(s) {
  const first = state === null;
  const turned = !first && (state.move !== s.move || state.to_move !== s.to_move || state.round !== s.round);
  state = s;
  selected = false;
  claiming = false;
  entry = { hops: [], double: false, showing: null, shows: false };
  $("status").textContent = statusText(s);
  $("reveal").textContent = s.over ? "" : revealText(s);
  showBanner($("banner"), bannerText(s));
  $("moment").textContent = s.moment;
  $("possible").replaceChildren(possibleList(s.possible));
  $("tickets").replaceChildren(ticketTable(s));
  $("history").replaceChildren(s.history.length ? historyTable(s) : h("p", {}, "no moves yet"));
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  for (const kind of ["advise", "cordon", "solve"]) $(kind).disabled = s.over;  // (nothing left to find)
  $("answer").hidden = true;
  board.setPossible(s.possible);
  board.setPieces(pieces(s), s.last_reveal ? { at: s.last_reveal.station, kind: "seen" } : null);
  board.setArrows([]);
  board.setRings([], "");
  turnPanel(s);
  offerPiece(s);
  if (first) frame(s);
  else if (turned) keepInView(s);
}

/** After a turn, the board shows the action (keeping the zoom): the detective to move and the
 * stations it can reach; else (Mr. X to move, the game over) where the last detective went. */
function keepInView(s) {
  const d = detectiveToMove(s);
  if (d && !d.out) { board.bringIntoView([d.at, ...s.moves.map((m) => m.to)]); return; }
  const moved = [...s.history].reverse().find((r) => r.detectives.length);
  if (moved) board.bringIntoView([moved.detectives[moved.detectives.length - 1].to]);
}

function frame(s) {
  if (!narrow()) { board.fit(); return; }
  const d = detectiveToMove(s);
  const around = d ? [d.at, ...s.moves.map((m) => m.to)] : s.possible.slice(0, 8).map((p) => p[0]);
  board.focus(around, 520, 700);
  if (d) board.bringIntoView(around);  // (a far destination too: zoomed out just enough)
}

function turnPanel(s) {
  const node = $("turn");
  if (s.stopped) { node.replaceChildren(h("p", { class: "warn" }, s.stopped)); return; }
  if (s.over) { node.replaceChildren(h("p", { class: "over" }, s.status)); return; }
  if (s.computer_turn) {
    node.replaceChildren(s.computer_error ? h("p", { class: "warn" }, s.computer_error)
      : h("p", {}, `The computer is thinking (${s.to_move})…`));
    return;
  }
  if (s.to_move === MRX && s.mrx_entry) {
    mrxEntryPanel(s);
    return;
  }
  if (s.to_move === MRX) {
    node.replaceChildren(h("p", {}, "Mr. X is moving on his own page."));
    return;
  }
  node.replaceChildren(h("p", {}, `${s.to_move} to move: tap the piece, then where it goes.`),
    h("button", { id: "select", class: "primary", onclick: () => select(true) }, `Move ${s.to_move}`),
    ...(s.claim ? [h("button", { id: "claim", "aria-pressed": String(claiming), title: "press, then move the piece "
      + "onto Mr. X: a capture, when he says so", onclick: () => { claiming = !claiming; turnPanel(state); } },
    "Caught Mr. X")] : []));  // (replaceChildren would write a null out as the text "null")
}

// A game without Mr. X's log: the table enters his move as he tells it, the ticket he shows
// (and at a reveal the station, tapped on the board).
function mrxEntryPanel(s) {
  const e = s.mrx_entry;
  const leg = entry.hops.length;
  const node = $("turn");
  if (entry.showing) {
    node.replaceChildren(h("p", {}, `Mr. X shows himself (${entry.showing.ticket}): tap the station he shows.`),
      h("button", { id: "mrx-cancel", onclick: () => render(state) }, "Cancel"));
    return;
  }
  const first = entry.hops.length ? entry.hops[0].ticket : "";
  const what = !entry.double ? "Mr. X's move: the ticket he shows"
    : leg === 0 ? "Double move: his first ticket" : `Double move: ${first}, then his second ticket`;
  const reveal = e.reveal[leg] || entry.shows ? " (a reveal: then tap his station)" : "";
  const canShow = e.show && e.show.hops[leg] && !entry.hops.some((x) => x.show);
  node.replaceChildren(h("p", {}, `${what}${reveal}.`),
    h("div", { class: "chooser-buttons mrx-entry" }, e.tickets.map((t) => h("button", {
      class: `ticket ticket-${t}`, "data-ticket": t, onclick: () => mrxTicket(t) }, t))),
    h("div", { class: "actions" },
      e.double && leg === 0 ? h("button", { id: "mrx-double", "aria-pressed": String(entry.double),
        onclick: () => { entry.double = !entry.double; mrxEntryPanel(state); } }, "Double move") : null,
      canShow ? h("button", { id: "mrx-show", "aria-pressed": String(entry.shows),
        onclick: () => { entry.shows = !entry.shows; mrxEntryPanel(state); } }, "He shows himself") : null,
      e.pass && leg === 0 ? h("button", { id: "mrx-pass", onclick: () => send("/api/mrx-move", { hops: [],
        tag: state.tag }) }, "Pass") : null));
}

async function mrxTicket(ticket) {
  const s = state;
  const leg = entry.hops.length;
  if (s.mrx_entry.reveal[leg] || entry.shows) {
    entry.showing = { ticket };
    board.setPickable([...board.at.keys()], onPick);
    mrxEntryPanel(s);
    return;
  }
  await mrxHop({ ticket });
}

async function mrxHop(hop) {
  entry.hops.push(hop);
  entry.showing = null;
  if (entry.double && entry.hops.length < 2) { offerPiece(state); mrxEntryPanel(state); return; }
  await send("/api/mrx-move", { hops: entry.hops, tag: state.tag });
  entry = { hops: [], double: false, showing: null, shows: false };
  if (state) render(state);
}

function offerPiece(s) {
  const d = detectiveToMove(s);
  board.setPickable(d && humansMove(s) ? [d.at] : [], onPick);
}

function select(on) {
  const s = state;
  const d = detectiveToMove(s);
  if (!d || !humansMove(s)) return;
  selected = on;
  if (!on) { offerPiece(s); return; }
  if (!s.moves.length) { toast(`${d.name} has no move`, "error"); return; }
  board.setPickable(s.moves.map((m) => m.to), onPick);
  board.setRings([d.at], "selected");
  board.bringIntoView([d.at, ...s.moves.map((m) => m.to)]);
}

async function onPick(station, allowed) {
  const s = state;
  if (entry.showing) {
    let hop = { ticket: entry.showing.ticket, to: station };
    if (entry.shows && !s.mrx_entry.reveal[entry.hops.length]) {
      const took = await chooseTake(`Mr. X shows himself at ${station}: which ticket does he take?`, s.mrx_entry.show.take);
      if (!took) return;
      hop = { ...hop, show: took };
      entry.shows = false;
    }
    await mrxHop(hop);
    return;
  }
  const d = detectiveToMove(s);
  if (!d || !humansMove(s)) {
    if (s.to_move === MRX && !s.over) toast(s.mrx_entry ? "Mr. X is to move: enter the ticket he shows"
      : "Mr. X is to move (on his own page)");
    return;
  }
  if (!selected) {
    if (station === d.at) select(true);
    else toast(`${d.name} is to move: tap ${d.name}'s piece first`);
    return;
  }
  if (station === d.at) { select(false); board.setRings([], ""); return; }
  if (!allowed) { toast(`${d.name} cannot reach ${station} now`); return; }
  const move = s.moves.find((m) => m.to === station);
  let ticket = move.tickets[0];
  if (move.tickets.length > 1) {
    ticket = await chooseTicket(`${d.name} to ${station}: which ticket?`, move.tickets);
    if (ticket === null) return;
  }
  // A game without Mr. X's log: "Caught Mr. X" pressed first makes this move a capture claim.
  const capture = s.claim && claiming;
  await send("/api/move", { piece: d.name, to: station, ticket, tag: s.tag, ...(capture ? { capture: true } : {}) });
}

async function send(url, body) {
  if (busy) return;
  busy = true;
  try {
    const done = await postJSON(url, body);
    toast(done.said);
  } catch (err) {
    toast(err.message, "error");
  } finally {
    busy = false;
  }
}

async function analyse(kind) {
  const out = $("answer");
  out.hidden = false;
  out.textContent = `${kind}: thinking…`;
  try {
    const answer = await getJSON(`/api/analysis/${kind}`);
    // (Solve: its verdict in a line, then the solver's strategy tree; a proved win's first
    // joint move drawn as arrows, as the advice is)
    out.textContent = answer.line ? `${answer.line}\n\n${answer.text}` : answer.text;
    const arrows = answer.arrows || [];
    board.setArrows(arrows.map((a) => ({ from: a.from, to: a.to })));
    if (arrows.length) board.focus(arrows.flatMap((a) => [a.from, a.to]), 520);  // (the moves, close up)
    board.setRings(kind === "cordon" ? answer.stations || [] : [], "cordon");
  } catch (err) {
    out.textContent = err.message;
  }
}

async function main() {
  board = new Board($("board"), await getJSON("/api/board"));
  $("undo").addEventListener("click", () => send("/api/undo", { tag: state.tag }));
  $("redo").addEventListener("click", () => send("/api/redo", { tag: state.tag }));
  for (const kind of ["advise", "cordon", "solve"]) $(kind).addEventListener("click", () => analyse(kind));
  $("banner").addEventListener("click", () => showBanner($("banner"), null));
  follow("/api/events", render, showLink);
}

main().catch((err) => toast(err.message, "error"));
