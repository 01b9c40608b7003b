// geoik viewer: a 2-D chain panel, seed 003's three scenes (3-D and orthographic views), and the
// robot and the rig the server was started with, all solved by the Python server over one
// WebSocket. No build step, no external assets. Page state is on window.geoikState.
import { $, S, connect, request, setPreparation, showError } from "./common.js";
import { chainChanged, draw2d, setMethods } from "./panel.js";
import { rigLoop, showRig } from "./rig.js";
import { robotLoop, showRobot } from "./robot.js";
import { fillSceneMethods, sceneLoop, setScene } from "./scenes.js";

const PANELS = { chain: "chain-panel", robot: "robot-panel", rig: "rig-panel" };
let first = true;

function gotMethods(reply) {
  S.methods = reply.methods;
  S.treeMethods = reply.tree_methods;
  S.mapMetrics = reply.map_metrics;
  S.mapMetricLabels = reply.map_metric_labels;
  S.mapColours = reply.map_colours;
  S.models = reply.models || { robot: null, clip: null };
  if (reply.caps) S.caps = reply.caps;
  setPreparation(reply.preparation || null);
  setMethods(reply);
  fillSceneMethods();
  chainChanged();
  if (first) {
    first = false; // a robot or a clip the viewer was started with is shown first
    if (S.models.robot) show("robot");
    else if (S.models.clip) show("rig");
  }
}

function show(scene) {
  S.scene = scene;
  for (const b of document.querySelectorAll("#tabs button")) {
    const on = b.dataset.scene === scene;
    b.classList.toggle("active", on);
    b.setAttribute("aria-selected", String(on));
  }
  const panel = PANELS[scene] || "scene-panel";
  for (const id of ["chain-panel", "scene-panel", "robot-panel", "rig-panel"]) $(id).hidden = id !== panel;
  if (scene === "chain") draw2d();
  else if (scene === "robot") showRobot();
  else if (scene === "rig") showRig();
  else setScene(scene);
}

for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => show(b.dataset.scene));

const ticks = [];

function modelLoop(now) {
  requestAnimationFrame(modelLoop);
  ticks.push(now);
  S.rafTicks++;
  while (ticks[0] < now - 1000) ticks.shift();
  S.rafFps = ticks.length; // the browser's own frame rate: the most the page could draw
  robotLoop(now);
  rigLoop(now);
}

draw2d();
connect(() => request({ type: "methods" }).then(gotMethods, (e) => showError(e)));
requestAnimationFrame(sceneLoop);
requestAnimationFrame(modelLoop);
