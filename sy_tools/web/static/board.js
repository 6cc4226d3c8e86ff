// The London board as SVG at the map's own coordinates: connections in the transports'
// colours, stations with their numbers, the pieces, and marks (possible stations, highlighted
// destinations, arrows, rings).  Zoom and pan by wheel, touch (one finger pans, two pinch) and
// keyboard (+ - 0 and the arrows).  Nothing here knows the game's rules: the pages say what to
// draw and which stations may be picked.

const SVG = "http://www.w3.org/2000/svg";

export const TRANSPORTS = ["taxi", "bus", "underground", "ferry"];

const PIECE_COLOURS = { red: "#e41a1c", blue: "#377eb8", green: "#4daf4a", yellow: "#f2c500", black: "#222222",
  purple: "#984ea3", brown: "#a65628", pink: "#f781bf" };
const PALETTE = Object.values(PIECE_COLOURS);

/** The colour of a detective's piece: its name's colour, else one from the palette. */
export function pieceColour(name, index) {
  return PIECE_COLOURS[String(name).toLowerCase()] || PALETTE[index % PALETTE.length];
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** The probability scale of the possible stations: pale violet to deep purple. */
export function probabilityColour(p, top) {
  const t = top > 0 ? Math.min(1, 0.25 + 0.75 * (p / top)) : 1;
  const from = [236, 230, 250], to = [150, 110, 215];
  const c = from.map((f, i) => Math.round(f + (to[i] - f) * t));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

export class Board {
  /** Draws ``data`` ({stations: [[id, x, y]], connections: {taxi: [[a, b]]}}) into ``host``. */
  constructor(host, data) {
    this.host = host;
    this.at = new Map(data.stations.map(([s, x, y]) => [s, [x, y]]));
    this.transport = new Map();
    const xs = data.stations.map((s) => s[1]), ys = data.stations.map((s) => s[2]);
    const pad = 40;
    this.whole = { x: Math.min(...xs) - pad, y: Math.min(...ys) - pad,
      w: Math.max(...xs) - Math.min(...xs) + 2 * pad, h: Math.max(...ys) - Math.min(...ys) + 2 * pad };
    this.svg = el("svg", { class: "board", role: "img", "aria-label": "the board", tabindex: "0" }, host);
    this.layers = {};
    for (const name of ["lines", "marks", "stations", "arrows", "pieces", "labels"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, this.svg);
    }
    for (const t of TRANSPORTS) {
      const g = el("g", { class: `line line-${t}` }, this.layers.lines);
      for (const [a, b] of data.connections[t] || []) {
        const [x1, y1] = this.at.get(a), [x2, y2] = this.at.get(b);
        el("line", { x1, y1, x2, y2 }, g);
        for (const s of [a, b]) {
          const kinds = this.transport.get(s) || new Set();
          kinds.add(t);
          this.transport.set(s, kinds);
        }
      }
    }
    this.stationNodes = new Map();
    for (const [s, [x, y]] of this.at) {
      const kinds = this.transport.get(s) || new Set();
      const g = el("g", { class: "station", "data-station": s, transform: `translate(${x} ${y})` }, this.layers.stations);
      if (kinds.has("underground")) g.classList.add("has-underground");
      else if (kinds.has("bus")) g.classList.add("has-bus");
      el("circle", { r: 15, class: "station-disc" }, g);
      const text = el("text", { class: "station-number", "text-anchor": "middle", dy: "0.36em" }, g);
      text.textContent = String(s);
      this.stationNodes.set(s, g);
    }
    this.arrowHead();
    this.onPick = null;
    this.pickable = new Set();
    this.view = { ...this.whole };
    this.applyView();
    this.controls();
    this.buttons();
  }

  /** The zoom buttons over the board (the keyboard's + - 0 do the same). */
  buttons() {
    const bar = document.createElement("div");
    bar.className = "zoom";
    for (const [label, title, act] of [["+", "zoom in (+)", () => this.zoom(1.4)],
      ["\u2212", "zoom out (-)", () => this.zoom(1 / 1.4)], ["\u2922", "the whole board (0)", () => this.fit()]]) {
      const b = document.createElement("button");
      b.textContent = label;
      b.title = title;
      b.setAttribute("aria-label", title);
      b.addEventListener("click", act);
      bar.appendChild(b);
    }
    this.host.appendChild(bar);
  }

  arrowHead() {
    const defs = el("defs", {}, this.svg);
    const marker = el("marker", { id: "arrow-head", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5",
      markerHeight: "5", orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }, marker);
  }

  // ---- the view: zoom and pan ----------------------------------------------------------------

  applyView() {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  /** Screen pixels per board unit (the smaller of the two axes, as the SVG is letterboxed). */
  scale() {
    const r = this.svg.getBoundingClientRect();
    return Math.min(r.width / this.view.w, r.height / this.view.h) || 1;
  }

  zoom(factor, cx, cy) {
    const v = this.view;
    const minW = 120, maxW = this.whole.w * 1.5;
    let w = v.w / factor;
    w = Math.max(minW, Math.min(maxW, w));
    const f = w / v.w;
    const h = v.h * f;
    const px = cx === undefined ? v.x + v.w / 2 : cx, py = cy === undefined ? v.y + v.h / 2 : cy;
    this.view = { x: px - (px - v.x) * f, y: py - (py - v.y) * f, w, h };
    this.applyView();
  }

  pan(dx, dy) {
    this.view.x += dx;
    this.view.y += dy;
    this.applyView();
  }

  /** The board point under a screen point. */
  point(clientX, clientY) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  /** Show the whole board. */
  fit() {
    this.fitBox(this.whole);
  }

  fitBox(box) {
    const r = this.svg.getBoundingClientRect();
    const aspect = r.width > 0 && r.height > 0 ? r.width / r.height : this.whole.w / this.whole.h;
    let { x, y, w, h } = box;
    if (w / h < aspect) { const nw = h * aspect; x -= (nw - w) / 2; w = nw; } else { const nh = w / aspect; y -= (nh - h) / 2; h = nh; }
    this.view = { x, y, w, h };
    this.applyView();
  }

  /** Frame ``stations`` (with some room around), no closer than ``minWidth`` board units and
   * no wider than ``maxWidth`` (then round their middle). */
  focus(stations, minWidth = 420, maxWidth = Infinity) {
    const pts = stations.filter((s) => this.at.has(s)).map((s) => this.at.get(s));
    if (!pts.length) { this.fit(); return; }
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    let x = Math.min(...xs), y = Math.min(...ys), w = Math.max(...xs) - x, h = Math.max(...ys) - y;
    if (w > maxWidth) {
      const mid = xs.reduce((a, b) => a + b, 0) / xs.length;
      x = mid - maxWidth / 2; w = maxWidth;
    }
    if (h > maxWidth) {
      const mid = ys.reduce((a, b) => a + b, 0) / ys.length;
      y = mid - maxWidth / 2; h = maxWidth;
    }
    const grow = Math.max(0, minWidth - w) / 2;
    x -= grow + 50; w += 2 * grow + 100;
    const growH = Math.max(0, minWidth * 0.6 - h) / 2;
    y -= growH + 50; h += 2 * growH + 100;
    this.fitBox({ x, y, w, h });
  }

  /** The part of the board the screen shows now (the board's box cut to the window: a board
   * taller than the phone's screen shows its top part), in board units. */
  visible() {
    const r = this.svg.getBoundingClientRect();
    let left = Math.max(r.left, 0), top = Math.max(r.top, 0);
    let right = Math.min(r.right, window.innerWidth), bottom = Math.min(r.bottom, window.innerHeight);
    if (right - left < 40 || bottom - top < 40) ({ left, top, right, bottom } = r);  // (scrolled away)
    const [x0, y0] = this.point(left, top), [x1, y1] = this.point(right, bottom);
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  }

  /** Bring ``stations`` into view, keeping the zoom: the view moves (centred on them) only when
   * one of them is off the screen, and zooms out only when they cannot all be seen at this zoom. */
  bringIntoView(stations, margin = 45) {
    const pts = stations.filter((s) => this.at.has(s)).map((s) => this.at.get(s));
    if (!pts.length) return;
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const box = { x: Math.min(...xs) - margin, y: Math.min(...ys) - margin };
    box.w = Math.max(...xs) + margin - box.x;
    box.h = Math.max(...ys) + margin - box.y;
    const v = this.visible();
    if (!(v.w > 0 && v.h > 0)) return;
    if (box.x >= v.x && box.y >= v.y && box.x + box.w <= v.x + v.w && box.y + box.h <= v.y + v.h) return;
    const k = Math.max(1, box.w / v.w, box.h / v.h);  // (> 1: they cannot all be seen at this zoom)
    if (k > 1) this.zoom(1 / k);
    const now = this.visible();  // (the view's shown part after the zoom)
    this.pan(box.x + box.w / 2 - (now.x + now.w / 2), box.y + box.h / 2 - (now.y + now.h / 2));
  }

  controls() {
    const svg = this.svg;
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x, y] = this.point(e.clientX, e.clientY);
      this.zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), x, y);
    }, { passive: false });
    const pointers = new Map();
    let moved = 0, pinch = null;
    svg.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 1) moved = 0;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
      }
    });
    svg.addEventListener("pointermove", (e) => {
      const before = pointers.get(e.pointerId);
      if (!before) return;
      const now = [e.clientX, e.clientY];
      pointers.set(e.pointerId, now);
      if (pointers.size === 1) {
        const k = this.scale();
        moved += Math.abs(now[0] - before[0]) + Math.abs(now[1] - before[1]);
        if (moved > 6) {
          if (!svg.hasPointerCapture(e.pointerId)) svg.setPointerCapture(e.pointerId);
          this.pan(-(now[0] - before[0]) / k, -(now[1] - before[1]) / k);
        }
      } else if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const [cx, cy] = this.point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        if (pinch.d > 0) this.zoom(d / pinch.d, cx, cy);
        pinch.d = d;
        moved = 100;
      }
    });
    const lift = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
    };
    svg.addEventListener("pointerup", lift);
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("click", (e) => {
      if (moved > 6) return;
      const node = e.target.closest("[data-station]");
      if (node) this.pick(Number(node.getAttribute("data-station")));
    });
    svg.addEventListener("keydown", (e) => {
      const step = this.view.w * 0.1;
      const keys = { "+": () => this.zoom(1.25), "=": () => this.zoom(1.25), "-": () => this.zoom(0.8),
        "0": () => this.fit(), ArrowLeft: () => this.pan(-step, 0), ArrowRight: () => this.pan(step, 0),
        ArrowUp: () => this.pan(0, -step), ArrowDown: () => this.pan(0, step) };
      if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
    });
  }

  pick(station) {
    if (this.onPick) this.onPick(station, this.pickable.has(station));
  }

  // ---- what is drawn on it -------------------------------------------------------------------

  clear(layer) {
    this.layers[layer].replaceChildren();
  }

  /** Colour the possible stations by probability (``possible``: [[station, p]], most likely first). */
  setPossible(possible, labelled = 5) {
    for (const g of this.stationNodes.values()) { g.classList.remove("possible"); g.style.removeProperty("--fill"); }
    this.clear("labels");
    const top = possible.length ? possible[0][1] : 0;
    possible.forEach(([s, p], i) => {
      const g = this.stationNodes.get(s);
      if (!g) return;
      g.classList.add("possible");
      g.style.setProperty("--fill", probabilityColour(p, top));
      if (i < labelled && possible.length > 1) {
        const [x, y] = this.at.get(s);
        const t = el("text", { x, y: y + 30, class: "probability", "text-anchor": "middle" }, this.layers.labels);
        t.textContent = `${Math.round(p * 100)}%`;
      }
    });
  }

  /** The detectives' pieces (``pieces``: [{name, at, colour, active, out}]) and Mr. X's
   * (``mrx``: {at, kind: "true" | "seen"}). */
  setPieces(pieces, mrx) {
    this.clear("pieces");
    for (const p of pieces) {
      if (!this.at.has(p.at)) continue;
      const [x, y] = this.at.get(p.at);
      const g = el("g", { class: `piece${p.active ? " active" : ""}${p.out ? " out" : ""}`, "data-piece": p.name,
        "data-station": p.at, transform: `translate(${x} ${y})` }, this.layers.pieces);
      el("circle", { r: 24, class: "piece-ring", stroke: p.colour }, g);
      const [tx, ty] = this.tagPlace(p.at);
      const tag = el("g", { class: "tag", transform: `translate(${tx} ${ty})` }, g);
      el("rect", { x: -26, y: -11, width: 52, height: 20, rx: 6, fill: p.colour, class: "piece-tag" }, tag);
      const t = el("text", { "text-anchor": "middle", dy: "0.35em", class: "piece-name" }, tag);
      t.textContent = p.name.slice(0, 6);
    }
    if (mrx && this.at.has(mrx.at)) {
      const [x, y] = this.at.get(mrx.at);
      const g = el("g", { class: `mrx mrx-${mrx.kind}`, "data-station": mrx.at, transform: `translate(${x} ${y})` },
        this.layers.pieces);
      el("circle", { r: 26, class: "mrx-ring" }, g);
      const tag = el("g", { transform: "translate(0 36)" }, g);
      el("rect", { x: -30, y: -10, width: 60, height: 20, rx: 6, class: "mrx-tag" }, tag);
      const t = el("text", { "text-anchor": "middle", dy: "0.35em", class: "mrx-name" }, tag);
      t.textContent = mrx.kind === "seen" ? "X seen" : "Mr. X";
    }
  }

  /** Where a piece's name tag (52 by 20 units) goes beside its station ``at``: above it, else
   * below, right or left, the first that leaves every other station clear; else the one covering
   * the fewest (then: keeping furthest from them), so that the numbers round a piece stay readable. */
  tagPlace(at) {
    const [x, y] = this.at.get(at);
    const near = [...this.at].filter(([s, [sx, sy]]) => s !== at && Math.abs(sx - x) < 130 && Math.abs(sy - y) < 80);
    let best = null;
    for (const [dx, dy] of [[0, -34], [0, 34], [52, 0], [-52, 0]]) {
      let covered = 0, room = Infinity;
      for (const [, [sx, sy]] of near) {
        const gx = Math.max(0, Math.abs(sx - (x + dx)) - 26), gy = Math.max(0, Math.abs(sy - (y + dy)) - 10);
        const gap = Math.hypot(gx, gy) - 16;  // (16: a station's disc and its number)
        if (gap < 0) covered += 1;
        room = Math.min(room, gap);
      }
      if (covered === 0 && room >= 3) return [dx, dy];
      if (!best || covered < best.covered || (covered === best.covered && room > best.room)) {
        best = { covered, room, at: [dx, dy] };
      }
    }
    return best.at;
  }

  /** Stations that may be picked now, highlighted; ``onPick(station, allowed)`` hears taps. */
  setPickable(stations, onPick) {
    this.pickable = new Set(stations);
    this.onPick = onPick;
    for (const [s, g] of this.stationNodes) g.classList.toggle("pickable", this.pickable.has(s));
  }

  /** Rings round ``stations`` (a cordon, a chosen first leg), in the style ``kind``. */
  setRings(stations, kind) {
    this.clear("marks");
    for (const s of stations) {
      if (!this.at.has(s)) continue;
      const [x, y] = this.at.get(s);
      el("circle", { cx: x, cy: y, r: 30, class: `ring ring-${kind}` }, this.layers.marks);
    }
  }

  /** Arrows (``arrows``: [{from, to, label}]) and a route (``route``: [stations]). */
  setArrows(arrows, route) {
    this.clear("arrows");
    if (route && route.length > 1) {
      const pts = route.filter((s) => this.at.has(s)).map((s) => this.at.get(s).join(",")).join(" ");
      el("polyline", { points: pts, class: "route" }, this.layers.arrows);
    }
    for (const a of arrows || []) {
      if (!this.at.has(a.from) || !this.at.has(a.to)) continue;
      const [x1, y1] = this.at.get(a.from), [x2, y2] = this.at.get(a.to);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const cut = Math.min(22, len / 3);
      el("line", { x1: x1 + (x2 - x1) * cut / len, y1: y1 + (y2 - y1) * cut / len, x2: x2 - (x2 - x1) * cut / len,
        y2: y2 - (y2 - y1) * cut / len, class: "arrow", "marker-end": "url(#arrow-head)" }, this.layers.arrows);
    }
  }
}
