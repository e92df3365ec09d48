// The reference lists a block's transactions with PostgreSQL's `ORDER BY microblock_sequence,
// tx_index`, and block 1 shows block 0's boot receipts with tx_index + 1, so some keys tie. Its
// answers order those ties as PostgreSQL's in-memory sort leaves them given the rows' heap order
// (recorded answers fit: boot receipts by tx_index descending, then the block's own txs likewise).
// This is that sort (src/include/lib/sort_template.h: insertion sort below 7 items, a presorted
// check, median-of-three pivot, Bentley-McIlroy three-way partition), so ties come out the same.

export function postgresSort<T>(input: readonly T[], cmp: (a: T, b: T) => number): T[] {
  const a = [...input];
  const swap = (i: number, j: number) => {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  };
  const swapRange = (i: number, j: number, n: number) => {
    for (let k = 0; k < n; k++) swap(i + k, j + k);
  };
  const med3 = (x: number, y: number, z: number) =>
    cmp(a[x], a[y]) < 0 ? (cmp(a[y], a[z]) < 0 ? y : cmp(a[x], a[z]) < 0 ? z : x) : cmp(a[y], a[z]) > 0 ? y : cmp(a[x], a[z]) < 0 ? x : z;

  const sort = (lo: number, n: number): void => {
    for (;;) {
      if (n < 7) {
        for (let m = lo + 1; m < lo + n; m++) for (let l = m; l > lo && cmp(a[l - 1], a[l]) > 0; l--) swap(l, l - 1);
        return;
      }
      let presorted = true;
      for (let m = lo + 1; m < lo + n && presorted; m++) presorted = cmp(a[m - 1], a[m]) <= 0;
      if (presorted) return;
      let m = lo + (n >> 1);
      if (n > 7) {
        let l = lo;
        let h = lo + n - 1;
        if (n > 40) {
          const d = n >> 3;
          l = med3(l, l + d, l + 2 * d);
          m = med3(m - d, m, m + d);
          h = med3(h - 2 * d, h - d, h);
        }
        m = med3(l, m, h);
      }
      swap(lo, m);
      let pa = lo + 1;
      let pb = pa;
      let pc = lo + n - 1;
      let pd = pc;
      for (;;) {
        let r: number;
        while (pb <= pc && (r = cmp(a[pb], a[lo])) <= 0) {
          if (r === 0) swap(pa++, pb);
          pb++;
        }
        while (pb <= pc && (r = cmp(a[pc], a[lo])) >= 0) {
          if (r === 0) swap(pc, pd--);
          pc--;
        }
        if (pb > pc) break;
        swap(pb++, pc--);
      }
      const pn = lo + n;
      let d1 = Math.min(pa - lo, pb - pa);
      swapRange(lo, pb - d1, d1);
      d1 = Math.min(pd - pc, pn - pd - 1);
      swapRange(pb, pn - d1, d1);
      d1 = pb - pa;
      const d2 = pd - pc;
      if (d1 <= d2) {
        if (d1 > 1) sort(lo, d1);
        if (d2 <= 1) return;
        lo = pn - d2;
        n = d2;
      } else {
        if (d2 > 1) sort(pn - d2, d2);
        if (d1 <= 1) return;
        n = d1;
      }
    }
  };
  sort(0, a.length);
  return a;
}
