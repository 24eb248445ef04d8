/* Shared page behaviour: the language switch (Vietnamese by default; remembered in
 * localStorage and in the URL hash as "lang=en"), anchors given in the hash, and a
 * collector of script errors written into the page (#js-errors) for the tests. */
(function () {
  "use strict";
  var errors = [];
  function showErrors() {
    var box = document.getElementById("js-errors");
    if (!box) {
      box = document.createElement("pre");
      box.id = "js-errors";
      box.hidden = true;
      document.body.appendChild(box);
    }
    box.textContent = JSON.stringify(errors);
  }
  window.addEventListener("error", function (e) {
    errors.push(String(e.message || e.type) + " @ " + (e.filename || "") + ":" + (e.lineno || ""));
    if (document.body) showErrors();
  }, true);

  function parseHash() {
    var out = { lang: null, target: null };
    var h = decodeURIComponent(location.hash.replace(/^#/, ""));
    h.split("&").forEach(function (part) {
      if (!part) return;
      var m = /^lang=(vi|en)$/.exec(part);
      if (m) out.lang = m[1];
      else out.target = part;
    });
    return out;
  }

  function stored() {
    try { return localStorage.getItem("chanspec-lang"); } catch (e) { return null; }
  }

  function setLang(lang, remember) {
    var root = document.documentElement;
    root.setAttribute("data-lang", lang);
    root.setAttribute("lang", lang);
    if (remember) {
      try { localStorage.setItem("chanspec-lang", lang); } catch (e) { /* file:// may forbid it */ }
    }
    var t = document.querySelector("title");
    if (t && t.getAttribute("data-title-" + lang)) document.title = t.getAttribute("data-title-" + lang);
    document.querySelectorAll("[data-label-" + lang + "]").forEach(function (el) {
      el.setAttribute("aria-label", el.getAttribute("data-label-" + lang));
    });
    document.querySelectorAll("[data-alt-" + lang + "]").forEach(function (el) {
      el.setAttribute("alt", el.getAttribute("data-alt-" + lang));
    });
    var btn = document.getElementById("lang-switch");
    if (btn) btn.setAttribute("aria-pressed", lang === "en" ? "true" : "false");
    // carry the choice in links between pages, so it survives even without localStorage
    document.querySelectorAll("a.internal").forEach(function (a) {
      var href = a.getAttribute("href");
      var base = href.split("#")[0];
      var frag = href.indexOf("#") >= 0 ? href.split("#")[1] : "";
      var parts = frag.split("&").filter(function (p) { return p && !/^lang=/.test(p); });
      if (base === "" && parts.length) { // same-page anchor: leave it alone
        a.setAttribute("href", "#" + parts.join("&"));
        return;
      }
      parts.push("lang=" + lang);
      a.setAttribute("href", base + "#" + parts.join("&"));
    });
    var h = parseHash();
    var frag = (h.target ? h.target + "&" : "") + "lang=" + lang;
    if (history.replaceState) history.replaceState(null, "", "#" + frag);
    document.dispatchEvent(new CustomEvent("chanspec:lang", { detail: lang }));
  }

  // Pan and zoom of a large diagram: wheel or +/− to zoom at the pointer, drag or the
  // arrow keys to move, 0 or the fit button to start again.
  function panZoom(fig) {
    var box = fig.querySelector(".zoom"), img = box && box.querySelector("img");
    if (!img) return;
    var s = 1, x = 0, y = 0, drag = null;
    function show() { img.style.transform = "translate(" + x + "px," + y + "px) scale(" + s + ")"; }
    function zoom(f, cx, cy) {
      var n = Math.min(20, Math.max(0.1, s * f));
      x = cx - (cx - x) * n / s; y = cy - (cy - y) * n / s; s = n; show();
    }
    function fit() {
      var w = img.naturalWidth || img.width;
      s = w > box.clientWidth && box.clientWidth ? box.clientWidth / w : 1; x = 0; y = 0; show();
    }
    if (img.complete) fit(); else img.addEventListener("load", fit);
    box.addEventListener("wheel", function (e) {
      e.preventDefault();
      var r = box.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    box.addEventListener("pointerdown", function (e) {
      drag = [e.clientX - x, e.clientY - y]; box.setPointerCapture(e.pointerId);
    });
    box.addEventListener("pointermove", function (e) {
      if (drag) { x = e.clientX - drag[0]; y = e.clientY - drag[1]; show(); }
    });
    box.addEventListener("pointerup", function () { drag = null; });
    box.addEventListener("keydown", function (e) {
      var k = e.key, m = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] };
      if (k === "+" || k === "=") zoom(1.2, box.clientWidth / 2, box.clientHeight / 2);
      else if (k === "-") zoom(1 / 1.2, box.clientWidth / 2, box.clientHeight / 2);
      else if (k === "0") fit();
      else if (m[k]) { x += m[k][0]; y += m[k][1]; show(); }
      else return;
      e.preventDefault();
    });
    fig.querySelectorAll("[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var a = b.getAttribute("data-zoom");
        if (a === "reset") fit(); else zoom(a === "in" ? 1.2 : 1 / 1.2, box.clientWidth / 2, box.clientHeight / 2);
      });
    });
    fig.panZoom = { zoom: zoom, fit: fit, state: function () { return [s, x, y]; } };
  }

  window.ChanApp = {
    lang: function () { return document.documentElement.getAttribute("data-lang") || "vi"; },
    setLang: setLang,
    errors: errors
  };

  document.addEventListener("DOMContentLoaded", function () {
    showErrors();
    var h = parseHash();
    setLang(h.lang || stored() || "vi", false);
    var btn = document.getElementById("lang-switch");
    if (btn) {
      btn.addEventListener("click", function () {
        setLang(window.ChanApp.lang() === "en" ? "vi" : "en", true);
      });
    }
    if (h.target) {
      var el = document.getElementById(h.target);
      if (el) {
        if (el.tagName === "DETAILS") el.open = true;
        var d = el.querySelector("details");
        if (d) d.open = true;
        el.scrollIntoView();
      }
    }
    document.querySelectorAll("figure.diagram").forEach(panZoom);
    document.body.setAttribute("data-ready", "1");
  });
})();
