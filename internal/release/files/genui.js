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
const fs = require('fs');
const os = require('os');
const path = require('path');

// This package's own folder and manifest, read by path (never through
// require's search, which walks every parent node_modules and NODE_PATH).
const packageRoot = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
const platformPackage = `@genui/${process.platform}-${process.arch}`;
const pinned = (manifest.optionalDependencies || {})[platformPackage];
const exe = process.platform === 'win32' ? 'genui.exe' : 'genui';

function fail(message) {
  process.stderr.write(`genui: ${message}\n`);
  process.exit(1);
}

// installLocations are the only two places npm puts this package's
// platform package: nested under this package (node_modules/genui/
// node_modules/@genui/<platform>) or hoisted beside it in the same
// node_modules. Nothing else is looked at: not a parent node_modules, not
// NODE_PATH, not the global folders, where anyone could have planted a
// package of that name.
function installLocations() {
  const places = [path.join(packageRoot, 'node_modules', platformPackage)];
  let modules = packageRoot;
  for (let i = 0; i < manifest.name.split('/').length; i++) modules = path.dirname(modules);
  if (path.basename(modules) === 'node_modules') places.push(path.join(modules, platformPackage));
  return places;
}

function readManifest(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
}

// findBinary returns the binary of the platform package installed with
// this launcher, after checking that the package is the one it pins (its
// name and exact version), or explains what is missing and exits.
function findBinary() {
  const known = Object.keys(manifest.optionalDependencies || {});
  if (!pinned) {
    const platforms = known.map((name) => name.replace('@genui/', '')).join(', ');
    fail(
      `genui ${manifest.version} has no binary for ${process.platform}-${process.arch} ` +
        `(npm packages exist for ${platforms || 'no platform'}). ` +
        `See ${manifest.homepage} for other ways to install it (go install, release archives).`,
    );
  }
  const refused = [];
  for (const dir of installLocations()) {
    const found = readManifest(dir);
    if (!found) continue;
    if (found.name !== platformPackage || found.version !== pinned) {
      refused.push(`${dir} holds ${found.name}@${found.version}`);
      continue;
    }
    const binary = path.join(dir, 'bin', exe);
    let stat;
    try {
      stat = fs.statSync(binary);
    } catch {
      refused.push(`${dir} has no bin/${exe}`);
      continue;
    }
    if (stat.isFile()) return binary;
    refused.push(`${binary} is not a file`);
  }
  if (refused.length > 0) {
    fail(
      `genui ${manifest.version} runs only the binary of ${platformPackage}@${pinned} installed with it, ` +
        `and did not find it: ${refused.join('; ')}. Reinstall genui on this machine.`,
    );
  }
  fail(
    `the package ${platformPackage}@${pinned}, which holds genui's binary for this ` +
      `machine, is not installed beside genui (looked in ${installLocations().join(' and ')}). ` +
      `npm installs it as an optional dependency of genui: it is ` +
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
