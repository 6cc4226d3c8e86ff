// The replay: a finished or running game stepped through on the board (play, pause, step, a
// slider; the arrow keys step), what the detectives saw at each turn and, when Mr. X's log was
// at hand, where he really was.  Inlined into one file by `sy-tools replay` (no server).

import { Board } from "./board.js";
import { $, h, historyTable, pieces, possibleList, revealText, showBanner, statusText, ticketTable } from "./panels.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const frames = data.frames;
let at = 0;
let timer = null;
let board = null;

/** The history as it stood after ``k`` turns (each round: Mr. X's turn, then the detectives'). */
function historyAt(history, k) {
  const out = [];
  let left = k;
  for (const r of history) {
    if (left <= 0) break;
    left -= 1;
    const dets = r.detectives.slice(0, Math.max(0, left));
    left -= dets.length;
    out.push({ ...r, detectives: dets });
  }
  return out;
}

function show(k) {
  at = Math.max(0, Math.min(frames.length - 1, k));
  const f = { ...frames[at], reveal_moves: data.reveal_moves };
  $("slider").value = String(at);
  $("status").textContent = statusText(f);
  $("reveal").textContent = f.over ? "" : revealText(f);
  $("said").textContent = at === 0 ? "The start." : `${at}. ${f.said}`;
  const seen = f.last_reveal && f.last_reveal.move === f.move && f.said.startsWith("Mr. X");
  showBanner($("banner"), f.over ? f.status : seen ? `Mr. X shows himself at ${f.last_reveal.station}!` : null);
  const truth = f.mrx.at !== undefined && f.mrx.at !== null;
  $("truth").textContent = truth ? `Mr. X was really at ${f.mrx.at}; the detectives thought he might be at `
    + `${f.possible.length} station${f.possible.length === 1 ? "" : "s"}.` : "";
  $("moment").textContent = f.moment;
  $("possible").replaceChildren(possibleList(f.possible));
  $("tickets").replaceChildren(ticketTable(f));
  const history = historyAt(truth && data.true_history ? data.true_history : data.history, at);
  $("history").replaceChildren(history.length ? historyTable(f, history) : h("p", {}, "no moves yet"));
  board.setPossible(f.possible);
  const mrx = truth ? { at: f.mrx.at, kind: "true" } : f.last_reveal ? { at: f.last_reveal.station, kind: "seen" } : null;
  board.setPieces(pieces(f), mrx);
  const route = [];
  for (const g of frames.slice(0, at + 1)) {
    if (g.mrx.at !== undefined && g.mrx.at !== null && route[route.length - 1] !== g.mrx.at) route.push(g.mrx.at);
  }
  board.setArrows([], truth ? route : []);
  $("play").textContent = timer ? "Pause" : "Play";
}

function play() {
  if (timer) { clearInterval(timer); timer = null; show(at); return; }
  if (at >= frames.length - 1) at = 0;
  timer = setInterval(() => {
    if (at >= frames.length - 1) { clearInterval(timer); timer = null; show(at); return; }
    show(at + 1);
  }, 900);
  show(at);
}

function start() {
  board = new Board($("board"), data.board);
  board.fit();
  $("slider").max = String(frames.length - 1);
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(frames.length - 1));
  $("play").addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowRight" && !e.altKey) { show(at + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft" && !e.altKey) { show(at - 1); e.preventDefault(); }
  });
  show(frames.length - 1);
}

start();
