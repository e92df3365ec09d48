// The /analytics dashboard: charts drawn in the browser (uPlot, served by this service) from the
// /extended/analytics/v1 answers. Each chart element records what it drew (data-points, data-total,
// data-series-pixels) and <body data-ready> is set when all are done, for the browser test.
'use strict';
(function () {
  const API = '/extended/analytics/v1';
  const COLOR = '#2563eb';
  const getJson = async (path) => {
    const res = await fetch(API + path);
    if (!res.ok) throw new Error(path + ': ' + res.status);
    return res.json();
  };
  const width = (el) => Math.max(320, el.clientWidth || 520);

  /** Pixels of the series colour on the chart's canvas: proof that the series itself was drawn. */
  function seriesPixels(u) {
    const c = u.ctx.canvas;
    const img = u.ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < img.length; i += 4) {
      const r = img[i], g = img[i + 1], b = img[i + 2], a = img[i + 3];
      if (a > 128 && b > 180 && r < 110 && g > 60 && g < 160) n++;
    }
    return n;
  }

  /** Charts still drawing: uPlot draws after construction; its draw hook records what it drew. */
  const drawn = [];
  function recorder(el, ys) {
    let done;
    drawn.push(new Promise((resolve) => (done = resolve)));
    return (u) => {
      el.dataset.points = String(ys.length);
      el.dataset.total = String(ys.reduce((s, y) => s + (y || 0), 0));
      el.dataset.seriesPixels = String(seriesPixels(u));
      done();
    };
  }

  function lineChart(id, points, scale) {
    const el = document.getElementById(id);
    const xs = points.map((p) => p.bucket);
    const ys = points.map((p) => Number(p.value) / (scale || 1));
    new uPlot(
      {
        width: width(el),
        height: 220,
        // A lone bucket gets half a day either side (an empty span would place it nowhere).
        scales: { x: xs.length === 1 ? { time: true, auto: false, range: [xs[0] - 43200, xs[0] + 43200] } : { time: true } },
        series: [{}, { stroke: COLOR, width: 2, fill: 'rgba(37,99,235,0.12)', points: { show: xs.length < 60, fill: COLOR, size: 8 } }],
        axes: [{}, { size: 60 }],
        hooks: { draw: [recorder(el, ys)] },
      },
      [xs, ys],
      el,
    );
  }

  function barChart(id, labels, values) {
    const el = document.getElementById(id);
    const xs = labels.map((_, i) => i);
    new uPlot(
      {
        width: width(el),
        height: 220,
        scales: { x: { time: false, range: [-0.5, Math.max(labels.length - 0.5, 0.5)] } },
        series: [{}, { stroke: COLOR, fill: COLOR, width: 1, paths: uPlot.paths.bars({ size: [0.6, 64] }), points: { show: false } }],
        axes: [{ values: (_u, ticks) => ticks.map((t) => labels[t] ?? '') }, { size: 60 }],
        hooks: { draw: [recorder(el, values)] },
      },
      [xs, values],
      el,
    );
  }

  async function main() {
    const [txs, fees, senders, blocks, top, tokens] = await Promise.all([
      getJson('/chain/series?metric=txs&interval=day'),
      getJson('/chain/series?metric=fees&interval=day'),
      getJson('/chain/series?metric=active_senders&interval=day'),
      getJson('/chain/series?metric=blocks&interval=day'),
      getJson('/contracts/top?by=calls&limit=10'),
      getJson('/tokens/ft/top?by=transfers&limit=1'),
    ]);
    lineChart('chart-txs', txs.results);
    lineChart('chart-fees', fees.results, 1e6);
    lineChart('chart-senders', senders.results);
    lineChart('chart-blocks', blocks.results);
    barChart('chart-contracts', top.results.map((_c, i) => '#' + (i + 1)), top.results.map((c) => Number(c.value)));
    const list = document.getElementById('list-contracts');
    for (const c of top.results) {
      const li = document.createElement('li');
      li.textContent = c.contract_id + ': ' + c.value + ' calls';
      list.appendChild(li);
    }
    const asset = tokens.results[0] && tokens.results[0].asset;
    if (asset) {
      const d = await getJson('/tokens/ft/' + encodeURIComponent(asset) + '/distribution?limit=5');
      document.getElementById('asset-name').textContent = asset;
      barChart('chart-holders', d.buckets.map((b) => '≥1e' + (b.min_balance.length - 1)), d.buckets.map((b) => b.holders));
      document.getElementById('holders-summary').textContent =
        d.holders + ' holders, Gini ' + (d.gini === null ? '–' : d.gini.toFixed(3)) + '; top: ' + d.top_holders.map((h) => h.principal.slice(0, 10) + '… ' + h.balance).join(', ');
      document.getElementById('chart-holders').dataset.asset = asset;
    }
    await Promise.all(drawn);
    document.getElementById('status').textContent = 'updated ' + new Date().toISOString();
  }

  main()
    .catch((e) => {
      document.body.dataset.error = String(e && e.message ? e.message : e);
      document.getElementById('status').textContent = 'error: ' + document.body.dataset.error;
    })
    .finally(() => {
      document.body.dataset.ready = '1';
    });
})();
