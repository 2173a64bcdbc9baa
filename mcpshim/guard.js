/*
 * genui page guard: the first script of a model-written page (InjectGuarded
 * puts it, with the App shim, ahead of anything the model wrote), so it runs
 * before any of the page's own script. It takes away from page script what
 * the page's CSP does not govern:
 * - WebRTC (RTCPeerConnection, webkitRTCPeerConnection, RTCDataChannel,
 *   RTCRtpSender/Receiver and every other RTC* interface) and WebTransport:
 *   each global is replaced by a non-configurable, non-writable undefined,
 *   which page script can neither restore nor redefine. (A TURN server's
 *   username goes out over UDP whatever connect-src says; current Chromium
 *   ignores CSP's webrtc directive.)
 * - script and frame elements made by script: document.createElement and
 *   createElementNS refuse script, iframe, frame, frameset, object, embed,
 *   fencedframe and portal (the page's CSP refuses inline scripts it did not
 *   hash anyway; a nested frame would be a fresh realm with fresh WebRTC
 *   globals).
 * - other realms: contentWindow, contentDocument and getSVGDocument of frame
 *   elements give null; after every DOM method that can insert markup or
 *   nodes, every child window of the document is locked down the same way
 *   before the call returns; a mutation observer removes any frame element
 *   that reached the document anyway (its realm dies with it).
 * Everything the guard needs is captured before the page runs; its state
 * lives in this closure, so no global a page sets beforehand or afterwards
 * turns it off. This file must never contain a closing script tag or an
 * HTML comment opener: it is inlined into a script element.
 */
(function (top) {
  "use strict";
  var apply = Reflect.apply;
  var defineProperty = Object.defineProperty;
  var getOwnNames = Object.getOwnPropertyNames;
  var getDesc = Object.getOwnPropertyDescriptor;
  var toStr = String;
  var toLower = String.prototype.toLowerCase;
  var slice = String.prototype.slice;
  var lastIndexOf = String.prototype.lastIndexOf;
  var TypeErr = TypeError;
  var done = new WeakSet();
  var wsHas = WeakSet.prototype.has;
  var wsAdd = WeakSet.prototype.add;
  var lengthGet = getDesc(top, "length").get;

  var BLOCKED_PREFIXES = ["RTC", "webkitRTC", "WebTransport"];
  var BLOCKED_TAGS = Object.create(null);
  var tags = ["script", "iframe", "frame", "frameset", "object", "embed", "fencedframe", "portal", "applet"];
  for (var t = 0; t < tags.length; t++) BLOCKED_TAGS[tags[t]] = true;
  var FRAME_SELECTOR = "iframe,frame,frameset,object,embed,fencedframe,portal,applet";
  var FRAME_INTERFACES = ["HTMLIFrameElement", "HTMLFrameElement", "HTMLObjectElement", "HTMLEmbedElement"];
  var FRAME_REALM_PROPS = ["contentWindow", "contentDocument"];

  // The DOM operations that insert nodes or parse markup into a document,
  // as [interface, name, kind]: after each, every window below the page is
  // locked down before page script sees it.
  var INSERTING = [
    ["Node", "appendChild"], ["Node", "insertBefore"], ["Node", "replaceChild"], ["Node", "moveBefore"],
    ["Element", "append"], ["Element", "prepend"], ["Element", "before"], ["Element", "after"],
    ["Element", "replaceWith"], ["Element", "replaceChildren"], ["Element", "insertAdjacentElement"],
    ["Element", "insertAdjacentHTML"], ["Element", "setHTMLUnsafe"], ["Element", "setHTML"],
    ["Element", "innerHTML", "set"], ["Element", "outerHTML", "set"],
    ["CharacterData", "before"], ["CharacterData", "after"], ["CharacterData", "replaceWith"],
    ["DocumentType", "before"], ["DocumentType", "after"], ["DocumentType", "replaceWith"],
    ["DocumentFragment", "append"], ["DocumentFragment", "prepend"], ["DocumentFragment", "replaceChildren"],
    ["ShadowRoot", "setHTMLUnsafe"], ["ShadowRoot", "setHTML"], ["ShadowRoot", "innerHTML", "set"],
    ["Document", "append"], ["Document", "prepend"], ["Document", "replaceChildren"], ["Document", "write"],
    ["Document", "writeln"], ["Document", "execCommand"], ["Document", "body", "set"],
    ["Range", "insertNode"], ["Range", "surroundContents"],
    ["HTMLSelectElement", "add"], ["HTMLOptionsCollection", "add"],
    ["HTMLTableElement", "caption", "set"], ["HTMLTableElement", "tHead", "set"], ["HTMLTableElement", "tFoot", "set"]
  ];

  function startsWith(s, p) {
    return s.length >= p.length && apply(slice, s, [0, p.length]) === p;
  }

  function protoOf(win, name) {
    var d = getDesc(win, name);
    return d && d.value && d.value.prototype;
  }

  function lockGlobals(win) {
    var names = getOwnNames(win);
    for (var i = 0; i < names.length; i++) {
      for (var j = 0; j < BLOCKED_PREFIXES.length; j++) {
        if (!startsWith(names[i], BLOCKED_PREFIXES[j])) continue;
        try {
          defineProperty(win, names[i], { value: undefined, writable: false, enumerable: false, configurable: false });
        } catch (e) { /* already locked */ }
        break;
      }
    }
  }

  function nullGetter() { return null; }

  function hideFrameRealms(win) {
    for (var i = 0; i < FRAME_INTERFACES.length; i++) {
      var proto = protoOf(win, FRAME_INTERFACES[i]);
      if (!proto) continue;
      for (var j = 0; j < FRAME_REALM_PROPS.length; j++) {
        var d = getDesc(proto, FRAME_REALM_PROPS[j]);
        if (d && d.configurable) defineProperty(proto, FRAME_REALM_PROPS[j], { get: nullGetter, enumerable: d.enumerable, configurable: false });
      }
      var g = getDesc(proto, "getSVGDocument");
      if (g && g.configurable) defineProperty(proto, "getSVGDocument", { value: nullGetter, writable: false, enumerable: g.enumerable, configurable: false });
    }
  }

  function refuseTag(qname) {
    var name = apply(toLower, qname, []);
    var colon = apply(lastIndexOf, name, [":"]);
    if (colon >= 0) name = apply(slice, name, [colon + 1]);
    if (BLOCKED_TAGS[name]) throw new TypeErr("genui: this page may not create <" + name + "> elements");
  }

  function guardCreate(win) {
    var proto = protoOf(win, "Document");
    if (!proto) return;
    var ce = getDesc(proto, "createElement");
    if (ce && ce.configurable && typeof ce.value === "function") {
      var createElement = ce.value;
      defineProperty(proto, "createElement", {
        value: function createElement_(tag, options) {
          var name = toStr(tag); // converted once: a toString cannot answer differently later
          refuseTag(name);
          return apply(createElement, this, [name, options]);
        }, writable: false, enumerable: ce.enumerable, configurable: false
      });
    }
    var cen = getDesc(proto, "createElementNS");
    if (cen && cen.configurable && typeof cen.value === "function") {
      var createElementNS = cen.value;
      defineProperty(proto, "createElementNS", {
        value: function createElementNS_(ns, qname, options) {
          var name = toStr(qname);
          refuseTag(name);
          return apply(createElementNS, this, [ns, name, options]);
        }, writable: false, enumerable: cen.enumerable, configurable: false
      });
    }
  }

  function wrapInserting(win) {
    for (var i = 0; i < INSERTING.length; i++) {
      var proto = protoOf(win, INSERTING[i][0]);
      if (!proto) continue;
      var name = INSERTING[i][1], d = getDesc(proto, name);
      if (!d || !d.configurable) continue;
      if (INSERTING[i][2] === "set") {
        if (typeof d.set === "function") defineProperty(proto, name, { get: d.get, set: afterSetter(d.set), enumerable: d.enumerable, configurable: false });
      } else if (typeof d.value === "function") {
        defineProperty(proto, name, { value: afterMethod(d.value), writable: false, enumerable: d.enumerable, configurable: false });
      }
    }
    // A shadow root is watched like the document.
    var ep = protoOf(win, "Element"), as = ep && getDesc(ep, "attachShadow");
    if (as && as.configurable && typeof as.value === "function") {
      var attachShadow = as.value;
      defineProperty(ep, "attachShadow", {
        value: function () {
          var root = apply(attachShadow, this, arguments);
          watch(win, root);
          return root;
        }, writable: false, enumerable: as.enumerable, configurable: false
      });
    }
  }

  function afterMethod(orig) {
    return function () {
      try {
        return apply(orig, this, arguments);
      } finally {
        lockTree(top, 0);
      }
    };
  }

  function afterSetter(set) {
    return function (v) {
      try {
        apply(set, this, [v]);
      } finally {
        lockTree(top, 0);
      }
    };
  }

  // lockTree locks down every window below win (same-origin ones: about:blank
  // and srcdoc frames; nothing else loads under the CSP's frame-src 'none').
  function lockTree(win, depth) {
    if (depth > 16) return;
    var n;
    try { n = apply(lengthGet, win, []); } catch (e) { return; }
    for (var i = 0; i < n; i++) {
      try {
        var child = win[i];
        lockdown(child);
        lockTree(child, depth + 1);
      } catch (e) { /* not same-origin, or gone */ }
    }
  }

  // watch removes frame elements that reach root's tree by a way no wrapper
  // saw (their realms die with them) and locks down the windows below.
  function watch(win, root) {
    var MO = getDesc(win, "MutationObserver"), ep = protoOf(win, "Element"), fp = protoOf(win, "DocumentFragment");
    if (!MO || !MO.value || !ep) return;
    var remove = getDesc(ep, "remove").value;
    var qsa = (root.nodeType === 11 && fp ? getDesc(fp, "querySelectorAll") : getDesc(protoOf(win, "Document"), "querySelectorAll")).value;
    var observer = new MO.value(function () {
      try {
        var found = apply(qsa, root, [FRAME_SELECTOR]);
        for (var i = 0; i < found.length; i++) apply(remove, found[i], []);
      } catch (e) { /* nothing to remove */ }
      lockTree(top, 0);
    });
    apply(MO.value.prototype.observe, observer, [root, { childList: true, subtree: true }]);
  }

  function lockdown(win) {
    var doc = win.document; // [LegacyUnforgeable]: a new document is a new realm to lock
    if (apply(wsHas, done, [doc])) return;
    apply(wsAdd, done, [doc]);
    lockGlobals(win);
    hideFrameRealms(win);
    guardCreate(win);
    wrapInserting(win);
    watch(win, doc);
  }

  lockdown(top);
})(window);
