// The packed page's loader (see pack.go's packLoader and the README):
// inflates the block's segments, inserts each part as an inline element in
// order, and says on the page when it cannot. Pages inline min/loader.js,
// its esbuild-minified build (go generate ./pagepack, internal/minify).
// The attribute names are pagepack's constants (PackAttr, ShimAttr;
// TestLoaderNamesTheFormat checks them).
(async () => {
  const hide = document.querySelector("style[data-genui-pack-hide]");
  // Pack writes the block just before this script: that one, not the first
  // element a selector finds (a copy of the tag earlier in the page).
  const me = document.currentScript, prev = me && me.previousElementSibling;
  // The parser may not have reached <body> when a loader in <head> inserts.
  const root = () => document.body || document.documentElement;
  try {
    const bytes = (t) => {
      if (Uint8Array.fromBase64) return Uint8Array.fromBase64(t);
      const s = atob(t), b = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
      return b;
    };
    const ds = new DecompressionStream("deflate-raw"), w = ds.writable.getWriter();
    const r = ds.readable.getReader(), dec = new TextDecoder();
    let text = "", at = 0, pending = null;
    const more = async (written) => {
      pending = pending || r.read();
      const got = await Promise.race([pending, written]);
      if (!got || got.done) throw new Error("the packed block ends early");
      pending = null;
      text += dec.decode(got.value, { stream: true });
    };
    const block = prev && prev.matches("script[data-genui-pack]") ? prev : document.querySelector("script[data-genui-pack]");
    const segs = block.textContent.split(",");
    for (let i = 0; i < segs.length; i++) {
      if (i > 0) {
        if (window.genuiPackWait) await Promise.race([Promise.resolve(window.genuiPackWait).catch(() => {}), new Promise((r) => setTimeout(r, 250))]);
        await new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
      }
      const written = w.write(bytes(segs[i]));
      written.catch(() => {});
      if (i === segs.length - 1) w.close().catch(() => {});
      let nl;
      while ((nl = text.indexOf("\n", at)) < 0) await more(written);
      const parts = JSON.parse(text.slice(at, nl)).parts;
      let end = nl + 1;
      for (const [, n] of parts) end += n;
      while (text.length < end) await more(written);
      at = nl + 1;
      for (const [kind, n] of parts) {
        const el = document.createElement(kind === "style" ? "style" : "script");
        if (kind === "module") el.type = "module";
        if (kind === "shim") el.setAttribute("data-genui-shim", "");
        el.textContent = text.slice(at, at += n);
        (kind === "style" || kind === "shim" ? document.head || root() : root()).appendChild(el);
      }
    }
    performance.mark("genui-unpacked");
  } catch (err) {
    if (document.body) document.body.dataset.state = "error";
    const p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.textContent = "This view could not unpack its scripts (" + err + "). A browser with DecompressionStream is needed.";
    root().prepend(p);
  } finally {
    if (hide) hide.remove();
  }
})();
