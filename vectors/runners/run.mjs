#!/usr/bin/env node
// A sample runner of the chanspec test vectors, in plain JavaScript for Node (ES modules,
// no dependencies). It plays every case of vectors/cases/ against an engine through an
// adapter (adapters/protocol.mjs: an engine speaking vectors/PROTOCOL.md, by default the
// reference `chanspec serve`) and reports, for each case, the FIRST failing step only:
// after the first difference everything is noise.
//
//   node vectors/runners/run.mjs [--engine "CMD"] [--vectors DIR] [--implements FILE]
//                                [--case ID]... [--timeout MS] [--json] [--verbose]
//
// Exit code: 0 every case run passed, 1 some case failed, 2 bad usage or unreadable vectors.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { codeOf, ProtocolEngine } from "./adapters/protocol.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));

function usage(message) {
  process.stderr.write(`run.mjs: ${message}\n` +
    'usage: node run.mjs [--engine "CMD"] [--vectors DIR] [--implements FILE] [--case ID]... ' +
    "[--timeout MS] [--json] [--verbose]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const args = { engine: "chanspec serve", vectors: join(HERE, ".."), implements: null,
    cases: [], timeout: 10000, json: false, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--engine") args.engine = value();
    else if (a === "--vectors") args.vectors = value();
    else if (a === "--implements") args.implements = value();
    else if (a === "--case") args.cases.push(value());
    else if (a === "--timeout") {
      args.timeout = Number(value());
      if (!(args.timeout > 0)) usage("--timeout takes a positive number of milliseconds");
    } else if (a === "--json") args.json = true;
    else if (a === "--verbose") args.verbose = true;
    else if (a === "--help" || a === "-h") usage("help");
    else usage(`unknown argument ${a}`);
  }
  return args;
}

function readJson(path, what) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    usage(`cannot read ${what} ${path}: ${err.message}`);
  }
}

/**
 * The options to start a case with, or a reason to skip it. Only the rows in the case's
 * `depends` matter: it lists, per row, the values under which the case plays as written.
 * Other rows are sent as written when the engine implements that value, else left out.
 */
function chooseOptions(kase, supports) {
  const options = {};
  for (const [row, value] of Object.entries(kase.start.options)) {
    const dep = kase.depends[row];
    if (dep) {
      const ok = dep.filter((v) => supports(row, v));
      if (ok.length === 0) return { skip: `needs ${row} = ${dep.join(" or ")}` };
      options[row] = ok[0];
    } else if (supports(row, value)) {
      options[row] = value;
    }
  }
  return { options };
}

function sameSet(a, b) {
  const x = [...new Set(a)].sort(), y = [...new Set(b)].sort();
  return a.length === x.length && x.length === y.length && x.every((v, i) => v === y[i]);
}

function legalDiff(got, want, players) {
  const out = [];
  for (let seat = 0; seat < players; seat++) {
    const g = got[seat] ?? [], w = want[String(seat)] ?? [];
    if (!sameSet(g, w)) {
      out.push({ seat, missing: w.filter((c) => !g.includes(c)),
        extra: g.filter((c) => !w.includes(c)), duplicates: g.length !== new Set(g).size });
    }
  }
  return out;
}

function sayLegal(diffs) {
  return diffs.map((d) => `seat ${d.seat}: ` + [
    d.missing.length ? `missing [${d.missing.join(", ")}]` : "",
    d.extra.length ? `extra [${d.extra.join(", ")}]` : "",
    d.duplicates ? "duplicates" : ""].filter(Boolean).join(", ")).join("; ");
}

function sayAction(a) {
  return `${a.seat}:${codeOf(a)}`;
}

/** Play one case; null when it passes, else its first failing step. */
async function runCase(engine, kase, options, progress) {
  const players = kase.start.players;
  const fail = (index, kind, message, extra = {}) => {
    const step = index < kase.steps.length ? kase.steps[index] : null;
    return { id: kase.id, step: index, kind, message,
      action: step ? step.action : null, sections: step ? step.sections : [],
      rules: step ? step.rules : kase.end.rules ?? [], ...extra };
  };
  const started = await engine.start({ ...kase.start, options });
  if (!started.ok) return fail(0, "start", `the engine refused the hand: ${started.error}`);
  for (let i = 0; i < kase.steps.length; i++) {
    const step = kase.steps[i];
    progress.step = i;
    // one round trip per step: the legal sets, the action, and for an action that must be
    // refused the legal sets again, all sent before reading (the case stops at the first
    // difference anyway, so an action sent after differing legal sets does no harm)
    const [before, r, again] = await Promise.all([engine.legal(players),
      engine.apply(step.action), step.valid ? null : engine.legal(players)]);
    let diffs = legalDiff(before, step.legal, players);
    if (diffs.length) {
      return fail(i, "legal", `legal actions before ${sayAction(step.action)} differ: ` +
        sayLegal(diffs), { diffs });
    }
    if (r.ok !== step.valid) {
      return fail(i, step.valid ? "refused" : "accepted", step.valid
        ? `the engine refused ${sayAction(step.action)}, which is legal here (${r.error ?? ""})`
        : `the engine accepted ${sayAction(step.action)}, which the rules forbid here`);
    }
    if (!step.valid) {
      diffs = legalDiff(again, step.legal, players);
      if (diffs.length) {
        return fail(i, "changed", `refusing ${sayAction(step.action)} changed the position: ` +
          sayLegal(diffs), { diffs });
      }
    }
  }
  const end = kase.end;
  const last = kase.steps.length;
  progress.step = last;
  const out = await engine.outcome();
  if (out.terminal !== end.terminal) {
    return fail(last, "end", end.terminal ? "the hand should be over, the engine goes on"
      : "the hand should go on" + (end.stuck ? " (stuck: a seat is pending with no legal action)"
        : "") + ", the engine says it is over");
  }
  if (end.terminal) {
    // the fields the case states: result, winner, kind, card, and where acts may stand
    // as faults the faults (each one's seat and rows), compared as JSON
    const keys = Object.keys(end.outcome);
    const got = Object.fromEntries(keys.map((k) => [k, out.outcome?.[k] ?? null]));
    if (keys.some((k) => JSON.stringify(got[k]) !== JSON.stringify(end.outcome[k]))) {
      return fail(last, "outcome", `outcome ${JSON.stringify(got)}, expected ` +
        JSON.stringify(end.outcome), { expected: end.outcome, got });
    }
  } else {
    const diffs = legalDiff(await engine.legal(players), end.legal, players);
    if (diffs.length) return fail(last, "legal", `legal actions at the end differ: ${sayLegal(diffs)}`, { diffs });
  }
  return null;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const casesDir = join(args.vectors, "cases");
  let files;
  try {
    files = readdirSync(casesDir).filter((f) => f.endsWith(".json")).sort();
  } catch (err) {
    usage(`cannot read ${casesDir}: ${err.message}`);
  }
  if (args.cases.length) {
    files = files.filter((f) => args.cases.some((c) => f.startsWith(c)));
    if (!files.length) usage(`no case matches ${args.cases.join(", ")}`);
  }
  const implementsMap = args.implements ? readJson(args.implements, "--implements file") : null;
  const t0 = performance.now();
  let engine = null;
  const passed = [], failed = [], skipped = [];
  for (const f of files) {
    const kase = readJson(join(casesDir, f), "case");
    if (kase.format !== "chanspec-vector" || kase.version !== 1) {
      usage(`${f} is not a chanspec-vector version 1 case`);
    }
    engine ??= new ProtocolEngine(args.engine, { timeoutMs: args.timeout, implements: implementsMap });
    const chosen = chooseOptions(kase, (row, v) => engine.supports(row, v));
    if (chosen.skip) {
      skipped.push({ id: kase.id, reason: chosen.skip });
      continue;
    }
    let res;
    const progress = { step: 0 };
    try {
      res = await runCase(engine, kase, chosen.options, progress);
    } catch (err) {  // crash, timeout, protocol error: this case fails, a new engine next
      const step = kase.steps[progress.step];
      res = { id: kase.id, step: progress.step, kind: "engine", message: err.message,
        action: step ? step.action : null, sections: step ? step.sections : [],
        rules: step ? step.rules : [],
        stderr: engine.stderr.trim().split("\n").slice(-5).join("\n") };
      engine.close();
      engine = null;
    }
    if (res) failed.push(res); else passed.push(kase.id);
    if (args.verbose && !args.json) process.stdout.write(`${res ? "FAIL" : "ok  "} ${kase.id}\n`);
  }
  engine?.close();
  const seconds = (performance.now() - t0) / 1000;
  if (args.json) {
    process.stdout.write(JSON.stringify({ engine: args.engine, cases: files.length,
      passed: passed.length, failed, skipped, seconds: Number(seconds.toFixed(3)) }) + "\n");
  } else {
    for (const r of failed) {
      const at = ` step ${r.step}` + (r.action ? ` (${sayAction(r.action)})` : " (the end)");
      const why = [r.sections?.length ? r.sections.join(", ") : "",
        r.rules?.length ? `rules ${r.rules.join(", ")}` : ""].filter(Boolean).join("; ");
      process.stdout.write(`FAIL ${r.id}${at}: ${r.message}${why ? ` [${why}]` : ""}\n`);
      if (r.stderr) process.stdout.write(`     engine stderr: ${r.stderr}\n`);
    }
    for (const s of skipped) process.stdout.write(`skip ${s.id}: ${s.reason}\n`);
    process.stdout.write(`${passed.length} passed, ${failed.length} failed, ${skipped.length} ` +
      `skipped of ${files.length} cases in ${seconds.toFixed(2)} s (engine: ${args.engine})\n`);
  }
  process.exitCode = failed.length ? 1 : 0;
}

await main();
