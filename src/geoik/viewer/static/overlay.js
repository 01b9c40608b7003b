// geoik viewer: the 2-D panel's metric-map overlay (seed 004's colours, computed by the server's
// batch engine) and its colour bar.
import { $, S, fmt, hue, request } from "./common.js";

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
      const reply = { metric: r.metric, vmin: r.vmin, vmax: r.vmax, coverage: r.coverage, cached: r.cached };
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

export const METRIC_NAMES = {
  iterations: "iterations",
  path: "end-effector path",
  "rotation-sum": "rotation sum (°)",
  rotations: "rotations > 5°",
  error: "final error",
};

function drawLegend(r) {
  const cv = $("legend");
  const lg = cv.getContext("2d");
  const w = cv.width;
  lg.clearRect(0, 0, w, cv.height);
  if (!r) return;
  for (let x = 0; x < w; x++) {
    lg.fillStyle = hue(x / (w - 1));
    lg.fillRect(x, 0, 1, 14);
  }
  lg.fillStyle = "#1d2327";
  lg.font = "11px system-ui, sans-serif";
  lg.textBaseline = "top";
  const lo = fmt(r.vmin, 2),
    hi = fmt(r.vmax, 2),
    name = METRIC_NAMES[r.metric] || r.metric;
  lg.fillText(lo, 0, 17);
  lg.fillText(hi, w - lg.measureText(hi).width, 17);
  lg.fillText(name, w / 2 - lg.measureText(name).width / 2, 17);
  lg.fillStyle = "#000";
  lg.fillRect(0, 37, 14, 14);
  lg.fillStyle = "rgb(205,205,205)";
  lg.fillRect(100, 37, 14, 14);
  lg.fillStyle = "#1d2327";
  lg.fillText("not reached", 18, 39);
  lg.fillText("out of reach", 118, 39);
}
