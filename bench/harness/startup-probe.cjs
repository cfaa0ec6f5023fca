/**
 * Loaded with `node --require` before the compiled server's entry (bench/startup-phases.ts): notes when each phase of
 * the start-up ends, as the server does it, without changing what it does, and writes the marks as JSON to
 * STARTUP_PROBE_OUT when the first `GET /readyz` answers 200. Plain CommonJS: the server it watches runs without tsx,
 * and so must this file (tsx's loader would slow every module the server loads).
 *
 * Times are `performance.now()`: milliseconds since the process began (Node's time origin).
 */
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const Module = require('node:module');
const net = require('node:net');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const out = process.env.STARTUP_PROBE_OUT;
/** [name, at] pairs, in the order they happened. */
const marks = [];
/** Per app module and step (`ResourcesModule.load`), its own time in ready(). */
const steps = [];
/** Self time of module loading by group (a package, or a folder of the compiled server). */
const loadSelfMs = new Map();
let modulesLoaded = 0;
const once = new Set();
function mark(name) {
  if (once.has(name)) return;
  once.add(name);
  marks.push([name, performance.now()]);
}
mark('node started');

function groupOf(file) {
  const at = file.lastIndexOf(`node_modules${path.sep}`);
  if (at >= 0) {
    const parts = file.slice(at + 'node_modules/'.length).split(path.sep);
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const parts = file.split(path.sep);
  const server = parts.lastIndexOf('server');
  const shared = parts.lastIndexOf('shared');
  if (server >= 0 && server > shared) return parts.slice(server, Math.min(server + 2, parts.length - 1)).join('/');
  if (shared >= 0) return 'shared';
  return path.basename(file);
}

// Module.prototype.load runs once per module first loaded (never for a cached one or a built-in), with the modules it
// requires loaded inside it: its time less theirs is the module's own. (Kept cheap: the probe's own work would
// otherwise show as loading.)
const loadModule = Module.prototype.load;
/** The time of the modules each module being loaded loaded, to take out of its own. */
const childTimes = [];
Module.prototype.load = function probedLoad(filename) {
  const started = performance.now();
  childTimes.push(0);
  try {
    return loadModule.apply(this, arguments);
  } finally {
    const took = performance.now() - started;
    const children = childTimes.pop();
    if (childTimes.length > 0) childTimes[childTimes.length - 1] += took;
    const group = groupOf(filename);
    loadSelfMs.set(group, (loadSelfMs.get(group) ?? 0) + took - children);
    modulesLoaded += 1;
    if (this.exports && typeof this.exports.App === 'function' && typeof this.exports.createApp === 'function') {
      probeApp(this.exports.App);
    }
    // The main module's requires are done when its last one returns: marked again until the app begins.
    if (this.parent && this.parent.id === '.' && !once.has('app created')) {
      marks.push(['modules loaded', performance.now()]);
    }
  }
};

function probeApp(App) {
  if (App.prototype.__startupProbe) return;
  App.prototype.__startupProbe = true;
  for (const method of ['registerSlots', 'registerResource', 'registerModule', 'registerDashboard', 'allowRemotes']) {
    const original = App.prototype[method];
    App.prototype[method] = function (...args) {
      mark('app created');
      return original.apply(this, args);
    };
  }
  const ready = App.prototype.ready;
  App.prototype.ready = function (...args) {
    mark('app created');
    mark('app configured');
    if (!this.__stepsProbed) {
      this.__stepsProbed = true;
      for (const module of this.modules) {
        for (const step of ['load', 'start', 'afterStart']) {
          const original = module[step];
          if (typeof original !== 'function') continue;
          module[step] = async function (...stepArgs) {
            const started = performance.now();
            try {
              return await original.apply(this, stepArgs);
            } finally {
              steps.push({ name: `${module.constructor.name}.${step}`, step, ms: performance.now() - started });
            }
          };
        }
      }
    }
    const readying = ready.apply(this, args);
    readying.then(
      () => mark('app ready'),
      () => undefined,
    );
    return readying;
  };
  const checkRuleNames = App.prototype.checkRuleNames;
  App.prototype.checkRuleNames = function (...args) {
    mark('entry seeded');
    return checkRuleNames.apply(this, args);
  };
}

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  mark('listen called');
  this.once('listening', () => mark('listening'));
  this.once('request', () => mark('first request'));
  return listen.apply(this, args);
};

const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (...args) {
  if (this.req && this.req.url === '/readyz' && this.statusCode === 200 && !once.has('first /readyz 200')) {
    mark('first /readyz 200');
    if (out) {
      const cpu = process.cpuUsage();
      const report = {
        marks: marks.map(([name, at]) => ({ name, at })),
        // On a busy machine the wall-clock phases stretch with the wait for a core; the CPU time much less.
        cpuMs: (cpu.user + cpu.system) / 1000,
        steps,
        modulesLoaded,
        loadSelfMs: Object.fromEntries([...loadSelfMs].sort((a, b) => b[1] - a[1])),
      };
      fs.writeFileSync(out, JSON.stringify(report));
    }
  }
  return end.apply(this, args);
};
