/* Winning-hand engine for the offline report: a line-by-line port of the class-table
 * algorithm in model/win.py (WinEngine).  It reads a resolved rule set exported by
 * checks/report/site.py as JSON: the cạ pairs, which of them are special, the classes of the
 * cạ graph, the faces that may never complete ù, and the pairs / minimum chắn.
 * tests/test_report.py runs this file with node and checks it agrees with Python.
 * It judges concealed hands only (nothing laid down), so the reading of laid groups
 * ([win] laid_rule, row laid-groups: as laid or split again) never changes its answer
 * and it has no code for it: both readings agree on a hand with no laid group.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.ChanWin = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";
  var NONE = -1;
  var NUM_FACES = 30;

  function matrix(fill) {
    var m = [];
    for (var a = 0; a < NUM_FACES; a++) {
      var row = [];
      for (var b = 0; b < NUM_FACES; b++) row.push(fill);
      m.push(row);
    }
    return m;
  }

  /* best[key]: most chắn over complete decompositions of the class counts (NONE if none);
   * final[i][key]: the same when face i must sit in an allowed final pair. */
  function buildTables(k, copies, ca, special) {
    var base = copies + 1;
    var size = Math.pow(base, k);
    var w = [];
    for (var i = 0; i < k; i++) w.push(Math.pow(base, i));
    var best = new Int16Array(size).fill(NONE);
    best[0] = 0;
    var v = new Array(k);
    var key, j, top, b;
    for (key = 1; key < size; key++) {
      for (i = 0; i < k; i++) v[i] = Math.floor(key / w[i]) % base;
      for (i = 0; i < k && !v[i]; i++);
      top = NONE;
      if (v[i] >= 2 && best[key - 2 * w[i]] !== NONE) top = best[key - 2 * w[i]] + 1;
      for (j = 0; j < k; j++) {
        if (j !== i && v[j] && ca[i][j]) {
          b = best[key - w[i] - w[j]];
          if (b > top) top = b;
        }
      }
      best[key] = top;
    }
    var final = [];
    for (i = 0; i < k; i++) final.push(new Int16Array(size).fill(NONE));
    for (key = 1; key < size; key++) {
      for (i = 0; i < k; i++) v[i] = Math.floor(key / w[i]) % base;
      for (i = 0; i < k; i++) {
        if (!v[i]) continue;
        top = NONE;
        if (v[i] >= 2 && best[key - 2 * w[i]] !== NONE) top = best[key - 2 * w[i]] + 1;
        for (j = 0; j < k; j++) {
          if (j !== i && v[j] && ca[i][j] && !special[i][j]) {
            b = best[key - w[i] - w[j]];
            if (b > top) top = b;
          }
        }
        final[i][key] = top;
      }
    }
    return { best: best, final: final };
  }

  function ClassTable(faces, rs, caM, spM) {
    var k = faces.length;
    this.faces = faces;
    this.index = {};
    this.weights = [];
    var base = rs.copies + 1;
    for (var i = 0; i < k; i++) {
      this.index[faces[i]] = i;
      this.weights.push(Math.pow(base, i));
    }
    this.ca = faces.map(function (a) { return faces.map(function (b) { return caM[a][b]; }); });
    this.special = faces.map(function (a) { return faces.map(function (b) { return spM[a][b]; }); });
    var t = buildTables(k, rs.copies, this.ca, this.special);
    this.best = t.best;
    this.final = t.final;
  }

  ClassTable.prototype.key = function (counts) {
    var key = 0;
    for (var i = 0; i < this.faces.length; i++) key += counts[this.faces[i]] * this.weights[i];
    return key;
  };

  /* rs: one exported rule set (see checks/report/site.py: export_rulesets). */
  function Engine(rs) {
    var caM = matrix(false);
    var spM = matrix(false);
    rs.ca.forEach(function (p) { caM[p[0]][p[1]] = caM[p[1]][p[0]] = true; });
    rs.special.forEach(function (p) { spM[p[0]][p[1]] = spM[p[1]][p[0]] = true; });
    this.rs = rs;
    this.caM = caM;
    this.spM = spM;
    this.classes = rs.components.map(function (c) { return new ClassTable(c, rs, caM, spM); });
    this.classOf = {};
    var self = this;
    this.classes.forEach(function (t) { t.faces.forEach(function (f) { self.classOf[f] = t; }); });
    this.needCards = 2 * rs.pairs;
    this.never = {};
    rs.never_complete.forEach(function (f) { self.never[f] = true; });
    this.neverApplies = {};
    rs.never_complete_applies.forEach(function (k) { self.neverApplies[k] = true; });
    this.inDeck = {};
    rs.faces.forEach(function (f) { self.inDeck[f] = true; });
    this.r = rs.rule_ids;
  }

  Engine.prototype.concealedBest = function (counts) {
    var total = 0;
    for (var c = 0; c < this.classes.length; c++) {
      var t = this.classes[c];
      var b = t.best[t.key(counts)];
      if (b < 0) return NONE;
      total += b;
    }
    return total;
  };

  Engine.prototype.classPairs = function (t, v) {
    var pairs = [];
    var w = t.weights;
    var key = 0;
    var i, j;
    for (i = 0; i < v.length; i++) key += v[i] * w[i];
    while (key) {
      var target = t.best[key];
      for (i = 0; i < v.length && !v[i]; i++);
      if (v[i] >= 2 && t.best[key - 2 * w[i]] !== NONE && t.best[key - 2 * w[i]] + 1 === target) {
        pairs.push([t.faces[i], t.faces[i]]);
        v[i] -= 2;
        key -= 2 * w[i];
        continue;
      }
      var found = false;
      for (j = 0; j < v.length; j++) {
        if (j !== i && v[j] && t.ca[i][j] && t.best[key - w[i] - w[j]] === target) {
          pairs.push([t.faces[i], t.faces[j]]);
          v[i] -= 1;
          v[j] -= 1;
          key -= w[i] + w[j];
          found = true;
          break;
        }
      }
      if (!found) throw new Error("decomposition table inconsistent");
    }
    return pairs;
  };

  Engine.prototype.decompose = function (counts) {
    var out = [];
    for (var c = 0; c < this.classes.length; c++) {
      var t = this.classes[c];
      out = out.concat(this.classPairs(t, t.faces.map(function (f) { return counts[f]; })));
    }
    return out;
  };

  Engine.prototype.decomposeWithFinal = function (full, cand) {
    var t = this.classOf[cand];
    var i = t.index[cand];
    var v = t.faces.map(function (f) { return full[f]; });
    var key = t.key(full);
    var target = t.final[i][key];
    var w = t.weights;
    var fin = null;
    if (v[i] >= 2 && t.best[key - 2 * w[i]] !== NONE && t.best[key - 2 * w[i]] + 1 === target) {
      fin = [cand, cand];
      v[i] -= 2;
    } else {
      for (var j = 0; j < v.length; j++) {
        if (j !== i && v[j] && t.ca[i][j] && !t.special[i][j] &&
            t.best[key - w[i] - w[j]] === target) {
          fin = [cand, t.faces[j]];
          v[i] -= 1;
          v[j] -= 1;
          break;
        }
      }
    }
    var out = [];
    for (var c = 0; c < this.classes.length; c++) {
      var o = this.classes[c];
      if (o === t) out = out.concat(this.classPairs(t, v));
      else out = out.concat(this.classPairs(o, o.faces.map(function (f) { return full[f]; })));
    }
    out.push(fin);
    return out;
  };

  function verdict(win, chan, groups, rules, why, extra) {
    // one row may play two roles (classic: chíu-counts-two is also counts_rule): once each
    rules = rules.filter(function (x, i) { return rules.indexOf(x) === i; });
    var v = { win: win, chan: chan, groups: groups, rules: rules, why: why };
    for (var k in extra || {}) v[k] = extra[k];
    return v;
  }

  /* judge(hand, candidate, kind): hand is the list of faces held before the candidate
   * (all concealed); kind is "u", "chiu-u" or "opening" (no candidate).
   * Returns {win, chan, groups, rules, why} where why is one of
   * ok, count, never, shape, final, min; or {error: ...} for impossible input. */
  Engine.prototype.judge = function (hand, candidate, kind) {
    var r = this.r;
    if (candidate === undefined) candidate = null;
    kind = kind || (candidate === null ? "opening" : "u");
    var held = new Array(NUM_FACES).fill(0);
    hand.forEach(function (f) { held[f] += 1; });
    var concealed = held.slice();
    if (candidate !== null) held[candidate] += 1;
    for (var f = 0; f < NUM_FACES; f++) {
      if (held[f] > this.rs.copies) return { error: "copies", face: f };
      if (held[f] && !this.inDeck[f]) return { error: "not-in-deck", face: f };
    }
    if (kind === "opening" && candidate !== null) return { error: "opening-candidate" };
    if (kind !== "opening" && candidate === null) return { error: "needs-candidate" };
    var n = held.reduce(function (a, b) { return a + b; }, 0);
    if (n !== this.needCards) {
      return verdict(false, null, null, [r.shape], "count", { cards: n, need: this.needCards });
    }
    var refused = candidate !== null && !!this.never[candidate] && !!this.neverApplies[kind];
    var chan, groups, rulesUsed, b;
    var finalBlocked = false;
    if (kind === "chiu-u") {
      if (concealed[candidate] < 3) return { error: "chiu-needs-three", face: candidate };
      var rest = concealed.slice();
      rest[candidate] -= 3;
      b = this.concealedBest(rest);
      chan = b < 0 ? null : b + 2;
      groups = b < 0 ? null : [[candidate, candidate, candidate, candidate]].concat(this.decompose(rest));
      rulesUsed = [r.shape, r.counts, r.chiu];
    } else if (kind === "opening") {
      b = this.concealedBest(concealed);
      chan = b < 0 ? null : b;
      groups = b < 0 ? null : this.decompose(concealed);
      rulesUsed = [r.shape, r.counts];
    } else {
      var full = concealed.slice();
      full[candidate] += 1;
      var t = this.classOf[candidate];
      var i = t.index[candidate];
      var restBest = 0;
      for (var c = 0; c < this.classes.length; c++) {
        var o = this.classes[c];
        if (o === t) continue;
        var ob = o.best[o.key(full)];
        restBest = ob < 0 || restBest < 0 ? NONE : restBest + ob;
      }
      var fb = t.final[i][t.key(full)];
      var ub = t.best[t.key(full)];
      // the final-pair ban decides a refusal when, without it, the hand would reach the
      // minimum and, with it, does not (the same definition as model/win.py)
      var loose = restBest >= 0 && ub >= 0 ? restBest + ub : NONE;
      var strict = restBest >= 0 && fb >= 0 ? restBest + fb : NONE;
      finalBlocked = loose >= this.rs.min_chan && strict < this.rs.min_chan;
      if (restBest < 0 || fb < 0) {
        chan = null;
        groups = null;
      } else {
        chan = restBest + fb;
        groups = this.decomposeWithFinal(full, candidate);
      }
      rulesUsed = [r.shape, r.counts];
    }
    if (refused) {
      return verdict(false, chan, groups, finalBlocked ? [r.never, r.final] : [r.never], "never",
                     { face: candidate });
    }
    if (chan === null) {
      return verdict(false, null, null, finalBlocked ? [r.shape, r.final] : [r.shape],
                     finalBlocked ? "final" : "shape", {});
    }
    // a win on the dealt hand may need fewer chắn ([win] opening_min_chan); a face of
    // [win] exact_min completes only a hand of exactly min_chan chắn (model/win.py)
    var need = kind === "opening" && this.rs.opening_min_chan !== undefined ?
      this.rs.opening_min_chan : this.rs.min_chan;
    var exact = candidate !== null && (this.rs.exact_min || []).indexOf(candidate) >= 0 &&
      (this.rs.exact_min_applies || []).indexOf(kind) >= 0;
    if (exact && chan > this.rs.min_chan) {
      return verdict(false, chan, groups, [r.shape, r.counts, r.exact], "exact",
                     { face: candidate, min: this.rs.min_chan });
    }
    if (chan < need) {
      var why = [r.shape, r.counts];
      if (finalBlocked) why.push(r.final);
      if (kind === "opening" && r.opening) why.push(r.opening);
      return verdict(false, chan, groups, why, "min",
                     { min: need, finalBlocked: finalBlocked });
    }
    if (exact) rulesUsed = rulesUsed.concat([r.exact]);
    if (kind === "opening" && r.opening) rulesUsed = rulesUsed.concat([r.opening]);
    return verdict(true, chan, groups, rulesUsed, "ok", { finalBlocked: finalBlocked });
  };

  var cache = {};
  function engine(rs) {
    var k = JSON.stringify([rs.players, rs.options]);
    if (!cache[k]) cache[k] = new Engine(rs);
    return cache[k];
  }

  return { Engine: Engine, engine: engine, NONE: NONE };
});
