/* The winning-hand explorer page: pick cards, players and a completing card; show the
 * verdict of assets/win.js under every value of the open rules that change it. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("chan-data").textContent);
  var faces = data.faces;
  var counts = new Array(30).fill(0);

  function el(tag, cls, html) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (html !== undefined) e.innerHTML = html;
    return e;
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function bi(vi, en) {
    return '<span class="vi" lang="vi">' + esc(vi) + '</span><span class="en" lang="en">' +
      esc(en) + "</span>";
  }
  function lang() { return window.ChanApp ? window.ChanApp.lang() : "vi"; }

  /* the same markup as checks/report/site.py: tile() */
  function tile(f, small) {
    var fc = faces[f];
    var top = fc.rank === null ? "yêu" : String(fc.rank);
    var mid = fc.rank === null ? fc.name : fc.rank_name;
    var low = fc.rank === null ? "" : fc.suit;
    var lvi = fc.name + (fc.red ? ", quân đỏ" : "");
    var len = fc.name + (fc.red ? ", red card" : "");
    return '<span class="tile' + (fc.red ? " red" : "") + (small ? " small" : "") +
      '" role="img" aria-label="' + esc(lang() === "en" ? len : lvi) + '" data-label-vi="' +
      esc(lvi) + '" data-label-en="' + esc(len) + '" title="' + esc(fc.name + " (" + fc.code + ")") +
      '"><span class="tr" aria-hidden="true">' + esc(top) + '</span><span class="tn" aria-hidden="true">' +
      esc(mid) + '</span><span class="ts" aria-hidden="true">' + esc(low) + "</span>" +
      (fc.red ? '<span class="tm" aria-hidden="true">◆đỏ</span>' : "") + "</span>";
  }

  function players() {
    var r = document.querySelector('input[name="players"]:checked');
    return r ? Number(r.value) : data.players[0];
  }
  function candidate() {
    var v = document.getElementById("cand").value;
    return v === "" ? null : Number(v);
  }
  function hand() {
    var h = [];
    for (var f = 0; f < 30; f++) for (var k = 0; k < counts[f]; k++) h.push(f);
    return h;
  }

  function reason(v, rs) {
    var c = v.chan;
    switch (v.why) {
      case "ok":
        return bi("Ù: " + rs.pairs + " đôi, " + c + " Chắn (cần ít nhất " + rs.min_chan + ").",
                  "Complete: " + rs.pairs + " pairs, " + c + " chắn (at least " + rs.min_chan + " needed).");
      case "count":
        return bi(v.cards + " quân không thể thành " + rs.pairs + " đôi: bài ù có đúng " + v.need + " quân.",
                  v.cards + " cards cannot make " + rs.pairs + " pairs: a complete hand has exactly " + v.need + ".");
      case "never":
        return bi(faces[v.face].name + " không bao giờ được là quân hoàn thành Ù.",
                  faces[v.face].name + " may never be the card that completes ù.");
      case "shape":
        return bi("Bài không chia hết thành đôi (Chắn hoặc Cạ).", "The cards do not split into pairs (chắn or cạ).");
      case "final":
        return bi("Bài không chia hết thành đôi với đôi cuối hợp lệ: Cạ đặc biệt không được làm đôi cuối.",
                  "No split with an allowed final pair: a special cạ may not be the last pair.");
      case "exact":
        return bi(c + " Chắn: " + faces[v.face].name + " chỉ được ù bài có đúng " + v.min + " Chắn.",
                  c + " chắn: " + faces[v.face].name + " completes only a hand of exactly " + v.min + " chắn.");
      case "min":
        return bi("Chỉ có " + c + " Chắn; cần ít nhất " + v.min + "." +
                  (v.finalBlocked ? " Muốn nhiều hơn phải dùng Cạ đặc biệt làm đôi cuối." : ""),
                  "Only " + c + " chắn; at least " + v.min + " are needed." +
                  (v.finalBlocked ? " More would need a special cạ as the final pair." : ""));
    }
    return "";
  }

  function errorText(v) {
    var n = v.face !== undefined ? faces[v.face].name : "";
    if (v.error === "chiu-needs-three") {
      return bi("Ù bằng Chíu cần đang cầm đủ ba quân " + n + ".", "Winning by chíu needs three " + n + " in the hand.");
    }
    if (v.error === "copies") return bi(n + ": quá " + 4 + " quân.", n + ": more than 4 copies.");
    return bi("Bài không hợp lệ.", "Not a possible hand.");
  }

  function optionLabel(rs) {
    return data.win_options.map(function (o) {
      var v = rs.options[o.id];
      var m = o.meaning[v] || {};
      return '<span class="optv"><code>' + esc(o.id) + "</code> = <code>" + esc(v) + "</code>" +
        (v === o["default"] ? ' <span class="badge default"><span class="icon" aria-hidden="true">★</span> ' +
          bi("mặc định", "default") + "</span>" : "") +
        (m.vi ? " " + bi(m.vi, m.en) : "") + "</span>";
    }).join("<br>");
  }

  function groupHtml(g, eng) {
    var cls = "group";
    if (g.length === 4) cls += " chan";
    else if (g[0] === g[1]) cls += " chan";
    else if (eng.spM[g[0]][g[1]]) cls += " special";
    var kind = g.length === 4 ? bi("Chíu", "Chíu") : g[0] === g[1] ? bi("Chắn", "Chắn")
      : eng.spM[g[0]][g[1]] ? bi("Cạ đặc biệt", "special cạ") : bi("Cạ", "cạ");
    return '<span class="' + cls + '">' + g.map(function (f) { return tile(f, true); }).join("") +
      '<span class="lbl">' + kind + "</span></span>";
  }

  function render() {
    var p = players();
    var rsets = data.rulesets.filter(function (r) { return r.players === p; });
    var cand = candidate();
    var chiu = document.getElementById("chiu-u").checked;
    var kind = cand === null ? "opening" : (chiu ? "chiu-u" : "u");
    var h = hand();
    var need = 2 * rsets[0].pairs - (cand === null ? 0 : 1);
    for (var f = 0; f < 30; f++) {
      var c = document.getElementById("count-" + f);
      if (c) {
        c.textContent = "×" + counts[f];
        c.parentNode.classList.toggle("has", counts[f] > 0);
      }
    }
    document.getElementById("hand-status").innerHTML =
      bi("Đã chọn " + h.length + " quân; cần " + need + " quân" +
         (cand === null ? " (xét cả bài như khi vừa chia)." : " cộng quân hoàn thành " + faces[cand].name + "."),
         h.length + " cards picked; " + need + " needed" +
         (cand === null ? " (the whole hand judged as dealt)." : " plus the completing card " + faces[cand].name + "."));
    document.getElementById("hand-view").innerHTML = h.map(function (f) { return tile(f, true); }).join("");
    var out = [];
    var seen = {};
    rsets.forEach(function (rs) {
      var eng = window.ChanWin.engine(rs);
      var v = eng.judge(h, cand, kind);
      var box;
      if (v.error) {
        seen.error = true;
        box = '<div class="verdict no" data-win="error"><h3>' + optionLabel(rs) + "</h3><p>" + errorText(v) + "</p></div>";
      } else {
        seen[v.win] = true;
        var badge = v.win
          ? '<span class="badge win"><span class="icon" aria-hidden="true">✔</span> ' + bi("Ù được", "Wins") + "</span>"
          : '<span class="badge nowin"><span class="icon" aria-hidden="true">✘</span> ' + bi("Chưa ù", "Does not win") + "</span>";
        var rules = v.rules.map(function (r) {
          return '<a class="internal" href="index.html#r-' + esc(r) + '"><code>' + esc(r) + "</code></a>";
        }).join(", ");
        box = '<div class="verdict ' + (v.win ? "yes" : "no") + '" data-win="' + v.win + '" data-chan="' +
          (v.chan === null ? "" : v.chan) + '"><h3>' + badge + "</h3><p>" + optionLabel(rs) + "</p><p>" +
          reason(v, rs) + "</p><p>" + bi("Luật quyết định: ", "Deciding rules: ") + rules + "</p>" +
          (v.groups ? '<div class="groups">' + v.groups.map(function (g) { return groupHtml(g, eng); }).join("") + "</div>" : "") +
          "</div>";
      }
      out.push(box);
    });
    var n = Object.keys(seen).length;
    var head = n > 1
      ? '<p class="differs"><span aria-hidden="true">⚠</span> ' +
        bi("Kết quả phụ thuộc vào luật còn mở.", "The verdict depends on the open rules.") + "</p>"
      : "<p>" + bi("Mọi lựa chọn của các luật còn mở cho cùng một kết quả.",
                   "Every value of the open rules gives the same verdict.") + "</p>";
    document.getElementById("verdict-body").innerHTML = head + out.join("");
    if (window.ChanApp) window.ChanApp.setLang(lang(), false);
  }

  function sample() {
    var p = players();
    var rs = data.rulesets.filter(function (r) { return r.players === p; })[0];
    counts.fill(0);
    var chan = rs.min_chan + 1;           // chắn of 1v, 2v, ...
    for (var f = 0; f < chan; f++) counts[f] = 2;
    var left = rs.pairs - chan;           // the rest as cạ of ranks 2.. (Văn + Sách)
    for (var k = 0; k < left; k++) {
      counts[9 + 1 + k] += 1;
      if (k < left - 1) counts[18 + 1 + k] += 1;
    }
    document.getElementById("cand").value = String(18 + left);
    document.getElementById("chiu-u").checked = false;
  }

  document.querySelectorAll("button.add").forEach(function (b) {
    b.addEventListener("click", function () {
      var f = Number(b.getAttribute("data-face"));
      if (counts[f] < 4) counts[f] += 1;
      render();
    });
  });
  document.querySelectorAll("button.sub").forEach(function (b) {
    b.addEventListener("click", function () {
      var f = Number(b.getAttribute("data-face"));
      if (counts[f] > 0) counts[f] -= 1;
      render();
    });
  });
  document.querySelectorAll('input[name="players"], #cand, #chiu-u').forEach(function (e) {
    e.addEventListener("change", render);
  });
  document.getElementById("clear").addEventListener("click", function () { counts.fill(0); render(); });
  document.getElementById("sample").addEventListener("click", function () { sample(); render(); });
  render();
})();
