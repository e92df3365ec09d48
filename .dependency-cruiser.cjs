// The layer rules of docs/ARCHITECTURE.md, checked by `npm run check:layers` (run by .ci/run).
// A folder of src/ may import its own files and the folders of lower layers, never a folder of its
// own layer or above. Tests (*.test.ts) may import anything; test support (src/testing) is
// imported only by tests and by the goldens wiring (*.goldens.ts, src/http/goldens/).
const LAYERS = [
  ['stacks'],
  ['config', 'metrics', 'runtime'],
  ['server', 'storage', 'render'],
  ['serving'],
  ['workers'],
  ['ingest'],
  ['http'],
  ['realtime'],
  ['api-threads'],
  ['cli'],
];
const TEST = '\\.test\\.ts$';
const GOLDENS = '\\.goldens\\.ts$|^src/http/goldens/';
const folders = (names) => `^src/(${names.join('|')})/`;

const layerRules = LAYERS.flatMap((layer, rank) =>
  layer.map((name) => {
    const notBelow = LAYERS.slice(rank).flat().filter((n) => n !== name);
    return {
      name: `${name}-imports-only-lower-layers`,
      comment: `src/${name} may import only ${rank === 0 ? 'itself' : LAYERS.slice(0, rank).flat().map((n) => `src/${n}`).join(', ')}.`,
      severity: 'error',
      from: { path: `^src/${name}/`, pathNot: `${TEST}|${GOLDENS}` },
      to: rank === 0 ? { path: '^src/', pathNot: '^src/stacks/' } : { path: folders(notBelow) },
    };
  }),
);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'test-support-is-for-tests',
      comment: 'src/testing is test support: only tests and the goldens wiring import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${TEST}|${GOLDENS}|^src/testing/` },
      to: { path: '^src/testing/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
  },
};
