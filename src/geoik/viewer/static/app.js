// geoik viewer: a 2-D chain panel and seed 003's three scenes, solved by the Python server over
// one WebSocket. No build step, no external assets. Page state is on window.geoikState.
import { $, S, connect, request, showError } from "./common.js";
import { chainChanged, draw2d, setMethods } from "./panel.js";
import { fillSceneMethods, sceneLoop, setScene } from "./scenes.js";

function gotMethods(reply) {
  S.methods = reply.methods;
  S.treeMethods = reply.tree_methods;
  S.mapMetrics = reply.map_metrics;
  S.mapMetricLabels = reply.map_metric_labels;
  S.mapColours = reply.map_colours;
  setMethods(reply);
  fillSceneMethods();
  chainChanged();
}

function show(scene) {
  S.scene = scene;
  for (const b of document.querySelectorAll("#tabs button")) {
    const on = b.dataset.scene === scene;
    b.classList.toggle("active", on);
    b.setAttribute("aria-selected", String(on));
  }
  $("chain-panel").hidden = scene !== "chain";
  $("scene-panel").hidden = scene === "chain";
  if (scene === "chain") draw2d();
  else setScene(scene);
}

for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => show(b.dataset.scene));

draw2d();
connect(() => request({ type: "methods" }).then(gotMethods, (e) => showError(e)));
requestAnimationFrame(sceneLoop);
