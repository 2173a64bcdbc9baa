/* genui offline UI: connects the App to the host as soon as the shim is in, before the page's
   other scripts are unpacked and its form is built, so the host's ui/initialize answer, tool input
   and tool result are on their way while the page gets ready (packed pages inflate the shim and
   this script first, on their own: data-genui-first). page.js takes the App from here; the
   App replays the tool input and result to the handlers page.js sets later. */
(function () {
  var tool = JSON.parse(document.getElementById("tool-data").textContent).tool;
  var app = new window.McpApps.App({ name: "genui-minimal-" + tool.name, version: "1.0.0" }, {}, { autoResize: true });
  window.genuiApp = app;
  window.genuiConnected = app.connect();
  /* page.js handles a failed handshake; this keeps it from being reported as unhandled meanwhile. */
  window.genuiConnected.catch(function () {});
})();
