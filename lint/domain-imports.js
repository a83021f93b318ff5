// @ts-check
import fs from 'node:fs';
import path from 'node:path';

/**
 * Lint rules for the import lines inside a layer (eslint.config.js wires them):
 *
 * - `server-domains`: a folder of server/ imports another folder only through its index.ts,
 *   and only a folder declared before it in `order` (so the domains form a graph without
 *   cycles: an import that goes back up the order fails). `core` folders (db/, http/) sit below
 *   every domain and are imported freely; they import no domain. Of the files directly in
 *   server/, only `composition` ones (the app, the domain list, the start-up) import domains
 *   (through their index.ts); the others (context.ts, errors.ts, time.ts, ...) are core and
 *   may only name a domain's types (`import type` from its index.ts: AppDeps's settings).
 * - `feature-index`: a folder of src/features/ imports another feature only through its
 *   index.ts.
 * - `worker-domain-index`: a domain of worker/domains/ (a folder, or a single file such as
 *   `user.ts`) imports another domain's folder only through its index.ts.
 *
 * Paths are resolved from the file being linted, so `../../documents/sanitize` from
 * server/ingest/filings/ is server/documents/sanitize.
 */

/** @typedef {import('eslint').Rule.RuleModule} RuleModule */
/** @typedef {import('eslint').Rule.RuleContext} RuleContext */

/**
 * Calls `check(node, specifier)` for every import, re-export and dynamic import with a literal
 * relative specifier.
 * @param {(node: any, specifier: string) => void} check
 */
const onImports = (check) => {
  /** @param {any} node */
  const visit = (node) => {
    const source = node.source;
    if (source && source.type === 'Literal' && typeof source.value === 'string') {
      if (source.value.startsWith('.')) check(source, source.value);
    }
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
  };
};

/**
 * Where `abs` sits under `base`: its first folder and the rest of its path (no extension);
 * null when it is not inside a folder of `base`.
 * @param {string} base
 * @param {string} abs
 */
const placeIn = (base, abs) => {
  const rel = path.relative(base, abs).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [folder, ...rest] = rel.replace(/\.(ts|tsx|js|mjs)$/, '').split('/');
  return { folder, rest: rest.join('/') };
};

const isIndex = (/** @type {string} */ rest) => rest === '' || rest === 'index';

const isDirectory = (/** @type {string} */ p) => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** @type {RuleModule} */
const serverDomains = {
  meta: {
    type: 'problem',
    docs: { description: 'server/ domains import each other only through index.ts, downwards' },
    schema: [
      {
        type: 'object',
        properties: {
          order: { type: 'array', items: { type: 'string' } },
          core: { type: 'array', items: { type: 'string' } },
          composition: { type: 'array', items: { type: 'string' } },
        },
        required: ['order'],
        additionalProperties: false,
      },
    ],
    messages: {
      deep: 'server/{{from}} may import server/{{to}} only through its index.ts, not {{target}}.',
      back:
        'server/{{from}} may not import server/{{to}}: {{to}} comes after {{from}} in the server ' +
        'domain order (eslint.config.js SERVER_DOMAIN_ORDER), so this import goes back up and ' +
        'would make a cycle. Move what both need down, or the caller up.',
      unknown:
        'server/{{folder}}/ is not in the server domain order: add it to SERVER_DOMAIN_ORDER in ' +
        'eslint.config.js, after every domain it imports.',
      core: 'server/{{from}} is core (below every domain) and may not import server/{{to}}.',
    },
  },
  create(context) {
    const { order, core = [], composition = [] } = context.options[0];
    const server = path.resolve(context.cwd, 'server');
    const file = context.physicalFilename;
    const self = placeIn(server, file);
    if (!self) return {};
    // A file directly in server/: `folder` is its name, e.g. `app`.
    const rootFile = self.rest === '' ? self.folder : null;
    const from = rootFile ? `${rootFile}.ts` : self.folder;
    const isFolder = (/** @type {string} */ name) =>
      order.includes(name) || core.includes(name) || isDirectory(path.join(server, name));
    const rank = (/** @type {string} */ folder) => order.indexOf(folder);
    return onImports((node, specifier) => {
      const target = placeIn(server, path.resolve(path.dirname(file), specifier));
      // Outside server/ (contract/: the layer rules see to it), or a file of server/ itself.
      if (!target || (target.rest === '' && !isFolder(target.folder))) return;
      const to = target.folder;
      if ((!rootFile && to === self.folder) || core.includes(to)) return;
      // server/'s own core files may name a domain's types (AppDeps holds their settings):
      // no code of the domain runs for them. Its code only the composition imports.
      const typeOnly = node.parent?.importKind === 'type' || node.parent?.exportKind === 'type';
      const coreFile = rootFile ? !composition.includes(rootFile) : core.includes(self.folder);
      if (coreFile && !(rootFile && typeOnly)) {
        context.report({ node, messageId: 'core', data: { from, to } });
      } else if (!isIndex(target.rest)) {
        context.report({
          node,
          messageId: 'deep',
          data: { from, to, target: `${to}/${target.rest}` },
        });
      } else if (rootFile) {
        // A type of a domain named by a core file, or composition (the domain list, the app,
        // the start-up), which sits above every domain.
      } else if (rank(self.folder) < 0) {
        context.report({ node, messageId: 'unknown', data: { folder: self.folder } });
      } else if (rank(to) < 0) {
        context.report({ node, messageId: 'unknown', data: { folder: to } });
      } else if (rank(to) >= rank(self.folder)) {
        context.report({ node, messageId: 'back', data: { from, to } });
      }
    });
  },
};

/**
 * A rule that lets a folder of `base` import another folder of it only through its index.ts.
 * With `flat`, a file directly in `base` is a one-file member of its own (worker/domains/
 * user.ts is the user domain) and is held to the same line; without, it is not checked.
 * @param {{ base: string, what: string, flat: boolean }} options
 * @returns {RuleModule}
 */
const indexOnly = ({ base, what, flat }) => ({
  meta: {
    type: 'problem',
    docs: { description: `${what} imports another only through its index.ts` },
    schema: [],
    messages: {
      deep: `${base}/{{from}} may import ${base}/{{to}} only through its index.ts, not {{target}}.`,
    },
  },
  create(context) {
    const root = path.resolve(context.cwd, base);
    const file = context.physicalFilename;
    const self = placeIn(root, file);
    if (!self || (self.rest === '' && !flat)) return {};
    return onImports((node, specifier) => {
      const target = placeIn(root, path.resolve(path.dirname(file), specifier));
      if (!target || target.folder === self.folder || isIndex(target.rest)) return;
      context.report({
        node,
        messageId: 'deep',
        data: { from: self.folder, to: target.folder, target: `${target.folder}/${target.rest}` },
      });
    });
  },
});

const featureIndex = indexOnly({ base: 'src/features', what: 'a UI feature', flat: false });
const workerDomainIndex = indexOnly({
  base: 'worker/domains',
  what: 'a worker domain',
  flat: true,
});

export const domainImports = {
  rules: {
    'server-domains': serverDomains,
    'feature-index': featureIndex,
    'worker-domain-index': workerDomainIndex,
  },
};
