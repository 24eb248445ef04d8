#!/usr/bin/env node
// A sample runner of the chanspec test vectors, in plain JavaScript for Node (ES modules,
// no dependencies). It plays every case of vectors/cases/ against an engine through an
// adapter (adapters/protocol.mjs: an engine speaking vectors/PROTOCOL.md, by default the
// reference `chanspec serve`) and reports, for each case, the FIRST failing step only:
// after the first difference everything is noise. For each failure it names the rows of
// the actions that differ (the step's `why`), the reading of a row that explains it (the
// case's `readings`, believed only when no other case contradicts it) and the rows of
// `depends` that --implements does not declare; at the end, the readings the engine
// seems to play and the differences no reading explains, one line per cause.
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

/** The rows of an action's verdict in a step's (or the end's) `why`, or null when the
 * case names none (the engine offers a form the rules never consider, e.g. eating with a
 * card the seat does not hold). */
function rowsOf(why, seat, code) {
  const w = why?.[String(seat)];
  for (const verdicts of [w?.allow ?? {}, w?.forbid ?? {}]) {
    for (const [rows, actions] of Object.entries(verdicts)) {
      if (actions.includes(code)) return rows ? rows.split(" ") : [];
    }
  }
  return null;
}

function legalDiff(got, want, players, why) {
  const out = [];
  for (let seat = 0; seat < players; seat++) {
    const g = got[seat] ?? [], w = want[String(seat)] ?? [];
    if (!sameSet(g, w)) {
      const missing = w.filter((c) => !g.includes(c));
      const extra = g.filter((c) => !w.includes(c));
      out.push({ seat, missing, extra, duplicates: g.length !== new Set(g).size,
        pending: String(seat) in want,
        // the rows that allow each missing action and forbid each extra one
        missing_rules: Object.fromEntries(missing.map((c) => [c, rowsOf(why, seat, c)])),
        extra_rules: Object.fromEntries(extra.map((c) => [c, rowsOf(why, seat, c)])) });
    }
  }
  return out;
}

function sayRows(rows, verb) {
  return rows === null ? "" : rows.length ? ` (${verb} ${rows.join(", ")})` : "";
}

function sayLegal(diffs) {
  return diffs.map((d) => `seat ${d.seat}: ` + [
    d.missing.length ? "missing [" + d.missing.map((c) =>
      c + sayRows(d.missing_rules[c], "allowed by")).join(", ") + "]" : "",
    d.extra.length ? "extra [" + d.extra.map((c) => c + (d.pending
      ? (d.extra_rules[c] === null ? " (no rule of the case allows it)"
        : sayRows(d.extra_rules[c], "forbidden by"))
      : " (the seat is not asked here)")).join(", ") + "]" : "",
    d.duplicates ? "duplicates" : ""].filter(Boolean).join(", ")).join("; ");
}

/** The rows of the actions that differ: those allowing a missing action, forbidding an
 * extra one. */
function diffRows(diffs) {
  const rows = [];
  for (const d of diffs) {
    for (const r of [...Object.values(d.missing_rules), ...Object.values(d.extra_rules)]) {
      for (const x of r ?? []) if (!rows.includes(x)) rows.push(x);
    }
  }
  return rows;
}

/** What a failure is about, for the summary by cause: what differed, by action kind, and
 * the rows deciding it. Cases failing for one cause share this key. */
function causeOf(r) {
  if (r.readings?.length) {
    return "plays " + r.readings.map((x) => `${x.row} = ${x.values.join(" or ")}`).join(" or ");
  }
  if (r.kind === "legal" || r.kind === "changed") {
    const parts = [];
    for (const d of r.diffs) {
      for (const c of d.missing) parts.push(`missing ${c.split(" ")[0]}`);
      for (const c of d.extra) parts.push(`extra ${c.split(" ")[0]}` + (d.pending ? "" : " by a seat not asked"));
    }
    // grouped by the rows with a reading that plays here in part as the engine does (it
    // differs in more than one reading, or in a reading and a bug), else by the rows of
    // the actions that differ
    const near = [...new Set((r.contradicted ?? r.near ?? []).map((x) => x.row))];
    const rows = near.length ? ` (in part as under another reading of ${near.join(", ")})`
      : r.rules?.length ? ` (rows ${r.rules.join(", ")})` : "";
    return ([...new Set(parts)].sort().join(", ") || r.kind) + rows;
  }
  if (r.kind === "engine") return "the engine failed (crash, timeout or protocol error)";
  const what = { start: "the engine refused the hand", refused: "a legal action refused",
    accepted: "a forbidden action accepted", end: "the end of the hand",
    outcome: "the outcome" }[r.kind] ?? r.kind;
  const verb = r.kind === "accepted" ? "forbidden by" : r.kind === "refused" ? "allowed by"
    : "rules";
  const act = r.action && (r.kind === "refused" || r.kind === "accepted")
    ? ` (${r.action.type})` : "";
  return what + act + (r.rules?.length ? ` (${verb} ${r.rules.join(", ")})` : "");
}

/** The readings of the case (its `readings`: another value of a row of `depends`) under
 * which the case first plays otherwise exactly here and exactly as the engine does: the
 * engine plays that reading there, rather than having a bug. `seen` is what the engine
 * showed at step `index`: {legal} (its legal sets), {valid} (its verdict on the action),
 * or {end} (its outcome); {diffs} (the differing legal sets): the readings that part
 * here in part as the engine does. */
function readingsAt(kase, index, seen, players) {
  const out = [];
  for (const r of kase.readings ?? []) {
    if (r.step !== index) continue;
    if (seen.diffs) {
      // a reading that plays otherwise here in part as the engine does: it adds an action
      // the engine has in excess or removes one the engine lacks
      const part = r.legal && seen.diffs.some((d) => {
        const ch = r.legal[String(d.seat)];
        return ch && (ch.add.some((c) => d.extra.includes(c)) ||
          ch.remove.some((c) => d.missing.includes(c)));
      });
      if (part) out.push({ row: r.row, values: r.values });
      continue;
    }
    if (seen.legal && r.legal) {
      const want = index < kase.steps.length ? kase.steps[index].legal : kase.end.legal ?? {};
      let all = true;
      for (let seat = 0; seat < players && all; seat++) {
        const ch = r.legal[String(seat)];
        const alt = (want[String(seat)] ?? []).filter((c) => !(ch?.remove ?? []).includes(c))
          .concat(ch?.add ?? []);
        all = sameSet(seen.legal[seat] ?? [], alt);
      }
      if (all) out.push({ row: r.row, values: r.values });
    } else if (seen.valid !== undefined && r.valid !== undefined && !r.legal) {
      if (r.valid === seen.valid) out.push({ row: r.row, values: r.values });
    } else if (seen.end && r.end) {
      const e = r.end;
      const same = e.terminal === seen.end.terminal && (!e.terminal || Object.keys(e.outcome ?? {})
        .every((k) => JSON.stringify(seen.end.outcome?.[k] ?? null) === JSON.stringify(e.outcome[k])));
      if (same) out.push({ row: r.row, values: r.values });
    }
  }
  return out;
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
      rules: step ? step.rules : kase.end.rules ?? [],
      near: extra.diffs ? readingsAt(kase, index, { diffs: extra.diffs }, players) : [],
      ...extra };
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
    let diffs = legalDiff(before, step.legal, players, step.why);
    if (diffs.length) {
      return fail(i, "legal", `legal actions before ${sayAction(step.action)} differ: ` +
        sayLegal(diffs), { diffs, rules: diffRows(diffs), step_rules: step.rules,
        readings: readingsAt(kase, i, { legal: before }, players) });
    }
    if (r.ok !== step.valid) {
      return fail(i, step.valid ? "refused" : "accepted", step.valid
        ? `the engine refused ${sayAction(step.action)}, which is legal here (${r.error ?? ""})`
        : `the engine accepted ${sayAction(step.action)}, which the rules forbid here`,
        { readings: readingsAt(kase, i, { valid: r.ok }, players) });
    }
    if (!step.valid) {
      diffs = legalDiff(again, step.legal, players, step.why);
      if (diffs.length) {
        return fail(i, "changed", `refusing ${sayAction(step.action)} changed the position: ` +
          sayLegal(diffs), { diffs, rules: diffRows(diffs), step_rules: step.rules });
      }
    }
  }
  const end = kase.end;
  const last = kase.steps.length;
  progress.step = last;
  const out = await engine.outcome();
  const endReadings = () => readingsAt(kase, last, { end: out }, players);
  if (out.terminal !== end.terminal) {
    return fail(last, "end", end.terminal ? "the hand should be over, the engine goes on"
      : "the hand should go on" + (end.stuck ? " (stuck: a seat is pending with no legal action)"
        : "") + ", the engine says it is over", { readings: endReadings() });
  }
  if (end.terminal) {
    // the fields the case states: result, winner, kind, card, and where acts may stand
    // as faults the faults (each one's seat and rows), compared as JSON
    const keys = Object.keys(end.outcome);
    const got = Object.fromEntries(keys.map((k) => [k, out.outcome?.[k] ?? null]));
    if (keys.some((k) => JSON.stringify(got[k]) !== JSON.stringify(end.outcome[k]))) {
      return fail(last, "outcome", `outcome ${JSON.stringify(got)}, expected ` +
        JSON.stringify(end.outcome), { expected: end.outcome, got, readings: endReadings() });
    }
  } else {
    const got = await engine.legal(players);
    const diffs = legalDiff(got, end.legal, players, end.why);
    if (diffs.length) {
      return fail(last, "legal", `legal actions at the end differ: ${sayLegal(diffs)}`,
        { diffs, rules: diffRows(diffs), readings: readingsAt(kase, last, { legal: got }, players) });
    }
  }
  return null;
}

/** The rows of a case's `depends` that --implements does not declare (all of them without
 * --implements), each with the value the case was started with: if the engine plays
 * another reading of such a row, the case fails for that reason, not for a bug. */
function undeclared(kase, implementsMap, options) {
  const out = {};
  for (const row of Object.keys(kase.depends ?? {})) {
    if (!implementsMap || !(row in implementsMap)) out[row] = options[row] ?? kase.depends[row][0];
  }
  return out;
}

function sayRowsWithSections(rules, rowInfo) {
  return rules.map((r) => rowInfo?.[r]?.section ? `${r} (${rowInfo[r].section})` : r).join(", ");
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
  // each row's section and title (index.json, optional: a folder of cases alone works)
  let rowInfo = null;
  try {
    rowInfo = JSON.parse(readFileSync(join(args.vectors, "index.json"), "utf8")).rows ?? null;
  } catch { rowInfo = null; }
  const t0 = performance.now();
  let engine = null;
  const passed = [], failed = [], skipped = [], passedDepends = [], playedAsWritten = [];
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
    if (res) {
      res.undeclared = undeclared(kase, implementsMap, chosen.options);
      failed.push(res);
      // the readings the engine went past as written before its first difference
      playedAsWritten.push([kase.id, (kase.readings ?? []).filter((x) => x.step < res.step &&
        (x.legal || x.valid !== undefined))]);
    } else {
      passed.push(kase.id);
      passedDepends.push([kase.id, kase.depends ?? {}]);
    }
    if (args.verbose && !args.json) process.stdout.write(`${res ? "FAIL" : "ok  "} ${kase.id}\n`);
  }
  engine?.close();
  const seconds = (performance.now() - t0) / 1000;
  // A reading that explains a failing case is believed only if no passing case says
  // otherwise: a case the engine passed that depends on the row plays as written only
  // under the values its `depends` lists, so the engine does not play another value there
  // (an engine with a bug that looks like a reading at one position is not pinned on it);
  // nor does a failing case that went as written past the step where that value parts
  for (const r of failed) {
    const believed = [], against = [];
    for (const x of r.readings ?? []) {
      const contra = passedDepends.filter(([, dep]) => x.row in dep &&
        !x.values.some((v) => dep[x.row].includes(v))).map(([id]) => id).concat(
        playedAsWritten.filter(([id, rs]) => id !== r.id && rs.some((y) => y.row === x.row &&
          x.values.every((v) => y.values.includes(v)))).map(([id]) => id));
      if (contra.length) against.push({ ...x, passed: contra }); else believed.push(x);
    }
    r.readings = believed;
    if (against.length) r.contradicted = against;
    r.cause = causeOf(r);
  }
  // the failures grouped by cause, the commonest first (ties by the first case's id)
  const byCause = new Map();
  for (const r of failed) {
    if (!byCause.has(r.cause)) {
      byCause.set(r.cause, { cause: r.cause, explained: Boolean(r.readings?.length),
        readings: r.readings ?? [], rules: r.rules ?? [], cases: [] });
    }
    byCause.get(r.cause).cases.push(r.id);
  }
  const causes = [...byCause.values()].sort((a, b) => b.cases.length - a.cases.length
    || (a.cases[0] < b.cases[0] ? -1 : 1));
  if (args.json) {
    process.stdout.write(JSON.stringify({ engine: args.engine, cases: files.length,
      passed: passed.length, failed, skipped, causes,
      seconds: Number(seconds.toFixed(3)) }) + "\n");
  } else {
    for (const r of failed) {
      const at = ` step ${r.step}` + (r.action ? ` (${sayAction(r.action)})` : " (the end)");
      const why = [r.sections?.length ? r.sections.join(", ") : "",
        r.step_rules?.length ? `step rules ${r.step_rules.join(", ")}` : ""].filter(Boolean).join("; ");
      process.stdout.write(`FAIL ${r.id}${at}: ${r.message}${why ? ` [${why}]` : ""}\n`);
      if (r.rules?.length) {
        process.stdout.write(`     rows: ${sayRowsWithSections(r.rules, rowInfo)}\n`);
      }
      if (r.readings?.length) {
        process.stdout.write("     explained by a reading: the case plays exactly so under " +
          r.readings.map((x) => `${x.row} = ${x.values.join(" or ")}`).join(", or ") +
          " (declare it in --implements if your engine plays it)\n");
      } else if (r.contradicted?.length) {
        process.stdout.write("     it looks like " + r.contradicted.map((x) =>
          `${x.row} = ${x.values.join(" or ")} (but the engine plays ${x.row} as written in ` +
          `${x.passed.length} other case${x.passed.length > 1 ? "s" : ""}, e.g. ${x.passed[0]})`).join(", or ") + ": a bug, not that reading\n");
      } else if (r.near?.length) {
        process.stdout.write("     no reading alone explains it; in part as under " +
          r.near.map((x) => `${x.row} = ${x.values.join(" or ")}`).join(", or ") +
          " (if your engine plays one, declare it and run again)\n");
      }
      // the rows of this difference the case depends on and --implements does not declare:
      // a reading the engine plays there, rather than a bug, may be the cause
      const und = Object.entries(r.undeclared).filter(([row]) => (r.rules ?? []).includes(row));
      if (und.length) {
        process.stdout.write(`     the case depends on ${und.map(([row, v]) => `${row} = ${v}`)
          .join(", ")}, which --implements does not declare: if your engine plays another ` +
          "reading of it, declare that and the case is skipped or started with it\n");
      }
      if (r.stderr) process.stdout.write(`     engine stderr: ${r.stderr}\n`);
    }
    for (const s of skipped) process.stdout.write(`skip ${s.id}: ${s.reason}\n`);
    const say = (title, list) => {
      if (!list.length) return;
      process.stdout.write(`${title} (${list.length}):\n`);
      for (const c of list) {
        const ids = c.cases.length > 6 ? `${c.cases.slice(0, 6).join(", ")}, …` : c.cases.join(", ");
        process.stdout.write(`  ${String(c.cases.length).padStart(3)} ${c.cases.length === 1 ? "case " : "cases"}  ${c.cause}: ${ids}\n`);
      }
    };
    say("readings the engine seems to play (declare them in --implements)",
      causes.filter((c) => c.explained));
    say("differences no reading explains, by cause", causes.filter((c) => !c.explained));
    process.stdout.write(`${passed.length} passed, ${failed.length} failed, ${skipped.length} ` +
      `skipped of ${files.length} cases in ${seconds.toFixed(2)} s (engine: ${args.engine})\n`);
  }
  process.exitCode = failed.length ? 1 : 0;
}

await main();
