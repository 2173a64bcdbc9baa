/* genui offline UI: connects the App to the host as soon as the shim is in, before the page's
   other scripts are unpacked and its form is built, so the host's ui/initialize answer, tool input
   and tool result are on their way while the page gets ready (packed pages inflate the shim and
   this script first, on their own: data-genui-first). page.js takes the App from here; the
   App replays the tool input and result to the handlers page.js sets later. */
(function () {
  /* The theme the host will most likely send (the system's), set before the styles are in: the
     host's theme then changes nothing, where setting it on a styled page (color-scheme is
     inherited) made the browser compute the style of every element again (4.5 ms in
     bench/pagerender's trace). page.js takes it back if the host sends no theme. */
  var root = document.documentElement;
  if (!root.hasAttribute("data-theme") && window.matchMedia) {
    var guess = window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    root.setAttribute("data-theme", guess);
    root.style.colorScheme = guess;
    window.genuiThemeGuess = guess;
  }
  /* The page's content is held out of layout (display: none) until the handshake is done (or fails,
     or a tool input or result comes), at the latest 300 ms after this line: the browser then does
     not lay out the form alone when parsing ends nor paint frames of it while the page waits for
     the host (bench/pagerender: the host and the frame share one thread). */
  var body = document.body, held = setTimeout(release, 300);
  function release() {
    clearTimeout(held);
    body.removeAttribute("data-genui-held");
  }
  body.setAttribute("data-genui-held", "");
  window.genuiRelease = release;
  var tool = JSON.parse(document.getElementById("tool-data").textContent).tool;
  var app = new window.McpApps.App({ name: "genui-minimal-" + tool.name, version: "1.0.0" }, {}, { autoResize: true });
  window.genuiApp = app;
  window.genuiConnected = app.connect();
  /* page.js handles a failed handshake; this keeps it from being reported as unhandled meanwhile. */
  window.genuiConnected.catch(function () {});
  /* The packed page's loader unpacks the rest once the handshake is done (pagepack): the host's
     answer is then handled when it comes, not after the rest's styles and scripts, and the host
     sends the tool input and result while the page unpacks. */
  window.genuiPackWait = window.genuiConnected;
  /* A packed page reads its deferred scripts (the rich views) through the host once the handshake
     is done: a resources/read of genui's ui://genui/pack/ URI, which the host passes on when it
     says serverResources. */
  window.genuiPackRead = function (uri) {
    return window.genuiConnected.then(function () {
      var caps = app.getHostCapabilities() || {};
      if (!caps.serverResources) throw new Error("the host does not pass a view's resource reads on to the server (no serverResources)");
      return app.readServerResource({ uri: uri });
    }).then(function (r) {
      var c = r && r.contents && r.contents[0];
      if (!c || typeof c.blob !== "string") throw new Error("the host's answer holds no blob");
      return c.blob;
    });
  };
})();
