// geoik viewer: the 2-D panel's metric-map overlay (seed 004's colours, computed by the server's
// batch engine) and its colour bar. Colours, ticks and names all come from the server
// (geoik.palette): the map reply's "bar", the methods reply's "map_colours".
import { $, S, request } from "./common.js";

let mapImage = null;
let mapSeq = 0;

/** Ask for the map of ``fields`` (chain, method, metric, size, ...); ``redraw`` when it comes.
 *  Only the newest request counts: the server stops older ones and their replies are ignored. */
export function requestMap(fields, redraw) {
  const seq = ++mapSeq;
  S.map = { state: "loading", text: "computing…", reply: null, progress: 0 };
  $("map-text").textContent = "computing…";
  const msg = Object.assign({ type: "map" }, fields);
  const progress = (p) => {
    if (seq !== mapSeq) return;
    if (p.preparing) {
      S.map.state = "waiting";
      $("map-text").textContent = "waiting for the server to prepare the map engines (first use only)…";
      return;
    }
    S.map.state = "loading";
    S.map.progress = p.done / p.total;
    $("map-text").textContent = `computing… ${Math.round(100 * S.map.progress)} %`;
  };
  request(msg, progress).then(
    (r) => {
      if (seq !== mapSeq || !S.overlay) return; // a newer request, or the overlay was turned off
      const img = new ImageData(new Uint8ClampedArray(base64Bytes(r.rgba)), r.width, r.height);
      const off = document.createElement("canvas");
      off.width = r.width;
      off.height = r.height;
      off.getContext("2d").putImageData(img, 0, 0);
      mapImage = off;
      const reply = { metric: r.metric, vmin: r.vmin, vmax: r.vmax, bar: r.bar, coverage: r.coverage, cached: r.cached };
      S.map = { state: "shown", text: "", reply, progress: 1, geometry: { half: r.half, center: r.center } };
      const cov = r.coverage === null ? "" : `coverage ${(100 * r.coverage).toFixed(1)} %, `;
      const how = r.cached ? "cached" : `${r.compute_ms.toFixed(0)} ms`;
      $("map-text").textContent = `${r.method}, ${r.width}×${r.height}: ${cov}${how}`;
      drawLegend(r);
      redraw();
    },
    (e) => {
      if (seq !== mapSeq) return;
      mapImage = null;
      S.map = { state: "error", text: e.message, reply: null, progress: null };
      $("map-text").textContent = e.message;
      drawLegend(null);
      redraw();
    },
  );
}

export function clearMap() {
  mapSeq++;
  mapImage = null;
  S.map = { state: "off", text: "", reply: null, progress: null };
  $("map-text").textContent = "";
  drawLegend(null);
}

function base64Bytes(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Draw the map, its square ``[-L, L]^2`` about the base put on the canvas by ``toScreen``. */
export function drawMap(g, toScreen, scale) {
  if (!mapImage || !S.map.geometry) return;
  const { half, center } = S.map.geometry;
  const [x0, y0] = toScreen([center[0] - half, center[1] + half]);
  const side = 2 * half * scale;
  g.imageSmoothingEnabled = false;
  g.globalAlpha = 0.8;
  g.drawImage(mapImage, x0, y0, side, side);
  g.globalAlpha = 1;
}

const INK = "#1d2327";
const BAR_HEIGHT = 14;

/** The colour bar of reply ``r`` (or nothing): the server's gradient, a tick at each of its
 *  ticks, the least and the largest value always labelled, other labels where they fit; the
 *  metric's name and unit; the failure and out-of-reach colours. */
function drawLegend(r) {
  const cv = $("legend");
  const lg = cv.getContext("2d");
  const w = cv.width;
  lg.clearRect(0, 0, w, cv.height);
  S.map.legendLabels = [];
  if (!r) return;
  const bar = r.bar;
  const grad = lg.createLinearGradient(0, 0, w, 0);
  for (const [t, colour] of bar.gradient) grad.addColorStop(t, colour);
  lg.fillStyle = grad;
  lg.fillRect(0, 0, w, BAR_HEIGHT);
  lg.font = "11px system-ui, sans-serif";
  lg.textBaseline = "top";
  lg.fillStyle = INK;
  const placed = [];
  const ends = [0, bar.ticks.length - 1];
  const order = [...new Set(ends)].concat(bar.ticks.map((_, k) => k).filter((k) => !ends.includes(k)));
  for (const k of order) {
    const [pos, text] = bar.ticks[k];
    const x = Math.round(pos * (w - 1));
    lg.fillRect(Math.min(x, w - 1), BAR_HEIGHT, 1, 4);
    const tw = lg.measureText(text).width;
    const left = Math.max(0, Math.min(w - tw, x - tw / 2));
    const fits = placed.every(([a, b]) => left + tw + 6 <= a || b + 6 <= left);
    if (!fits && !ends.includes(k)) continue; // the ends are always labelled
    placed.push([left, left + tw]);
    lg.fillText(text, left, BAR_HEIGHT + 5);
    S.map.legendLabels.push(text);
  }
  lg.fillText(bar.label, w / 2 - lg.measureText(bar.label).width / 2, BAR_HEIGHT + 21);
  const colours = S.mapColours;
  lg.fillStyle = colours.failure;
  lg.fillRect(0, BAR_HEIGHT + 40, 14, 14);
  lg.fillStyle = colours.outside;
  lg.fillRect(100, BAR_HEIGHT + 40, 14, 14);
  lg.fillStyle = INK;
  lg.fillText("not reached", 18, BAR_HEIGHT + 42);
  lg.fillText("out of reach", 118, BAR_HEIGHT + 42);
}
