-- Each principal's STX transfers per day and cycle with every counterparty summed, so a principal's
-- series (/principals/:p/series) reads two rows per bucket instead of one per counterparty (the
-- heaviest generated principal: 94k flow rows over 38 days).
--
-- Kind (in analytics_by_key only; the processor writes it there beside the block's other rows,
-- src/ingest/processor/analytics.ts, signed as they are):
--   pstx   principal / 'in' or 'out' / -    STX transfers received or sent (n), µSTX (amount)

-- A store made before this migration gets it from its STX flow rows.
INSERT INTO analytics_by_key (unit, kind, a, bucket, b, c, n, amount)
SELECT unit, 'pstx', a, bucket, if(kind = 'flow_in', 'in', 'out'), '', sum(n), sum(amount) FROM analytics_by_key
WHERE kind IN ('flow_in', 'flow_out') AND b = 'stx' GROUP BY unit, a, bucket, kind HAVING sum(n) != 0 OR sum(amount) != 0;
