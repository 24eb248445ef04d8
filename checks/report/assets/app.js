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
    document.body.setAttribute("data-ready", "1");
  });
})();
