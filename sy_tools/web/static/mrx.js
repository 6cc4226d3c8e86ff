// Mr. X's page (his phone, through his private link): where he is, his route, his tickets and
// his legal moves, entered as the table enters a detective's: tap a highlighted station (a
// double move: its first station, then its second; the ticket asked when two fit).

import { Board } from "./board.js";
import { follow, getJSON, postJSON } from "./live.js";
import {
  $, MRX, chooseTake, chooseTicket, h, mrxText, pieces, possibleList, revealText, showBanner, showLink, statusText, ticketTable,
  toast,
} from "./panels.js";

const token = location.pathname.split("/").filter(Boolean).pop();
const api = `/api/x/${token}`;

let board = null;
let state = null;
let double = false;
let showing = false;
let firstLeg = null;
let busy = false;

function myTurn(s) {
  return s.mrx_plays && !s.over && s.to_move === MRX && !s.stopped;
}

function routeStations(s) {
  const out = [s.mrx.start];
  for (const hop of s.mrx.route) out.push(hop.to);
  return out.filter((x) => x !== null && x !== undefined);
}

function render(s) {
  const first = state === null;
  state = s;
  firstLeg = null;
  if (!s.mrx_moves.double.length) double = false;
  if (!s.mrx_moves.show) showing = false;
  $("status").textContent = statusText(s);
  $("reveal").textContent = s.over ? "" : revealText(s);
  const reveal = myTurn(s) && s.reveal_now;
  showBanner($("banner"), s.over ? s.status : reveal ? "This move is a reveal: the table will see where you go" : null);
  $("where").replaceChildren(h("p", {}, "You are at ", h("b", { id: "at" }, s.mrx.at ?? "?"), "."));
  $("route").replaceChildren(routeList(s));
  $("tickets").replaceChildren(ticketTable(s));
  $("moment").textContent = s.moment;
  $("possible").replaceChildren(possibleList(s.possible, 8));
  $("double").hidden = !myTurn(s) || !s.mrx_moves.double.length;
  $("double").setAttribute("aria-pressed", String(double));
  $("show").hidden = !myTurn(s) || !s.mrx_moves.show;
  $("show").setAttribute("aria-pressed", String(showing));
  $("pass").hidden = !myTurn(s) || !s.mrx_moves.pass;
  $("advise").disabled = !myTurn(s);
  $("answer").hidden = true;
  board.setPossible(s.possible, 0);
  board.setPieces(pieces(s), s.mrx.at !== null ? { at: s.mrx.at, kind: "true" } : null);
  board.setArrows([], routeStations(s));
  offer();
  if (first) board.focus([s.mrx.at, ...s.mrx_moves.single.map((m) => m.to)], 520, 700);
}

function routeList(s) {
  if (!s.mrx.route.length) return h("p", {}, `start: ${s.mrx.start ?? "?"}`);
  const legs = [h("li", {}, `start ${s.mrx.start}`)];
  s.mrx.route.forEach((hop, i) => {
    const shown = s.reveal_moves.includes(i + 1) || hop.shown;
    legs.push(h("li", { class: shown ? "reveal" : null }, `${i + 1}. ${mrxText([hop])}${shown ? " (shown)" : ""}`));
  });
  return h("ol", { class: "route-list" }, legs);
}

function offer() {
  const s = state;
  const turn = $("turn");
  board.setRings([], "");
  if (!myTurn(s)) {
    board.setPickable([], onPick);
    const why = s.over ? s.status : s.computer_turn && s.computer_error ? s.computer_error
      : !s.mrx_plays ? "The computer plays Mr. X in this game." : `${s.to_move} to move.`;
    turn.replaceChildren(h("p", { class: s.computer_turn && s.computer_error ? "warn" : null }, why));
    return;
  }
  if (!double) {
    board.setPickable(s.mrx_moves.single.map((m) => m.to), onPick);
    turn.replaceChildren(h("p", {}, "Your move: tap a highlighted station."));
  } else if (firstLeg === null) {
    board.setPickable([...new Set(s.mrx_moves.double.map((d) => d[1]))], onPick);
    turn.replaceChildren(h("p", {}, "Double move: tap the first station."));
  } else {
    board.setRings([firstLeg.to], "selected");
    board.setPickable([...new Set(s.mrx_moves.double.filter((d) => d[0] === firstLeg.ticket && d[1] === firstLeg.to)
      .map((d) => d[3]))], onPick);
    turn.replaceChildren(h("p", {}, `Double move: ${mrxText([firstLeg])}, then tap the second station.`));
  }
}

async function onPick(station, allowed) {
  const s = state;
  if (!myTurn(s)) return;
  if (!allowed) { toast(`you cannot reach ${station} now`); return; }
  if (!double) {
    const move = s.mrx_moves.single.find((m) => m.to === station);
    const ticket = await pickTicket(`to ${station}: which ticket?`, move.tickets);
    if (!ticket) return;
    const hop = await withShow({ ticket, to: station }, 0);
    if (hop) await send({ hops: [hop], tag: s.tag });
    return;
  }
  if (firstLeg === null) {
    const tickets = [...new Set(s.mrx_moves.double.filter((d) => d[1] === station).map((d) => d[0]))];
    const ticket = await pickTicket(`first to ${station}: which ticket?`, tickets);
    if (!ticket) return;
    const hop = await withShow({ ticket, to: station }, 0);
    if (!hop) return;
    firstLeg = hop;
    offer();
    return;
  }
  const tickets = [...new Set(s.mrx_moves.double.filter((d) => d[0] === firstLeg.ticket && d[1] === firstLeg.to
    && d[3] === station).map((d) => d[2]))];
  const ticket = await pickTicket(`then to ${station}: which ticket?`, tickets);
  if (!ticket) return;
  const hop = firstLeg.show ? { ticket, to: station } : await withShow({ ticket, to: station }, 1);
  if (hop) await send({ hops: [firstLeg, hop], tag: s.tag });
}

// A voluntary reveal (where the rules have it): with "Show myself" pressed, the hop he shows
// himself after asks which detective's ticket he takes (a hop that is a fixed reveal passes it on).
async function withShow(hop, leg) {
  const offer = state.mrx_moves.show;
  if (!showing || !offer || !offer.hops[leg]) return hop;
  const took = await chooseTake(`you show yourself at ${hop.to}: take which ticket?`, offer.take);
  return took ? { ...hop, show: took } : null;
}

async function pickTicket(title, tickets) {
  return tickets.length === 1 ? tickets[0] : chooseTicket(title, tickets);
}

async function send(body) {
  if (busy) return;
  busy = true;
  try {
    const done = await postJSON(`${api}/move`, body);
    double = false;
    showing = false;
    toast(`the table hears: ${done.said}`);
  } catch (err) {
    toast(err.message, "error");
  } finally {
    busy = false;
  }
}

async function advise() {
  const out = $("answer");
  out.hidden = false;
  out.textContent = "thinking…";
  try {
    const answer = await getJSON(`${api}/advise`);
    out.textContent = answer.text;
    const best = answer.arrows[0];
    if (best) {
      const stops = [state.mrx.at, ...best.stations];
      board.setArrows(stops.slice(1).map((to, i) => ({ from: stops[i], to })), routeStations(state));
    }
  } catch (err) {
    out.textContent = err.message;
  }
}

async function main() {
  board = new Board($("board"), await getJSON("/api/board"));
  $("double").addEventListener("click", () => {
    double = !double;
    firstLeg = null;
    $("double").setAttribute("aria-pressed", String(double));
    offer();
  });
  $("show").addEventListener("click", () => {
    showing = !showing;
    $("show").setAttribute("aria-pressed", String(showing));
  });
  $("pass").addEventListener("click", () => send({ hops: [], tag: state.tag }));
  $("advise").addEventListener("click", advise);
  follow(`${api}/events`, render, showLink);
}

main().catch((err) => toast(err.message, "error"));
