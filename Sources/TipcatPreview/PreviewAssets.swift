/// The static files of a preview site besides its pages: the gallery's style sheet, the cards' style sheet (the
/// html style's `tip.css`) and three scripts. Scripts are files of the site, never inline, so the pages' CSP
/// (`script-src 'self'`) holds; none of them reads anything from the catalog but the DOM's text.
enum PreviewAssets {
    static func files(stylesheet: String, liveReload: Bool) -> [(path: String, text: String)] {
        var files = [
            ("assets/preview.css", previewCSS),
            ("assets/tip.css", stylesheet),
            ("assets/theme.js", themeJS),
            ("assets/gallery.js", galleryJS),
        ]
        if liveReload { files.append(("assets/reload.js", reloadJS)) }
        return files
    }

    /// The gallery around the cards: page colours (light, dark, toggle), header, index list, locale sections,
    /// translation marks, findings.
    static let previewCSS = #"""
    :root {
      color-scheme: light;
      --page: #f2f2f7;
      --panel: #ffffff;
      --text: #1c1c1e;
      --muted: #6c6c70;
      --line: #d1d1d6;
      --link: #0066cc;
      --mark-untranslated: #d70015;
      --mark-needs-review: #b25000;
      --mark-fallback: #8944ab;
      --mark-translated: #248a3d;
      --mark-neutral: #6c6c70;
      --error: #d70015;
      --warning: #b25000;
    }
    @media (prefers-color-scheme: dark) {
      :root:not([data-theme="light"]) {
        color-scheme: dark;
        --page: #000000;
        --panel: #1c1c1e;
        --text: #f2f2f7;
        --muted: #aeaeb2;
        --line: #38383a;
        --link: #64d2ff;
        --mark-untranslated: #ff6961;
        --mark-needs-review: #ffb340;
        --mark-fallback: #da8fff;
        --mark-translated: #30d158;
        --mark-neutral: #aeaeb2;
        --error: #ff6961;
        --warning: #ffb340;
      }
    }
    :root[data-theme="dark"] {
      color-scheme: dark;
      --page: #000000;
      --panel: #1c1c1e;
      --text: #f2f2f7;
      --muted: #aeaeb2;
      --line: #38383a;
      --link: #64d2ff;
      --mark-untranslated: #ff6961;
      --mark-needs-review: #ffb340;
      --mark-fallback: #da8fff;
      --mark-translated: #30d158;
      --mark-neutral: #aeaeb2;
      --error: #ff6961;
      --warning: #ffb340;
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--page); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
    a { color: var(--link); }
    .site-header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 12px 20px; border-bottom: 1px solid var(--line); background: var(--panel); }
    .site-header h1 { flex: 1; margin: 0; font-size: 20px; overflow-wrap: anywhere; }
    .theme-toggle { font: inherit; padding: 4px 10px; border: 1px solid var(--line); border-radius: 8px; background: var(--page); color: var(--text); cursor: pointer; }
    main { padding: 16px 20px 40px; }
    .controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 12px; }
    .controls input, .controls select { font: inherit; padding: 5px 8px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); color: var(--text); }
    .controls input { flex: 1; min-width: 200px; }
    .summary, .no-findings, .no-match { color: var(--muted); }
    .group h2 { font-size: 16px; margin: 20px 0 6px; }
    .group h2 small { color: var(--muted); font-weight: normal; }
    .tip-list { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 10px; background: var(--panel); }
    .tip-entry { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; padding: 8px 12px; border-top: 1px solid var(--line); }
    .tip-entry:first-child { border-top: 0; }
    .tip-entry[hidden], .chip[hidden], .group[hidden] { display: none; }
    .tip-link { font-weight: 600; overflow-wrap: anywhere; }
    .tip-title { color: var(--muted); flex: 1; min-width: 12em; overflow-wrap: anywhere; }
    .chips { display: flex; flex-wrap: wrap; gap: 4px; }
    .chip { padding: 0 6px; border: 1px solid currentColor; border-radius: 6px; font-size: 12px; text-decoration: none; }
    .finding-count { color: var(--error); font-size: 12px; }
    .mark-untranslated { color: var(--mark-untranslated); }
    .mark-needs-review { color: var(--mark-needs-review); }
    .mark-fallback { color: var(--mark-fallback); }
    .mark-translated { color: var(--mark-translated); }
    .mark-source, .mark-pseudo { color: var(--mark-neutral); }
    .badge { display: inline-block; padding: 0 6px; border: 1px solid currentColor; border-radius: 6px; font-size: 12px; font-weight: 600; }
    .tip-info, .diagnostics { margin-bottom: 16px; padding: 10px 14px; border: 1px solid var(--line); border-radius: 10px; background: var(--panel); }
    .tip-info dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
    .tip-info dt { color: var(--muted); }
    .tip-info dd { margin: 0; overflow-wrap: anywhere; }
    .parameters { margin-top: 8px; border-collapse: collapse; }
    .parameters caption { text-align: start; color: var(--muted); }
    .parameters th, .parameters td { padding: 2px 10px 2px 0; text-align: start; vertical-align: top; }
    .parameters td { overflow-wrap: anywhere; }
    .tip-page main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(240px, 340px); gap: 0 16px; align-items: start; }
    .tip-page .tip-info, .tip-page .locales { grid-column: 1; }
    .tip-page .diagnostics { grid-column: 2; grid-row: 1 / span 2; position: sticky; top: 12px; }
    @media (max-width: 900px) {
      .tip-page main { display: block; }
    }
    .diagnostics h2 { margin: 0 0 6px; font-size: 15px; }
    .findings { margin: 0; padding-inline-start: 18px; }
    .finding { overflow-wrap: anywhere; }
    .finding-error .severity { color: var(--error); font-weight: 600; }
    .finding-warning .severity { color: var(--warning); font-weight: 600; }
    .locales { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 460px), 1fr)); gap: 16px; }
    .locale { padding: 10px 14px 14px; border: 1px solid var(--line); border-radius: 12px; background: var(--page); }
    .locale.mark-untranslated { border: 2px dashed var(--mark-untranslated); }
    .locale.mark-needs-review { border: 2px dashed var(--mark-needs-review); }
    .locale h2 { margin: 0 0 4px; font-size: 15px; color: var(--text); }
    .text-marks { list-style: none; margin: 0 0 8px; padding: 0; font-size: 12px; }
    .text-marks code { color: var(--muted); }
    .variants { display: flex; flex-wrap: wrap; gap: 10px 20px; align-items: flex-start; }
    .variant { flex: 1 1 320px; min-width: 0; margin: 0; }
    .variant figcaption { color: var(--muted); font-size: 12px; margin-bottom: 4px; }
    .popover-anchor { display: inline-block; padding: 2px 8px; border-radius: 8px; background: var(--panel); color: var(--link); font: 12px ui-monospace, Menlo, monospace; }
    .variant-popover .popover-anchor { margin-inline-start: 16px; }
    .render-error { color: var(--error); overflow-wrap: anywhere; }
    """#

    /// The appearance toggle: auto (the system's), dark, light; remembered in localStorage when it can be.
    static let themeJS = #"""
    (function () {
      "use strict";
      var order = ["auto", "dark", "light"];
      var root = document.documentElement;
      function stored() {
        try { return window.localStorage.getItem("tipcat-theme"); } catch (e) { return null; }
      }
      function apply(theme) {
        if (order.indexOf(theme) < 0) { theme = "auto"; }
        root.setAttribute("data-theme", theme);
        var button = document.getElementById("theme-toggle");
        if (button) { button.textContent = "Appearance: " + theme; }
        return theme;
      }
      var current = apply(stored() || "auto");
      document.addEventListener("DOMContentLoaded", function () {
        current = apply(current);
        var button = document.getElementById("theme-toggle");
        if (!button) { return; }
        button.addEventListener("click", function () {
          current = apply(order[(order.indexOf(current) + 1) % order.length]);
          try { window.localStorage.setItem("tipcat-theme", current); } catch (e) { /* private mode */ }
        });
      });
    })();
    """#

    /// The index's search box and filters: text, locale (shows only that locale's chips and filters on it) and
    /// translation state or findings.
    static let galleryJS = #"""
    (function () {
      "use strict";
      var search = document.getElementById("search");
      var localeFilter = document.getElementById("locale-filter");
      var stateFilter = document.getElementById("state-filter");
      var count = document.getElementById("count");
      var noMatch = document.getElementById("no-match");
      if (!search || !localeFilter || !stateFilter) { return; }
      var entries = Array.prototype.slice.call(document.querySelectorAll(".tip-entry"));
      var groups = Array.prototype.slice.call(document.querySelectorAll(".group"));
      function marks(entry) {
        var result = [];
        (entry.getAttribute("data-marks") || "").split(" ").forEach(function (item) {
          var colon = item.lastIndexOf(":");
          if (colon > 0) { result.push({ locale: item.slice(0, colon), mark: item.slice(colon + 1) }); }
        });
        return result;
      }
      function update() {
        var query = search.value.trim().toLowerCase();
        var locale = localeFilter.value;
        var state = stateFilter.value;
        var shown = 0;
        var seen = {};
        entries.forEach(function (entry) {
          var visible = query === "" || (entry.getAttribute("data-search") || "").indexOf(query) >= 0;
          if (visible && state === "findings") {
            visible = Number(entry.getAttribute("data-findings") || "0") > 0;
          } else if (visible && state !== "") {
            visible = marks(entry).some(function (item) {
              return (locale === "" || item.locale === locale) && item.mark === state;
            });
          }
          entry.hidden = !visible;
          Array.prototype.forEach.call(entry.querySelectorAll(".chip"), function (chip) {
            chip.hidden = locale !== "" && chip.getAttribute("data-locale") !== locale;
          });
          if (visible) {
            var link = entry.querySelector(".tip-link");
            var key = link ? link.getAttribute("href") : "";
            if (!seen[key]) { seen[key] = true; shown += 1; }
          }
        });
        groups.forEach(function (group) {
          group.hidden = group.querySelector(".tip-entry:not([hidden])") === null;
        });
        if (count) { count.textContent = shown + (shown === 1 ? " tip" : " tips"); }
        if (noMatch) { noMatch.hidden = shown !== 0; }
      }
      search.addEventListener("input", update);
      localeFilter.addEventListener("change", update);
      stateFilter.addEventListener("change", update);
      update();
    })();
    """#

    /// Live reload under `tipcat preview --serve`: polls `/__tipcat/version` and reloads the page when the site was
    /// regenerated since it loaded.
    static let reloadJS = #"""
    (function () {
      "use strict";
      var meta = document.querySelector('meta[name="tipcat-version"]');
      if (!meta || !window.fetch) { return; }
      var loaded = meta.getAttribute("content");
      function poll() {
        window.fetch("/__tipcat/version", { cache: "no-store" })
          .then(function (response) { return response.ok ? response.text() : null; })
          .then(function (version) {
            if (version !== null && version.trim() !== loaded) { window.location.reload(); return; }
            window.setTimeout(poll, 400);
          })
          .catch(function () { window.setTimeout(poll, 1000); });
      }
      window.setTimeout(poll, 400);
    })();
    """#
}
