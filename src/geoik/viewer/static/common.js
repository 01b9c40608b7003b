// geoik viewer: the page state, the WebSocket connection and small shared helpers.
// The state object is exposed as window.geoikState so tests (and curious users) can read it.

export const $ = (id) => document.getElementById(id);

export const S = {
  connected: false,
  scene: "chain",
  methods: [],
  treeMethods: [],
  mapMetrics: [],
  mapMetricLabels: {},
  mapColours: null,
  method: "fabrik",
  target: [8.33, 2.83],
  lastReply: null,
  lastError: null,
  endEffector: null,
  positions: null,
  angles: null,
  reach: null,
  limits: null,
  overlay: false,
  map: { state: "off", text: "", reply: null, progress: null },
  replaying: false,
  fps: 0,
  renderFps: 0,
  sceneReply: null,
  sceneFrames: 0,
  pending: 0, // requests sent and not answered yet (tests wait for 0)
  sent: 0, // requests sent so far, the id of the last one (a reply's id tells when it was asked)
  errors: [],
  worldToClient: null,
  viewToClient: null,
  view3d: {}, // the 3-D views by panel (scene, robot, rig): for tests
  models: { robot: null, clip: null }, // what the server was started with
};
window.geoikState = S;

// ------------------------------------------------------------------ connection

const conn = { ws: null, next: 1, pending: new Map(), listeners: [] };

/** Open the WebSocket (and reopen it a second after it closes). */
export function connect(onOpen) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  conn.ws = ws;
  ws.onopen = () => {
    S.connected = true;
    setConn(true);
    onOpen();
  };
  ws.onclose = () => {
    S.connected = false;
    setConn(false);
    for (const p of conn.pending.values()) p.reject({ message: "connection closed" });
    conn.pending.clear();
    S.pending = 0;
    for (const f of conn.listeners) f();
    setTimeout(() => connect(onOpen), 1000);
  };
  ws.onmessage = (ev) => {
    const reply = JSON.parse(ev.data);
    const p = conn.pending.get(reply.id);
    if (!p) return;
    if (reply.type === "progress") {
      if (p.progress) p.progress(reply);
      return;
    }
    conn.pending.delete(reply.id);
    S.pending = conn.pending.size;
    reply.rtt_ms = performance.now() - p.sent;
    if (reply.type === "error") {
      S.errors.push(reply);
      if (S.errors.length > 20) S.errors.shift();
      p.reject(reply);
    } else {
      p.resolve(reply);
    }
  };
}

/** Call ``f`` whenever the connection drops (to reset what was in flight). */
export function onDisconnect(f) {
  conn.listeners.push(f);
}

function setConn(on) {
  const el = $("conn");
  el.textContent = on ? "connected" : "disconnected: retrying…";
  el.className = "conn " + (on ? "on" : "off");
}

/** Send one message; resolves with the reply, rejects with the error reply. */
export function request(msg, progress = null) {
  return new Promise((resolve, reject) => {
    if (!conn.ws || conn.ws.readyState !== WebSocket.OPEN) {
      reject({ message: "not connected" });
      return;
    }
    const id = conn.next++;
    S.sent = id;
    conn.pending.set(id, { resolve, reject, progress, sent: performance.now() });
    S.pending = conn.pending.size;
    conn.ws.send(JSON.stringify(Object.assign({ id }, msg)));
  });
}

// ------------------------------------------------------------------ helpers

export function showError(e, where = "err") {
  S.lastError = e;
  $(where).textContent = e && e.message ? e.message : String(e);
}

/** A number for people: integers as such, tiny or huge ones in exponent form. */
export function fmt(v, digits = 4) {
  if (v === null || v === undefined || !isFinite(v)) return "–";
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(3) : v.toFixed(digits);
}
