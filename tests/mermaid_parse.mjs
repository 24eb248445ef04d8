// Parses Mermaid diagrams with the Mermaid package itself (Node.js, no browser: jsdom
// stands in for the page).  Reads a JSON list of diagram texts on stdin, prints a JSON
// list: null for a diagram that parses, the parser's message otherwise.
// The packages are looked up in the folder named by CHANSPEC_MERMAID_DIR (one that has
// node_modules/mermaid and node_modules/jsdom, e.g. after `npm install mermaid jsdom`).
import fs from "fs";
import path from "path";
import { createRequire } from "module";
import { pathToFileURL } from "url";

const dir = process.env.CHANSPEC_MERMAID_DIR || process.cwd();
const require = createRequire(path.join(dir, "package.json"));
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);
const { JSDOM } = await load("jsdom");
const dom = new JSDOM("<!DOCTYPE html><body></body>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await load("mermaid")).default;
mermaid.initialize({ startOnLoad: false });
const out = [];
for (const text of JSON.parse(fs.readFileSync(0, "utf8"))) {
  try { await mermaid.parse(text); out.push(null); }
  catch (e) { out.push(String((e && e.message) || e).slice(0, 600)); }
}
console.log(JSON.stringify(out));
