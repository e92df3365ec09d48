-- Each contract's distinct canonical callers over the whole history, counted at ingest
-- (src/ingest/processor/unique-callers.ts) so that /contracts/top?by=unique_callers over all of
-- history reads a row per contract instead of one per cycle, contract and caller.
--
-- Kind (in analytics_by_bucket only; the materialized view into analytics_by_key skips it):
--   ucaller   contract / - / -    unit 'all', bucket 0: +1 when a (contract, sender) pair's canonical
--                                 calls turn positive, -1 when a reorg takes them back to zero
--                                 (sum(n) = the contract's distinct callers)
--
-- A store made before this migration gets the rows from its 'caller' totals.
INSERT INTO analytics_by_bucket (unit, kind, bucket, a, b, c, n, amount)
SELECT 'all', 'ucaller', 0, a, '', '', count(), 0 FROM (
  SELECT a, b FROM analytics_by_key WHERE unit = 'cycle' AND kind = 'caller' GROUP BY a, b HAVING sum(n) > 0)
GROUP BY a;
