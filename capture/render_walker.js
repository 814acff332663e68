() => {
  // sieve's in-page walker: one evaluation, one JSON string back. A flat
  // pre-order list of nodes with parent indices; text nodes are "#text".
  const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "LINK", "META"]);
  const KEEP = ["id", "class", "href", "src", "srcset", "alt", "title", "lang", "dir", "role",
    "aria-label", "aria-labelledby", "aria-describedby", "aria-hidden", "aria-expanded", "aria-level",
    "name", "type", "value", "placeholder", "action", "method", "for",
    "required", "checked", "selected", "open",
    "colspan", "rowspan", "scope", "datetime", "rel", "target",
    "itemprop", "itemtype", "itemscope", "content"];
  const SR = /(^|[\s_-])(sr-only|visually-hidden|visuallyhidden|screen-reader-text|screenreader|a11y-hidden|element-invisible|offscreen)($|\s)/i;
  const nodes = [], gaps = [], canvases = [], canvasEls = [];
  const docW = Math.max(document.documentElement.scrollWidth, innerWidth);
  const docH = Math.max(document.documentElement.scrollHeight, innerHeight);
  const MAX = 200000;

  const parseRGB = (c) => {
    const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c || "");
    return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null;
  };
  const background = (el, win) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const c = parseRGB(win.getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0.5) return c;
      if (win.getComputedStyle(e).backgroundImage !== "none") return null;
    }
    return [255, 255, 255, 1];
  };
  const hasText = (el) => (el.textContent || "").trim() !== "";
  const ownText = (el) => {
    for (const c of el.childNodes) if (c.nodeType === 3 && c.data.trim() !== "") return true;
    return false;
  };

  // verdict is an element's own reason to be invisible, or null.
  const verdict = (el, cs, box, opacity, win) => {
    const tag = el.tagName;
    if (el.hasAttribute("hidden")) return ["hidden_attribute", "attribute hidden"];
    if (tag === "INPUT" && (el.getAttribute("type") || "").toLowerCase() === "hidden") return ["hidden_input", "input type=hidden"];
    if (tag === "DIALOG" && !el.open) return ["closed_dialog", "<dialog> without open"];
    const pd = el.parentElement;
    if (pd && pd.tagName === "DETAILS" && !pd.open && !(tag === "SUMMARY" && pd.querySelector(":scope > summary") === el))
      return ["collapsed_details", "inside a closed <details>"];
    if (cs.display === "none") return ["display_none", "computed display: none"];
    if (cs.visibility === "hidden" || cs.visibility === "collapse") return ["visibility_hidden", "computed visibility: " + cs.visibility];
    if (opacity < 0.01) return ["opacity_zero", "cumulative opacity " + opacity.toFixed(2)];
    if (!hasText(el)) return null;
    const cls = el.getAttribute("class") || "";
    const tiny = box.w <= 1 || box.h <= 1;
    const clipped = /rect\(\s*0(px)?[\s,]+0(px)?[\s,]+0(px)?[\s,]+0(px)?\s*\)/.test(cs.clip) || /inset\(\s*(50%|100%)/.test(cs.clipPath) || cs.clipPath === "circle(0px at 50% 50%)";
    if ((clipped || (tiny && cs.overflow !== "visible")) && SR.test(cls)) return ["screen_reader_only", "class=\"" + cls + "\" with a 1px clip"];
    if (clipped) return ["clipped", "computed clip " + (cs.clip !== "auto" ? cs.clip : cs.clipPath)];
    if (parseFloat(cs.fontSize) === 0) return ["zero_font_size", "computed font-size: 0"];
    if (tiny && (cs.overflow === "hidden" || cs.overflow === "clip")) return ["zero_size", "box " + box.w + "×" + box.h + " with overflow hidden"];
    if (box.x + box.w <= 0 || box.y + box.h <= 0 || box.x >= docW + 1000) return ["offscreen", "box at (" + box.x + "," + box.y + ") is outside the page"];
    if (ownText(el)) {
      const fg = parseRGB(cs.color), bg = background(el, win);
      if (fg && bg && fg[3] > 0.5 && Math.abs(fg[0] - bg[0]) + Math.abs(fg[1] - bg[1]) + Math.abs(fg[2] - bg[2]) < 6)
        return ["same_color", "text colour " + cs.color + " on background rgb(" + bg.slice(0, 3).join(", ") + ")"];
    }
    if (el.checkVisibility && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true, contentVisibilityAuto: true }))
      return ["not_rendered", "checkVisibility() is false"];
    return null;
  };

  const attrs = (el) => {
    let m = null;
    for (const k of KEEP) {
      if (!el.hasAttribute(k)) continue;
      let v = el.getAttribute(k);
      if (k === "value" && el.tagName === "INPUT" && /^(password|hidden)$/i.test(el.getAttribute("type") || "")) continue;
      if (k === "content" && el.tagName !== "META" && !el.hasAttribute("itemprop")) continue;
      if ((k === "href" || k === "src" || k === "action") && v && !/^(javascript|mailto|tel|data):/i.test(v.trim())) {
        try { v = new URL(v, el.ownerDocument.baseURI).href; } catch (e) {}
      }
      m = m || {};
      m[k] = v.trim().slice(0, 2048);
    }
    return m;
  };

  const walk = (node, parent, ctx) => {
    if (nodes.length >= MAX) return;
    if (node.nodeType === 3) {
      if (node.data === "") return;
      const n = { p: parent, t: "#text", x: node.data };
      if (ctx.source) n.s = ctx.source;
      nodes.push(n);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node;
    if (SKIP.has(el.tagName)) return;
    const win = el.ownerDocument.defaultView || window;
    const cs = win.getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const box = { x: Math.round(r.left + ctx.dx), y: Math.round(r.top + ctx.dy), w: Math.round(r.width), h: Math.round(r.height) };
    const opacity = ctx.opacity * (parseFloat(cs.opacity) || (cs.opacity === "0" ? 0 : 1));
    const n = { p: parent, t: el.localName, b: [box.x, box.y, box.w, box.h] };
    const a = attrs(el);
    if (a) n.a = a;
    if (ctx.source) n.s = ctx.source;
    if (!ctx.hidden && !ctx.source) {
      const v = verdict(el, cs, box, opacity, win);
      if (v) { n.h = v[0]; n.r = v[1]; }
    }
    const id = nodes.length;
    nodes.push(n);
    const sub = { dx: ctx.dx, dy: ctx.dy, opacity, hidden: ctx.hidden || !!n.h, source: ctx.source };
    if (el.tagName === "CANVAS") {
      sub.source = "canvas_fallback";
      canvases.push({ n: id, b: n.b, h: ctx.hidden ? "hidden_ancestor" : (n.h || ""), s: [] });
      canvasEls.push(el);
    }
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) {}
      if (doc && doc.body) {
        const fr = { dx: box.x + el.clientLeft, dy: box.y + el.clientTop, opacity, hidden: sub.hidden, source: sub.source };
        walk(doc.body, id, fr);
      } else if (el.src && !/^(about|javascript):/.test(el.src)) {
        gaps.push({ src: el.src, reason: "cross-origin frame: its document is not readable from the page" });
      }
      return;
    }
    if (el.shadowRoot) {
      for (const c of el.shadowRoot.childNodes) walk(c, id, sub);
      return;
    }
    if (el.tagName === "SLOT") {
      const assigned = el.assignedNodes({ flatten: true });
      for (const c of (assigned.length ? assigned : el.childNodes)) walk(c, id, sub);
      return;
    }
    for (const c of el.childNodes) walk(c, id, sub);
  };

  // scenes reads text-bearing objects out of the scene graphs of three.js
  // (troika-three-text Text), Pixi.js (Text, BitmapText) and Babylon.js GUI
  // (TextBlock) into each canvas's s[]: {x: text, b: page box, h: hidden
  // reason, r: rule, l: library}. The libraries are found through the
  // page's globals (see docs/CANVAS.md); a scene sieve cannot reach from
  // them is read by OCR like any other canvas.
  const scenes = (list, els) => {
    let budget = 50000;
    const at = (c) => (c ? els.indexOf(c) : -1);
    const add = (ci, l, text, box, h, r) => {
      if (ci < 0 || typeof text !== "string" || text.trim() === "" || list[ci].s.length >= 2000) return;
      const cv = list[ci];
      if (!h && cv.h) { h = cv.h === "hidden_ancestor" ? "not_rendered" : cv.h; r = l + ": on a canvas that is not shown"; }
      if (!h && box) {
        const [cx, cy, cw, ch] = cv.b;
        if (!(box[2] > 0.5 && box[3] > 0.5)) { h = "zero_size"; r = l + ": drawn at zero size"; }
        else if (box[0] >= cx + cw || box[1] >= cy + ch || box[0] + box[2] <= cx || box[1] + box[3] <= cy) { h = "offscreen"; r = l + ": outside the canvas"; }
      }
      cv.s.push({ x: text, b: (box || cv.b).map((v) => Math.round(v)), h: h || "", r: r || "", l });
    };
    const get = (o, k) => { try { return o[k]; } catch (e) { return undefined; } };
    const globalsWith = (test) => {
      const out = new Set();
      const ok = (v) => { try { return !!v && typeof v === "object" && test(v); } catch (e) { return false; } };
      let keys = [];
      try { keys = Object.getOwnPropertyNames(window); } catch (e) {}
      for (const k of keys) {
        const v = get(window, k);
        if (!v || typeof v !== "object" || v === window || v === document) continue;
        if (ok(v)) { out.add(v); continue; }
        if (Array.isArray(v) || ArrayBuffer.isView(v)) continue;
        let seen = 0;
        try {
          for (const j in v) { // the first 50 keys, without listing a huge object's
            if (++seen > 50) break;
            const w = get(v, j);
            if (ok(w)) out.add(w);
          }
        } catch (e) {}
      }
      return [...out];
    };
    const hide = (o, h, checks) => {
      if (budget-- <= 0) throw new Error("scene budget");
      if (h[0]) return h;
      for (const [cond, code, rule] of checks) if (cond(o)) return [code, rule];
      return h;
    };
    try { three(add, at, get, globalsWith, hide); } catch (e) {}
    try { pixi(add, at, get, globalsWith, hide); } catch (e) {}
    try { babylon(add, at, get, hide); } catch (e) {}
  };

  // three.js: scenes, renderers and cameras from the globals (one level
  // deep) and from three's own devtools hook (__THREE_DEVTOOLS__, which
  // sieve defines before any page script: three announces every Scene and
  // WebGLRenderer it makes to it). Texts are troika-three-text objects.
  const three = (add, at, get, globalsWith, hide) => {
    const found = new Set([...(window.__sieveThree || []), ...globalsWith((v) => v.isScene === true || v.isWebGLRenderer === true || v.isCamera === true)]);
    const all = [...found];
    const scenesOf = all.filter((v) => v.isScene === true);
    const renderers = all.filter((v) => v.isWebGLRenderer === true || (v.domElement && v.domElement.tagName === "CANVAS"));
    const cameras = all.filter((v) => v.isCamera === true);
    const els = (m) => (m && m.elements && m.elements.length === 16 ? m.elements : null);
    const mul = (e, v) => [0, 1, 2, 3].map((r) => e[r] * v[0] + e[4 + r] * v[1] + e[8 + r] * v[2] + e[12 + r] * v[3]);
    scenesOf.forEach((scene, k) => {
      const rd = renderers[k] || renderers[0];
      const ci = at(rd && rd.domElement);
      if (ci < 0) return;
      let camera = null;
      const walkAll = (o, f) => { f(o); for (const c of o.children || []) walkAll(c, f); };
      walkAll(scene, (o) => { if (!camera && o.isCamera) camera = o; });
      camera = camera || cameras[k] || cameras[0];
      if (!camera) return;
      try { if (scene.updateMatrixWorld) scene.updateMatrixWorld(true); if (camera.updateMatrixWorld) camera.updateMatrixWorld(true); } catch (e) {}
      const P = els(camera.projectionMatrix), V = els(camera.matrixWorldInverse);
      const cb = canvases[ci].b;
      const project = (M, p) => {
        const c = mul(P, mul(V, mul(M, [p[0], p[1], p[2], 1])));
        return c[3] <= 0 ? null : [c[0] / c[3], c[1] / c[3], c[2] / c[3]];
      };
      const checks = [
        [(o) => o.visible === false, "visibility_hidden", "three.js: visible = false"],
        [(o) => o.scale && (o.scale.x === 0 || o.scale.y === 0 || o.scale.z === 0), "zero_size", "three.js: scale 0"],
      ];
      const isText = (o) => typeof o.text === "string" && (o.isTroikaText === true || (o.isMesh === true && typeof o.sync === "function"));
      const walk = (o, h) => {
        h = hide(o, h, checks);
        if (isText(o)) textOf(o, h);
        for (const c of o.children || []) walk(c, h);
      };
      const textOf = (o, h) => {
        const M = els(o.matrixWorld);
        if (!M || !P || !V) return add(ci, "three.js", o.text, null, h[0], h[1]);
        const mat = o.material && !Array.isArray(o.material) ? o.material : null;
        if (!h[0] && (o.fillOpacity === 0 || (mat && mat.opacity === 0 && mat.transparent !== false)))
          h = ["opacity_zero", "three.js: opacity 0"];
        const info = o.textRenderInfo, bb = info && info.blockBounds;
        const fs = o.fontSize || 0.1;
        const corners = bb ? [[bb[0], bb[1], 0], [bb[2], bb[1], 0], [bb[0], bb[3], 0], [bb[2], bb[3], 0]]
          : [[0, 0, 0], [fs * 0.55 * o.text.length, 0, 0], [0, -fs, 0], [fs * 0.55 * o.text.length, -fs, 0]];
        const pts = corners.map((p) => project(M, p));
        if (pts.some((p) => !p)) return add(ci, "three.js", o.text, null, h[0] || "offscreen", h[1] || "three.js: behind the camera");
        if (!h[0] && pts.every((p) => p[2] < -1 || p[2] > 1)) h = ["offscreen", "three.js: outside the camera's near/far range"];
        const xs = pts.map((p) => cb[0] + (p[0] + 1) / 2 * cb[2]), ys = pts.map((p) => cb[1] + (1 - p[1]) / 2 * cb[3]);
        const x0 = Math.min(...xs), y0 = Math.min(...ys);
        add(ci, "three.js", o.text, [x0, y0, Math.max(...xs) - x0, Math.max(...ys) - y0], h[0], h[1]);
      };
      walk(scene, ["", ""]);
    });
  };

  // Pixi.js: the application of the Pixi devtools convention
  // (globalThis.__PIXI_APP__, or __PIXI_STAGE__ with __PIXI_RENDERER__) and
  // any global with a stage and a renderer. Texts are Text, BitmapText and
  // HTMLText: display objects with a string .text and getBounds().
  const pixi = (add, at, get, globalsWith, hide) => {
    const apps = new Set(globalsWith((v) => v.stage && v.renderer && Array.isArray(v.stage.children)));
    if (window.__PIXI_APP__) apps.add(window.__PIXI_APP__);
    if (window.__PIXI_STAGE__ && window.__PIXI_RENDERER__) apps.add({ stage: window.__PIXI_STAGE__, renderer: window.__PIXI_RENDERER__ });
    for (const app of apps) {
      const rd = app.renderer || {};
      const view = rd.view && rd.view.canvas ? rd.view.canvas : rd.view;
      const ci = at(get(app, "canvas") || (app.view && app.view.tagName ? app.view : null) || rd.canvas || view);
      if (ci < 0) continue;
      const cb = canvases[ci].b, screen = rd.screen || {};
      const sx = screen.width ? cb[2] / screen.width : 1, sy = screen.height ? cb[3] / screen.height : 1;
      const checks = [
        [(o) => o.visible === false, "visibility_hidden", "Pixi.js: visible = false"],
        [(o) => o.renderable === false, "not_rendered", "Pixi.js: renderable = false"],
        [(o) => o.alpha === 0, "opacity_zero", "Pixi.js: alpha 0"],
        [(o) => o.scale && (o.scale.x === 0 || o.scale.y === 0), "zero_size", "Pixi.js: scale 0"],
      ];
      const walk = (o, h) => {
        h = hide(o, h, checks);
        if (typeof o.text === "string" && typeof o.getBounds === "function") {
          let r = null;
          try { r = o.getBounds(); } catch (e) {}
          const box = r ? [cb[0] + r.x * sx, cb[1] + r.y * sy, r.width * sx, r.height * sy] : null;
          add(ci, "Pixi.js", o.text, box, h[0], h[1]);
        }
        for (const c of o.children || []) walk(c, h);
      };
      walk(app.stage, ["", ""]);
    }
  };

  // Babylon.js GUI: every engine of BABYLON.EngineStore.Instances (older:
  // BABYLON.Engine.Instances), every AdvancedDynamicTexture of its scenes,
  // every TextBlock under its root container. A full-screen GUI maps to the
  // canvas; a GUI drawn on a mesh gets the canvas's box.
  const babylon = (add, at, get, hide) => {
    const B = window.BABYLON;
    if (!B) return;
    const engines = (B.EngineStore && B.EngineStore.Instances) || (B.Engine && B.Engine.Instances) || [];
    const cls = (o) => (o && typeof o.getClassName === "function" ? o.getClassName() : "");
    const checks = [
      [(o) => o.isVisible === false, "visibility_hidden", "Babylon.js GUI: isVisible = false"],
      [(o) => o.notRenderable === true, "not_rendered", "Babylon.js GUI: notRenderable"],
      [(o) => o.alpha === 0, "opacity_zero", "Babylon.js GUI: alpha 0"],
      [(o) => o.scaleX === 0 || o.scaleY === 0, "zero_size", "Babylon.js GUI: scale 0"],
    ];
    for (const engine of engines) {
      const ci = at(engine.getRenderingCanvas && engine.getRenderingCanvas());
      if (ci < 0) continue;
      const cb = canvases[ci].b;
      for (const scene of engine.scenes || []) {
        for (const t of scene.textures || []) {
          if (cls(t) !== "AdvancedDynamicTexture") continue;
          const size = (t.getSize && t.getSize()) || {};
          const full = t._isFullscreen === true; // CreateFullscreenUI
          const sx = size.width ? cb[2] / size.width : 1, sy = size.height ? cb[3] / size.height : 1;
          const walk = (c, h) => {
            h = hide(c, h, checks);
            if (cls(c) === "TextBlock") {
              const m = c._currentMeasure;
              const box = full && m ? [cb[0] + m.left * sx, cb[1] + m.top * sy, m.width * sx, m.height * sy] : null;
              add(ci, "Babylon.js GUI", c.text, box, h[0], h[1]);
            }
            for (const k of c.children || []) walk(k, h);
          };
          walk(t.rootContainer || t._rootContainer, ["", ""]);
        }
      }
    }
  };

  const root = document.documentElement;
  const rootNode = { p: -1, t: root.localName };
  nodes.push(rootNode);
  if (document.body) walk(document.body, 0, { dx: scrollX, dy: scrollY, opacity: 1, hidden: false, source: "" });
  if (canvases.length) scenes(canvases, canvasEls);
  return JSON.stringify({
    nodes, gaps, canvases, truncated: nodes.length >= MAX,
    title: document.title || "", lang: root.getAttribute("lang") || "",
    url: location.href, height: docH, width: docW,
  });
}
