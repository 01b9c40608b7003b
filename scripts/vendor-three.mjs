// Copies three.js (the npm package pinned in package.json) into the viewer's static folder, so
// that the page loads it from geoik's own server: `npm ci && npm run vendor`. The viewer needs
// the core build and the addons listed in ADDONS, with every module they import in turn; the
// copies are committed (src/geoik/viewer/static/vendor/three/), with three's licence.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const THREE = join(ROOT, "node_modules", "three");
const OUT = join(ROOT, "src", "geoik", "viewer", "static", "vendor", "three");
const ADDONS = [
  "controls/OrbitControls.js",
  "controls/TransformControls.js",
  "loaders/STLLoader.js",
  "loaders/ColladaLoader.js",
  "loaders/OBJLoader.js",
];

const version = JSON.parse(readFileSync(join(THREE, "package.json"), "utf8")).version;
rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, "addons"), { recursive: true });
for (const name of ["three.module.js", "three.core.js"]) copyFileSync(join(THREE, "build", name), join(OUT, name));
copyFileSync(join(THREE, "LICENSE"), join(OUT, "LICENSE"));

const todo = [...ADDONS];
const seen = new Set();
while (todo.length) {
  const rel = normalize(todo.pop());
  if (seen.has(rel)) continue;
  seen.add(rel);
  const text = readFileSync(join(THREE, "examples", "jsm", rel), "utf8");
  mkdirSync(dirname(join(OUT, "addons", rel)), { recursive: true });
  writeFileSync(join(OUT, "addons", rel), text);
  for (const m of text.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) todo.push(join(dirname(rel), m[1]));
}
writeFileSync(
  join(OUT, "VERSION"),
  `three ${version} (npm), MIT licence (LICENSE)\nbuild/three.module.js, build/three.core.js\n` +
    [...seen].sort().map((f) => `examples/jsm/${f} -> addons/${f}`).join("\n") + "\n",
);
console.log(`three ${version}: ${seen.size} addon modules copied to ${OUT}`);
