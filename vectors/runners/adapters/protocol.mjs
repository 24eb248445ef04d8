// Adapter for an engine that speaks the JSON-lines protocol of vectors/PROTOCOL.md on
// stdin/stdout, run as a child process: `chanspec serve` (the reference) by default.
//
// An adapter is any object with these methods (all async except supports and close):
//   start(start)        -> {ok, error?}   new hand: start = {ruleset, players, options, deal}
//   legal(players)      -> {seat: ["eat 3n", "pass", ...]} for every seat 0..players-1
//   apply(action)       -> {ok, error?}   action = a game-log action object
//   outcome()           -> {terminal, outcome?}
//   supports(row, value)-> boolean        option values this engine implements
//   close()
// Write one for your own engine (in-process calls, HTTP, ...) with the same methods.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Split a command line like a shell would for plain words and quotes (no expansion). */
export function splitCommand(text) {
  const out = [];
  let cur = "", quote = null, any = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null; else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch; any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = ""; any = false;
    } else {
      cur += ch;
    }
  }
  if (quote) throw new Error(`unbalanced ${quote} in command: ${text}`);
  if (cur || any) out.push(cur);
  return out;
}

/** The code of an action object, as in a vector's legal sets: "eat 3n", "pass", and a
 * declaration "declare cuoc-a,cuoc-b" (the cước named, sorted; "declare" names none). */
export function codeOf(action) {
  if (action.type === "declare") {
    const named = action.cuoc ?? [];
    return named.length ? `declare ${named.join(",")}` : "declare";
  }
  return action.card === undefined || action.card === null
    ? action.type : `${action.type} ${action.card}`;
}

export class ProtocolEngine {
  /**
   * @param {string} command the engine's command line (default: chanspec serve)
   * @param {object} [opts] {timeoutMs: per request, implements: {row: [values]} or null}
   */
  constructor(command = "chanspec serve", opts = {}) {
    const argv = splitCommand(command);
    if (argv.length === 0) throw new Error("empty engine command");
    this.command = command;
    this.timeoutMs = opts.timeoutMs ?? 10000;
    this.implements = opts.implements ?? null;
    this.nextId = 1;
    this.waiting = [];  // resolvers in request order
    this.stderr = "";
    this.exited = null;
    this.child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    this.child.on("error", (err) => this._failAll(`cannot run ${argv[0]}: ${err.message}`));
    this.child.on("exit", (code, signal) => {
      this.exited = signal ?? code;
      this._failAll(`the engine exited (${signal ?? `code ${code}`})`);
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    this.child.stdin.on("error", () => {});  // reported through exit
    createInterface({ input: this.child.stdout }).on("line", (line) => this._answer(line));
  }

  _failAll(message) {
    // each pending request fails now; its timer goes too, or it would keep the runner
    // alive until the timeout had run out
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error(message));
    }
  }

  _answer(line) {
    const w = this.waiting.shift();
    if (!w) return;  // an unasked line: ignored
    clearTimeout(w.timer);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      w.reject(new Error(`the engine answered something that is not JSON: ${line.slice(0, 200)}`));
      return;
    }
    if (msg === null || typeof msg !== "object" || typeof msg.ok !== "boolean") {
      w.reject(new Error(`not a protocol answer (an object with a boolean ok): ${line.slice(0, 200)}`));
    } else if (msg.id !== undefined && msg.id !== w.id) {
      w.reject(new Error(`answer id ${msg.id} to request ${w.id}`));
    } else {
      w.resolve(msg);
    }
  }

  /** Send one request; the promise resolves with its answer (requests may be pipelined). */
  request(req) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.exited !== null) {
        reject(new Error(`the engine exited (${this.exited})`));
        return;
      }
      const timer = setTimeout(() => {
        reject(new Error(`no answer within ${this.timeoutMs} ms to ${JSON.stringify(req)}`));
        this.child.kill();
      }, this.timeoutMs);
      this.waiting.push({ id, resolve, reject, timer });
      this.child.stdin.write(JSON.stringify({ ...req, id }) + "\n");
    });
  }

  supports(row, value) {
    const vals = this.implements?.[row];
    return vals === undefined || vals.includes(value);
  }

  async start(start) {
    return this.request({ op: "start", ...start });
  }

  async legal(players) {
    const asks = [];
    for (let seat = 0; seat < players; seat++) asks.push(this.request({ op: "legal", seat }));
    const answers = await Promise.all(asks);
    const out = {};
    answers.forEach((a, seat) => {
      if (!a.ok) throw new Error(`legal for seat ${seat} refused: ${a.error}`);
      out[seat] = a.actions.map(codeOf);
    });
    return out;
  }

  async apply(action) {
    return this.request({ op: "apply", action });
  }

  async outcome() {
    const a = await this.request({ op: "outcome" });
    if (!a.ok) throw new Error(`outcome refused: ${a.error}`);
    return a;
  }

  close() {
    if (this.exited === null) {
      this.child.stdin.write(JSON.stringify({ op: "quit", id: this.nextId++ }) + "\n");
      this.child.stdin.end();
      setTimeout(() => { if (this.exited === null) this.child.kill(); }, 1000).unref();
    }
  }
}
