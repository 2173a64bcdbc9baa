// The packed page's loader (see pack.go's packLoader and the README):
// inflates the block's segments, inserts each part as an inline element in
// order, and says on the page when it cannot; then reads the page's
// deferred block through its host, if it has one, and inserts those
// scripts too. Pages inline min/loader.js, its esbuild-minified build (go
// generate ./pagepack, internal/minify). The attribute names are
// pagepack's constants (PackAttr, ShimAttr; TestLoaderNamesTheFormat
// checks them).
(async () => {
  const hide = document.querySelector("style[data-genui-pack-hide]");
  // Pack writes the block just before this script: that one, not the first
  // element a selector finds (a copy of the tag earlier in the page).
  const me = document.currentScript, prev = me && me.previousElementSibling;
  // The parser may not have reached <body> when a loader in <head> inserts.
  const root = () => document.body || document.documentElement;
  const bytes = (t) => {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(t);
    const s = atob(t), b = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
    return b;
  };
  // One deflate stream in segments: each inflates to a group of parts
  // (a header line, then their texts), inserted before the next segment is
  // written; wait, when given, runs before every segment but the first.
  const unpack = async (segs, wait) => {
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
    for (let i = 0; i < segs.length; i++) {
      if (i > 0 && wait) await wait();
      const written = w.write(typeof segs[i] === "string" ? bytes(segs[i]) : segs[i]);
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
        const t = text.slice(at, at += n);
        if (kind === "deferred" || kind === "deferred-style") continue; // its text comes in the deferred block
        const el = document.createElement(kind === "style" ? "style" : "script");
        if (kind === "module") el.type = "module";
        if (kind === "shim") el.setAttribute("data-genui-shim", "");
        el.textContent = t;
        (kind === "style" || kind === "shim" ? document.head || root() : root()).appendChild(el);
      }
    }
  };
  const block = prev && prev.matches("script[data-genui-pack]") ? prev : document.querySelector("script[data-genui-pack]");
  const [body, deferred] = block ? block.textContent.split(";") : [""];
  let done, fail;
  if (deferred) {
    // Settles once the deferred scripts are in (true) or cannot be (the reason).
    window.genuiDeferred = new Promise((a, b) => { done = a; fail = b; });
    window.genuiDeferred.catch(() => {});
  }
  // The read of the deferred block starts once the first segment is in
  // (its scripts set window.genuiPackRead, which waits for the handshake):
  // the host's round trip then overlaps the inflating of the rest.
  let reading = null;
  const read = () => {
    if (!reading) {
      reading = window.genuiPackRead ? Promise.resolve(window.genuiPackRead(deferred)) : Promise.reject(new Error("the page has no way to read it"));
      reading.catch(() => {});
    }
    return reading;
  };
  try {
    await unpack(body.split(","), async () => {
      if (fail) read();
      if (window.genuiPackWait) await Promise.race([Promise.resolve(window.genuiPackWait).catch(() => {}), new Promise((r) => setTimeout(r, 250))]);
      await new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    });
    performance.mark("genui-unpacked");
  } catch (err) {
    if (fail) fail(err);
    fail = null;
    if (document.body) document.body.dataset.state = "error";
    const p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.textContent = "This view could not unpack its scripts (" + err + "). A browser with DecompressionStream is needed.";
    root().prepend(p);
  } finally {
    if (hide) hide.remove();
  }
  if (!fail) return;
  try {
    // A first script reads the block through the host (connect.js: the
    // App's resources/read); bounded, so the page never waits on it for good.
    let timer;
    const blob = await Promise.race([read(),
      new Promise((r, x) => { timer = setTimeout(() => x(new Error("the host did not answer within 10 s")), 10000); })]).finally(() => clearTimeout(timer));
    // The URI names the block by its SHA-256 (the first 16 bytes, hex): a
    // block that hashes otherwise is not the one Pack took out, and does not run.
    const z = bytes(String(blob));
    if (!crypto.subtle) throw new Error("the page is not in a secure context, so it cannot check what the host returned");
    const sum = new Uint8Array(await crypto.subtle.digest("SHA-256", z));
    if (!deferred.endsWith("/" + Array.from(sum.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join(""))) throw new Error("the host returned other scripts than the page names");
    await unpack([z]);
    performance.mark("genui-deferred");
    done(true);
  } catch (err) {
    fail(err);
  }
})();
