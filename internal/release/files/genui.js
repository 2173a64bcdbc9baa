#!/usr/bin/env node
// genui's npm launcher. npm installs the genui binary for this machine from
// one of this package's optional dependencies, @genui/<platform>-<arch>
// (each declares its "os" and "cpu", so npm picks the matching one). This
// script finds that binary and runs it with the same arguments, stdin,
// stdout and stderr (inherited, so `genui mcp` speaks JSON-RPC straight to
// the host and `genui tui` owns the terminal), forwards termination signals
// to it and exits with its status.
'use strict';

const { spawn } = require('child_process');
const os = require('os');

const manifest = require('../package.json');
const platformPackage = `@genui/${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'genui.exe' : 'genui';

function fail(message) {
  process.stderr.write(`genui: ${message}\n`);
  process.exit(1);
}

function findBinary() {
  try {
    return require.resolve(`${platformPackage}/bin/${exe}`);
  } catch {
    // Not installed: say why it could be.
  }
  const known = Object.keys(manifest.optionalDependencies || {});
  if (!known.includes(platformPackage)) {
    const platforms = known.map((name) => name.replace('@genui/', '')).join(', ');
    fail(
      `genui ${manifest.version} has no binary for ${process.platform}-${process.arch} ` +
        `(npm packages exist for ${platforms || 'no platform'}). ` +
        `See ${manifest.homepage} for other ways to install it (go install, release archives).`,
    );
  }
  fail(
    `the package ${platformPackage}@${manifest.version}, which holds genui's binary for this ` +
      `machine, is not installed. npm installs it as an optional dependency of genui: it is ` +
      `missing when npm could not download it, after an install with --omit=optional (or ` +
      `--no-optional), or when node_modules ` +
      `was copied from another platform. Reinstall genui on this machine with optional ` +
      `dependencies included.`,
  );
}

const binary = findBinary();

// A signal sent to this launcher (a host stopping its MCP server, `kill`)
// goes on to genui, which shuts down cleanly; the launcher stays until
// genui has exited. The handlers are in place before genui starts (a
// signal is delivered to them once this script has run, when child is
// set), so none falls between genui's start and theirs.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let child;
const relay = (signal) => {
  try {
    child.kill(signal);
  } catch {
    // Already gone: its exit event follows.
  }
};
for (const signal of forwarded) process.on(signal, relay);

child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
child.on('error', (err) => fail(`cannot run ${binary}: ${err.message}`));
child.on('exit', (code, signal) => {
  for (const s of forwarded) process.removeListener(s, relay);
  if (signal) {
    // End the same way, so the caller sees the signal; a signal Node
    // ignores (SIGPIPE) falls through to the shell's 128+n status.
    process.kill(process.pid, signal);
    process.exit(128 + (os.constants.signals[signal] || 0));
  }
  process.exit(code === null ? 1 : code);
});
