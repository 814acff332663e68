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
  const nodes = [], gaps = [];
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
    if (el.tagName === "CANVAS") sub.source = "canvas_fallback";
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

  const root = document.documentElement;
  const rootNode = { p: -1, t: root.localName };
  nodes.push(rootNode);
  if (document.body) walk(document.body, 0, { dx: scrollX, dy: scrollY, opacity: 1, hidden: false, source: "" });
  return JSON.stringify({
    nodes, gaps, truncated: nodes.length >= MAX,
    title: document.title || "", lang: root.getAttribute("lang") || "",
    url: location.href, height: docH, width: docW,
  });
}
