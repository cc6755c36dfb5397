-- Custom migration (drizzle-kit generate --custom): group takes from per-key rate buckets.
-- A bucket is GCRA's theoretical arrival time (tat_ms): `limit` events per `window` ms, all of
-- them at once at most, one every window/limit ms after that. take_rates decides a group of takes
-- in one call (one round trip, one commit), each its own upsert, in the order given (the caller
-- sorts by key id, so concurrent groups lock rows in the same order and cannot deadlock). Under
-- READ COMMITTED, ON CONFLICT DO UPDATE locks the row and computes from its latest committed
-- version, so instances racing one key never grant more than the bucket holds.
-- A take asks for `cost` events: granted are as many as still fit (all of them when `force`:
-- events that already happened), and the bucket moves on by granted x window/limit.
-- Each take brings its own clock (epoch ms). Returns one row per take, in order: events granted
-- and the bucket's tat after it.
CREATE OR REPLACE FUNCTION take_rates(
  p_key_ids integer[],
  p_buckets text[],
  p_limits integer[],
  p_windows double precision[],
  p_costs integer[],
  p_forces boolean[],
  p_nows double precision[]
) RETURNS TABLE (take_index integer, granted_now integer, tat_after double precision)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  n integer;
  step double precision;
  first integer;
  p_now double precision;
BEGIN
  FOR n IN 1 .. coalesce(array_length(p_key_ids, 1), 0) LOOP
    take_index := n;
    p_now := p_nows[n];
    step := p_windows[n] / p_limits[n];
    first := CASE WHEN p_forces[n] THEN p_costs[n] ELSE LEAST(p_costs[n], p_limits[n]) END;
    INSERT INTO rate_buckets AS r (key_id, bucket, tat_ms, granted)
    VALUES (p_key_ids[n], p_buckets[n], p_now + first * step, first)
    ON CONFLICT (key_id, bucket) DO UPDATE
      SET granted = CASE WHEN p_forces[n] THEN p_costs[n]
            ELSE LEAST(p_costs[n], GREATEST(0, floor((p_now + p_windows[n] - GREATEST(r.tat_ms, p_now)) / step + 1e-9)::integer)) END,
          tat_ms = GREATEST(r.tat_ms, p_now) + step * (CASE WHEN p_forces[n] THEN p_costs[n]
            ELSE LEAST(p_costs[n], GREATEST(0, floor((p_now + p_windows[n] - GREATEST(r.tat_ms, p_now)) / step + 1e-9)::integer)) END)
    RETURNING r.granted, r.tat_ms INTO granted_now, tat_after;
    RETURN NEXT;
  END LOOP;
END
$$;
