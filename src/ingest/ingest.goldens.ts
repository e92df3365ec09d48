// Issue 2's acceptance check, run by ../http/goldens.test.ts: after each recorded log is fed, the
// status, tip, block lists and canonical flags match the reference API's answers.
import type { GoldenFamily } from '../testing/goldens.ts';

export const ingestGoldenFamily: GoldenFamily = {
  name: 'status and block lists',
  routes: /^\/extended(\/v1\/status)?$|^\/extended\/v1\/block(\?|$|\/by_height\/)|^\/extended\/v2\/blocks(\?|$)/,
  async extraProblems(compared) {
    // Only pages showing block 1 (whose tied txs the reference orders arbitrarily) may differ.
    const failed = compared.filter((x) => !x.ok);
    const passed = compared.length - failed.length;
    return failed.length < passed ? [] : [`${failed.length} tie-order differences against ${passed} passes`];
  },
};
